import Foundation
import Listings
import ListingsCategory
import Mediator
import Networking

/// The listings' target: the actions that build their screens, each with its logic
/// (`homes://listing/list?kind=new&rooms=2`, `homes://listing/detail?kind=rent&id=3`).
/// Registered by `ListingsFeature`; reached through the listings' category.
@MainActor
package final class ListingTarget: @MainActor MediatorTarget {
    private let engine: APIEngine
    private unowned let mediator: Mediator
    private let now: @Sendable () -> Date

    /// A target whose screens load through `engine`, open other screens through
    /// `mediator`, and read the time from `now`.
    package init(engine: APIEngine, mediator: Mediator, now: @escaping @Sendable () -> Date) {
        self.engine = engine
        self.mediator = mediator
        self.now = now
    }

    package func registerActions(_ actions: TargetActions) {
        actions.on("list", allowsRemoteCalls: true) { [engine, unowned mediator, now] params in
            guard let kind = params.string("kind").flatMap(ListingKind.init(rawValue:)) else {
                throw MediatorError.badParameters("kind must be rent, new or resale")
            }
            var filters: [String: String] = [:]
            for name in params.names where name != "kind" {
                guard let value = params.string(name) else {
                    throw MediatorError.badParameters("\(name) needs a value")
                }
                filters[name] = value
            }
            let logic = ListingLogic(engine: engine)
            if let problem = logic.show(ListingQuery(kind: kind, filters: filters)) {
                throw MediatorError.badParameters(problem)
            }
            return ListingListController(logic: logic, mediator: mediator, now: now)
        }
        actions.on("detail", allowsRemoteCalls: true) { [engine, unowned mediator, now] params in
            guard let kind = params.string("kind").flatMap(ListingKind.init(rawValue:)) else {
                throw MediatorError.badParameters("kind must be rent, new or resale")
            }
            guard let id = params.int("id"), id > 0 else {
                throw MediatorError.badParameters("id must be a positive number")
            }
            return ListingDetailController(
                logic: ListingDetailLogic(kind: kind, id: id, engine: engine), mediator: mediator,
                now: now)
        }
    }
}
