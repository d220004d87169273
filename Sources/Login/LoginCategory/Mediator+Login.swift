import HomesScreens
import Mediator

extension Mediator {
    /// The name the account's target is registered under.
    public static let accountTarget = "account"
}

/// The account's category: the typed calls the app makes to the account's target.
@MainActor
extension Mediator {
    /// The sign-in screen.
    public func loginForm() -> CommandOutcome {
        outcome(of: perform(target: Self.accountTarget, action: "login"))
    }

    /// The account screen: who is signed in.
    public func accountSummary() -> CommandOutcome {
        outcome(of: perform(target: Self.accountTarget, action: "summary"))
    }

    /// The sign-in screen, filled with `user` and `password` and submitted.
    public func signIn(user: String, password: String) -> CommandOutcome {
        outcome(
            of: perform(
                target: Self.accountTarget, action: "sign-in", params: ["username": user, "password": password]))
    }

    /// Signs out whoever is signed in: a note saying who, or an error when nobody is.
    public func signOut() -> CommandOutcome {
        outcome(of: perform(target: Self.accountTarget, action: "sign-out"))
    }
}
