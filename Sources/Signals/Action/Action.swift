/// Runs a unit of work on demand and tells whether it is running and what it produced.
///
/// An action refuses to start while it is disabled (`enabledIf` is false) or already
/// executing. Each run ends with one value on `values` or one error on `errors`, after
/// which `isExecuting` turns false. `cancel()` ends a run at once with a
/// `CancellationError` and stops its work when the work can be stopped.
///
/// ```swift
/// let login = Action<Credentials, Session>(enabledIf: form.isValid) { credentials in
///     try await api.login(credentials)
/// }
/// login.values.observeOnMainActor { session in show(session) }
/// login.apply(credentials)
/// ```
// Safe to share: every stored property is a `let` of a Sendable type; the run in progress
// is guarded by `lock`.
public final class Action<Input: Sendable, Output: Sendable>: @unchecked Sendable {
    /// Whether a run is in progress; notifies only when that changes.
    public let isExecuting: Property<Bool>
    /// Whether `apply` would start a run now: enabled and not executing; notifies only
    /// when that changes.
    public let isEnabled: Property<Bool>
    /// The output of each successful run.
    public let values: Signal<Output>
    /// The error of each failed or cancelled run (`CancellationError` when cancelled).
    public let errors: Signal<any Error>

    private let executing = MutableProperty(false)
    private let isAllowed: Property<Bool>
    private let work:
        @Sendable (Input, (any Actor)?, @escaping @Sendable (Result<Output, any Error>) -> Void) -> Disposable?
    private let valuesInput: Signal<Output>.Input
    private let errorsInput: Signal<any Error>.Input
    private let lock = SpinLock()
    /// The run in progress: how to end it and how to stop its work.
    private var current: (finish: Once<Result<Output, any Error>>, stop: Disposable?)?
    /// A `cancel()` that came while a run was starting (executing, but not yet `current`).
    private var pendingCancel = false

    /// Creates an action that runs `execute`, which must call its completion exactly once
    /// (later calls are ignored), from any thread.
    ///
    /// `cancel()` ends such a run at once; the work itself goes on and its result is
    /// dropped. Use `init(enabledIf:execute:)` with an async closure for work that stops.
    public convenience init(
        enabledIf isAllowed: Property<Bool> = Property(value: true),
        execute: @escaping @Sendable (Input, @escaping @Sendable (Result<Output, any Error>) -> Void) -> Void
    ) {
        self.init(
            enabledIf: isAllowed,
            work: { input, _, done in
                execute(input, done)
                return nil
            })
    }

    /// Creates an action whose runs are tasks running `execute`; `cancel()` cancels the
    /// task and ends the run with a `CancellationError`.
    ///
    /// A run ends on the actor that applied it (the main actor, for UI code): `values` or
    /// `errors` and the `isExecuting` change are delivered there, in one step.
    public convenience init(
        enabledIf isAllowed: Property<Bool> = Property(value: true),
        execute: @escaping @Sendable (Input) async throws -> Output
    ) {
        self.init(
            enabledIf: isAllowed,
            work: { input, isolation, done in
                let task = Task {
                    await Self.run(execute, with: input, endingOn: isolation, done: done)
                }
                return AnyDisposable { task.cancel() }
            })
    }

    /// Runs `execute` and reports its result on `isolation`, the actor that applied the run.
    private static func run(
        _ execute: @Sendable (Input) async throws -> Output,
        with input: Input,
        endingOn isolation: isolated (any Actor)?,
        done: @Sendable (Result<Output, any Error>) -> Void
    ) async {
        do { done(.success(try await execute(input))) } catch { done(.failure(error)) }
    }

    private init(
        enabledIf isAllowed: Property<Bool>,
        work:
            @escaping @Sendable (Input, (any Actor)?, @escaping @Sendable (Result<Output, any Error>) -> Void) ->
            Disposable?
    ) {
        self.isAllowed = isAllowed
        self.work = work
        isExecuting = Property(executing).skipRepeats()
        isEnabled = Property.combineLatest(isAllowed, executing).map { allowed, running in allowed && !running }
        (values, valuesInput) = Signal.pipe()
        (errors, errorsInput) = Signal.pipe()
    }

    /// Starts a run with `input`; returns false (and does nothing) when disabled or
    /// already executing.
    @discardableResult
    public func apply(_ input: Input, isolation: isolated (any Actor)? = #isolation) -> Bool {
        // `executing` is the gate: testing and setting it is one step under the properties'
        // lock, so two threads cannot both start, and a run that ends turns it false
        // before anyone can start the next, whose `true` therefore always lands last.
        guard isAllowed.value, executing.update({ running in running ? nil : true }) else { return false }
        let run = RunToken()
        let finish = Once<Result<Output, any Error>> { [self] result in
            switch result {
            case .success(let output): valuesInput.send(output)
            case .failure(let error): errorsInput.send(error)
            }
            executing.value = false
            // Cleared only now, so a `cancel()` never mistakes an ending run for a starting one.
            lock.withLock { if current?.finish.token === run { current = nil } }
        }
        finish.token = run
        let cancelled: Bool = lock.withLock {
            current = (finish, nil)
            defer { pendingCancel = false }
            return pendingCancel
        }
        if cancelled {
            _ = finish.cancel(with: .failure(CancellationError()))
            return true
        }
        let stop = work(input, isolation) { finish.run($0) }
        let ended: Bool = lock.withLock {
            guard let run = current, run.finish === finish else { return true }
            current = (finish, stop)
            return false
        }
        if ended, finish.isCancelled { stop?.dispose() }
        return true
    }

    /// Ends the run in progress, if any: its work is stopped when it can be (an async
    /// run's task is cancelled), `errors` gets a `CancellationError`, and `isExecuting`
    /// turns false. A result the work delivers later is dropped.
    public func cancel() {
        let current: (finish: Once<Result<Output, any Error>>, stop: Disposable?)? = lock.withLock {
            // Executing with no run recorded: a run is starting; it ends as soon as it is.
            if self.current == nil, executing.value { pendingCancel = true }
            return self.current
        }
        guard let run = current else { return }
        guard run.finish.cancel(with: .failure(CancellationError())) else { return }
        run.stop?.dispose()
    }
}

extension Action where Input == Void {
    /// Starts a run; returns false (and does nothing) when disabled or already executing.
    @discardableResult
    public func apply(isolation: isolated (any Actor)? = #isolation) -> Bool {
        apply((), isolation: isolation)
    }
}

/// Tells one run of an action from another.
private final class RunToken: Sendable {}

/// Runs its closure on the first call only, from any thread.
// Safe to share: `body` and `isCancelled` are touched only under `lock`; `token` is set once
// before the object is shared.
private final class Once<Argument>: @unchecked Sendable {
    /// The run this completion belongs to.
    var token: RunToken?
    private let lock = SpinLock()
    private var body: ((Argument) -> Void)?
    private var cancelled = false

    init(_ body: @escaping (Argument) -> Void) {
        self.body = body
    }

    /// Whether the first call came from `cancel(with:)`.
    var isCancelled: Bool { lock.withLock { cancelled } }

    func run(_ argument: Argument) {
        let body = take()
        body?(argument)
    }

    /// Runs the closure with `argument` as a cancellation; true if this was the first call.
    func cancel(with argument: Argument) -> Bool {
        let body: ((Argument) -> Void)? = lock.withLock {
            guard self.body != nil else { return nil }
            cancelled = true
            defer { self.body = nil }
            return self.body
        }
        body?(argument)
        return body != nil
    }

    private func take() -> ((Argument) -> Void)? {
        lock.withLock {
            defer { self.body = nil }
            return self.body
        }
    }
}
