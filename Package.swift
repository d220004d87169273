// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Homes",
    platforms: [.macOS(.v15)],
    products: [
        // The framework: what an app depends on.
        .library(name: "Signals", targets: ["Signals"]),
        .library(name: "SignalsTesting", targets: ["SignalsTesting"]),
        .library(name: "Networking", targets: ["Networking"]),
        .library(name: "Persistence", targets: ["Persistence"]),
        .library(name: "Mediator", targets: ["Mediator"]),
        // The demo: a property-listing browser built on it.
        .executable(name: "homes", targets: ["App"]),
    ],
    targets: [
        // MARK: Framework
        // A reactive core (signals, properties, operators, bindings, schedulers) and its
        // test helpers; an API-manager network layer with reformers and request signing;
        // SQLite persistence with tables, records and data centers; a target-action
        // mediator between modules.
        .target(name: "Signals"),
        .target(name: "SignalsTesting", dependencies: ["Signals"]),
        .target(name: "Networking"),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .target(name: "Persistence", dependencies: ["CSQLite", "Signals"]),
        .target(name: "Mediator"),

        // MARK: Demo
        // `homes`, a line-oriented REPL over an embedded listing API (also served over
        // HTTP by `homes serve`): business modules (Listings, Favorites, Login, Inquiry,
        // OperationLogs), their struct view models, the screens, the terminal line editor
        // and text views, and the app that composes them.
        .systemLibrary(name: "CEventPoll", path: "Sources/CEventPoll"),
        .target(name: "HTTPServer", dependencies: ["Networking", "CEventPoll"]),
        .target(name: "HomesAPI", dependencies: ["Networking"]),
        .target(name: "Listings", dependencies: ["Networking", "Signals"]),
        .target(name: "Favorites", dependencies: ["Persistence", "Signals"]),
        .target(name: "Login", dependencies: ["Networking", "Signals"]),
        .target(name: "OperationLogs", dependencies: ["Networking", "Persistence"]),
        .target(name: "Inquiry", dependencies: ["Networking", "Signals"]),
        .target(name: "ViewModels", dependencies: ["Listings", "Favorites", "Login"]),
        .target(name: "TextViews"),
        .target(name: "LineEditing"),
        .target(name: "HomesScreens", dependencies: [
            "Signals", "TextViews", "Listings", "Favorites", "Login", "Inquiry", "ViewModels", "Mediator", "Networking",
            "LineEditing",
        ]),
        .executableTarget(name: "App", dependencies: [
            "Networking", "HomesAPI", "Listings", "Favorites", "Login", "HomesScreens", "Mediator", "Persistence",
            "HTTPServer", "OperationLogs", "LineEditing",
        ]),

        // MARK: Tools
        // Test helpers (a terminal screen emulator; a process that writes until it is
        // killed, for the crash-safety tests) and the tests. The benchmarks are a package
        // of their own, in `Benchmarks/`.
        .target(name: "TerminalTesting", dependencies: ["LineEditing"], path: "Tests/TerminalTesting"),
        .executableTarget(name: "PersistenceCrashWriter", dependencies: ["Persistence"],
                          path: "Tests/PersistenceCrashWriter"),
        .testTarget(name: "SignalsTests", dependencies: ["Signals", "SignalsTesting"]),
        .testTarget(name: "NetworkingTests", dependencies: ["Networking", "HTTPServer"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "Networking"]),
        .testTarget(name: "MediatorTests", dependencies: ["Mediator"]),
        .testTarget(name: "LineEditingTests", dependencies: ["LineEditing", "TerminalTesting"]),
        .testTarget(name: "HomesTests", dependencies: [
            "App", "HomesAPI", "HomesScreens", "Listings", "Favorites", "Login", "ViewModels", "TextViews", "Networking",
            "OperationLogs", "Inquiry",
            "Signals", "SignalsTesting", "Mediator", "Persistence", "TerminalTesting",
        ], exclude: ["Transcripts"]),
        .testTarget(name: "PersistenceTests",
                    dependencies: ["Persistence", "Signals", "SignalsTesting", "PersistenceCrashWriter"]),
    ],
    swiftLanguageModes: [.v6]
)
