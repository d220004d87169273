import Foundation

/// The header fields that carry a request signature.
public enum SignatureHeader {
    /// Seconds since 1970 when the request was signed.
    public static let timestamp = "X-Signature-Timestamp"
    /// A random value, unique per request: 1 to 128 of `A-Z a-z 0-9 - . _ ~`.
    public static let nonce = "X-Signature-Nonce"
    /// Hex HMAC-SHA256 of the signing text.
    public static let signature = "X-Signature"
}

extension String {
    /// Whether the two strings are equal with ASCII letters compared regardless of case,
    /// as HTTP compares field names (RFC 9110 5.1).
    func equalsIgnoringASCIICase(_ other: String) -> Bool {
        func lowercased(_ byte: UInt8) -> UInt8 {
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
        }
        return utf8.elementsEqual(other.utf8) { lowercased($0) == lowercased($1) }
    }
}

/// Signs requests with HMAC-SHA256, keyed with the app's secret.
///
/// The secret comes from configuration, never from library code. The authentication code
/// covers a text that binds the method, the full path, the canonical query, a SHA-256 of
/// the body, the timestamp and a nonce. The scheme is specified, with a worked example, in
/// `Docs/Signing.md`.
///
/// ```swift
/// var request = HTTPRequest(method: .get, url: URL(string: "https://api.example/v1/rentals/list?page=1")!)
/// RequestSigner(secret: secret).sign(&request, timestamp: 1_700_000_000, nonce: UUID().uuidString)
/// ```
public struct RequestSigner: Sendable {
    /// The first line of every signing text, which names the scheme and its version.
    public static let scheme = "HOMES1-HMAC-SHA256"

    private let key: HMACSHA256.PreparedKey

    /// Signs with `secret`.
    public init(secret: [UInt8]) {
        self.key = HMACSHA256.PreparedKey(secret)
    }

    /// The text that is signed for `request`.
    ///
    /// It holds one field per line:
    /// `scheme, METHOD, path, canonical query, hex SHA-256 of the body, timestamp, nonce`.
    ///
    /// - Returns: The text, or nil when the URL's query holds a broken `%` escape.
    public static func signingText(for request: HTTPRequest, timestamp: Int, nonce: String) -> String? {
        signingText(
            method: request.method.rawValue, target: request.url, bodyDigest: bodyDigest(of: request),
            timestamp: timestamp, nonce: nonce)
    }

    static func signingText(method: String, target url: URL, bodyDigest: String, timestamp: Int, nonce: String)
        -> String?
    {
        guard let query = CanonicalParameters.canonicalQuery(url.query(percentEncoded: true) ?? "") else { return nil }
        return signingText(
            method: method, path: url.path(percentEncoded: true), canonicalQuery: query,
            bodyDigest: bodyDigest, timestamp: timestamp, nonce: nonce)
    }

    static func signingText(
        method: String, path: String, canonicalQuery: String, bodyDigest: String, timestamp: Int,
        nonce: String
    ) -> String {
        [scheme, method, path.isEmpty ? "/" : path, canonicalQuery, bodyDigest, String(timestamp), nonce]
            .joined(separator: "\n")
    }

    private static let emptyBodyDigest = SHA256.hash([UInt8]()).hexString

    /// The lowercase hex SHA-256 of the body of `request`: as hashed while it was read,
    /// when it was.
    static func bodyDigest(of request: HTTPRequest) -> String {
        request.bodyDigest?.hexString ?? bodyDigest(request.body)
    }

    /// The lowercase hex SHA-256 of `body` (of no bytes when there is none).
    static func bodyDigest(_ body: Data?) -> String {
        guard let body, !body.isEmpty else { return emptyBodyDigest }
        return SHA256.hash(body).hexString
    }

    /// The hex signature of `text`.
    func signature(of text: String) -> String {
        key.authenticationCode(for: text.utf8).hexString
    }

    /// Adds the three signature header fields to `request`, replacing any it had.
    ///
    /// Sign last: a change to the method, URL or body afterwards invalidates the signature.
    ///
    /// - Parameters:
    ///   - request: The request to sign.
    ///   - timestamp: Seconds since 1970 when the request is signed.
    ///   - nonce: A value unique per request, of 1 to 128 of `A-Z a-z 0-9 - . _ ~`.
    public func sign(_ request: inout HTTPRequest, timestamp: Int, nonce: String) {
        sign(
            &request, timestamp: timestamp, nonce: nonce,
            canonicalQuery: CanonicalParameters.canonicalQuery(request.url.query(percentEncoded: true) ?? ""))
    }

    /// Signs `request` whose URL's query has `canonicalQuery` as its canonical form (nil
    /// when the query holds a broken escape). The engine, which built the query in
    /// canonical form, passes it here rather than have it decoded and encoded again.
    func sign(_ request: inout HTTPRequest, timestamp: Int, nonce: String, canonicalQuery: String?) {
        for name in [SignatureHeader.timestamp, SignatureHeader.nonce, SignatureHeader.signature] {
            for key in request.headers.keys where key.equalsIgnoringASCIICase(name) {
                request.headers[key] = nil
            }
        }
        // A URL with a broken escape is signed as is: the server refuses it either way.
        let text =
            canonicalQuery.map {
                Self.signingText(
                    method: request.method.rawValue, path: request.url.path(percentEncoded: true),
                    canonicalQuery: $0, bodyDigest: Self.bodyDigest(of: request), timestamp: timestamp, nonce: nonce)
            } ?? ""
        request.headers[SignatureHeader.timestamp] = String(timestamp)
        request.headers[SignatureHeader.nonce] = nonce
        request.headers[SignatureHeader.signature] = signature(of: text)
    }
}
