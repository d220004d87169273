// swift-tools-version: 6.2
import Foundation
import PackageDescription

// The benchmarks of the Homes package, kept out of its manifest: each runs the library
// beside a hand-written floor in one process and prints ratios (Docs/Benchmarks.md).
//
//   swift build -c release --package-path Benchmarks
//   Benchmarks/.build/release/signals-bench --runs 7

// A package depended on by path is named after its folder, whatever the clone is called.
let homes = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "HomesBenchmarks",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .executable(name: "signals-bench", targets: ["SignalsBenchmark"]),
        .executable(name: "networking-bench", targets: ["NetworkingBenchmark"]),
        .executable(name: "persistence-bench", targets: ["PersistenceBenchmark"]),
        .executable(name: "server-load-bench", targets: ["ServerLoadBenchmark"]),
        .executable(name: "editor-bench", targets: ["EditorBenchmark"]),
    ],
    dependencies: [.package(path: "..")],
    targets: [
        // Counts heap allocations in the benchmark process only (wraps glibc's allocator).
        .target(name: "AllocationCounter"),
        // Options, medians, allocation counts and the thresholds CI checks, for every
        // benchmark (Benchmarks/Thresholds).
        .target(name: "BenchmarkSupport", dependencies: ["AllocationCounter"]),
        // The sqlite3 C API, for the persistence floor.
        .systemLibrary(name: "SQLite3", path: "Sources/SQLite3", providers: [.apt(["libsqlite3-dev"])]),
        .executableTarget(
            name: "SignalsBenchmark",
            dependencies: [
                .product(name: "Signals", package: homes), "BenchmarkSupport",
            ]),
        .executableTarget(
            name: "NetworkingBenchmark",
            dependencies: [
                .product(name: "Networking", package: homes), .product(name: "Signals", package: homes),
                "BenchmarkSupport",
            ]),
        .executableTarget(
            name: "PersistenceBenchmark",
            dependencies: [
                .product(name: "Persistence", package: homes), "SQLite3", "BenchmarkSupport",
            ]),
        .executableTarget(
            name: "ServerLoadBenchmark",
            dependencies: [
                .product(name: "Networking", package: homes), "BenchmarkSupport",
            ]),
        .executableTarget(
            name: "EditorBenchmark",
            dependencies: [
                .product(name: "LineEditing", package: homes), "BenchmarkSupport",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
