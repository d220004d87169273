/// Runs a unit of work on demand and tells whether it is running and what it produced.
///
/// An action refuses to start while it is disabled (`enabledIf` is false) or already
/// executing. Each run ends with one value on `values` or one error on `errors`, after
/// which `isExecuting` turns false.
///
/// ```swift
/// let login = Action<Credentials, Session>(enabledIf: form.isValid) { credentials, done in
///     api.login(credentials) { result in done(result) }
/// }
/// login.values.observe { session in show(session) }
/// login.apply(credentials)
/// ```
public final class Action<Input, Output>: @unchecked Sendable {
    /// Whether a run is in progress.
    public let isExecuting: Property<Bool>
    /// Whether `apply` would start a run now: enabled and not executing.
    public let isEnabled: Property<Bool>
    /// The output of each successful run.
    public let values: Signal<Output>
    /// The error of each failed run.
    public let errors: Signal<any Error>

    private let executing = MutableProperty(false)
    private let isAllowed: Property<Bool>
    private let work: (Input, @escaping (Result<Output, any Error>) -> Void) -> Void
    private let valuesInput: Signal<Output>.Input
    private let errorsInput: Signal<any Error>.Input

    /// Creates an action that runs `execute`, which must call its completion exactly once
    /// (later calls are ignored), from any thread.
    public init(
        enabledIf isAllowed: Property<Bool> = Property(value: true),
        execute: @escaping (Input, @escaping (Result<Output, any Error>) -> Void) -> Void
    ) {
        self.isAllowed = isAllowed
        self.work = execute
        isExecuting = Property(executing)
        isEnabled = Property.combineLatest(isAllowed, executing).map { allowed, running in allowed && !running }
        (values, valuesInput) = Signal.pipe()
        (errors, errorsInput) = Signal.pipe()
    }

    /// Starts a run with `input`; returns false (and does nothing) when disabled or
    /// already executing.
    @discardableResult
    public func apply(_ input: Input) -> Bool {
        // `executing` is the gate: testing and setting it is one step under the properties'
        // lock, so two threads cannot both start, and a run that ends turns it false
        // before anyone can start the next, whose `true` therefore always lands last.
        guard isAllowed.value, executing.update({ running in running ? nil : true }) else { return false }
        let finish = Once<Result<Output, any Error>> { [self] result in
            switch result {
            case .success(let output): valuesInput.send(output)
            case .failure(let error): errorsInput.send(error)
            }
            executing.value = false
        }
        work(input, finish.run)
        return true
    }
}

/// Runs its closure on the first call only, from any thread.
private final class Once<Argument>: @unchecked Sendable {
    private let lock = SpinLock()
    private var body: ((Argument) -> Void)?

    init(_ body: @escaping (Argument) -> Void) {
        self.body = body
    }

    func run(_ argument: Argument) {
        let body: ((Argument) -> Void)? = lock.withLock {
            defer { self.body = nil }
            return self.body
        }
        body?(argument)
    }
}
