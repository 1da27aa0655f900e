// swift-tools-version:6.1
import PackageDescription

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
        // Pure domain: no I/O.
        .target(name: "JuiceBar"),
        .target(name: "Membership", dependencies: ["JuiceBar"]),
        .target(name: "VendingMachine", dependencies: ["JuiceBar"]),
        // Closing a shop day: its Z report, from the juice bar's and the machine's records.
        .target(
            name: "DayClose",
            dependencies: ["JuiceBar", "VendingMachine", .product(name: "Crypto", package: "swift-crypto")]
        ),
        // SQLite's process-wide settings, which only C can make (`sqlite3_config` is variadic).
        .target(name: "SQLiteSettings"),
        // Persistence behind protocols; SQLite through GRDB, PostgreSQL through postgres-nio.
        .target(
            name: "Storage",
            dependencies: [
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
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The HTTP server: pages, JSON API, live updates, sign-in.
        .target(
            name: "App",
            dependencies: [
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
            // Each page's template lies beside its feature's code; the bundle holds them side by side.
            resources: [
                .copy("Public"),
                .process("Support/layout.mustache"),
                .process("Support/header.mustache"),
                .process("Auth/login.mustache"),
                .process("Auth/signup.mustache"),
                .process("Auth/kakao-button.mustache"),
                .process("Auth/kakao-symbol.mustache"),
                .process("JuiceBar/order.mustache"),
                .process("Members/home.mustache"),
                .process("Queue/kitchen.mustache"),
                .process("Queue/board.mustache"),
                .process("Days/reports.mustache"),
                .process("Vending/vending.mustache"),
                .process("Vending/product-art.mustache"),
                .process("Vending/sales-chart.mustache"),
            ]
        ),
        .executableTarget(
            name: "juicemaker",
            dependencies: [
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
        .testTarget(name: "JuiceBarTests", dependencies: ["JuiceBar"]),
        .testTarget(name: "MembershipTests", dependencies: ["Membership"]),
        .testTarget(name: "VendingMachineTests", dependencies: ["VendingMachine", "JuiceBar"]),
        .testTarget(name: "DayCloseTests", dependencies: ["DayClose", "JuiceBar", "VendingMachine"]),
        .testTarget(
            name: "StorageTests",
            dependencies: [
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
