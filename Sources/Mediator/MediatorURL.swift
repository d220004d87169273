import Foundation

/// A parsed `scheme://target/action?k=v&k=w` URL.
struct MediatorURL: Equatable {
    let target: String
    let action: String
    let parameters: MediatorParameters

    static func == (lhs: MediatorURL, rhs: MediatorURL) -> Bool {
        lhs.target == rhs.target && lhs.action == rhs.action && lhs.parameters.names == rhs.parameters.names
    }

    /// Parses `text`; nil unless it has exactly this scheme, a target and an action.
    init?(_ text: String, scheme: String) {
        // Split the still-encoded parts, then decode each once: `a%2Fb` is one action and
        // `a%2541` is `a%41`, not `aA`.
        guard let components = URLComponents(string: text),
            components.scheme?.lowercased() == scheme,
            let host = components.percentEncodedHost?.removingPercentEncoding, !host.isEmpty
        else { return nil }
        let path = components.percentEncodedPath.split(separator: "/", omittingEmptySubsequences: true)
        guard path.count == 1, let action = String(path[0]).removingPercentEncoding, !action.isEmpty else { return nil }
        let pairs = (components.queryItems ?? []).map { ($0.name, $0.value ?? "") }
        target = host
        self.action = action
        parameters = MediatorParameters(repeating: pairs)
    }
}
