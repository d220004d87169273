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
    /// Whether a run is in progress, notifying only when that changes.
    public let isExecuting: Property<Bool>
    /// Whether `apply` would start a run now, notifying only when that changes.
    ///
    /// It is true while the action is enabled and not executing.
    public let isEnabled: Property<Bool>
    /// The output of each successful run.
    public let values: Signal<Output>
    /// The error of each failed or cancelled run (`CancellationError` when cancelled).
    public let errors: Signal<any Error>
    /// One `()` for each run that succeeds, in the same delivery as its output on
    /// ``values``; a failed or cancelled run sends nothing here.
    ///
    /// For code that only needs to know that the work is done (ReactiveSwift's `completed`):
    ///
    /// ```swift
    /// save.completed.observe { _ in coordinator.close() }
    /// ```
    public let completed: Signal<Void>
    /// One ``ActionDisabledError`` for each start the action refuses, because it is
    /// disabled or already executing: an `apply` that returns false, a `run` that throws it,
    /// an input bound with `<~` that is dropped.
    ///
    /// A refused start does nothing else, so this is where a screen tells the user
    /// (ReactiveSwift's `disabledErrors`):
    ///
    /// ```swift
    /// login.disabledErrors.observeOnMainActor { _ in banner.show("Still signing in") }
    /// ```
    public let disabledErrors: Signal<ActionDisabledError>

    /// Starts a run's work on the actor that applied it, with the completion to call; returns
    /// how to stop the work, if it can be stopped.
    typealias Work = @Sendable ((any Actor)?, @escaping @Sendable (Result<Output, any Error>) -> Void) -> Disposable?

    private let executing = MutableProperty(false)
    /// The work for `input`, or nil when the action is disabled now.
    private let prepare: @Sendable (Input) -> Work?
    private let valuesInput: Signal<Output>.Input
    private let errorsInput: Signal<any Error>.Input
    private let disabledErrorsInput: Signal<ActionDisabledError>.Input
    private let lock = SpinLock()
    /// The run in progress: its completion, which also knows how to stop its work.
    private var current: Once<Result<Output, any Error>>?
    /// How many `start`s are between reading `prepare` and recording their run (or giving
    /// up): a `cancel()` that finds no live run while one is under way is kept for it.
    private var starting = 0
    /// A `cancel()` that came while a run was starting (no live run recorded yet).
    private var pendingCancel = false

    /// Creates an action whose runs call `execute` with a completion to call once.
    ///
    /// `cancel()` ends such a run at once; the work itself goes on and its result is
    /// dropped. Use `init(enabledIf:execute:)` with an async closure for work that stops.
    ///
    /// - Parameters:
    ///   - isAllowed: Whether the action may start a run; always, when omitted.
    ///   - execute: Does the work for an input and calls its completion exactly once, from
    ///     any thread, with the output or the error; later calls are ignored.
    public convenience init(
        enabledIf isAllowed: Property<Bool> = Property(value: true),
        execute: @escaping @Sendable (Input, @escaping @Sendable (Result<Output, any Error>) -> Void) -> Void
    ) {
        self.init(isAllowed: isAllowed) { input in
            guard isAllowed.node.read() else { return nil }
            return { _, done in
                execute(input, done)
                return nil
            }
        }
    }

    /// Creates an action whose runs are tasks running `execute`.
    ///
    /// `cancel()` cancels the task and ends the run with a `CancellationError`.
    /// A run ends on the actor that applied it (the main actor, for UI code): `values` or
    /// `errors` and the `isExecuting` change are delivered there, in one step. In a test,
    /// ``run(_:isolation:)`` awaits the end; work that sleeps on a `TestScheduler`'s
    /// `clock` runs in an ordinary task, so `clock.waitForSleepers()` tells when it sleeps.
    public convenience init(
        enabledIf isAllowed: Property<Bool> = Property(value: true),
        execute: @escaping @Sendable (Input) async throws -> Output
    ) {
        self.init(isAllowed: isAllowed) { input in
            guard isAllowed.node.read() else { return nil }
            return Self.task { try await execute(input) }
        }
    }

    /// Creates an action over `state`, enabled while `isEnabled(state.value)` holds.
    ///
    /// Each run's task gets the state's value at the moment the run starts (the same value
    /// `isEnabled` approved), with the input. Without `enabledIf`, every state is fine.
    ///
    /// ReactiveSwift's `Action(state:enabledIf:execute:)` and `Action(state:execute:)`: for
    /// work that needs the screen's current state, such as a form's fields, without
    /// reading a property that may have changed since the check.
    ///
    /// ```swift
    /// let submit = Action<Void, Account>(state: form, enabledIf: \.isComplete) { form, _ in
    ///     try await api.signUp(form.name, form.email)
    /// }
    /// let search = Action<Int, [Home]>(state: filters) { filters, page in
    ///     try await api.homes(filters, page: page)
    /// }
    /// ```
    public convenience init<State: Sendable>(
        state: Property<State>,
        enabledIf isEnabled: @escaping @Sendable (State) -> Bool = { _ in true },
        execute: @escaping @Sendable (State, Input) async throws -> Output
    ) {
        self.init(isAllowed: state.map(isEnabled)) { input in
            let current = state.node.read()
            guard isEnabled(current) else { return nil }
            return Self.task { try await execute(current, input) }
        }
    }

    /// Work that runs `operation` in a task, reports its result on the actor that applied
    /// the run, and is stopped by cancelling the task.
    private static func task(_ operation: @escaping @Sendable () async throws -> Output) -> Work {
        { isolation, done in
            let task = Task {
                await Self.run(operation, endingOn: isolation, done: done)
            }
            return AnyDisposable { task.cancel() }
        }
    }

    /// Runs `operation` and reports its result on `isolation`, the actor that applied the run.
    private static func run(
        _ operation: @Sendable () async throws -> Output,
        endingOn isolation: isolated (any Actor)?,
        done: @Sendable (Result<Output, any Error>) -> Void
    ) async {
        do { done(.success(try await operation())) } catch { done(.failure(error)) }
    }

    private init(isAllowed: Property<Bool>, prepare: @escaping @Sendable (Input) -> Work?) {
        self.prepare = prepare
        isExecuting = Property(executing).skipRepeats()
        isEnabled = Property.combineLatest(isAllowed, executing).map { allowed, running in allowed && !running }
        (values, valuesInput) = Signal.pipe()
        (errors, errorsInput) = Signal.pipe()
        completed = values.map { _ in }
        (disabledErrors, disabledErrorsInput) = Signal.pipe()
    }

    /// Starts a run with `input`, unless the action is disabled or already executing.
    ///
    /// - Returns: Whether a run started; false means nothing was done but telling
    ///   ``disabledErrors``.
    @discardableResult
    public func apply(_ input: Input, isolation: isolated (any Actor)? = #isolation) -> Bool {
        start(input, isolation: isolation, ended: nil) != nil
    }

    /// Starts a run with `input` and waits for it to end.
    ///
    /// The run is the same as one started by ``apply(_:isolation:)``: `values` or `errors`
    /// and `isExecuting` tell it too, and they have when this returns. Cancelling the
    /// waiting task cancels the run.
    ///
    /// - Returns: The run's output.
    /// - Throws: ``ActionDisabledError`` at once when the action is disabled or already
    ///   executing (after ``disabledErrors`` has told it); otherwise the run's error,
    ///   `CancellationError` when it is cancelled (by ``cancel()`` or by cancelling the
    ///   waiting task).
    ///
    /// ```swift
    /// let session = try await login.run(credentials)   // in a test: no waiting by hand
    /// ```
    public func run(_ input: Input, isolation: isolated (any Actor)? = #isolation) async throws -> Output {
        // The task's cancellation may come before the run has started: a composite disposed
        // first disposes what is added to it later at once.
        let cancellation = CompositeDisposable()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Output, any Error>, Never>) in
                let finish = start(input, isolation: isolation) { continuation.resume(returning: $0) }
                guard let finish else {
                    return continuation.resume(returning: .failure(ActionDisabledError()))
                }
                cancellation.add(AnyDisposable { [self] in cancel(finish) })
            }
        } onCancel: {
            cancellation.dispose()
        }
        return try result.get()
    }

    /// Starts a run; returns its completion, or nil when disabled or already executing.
    /// `ended` is called with the result once the run has ended.
    private func start(
        _ input: Input,
        isolation: (any Actor)?,
        ended: (@Sendable (Result<Output, any Error>) -> Void)?
    ) -> Once<Result<Output, any Error>>? {
        // `executing` is the gate: testing and setting it is one step under the properties'
        // lock, so two threads cannot both start, and a run that ends turns it false
        // before anyone can start the next, whose `true` therefore always lands last.
        //
        // A cancel is told which runs are starting by `starting`, counted under `lock`
        // before the gate: one that finds no live run while a start is under way is kept
        // for it, and dropped when every start under way has given up. So a cancel that
        // lands as one run ends and the next starts ends the next, and one that only meets
        // an ending run is never kept for a later one.
        lock.withLock { starting += 1 }
        guard let work = prepare(input), executing.update({ running in running ? nil : true }) else {
            lock.withLock {
                starting -= 1
                if starting == 0 { pendingCancel = false }
            }
            disabledErrorsInput.send(ActionDisabledError())
            return nil
        }
        let run = RunToken()
        let finish = Once<Result<Output, any Error>> { [self] result in
            switch result {
            case .success(let output): valuesInput.send(output)
            case .failure(let error): errorsInput.send(error)
            }
            // Let go of before `executing` turns false, so the next run's start, which may
            // come from an observer of that change, finds no run of this one's.
            lock.withLock { if current?.token === run { current = nil } }
            executing.value = false
            ended?(result)
        }
        finish.token = run
        let cancelled: Bool = lock.withLock {
            current = finish
            starting -= 1
            defer { pendingCancel = false }
            return pendingCancel
        }
        if cancelled {
            finish.run(.failure(CancellationError()), cancelling: true)
            return finish
        }
        // The run may be cancelled at any point from here on, from any thread: `attach`
        // stops the work itself when the cancel came first.
        finish.attach(work(isolation) { finish.run($0) })
        return finish
    }

    /// Ends the run in progress, if any.
    ///
    /// The run's work is stopped when it can be (an async run's task is cancelled),
    /// `errors` gets a `CancellationError`, and `isExecuting` turns false. A result the
    /// work delivers later is dropped.
    public func cancel() {
        cancel(nil)
    }

    /// Ends the run whose completion is `target` (any run in progress when nil).
    private func cancel(_ target: Once<Result<Output, any Error>>?) {
        let current: Once<Result<Output, any Error>>? = lock.withLock {
            // No live run, and a start under way: it ends as soon as it has recorded its run.
            if target == nil, starting > 0, self.current?.hasEnded ?? true { pendingCancel = true }
            return self.current
        }
        guard let finish = current, target == nil || finish === target else { return }
        finish.run(.failure(CancellationError()), cancelling: true)
    }
}

