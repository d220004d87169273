import Signals
import SignalsTesting
import Testing

/// `Action.run`: a run whose end is awaited; and `Action(state:enabledIf:execute:)`.
@Suite(.timeLimit(.minutes(1))) struct ActionRunTests {
    struct Failure: Error, Equatable {
        let code: Int
    }

    // MARK: run

    @Test @MainActor func runReturnsTheOutputOnceValuesAndIsExecutingHaveToldIt() async throws {
        let action = Action<Int, Int> { input in
            await Task.yield()
            return input * 2
        }
        let values = action.values.record()
        let output = try await action.run(21)
        #expect(output == 42)
        values.assertValues([42])
        #expect(!action.isExecuting.value)
        #expect(action.isEnabled.value)
    }

    @Test func runThrowsTheErrorOfTheRun() async {
        let action = Action<Void, Int> { throw Failure(code: 7) }
        let errors = action.errors.record()
        await #expect(throws: Failure(code: 7)) { try await action.run() }
        #expect(errors.values.count == 1)
    }

    @Test func runOfACallbackActionEndsWhenTheCompletionIsCalledOnAnotherThread() async throws {
        let action = Action<Int, String> { input, done in
            Task.detached { done(.success("#\(input)")) }
        }
        #expect(try await action.run(3) == "#3")
    }

    @Test func runThrowsAtOnceWhenTheActionIsDisabledOrBusy() async throws {
        let allowed = MutableProperty(false)
        let gate = AsyncGate()
        let action = Action<Void, Int>(enabledIf: Property(allowed)) {
            await gate.wait()
            return 1
        }
        await #expect(throws: ActionDisabledError.self) { try await action.run() }
        allowed.value = true
        let first = Task { try await action.run() }
        _ = await action.isExecuting.values.first { $0 }
        await #expect(throws: ActionDisabledError.self) { try await action.run() }
        gate.open()
        #expect(try await first.value == 1)
    }

    @Test func cancelEndsAWaitingRunWithCancellationError() async {
        let action = Action<Void, Int> {
            try await Task.sleep(for: .seconds(600))
            return 1
        }
        let waiting = Task { try await action.run() }
        _ = await action.isExecuting.values.first { $0 }
        action.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(!action.isExecuting.value)
    }

    @Test func cancellingTheWaitingTaskCancelsTheRunAndItsWork() async {
        let workCancelled = AsyncGate()
        let action = Action<Void, Int> {
            await withTaskCancellationHandler {
                await workCancelled.wait()
            } onCancel: {
                workCancelled.open()
            }
            throw CancellationError()
        }
        let errors = action.errors.record()
        let waiting = Task { try await action.run() }
        _ = await action.isExecuting.values.first { $0 }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        await workCancelled.wait()
        #expect(!action.isExecuting.value)
        #expect(errors.values.count == 1 && errors.values.first is CancellationError)
    }

    @Test func aTaskCancelledBeforeRunStartsDoesNotLeaveTheRunGoing() async {
        let action = Action<Void, Int> {
            try await Task.sleep(for: .seconds(600))
            return 1
        }
        let waiting = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await action.run()
        }
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(!action.isExecuting.value)
    }

    // MARK: state

    struct Form: Sendable, Equatable {
        var name = ""
        var email = ""
        var isComplete: Bool { !name.isEmpty && email.contains("@") }
    }

    @Test @MainActor func anActionOverStateIsEnabledByItsConditionAndRunsWithTheStateItApproved() async throws {
        let form = MutableProperty(Form())
        let signUp = Action<String, String>(state: Property(form), enabledIf: \.isComplete) { form, greeting in
            "\(greeting) \(form.name) <\(form.email)>"
        }
        let enabled = signUp.isEnabled.signal.record()
        #expect(!signUp.isEnabled.value)
        await #expect(throws: ActionDisabledError.self) { try await signUp.run("hi") }
        form.value.name = "Mei"
        form.value.email = "mei@example.com"
        #expect(signUp.isEnabled.value)
        #expect(try await signUp.run("hi") == "hi Mei <mei@example.com>")
        form.value.email = "nobody"
        #expect(!signUp.apply("hi"))
        enabled.assertValues([true, false, true, false])
    }

    @Test func anActionOverStateGetsTheValueCheckedEvenIfTheStateChangesDuringTheRun() async throws {
        let form = MutableProperty(Form(name: "Ana", email: "ana@example.com"))
        let gate = AsyncGate()
        let signUp = Action<Void, String>(state: Property(form), enabledIf: \.isComplete) { form, _ in
            await gate.wait()
            return form.name
        }
        let run = Task { try await signUp.run() }
        _ = await signUp.isExecuting.values.first { $0 }
        form.value = Form(name: "Bo", email: "")
        gate.open()
        #expect(try await run.value == "Ana")
    }
}

/// A one-shot gate tasks can wait on, opened from any thread.
final class AsyncGate: Sendable {
    private let state = Locked<(isOpen: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { continuation in
            let open: Bool = state.withLock { state in
                if state.isOpen { return true }
                state.waiting.append(continuation)
                return false
            }
            if open { continuation.resume() }
        }
    }

    func open() {
        let waiting = state.withLock { state in
            state.isOpen = true
            defer { state.waiting = [] }
            return state.waiting
        }
        waiting.forEach { $0.resume() }
    }
}
