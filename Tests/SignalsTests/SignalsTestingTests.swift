import Dispatch
import Foundation
import Signals
import SignalsTesting
import Testing
import XCTest

@Suite struct SignalsTestingTests {
    @Test func recorderKeepsValuesCompletionAndVirtualTimes() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.record(on: scheduler)
        input.send(1)
        scheduler.advance(by: .seconds(2))
        input.send(2)
        input.sendCompleted()
        #expect(recorder.values == [1, 2])
        #expect(recorder.isCompleted)
        #expect(recorder.timedEvents.map(\.time) == [.zero, .seconds(2), .seconds(2)])
    }

    @Test func mismatchedValuesFailWithASideBySideDiff() {
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.record()
        input.send(1)
        input.send(3)
        withKnownIssue {
            recorder.assertValues([1, 2, 4])
        } matching: { issue in
            let text = String(describing: issue)
            return text.contains("expected") && text.contains("✗ 1: value(2)") && text.contains("2: value(4)")
        }
    }

    @Test func exhaustiveModeFailsOnUnassertedEvents() {
        let (signal, input) = Signal<Int>.pipe()
        withKnownIssue {
            let recorder = signal.record(exhaustive: true)
            input.send(1)
            input.send(2)
            recorder.expect(1)
            recorder.finish()
        } matching: { issue in
            String(describing: issue).contains("1 recorded event(s) were not asserted")
        }
    }

    @Test func exhaustiveModePassesWhenEverythingIsConsumed() {
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.record(exhaustive: true)
        input.send(1)
        input.send(2)
        input.sendCompleted()
        recorder.expect(1, 2)
        recorder.expectCompleted()
        recorder.finish()
    }

    @Test func exhaustiveRecorderChecksWhenFreed() {
        let (signal, input) = Signal<Int>.pipe()
        withKnownIssue {
            do {
                let recorder = signal.record(exhaustive: true)
                input.send(1)
                _ = recorder
            }
        }
    }

    @Test func marblesDriveInputsAndDescribeOutputs() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.map { $0 * 10 }.record(on: scheduler)
        scheduler.drive(input, with: "-a-(bc)-|", values: ["a": 1, "b": 2, "c": 3])
        scheduler.run()
        recorder.assertMarbles("-x-(yz)-|", values: ["x": 10, "y": 20, "z": 30])
    }

    @Test func marbleMismatchRendersTheActualTimeline() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<String>.pipe()
        let recorder = signal.record(on: scheduler)
        scheduler.drive(input, with: "a--b|")
        scheduler.run()
        withKnownIssue {
            recorder.assertMarbles("a-b-|")
        } matching: { issue in
            String(describing: issue).contains("actual: a--b|")
        }
    }

    @Test func badMarbleDiagramsAreReportedNotCrashed() {
        let scheduler = TestScheduler()
        let (_, input) = Signal<Int>.pipe()
        withKnownIssue {
            scheduler.drive(input, with: "-a-(b", values: ["a": 1, "b": 2])
        } matching: { issue in
            String(describing: issue).contains("unclosed '('")
        }
        withKnownIssue {
            scheduler.drive(input, with: "-z-", values: ["a": 1])
        } matching: { issue in
            String(describing: issue).contains("no value for 'z'")
        }
    }

    @Test func drivingAPropertyWithMarbles() {
        let scheduler = TestScheduler()
        let property = MutableProperty(0)
        let recorder = property.record(on: scheduler)
        scheduler.drive(property, with: "-a-b", values: ["a": 1, "b": 2], frame: .milliseconds(10))
        scheduler.run()
        recorder.assertMarbles("za-b", values: ["z": 0, "a": 1, "b": 2], frame: .milliseconds(10))
    }

    @Test func liveBindingsAreFoundAndReported() {
        final class Holder {
            let bag = DisposeBag()
            var loose: Disposable?
        }
        let property = MutableProperty(1)
        let holder = Holder()
        property.observe { _ in }.dispose(in: holder.bag)
        holder.loose = property.signal.observe { _ in }
        #expect(liveBindings(in: holder).count == 2)
        withKnownIssue {
            assertNoLiveBindings(in: holder)
        } matching: { issue in
            let text = String(describing: issue)
            return text.contains("self.bag") && text.contains("self.loose")
        }
        holder.bag.dispose()
        holder.loose?.dispose()
        assertNoLiveBindings(in: holder)
    }

    @Test func releaseTrackerNamesSurvivors() {
        let tracker = ReleaseTracker()
        let survivor = Token()
        tracker.track(survivor, "survivor")
        withKnownIssue {
            tracker.assertAllReleased()
        } matching: { issue in
            String(describing: issue).contains("still alive: survivor")
        }
        withExtendedLifetime(survivor) {}
    }

    @Test(.tags(.regression)) func ownedPipesAreNotReportedAsLiveBindings() {
        final class Screen {
            let taps = Signal<Int>.pipe()
            let title = MutableProperty("x")
        }
        let screen = Screen()
        let observers = DisposeBag()
        screen.taps.output.observe { _ in }.dispose(in: observers)
        screen.title.observe { _ in }.dispose(in: observers)
        #expect(liveBindings(in: screen).isEmpty)
    }
}

/// The same helpers from XCTest.
final class SignalsTestingXCTests: XCTestCase {
    func testRecorderAssertionsWorkFromXCTest() {
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.filter { $0.isMultiple(of: 2) }.record(exhaustive: true)
        input.send(1)
        input.send(2)
        input.sendCompleted()
        recorder.assertValues([2])
        recorder.expect(2)
        recorder.expectCompleted()
        recorder.finish()
    }

    func testMarblesWorkFromXCTest() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.delay(.seconds(1), on: scheduler).record(on: scheduler)
        scheduler.drive(input, with: "a-b|", values: ["a": 1, "b": 2])
        scheduler.run()
        recorder.assertMarbles("-a-b|", values: ["a": 1, "b": 2])
    }
}
