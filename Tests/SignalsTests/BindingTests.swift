import Dispatch
import Foundation
import Signals
import SignalsTesting
import Testing

/// A stand-in for a text-mode view.
final class LabelView {
    var text = ""
    var updates = 0
}

/// A struct view model, as the architecture prescribes.
struct ProfileViewModel: Equatable {
    var title = ""
    var subtitle = ""
    var count = 0
}

@Suite struct BindingTests {
    @Test @MainActor func bindDeliversTheCurrentValueFirstThenChanges() async {
        let title = MutableProperty("Homes")
        let label = LabelView()
        let binding = title.bind(to: label) { label, text in label.text = text }
        #expect(label.text == "Homes")
        title.value = "Rentals"
        #expect(label.text == "Rentals")
        binding.dispose()
        title.value = "Resale"
        #expect(label.text == "Rentals")
    }

    @Test @MainActor func bindHoldsItsTargetWeakly() async {
        let title = MutableProperty("a")
        let tracker = ReleaseTracker()
        var binding: Disposable?
        do {
            let label = LabelView()
            tracker.track(label, "label")
            binding = title.bind(to: label) { label, text in label.text = text }
        }
        tracker.assertAllReleased()
        title.value = "b"
        #expect(binding?.isDisposed == true)
    }

    @Test @MainActor func signalBindDeliversLaterValuesToTheTarget() async {
        let (signal, input) = Signal<String>.pipe()
        let label = LabelView()
        signal.bind(to: label) { label, text in label.text = text }
        input.send("x")
        #expect(label.text == "x")
    }

    @Test @MainActor func keyPathBindingSkipsRepeatsPerField() async {
        let viewModel = MutableProperty(ProfileViewModel(title: "A", subtitle: "s", count: 0))
        let title = LabelView()
        let subtitle = LabelView()
        let bag = DisposeBag()
        viewModel.bind(\.title, to: title) { view, text in
            view.text = text
            view.updates += 1
        }.dispose(in: bag)
        viewModel.bind(\.subtitle, to: subtitle) { view, text in
            view.text = text
            view.updates += 1
        }.dispose(in: bag)
        viewModel.value.count = 1
        viewModel.value.subtitle = "t"
        viewModel.value.title = "B"
        #expect(title.text == "B")
        #expect(title.updates == 2)
        #expect(subtitle.text == "t")
        #expect(subtitle.updates == 2)
    }

    @Test func bindingOperatorFromASignal() {
        let property = MutableProperty(0)
        let (signal, input) = Signal<Int>.pipe()
        let binding = property <~ signal
        input.send(3)
        #expect(property.value == 3)
        binding.dispose()
        input.send(4)
        #expect(property.value == 3)
    }

    @Test func bindingOperatorFromAPropertyTakesTheCurrentValue() {
        let target = MutableProperty(0)
        let source = MutableProperty(9)
        target <~ source
        #expect(target.value == 9)
        source.value = 10
        #expect(target.value == 10)
    }

    @Test func bindingOperatorStopsWhenTheTargetIsFreed() {
        let (signal, input) = Signal<Int>.pipe()
        let tracker = ReleaseTracker()
        var binding: Disposable?
        do {
            let target = MutableProperty(0)
            tracker.track(target, "target")
            binding = target <~ signal
        }
        tracker.assertAllReleased()
        input.send(1)
        #expect(binding?.isDisposed == true)
    }

    @Test func twoWayBindingSyncsBothWaysWithoutLooping() {
        let left = MutableProperty("l")
        let right = MutableProperty("r")
        let leftLog = left.signal.record()
        let rightLog = right.signal.record()
        let binding = left <~> right
        #expect(left.value == "r")
        left.value = "from left"
        #expect(right.value == "from left")
        right.value = "from right"
        #expect(left.value == "from right")
        leftLog.assertValues(["r", "from left", "from right"])
        rightLog.assertValues(["from left", "from right"])
        binding.dispose()
        left.value = "alone"
        #expect(right.value == "from right")
    }

    @Test func twoWayBindingSetFromInsideAnObserverDoesNotLoop() {
        let left = MutableProperty(0)
        let right = MutableProperty(0)
        left <~> right
        let corrected = Locked(false)
        left.signal.observe { value in
            if value == 5, !corrected.testAndSet() {
                left.value = 6
            }
        }
        let rightLog = right.signal.record()
        right.value = 5
        #expect(left.value == 6)
        #expect(right.value == 6)
        rightLog.assertValues([5, 6])
    }

    @Test @MainActor func controllerStyleOwnerReleasesEverythingItBound() async {
        @MainActor final class Screen {
            let bag = DisposeBag()
            let label = LabelView()
            init(title: Property<String>) {
                title.bind(to: label) { label, text in label.text = text }.dispose(in: bag)
            }
        }
        let title = MutableProperty("x")
        let tracker = ReleaseTracker()
        do {
            let screen = Screen(title: Property(title))
            title.value = "y"
            #expect(screen.label.text == "y")
            #expect(liveBindings(in: screen).count == 1)
            screen.bag.dispose()
            assertNoLiveBindings(in: screen)
            tracker.track(screen, "screen")
            tracker.track(screen.label, "label")
        }
        tracker.assertAllReleased()
    }

    @Test(.tags(.regression)) func concurrentSetsOfBothSidesOfATwoWayBindingSettleEqual() {
        let left = MutableProperty(0)
        let right = MutableProperty(0)
        let binding = left <~> right
        for round in 0..<300 {
            DispatchQueue.concurrentPerform(iterations: 2) { side in
                if side == 0 { left.value = round * 2 } else { right.value = round * 2 + 1 }
            }
            #expect(left.value == right.value, "round \(round): \(left.value) vs \(right.value)")
            if left.value != right.value { break }
        }
        binding.dispose()
    }
}
