import Favorites
import FavoritesCategory
import FavoritesScreens
import FeatureKit
import Foundation
import HomesAPI
import HomesScreens
import HomesTesting
import InquiryCategory
import Listings
import ListingsCategory
import ListingsScreens
import Login
import LoginCategory
import Mediator
import Networking
import Persistence
import Signals
import SignalsTesting
import Testing
import TextViews
import ViewModels

/// Controllers without the REPL: send intents, assert what their views show.
@MainActor @Suite struct ScreenTests {
    let now = Date(timeIntervalSince1970: 1_763_700_000)

    func setUp() -> (HomesHarness, Features) {
        let harness = HomesHarness()
        harness.engine.services.register(
            APIService(
                name: "account", baseURL: URL(string: "http://embedded.test/api")!,
                signingSecret: HomesHarness.secret))
        return (harness, ListingListControllerTests().context(harness))
    }

    /// Who the account screen says is signed in.
    func signedIn(_ context: Features) -> String? {
        screen(context.mediator.accountSummary())?.rootView.render(width: 60).first { $0.hasPrefix("Signed in as") }
    }

    func screen(_ outcome: CommandOutcome) -> (any Screen)? {
        if case .push(let screen) = outcome { return screen }
        return nil
    }

    @Test func detailShowsTheListingAndTogglesTheFavourite() async throws {
        let (harness, context) = setUp()
        let detail = try #require(
            await harness.run { screen(context.mediator.screen(at: "homes://listing/detail?kind=rent&id=2")) })
        await harness.flush()
        var lines = await harness.run { detail.rootView.render(width: 60) }
        #expect(lines.first == "Courtyard 2")
        #expect(lines.contains("fav to save it"))
        _ = await harness.run { detail.handle("fav", []) }
        lines = await harness.run { detail.rootView.render(width: 60) }
        #expect(lines.first == "Courtyard 2 ★")
        #expect(context.mediator.savedListings().value == [SavedListing(kind: .rent, id: 2)])
        _ = await harness.run { detail.handle("unfav", []) }
        #expect(context.mediator.savedListings().value.isEmpty)
        #expect(errorText(await harness.run { detail.handle("fav", ["now"]) }) == "usage: fav")
    }

    @Test func favouritesListOpensAndForgets() async throws {
        let (harness, context) = setUp()
        #expect(
            await harness.run { context.mediator.saveFavorite(kind: .rent, id: 3, name: "Skyline 3", price: 18_000) }
                == nil)
        let list = try #require(await harness.run { screen(context.mediator.favoritesList()) })
        var lines = await harness.run { list.rootView.render(width: 60) }
        #expect(lines.contains { $0.contains("Skyline 3") })
        let opened = await harness.run { list.handle("open", ["1"]) }
        #expect(opened.flatMap(screen)?.name == "detail")
        #expect(errorText(await harness.run { list.handle("open", ["2"]) }) == "usage: open N, with N from 1 to 1")
        // A kind this version does not know (written by another one) is said, not opened.
        // Saved last, it is the first of the list.
        try context.favoritesStore.save(
            Favorite(kind: "villa", listingID: 9, name: "Villa 9", price: 1, savedAt: .distantFuture))
        await harness.flush()
        let foreign = await harness.run { list.handle("open", ["1"]) }
        #expect(errorText(foreign)?.contains("of a kind this version cannot show (villa)") == true)
        _ = await harness.run { list.handle("unfav", ["1"]) }
        _ = await harness.run { list.handle("unfav", ["1"]) }
        lines = await harness.run { list.rootView.render(width: 60) }
        #expect(lines.contains("Nothing saved."))
    }

    @Test func loginFormShowsMessagesAndSignsIn() async throws {
        let (harness, context) = setUp()
        let form = try #require(await harness.run { screen(context.mediator.loginForm()) })
        _ = await harness.run { form.handle("user", ["ab"]) }
        var lines = await harness.run { form.rootView.render(width: 70) }
        #expect(lines.contains { $0.contains("! a username has 3 to 20 characters") })
        #expect(errorText(await harness.run { form.handle("submit", []) }) == "fix the form first")
        _ = await harness.run { form.handle("user", ["mei"]) }
        _ = await harness.run { form.handle("password", ["homes2026"]) }
        _ = await harness.run { form.handle("submit", []) }
        lines = await harness.run { form.rootView.render(width: 70) }
        #expect(lines.contains("signed in as mei"))
        #expect(signedIn(context) == "Signed in as  mei")
    }

    /// A second submit while the first one's sign-in is on its way is refused on the
    /// screen, and is not sent then or later.
    @Test func aSecondSubmitWhileSigningInSaysSoAndSendsNothing() async throws {
        let (harness, context) = setUp()
        let form = try #require(await harness.run { screen(context.mediator.loginForm()) })
        _ = await harness.run { form.handle("user", ["mei"]) }
        _ = await harness.run { form.handle("password", ["homes2026"]) }
        let before = harness.transport.server.requestsServed
        harness.transport.holding = true
        #expect(errorText(form.handle("submit", [])) == nil)
        #expect(errorText(form.handle("submit", [])) == "already signing in: this submit was not sent")
        #expect(form.isBusy.value)
        #expect(form.rootView.render(width: 70).contains("signing in…"))
        harness.transport.release()
        await harness.flush()
        await harness.flush()
        #expect(!form.isBusy.value)
        #expect(form.rootView.render(width: 70).contains("signed in as mei"))
        #expect(harness.transport.server.requestsServed - before == 1)
    }

    /// The screen added by following Docs/Architecture.md's steps: it touched the Login
    /// folder, one new view model file and the shared commands, nothing else.
    @Test func theAccountScreenFollowsSigningInAndOut() async throws {
        let (harness, context) = setUp()
        let account = try #require(await harness.run { screen(context.mediator.accountSummary()) })
        #expect(
            account.rootView.render(width: 60) == ["Account", "--------", "Signed in as  nobody", "login to sign in"])
        let changes = account.changes.record()
        _ = await harness.run { context.mediator.signIn(user: "mei", password: "homes2026") }
        await harness.flush()
        #expect(
            account.rootView.render(width: 60) == [
                "Account", "--------", "Signed in as  mei", "Kept          until logout or quit", "logout to sign out",
            ])
        _ = context.mediator.signOut()
        #expect(account.rootView.render(width: 60).contains("Signed in as  nobody"))
        #expect(changes.values.count == 2)
        let fromLink = await harness.run { screen(context.mediator.screen(at: "homes://account/summary")) }
        #expect(fromLink?.name == "account")
    }

    @Test func theSignInShortcutGoesThroughTheMediatorAndNeverThroughAURL() async throws {
        let (harness, context) = setUp()
        // An invalid form opens with its problem; a valid one signs in.
        let outcome = await harness.run { context.mediator.signIn(user: "ab", password: "homes2026") }
        guard case .pushAfterError(_, let problem) = outcome else {
            Issue.record("expected the form and its problem")
            return
        }
        #expect(problem == "fix the form first")
        let form = try #require(
            await harness.run { screen(context.mediator.signIn(user: "mei", password: "homes2026")) })
        await harness.flush()
        #expect(form.rootView.render(width: 70).contains("signed in as mei"))
        // Credentials never travel in a URL: the action is for this process only.
        _ = context.mediator.signOut()
        let fromURL = await harness.run {
            context.mediator.screen(at: "homes://account/sign-in?username=mei&password=homes2026")
        }
        guard case .error = fromURL else {
            Issue.record("a URL signed in: \(fromURL)")
            return
        }
        #expect(signedIn(context) == "Signed in as  nobody")
    }

    @Test func mapAndNoticeScreens() async throws {
        let (harness, context) = setUp()
        let logic = ListingLogic(engine: harness.engine)
        let list = await harness.run { context.listings(logic) }
        await harness.run { logic.show(.resale) }
        let map = try #require(await harness.run { list.handle("map", []) }.flatMap(screen))
        let lines = map.rootView.render(width: 80)
        // The legend gives each letter the number the list shows.
        #expect(lines.filter { $0.hasPrefix("a  1 ") || $0.hasPrefix("h  8 ") }.count == 2)
        #expect(lines.filter { $0.contains("·") }.count == 12)
        // The grid is laid out for the width it is drawn at.
        #expect(Set(lines.filter { $0.contains("·") }.map { DisplayText.width($0) }) == [76])
        #expect(Set(map.rootView.render(width: 40).filter { $0.contains("·") }.map { DisplayText.width($0) }) == [36])
        // A link that opens nothing is an error line; no screen is stacked for it.
        #expect(errorText(context.mediator.screen(at: "homes://nowhere/x")) == "There is no nowhere here.")
        // After `more` the map shows every listing loaded, numbered as the list numbers
        // them: open N opens list number N, on either page.
        await harness.run { _ = logic.loadMore() }
        let second = try #require(await harness.run { list.handle("map", []) }.flatMap(screen))
        let legend = second.rootView.render(width: 80)
        #expect(legend.contains { $0.hasPrefix("a  1 ") } && legend.contains { $0.hasPrefix("p  16 ") })
        for number in [1, 9, 16] {
            let opened = try #require(await harness.run { second.handle("open", ["\(number)"]) }.flatMap(screen))
            #expect(opened.identity == "detail/resale/\(logic.state.value.listings[number - 1].id)")
        }
        #expect(errorText(second.handle("open", ["17"]))?.hasPrefix("usage: open N, with N one of 1, 2, ") == true)
    }

    /// The app's features register a target under every name a category calls.
    @Test func everyCategorysTargetIsRegistered() {
        let (_, context) = setUp()
        for name in [Mediator.listingsTarget, Mediator.favoritesTarget, Mediator.accountTarget, Mediator.inquiryTarget]
        {
            #expect(context.mediator.hasTarget(name), "\(name) is not registered")
        }
    }

    /// The mediator keeps its targets, and their actions and screens point back at it
    /// without keeping it: once the app lets go, all of it is freed.
    @Test func theMediatorItsTargetsAndTheirScreensAreFreedTogether() async throws {
        weak var mediator: Mediator?
        weak var favorites: Property<Set<SavedListing>>?
        weak var detail: AnyObject?
        do {
            let (harness, context) = setUp()
            mediator = context.mediator
            favorites = context.mediator.savedListings()
            let opened = try #require(await harness.run { screen(context.mediator.listingDetail(kind: .rent, id: 2)) })
            detail = opened
            #expect(await harness.run { screen(context.mediator.favoritesList()) }?.name == "favourites")
            #expect(await harness.run { screen(context.mediator.loginForm()) }?.name == "login")
            #expect(context.mediator.saveFavorite(kind: .rent, id: 2, name: "Courtyard 2", price: 3_600) == nil)
            await harness.flush()
        }
        #expect(mediator == nil)
        #expect(favorites == nil)
        #expect(detail == nil)
    }

    /// Features meet only through the mediator: with the favourites and inquiries left
    /// out, the listings still open, and what needs the others says so.
    @Test func aFeatureLeftOutIsSaidAndTheOthersStillWork() async throws {
        let harness = HomesHarness()
        let mediator = Features(harness, now: now, features: [ListingsFeature()]).mediator
        let detail = try #require(await harness.run { screen(mediator.listingDetail(kind: .rent, id: 2)) })
        await harness.flush()
        let lines = await harness.run { detail.rootView.render(width: 60) }
        #expect(lines.first == "Courtyard 2")
        #expect(
            errorText(await harness.run { detail.handle("fav", []) })?.hasPrefix("favourites are not available") == true
        )
        #expect(
            errorText(await harness.run { detail.handle("ask", ["hello"]) }) == "questions to agents are not available")
        #expect(await harness.run { mediator.savedListings().value }.isEmpty)
        let list = await harness.run { screen(mediator.favoritesList()) }
        #expect(list?.name == "notice")
    }

    /// A listing list is a screen like any other: its link opens it through the mediator,
    /// and it says its link, the kind and filters it shows now; a link with filters the
    /// listings do not take opens nothing and says why.
    @Test func aListOpensFromItsLinkAndSaysItsLink() async throws {
        let (harness, context) = setUp()
        let link = "homes://listing/list?kind=new&rooms=2"
        let list = try #require(await harness.run { screen(context.mediator.screen(at: link)) })
        #expect(list.name == "listings" && list.link == link)
        #expect(context.mediator.listingQuery(shownOn: list) == ListingQuery(kind: .new, filters: ["rooms": "2"]))
        #expect(list.rootView.render(width: 60).first == "New homes (rooms=2)")
        _ = await harness.run { list.handle("filter", ["district", "Jing'an"]) }
        #expect(list.link == "homes://listing/list?kind=new&district=Jing'an&rooms=2")
        #expect(
            context.mediator.listingQuery(shownOn: list)
                == ListingQuery(kind: .new, filters: ["rooms": "2", "district": "Jing'an"]))
        #expect(
            errorText(context.mediator.screen(at: "homes://listing/list?kind=new&rooms=x"))
                == "listing/list cannot open: rooms needs a whole number, not x")
        #expect(context.mediator.listingQuery(shownOn: NoticeController(message: "x")) == nil)
    }

    /// The first screen is asked of the mediator like any other: the listings' value asks
    /// for the rentals, and the listings' target builds the list and its logic. With no
    /// feature to give one, the first screen says so.
    @Test func theFirstScreenIsAskedOfTheMediatorLikeAnyOther() async throws {
        let (harness, context) = setUp()
        let home = await harness.run { context.composition.home(context.mediator) }
        #expect(home.name == "listings" && home.link == "homes://listing/list?kind=rent")
        #expect(home.rootView.render(width: 60).first == "Rentals")
        let none = Composition([]).home(context.mediator)
        #expect(none.name == "notice")
        #expect(none.rootView.render(width: 60).joined(separator: " ").contains("No feature has a first screen."))
    }

    @Test func aScreenAlreadyOnTopIsNotPushedAgain() async {
        let (harness, context) = setUp()
        let logic = ListingLogic(engine: harness.engine)
        let list = await harness.run { context.listings(logic) }
        let lines = Lines()
        let session = Session(
            root: list, shared: context.sharedCommands, terminal: Terminal(isInteractive: false, width: 60)
        ) { lines.append($0) }
        #expect(await session.execute("favs"))
        #expect(await session.execute("favs"))
        #expect(await session.execute("back"))
        // One back from the favourites is the list again.
        #expect(lines.text.components(separatedBy: "> back\n").last?.hasPrefix("Rentals") == true)
    }

    private func errorText(_ outcome: CommandOutcome?) -> String? {
        if case .error(let text)? = outcome { return text }
        return nil
    }
}

