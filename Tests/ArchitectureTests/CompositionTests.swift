import Foundation
import Testing

/// The composition root's rules: a feature is one value, `<Feature>Feature`, and the app
/// lists those values and names nothing else of any feature.
extension ArchitectureTests {
    static let app = sources.appendingPathComponent("App")

    /// `text` without its comments and string literals: the code alone.
    func code(of text: String) -> String {
        var code = text.replacing(/"""[\s\S]*?"""/, with: "\"\"")
        code = code.replacing(/"(?:\\.|[^"\\\n])*"/, with: "\"\"")
        return code.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.firstRange(of: "//").map { String(line[..<$0.lowerBound]) } ?? String(line)
        }.joined(separator: "\n")
    }

    /// The entries of the composition list of `main.swift`, `static let features: [any
    /// Feature] = [ ... ]`, and the file with that list taken out.
    func compositionList(in main: String) throws -> (entries: [String], rest: String) {
        let start = try #require(
            main.range(of: "static let features: [any Feature] = ["), "main.swift lists no features")
        let end = try #require(main[start.upperBound...].firstIndex(of: "]"))
        let list = main[start.upperBound..<end]
        let entries = list.split(whereSeparator: { $0 == "," || $0.isWhitespace }).map(String.init)
        return (entries, String(main[..<start.lowerBound]) + String(main[main.index(after: end)...]))
    }

    /// What names a feature: its modules, the types its files declare, what its category
    /// declares for others (`accountTarget`, `loginForm`), and its name's stem (`Listing` for
    /// `Listings`) in any identifier, whatever its case.
    func names(of feature: String) throws -> (modules: Set<String>, types: Set<String>, stem: String) {
        let files = try files(in: feature)
        let member = try Regex(#"package (?:static let|func) (\w+)"#)
        let category = files.filter { $0.name.contains("Mediator+") }.flatMap { file in
            file.text.matches(of: member).compactMap { $0.output[1].substring.map(String.init) }
        }
        let types = files.flatMap { declaredTypes(in: $0.text) } + category
        let stem = feature.hasSuffix("s") ? String(feature.dropLast()) : feature
        return (Set(Self.modules(of: feature)), Set(types), stem.lowercased())
    }

    /// `main.swift` lists each feature once, as its value (`ListingsFeature()`), one line
    /// each, and imports the module of that value once; beyond the list and those imports
    /// no line of the app names a feature: no module, no type, no identifier with a
    /// feature's stem in it.
    @Test func theAppNamesNoFeatureBeyondTheCompositionList() throws {
        let main = try String(contentsOf: Self.app.appendingPathComponent("main.swift"), encoding: .utf8)
        let (entries, rest) = try compositionList(in: main)
        #expect(entries.count == Self.features.count, "main.swift lists \(entries), the features are \(Self.features)")
        var faceModules: Set<String> = []
        for feature in Self.features {
            #expect(entries.filter { $0 == "\(feature)Feature()" }.count == 1, "main.swift lists \(feature) \(entries)")
            #expect(main.contains("\n        \(feature)Feature(),\n"), "\(feature) is not on a line of its own")
            let face = try files(in: feature).first {
                Self.isAtTheRoot($0.name, of: feature) && $0.name.hasSuffix("\(feature)Feature.swift")
            }
            let module = try #require(face?.name.split(separator: "/").first.map(String.init), "\(feature) has no face")
            faceModules.insert(module)
        }
        let imports = rest.split(separator: "\n").filter { $0.hasPrefix("import ") }.map { String($0.dropFirst(7)) }
        let named = try Self.features.map(names(of:))
        let featureImports = imports.filter { module in named.contains { $0.modules.contains(module) } }
        #expect(Set(featureImports) == faceModules && featureImports.count == faceModules.count, "\(featureImports)")

        let others = try FileManager.default.contentsOfDirectory(atPath: Self.app.path).filter { $0 != "main.swift" }
        let texts =
            try [("main.swift", rest)]
            + others.map { ($0, try String(contentsOf: Self.app.appendingPathComponent($0), encoding: .utf8)) }
        for (file, text) in texts {
            let lines = code(of: text).split(separator: "\n").filter { !$0.hasPrefix("import ") }
            for identifier in lines.flatMap({ $0.matches(of: /[A-Za-z_][A-Za-z0-9_]*/).map { String($0.output) } }) {
                for (feature, names) in zip(Self.features, named) {
                    let says =
                        names.modules.contains(identifier) || names.types.contains(identifier)
                        || identifier.lowercased().contains(names.stem)
                    #expect(!says, "App/\(file) names \(feature): \(identifier)")
                }
            }
        }
    }

    /// Every feature has one face, `<Feature>Feature`, a struct conforming to `Feature`, in
    /// the module that registers its targets.
    @Test func everyFeatureIsOneValue() throws {
        for feature in Self.features {
            let faces = try files(in: feature).filter { $0.name.hasSuffix("/\(feature)Feature.swift") }
            #expect(faces.count == 1, "\(feature) has \(faces.count) faces")
            for (name, text) in faces {
                #expect(Self.isAtTheRoot(name, of: feature), "\(feature)/\(name) is not at its module's root")
                #expect(text.contains("package struct \(feature)Feature: Feature {"), "\(feature)/\(name)")
            }
        }
    }

    /// The shell holds no flag table: the flags a command takes are declared with it
    /// (`CommandHelp(..., flags:)`), by the screen or the feature that answers it.
    @Test func theShellHoldsNoFlagTable() throws {
        let table = try Regex(#"(let|var)\s+\w*[Ff]lags\w*\s*(:[^=\n]*)?=\s*\["#)
        #expect("static let flags = [\"ask\": [\"--photo\"]]".contains(table))
        for (name, text) in try files(in: "HomesScreens") {
            #expect(!code(of: text).contains(table), "HomesScreens/\(name) keeps a flag table")
        }
    }

    /// Entries of `Package.swift` (`.target(`, `.testTarget(`, ...), each as its text.
    func entries(of manifest: String) -> [String] {
        manifest.components(separatedBy: "\n        .").dropFirst().map { String($0) }
    }

    /// The saved searches were added as Docs/Architecture.md's "Adding a screen" says, and
    /// stay so: one folder of sources (their business code, screen, view model beside its
    /// builder, commands, category and value), two entries in `Package.swift` (the module
    /// and its tests) and their module in the app's dependencies, and one line in the
    /// composition list with its import. Nothing else in `Sources` names them; in `Tests`,
    /// only their own target and the app's (the features together) import them or open
    /// their link.
    @Test func theSavedSearchesFeatureIsOneFolder() throws {
        let feature = "SavedSearches"
        #expect(Self.modules(of: feature) == [feature], "saved searches are one module")
        let names = Set(try files(in: feature).map(\.name))
        for expected in [
            "SavedSearches/SavedSearchesFeature.swift", "SavedSearches/Mediator+SavedSearches.swift",
            "SavedSearches/ViewModels/SavedSearchesViewModel.swift",
            "SavedSearches/ViewModels/SavedSearchesViewModel+SavedSearches.swift",
        ] {
            #expect(names.contains(expected), "Sources/SavedSearches/\(expected) is missing")
        }

        let root = Self.sources.deletingLastPathComponent()
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let naming = entries(of: manifest).filter { $0.contains("\"\(feature)") }
        let own = naming.filter { $0.contains("name: \"\(feature)\"") || $0.contains("name: \"\(feature)Tests\"") }
        #expect(own.count == 2, "Package.swift has \(own.count) entries of saved searches")
        #expect(naming.count == 3 && naming.contains { $0.hasPrefix("executableTarget(\n            name: \"App\"") })

        let modules = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path)
        for module in modules where module != feature {
            for (name, text) in try files(in: module) where code(of: text).contains(feature) {
                let lines = text.split(separator: "\n").filter { $0.contains(feature) }.map {
                    $0.trimmingCharacters(in: .whitespaces)
                }
                #expect(
                    "\(module)/\(name)" == "App/main.swift" && lines == ["import \(feature)", "\(feature)Feature(),"],
                    "\(module)/\(name) names saved searches: \(lines)")
            }
        }
        let tests = root.appendingPathComponent("Tests")
        let testFiles = FileManager.default.enumerator(atPath: tests.path)?.compactMap { $0 as? String } ?? []
        for name in testFiles where name.hasSuffix(".swift") && !name.hasPrefix("ArchitectureTests/") {
            let text = try String(contentsOf: tests.appendingPathComponent(name), encoding: .utf8)
            if imports(of: text).contains(feature) || text.contains("homes://saved-searches") {
                #expect(
                    name.hasPrefix("SavedSearchesTests/") || name.hasPrefix("AppTests/"), "Tests/\(name) names them")
            }
        }
    }

    /// A view model beside its builder, in a feature's `ViewModels/` folder, is what one in
    /// `ViewModels` is: a struct of typed fields that imports nothing but Foundation.
    @Test func aViewModelBesideItsBuilderIsAPlainStruct() throws {
        var checked = 0
        for feature in Self.features {
            for (name, text) in try files(in: feature)
            where name.contains("/ViewModels/") && name.hasSuffix("ViewModel.swift") {
                #expect(
                    imports(of: text).isSubset(of: ["Foundation"]), "\(feature)/\(name) imports \(imports(of: text))")
                #expect(text.contains("package struct") && !text.contains("class "), "\(feature)/\(name)")
                #expect(!text.contains("[[String]]"), "\(feature)/\(name) has rows of positional strings")
                checked += 1
            }
        }
        #expect(checked >= 1)
    }
}
