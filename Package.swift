// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "Homes",
    // The framework's floor on Apple's systems is the `Synchronization` module (`Mutex`,
    // `Atomic`) the core is built on. Built and tested on Linux (see the README).
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        // The framework: what an app depends on.
        .library(name: "Signals", targets: ["Signals"]),
        .library(name: "SignalsTesting", targets: ["SignalsTesting"]),
        .library(name: "Networking", targets: ["Networking"]),
        .library(name: "Persistence", targets: ["Persistence"]),
        .library(name: "Mediator", targets: ["Mediator"]),
        // The demo: a property-listing browser built on it.
        .executable(name: "homes", targets: ["App"]),
        // The demo's line editor, for its benchmark (`Benchmarks/`, `editor-bench`).
        .library(name: "LineEditing", targets: ["LineEditing"]),
    ],
    targets: [
        // MARK: Framework
        // A reactive core (signals, properties, operators, bindings, schedulers) and its
        // test helpers; an API-manager network layer with reformers and request signing;
        // SQLite persistence with tables, records and data centers; a target-action
        // mediator between modules.
        .target(name: "Signals"),
        .target(name: "SignalsTesting", dependencies: ["Signals"]),
        // Networking hands out a call as a `Producer` (`APIManager+Producer.swift`).
        .target(name: "Networking", dependencies: ["Signals"]),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .target(name: "Persistence", dependencies: ["CSQLite", "Signals"]),
        .target(name: "Mediator"),

        // MARK: Demo
        // `homes`, a line-oriented REPL over an embedded listing API (also served over
        // HTTP by `homes serve`). Each feature's folder under `Sources/` holds its modules:
        // the business code (APIs, reformers, logic, models, records, data centers), its
        // screens with the mediator target that builds them, and its category (the typed
        // calls other features make). Features never import each other; they meet through
        // the categories. Around them: the struct view models, the text views, the
        // terminal line editor, the screen shell (`HomesScreens`) and the app that composes
        // them all.
        .systemLibrary(name: "CEventPoll", path: "Sources/CEventPoll"),
        .target(name: "HTTPServer", dependencies: ["Networking", "CEventPoll"]),
        .target(name: "HomesAPI", dependencies: ["Networking"]),
        .target(name: "TextViews"),
        .target(name: "LineEditing", dependencies: ["Signals"]),
        .target(name: "HomesScreens", dependencies: ["Signals", "TextViews", "Mediator", "LineEditing"]),
        .target(name: "ViewModels"),
        // What a feature is to the app (`Feature`): the one value per feature that the
        // composition root lists.
        .target(name: "FeatureKit", dependencies: ["HomesScreens", "Mediator", "Networking", "Persistence"]),

        .target(
            name: "Listings", dependencies: ["ListingsCategory", "Networking", "Signals"],
            path: "Sources/Listings/Listings"),
        .target(
            name: "ListingsScreens",
            dependencies: [
                "Listings", "ListingsCategory", "FavoritesCategory", "InquiryCategory", "ViewModels", "TextViews",
                "HomesScreens", "FeatureKit", "Mediator", "Networking", "Signals",
            ], path: "Sources/Listings/ListingsScreens"),
        .target(
            name: "ListingsCategory", dependencies: ["HomesScreens", "Mediator"],
            path: "Sources/Listings/ListingsCategory"),

        .target(name: "Favorites", dependencies: ["Persistence", "Signals"], path: "Sources/Favorites/Favorites"),
        .target(
            name: "FavoritesScreens",
            dependencies: [
                "Favorites", "FavoritesCategory", "ListingsCategory", "ViewModels", "TextViews", "HomesScreens",
                "FeatureKit", "Mediator", "Persistence", "Signals",
            ], path: "Sources/Favorites/FavoritesScreens"),
        .target(
            name: "FavoritesCategory", dependencies: ["ListingsCategory", "HomesScreens", "Mediator", "Signals"],
            path: "Sources/Favorites/FavoritesCategory"),

        .target(name: "Login", dependencies: ["Networking", "Signals"], path: "Sources/Login/Login"),
        .target(
            name: "LoginScreens",
            dependencies: [
                "Login", "LoginCategory", "ViewModels", "TextViews", "HomesScreens", "FeatureKit", "Mediator",
                "Networking", "Signals",
            ], path: "Sources/Login/LoginScreens"),
        .target(
            name: "LoginCategory", dependencies: ["HomesScreens", "Mediator"], path: "Sources/Login/LoginCategory"),

        // Inquiry has no screen of its own: its target, in the business module, hands
        // out senders of questions.
        .target(
            name: "Inquiry",
            dependencies: ["InquiryCategory", "ListingsCategory", "FeatureKit", "Mediator", "Networking", "Signals"],
            path: "Sources/Inquiry/Inquiry"),
        .target(
            name: "InquiryCategory", dependencies: ["ListingsCategory", "Mediator", "Signals"],
            path: "Sources/Inquiry/InquiryCategory"),

        // Saved searches are one module: nobody else calls them, so their business code,
        // screen, commands and category are folders of it (Docs/Architecture.md, "Adding a
        // screen").
        .target(
            name: "SavedSearches",
            dependencies: [
                "FeatureKit", "HomesScreens", "ListingsCategory", "Mediator", "Persistence", "Signals", "TextViews",
                "ViewModels",
            ], path: "Sources/SavedSearches/SavedSearches"),

        .target(
            name: "OperationLogs", dependencies: ["FeatureKit", "HomesScreens", "Networking", "Persistence"],
            path: "Sources/OperationLogs/OperationLogs"),

        .executableTarget(
            name: "App",
            dependencies: [
                "Networking", "Persistence", "Mediator", "HTTPServer", "HomesAPI", "LineEditing", "HomesScreens",
                "FeatureKit",
                // The features: the module of each one's `Feature`.
                "ListingsScreens", "LoginScreens", "FavoritesScreens", "Inquiry", "OperationLogs", "SavedSearches",
            ]),

        // MARK: Tools
        // Test helpers (a terminal screen emulator; a process that writes until it is
        // killed, for the crash-safety tests) and the tests. The framework's tests depend on
        // the framework alone. The benchmarks are a package of their own, in `Benchmarks/`.
        .target(name: "TerminalTesting", dependencies: ["LineEditing"], path: "Tests/TerminalTesting"),
        .executableTarget(
            name: "PersistenceCrashWriter", dependencies: ["Persistence"],
            path: "Tests/PersistenceCrashWriter"),
        .testTarget(name: "SignalsTests", dependencies: ["Signals", "SignalsTesting"], exclude: ["Ports/README.md"]),
        .testTarget(name: "NetworkingTests", dependencies: ["Networking", "Signals"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "Networking"]),
        .testTarget(name: "MediatorTests", dependencies: ["Mediator"]),
        .testTarget(name: "LineEditingTests", dependencies: ["LineEditing", "Signals", "TerminalTesting"]),
        // The demo's tests: one target per feature (its logic, screens and view-model
        // builders), one per other module with tests of its own, the app's (the composition
        // root, the features together, the built `homes` end to end) and the architecture's
        // rules (read from the sources, so it depends on nothing). `HomesTesting` is their
        // shared harness: the embedded API answering inline.
        .target(name: "HomesTesting", dependencies: ["HomesAPI", "Networking"], path: "Tests/HomesTesting"),
        .testTarget(
            name: "ListingsTests",
            dependencies: [
                "Listings", "ListingsScreens", "ListingsCategory", "ViewModels", "HomesAPI", "Networking", "Signals",
                "SignalsTesting", "HomesTesting",
            ]),
        .testTarget(name: "FavoritesTests", dependencies: ["Favorites", "Persistence", "Signals", "SignalsTesting"]),
        .testTarget(
            name: "LoginTests",
            dependencies: ["Login", "HomesAPI", "Networking", "Signals", "SignalsTesting", "HomesTesting"]),
        .testTarget(
            name: "InquiryTests",
            dependencies: [
                "Inquiry", "InquiryCategory", "ListingsCategory", "HomesAPI", "Networking", "Signals", "SignalsTesting",
                "HomesTesting",
            ]),
        .testTarget(
            name: "SavedSearchesTests",
            dependencies: ["SavedSearches", "Persistence", "Signals", "SignalsTesting"]),
        .testTarget(
            name: "OperationLogsTests",
            dependencies: ["OperationLogs", "HomesAPI", "Networking", "Persistence", "HomesTesting"]),
        .testTarget(name: "HomesAPITests", dependencies: ["HomesAPI", "Networking"]),
        .testTarget(name: "TextViewsTests", dependencies: ["TextViews"]),
        .testTarget(name: "ViewModelsTests", dependencies: ["ViewModels"]),
        .testTarget(name: "HomesScreensTests", dependencies: ["HomesScreens"]),
        .testTarget(
            name: "AppTests",
            dependencies: [
                "App", "FeatureKit", "HomesScreens", "Listings", "ListingsScreens", "ListingsCategory", "Favorites",
                "FavoritesScreens", "FavoritesCategory", "Login", "LoginCategory", "InquiryCategory", "ViewModels",
                "TextViews", "LineEditing", "Networking", "Persistence", "Mediator", "Signals", "SignalsTesting",
                "TerminalTesting", "HomesAPI", "HomesTesting",
            ], exclude: ["Transcripts"]),
        .testTarget(name: "ArchitectureTests"),
        .testTarget(
            name: "PersistenceTests",
            dependencies: ["Persistence", "Signals", "SignalsTesting", "PersistenceCrashWriter"]),
    ],
    swiftLanguageModes: [.v6]
)

// Every file imports the modules whose members it uses (SE-0444), and CI's import check
// makes each of them a declared dependency. SwiftPM recompiles a module only when the
// modules it depends on change, so one that reached a `Property` through another module's
// API without depending on Signals kept calling the vtable slots of an older `Property`
// after an incremental build: adding a stored property moves them (Contract 6.21).
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("MemberImportVisibility")]
}
