import Foundation

/// Checks request signatures on the server side, in the scheme of ``RequestSigner``.
///
/// It refuses a second use of any nonce while its timestamp is inside the window. Nothing
/// of the request is parsed before its signature holds: the check reads the method, the
/// path, the query and a hash of the raw body.
///
/// ```swift
/// let verifier = SignatureVerifier(secret: secret, maximumAge: 300)
/// guard verifier.verify(request, now: Date()) == .valid else { return .json([...], status: 401) }
/// let parameters = try CanonicalParameters.decode(request.body ?? Data(), maximumCount: 100)
/// ```
public final class SignatureVerifier: Sendable {
    /// The outcome of a check.
    public enum Verdict: Sendable, Equatable {
        /// The signature matches, is fresh, and its nonce was not seen before.
        case valid
        /// A signature header is missing or malformed.
        case missing
        /// A signature header appears more than once.
        case duplicated
        /// The timestamp is further than the maximum age from now (either direction).
        case stale
        /// The signature does not match the request.
        case mismatch
        /// The signature is good but its nonce was already used: a replay.
        case replayed
        /// The nonce store is full, so the request is refused for now.
        ///
        /// So many requests arrived inside the window that their nonces no longer fit in
        /// the store, and the request is refused rather than a nonce forgotten. Try later.
        case overloaded
    }

    private let signer: RequestSigner
    private let nonces: NonceLedger
    /// How far, in seconds, a timestamp may be from the server's clock.
    public let maximumAge: Int

    /// Verifies with `secret`, rejecting timestamps more than `maximumAge` seconds off.
    ///
    /// - Parameters:
    ///   - secret: The secret the requests are signed with.
    ///   - maximumAge: How far, in seconds, a timestamp may be from the server's clock;
    ///     five minutes unless given.
    ///   - nonceCapacity: Sizes the nonce store, which remembers up to about
    ///     `nonceCapacity / 2` nonces at once (16 bytes each, allocated up front). That is
    ///     the most requests the window can hold, so the sustained rate of signed requests
    ///     it admits is `nonceCapacity / 2 / maximumAge` per second.
    public init(secret: [UInt8], maximumAge: Int = 300, nonceCapacity: Int = 1 << 21) {
        self.signer = RequestSigner(secret: secret)
        self.maximumAge = max(0, maximumAge)
        self.nonces = NonceLedger(capacity: nonceCapacity)
    }

    /// Checks the signature headers of `request`.
    ///
    /// Only a valid request spends its nonce, so forged requests cannot fill the store.
    ///
    /// - Parameters:
    ///   - request: The request as it arrived.
    ///   - now: The server's clock, which the timestamp must be within `maximumAge` of.
    /// - Returns: ``Verdict/valid``, or why the request is refused.
    public func verify(_ request: HTTPRequest, now: Date) -> Verdict {
        verify(
            method: request.method.rawValue, target: request.url, headers: request.headers,
            bodyDigest: RequestSigner.bodyDigest(of: request), now: now)
    }

    func verify(method: String, target: URL, headers: [String: String], bodyDigest: String, now: Date) -> Verdict {
        let fields: Fields
        switch Self.fields(in: headers) {
        case .success(let found): fields = found
        case .failure(let refusal): return refusal.verdict
        }
        let nowSeconds = Int(now.timeIntervalSince1970)
        if let refusal = checkWindow(of: fields, now: nowSeconds) { return refusal }
        guard
            let text = RequestSigner.signingText(
                method: method, target: target, bodyDigest: bodyDigest,
                timestamp: fields.timestamp, nonce: fields.nonce),
            let expected = [UInt8](hexString: signer.signature(of: text)),
            HMACSHA256.isEqual(fields.signature, expected)
        else { return .mismatch }
        // Only a genuine request spends a nonce, so forgeries cannot fill the store. The
        // nonce must be remembered until its timestamp leaves the window.
        switch nonces.insert(fields.nonce, expiringAt: fields.timestamp + maximumAge, now: nowSeconds) {
        case .inserted: return .valid
        case .present: return .replayed
        case .full: return .overloaded
        }
    }

    /// Checks what the signature header fields of a request head show before its body is
    /// read, so that a request that cannot be genuine is refused without reading, buffering
    /// or hashing a body of any size.
    ///
    /// It refuses what ``verify(_:now:)`` would refuse whatever the body: a signature
    /// field repeated (``Verdict/duplicated``), missing or malformed (``Verdict/missing``),
    /// a timestamp outside the window (``Verdict/stale``), a signature that is not 32
    /// bytes of hex and so can match nothing (``Verdict/mismatch``), and a nonce already
    /// spent inside the window (``Verdict/replayed``): only a genuine request spends one,
    /// so whoever sends it again is replaying or forging. It spends no nonce and computes
    /// no signature.
    ///
    /// - Parameters:
    ///   - headers: The request's header fields, as for ``verify(_:now:)``.
    ///   - now: The server's clock.
    /// - Returns: Why the request is refused, or nil when only the signature over its body
    ///   can tell (``verify(_:now:)`` decides once the body is read).
    package func screen(headers: [String: String], now: Date) -> Verdict? {
        let fields: Fields
        switch Self.fields(in: headers) {
        case .success(let found): fields = found
        case .failure(let refusal): return refusal.verdict
        }
        let nowSeconds = Int(now.timeIntervalSince1970)
        if let refusal = checkWindow(of: fields, now: nowSeconds) { return refusal }
        guard fields.signature.count == SHA256.byteCount else { return .mismatch }
        return nonces.contains(fields.nonce, now: nowSeconds) ? .replayed : nil
    }

