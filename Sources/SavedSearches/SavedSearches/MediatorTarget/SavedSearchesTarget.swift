import Foundation
import HomesScreens
import Mediator

/// The saved searches' target: their screen (`homes://saved-searches/list`) and saving
/// one, both with the one `SavedSearchesLogic` it builds. Registered by
/// `SavedSearchesFeature`; reached through the saved searches' category.
@MainActor
package final class SavedSearchesTarget: @MainActor MediatorTarget {
    private let logic: SavedSearchesLogic
    private unowned let mediator: Mediator
    private let now: @Sendable () -> Date

    /// A target answering with a logic over `store`; its screen runs searches through
    /// `mediator` and reads the time from `now`.
    package init(store: SavedSearchesDataCenter, mediator: Mediator, now: @escaping @Sendable () -> Date) {
        logic = SavedSearchesLogic(store: store)
        self.mediator = mediator
        self.now = now
    }

    package func registerActions(_ actions: TargetActions) {
        actions.on("list", allowsRemoteCalls: true) { [logic, unowned mediator, now] _ in
            SavedSearchesController(logic: logic, mediator: mediator, now: now)
        }
        // Saved from a command only: a link never writes.
        actions.on("save") { [logic] params in
            guard let kind = params.string("kind"), let filters = params.value("filters", as: [String: String].self)
            else {
                throw MediatorError.badParameters("save needs a kind and filters")
            }
            let name = params.string("name")
            if let problem = logic.save(kind: kind, filters: filters, name: name) {
                return CommandOutcome.error(problem)
            }
            let named = name.map { " as \"\($0.trimmingCharacters(in: .whitespaces))\"" } ?? ""
            return CommandOutcome.note("search saved\(named); saved lists the saved searches")
        }
    }
}
