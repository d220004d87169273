/// What the account screen shows: who is signed in, and what can be done about it.
public struct AccountViewModel: Equatable, Sendable {
    /// One line of the account: what it is and its value.
    public struct Fact: Equatable, Sendable {
        /// What the line says.
        public let label: String
        /// Its value.
        public let value: String
    }

    /// The account's lines.
    public var facts = [Fact(label: "Signed in as", value: "nobody")]
    /// What the user can do next.
    public var hint = "login to sign in"

    /// Nobody signed in.
    public init() {}

    /// The account of `signedInAs`, nobody when nil.
    public init(signedInAs: String?) {
        guard let user = signedInAs else { return }
        facts = [Fact(label: "Signed in as", value: user), Fact(label: "Kept", value: "until logout or quit")]
        hint = "logout to sign out"
    }
}
