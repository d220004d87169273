import Foundation
import Mediator
import Testing

// The README's mediator example.

private final class ReadmeDetailScreen {
    let id: Int
    init(id: Int) { self.id = id }
}

private final class ReadmeListingTarget: MediatorTarget {
    func registerActions(_ actions: TargetActions) {
        actions.on("detail", allowsRemoteCalls: true) { params in
            guard let id = params.int("id") else { throw MediatorError.badParameters("id must be a number") }
            return ReadmeDetailScreen(id: id)
        }
    }
}

extension Mediator {
    fileprivate func readmeListingDetail(id: Int) -> ReadmeDetailScreen? {
        perform(target: "listing", action: "detail", params: ["id": id]).value(as: ReadmeDetailScreen.self)
    }
}

@Suite struct MediatorReadmeExampleTests {
    @Test func mediatorInOneExample() throws {
        let mediator = Mediator(scheme: "homes")
        mediator.register(target: "listing") { ReadmeListingTarget() }
        let screen = mediator.readmeListingDetail(id: 7)
        let linked = mediator.open(url: "homes://listing/detail?id=8")
        let missing = mediator.open(url: "homes://listing/fly")
        #expect(screen?.id == 7)
        #expect(linked.value(as: ReadmeDetailScreen.self)?.id == 8)
        #expect(missing.notFound?.description == "listing cannot fly.")
        try mediator.apply(
            patch: Data(
                #"{"version": 1, "routes": [{"url": "homes://listing/detail", "disabled": true, "message": "Details are resting."}]}"#
                    .utf8))
        #expect(mediator.open(url: "homes://listing/detail?id=8").notFound?.description == "Details are resting.")
    }
}
