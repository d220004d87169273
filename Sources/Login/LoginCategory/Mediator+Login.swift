import HomesScreens
import Mediator

extension Mediator {
    /// The name the account's target is registered under.
    package static let accountTarget = "account"
}

/// The account's category: the typed calls the app makes to the account's target.
@MainActor
extension Mediator {
    /// The sign-in screen.
    package func loginForm() -> CommandOutcome {
        outcome(of: perform(target: Self.accountTarget, action: "login"))
    }

    /// The account screen: who is signed in.
    package func accountSummary() -> CommandOutcome {
        outcome(of: perform(target: Self.accountTarget, action: "summary"))
    }

    /// The sign-in screen, filled with `user` and `password` and submitted.
    package func signIn(user: String, password: String) -> CommandOutcome {
        outcome(
            of: perform(
                target: Self.accountTarget, action: "sign-in", params: ["username": user, "password": password]))
    }

    /// Signs out whoever is signed in: a note saying who, or an error when nobody is.
    package func signOut() -> CommandOutcome {
        outcome(of: perform(target: Self.accountTarget, action: "sign-out"))
    }
}
