import Signals
import SignalsTesting
import Testing

/// `Action.completed`, `Action.disabledErrors`, and `Action(state:execute:)`.
@Suite(.timeLimit(.minutes(1))) struct ActionOutcomeTests {
    struct Failure: Error, Equatable {
        let code: Int
    }

    @Test func completedSendsOncePerSuccessfulRunWithItsValueAndNothingForAFailure() {
        let action = Action<Int, Int> { input, done in
            done(input < 0 ? .failure(Failure(code: input)) : .success(input))
        }
        let log = Locked<[String]>([])
        let values = action.values.observe { log.append("value \($0)") }
        let completed = action.completed.observe { log.append("completed") }
        let executing = action.isExecuting.signal.observe { log.append("executing \($0)") }
        action.apply(1)
        action.apply(-1)
        action.apply(2)
        [values, completed, executing].forEach { $0.dispose() }
        #expect(
            log.value == [
                "executing true", "value 1", "completed", "executing false",
                "executing true", "executing false",
                "executing true", "value 2", "completed", "executing false",
            ])
    }

    @Test func aCancelledRunSendsNothingOnCompleted() {
        let runs = ActionTests.PendingRuns<Void, Int>()
        let action = Action<Void, Int> { input, done in runs.add(input, done) }
        let completed = action.completed.record()
        let errors = action.errors.record()
        action.apply()
        action.cancel()
        runs.done(0)(.success(1))
        #expect(completed.values.isEmpty)
        #expect(errors.values.first is CancellationError)
    }

    @Test func disabledErrorsTellsEveryRefusedApplyAndNothingElse() {
        let allowed = MutableProperty(false)
        let runs = ActionTests.PendingRuns<Int, Int>()
        let action = Action<Int, Int>(enabledIf: allowed) { input, done in runs.add(input, done) }
        let refused = action.disabledErrors.record()
        #expect(!action.apply(1))
        #expect(refused.values.count == 1, "disabled")
        allowed.value = true
        #expect(action.apply(2))
        #expect(refused.values.count == 1, "a start is not a refusal")
        #expect(!action.apply(3))
        #expect(refused.values.count == 2, "executing")
        runs.done(0)(.success(2))
        #expect(action.apply(4))
        #expect(refused.values.count == 2)
        #expect(runs.inputs == [2, 4])
    }

    @Test func aRefusedRunIsToldOnDisabledErrorsBeforeItThrows() async {
        let action = Action<Void, Int>(enabledIf: Property(value: false)) { 1 }
        let refused = action.disabledErrors.record()
        await #expect(throws: ActionDisabledError.self) { try await action.run() }
        #expect(refused.values.count == 1)
    }

    @Test func anActionOverStateWithoutAConditionIsAlwaysEnabledAndGetsTheStateOfItsStart() async throws {
        let filter = MutableProperty("lofts")
        let gate = AsyncGate()
        let search = Action<Int, String>(state: filter) { filter, page in
            await gate.wait()
            return "\(filter) p\(page)"
        }
        #expect(search.isEnabled.value)
        let run = Task { try await search.run(2) }
        _ = try await search.isExecuting.first(where: { $0 })
        filter.value = "houses"
        gate.open()
        #expect(try await run.value == "lofts p2")
    }

    @Test func aConditionInAPropertyOfItsOwnIsPartOfTheState() async throws {
        let query = MutableProperty("loft")
        let isOnline = MutableProperty(false)
        let state: Property<(String, Bool)> = Property.combineLatest(query, isOnline)
        let search = Action<Void, String>(state: state, enabledIf: { _, isOnline in isOnline }) { state, _ in
            "results for \(state.0)"
        }
        #expect(!search.isEnabled.value)
        isOnline.value = true
        #expect(search.isEnabled.value)
        #expect(try await search.run() == "results for loft")
    }
}