    /// The three signature fields of a request, read but not yet checked against it.
    private struct Fields {
        let timestamp: Int
        let nonce: String
        let signature: [UInt8]
    }

    /// A refusal found while reading the fields.
    private struct Refusal: Error {
        let verdict: Verdict
    }

    /// Timestamp, nonce and signature, each once and well formed.
    private static func fields(in headers: [String: String]) -> Result<Fields, Refusal> {
        // A repeat shows as a second spelling of the name, or as values the HTTP layer
        // joined with a comma.
        var found: [String?] = [nil, nil, nil]
        for (name, value) in headers {
            guard let index = headerNames.firstIndex(where: { name.equalsIgnoringASCIICase($0) })
            else { continue }
            guard found[index] == nil, !value.utf8.contains(UInt8(ascii: ",")) else {
                return .failure(Refusal(verdict: .duplicated))
            }
            found[index] = value
        }
        let (timestampText, nonce, signature) = (found[0], found[1], found[2])
        guard let timestampText, let timestamp = Int(timestampText),
            let nonce, isWellFormed(nonce: nonce),
            let signature, let given = [UInt8](hexString: signature)
        else { return .failure(Refusal(verdict: .missing)) }
        return .success(Fields(timestamp: timestamp, nonce: nonce, signature: given))
    }

    /// ``Verdict/stale`` when the timestamp is further than the maximum age from `now`.
    private func checkWindow(of fields: Fields, now: Int) -> Verdict? {
        // The timestamp comes from the request: no arithmetic on it may trap.
        let (age, overflow) = now.subtractingReportingOverflow(fields.timestamp)
        return !overflow && age.magnitude <= UInt(maximumAge) ? nil : .stale
    }

    private static let headerNames = [SignatureHeader.timestamp, SignatureHeader.nonce, SignatureHeader.signature]

    /// 1 to 128 characters of `A-Z a-z 0-9 - . _ ~`.
    static func isWellFormed(nonce: String) -> Bool {
        let bytes = nonce.utf8
        return (1...128).contains(bytes.count)
            && bytes.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                    UInt8(ascii: "_"), UInt8(ascii: "~"):
                    return true
                default:
                    return false
                }
            }
    }
}

/// The nonce store behind a lock.
// Safe to share: `store` is touched only under `lock` (an NSLock rather than a Mutex:
// ThreadSanitizer on Linux does not see a Mutex's futex hand-off).
final class NonceLedger: @unchecked Sendable {
    private let lock = NSLock()
    private var store: NonceStore

    init(capacity: Int) {
        store = NonceStore(capacity: capacity)
    }

    func insert(_ nonce: String, expiringAt expiry: Int, now: Int) -> NonceStore.Outcome {
        lock.lock()
        defer { lock.unlock() }
        return store.insert(nonce, expiringAt: expiry, now: now)
    }

    func contains(_ nonce: String, now: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return store.contains(nonce, now: now)
    }
}

/// The nonces seen inside the signing window: a fixed table of 64-bit fingerprints with
/// the second each one expires, open addressing with a bounded probe. An expired slot is
/// reused in place, so there is nothing to sweep; memory never grows after `init`.
struct NonceStore {
    enum Outcome { case inserted, present, full }

    private var fingerprints: [UInt64]
    private var expiries: [Int]
    private let mask: Int
    private static let probeLimit = 64

    init(capacity: Int) {
        var size = 64
        while size < capacity { size <<= 1 }
        fingerprints = [UInt64](repeating: 0, count: size)
        expiries = [Int](repeating: 0, count: size)
        mask = size - 1
    }

    /// Records `nonce` until `expiry` (seconds since 1970), unless it is already recorded
    /// and unexpired; `full` when every slot of its probe run is live.
    mutating func insert(_ nonce: String, expiringAt expiry: Int, now: Int) -> Outcome {
        let fingerprint = Self.fingerprint(of: nonce)
        var free: Int?
        var slot = Int(truncatingIfNeeded: fingerprint) & mask
        for _ in 0..<Self.probeLimit {
            let held = fingerprints[slot]
            if held == 0 {
                if free == nil { free = slot }
                break
            }
            let live = expiries[slot] >= now
            if held == fingerprint && live { return .present }
            if !live && free == nil { free = slot }
            slot = (slot + 1) & mask
        }
        guard let free else { return .full }
        fingerprints[free] = fingerprint
        expiries[free] = expiry
        return .inserted
    }

    /// Whether `nonce` is recorded and unexpired at `now`; records nothing.
    func contains(_ nonce: String, now: Int) -> Bool {
        let fingerprint = Self.fingerprint(of: nonce)
        var slot = Int(truncatingIfNeeded: fingerprint) & mask
        for _ in 0..<Self.probeLimit {
            let held = fingerprints[slot]
            if held == 0 { return false }
            if held == fingerprint && expiries[slot] >= now { return true }
            slot = (slot + 1) & mask
        }
        return false
    }

    /// The 64 bits a nonce is remembered by: never 0, which marks a slot never used (a
    /// chain only ends at such a slot, since slots are reused but never emptied).
    private static func fingerprint(of nonce: String) -> UInt64 {
        var hasher = Hasher()
        hasher.combine(nonce)
        return max(1, UInt64(bitPattern: Int64(hasher.finalize())))
    }
}
