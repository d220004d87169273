import Foundation

/// The one text form of a parameter set: keys sorted, keys and values percent-encoded,
/// joined as `k=v&k=v`. Used for query strings, form bodies, cache keys and signatures.
public enum CanonicalParameters {
    private static let unreserved: CharacterSet = {
        var set = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
        set.insert(charactersIn: "-._~")
        return set
    }()

    /// The canonical text of `parameters`.
    public static func encode(_ parameters: [String: String]) -> String {
        parameters.keys.sorted().map { key in
            "\(escape(key))=\(escape(parameters[key] ?? ""))"
        }.joined(separator: "&")
    }

    /// Parses `k=v&k=v` text back into parameters (the last value wins for a repeated key).
    public static func decode(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = unescape(String(parts[0]))
            let value = parts.count > 1 ? unescape(String(parts[1])) : ""
            result[key] = value
        }
        return result
    }

    static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? text
    }
}
