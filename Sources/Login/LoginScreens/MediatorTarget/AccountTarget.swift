import HomesScreens
import Login
import Mediator
import Networking
import Signals

/// The account's target: the sign-in screen (`homes://account/login`), the account
/// screen (`homes://account/summary`), signing in at once and signing out, all with the
/// one `LoginLogic` of the session, which it builds. Registered by `LoginFeature`; reached
/// through the account's category.
@MainActor
package final class AccountTarget: @MainActor MediatorTarget {
    private let logic: LoginLogic

    /// A target signing in through `engine`'s `account` service.
    package init(engine: APIEngine) {
        logic = LoginLogic(engine: engine)
    }

    package func registerActions(_ actions: TargetActions) {
        actions.on("login", allowsRemoteCalls: true) { [logic] _ in LoginController(logic: logic) }
        actions.on("summary", allowsRemoteCalls: true) { [logic] _ in AccountController(logic: logic) }
        // The form filled and submitted: for this process only, as credentials never
        // travel in a URL.
        actions.on("sign-in") { [logic] params in
            guard let user = params.string("username"), let password = params.string("password") else {
                throw MediatorError.badParameters("sign-in needs a username and a password")
            }
            let form = LoginController(logic: logic)
            if case .error(let problem) = form.signIn(user: user, password: password) {
                return ScreenWithProblem(screen: form, problem: problem)
            }
            return form
        }
        actions.on("sign-out") { [logic] _ in
            guard let user = logic.state.value.signedInAs else { return CommandOutcome.error("nobody is signed in") }
            logic.signOut()
            return CommandOutcome.note("signed out \(user)")
        }
    }
}
