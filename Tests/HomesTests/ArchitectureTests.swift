import Foundation
import Testing

/// The architecture's rules, checked on the sources themselves.
@Suite struct ArchitectureTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources")

    func files(in module: String) throws -> [(name: String, text: String)] {
        let folder = Self.sources.appendingPathComponent(module)
        guard let enumerator = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        let names = enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        return try names.sorted().map { ($0, try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8)) }
    }

    func imports(of text: String) -> Set<String> {
        Set(text.split(separator: "\n").compactMap { line in
            line.hasPrefix("import ") ? String(line.dropFirst("import ".count)).trimmingCharacters(in: .whitespaces) : nil
        })
    }

    @Test func viewsImportNoViewModelLogicOrNetwork() throws {
        for (name, text) in try files(in: "TextViews") {
            #expect(imports(of: text).isSubset(of: ["Foundation", "Glibc"]), "TextViews/\(name) imports \(imports(of: text))")
        }
    }

    /// The features: each folder holds the feature's business module, and its screens
    /// and category modules where it has them.
    static let features = ["Listings", "Favorites", "Login", "Inquiry", "OperationLogs"]

    /// A feature reaches another only through that one's category, never its business
    /// code or its screens.
    @Test func featuresMeetOnlyThroughTheMediatorsCategories() throws {
        for feature in Self.features {
            let others = Set(Self.features.filter { $0 != feature }.flatMap { [$0, $0 + "Screens"] })
            for (name, text) in try files(in: feature) {
                let reached = imports(of: text).intersection(others)
                #expect(reached.isEmpty, "\(feature)/\(name) imports \(reached)")
            }
        }
    }

    /// A category is the thin, typed face of its feature's target: it knows the mediator,
    /// the screen shell and signals, nothing of any feature's code.
    @Test func categoriesImportNoFeatureCode() throws {
        for feature in Self.features {
            for (name, text) in try files(in: feature) where name.hasPrefix("Category/") {
                let imported = imports(of: text)
                #expect(imported.isSubset(of: ["Foundation", "Mediator", "HomesScreens", "Signals"]),
                        "\(feature)/\(name) imports \(imported)")
            }
        }
    }

    /// Targets are registered by the composition root alone, and no screen is downcast
    /// to reach what it can do: callers go through the typed categories.
    @Test func onlyTheCompositionRootRegistersTargetsAndNothingDowncastsAController() throws {
        let modules = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path)
        for module in modules {
            for (name, text) in try files(in: module) {
                if module != "App" && module != "Mediator" {
                    #expect(!text.contains(".register(target:"), "\(module)/\(name) registers a target")
                }
                for cast in ["as? ", "as! "] {
                    for part in text.components(separatedBy: cast).dropFirst() {
                        let type = part.prefix { $0.isLetter || $0.isNumber }
                        #expect(!type.hasSuffix("Controller"), "\(module)/\(name) casts to \(type)")
                    }
                }
            }
        }
    }

    /// The types a file declares at its top level (not its extensions).
    func declaredTypes(in text: String) -> [String] {
        let kinds: Set<Substring> = ["struct", "class", "enum", "actor", "protocol"]
        return text.split(separator: "\n").compactMap { line in
            guard let first = line.first, first != " ", first != "/" else { return nil }
            let words = line.split(separator: " ")
            guard let index = words.firstIndex(where: { kinds.contains($0) }), index + 1 < words.count,
                  words[..<index].allSatisfy({ $0.hasPrefix("@") || ["public", "final", "private", "fileprivate", "internal", "open", "nonisolated"].contains($0) })
            else { return nil }
            return String(words[index + 1].prefix { $0.isLetter || $0.isNumber || $0 == "_" })
        }
    }

    /// In a feature every type has a file of its own, named after it, in the folder of
    /// its role; a file that only extends a type is named `Type+Topic.swift`.
    @Test func featuresKeepOneTypePerFileInTheFolderOfItsRole() throws {
        let roles: Set<String> = ["APIs", "Reformers", "Logic", "Models", "Records", "DataCenters", "Screens", "Targets",
                                  "Category"]
        for feature in Self.features {
            let files = try files(in: feature)
            #expect(!files.isEmpty, "no sources found for \(feature)")
            for (name, text) in files {
                let parts = name.split(separator: "/")
                #expect(parts.count == 2 && roles.contains(String(parts[0])), "\(feature)/\(name) is not in a role's folder")
                let types = declaredTypes(in: text)
                let base = String((parts.last ?? "").dropLast(".swift".count))
                if let plus = base.firstIndex(of: "+") {
                    #expect(types.isEmpty && text.contains("extension \(base[..<plus]) {"),
                            "\(feature)/\(name) should only extend \(base[..<plus]) but declares \(types)")
                } else {
                    #expect(types == [base], "\(feature)/\(name) declares \(types)")
                }
            }
        }
    }

    /// Each feature with a target has a category beside it, and the other way round.
    @Test func everyTargetHasItsCategoryBesideIt() throws {
        for feature in Self.features {
            let names = try files(in: feature).map(\.name)
            let hasTarget = names.contains { $0.hasPrefix("Targets/") }
            let hasCategory = names.contains { $0.hasPrefix("Category/Mediator+") }
            #expect(hasTarget == hasCategory, "\(feature): a target \(hasTarget), a category \(hasCategory)")
        }
    }

    @Test func controllersStayUnderTwoHundredLines() throws {
        var checked = 0
        for module in Self.features + ["HomesScreens"] {
            for (name, text) in try files(in: module) where name.hasSuffix("Controller.swift") || name == "Session.swift" {
                let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
                #expect(lines <= 200, "\(module)/\(name) has \(lines) lines")
                checked += 1
            }
        }
        #expect(checked >= 7)
    }

    /// View models say what each value is: no rows of strings whose meaning is their place.
    @Test func viewModelsHaveNoPositionalRows() throws {
        for (name, text) in try files(in: "ViewModels") {
            #expect(!text.contains("[[String]]"), "ViewModels/\(name) has rows of positional strings")
        }
    }

    @Test func viewModelsAreStructs() throws {
        for (name, text) in try files(in: "ViewModels") where name.hasSuffix("ViewModel.swift") {
            #expect(text.contains("public struct") && !text.contains("class "), "ViewModels/\(name)")
        }
    }

    /// The app's isolation is the compiler's to check: no module of the demo silences it.
    @Test func theAppNeverSilencesIsolationChecks() throws {
        let app = ["HomesAPI", "Listings", "Favorites", "Login", "Inquiry", "OperationLogs", "ViewModels", "TextViews",
                   "HomesScreens", "App"]
        for module in app {
            for (name, text) in try files(in: module) {
                #expect(!text.contains("@unchecked Sendable"), "\(module)/\(name) declares @unchecked Sendable")
                #expect(!text.contains("assumeIsolated"), "\(module)/\(name) assumes an isolation")
            }
        }
    }

    /// Work is waited for by observing it, never by sleeping and looking again.
    @Test func nothingOutsideTheBenchmarksSleeps() throws {
        let modules = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path)
            .filter { !$0.hasSuffix("Benchmark") }
        for module in modules {
            for (name, text) in try files(in: module) {
                for call in ["Thread.sleep", "usleep(", "Task.sleep"] {
                    #expect(!text.contains(call), "\(module)/\(name) calls \(call)")
                }
            }
        }
    }

    @Test func noCatchAllFolders() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path)
        for folder in folders {
            #expect(!["common", "core", "utils", "util", "helpers", "helper", "misc"].contains(folder.lowercased()))
        }
    }
}
