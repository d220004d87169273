// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Homes",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Signals", targets: ["Signals"]),
        .library(name: "SignalsTesting", targets: ["SignalsTesting"]),
        .library(name: "Networking", targets: ["Networking"]),
        .library(name: "Persistence", targets: ["Persistence"]),
        .library(name: "Mediator", targets: ["Mediator"]),
        .executable(name: "homes", targets: ["App"]),
        .executable(name: "signals-bench", targets: ["SignalsBenchmark"]),
        .executable(name: "networking-bench", targets: ["NetworkingBenchmark"]),
        .executable(name: "persistence-crash-writer", targets: ["PersistenceCrashWriter"]),
        .executable(name: "persistence-bench", targets: ["PersistenceBenchmark"]),
    ],
    targets: [
        .target(name: "Signals"),
        .target(name: "SignalsTesting", dependencies: ["Signals"]),
        .target(name: "Networking"),
        .target(name: "HTTPServer", dependencies: ["Networking"]),
        .executableTarget(name: "NetworkingBenchmark", dependencies: ["Networking"]),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite",
                       providers: [.apt(["libsqlite3-dev"])]),
        .target(name: "Persistence", dependencies: ["CSQLite", "Signals"]),
        .executableTarget(name: "PersistenceCrashWriter", dependencies: ["Persistence"]),
        .executableTarget(name: "PersistenceBenchmark", dependencies: ["Persistence"]),
        .target(name: "Mediator"),
        .target(name: "TextViews"),
        .target(name: "HomesAPI", dependencies: ["Networking"]),
        .target(name: "Listings", dependencies: ["Networking", "Signals"]),
        .target(name: "Favorites", dependencies: ["Persistence", "Signals"]),
        .target(name: "Login", dependencies: ["Networking", "Signals"]),
        .target(name: "OperationLogs", dependencies: ["Networking", "Persistence"]),
        .target(name: "ViewModels", dependencies: ["Listings", "Favorites", "Login"]),
        .target(name: "HomesScreens", dependencies: [
            "Signals", "TextViews", "Listings", "Favorites", "Login", "ViewModels", "Mediator", "Networking",
        ]),
        .executableTarget(name: "App", dependencies: [
            "Networking", "HomesAPI", "Listings", "Favorites", "Login", "HomesScreens", "Mediator", "Persistence",
            "HTTPServer", "OperationLogs",
        ]),
        .target(name: "AllocationCounter"),
        .executableTarget(name: "SignalsBenchmark", dependencies: ["Signals", "AllocationCounter"]),
        .testTarget(name: "SignalsTests", dependencies: ["Signals", "SignalsTesting"]),
        .testTarget(name: "NetworkingTests", dependencies: ["Networking", "HTTPServer"]),
        .testTarget(name: "MediatorTests", dependencies: ["Mediator"]),
        .testTarget(name: "HomesTests", dependencies: [
            "App", "HomesAPI", "HomesScreens", "Listings", "Favorites", "Login", "ViewModels", "TextViews", "Networking",
            "OperationLogs",
            "Signals", "SignalsTesting", "Mediator", "Persistence",
        ], exclude: ["Transcripts"]),
        .testTarget(name: "PersistenceTests",
                    dependencies: ["Persistence", "Signals", "SignalsTesting", "PersistenceCrashWriter"]),
    ],
    swiftLanguageModes: [.v6]
)
