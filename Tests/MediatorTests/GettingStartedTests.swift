// article: Mediator/GettingStarted
import Foundation
import Mediator
import Testing

final class ListingScreen {
    let id: Int
    init(id: Int) { self.id = id }
}

final class ListingsTarget: MediatorTarget {
    func registerActions(_ actions: TargetActions) {
        actions.on("detail", allowsRemoteCalls: true) { params in
            guard let id = params.int("id") else { throw MediatorError.badParameters("id must be a number") }
            return ListingScreen(id: id)
        }
    }
}

extension Mediator {
    func listingScreen(id: Int) -> ListingScreen? {
        perform(target: "listing", action: "detail", params: ["id": id]).value(as: ListingScreen.self)
    }
}
// article end

/// The code of `Mediator.docc/GettingStarted.md`, run.
@Suite struct MediatorGettingStartedTests {
    @Test func theArticlesExampleRunsAsItSays() throws {
        // article: Mediator/GettingStarted
        let mediator = Mediator(scheme: "homes")
        mediator.register(target: "listing") { ListingsTarget() }

        let screen = mediator.listingScreen(id: 7) // a native call
        let linked = mediator.open(url: "homes://listing/detail?id=8") // the same path, from a URL
        let missing = mediator.open(url: "homes://listing/fly") // .notFound: show a notice
        print(screen?.id ?? 0, linked.value(as: ListingScreen.self)?.id ?? 0) // 7 8
        print(missing.notFound?.description ?? "") // listing cannot fly.

        // A route patch from the server disables a call without a release.
        try mediator.apply(
            patch: Data(
                #"{"version": 1, "routes": [{"url": "homes://listing/detail", "disabled": true, "message": "Details are resting."}]}"#
                    .utf8))
        print(mediator.open(url: "homes://listing/detail?id=8").notFound?.description ?? "") // Details are resting.
        // article end
        #expect(screen?.id == 7)
        #expect(linked.value(as: ListingScreen.self)?.id == 8)
        #expect(missing.notFound?.description == "listing cannot fly.")
        #expect(mediator.open(url: "homes://listing/detail?id=8").notFound?.description == "Details are resting.")
    }
}
