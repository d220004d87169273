/// The sign-in form at one moment: its fields, what their rules say, and how signing in
/// went.
package struct LoginState: Equatable, Sendable {
    /// Who signs in.
    package var username = ""
    /// Their password.
    package var password = ""
    /// Whether a sign-in is on its way.
    package var isSubmitting = false
    /// The signed-in user, once signed in.
    package var signedInAs: String?
    /// Why the last sign-in failed ("cancelled" when it was stopped); nil after a success,
    /// when a new one starts, and once a field changes.
    package var failure: String?

    /// An empty form, nobody signed in.
    package init() {}

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
