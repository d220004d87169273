import Foundation

/// The header fields that carry a request signature.
public enum SignatureHeader {
    /// Seconds since 1970 when the request was signed.
    public static let timestamp = "X-Signature-Timestamp"
    /// A random value, unique per request.
    public static let nonce = "X-Signature-Nonce"
    /// Hex HMAC-SHA256 of the signing text.
    public static let signature = "X-Signature"
}

/// Signs requests: HMAC-SHA256 over API name, canonical parameters, timestamp and nonce,
/// keyed with the app's secret (which comes from configuration, never from library code).
public struct RequestSigner: Sendable {
    private let secret: [UInt8]

    /// Signs with `secret`.
    public init(secret: [UInt8]) {
        self.secret = secret
    }

    /// The text that is signed: `api \n params \n timestamp \n nonce`.
    public static func signingText(apiName: String, parameters: [String: String], timestamp: Int, nonce: String) -> String {
        "\(apiName)\n\(CanonicalParameters.encode(parameters))\n\(timestamp)\n\(nonce)"
    }

    /// The hex signature for one request.
    public func signature(apiName: String, parameters: [String: String], timestamp: Int, nonce: String) -> String {
        let text = RequestSigner.signingText(apiName: apiName, parameters: parameters, timestamp: timestamp, nonce: nonce)
        return HMACSHA256.authenticationCode(for: Array(text.utf8), key: secret).hexString
    }

    /// The three signature header fields for one request.
    public func headers(apiName: String, parameters: [String: String], timestamp: Int, nonce: String) -> [String: String] {
        [
            SignatureHeader.timestamp: String(timestamp),
            SignatureHeader.nonce: nonce,
            SignatureHeader.signature: signature(apiName: apiName, parameters: parameters, timestamp: timestamp, nonce: nonce),
        ]
    }
}

/// Checks request signatures on the server side.
///
/// ```swift
/// let verifier = SignatureVerifier(secret: secret, maximumAge: 300)
/// switch verifier.verify(apiName: "rentals.list", parameters: request.parameters,
///                        headers: request.headers, now: Date()) { ... }
/// ```
public struct SignatureVerifier: Sendable {
    /// The outcome of a check.
    public enum Verdict: Sendable, Equatable {
        /// The signature matches and is fresh.
        case valid
        /// A signature header is missing or malformed.
        case missing
        /// The timestamp is further than the maximum age from now (either direction).
        case stale
        /// The signature does not match the request.
        case mismatch
    }

    private let signer: RequestSigner
    /// How far, in seconds, a timestamp may be from the server's clock.
    public let maximumAge: Int

    /// Verifies with `secret`, rejecting timestamps more than `maximumAge` seconds off.
    public init(secret: [UInt8], maximumAge: Int = 300) {
        self.signer = RequestSigner(secret: secret)
        self.maximumAge = maximumAge
    }

    /// Checks the signature headers of a request for `apiName` with `parameters`.
    public func verify(apiName: String, parameters: [String: String], headers: [String: String], now: Date) -> Verdict {
        func header(_ name: String) -> String? {
            headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
        }
        guard let timestampText = header(SignatureHeader.timestamp), let timestamp = Int(timestampText),
              let nonce = header(SignatureHeader.nonce), !nonce.isEmpty,
              let signature = header(SignatureHeader.signature),
              let given = [UInt8](hexString: signature) else { return .missing }
        // The timestamp comes from the request: no arithmetic on it may trap.
        let (age, overflow) = Int(now.timeIntervalSince1970).subtractingReportingOverflow(timestamp)
        guard !overflow, age.magnitude <= UInt(max(0, maximumAge)) else { return .stale }
        let expected = [UInt8](hexString: signer.signature(apiName: apiName, parameters: parameters,
                                                           timestamp: timestamp, nonce: nonce)) ?? []
        return HMACSHA256.isEqual(given, expected) ? .valid : .mismatch
    }
}
