import Favorites
import Foundation
import Inquiry
import Listings
import Login
import Mediator
import Networking

/// What screens need from the app: the engine, the favourites, the mediator, the clock.
@MainActor
public final class HomesContext {
    public let engine: APIEngine
    public let favorites: FavoritesLogic
    /// The sign-in logic, shared by every screen of the session.
    public let login: LoginLogic
    public let mediator: Mediator
    public let now: @Sendable () -> Date

    /// The context of one app session.
    public init(engine: APIEngine, favorites: FavoritesLogic, mediator: Mediator, now: @escaping @Sendable () -> Date) {
        self.engine = engine
        self.favorites = favorites
        login = LoginLogic(engine: engine)
        self.mediator = mediator
        self.now = now
    }

    /// Registers the targets of the screens with the mediator.
    public func registerTargets() {
        mediator.register(target: "listing") { [unowned self] in ListingTarget(context: self) }
        mediator.register(target: "favorites") { [unowned self] in FavoritesTarget(context: self) }
        mediator.register(target: "account") { [unowned self] in AccountTarget(context: self) }
    }
}

/// The listing screens' target: `homes://listing/detail?kind=rent&id=3`.
@MainActor
final class ListingTarget: @MainActor MediatorTarget {
    private unowned let context: HomesContext

    init(context: HomesContext) {
        self.context = context
    }

    func registerActions(_ actions: TargetActions) {
        actions.on("detail", allowsRemoteCalls: true) { [context] params in
            guard let kind = params.string("kind").flatMap(ListingKind.init(rawValue:)) else {
                throw MediatorError.badParameters("kind must be rent, new or resale")
            }
            guard let id = params.int("id"), id > 0 else { throw MediatorError.badParameters("id must be a positive number") }
            return ListingDetailController(logic: ListingDetailLogic(kind: kind, id: id, engine: context.engine),
                                           favorites: context.favorites, inquiry: InquiryLogic(engine: context.engine),
                                           now: context.now)
        }
    }
}

/// The favourites screens' target: `homes://favorites/list`.
@MainActor
final class FavoritesTarget: @MainActor MediatorTarget {
    private unowned let context: HomesContext

    init(context: HomesContext) {
        self.context = context
    }

    func registerActions(_ actions: TargetActions) {
        actions.on("list", allowsRemoteCalls: true) { [context] _ in
            FavoritesController(favorites: context.favorites, mediator: context.mediator, now: context.now)
        }
    }
}

/// The account screens' target: `homes://account/login`.
@MainActor
final class AccountTarget: @MainActor MediatorTarget {
    private unowned let context: HomesContext

    init(context: HomesContext) {
        self.context = context
    }

    func registerActions(_ actions: TargetActions) {
        actions.on("login", allowsRemoteCalls: true) { [context] _ in LoginController(logic: context.login) }
        // The form filled and submitted: for this process only, as credentials never
        // travel in a URL.
        actions.on("sign-in") { [context] params in
            guard let user = params.string("username"), let password = params.string("password") else {
                throw MediatorError.badParameters("sign-in needs a username and a password")
            }
            let form = LoginController(logic: context.login)
            if case .error(let problem) = form.signIn(user: user, password: password) {
                return ScreenWithProblem(screen: form, problem: problem)
            }
            return form
        }
    }
}

/// The screens' "category": typed calls, so no screen spells a target or action name.
@MainActor
extension Mediator {
    /// The detail screen of a listing.
    public func listingDetail(kind: ListingKind, id: Int) -> CommandOutcome {
        screen(perform(target: "listing", action: "detail", params: ["kind": kind.rawValue, "id": id]))
    }

    /// The sign-in screen.
    public func loginForm() -> CommandOutcome {
        screen(perform(target: "account", action: "login"))
    }

    /// The sign-in screen, filled with `user` and `password` and submitted.
    public func signIn(user: String, password: String) -> CommandOutcome {
        screen(perform(target: "account", action: "sign-in", params: ["username": user, "password": password]))
    }

    /// The favourites screen.
    public func favoritesList() -> CommandOutcome {
        screen(perform(target: "favorites", action: "list"))
    }

    /// The screen a URL names; a URL that opens nothing is an error (no screen is pushed).
    public func screen(at url: String) -> CommandOutcome {
        let outcome = open(url: url)
        if let notFound = outcome.notFound { return .error(notFound.description) }
        return screen(outcome)
    }

    private func screen(_ outcome: MediatorOutcome) -> CommandOutcome {
        switch outcome {
        case .value(let value):
            if let screen = value as? any Screen { return .push(screen) }
            if let opened = value as? ScreenWithProblem { return .pushAfterError(opened.screen, opened.problem) }
            return .push(NoticeController(message: "That link opens nothing to show."))
        case .done:
            return .handled
        case .notFound(let notFound):
            return .push(NoticeController(message: notFound.description))
        }
    }
}

/// A screen an action opened, with why what it was asked to do at once did not work.
struct ScreenWithProblem {
    let screen: any Screen
    let problem: String
}
