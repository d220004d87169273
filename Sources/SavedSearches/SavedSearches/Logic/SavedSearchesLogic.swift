import Foundation
import Signals

/// The saved searches as live state: kept in sync with the stored rows, whichever part of
/// the app changes them (`SavedSearchesDataCenter.observeAll()`).
@MainActor
package final class SavedSearchesLogic {
    /// Every saved search, the last saved first, and the last storage problem: one value
    /// per change.
    package let state: Property<SavedSearchesState>
    private let current = MutableProperty(SavedSearchesState())
    private let store: SavedSearchesDataCenter
    private let clock: @Sendable () -> Date
    /// The stored searches, read now and after every change: kept, so it keeps observing.
    private let stored: Property<Result<[SavedSearch], any Error>>
    private let bag = DisposeBag()

    /// Logic over `store`; searches are stamped with `clock`'s time when saved.
    package init(store: SavedSearchesDataCenter, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.store = store
        self.clock = clock
        state = Property(current)
        stored = store.observeAll()
        // On the main actor the stored searches are read before `init` returns; a read
        // that failed keeps the searches last read and says why, until a read succeeds
        // (one change: the searches and no problem).
        stored.observeOnMainActor { [current] read in
            switch read {
            case .success(let searches):
                current.modify { state in
                    state.searches = searches
                    state.problem = nil
                }
            case .failure(let error): current.value.problem = "saved searches could not be read: \(error)"
            }
        }.dispose(in: bag)
    }

    // MARK: - Rules

    /// The longest name a search is saved under.
    package nonisolated static let longestName = 40

    /// What is wrong with `name` for a saved search, if anything.
    package nonisolated static func problem(name: String) -> String? {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return "a saved search's name needs a letter or a digit" }
        if trimmed.count > longestName { return "a saved search's name has at most \(longestName) characters" }
        let isControl = { (character: Character) in
            character.unicodeScalars.contains { $0.properties.generalCategory == .control }
        }
        if trimmed.contains(where: isControl) { return "a saved search's name is one line of text" }
        return nil
    }

    // MARK: - Intents

    /// Saves the search of `kind` with `filters`, under `name` if given (saving the same
    /// kind and filters again renames it and makes it the last saved); returns a problem
    /// to show, or nil.
    package func save(kind: String, filters: [String: String], name: String? = nil) -> String? {
        if let name, let problem = Self.problem(name: name) { return problem }
        let search = SavedSearch(
            kind: kind, filters: filters, name: name?.trimmingCharacters(in: .whitespaces), savedAt: clock())
        return perform { try store.save(search) }
    }

    /// Forgets `search`; returns a problem to show, or nil.
    package func remove(_ search: SavedSearch) -> String? {
        perform { try store.remove(search) }
    }

    private func perform(_ work: () throws -> Void) -> String? {
        do {
            try work()
            if current.value.problem != nil { current.value.problem = nil }
            return nil
        } catch {
            let message = "saved searches could not be saved: \(error)"
            current.value.problem = message
            return message
        }
    }
}
