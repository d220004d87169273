/// What the account screen shows: who is signed in, and what can be done about it.
package struct AccountViewModel: Equatable, Sendable {
    /// One line of the account: what it is and its value.
    package struct Fact: Equatable, Sendable {
        /// What the line says.
        package let label: String
        /// Its value.
        package let value: String
    }

    /// The account's lines.
    package var facts = [Fact(label: "Signed in as", value: "nobody")]
    /// What the user can do next.
    package var hint = "login to sign in"

    /// Nobody signed in.
    package init() {}

    /// The account of `signedInAs`, nobody when nil.
    package init(signedInAs: String?) {
        guard let user = signedInAs else { return }
        facts = [Fact(label: "Signed in as", value: user), Fact(label: "Kept", value: "until logout or quit")]
        hint = "logout to sign out"
    }
}