@MainActor @Suite struct ViewModelDetailTests {
    let now = Date(timeIntervalSince1970: 10_000)

    @Test func detailFavouritesAndLoginViewModels() async {
        let detail = ListingDetail(
            kind: .rent, id: 1, name: "Loft", title: "a loft", price: 3_000, area: 40, rooms: 1,
            district: "静安", updatedAt: now.addingTimeInterval(-90))
        let shown = ListingDetailViewModel(detail: detail, isLoading: false, problem: nil, isFavorite: true, now: now)
        #expect(shown.title == "Loft ★")
        #expect(shown.facts.first == ListingDetailViewModel.Fact("About", "a loft"))
        #expect(shown.facts.last == ListingDetailViewModel.Fact("Updated", "1 min ago"))
        #expect(
            ListingDetailViewModel(detail: nil, isLoading: true, problem: nil, isFavorite: false, now: now).status
                == "loading…")

        let favorites = FavoritesViewModel(
            favorites: [
                Favorite(
                    kind: "new", listingID: 2, name: "Villa", price: 4_350_000,
                    savedAt: now.addingTimeInterval(-7_200))
            ], now: now)
        #expect(
            favorites.rows.map { [$0.number, $0.name, $0.kind, $0.price, $0.saved] } == [
                ["1", "Villa", "new home", "¥4.35M", "2 h ago"]
            ])
        #expect(FavoritesViewModel().footer.hasPrefix("no favourites yet"))

        let login = LoginViewModel(
            username: "mei", password: "secret", usernameProblem: nil,
            passwordProblem: "a password needs a digit", canSubmit: false, isSubmitting: false,
            signedInAs: nil, failure: nil)
        #expect(
            login.fields.map { [$0.label, $0.value, $0.problem] }[1] == [
                "Password", "••••••", "! a password needs a digit",
            ])
        #expect(login.submitLine == "fix the form to sign in")
        #expect(
            LoginViewModel(
                username: "", password: "", usernameProblem: nil, passwordProblem: nil, canSubmit: true,
                isSubmitting: true, signedInAs: "mei", failure: nil
            ).status == "signed in as mei")
    }
}
