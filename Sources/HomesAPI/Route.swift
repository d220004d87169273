import Networking

/// One API of the embedded server: its path, the HTTP methods it answers, and what
/// answers it.
///
/// Every API lives at `/api/<service>/<method>`; a route's `path` is the part after
/// `/api/`. Each area declares its routes in its own file, and `HomesAPIServer.routes`
/// joins them into the table `handle` looks paths up in.
struct Route: Sendable {
    /// The HTTP methods a route answers.
    enum Methods: Sendable {
        /// Every method.
        case any
        /// Only `method`; any other is refused with 405, code 4050 and `refusal`.
        case only(HTTPMethod, refusal: String)
    }

    /// `<service>/<method>`: the request's path after `/api/`.
    let path: String
    /// The methods answered.
    let methods: Methods
    /// The answer to a request that passed the signature and parameter checks.
    let answer: @Sendable (HomesAPIServer, _ parameters: [String: String]) -> HTTPResponse

    /// A route at `path` answering `methods` with `answer`.
    init(
        _ methods: Methods, _ path: String,
        answer: @escaping @Sendable (HomesAPIServer, _ parameters: [String: String]) -> HTTPResponse
    ) {
        self.path = path
        self.methods = methods
        self.answer = answer
    }
}

extension HomesAPIServer {
    /// Every API, by its path after `/api/`: the routes of each area, in one table.
    static let routes: [String: Route] = Dictionary(
        uniqueKeysWithValues: (listingRoutes + accountRoutes + inquiryRoutes + appRoutes).map { ($0.path, $0) })
}
