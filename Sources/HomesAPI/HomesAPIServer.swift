import Foundation
import Networking
import Synchronization

/// The embedded API of the demo: three listing services with the same meaning and
/// different keys (rentals `id/name/...`, new homes `xinfang_*`, resale `esf_*`), paging,
/// filters, signature checks and a settable latency, answered in-process or over HTTP.
///
/// Data is generated from a seed, so the same seed always serves the same listings.
package final class HomesAPIServer: Sendable {
    /// The three services and their key conventions.
    package enum Service: String, CaseIterable, Sendable {
        case rentals
        case newHomes = "newhomes"
        case resale

        /// The prefix of every key of this service's items.
        package var keyPrefix: String {
            switch self {
            case .rentals: return ""
            case .newHomes: return "xinfang_"
            case .resale: return "esf_"
            }
        }

        /// The page and page-size parameter names.
        package var pageKeys: (page: String, size: String) {
            (keyPrefix + "page", keyPrefix + "page_size")
        }

        /// The list method name (`rentals/list`, ...).
        package var listMethod: String { "\(rawValue)/list" }
    }

    /// One generated listing.
    struct Listing {
        let id: Int
        let name: String
        let title: String
        let price: Int
        let area: Int
        let rooms: Int
        let district: String
        let latitude: Double
        let longitude: Double
        let updatedAt: Int
        /// The listing as a list item of its service, encoded once: lists are read far more
        /// often than anything else, and listings never change.
        var listItem = Data()
    }

    let listings: [Service: [Listing]]
    private let verifier: SignatureVerifier?
    private let clock: @Sendable () -> Date
    /// What inquiries change: their upload slots and how many were sent.
    struct State {
        var slots: [String: Bool] = [:]
        var inquiries = 0
    }

    let state = Mutex(State())
    // Counters every request touches, concurrently: atomics, which the thread sanitizer
    // follows (on Linux it does not see a `Mutex`'s hand-off, and reported a race).
    private let requestCount = Atomic(0)
    let uploadedEvents = Atomic(0)

    /// Each district has one name, in Latin letters; its name in Chinese characters is an
    /// alias that finds the same listings.
    static let districtAliases = ["静安": "Jing'an", "徐汇": "Xuhui", "浦东": "Pudong", "长宁": "Changning", "虹口": "Hongkou"]

    /// The canonical name of `district` (itself when it is no alias).
    static func canonicalDistrict(_ district: String) -> String {
        districtAliases[district.trimmingCharacters(in: .whitespaces)] ?? district
    }

    /// The route patch the app fetches at start.
    package let routePatch: JSONValue

    /// The default patch: `homes://listing/featured` opens a listing's detail.
    package static let defaultRoutePatch: JSONValue = [
        "version": 1,
        "routes": [
            ["url": "homes://listing/featured", "target": "listing", "action": "detail"]
        ],
    ]

    /// How many operation-log events have been uploaded.
    package var eventsUploaded: Int {
        uploadedEvents.load(ordering: .relaxed)
    }

    /// Serves `count` listings per service generated from `seed`, last updated within the
    /// day before `updatedBefore`; checks signatures with `secret` when given, against `clock`,
    /// remembering nonces in a store of `nonceCapacity` slots (see ``SignatureVerifier``).
    package init(
        seed: UInt64 = 7, count: Int = 45, secret: [UInt8]? = nil, nonceCapacity: Int = 1 << 21,
        updatedBefore: Date = Date(),
        routePatch: JSONValue = HomesAPIServer.defaultRoutePatch,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.routePatch = routePatch
        var generator = SeededGenerator(seed: seed)
        let districts = ["Xuhui", "Jing'an", "Pudong", "Changning", "Hongkou", "静安", "徐汇"]
        let names = ["Loft", "Studio", "Garden Flat", "Courtyard", "Riverside", "Skyline", "Lane House", "Tower"]
        var made: [Service: [Listing]] = [:]
        let base = Int(updatedBefore.timeIntervalSince1970)
        for service in Service.allCases {
            made[service] = (1...max(1, count)).map { index in
                let rooms = 1 + Int(generator.next() % 4)
                let district = Self.canonicalDistrict(districts[Int(generator.next() % UInt64(districts.count))])
                let name = names[Int(generator.next() % UInt64(names.count))]
                let price: Int
                switch service {
                case .rentals: price = 2_000 + Int(generator.next() % 180) * 100
                case .newHomes, .resale: price = 1_200_000 + Int(generator.next() % 900) * 10_000
                }
                var listing = Listing(
                    id: index, name: "\(name) \(index)", title: "\(rooms)-room \(name.lowercased()) in \(district)",
                    price: price, area: 30 + rooms * 20 + Int(generator.next() % 25), rooms: rooms, district: district,
                    latitude: 31.15 + Double(generator.next() % 1_000) / 5_000,
                    longitude: 121.35 + Double(generator.next() % 1_000) / 5_000,
                    updatedAt: base - Int(generator.next() % 86_400)
                )
                listing.listItem = Self.listItem(listing, prefix: service.keyPrefix).encoded()
                return listing
            }
        }
        listings = made
        verifier = secret.map { SignatureVerifier(secret: $0, nonceCapacity: nonceCapacity) }
        self.clock = clock
    }

    /// The most parameters a request may carry in its query, and in its body.
    static let maximumParameterCount = 100

    /// How many requests have been answered.
    package var requestsServed: Int {
        requestCount.load(ordering: .relaxed)
    }

    /// Answers one request: checks its path, signature and parameters, then answers with
    /// the route its path names in `routes`.
    package func handle(_ request: HTTPRequest) -> HTTPResponse {
        requestCount.add(1, ordering: .relaxed)
        guard let name = Self.apiName(of: request) else { return Self.noAPI(at: request) }
        // The signature is checked on the raw request: nothing from a stranger is parsed.
        if let verifier, let refusal = Self.refusal(for: verifier.verify(request, now: clock())) {
            return refusal
        }
        let parameters: [String: String]
        do {
            parameters = try request.checkedParameters(maximumCount: Self.maximumParameterCount)
        } catch {
            return .json(["code": 4000, "message": .string("bad parameters: \(error)")], status: 400)
        }
        guard let route = Self.routes[name] else {
            return .json(["message": .string("no API \(name)")], status: 404)
        }
        if case .only(let method, let refusal) = route.methods, request.method != method {
            return .json(["code": 4050, "message": .string(refusal)], status: 405)
        }
        return route.answer(self, parameters)
    }

    /// Refuses, from its head alone, a request whose body need not be read: one outside
    /// `/api/<service>/<method>` (404), and one whose signature header fields cannot hold
    /// whatever its body (401 or 503, with the codes of ``handle(_:)``; see
    /// ``SignatureVerifier/screen(headers:now:)`` and `Docs/Signing.md`).
    ///
    /// A server calls it when a request's head has arrived and before it reads the body,
    /// then hands a request it let through, body and all, to ``handle(_:)``, which checks
    /// everything again. It spends no nonce.
    ///
    /// - Parameter head: The request without its body.
    /// - Returns: The refusal, or nil when the body must be read to decide.
    package func screen(_ head: HTTPRequest) -> HTTPResponse? {
        let refusal: HTTPResponse?
        if Self.apiName(of: head) == nil {
            refusal = Self.noAPI(at: head)
        } else if let verifier, let verdict = verifier.screen(headers: head.headers, now: clock()) {
            refusal = Self.refusal(for: verdict)
        } else {
            refusal = nil
        }
        // A refusal here is an answer that `handle` never sees.
        if refusal != nil { requestCount.add(1, ordering: .relaxed) }
        return refusal
    }

    /// `<service>/<method>` of a request to `/api/<service>/<method>`; nil for any other
    /// path: every API lives there, and nowhere else.
    private static func apiName(of request: HTTPRequest) -> String? {
        let path = request.url.path.split(separator: "/", omittingEmptySubsequences: false)
        guard path.count == 4, path[0].isEmpty, path[1] == "api", !path[2].isEmpty, !path[3].isEmpty else {
            return nil
        }
        return path.suffix(2).joined(separator: "/")
    }

    private static func noAPI(at request: HTTPRequest) -> HTTPResponse {
        .json(["message": .string("no API at \(request.url.path)")], status: 404)
    }

    /// The response refusing a request with `verdict`; nil for a valid one.
    private static func refusal(for verdict: SignatureVerifier.Verdict) -> HTTPResponse? {
        switch verdict {
        case .valid: return nil
        case .stale: return .json(["code": 4011, "message": "request timestamp is stale"], status: 401)
        case .replayed:
            return .json(["code": 4012, "message": "request replayed: its nonce was already used"], status: 401)
        case .duplicated: return .json(["code": 4013, "message": "a signature header is repeated"], status: 401)
        case .missing, .mismatch: return .json(["code": 4010, "message": "signature rejected"], status: 401)
        case .overloaded:
            return .json(["code": 5031, "message": "too many signed requests; try again shortly"], status: 503)
        }
    }
}

/// A small deterministic random generator (SplitMix64).
struct SeededGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