extension Action {
    /// Applies `action` to every input `inputs` sends, while `action` lives: `action <~ inputs`.
    ///
    /// Each input is applied as ``apply(_:isolation:)`` would be, on the thread that sends
    /// it, so an input that comes while the action is disabled or executing is dropped
    /// (not queued) and told on ``disabledErrors``. An input sent on the main actor applies
    /// it as main-actor code does: an async run then ends on the main actor. The binding
    /// holds `action` weakly and ends at the first input after it is freed.
    ///
    /// ```swift
    /// viewModel.save <~ saveTaps
    /// viewModel.search <~ queries.debounce(.milliseconds(300), on: MainScheduler())
    /// ```
    ///
    /// - Returns: A disposable that ends the binding.
    @discardableResult
    public static func <~ (action: Action, inputs: Signal<Input>) -> Disposable {
        inputs.core.add(
            ClosureObserver(while: action) { action, input in
                _ = action.start(input, isolation: MainQueue.isCurrent ? MainActor.shared : nil, ended: nil)
            })
    }
}

extension Action where Input == Void {
    /// Starts a run, unless the action is disabled or already executing.
    ///
    /// - Returns: Whether a run started; false means nothing was done but telling
    ///   ``disabledErrors``.
    @discardableResult
    public func apply(isolation: isolated (any Actor)? = #isolation) -> Bool {
        apply((), isolation: isolation)
    }

