import Foundation
import Signals
import SignalsTesting
import Testing

/// Up to `count` elements of `stream`, fewer if it ends or `timeout` passes first.
func firstValues<Element: Sendable>(
    of stream: AsyncStream<Element>,
    count: Int = .max,
    timeout: Duration
) async -> [Element] {
    await withTaskGroup(of: [Element]?.self) { group in
        group.addTask {
            var collected: [Element] = []
            guard count > 0 else { return collected }
            for await element in stream {
                collected.append(element)
                if collected.count >= count { break }
            }
            return collected
        }
        group.addTask {
            try? await Task.sleep(for: timeout)
            return nil
        }
        var result: [Element] = []
        for await finished in group {
            if let finished { result = finished }
            group.cancelAll()
        }
        return result
    }
}

/// The first element of `stream`, or nil if none arrives within `timeout`.
func firstValue<Element: Sendable>(of stream: AsyncStream<Element>, timeout: Duration) async -> Element? {
    await firstValues(of: stream, count: 1, timeout: timeout).first
}

/// A counter that can be bumped from any thread.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
    func increment() {
        lock.lock()
        count += 1
        lock.unlock()
    }
}

@Suite struct AsyncValuesTests {
    // MARK: Signal.values

    @Test func signalValuesYieldsBufferedValuesAndEndsOnCompletion() async {
        let (signal, input) = Signal<Int>.pipe()
        let stream = signal.values
        input.send(1)
        input.send(2)
        input.send(3)
        input.sendCompleted()
        var received: [Int] = []
        for await value in stream { received.append(value) }
        #expect(received == [1, 2, 3])
    }

    @Test func signalValuesStartsAtCreationOfTheSequence() async {
        let (signal, input) = Signal<Int>.pipe()
        input.send(0) // before `values`: not seen
        let stream = signal.values
        input.send(1)
        input.sendCompleted()
        let received = await firstValues(of: stream, timeout: .milliseconds(900))
        #expect(received == [1])
    }

    @Test func signalValuesOfCompletedSignalIsEmpty() async {
        let (signal, input) = Signal<Int>.pipe()
        input.sendCompleted()
        var count = 0
        for await _ in signal.values { count += 1 }
        #expect(count == 0)
    }

    @Test func signalValuesReceivesValuesSentFromAnotherThreadWhileIterating() async {
        let (signal, input) = Signal<Int>.pipe()
        let stream = signal.values
        let producer = Thread {
            for value in 1...100 { input.send(value) }
            input.sendCompleted()
        }
        producer.start()
        let received = await firstValues(of: stream, timeout: .milliseconds(900))
        #expect(received == Array(1...100))
    }

    @Test func signalValuesFreeingInputEndsIteration() async {
        var pipe: (output: Signal<String>, input: Signal<String>.Input)? = Signal<String>.pipe()
        let stream = pipe!.output.values
        pipe!.input.send("last")
        pipe = nil
        let received = await firstValues(of: stream, timeout: .milliseconds(900))
        #expect(received == ["last"])
    }

    @Test func endingTheIterationStopsTheObservation() async {
        let (signal, input) = Signal<Int>.pipe()
        let mapped = Counter()
        do {
            let stream = signal.map { value -> Int in
                mapped.increment()
                return value
            }.values
            input.send(1)
            for await value in stream {
                #expect(value == 1)
                break
            }
        }
        #expect(mapped.value == 1)
        input.send(2)
        input.send(3)
        // The stream's observation was disposed, so the intermediate `map` detached.
        #expect(mapped.value == 1)
    }

    @Test func twoSequencesOfOneSignalEachGetEveryValue() async {
        let (signal, input) = Signal<Int>.pipe()
        let first = signal.values
        let second = signal.values
        input.send(1)
        input.send(2)
        input.sendCompleted()
        let a = await firstValues(of: first, timeout: .milliseconds(900))
        let b = await firstValues(of: second, timeout: .milliseconds(900))
        #expect(a == [1, 2])
        #expect(b == [1, 2])
    }

    // MARK: Property.values

    @Test func propertyValuesStartsWithCurrentValue() async {
        let property = MutableProperty(10)
        let stream = property.values
        property.value = 11
        property.value = 12
        let received = await firstValues(of: stream, count: 3, timeout: .milliseconds(900))
        #expect(received == [10, 11, 12])
    }

    @Test func propertyValuesCurrentValueIsReadWhenSequenceIsCreated() async {
        let property = MutableProperty("a")
        property.value = "b"
        let stream = property.values
        property.value = "c"
        let received = await firstValues(of: stream, count: 2, timeout: .milliseconds(900))
        #expect(received == ["b", "c"])
    }

    @Test func propertyValuesEndsWhenMutablePropertyIsFreed() async {
        var property: MutableProperty<Int>? = MutableProperty(1)
        let stream = property!.values
        property!.value = 2
        property = nil
        var received: [Int] = []
        for await value in stream { received.append(value) }
        #expect(received == [1, 2])
    }

    @Test func constantPropertyValuesYieldsItsValueThenEnds() async {
        let constant = Property(value: 7)
        var received: [Int] = []
        for await value in constant.values { received.append(value) }
        #expect(received == [7])
    }

    @Test func derivedPropertyValues() async {
        let source = MutableProperty(1)
        let doubled = source.map { $0 * 2 }
        let stream = doubled.values
        source.value = 5
        let received = await firstValues(of: stream, count: 2, timeout: .milliseconds(900))
        #expect(received == [2, 10])
    }

    @Test func propertyValuesAcrossThreads() async {
        let property = MutableProperty(0)
        let stream = property.values
        let producer = Thread {
            for value in 1...50 { property.value = value }
        }
        producer.start()
        let received = await firstValues(of: stream, count: 51, timeout: .milliseconds(900))
        #expect(received == Array(0...50))
    }
}
