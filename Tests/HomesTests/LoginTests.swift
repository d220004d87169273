import Foundation
import HomesScreens
import Login
import Networking
import Signals
import SignalsTesting
import Testing

@MainActor @Suite struct LoginLogicTests {
    func harnessWithAccounts() -> HomesHarness {
        let harness = HomesHarness()
        harness.engine.services.register(APIService(name: "account", baseURL: URL(string: "http://embedded.test/api")!,
                                                    signingSecret: HomesHarness.secret))
        return harness
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
        let problems = logic.usernameProblem.record()
        let enabled = logic.submit.isEnabled.skipRepeats().record()
        logic.username.value = "ab"
        logic.username.value = "mei"
        logic.password.value = "homes2026"
        problems.assertValues([nil, "a username has 3 to 20 characters", nil])
        enabled.assertValues([false, true])
    }

    @Test func submitSignsInOnceAndRefusesWhileRunningOrInvalid() async {
        let harness = harnessWithAccounts()
        let logic = LoginLogic(engine: harness.engine)
        #expect(await !harness.run { logic.submit.apply() })
        logic.username.value = "mei"
        logic.password.value = "homes2026"
        harness.transport.holding = true
        #expect(await harness.run { logic.submit.apply() })
        #expect(await !harness.run { logic.submit.apply() })
        let signedIn = logic.signedInAs.record()
        harness.transport.release()
        await harness.flush()
        signedIn.assertValues([nil, "mei"])
        #expect(!logic.submit.isExecuting.value)
    }

    @Test func aSignInCancelledThenStartedAgainInOneTurnEndsTheFirstAndSignsInWithTheSecond() async {
        let harness = harnessWithAccounts()
        let logic = LoginLogic(engine: harness.engine)
        let errors = logic.submit.errors.map { "\(type(of: $0))" }.record()
        let values = logic.submit.values.record()
        logic.username.value = "mei"
        logic.password.value = "homes2026"
        harness.transport.holding = true
        #expect(await harness.run { logic.submit.apply() })
        logic.cancel()
        #expect(logic.submit.apply())
        await harness.flush()
        harness.transport.release()
        await harness.flush()
        errors.assertValues(["CancellationError"])
        values.assertValues(["mei"])
        #expect(logic.signedInAs.value == "mei")
        #expect(!logic.submit.isExecuting.value)
    }

    @Test func aWrongPasswordIsAnError() async {
        let harness = harnessWithAccounts()
        let logic = LoginLogic(engine: harness.engine)
        let errors = logic.submit.errors.map { "\($0)" }.record()
        logic.username.value = "mei"
        logic.password.value = "wrong2026"
        await harness.run { _ = logic.submit.apply() }
        errors.assertValues(["wrong username or password"])
        #expect(logic.signedInAs.value == nil)
    }
}
