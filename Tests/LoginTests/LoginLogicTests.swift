import Foundation
import HomesTesting
import Login
import Networking
import Signals
import SignalsTesting
import Testing

@MainActor @Suite struct LoginLogicTests {
    func harnessWithAccounts() -> HomesHarness {
        HomesHarness(services: [HomesHarness.account])
    }

    @Test func rules() async {
        #expect(LoginLogic.problem(username: "ab") == "a username has 3 to 20 characters")
        #expect(LoginLogic.problem(username: "mei li") == "a username has only letters, digits and _")
        #expect(LoginLogic.problem(username: "梅_2") == nil)
        #expect(LoginLogic.problem(password: "short1") == "a password has at least 8 characters")
        #expect(LoginLogic.problem(password: "longenough") == "a password needs a digit")
        #expect(LoginLogic.problem(password: "homes2026") == nil)
    }

    @Test func validationMessagesFollowEveryChangeAndEmptyFieldsSayNothing() async {
        let harness = harnessWithAccounts()
        let logic = LoginLogic(engine: harness.engine)
        let problems = logic.state.map(\.usernameProblem).record()
        let enabled = logic.state.map(\.canSubmit).record()
        logic.setUsername("ab")
        logic.setUsername("mei")
        logic.setPassword("homes2026")
        problems.assertValues([nil, "a username has 3 to 20 characters", nil])
        enabled.assertValues([false, true])
    }

    @Test func submitSignsInOnceAndRefusesWhileRunningOrInvalid() async {
        let harness = harnessWithAccounts()
        let logic = LoginLogic(engine: harness.engine)
        let before = harness.transport.server.requestsServed
        #expect(await !harness.run { logic.submit() })
        logic.setUsername("mei")
        logic.setPassword("homes2026")
        harness.transport.holding = true
        #expect(logic.submit())
        #expect(logic.state.value.isSubmitting && !logic.state.value.canSubmit)
        #expect(!logic.submit())
        harness.transport.release()
        await harness.flush()
        #expect(harness.transport.server.requestsServed - before == 1)
        #expect(logic.state.value.signedInAs == "mei")
        #expect(!logic.state.value.isSubmitting && logic.state.value.canSubmit)
        #expect(logic.state.value.failure == nil)
    }

    /// The sign-in's action is the gate: submits while one sign-in is on its way are
    /// refused at once, not queued for later and not sent, and the state shows one run.
    @Test func submitsWhileASignInRunsAreRefusedNotQueued() async {
        let harness = harnessWithAccounts()
        let logic = LoginLogic(engine: harness.engine)
        logic.setUsername("mei")
        logic.setPassword("homes2026")
        let submitting = logic.state.map(\.isSubmitting).record()
        let signedIn = logic.state.map(\.signedInAs).record()
        let before = harness.transport.server.requestsServed
        harness.transport.holding = true
        #expect(logic.submit())
        #expect(!logic.submit())
        #expect(!logic.submit())
        harness.transport.release()
        await harness.flush()
        await harness.flush()
        // One request, one run: nothing refused came back later.
        #expect(harness.transport.server.requestsServed - before == 1)
        submitting.assertValues([false, true, false])
        signedIn.assertValues([nil, "mei"])
        // Once it ended, the action is enabled again.
        #expect(await harness.run { logic.submit() })
        #expect(harness.transport.server.requestsServed - before == 2)
        submitting.assertValues([false, true, false, true, false])
    }

    @Test func aSignInCancelledThenStartedAgainInOneTurnEndsTheFirstAndSignsInWithTheSecond() async {
        let harness = harnessWithAccounts()
        let logic = LoginLogic(engine: harness.engine)
        let failures = logic.state.map(\.failure).record()
        let submitting = logic.state.map(\.isSubmitting).record()
        logic.setUsername("mei")
        logic.setPassword("homes2026")
        harness.transport.holding = true
        #expect(await harness.run { logic.submit() })
        logic.cancel()
        #expect(logic.submit())
        await harness.flush()
        harness.transport.release()
        await harness.flush()
        failures.assertValues([nil, "cancelled", nil])
        submitting.assertValues([false, true, false, true, false])
        #expect(logic.state.value.signedInAs == "mei")
        #expect(!logic.state.value.isSubmitting)
    }

    @Test func aWrongPasswordIsAFailureUntilAFieldChanges() async {
        let harness = harnessWithAccounts()
        let logic = LoginLogic(engine: harness.engine)
        logic.setUsername("mei")
        logic.setPassword("wrong2026")
        await harness.run { _ = logic.submit() }
        #expect(logic.state.value.failure == "wrong username or password")
        #expect(logic.state.value.signedInAs == nil)
        logic.setPassword("homes2026")
        #expect(logic.state.value.failure == nil)
    }
}

/// The form's state is derived from its fields and its activity: a sign-in's start, its
/// end and its failure each change it once.
@MainActor @Suite struct LoginStateDerivationTests {
    @Test func aSignInStartsEndsAndFailsWithOneChangeEach() async {
        let harness = HomesHarness(services: [HomesHarness.account])
        let logic = LoginLogic(engine: harness.engine)
        logic.setUsername("mei")
        logic.setPassword("wrong2026")
        let states = logic.state.record()
        harness.transport.holding = true
        #expect(logic.submit())
        harness.transport.release()
        await harness.flush()
        logic.setPassword("homes2026")
        harness.transport.holding = true
        #expect(logic.submit())
        harness.transport.release()
        await harness.flush()
        let (wrong, right) = (
            LoginState(username: "mei", password: "wrong2026"), LoginState(username: "mei", password: "homes2026")
        )
        states.assertValues([
            wrong, LoginState(username: "mei", password: "wrong2026", isSubmitting: true),
            LoginState(username: "mei", password: "wrong2026", failure: "wrong username or password"), right,
            LoginState(username: "mei", password: "homes2026", isSubmitting: true),
            LoginState(username: "mei", password: "homes2026", signedInAs: "mei"),
        ])
    }
}
