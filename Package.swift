// swift-tools-version:6.1
import Foundation
import PackageDescription

/// Every page's template (`*.mustache`) under `Sources/App`, each beside its feature's code: a new
/// page's template is in the bundle without a line here. The bundle holds them side by side, by name.
let templates: [Resource] = {
    let app = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Sources/App")
    let files = FileManager.default.enumerator(atPath: app.path)?.compactMap { $0 as? String } ?? []
    return files.filter { $0.hasSuffix(".mustache") }.sorted().map { .process($0) }
}()

let package = Package(
    name: "JuiceMaker",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "juicemaker", targets: ["juicemaker"]),
        // For the benchmarks package beside it (Benchmarks/).
        .library(name: "JuiceMakerKit", targets: ["JuiceBar", "VendingMachine", "Membership", "DayClose", "Storage"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.1.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.34.1"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/vapor/multipart-kit.git", from: "4.7.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
    ],
    targets: [
        // What every part shares: the shop's languages and names in them, text a person writes, its calendar.
        .target(name: "ShopBasics"),
        // Pure domain: no I/O.
        .target(name: "JuiceBar", dependencies: ["ShopBasics"]),
        .target(name: "Membership", dependencies: ["ShopBasics"]),
        .target(name: "VendingMachine", dependencies: ["ShopBasics"]),
        // Closing a shop day: its Z report, from the juice bar's and the machine's records.
        .target(
            name: "DayClose",
            dependencies: ["JuiceBar", "ShopBasics", "VendingMachine", .product(name: "Crypto", package: "swift-crypto")]
        ),
        // SQLite's process-wide settings, which only C can make (`sqlite3_config` is variadic).
        .target(name: "SQLiteSettings"),
        // Persistence behind protocols; SQLite through GRDB, PostgreSQL through postgres-nio.
        .target(
            name: "Storage",
            dependencies: [
                "ShopBasics",
                "DayClose",
                "SQLiteSettings",
                "JuiceBar",
                "Membership",
                "VendingMachine",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                // Its ConnectionPoolError tells a pool that cannot connect from a refused statement.
                .product(name: "_ConnectionPoolModule", package: "postgres-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The HTTP server: pages, JSON API, live updates, sign-in.
        .target(
            name: "App",
            dependencies: [
                "ShopBasics",
                "DayClose",
                "JuiceBar",
                "Membership",
                "Storage",
                "VendingMachine",
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdHTTP2", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "MultipartKit", package: "multipart-kit"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            resources: [.copy("Public")] + templates
        ),
        .executableTarget(
            name: "juicemaker",
            dependencies: [
                "ShopBasics",
                "DayClose",
                "JuiceBar",
                "Membership",
                "Storage",
                "VendingMachine",
                "App",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        .testTarget(name: "ShopBasicsTests", dependencies: ["ShopBasics"]),
        .testTarget(name: "JuiceBarTests", dependencies: ["JuiceBar", "ShopBasics"]),
        .testTarget(name: "MembershipTests", dependencies: ["Membership", "ShopBasics"]),
        .testTarget(name: "VendingMachineTests", dependencies: ["VendingMachine", "ShopBasics"]),
        .testTarget(name: "DayCloseTests", dependencies: ["DayClose", "JuiceBar", "VendingMachine"]),
        .testTarget(
            name: "StorageTests",
            dependencies: [
                // The day-close workflow (App's `ShopDays`) is checked on both engines with the stores.
                "App",
                "ShopBasics",
                "DayClose",
                "JuiceBar",
                "Membership",
                "Storage",
                "VendingMachine",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        .testTarget(
            name: "AppTests",
            dependencies: [
                "ShopBasics",
                "DayClose",
                "App",
                "JuiceBar",
                "Membership",
                "Storage",
                "VendingMachine",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .testTarget(name: "CLITests", dependencies: ["juicemaker"]),
    ]
)