    /// Starts a run and waits for it to end (see ``run(_:isolation:)``).
    public func run(isolation: isolated (any Actor)? = #isolation) async throws -> Output {
        try await run((), isolation: isolation)
    }
}

/// Thrown by ``Action/run(_:isolation:)`` when the action refuses to start.
///
/// The action is disabled, or a run is already in progress.
public struct ActionDisabledError: Error, CustomStringConvertible {
    /// Creates the error.
    public init() {}

    /// Says why nothing ran.
    public var description: String { "the action is disabled or already running" }
}

/// Tells one run of an action from another.
private final class RunToken: Sendable {}

/// Runs its closure on the first call only, from any thread, and stops the run's work when
/// that call is a cancellation.
// Safe to share: `body`, `stop` and `cancelled` are touched only under `lock`; `token` is set
// once before the object is shared.
private final class Once<Argument>: @unchecked Sendable {
    /// The run this completion belongs to.
    var token: RunToken?
    private let lock = SpinLock()
    private var body: ((Argument) -> Void)?
    /// How to stop the run's work, once the work has started and said how.
    private var stop: Disposable?
    private var cancelled = false

    init(_ body: @escaping (Argument) -> Void) {
        self.body = body
    }

    /// Keeps how to stop the run's work; stops it at once if the run was cancelled first.
    ///
    /// The cancel and the work's start race (the cancel may come from any thread while the
    /// work is being started), so whichever comes second stops the work: one lock decides.
    func attach(_ stop: Disposable?) {
        let stopNow: Disposable? = lock.withLock {
            if cancelled { return stop }
            if body != nil { self.stop = stop }
            return nil
        }
        stopNow?.dispose()
    }

    /// Whether the closure has run (the run has ended, by its result or a cancellation).
    var hasEnded: Bool {
        lock.withLock { body == nil }
    }

    /// Runs the closure with `argument`, if this is the first call; when `cancelling`, as a
    /// cancellation, which also stops the work if it has started.
    func run(_ argument: Argument, cancelling: Bool = false) {
        let taken: (body: ((Argument) -> Void)?, stop: Disposable?) = lock.withLock {
            if cancelling && body != nil { cancelled = true }
            defer {
                body = nil
                stop = nil
            }
            return (body, stop)
        }
        taken.body?(argument)
        if cancelling { taken.stop?.dispose() }
    }
}
