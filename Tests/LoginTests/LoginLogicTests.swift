import Foundation
import HomesAPI
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

/// The account service refusing sign-ins as overloaded (503, "try again shortly") is
/// waited out: the sign-in is tried again after a pause on the logic's scheduler, a test
/// scheduler here, so no real time passes.
@MainActor @Suite struct LoginOverloadTests {
    /// Refuses the first `refusals` requests as the embedded API does when overloaded, and
    /// hands the others to `transport`.
    // Safe to share: `refusals` and `attempts` are touched only under `lock`.
    final class OverloadedTransport: HTTPTransport, @unchecked Sendable {
        /// A refusal, answered at once: nothing to stop.
        struct Refused: TransportTask {
            func cancel() {}
        }

        private let lock = NSLock()
        private let transport: any HTTPTransport
        private var refusals: Int
        private var attempts = 0

        init(passingTo transport: any HTTPTransport, refusing refusals: Int) {
            self.transport = transport
            self.refusals = refusals
        }

        /// How many requests came, refused or not.
        var requests: Int { lock.withLock { attempts } }

        func send(
            _ request: HTTPRequest, timeout: Duration,
            completion: @escaping @Sendable (Result<HTTPResponse, TransportFailure>) -> Void
        ) -> any TransportTask {
            let refuse: Bool = lock.withLock {
                attempts += 1
                guard refusals > 0 else { return false }
                refusals -= 1
                return true
            }
            guard refuse else { return transport.send(request, timeout: timeout, completion: completion) }
            let body = #"{"code": 5031, "message": "too many signed requests; try again shortly"}"#
            completion(.success(HTTPResponse(status: 503, body: Data(body.utf8))))
            return Refused()
        }
    }

    func logic(refusing refusals: Int) -> (LoginLogic, OverloadedTransport, TestScheduler, HomesHarness) {
        let harness = HomesHarness(services: [HomesHarness.account])
        let transport = OverloadedTransport(passingTo: harness.transport, refusing: refusals)
        let engine = APIEngine(
            services: ServiceRegistry([HomesHarness.account]), transport: transport, timeout: .seconds(3_600))
        let scheduler = TestScheduler()
        let logic = LoginLogic(engine: engine, scheduler: scheduler)
        logic.setUsername("mei")
        logic.setPassword("homes2026")
        return (logic, transport, scheduler, harness)
    }

    @Test func anOverloadedServiceIsTriedAgainAfterAPauseAndTheSignInLands() async {
        let (logic, transport, scheduler, harness) = logic(refusing: 2)
        let states = logic.state.map { [$0.isSubmitting ? "submitting" : "idle", $0.failure ?? "-"] }.record()
        let pause = LoginLogic.overloadRetry.pause
        #expect(await harness.run { logic.submit() })
        #expect(transport.requests == 1)
        // Refused: nothing more until the pause has passed on the scheduler.
        scheduler.advance(by: pause - .milliseconds(1))
        await harness.flush()
        #expect(transport.requests == 1)
        #expect(logic.state.value.isSubmitting)
        // A second submit meanwhile is refused by the action, as always.
        #expect(!logic.submit())
        scheduler.advance(by: .milliseconds(1))
        await harness.flush()
        #expect(transport.requests == 2)
        scheduler.advance(by: pause)
        await harness.flush()
        #expect(transport.requests == 3)
        // The answer is delivered on the scheduler.
        scheduler.advance()
        #expect(logic.state.value.signedInAs == "mei")
        states.assertValues([["idle", "-"], ["submitting", "-"], ["idle", "-"]])
    }

    @Test func anOverloadThatLastsEndsWithTheServicesMessage() async {
        let times = LoginLogic.overloadRetry.times
        let (logic, transport, scheduler, harness) = logic(refusing: times + 1)
        #expect(await harness.run { logic.submit() })
        for _ in 0..<times {
            scheduler.advance(by: LoginLogic.overloadRetry.pause)
            await harness.flush()
        }
        scheduler.advance()
        #expect(transport.requests == times + 1)
        #expect(!logic.state.value.isSubmitting)
        #expect(logic.state.value.failure == "too many signed requests; try again shortly")
        #expect(logic.state.value.signedInAs == nil)
    }

    @Test func otherFailuresAreNotTriedAgain() async {
        let (logic, transport, scheduler, harness) = logic(refusing: 0)
        logic.setPassword("wrong2026")
        #expect(await harness.run { logic.submit() })
        scheduler.advance(by: LoginLogic.overloadRetry.pause * 4)
        await harness.flush()
        #expect(transport.requests == 1)
        #expect(logic.state.value.failure == "wrong username or password")
    }
}
