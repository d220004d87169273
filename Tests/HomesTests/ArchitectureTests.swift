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

    @Test func businessModulesMeetOnlyThroughTheMediator() throws {
        let business: Set<String> = ["Listings", "Favorites", "Login", "Inquiry", "OperationLogs"]
        for module in business {
            for (name, text) in try files(in: module) {
                let others = imports(of: text).intersection(business.subtracting([module]))
                #expect(others.isEmpty, "\(module)/\(name) imports \(others)")
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

    /// In a business module every type has a file of its own, named after it, in the
    /// folder of its role.
    @Test func businessModulesKeepOneTypePerFileInTheFolderOfItsRole() throws {
        let roles: Set<String> = ["APIs", "Reformers", "Logic", "Models", "Records", "DataCenters", "Targets"]
        for module in ["Listings", "Favorites", "Login", "Inquiry", "OperationLogs"] {
            let files = try files(in: module)
            #expect(!files.isEmpty, "no sources found for \(module)")
            for (name, text) in files {
                let parts = name.split(separator: "/")
                #expect(parts.count == 2 && roles.contains(String(parts[0])), "\(module)/\(name) is not in a role's folder")
                let types = declaredTypes(in: text)
                let base = String((parts.last ?? "").dropLast(".swift".count))
                #expect(types == [base], "\(module)/\(name) declares \(types)")
            }
        }
    }

    @Test func controllersStayUnderTwoHundredLines() throws {
        for (name, text) in try files(in: "HomesScreens") where name.hasSuffix("Controller.swift") || name == "Session.swift" {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
            #expect(lines <= 200, "HomesScreens/\(name) has \(lines) lines")
        }
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
