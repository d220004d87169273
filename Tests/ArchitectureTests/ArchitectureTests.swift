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
        return try names.sorted().map {
            ($0, try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8))
        }
    }

    /// The modules a file imports, however the import is spelled (`@preconcurrency
    /// import X`, `public import X`, `import struct X.Y`).
    func imports(of text: String) -> Set<String> {
        let modifiers: Set<Substring> = ["public", "package", "internal", "fileprivate", "private"]
        let kinds: Set<Substring> = ["struct", "class", "enum", "protocol", "typealias", "func", "var", "let"]
        return Set(
            text.split(separator: "\n").compactMap { line in
                var words = line.split(separator: " ")[...]
                while let first = words.first, first.hasPrefix("@") || modifiers.contains(first) {
                    words = words.dropFirst()
                }
                guard words.first == "import" else { return nil }
                words = words.dropFirst()
                if let kind = words.first, kinds.contains(kind) { words = words.dropFirst() }
                return words.first.map { String($0.prefix { $0 != "." }) }
            })
    }

    @Test func importsAreFoundHoweverTheyAreSpelled() {
        let text =
            "import A\n@preconcurrency import B\npublic import C\nimport struct D.Thing\n// import E\nlet important = 1"
        #expect(imports(of: text) == ["A", "B", "C", "D"])
    }

    @Test func viewsImportNoViewModelLogicOrNetwork() throws {
        for (name, text) in try files(in: "TextViews") {
            #expect(
                imports(of: text).isSubset(of: ["Foundation", "Glibc"]),
                "TextViews/\(name) imports \(imports(of: text))")
        }
    }

    /// The folders of a feature's roles, in its business and screens modules (a category
    /// module is one role, so it has no folders).
    static let roles: Set<String> = [
        "APIs", "Reformers", "Logic", "Models", "Records", "DataCenters", "Controllers", "ViewModels",
        "MediatorTarget", "Commands",
    ]
    /// The roles of its business module, below the screens.
    static let businessRoles: Set<String> = ["APIs", "Reformers", "Logic", "Models", "Records", "DataCenters"]

    /// The features: every folder of `Sources` that holds a module folder of its own name
    /// (`Sources/Listings/Listings/`), the business module, beside the feature's screens
    /// and category modules where it has them (`ListingsScreens/`, `ListingsCategory/`).
    static let features: [String] = {
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: sources.path)) ?? []
        return folders.sorted().filter { folder in
            let inside =
                (try? FileManager.default.contentsOfDirectory(atPath: sources.appendingPathComponent(folder).path))
                ?? []
            return inside.contains(folder)
        }
    }()

    /// The modules of `feature`: the folders in its folder.
    static func modules(of feature: String) -> [String] {
        let folder = sources.appendingPathComponent(feature).path
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    /// Whether `feature` is one module (no screens or category module beside its own):
    /// its roles are its folders, business and screens alike.
    static func isOneModule(_ feature: String) -> Bool {
        modules(of: feature) == [feature]
    }

    /// Whether `name`, a file of `feature`'s folder, is at the root of one of its modules
    /// as what the feature may keep there: its face, `<Feature>Feature.swift` (in the
    /// module that registers its targets), and, in a one-module feature, its category,
    /// `Mediator+<Feature>.swift`.
    static func isAtTheRoot(_ name: String, of feature: String) -> Bool {
        let parts = name.split(separator: "/").map(String.init)
        guard parts.count == 2, parts[0] == feature || parts[0] == feature + "Screens" else { return false }
        return parts[1] == "\(feature)Feature.swift"
            || (isOneModule(feature) && parts[1] == "Mediator+\(feature).swift")
    }

    @Test func theFeaturesAreFoundByTheirFolders() {
        #expect(Set(Self.features).isSuperset(of: ["Listings", "Favorites", "Login", "Inquiry", "OperationLogs"]))
        #expect(!Self.features.contains("Signals") && !Self.features.contains("HomesScreens"))
    }

    /// A feature's folder holds its modules and nothing else: its business module, and its
    /// screens and category modules where it has them, each one folder that `Package.swift`
    /// names with `path:` alone, so a file's folder says its module.
    @Test func aFeatureFolderHoldsOnlyItsModules() throws {
        let manifest = try String(
            contentsOf: Self.sources.deletingLastPathComponent().appendingPathComponent("Package.swift"),
            encoding: .utf8)
        let modules = manifest.components(separatedBy: "// MARK: Tools")[0]
        #expect(!modules.contains("exclude:") && !modules.contains("sources:"), "Package.swift lists files")
        for feature in Self.features {
            for module in Self.modules(of: feature) {
                #expect(
                    [feature, feature + "Screens", feature + "Category"].contains(module),
                    "Sources/\(feature)/\(module) is not one of the feature's modules")
                #expect(
                    manifest.contains("name: \"\(module)\"")
                        && manifest.contains("path: \"Sources/\(feature)/\(module)\""),
                    "Package.swift does not declare \(module) at Sources/\(feature)/\(module)")
            }
        }
    }

    /// View models are plain structs below every feature: the module imports no feature,
    /// and each screens module builds its view models from its own feature's state.
    @Test func viewModelsKnowNoFeature() throws {
        for (name, text) in try files(in: "ViewModels") {
            #expect(imports(of: text).isSubset(of: ["Foundation"]), "ViewModels/\(name) imports \(imports(of: text))")
        }
    }

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
    /// the screen shell, signals and other categories, nothing of any feature's code.
    @Test func categoriesImportNoFeatureCode() throws {
        for feature in Self.features {
            for (name, text) in try files(in: feature) where name.hasPrefix(feature + "Category/") {
                let imported = imports(of: text).filter { !$0.hasSuffix("Category") }
                #expect(
                    imported.isSubset(of: ["Foundation", "Mediator", "HomesScreens", "Signals"]),
                    "\(feature)/\(name) imports \(imported)")
            }
        }
    }

    /// A feature's business code knows no screen, view, view model or terminal: in its
    /// business module, every file in a role's folder; in a one-module feature, the files
    /// in the business roles' folders. (A feature's face, `<Feature>Feature.swift`, is
    /// composition code: it may name the shell's commands and observers.)
    @Test func businessCodeImportsNoScreenCode() throws {
        let screenModules: Set<String> = ["HomesScreens", "TextViews", "ViewModels", "LineEditing"]
        for feature in Self.features {
            for (name, text) in try files(in: feature)
            where name.hasPrefix(feature + "/") && !Self.isAtTheRoot(name, of: feature)
                && (!Self.isOneModule(feature)
                    || Self.businessRoles.contains(name.split(separator: "/").dropFirst().first.map(String.init) ?? ""))
            {
                let reached = imports(of: text).filter { screenModules.contains($0) || $0.hasSuffix("Screens") }
                #expect(reached.isEmpty, "\(feature)/\(name) imports \(reached)")
            }
        }
    }

    /// Features call each other's targets through the typed categories only: no feature
    /// spells a target or an action outside its category module (or, in a one-module
    /// feature, its category file, `Mediator+<Feature>.swift`).
    @Test func onlyCategoriesCallTheMediatorByName() throws {
        for feature in Self.features {
            for (name, text) in try files(in: feature)
            where !name.hasPrefix(feature + "Category/") && name != "\(feature)/Mediator+\(feature).swift" {
                for call in ["perform(target:", "open(url:"] {
                    #expect(!text.contains(call), "\(feature)/\(name) calls \(call)")
                }
            }
        }
    }

    /// Each feature's targets are registered by its own type, its face
    /// (`<Feature>/<Feature>Screens/<Feature>Feature.swift`, or in its business module when
    /// it has no screens), under names its own category declares; the app registers none.
    /// No screen is downcast to reach what it can do: callers go through the typed
    /// categories.
    @Test func aFeaturesTargetsAreRegisteredByItsOwnTypeAndNothingDowncastsAController() throws {
        let registration = try Regex(#"register\(target: Mediator\.(\w+)"#)
        var registered = 0
        let modules = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path)
        for module in modules where module != "Mediator" {
            let files = try files(in: module)
            let declared = files.map(\.text).joined()
            for (name, text) in files {
                let isFace =
                    Self.features.contains(module) && Self.isAtTheRoot(name, of: module)
                    && name.hasSuffix("\(module)Feature.swift")
                if !isFace {
                    #expect(!text.contains("register(target:"), "\(module)/\(name) registers a target")
                }
                for match in text.matches(of: registration) where isFace {
                    let target = String(match.output[1].substring ?? "")
                    #expect(
                        declared.contains("static let \(target) = "),
                        "\(module)/\(name) registers \(target), which its feature's category does not declare")
                    registered += 1
                }
                let flat = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                for cast in ["as? ", "as! ", " is ", "value(as: "] {
                    for part in flat.components(separatedBy: cast).dropFirst() {
                        #expect(!castType(part).hasSuffix("Controller"), "\(module)/\(name) casts to \(castType(part))")
                    }
                }
            }
        }
        #expect(registered >= 4, "only \(registered) targets were found registered")
    }

    /// The types a file declares at its top level (not its extensions).
    func declaredTypes(in text: String) -> [String] {
        let kinds: Set<Substring> = ["struct", "class", "enum", "actor", "protocol"]
        return text.split(separator: "\n").compactMap { line in
            guard let first = line.first, first != " ", first != "/" else { return nil }
            let words = line.split(separator: " ")
            guard let index = words.firstIndex(where: { kinds.contains($0) }), index + 1 < words.count,
                words[..<index].allSatisfy({
                    $0.hasPrefix("@")
                        || ["public", "package", "final", "private", "fileprivate", "internal", "open", "nonisolated"]
                            .contains($0)
                })
            else { return nil }
            return String(words[index + 1].prefix { $0.isLetter || $0.isNumber || $0 == "_" })
        }
    }

    /// The type named at the start of `text`, past `(` and `any `.
    func castType(_ text: String) -> Substring {
        var rest = text.drop { $0 == "(" }
        if rest.hasPrefix("any ") { rest = rest.dropFirst(4) }
        return rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
    }

    @Test func castsToControllersAreFoundHoweverTheyAreWritten() {
        for text in ["LoginController else", "(any LoginController).self)", "LoginController {"] {
            #expect(castType(text) == "LoginController")
        }
    }

    /// In a feature every type has a file of its own, named after it, in the folder of
    /// its role (a category module's files sit in the module's folder); a file that only
    /// extends a type is named `Type+Topic.swift`.
    @Test func featuresKeepOneTypePerFileInTheFolderOfItsRole() throws {
        for feature in Self.features {
            let files = try files(in: feature)
            #expect(!files.isEmpty, "no sources found for \(feature)")
            for (name, text) in files {
                let parts = name.split(separator: "/").map(String.init)
                let isCategory = parts.first == feature + "Category"
                #expect(
                    isCategory
                        ? parts.count == 2
                        : Self.isAtTheRoot(name, of: feature) || parts.count == 3 && Self.roles.contains(parts[1]),
                    "\(feature)/\(name) is not in a role's folder")
                #expect(
                    parts.first != feature || Self.isOneModule(feature) || parts.count < 3
                        || !["Controllers", "ViewModels", "Commands"].contains(parts[1]),
                    "\(feature)/\(name): screens code in the business module")
                #expect(
                    parts.first != feature + "Screens" || !Self.businessRoles.contains(parts[1]),
                    "\(feature)/\(name): business code in the screens module")
                let types = declaredTypes(in: text)
                let base = String((parts.last ?? "").dropLast(".swift".count))
                if let plus = base.firstIndex(of: "+") {
                    #expect(
                        types.isEmpty && text.contains("extension \(base[..<plus]) {"),
                        "\(feature)/\(name) should only extend \(base[..<plus]) but declares \(types)")
                } else {
                    #expect(types == [base], "\(feature)/\(name) declares \(types)")
                }
                let suffix = [
                    "Controllers": "Controller", "MediatorTarget": "Target", "ViewModels": "ViewModel",
                    "Commands": "Commands",
                ][parts.count == 3 ? parts[1] : ""]
                let typeName = base.prefix { $0 != "+" }
                #expect(suffix.map { typeName.hasSuffix($0) } ?? true, "\(feature)/\(name) is not named for its role")
            }
        }
    }

    /// Each feature with a target has a category beside it, and the other way round.
    @Test func everyTargetHasItsCategoryBesideIt() throws {
        for feature in Self.features {
            let names = try files(in: feature).map(\.name)
            let hasTarget = names.contains { $0.contains("/MediatorTarget/") }
            let hasCategory = names.contains {
                $0.hasPrefix(feature + "Category/Mediator+") || $0 == "\(feature)/Mediator+\(feature).swift"
            }
            #expect(hasTarget == hasCategory, "\(feature): a target \(hasTarget), a category \(hasCategory)")
        }
    }

    @Test func controllersStayUnderTwoHundredLines() throws {
        var checked = 0
        for module in Self.features + ["HomesScreens"] {
            for (name, text) in try files(in: module)
            where name.hasSuffix("Controller.swift") || name == "Session.swift" {
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
            #expect(text.contains("package struct") && !text.contains("class "), "ViewModels/\(name)")
        }
    }

    /// `public` marks what an app may depend on: the framework's products, and the line
    /// editor the benchmark package links. Every other module of the demo declares its API
    /// `package`, visible to this package's modules and tests alone.
    @Test func onlyTheProductsArePublic() throws {
        let products: Set<String> = [
            "Signals", "SignalsTesting", "Networking", "Persistence", "Mediator", "LineEditing", "CSQLite",
            "CEventPoll",
        ]
        let modules = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path)
        #expect(modules.count > products.count + 5)
        for module in modules where !products.contains(module) {
            for (name, text) in try files(in: module) {
                let declarations = text.split(separator: "\n").filter {
                    $0.split(separator: " ").contains("public")
                        && !$0.trimmingCharacters(in: .whitespaces).hasPrefix("/")
                }
                #expect(declarations.isEmpty, "\(module)/\(name) declares \(declarations.first ?? "") public")
            }
        }
    }

    /// The app's isolation is the compiler's to check: no module of the demo silences it.
    @Test func theAppNeverSilencesIsolationChecks() throws {
        let app = Self.features + ["HomesAPI", "ViewModels", "TextViews", "HomesScreens", "FeatureKit", "App"]
        #expect(app.contains("Listings") && app.contains("OperationLogs"))
        for module in app {
            for (name, text) in try files(in: module) {
                #expect(!text.contains("@unchecked Sendable"), "\(module)/\(name) declares @unchecked Sendable")
                #expect(!text.contains("assumeIsolated"), "\(module)/\(name) assumes an isolation")
            }
        }
    }

    /// The framework sells compile-time isolation checks, so its code makes none at run
    /// time: no `assumeIsolated` in `Signals`, `SignalsTesting`, `Networking`,
    /// `Persistence` or `Mediator`. One bridge is the exception, and stays one:
    /// `MainActorObserver.run` in `Signals`, the observer behind `observeOnMainActor`,
    /// whose contract (6.4 in `Contract.md`) is to run a `@MainActor` closure at once when
    /// a value is sent on the main queue, which the compiler cannot see; everything else
    /// that reaches the main actor from any thread goes through it (`MainScheduler.perform`)
    /// or a queue hop the compiler checks.
    @Test func theFrameworkMakesNoRuntimeIsolationChecks() throws {
        let bridge = "Signal/Observer.swift"
        var bridgeUses = 0
        for module in ["Signals", "SignalsTesting", "Networking", "Persistence", "Mediator"] {
            let texts = try files(in: module)
            #expect(!texts.isEmpty, "no sources found for \(module)")
            for (name, text) in texts {
                let uses = text.components(separatedBy: "assumeIsolated").count - 1
                if module == "Signals", name == bridge {
                    bridgeUses = uses
                } else {
                    #expect(uses == 0, "\(module)/\(name) assumes an isolation")
                }
            }
        }
        #expect(bridgeUses == 1, "Signals/\(bridge) bridges to the main actor in one place, not \(bridgeUses)")
    }

    /// The shell reads a line as the screens declare their commands: it holds no flag
    /// table and names no flag (no string literal starting with `--` in its code), nor
    /// any command a feature declares with flags or as taking the rest of its line.
    @Test func theShellKnowsNoFeaturesFlags() throws {
        func code(_ text: String) -> String {
            text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
                .joined(separator: "\n")
        }
        // The commands declared with a rule for reading their line: `CommandHelp(usage:
        // "ask TEXT ...", ..., flags: ...)`, wherever a feature or the app declares them.
        let declaration = try Regex(#"CommandHelp\(\s*usage: "([a-z]+)[^"]*",[^)]*?(flags|takesRestOfLine):"#)
        var ruled: Set<String> = []
        let modules = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path)
        for module in modules where module != "HomesScreens" {
            for (_, text) in try files(in: module) {
                for match in code(text).matches(of: declaration) {
                    if let name = match.output[1].substring { ruled.insert(String(name)) }
                }
            }
        }
        #expect(ruled.contains("ask"), "no feature declares a command with flags: \(ruled)")
        for (name, text) in try files(in: "HomesScreens") {
            let shell = code(text)
            let namesAFlag = shell.contains("\"--")
            #expect(!namesAFlag, "HomesScreens/\(name) names a flag")
            for command in ruled {
                let namesTheCommand = shell.contains("\"\(command)\"")
                #expect(!namesTheCommand, "HomesScreens/\(name) names the command \(command)")
            }
        }
    }

    /// One place says whether a screen loads and what its problem is: its logic's
    /// `state`, derived from the logic's `Activity` (and its data) with
    /// `Property.combineLatest`. No logic copies the activity into its state by hand: none
    /// reads the activity's current values, sets a loading field, or keeps its state
    /// struct in a `MutableProperty` of its own.
    @Test func noLogicCopiesItsActivity() throws {
        let loadingField = try Regex(#"\b(isLoading|isSubmitting|isSending|isBusy)\s*=[^=]"#)
        let keptState = try Regex(#"MutableProperty(<\w*State>)?\(\w*State\("#)
        var checked = 0
        for feature in Self.features {
            for (name, text) in try files(in: "\(feature)/\(feature)/Logic") where text.contains("Activity<") {
                let file = "\(feature)/Logic/\(name)"
                #expect(
                    text.contains("Property.combineLatest(") && text.contains("activity.isRunning")
                        && text.contains("activity.failure"), "\(file) does not derive its state from its activity")
                #expect(
                    !text.contains("activity.isRunning.value") && !text.contains("activity.failure.value"),
                    "\(file) reads its activity to copy it")
                let (setsLoading, keepsState) = (text.contains(loadingField), text.contains(keptState))
                #expect(!setsLoading, "\(file) sets a loading field by hand")
                #expect(!keepsState, "\(file) keeps its state struct by hand")
                checked += 1
            }
        }
        #expect(checked >= 4, "only \(checked) logics with an activity were found")
    }

    /// A logic's call reaches it in two hand-offs after the transport answers (the run's
    /// landing, then the run's input to the logic's observer; `Docs/Architecture.md`,
    /// step 5): a logic starts its calls with `start(tracking:)`, which tells its
    /// `Activity` beside that path, never through `activity.track(_:)`, which puts the
    /// activity's forwarder on it. A submit that must run once (the sign-in, the inquiry)
    /// runs its call in an `Action` instead, and its activity tracks the action.
    @Test func noLogicForwardsACallThroughItsActivity() throws {
        var checked = 0
        for feature in Self.features {
            let logic = try files(in: "\(feature)/\(feature)/Logic")
            for (name, text) in logic where text.contains("Activity<") && text.contains(".call(") {
                let file = "\(feature)/Logic/\(name)"
                checked += 1
                if text.contains(": Action<") {
                    #expect(text.contains("activity.track("), "\(file) runs an action its activity does not track")
                    continue
                }
                #expect(!text.contains("activity.track("), "\(file) forwards a call through its activity")
                #expect(text.contains(".start(tracking: activity)"), "\(file) does not start its calls tracked")
            }
        }
        #expect(checked >= 4, "only \(checked) logics that call an API were found")
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

    /// No test asserts elapsed real time: the suite runs under the thread sanitizer on a
    /// loaded machine, where any stopwatch bound fails. "No real waiting" is shown by what a
    /// test clock or scheduler did; a real delay, by the scheduler's own clock.
    @Test func noTestTimesItselfWithTheWallClock() throws {
        let tests = Self.sources.deletingLastPathComponent().appendingPathComponent("Tests")
        let names = FileManager.default.enumerator(atPath: tests.path)?.compactMap { $0 as? String } ?? []
        let stopwatches = ["ContinuousClock.now - ", "timeIntervalSince(started)", "SuspendingClock.now - "]
        var checked = 0
        for name in names where name.hasSuffix(".swift") {
            let text = try String(contentsOf: tests.appendingPathComponent(name), encoding: .utf8)
            checked += 1
            for line in text.split(separator: "\n") where line.contains("#expect") || line.contains("#require") {
                for stopwatch in stopwatches {
                    #expect(!line.contains(stopwatch), "\(name) asserts elapsed time: \(line)")
                }
            }
        }
        #expect(checked > 100, "the test files were found")
    }

    /// The dependencies `Package.swift` lists for the target named `target` (nil when it
    /// declares no such target): the quoted names of its entry's `dependencies:` list.
    func dependencies(of target: String, in manifest: String) -> [String]? {
        guard let name = manifest.range(of: "name: \"\(target)\"") else { return nil }
        let rest = manifest[name.upperBound...]
        let end =
            [rest.range(of: "\n        .")?.lowerBound, rest.range(of: "\n    ]")?.lowerBound]
            .compactMap { $0 }.min() ?? rest.endIndex
        guard let list = rest[..<end].range(of: "dependencies: [") else { return [] }
        let items = rest[list.upperBound..<end].prefix { $0 != "]" }
        return items.split(separator: "\"", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    /// Each feature's tests are a target of their own, `Tests/<Feature>Tests`.
    @Test func everyFeatureHasItsTestTarget() throws {
        let root = Self.sources.deletingLastPathComponent()
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(dependencies(of: "ListingsTests", in: manifest)?.contains("Listings") == true)
        for feature in Self.features {
            let folder = root.appendingPathComponent("Tests/\(feature)Tests").path
            var isFolder: ObjCBool = false
            #expect(
                FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) && isFolder.boolValue,
                "Tests/\(feature)Tests is missing")
            #expect(
                dependencies(of: "\(feature)Tests", in: manifest) != nil, "Package.swift declares no \(feature)Tests")
        }
    }

    /// Each target lists among its own dependencies every module of the package it
    /// imports, not only one that depends on it. SwiftPM recompiles a module when a module
    /// it lists changes: LineEditingTests, which reached Signals through LineEditing, kept
    /// calling the vtable of an older `Property` after an incremental build, and crashed
    /// (contract 6.21). That a file imports what it uses, the compiler checks
    /// (`MemberImportVisibility`).
    @Test func everyTargetListsTheModulesItImports() throws {
        let root = Self.sources.deletingLastPathComponent()
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        func quoted(after label: String, in entry: Substring) -> String? {
            guard let start = entry.range(of: label + "\"") else { return nil }
            return String(entry[start.upperBound...].prefix { $0 != "\"" })
        }
        // Each target's entry: `.target(name: "X", dependencies: [...], path: "P")`.
        var targets: [(name: String, folder: String, dependencies: Set<String>)] = []
        for entry in manifest.components(separatedBy: "\n        .").dropFirst().map({ Substring($0) }) {
            let kind = entry.prefix { $0 != "(" }
            guard ["target", "testTarget", "executableTarget", "systemLibrary"].contains(kind),
                let name = quoted(after: "name: ", in: entry)
            else { continue }
            let list = entry.range(of: "dependencies: [").map { entry[$0.upperBound...].prefix { $0 != "]" } } ?? ""
            let dependencies = list.split(separator: "\"", omittingEmptySubsequences: false).enumerated()
                .filter { $0.offset % 2 == 1 }.map(\.element)
            let folder = quoted(after: "path: ", in: entry) ?? (kind == "testTarget" ? "Tests/" : "Sources/") + name
            targets.append((name, folder, Set(dependencies.map(String.init))))
        }
        let modules = Set(targets.map(\.name))
        var checked = 0
        for target in targets {
            for file in try files(in: "../" + target.folder) {
                let unlisted = imports(of: file.text).intersection(modules).subtracting(target.dependencies)
                #expect(
                    unlisted.subtracting([target.name]).isEmpty,
                    "\(target.name) (\(file.name)) imports \(unlisted.sorted()) without depending on it")
                checked += 1
            }
        }
        #expect(targets.count > 40 && checked > 300, "\(targets.count) targets, \(checked) files read")
    }

    /// The framework's tests build without the demo: their targets depend on the framework,
    /// its test helpers, the system SQLite and the crash writer, and no module of the demo.
    @Test func theFrameworksTestsNeedNoDemoModule() throws {
        let root = Self.sources.deletingLastPathComponent()
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let framework: Set<String> = [
            "Signals", "SignalsTesting", "Networking", "Persistence", "Mediator", "CSQLite", "PersistenceCrashWriter",
        ]
        for target in ["SignalsTests", "NetworkingTests", "PersistenceTests", "MediatorTests"] {
            let listed = try #require(dependencies(of: target, in: manifest), "Package.swift declares no \(target)")
            #expect(!listed.isEmpty, "no dependencies read for \(target)")
            let demo = Set(listed).subtracting(framework)
            #expect(demo.isEmpty, "\(target) depends on the demo's \(demo.sorted())")
        }
    }

    /// Every test the docs cite as `` `Suite.test` `` (the contract, the articles, the
    /// README, Docs/) exists: a suite of that name declares a test of that name, so a moved
    /// or renamed test cannot leave a claim without its proof.
    @Test func theTestsTheDocsCiteExist() throws {
        let root = Self.sources.deletingLastPathComponent()
        func textFiles(under folder: String) -> [URL] {
            let base = root.appendingPathComponent(folder)
            let names = FileManager.default.enumerator(atPath: base.path)?.compactMap { $0 as? String } ?? []
            return names.filter { $0.hasSuffix(".md") || $0.hasSuffix(".swift") }.map {
                base.appendingPathComponent($0)
            }
        }
        let docs =
            (textFiles(under: "Docs") + textFiles(under: "Sources")).filter { $0.pathExtension == "md" }
            + [root.appendingPathComponent("README.md"), root.appendingPathComponent("CONTRIBUTING.md")]
        // Each suite's tests, by the suite's name, from every test file.
        var tests: [String: Set<String>] = [:]
        for file in textFiles(under: "Tests") where file.pathExtension == "swift" {
            var suite = ""
            for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
                let words = line.split(whereSeparator: { " ({:".contains($0) })
                if let kind = words.firstIndex(where: { ["struct", "class", "extension"].contains($0) }),
                    kind + 1 < words.count, !line.hasPrefix(" ")
                {
                    suite = String(words[kind + 1])
                } else if let function = words.firstIndex(of: "func"), function + 1 < words.count {
                    tests[suite, default: []].insert(String(words[function + 1]))
                }
            }
        }
        var cited = 0
        for doc in docs {
            let text = try String(contentsOf: doc, encoding: .utf8)
            for part in text.components(separatedBy: "`").enumerated() where part.offset % 2 == 1 {
                let pieces = part.element.split(separator: ".")
                guard pieces.count == 2, pieces[0].hasSuffix("Tests"), pieces[0].first?.isUppercase == true,
                    pieces[0].allSatisfy({ $0.isLetter || $0.isNumber }),
                    pieces[1] != "swift", pieces[1].allSatisfy({ $0.isLetter || $0.isNumber })
                else { continue }
                cited += 1
                #expect(
                    tests[String(pieces[0])]?.contains(String(pieces[1])) == true,
                    "\(doc.lastPathComponent) cites \(part.element), which no suite declares")
            }
        }
        #expect(cited > 200, "only \(cited) citations found")
    }

    @Test func noCatchAllFolders() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path)
        for folder in folders {
            #expect(!["common", "core", "utils", "util", "helpers", "helper", "misc"].contains(folder.lowercased()))
        }
    }
}
