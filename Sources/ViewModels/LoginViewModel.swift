/// What the sign-in screen shows.
public struct LoginViewModel: Equatable, Sendable {
    /// The form's rows: field, value, message.
    public var rows: [[String]] = [["Username", "", ""], ["Password", "", ""]]
    /// The submit line.
    public var submitLine = "fill in the form"
    /// The result line (signed in, or why not).
    public var status = ""

    /// An empty form.
    public init() {}

    /// The form's state.
    public init(username: String, password: String, usernameProblem: String?, passwordProblem: String?,
                canSubmit: Bool, isSubmitting: Bool, signedInAs: String?, failure: String?) {
        rows = [
            ["Username", username.isEmpty ? "-" : username, usernameProblem.map { "! \($0)" } ?? ""],
            ["Password", password.isEmpty ? "-" : String(repeating: "•", count: min(password.count, 16)),
             passwordProblem.map { "! \($0)" } ?? ""],
        ]
        if isSubmitting {
            submitLine = "signing in…"
        } else {
            submitLine = canSubmit ? "submit to sign in" : "fix the form to sign in"
        }
        if let failure {
            status = "! \(failure)" + (signedInAs.map { " (still signed in as \($0))" } ?? "")
        } else if let signedInAs {
            status = "signed in as \(signedInAs)"
        }
    }
}
