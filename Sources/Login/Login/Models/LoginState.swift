/// The sign-in form at one moment: its fields, what their rules say, and how signing in
/// went. Derived by `LoginLogic` from its fields and its activity, never set by hand.
package struct LoginState: Equatable, Sendable {
    /// Who signs in.
    package let username: String
    /// Their password.
    package let password: String
    /// Whether a sign-in is on its way.
    package let isSubmitting: Bool
    /// The signed-in user, once signed in.
    package let signedInAs: String?
    /// Why the last sign-in failed ("cancelled" when it was stopped); nil after a success,
    /// when a new one starts, and once a field changes.
    package let failure: String?

    /// A form; by default an empty one, nobody signed in.
    package init(
        username: String = "", password: String = "", isSubmitting: Bool = false, signedInAs: String? = nil,
        failure: String? = nil
    ) {
        self.username = username
        self.password = password
        self.isSubmitting = isSubmitting
        self.signedInAs = signedInAs
        self.failure = failure
    }

    /// What is wrong with the username, if anything (nil while it is empty).
    package var usernameProblem: String? {
        username.isEmpty ? nil : LoginLogic.problem(username: username)
    }

    /// What is wrong with the password, if anything (nil while it is empty).
    package var passwordProblem: String? {
        password.isEmpty ? nil : LoginLogic.problem(password: password)
    }

    /// Whether a sign-in would start: both fields valid and no sign-in on its way.
    package var canSubmit: Bool {
        LoginLogic.problem(username: username) == nil && LoginLogic.problem(password: password) == nil
            && !isSubmitting
    }
}
