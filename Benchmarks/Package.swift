// swift-tools-version:6.1
// In-process benchmarks of the domain and storage, with ordo-one/benchmark:
//   cd Benchmarks && swift package benchmark
// HTTP figures come from `scripts/bench` (wrk against a release server).
import PackageDescription

let package = Package(
    name: "JuiceMakerBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "JuiceMakerBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "JuiceMakerKit", package: "JuiceMaker"),
            ],
            path: "JuiceMakerBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
