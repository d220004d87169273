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

    @Test func controllersStayUnderTwoHundredLines() throws {
        for (name, text) in try files(in: "HomesScreens") where name.hasSuffix("Controller.swift") || name == "Session.swift" {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
            #expect(lines <= 200, "HomesScreens/\(name) has \(lines) lines")
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
