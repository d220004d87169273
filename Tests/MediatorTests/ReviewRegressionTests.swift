import Dispatch
import Foundation
import Mediator
import Testing

/// Regressions for defects found in review; each failed before its fix.
@Suite struct MediatorReviewRegressionTests {
    final class EchoTarget: MediatorTarget {
        func registerActions(_ actions: TargetActions) {
            actions.on("a%41", allowsRemoteCalls: true) { _ in "percent" }
            actions.on("aA", allowsRemoteCalls: true) { _ in "decoded twice" }
            actions.on("50%off", allowsRemoteCalls: true) { _ in "sale" }
            actions.on("a/b", allowsRemoteCalls: true) { _ in "slash" }
        }
    }

    @Test func pathsAreDecodedOnce() {
        let mediator = Mediator(scheme: "homes")
        mediator.register(target: "e") { EchoTarget() }
        #expect(mediator.open(url: "homes://e/a%2541").value(as: String.self) == "percent")
        #expect(mediator.open(url: "homes://e/50%25off").value(as: String.self) == "sale")
        #expect(mediator.open(url: "homes://e/a%2Fb").value(as: String.self) == "slash")
    }

    @Test func aPatchCannotRemapOntoARouteItDisablesOrRemaps() {
        let mediator = makeMediator()
        let sneaky = Data(
            """
            {"version": 1, "routes": [
              {"url": "homes://listing/detail", "disabled": true, "message": "off"},
              {"url": "homes://listing/echo", "target": "listing", "action": "detail"}
            ]}
            """.utf8)
        #expect(throws: RoutePatchError.self) { try mediator.apply(patch: sneaky) }
        #expect(mediator.listingDetail(id: 1)?.id == 1)
    }

    @Test func anOlderPatchIsRefused() throws {
        let mediator = makeMediator()
        try mediator.apply(patch: Data(#"{"version": 5, "routes": []}"#.utf8))
        #expect(throws: RoutePatchError.self) { try mediator.apply(patch: Data(#"{"version": 4, "routes": []}"#.utf8)) }
        try mediator.apply(patch: Data(#"{"version": 5, "routes": []}"#.utf8))
        #expect(mediator.routeVersion == 5)
    }

    @Test func aKeptTargetIsMadeOnceUnderConcurrentFirstCalls() {
        for _ in 0..<20 {
            let made = Counter()
            let mediator = Mediator(scheme: "homes")
            mediator.register(target: "listing") {
                _ = made.next()
                Thread.sleep(forTimeInterval: 0.001)
                return ListingTarget()
            }
            DispatchQueue.concurrentPerform(iterations: 4) { _ in _ = mediator.listingDetail(id: 1) }
            #expect(made.current == 1)
        }
    }

    @Test func aTargetMadeForAnOldRegistrationIsNotKeptForANewOne() {
        final class Named: MediatorTarget {
            let name: String
            init(_ name: String) { self.name = name }
            func registerActions(_ actions: TargetActions) {
                actions.on("who") { [name] _ in name }
            }
        }
        let mediator = Mediator(scheme: "homes")
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        mediator.register(target: "t") {
            entered.signal()
            release.wait()
            return Named("old")
        }
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = mediator.perform(target: "t", action: "who")
            done.signal()
        }
        entered.wait()
        mediator.register(target: "t") { Named("new") }
        release.signal()
        done.wait()
        #expect(mediator.perform(target: "t", action: "who").value(as: String.self) == "new")
    }
}
