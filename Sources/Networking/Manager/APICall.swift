/// One call of an API, as its reformer is told of it: what was asked, typed by the API.
///
/// A reformer gets the call's own definition, so a reformer that normalises several
/// kinds of one API reads the kind from `definition` instead of downcasting a manager.
public struct APICall<Definition: APIDefinition>: Sendable {
    /// The API called, as its manager holds it.
    public let definition: Definition
    /// The parameters sent, the paging parameters included.
    public let parameters: [String: String]
    /// The page asked for (1 for an API without pages).
    public let page: Int
    /// Whether this call's data is the first page (true for an API without pages).
    public let isFirstPage: Bool
    /// Whether this call's data is the last page (true for an API without pages).
    public let isLastPage: Bool
    /// Whether the data came from the cache rather than the network.
    public let isFromCache: Bool

    /// Describes a call; the manager makes one for each call that succeeds.
    public init(
        definition: Definition, parameters: [String: String], page: Int = 1, isFirstPage: Bool = true,
        isLastPage: Bool = true, isFromCache: Bool = false
    ) {
        self.definition = definition
        self.parameters = parameters
        self.page = page
        self.isFirstPage = isFirstPage
        self.isLastPage = isLastPage
        self.isFromCache = isFromCache
    }
}

/// Turns one call's data into what a logic keeps, told the call as a typed value.
///
/// The reformer of ``APIManager/call(with:page:reformer:)``: it keeps no state, runs on
/// the main actor as the call lands, and reads what it needs of the call (its kind, its
/// page) from ``APICall``, never from a manager. One reformer type can serve every
/// definition of one type (the three kinds of a list API); a reformer for several API
/// types is one per type, or a closure given to ``APIManager/call(with:page:reform:)``.
///
/// ```swift
/// struct TitlesReformer: APICallReformer {
///     func reform(_ data: JSONValue, of call: APICall<RentalListAPI>) -> [String] {
///         (data["items"]?.arrayValue ?? []).compactMap { $0[call.definition.titleKey]?.stringValue }
///     }
/// }
/// ```
public protocol APICallReformer: Sendable {
    /// The API whose calls it reforms.
    associatedtype Definition: APIDefinition
    /// What it makes of a call's data.
    associatedtype Output: Sendable
    /// Reforms `data`, the validated body of a successful `call`.
    func reform(_ data: JSONValue, of call: APICall<Definition>) -> Output
}
