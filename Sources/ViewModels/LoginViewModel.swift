/// What the sign-in screen shows.
package struct LoginViewModel: Equatable, Sendable {
    /// One field of the form: its name, what it holds (a password shown as dots), and
    /// what is wrong with it.
    package struct Field: Equatable, Sendable {
        /// The field's name.
        package let label: String
        /// What it holds, as shown ("-" while empty).
        package let value: String
        /// What is wrong with it, as shown ("" when nothing is).
        package let problem: String
    }

    /// The form's fields.
    package var fields = [
        Field(label: "Username", value: "", problem: ""), Field(label: "Password", value: "", problem: ""),
    ]
    /// The submit line.
    package var submitLine = "fill in the form"
    /// The result line (signed in, or why not).
    package var status = ""
    /// Whether work the screen started is on its way (a request): the screen is busy,
    /// and the session waits for it, while this is true.
    package var isBusy = false

    /// An empty form.
    package init() {}

    /// The form's state.
    package init(
        username: String, password: String, usernameProblem: String?, passwordProblem: String?,
        canSubmit: Bool, isSubmitting: Bool, signedInAs: String?, failure: String?
    ) {
        fields = [
            Field(
                label: "Username", value: username.isEmpty ? "-" : username,
                problem: usernameProblem.map { "! \($0)" } ?? ""),
            Field(
                label: "Password",
                value: password.isEmpty ? "-" : String(repeating: "•", count: min(password.count, 16)),
                problem: passwordProblem.map { "! \($0)" } ?? ""),
        ]
        isBusy = isSubmitting
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
