import Signals
import SignalsTesting
import Testing

@Suite struct WithLatestTests {
    // MARK: from a Signal

    @Test func pairsEachValueWithLatestSampledValue() {
        let (source, send) = Signal<Int>.pipe()
        let (sampled, sample) = Signal<String>.pipe()
        let recorder = source.withLatest(from: sampled).record()
        sample.send("a")
        send.send(1)
        send.send(2)
        sample.send("b")
        sample.send("c")
        send.send(3)
        recorder.assertValues([(1, "a"), (2, "a"), (3, "c")], by: ==)
    }

    @Test func valuesBeforeSampledSentAnythingAreDropped() {
        let (source, send) = Signal<Int>.pipe()
        let (sampled, sample) = Signal<String>.pipe()
        let recorder = source.withLatest(from: sampled).record()
        send.send(1)
        send.send(2)
        #expect(recorder.values.isEmpty)
        sample.send("x")
        #expect(recorder.values.isEmpty, "the sampled signal alone never emits")
        send.send(3)
        recorder.assertValues([(3, "x")], by: ==)
    }

    @Test func completesWithSourceNotWithSampled() {
        let (source, send) = Signal<Int>.pipe()
        let (sampled, sample) = Signal<String>.pipe()
        let recorder = source.withLatest(from: sampled).record()
        sample.send("x")
        sample.sendCompleted()
        #expect(!recorder.isCompleted)
        // The latest value survives the sampled signal's completion.
        send.send(1)
        recorder.assertValues([(1, "x")], by: ==)
        send.sendCompleted()
        #expect(recorder.isCompleted)
        send.send(2)
        #expect(recorder.values.count == 1)
    }

    @Test func sampledCompletedWithoutValueDropsEverything() {
        let (source, send) = Signal<Int>.pipe()
        let (sampled, sample) = Signal<String>.pipe()
        sample.sendCompleted()
        let recorder = source.withLatest(from: sampled).record()
        send.send(1)
        send.sendCompleted()
        #expect(recorder.values.isEmpty)
        #expect(recorder.isCompleted)
    }

    @Test func sampledSignalWithPrefixProvidesLatestAtOnce() {
        let (source, send) = Signal<Int>.pipe()
        let (sampled, sample) = Signal<String>.pipe()
        // `withLatest` starts observing the sampled signal when it is created, so it gets
        // the prefix value then.
        let recorder = source.withLatest(from: sampled.prefix(value: "initial")).record()
        send.send(1)
        sample.send("next")
        send.send(2)
        recorder.assertValues([(1, "initial"), (2, "next")], by: ==)
    }

    @Test func eachSourceValueIsPairedOnceForEveryObserver() {
        let (source, send) = Signal<Int>.pipe()
        let (sampled, sample) = Signal<String>.pipe()
        let paired = source.withLatest(from: sampled)
        let first = paired.record()
        let second = paired.record()
        sample.send("s")
        send.send(1)
        first.assertValues([(1, "s")], by: ==)
        second.assertValues([(1, "s")], by: ==)
    }

    // MARK: from a Property

    @Test func pairsWithCurrentValueOfProperty() {
        let (source, send) = Signal<Int>.pipe()
        let constant = Property(value: "fixed")
        let recorder = source.withLatest(from: constant).record()
        send.send(1)
        send.send(2)
        recorder.assertValues([(1, "fixed"), (2, "fixed")], by: ==)
    }

    @Test func pairsWithCurrentValueOfMutableProperty() {
        let (source, send) = Signal<Int>.pipe()
        let property = MutableProperty("a")
        let recorder = source.withLatest(from: property).record()
        // A property always has a value: nothing is dropped.
        send.send(1)
        property.value = "b"
        property.value = "c"
        #expect(recorder.values.count == 1, "changes of the property alone never emit")
        send.send(2)
        recorder.assertValues([(1, "a"), (2, "c")], by: ==)
    }

    @Test func pairsWithReadOnlyViewOfMutableProperty() {
        let (source, send) = Signal<Int>.pipe()
        let property = MutableProperty(0)
        let readOnly = Property(property).map { $0 * 100 }
        let recorder = source.withLatest(from: readOnly).record()
        send.send(1)
        property.value = 2
        send.send(2)
        recorder.assertValues([(1, 0), (2, 200)], by: ==)
    }

    @Test func withLatestFromPropertyCompletesWithSource() {
        let (source, send) = Signal<Int>.pipe()
        let property = MutableProperty(0)
        let recorder = source.withLatest(from: property).record()
        send.send(1)
        send.sendCompleted()
        property.value = 5
        send.send(2)
        recorder.assertValues([(1, 0)], by: ==)
        #expect(recorder.isCompleted)
    }
}
