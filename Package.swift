// swift-tools-version: 6.0
import PackageDescription

// Strict settings for every Swift target, as swift-log does.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "pushmap",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "pushmap", targets: ["PushmapCLI"]),
        // The translator as an HTTP service; a product of its own so that the command line's
        // quick start never builds the HTTP stack.
        .executable(name: "pushmap-server", targets: ["PushmapServer"]),
        .library(name: "Pushmap", targets: ["Pushmap"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        // pushmap-server only.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: [
        // Lua 5.4 from the system (Debian's liblua5.4-dev, Homebrew's lua), never vendored.
        .systemLibrary(
            name: "CLua",
            path: "Sources/CLua",
            pkgConfig: "lua5.4",
            providers: [.apt(["liblua5.4-dev"]), .brew(["lua"])]
        ),
        // Everything Lua may longjmp out of: hooks, allocator, sandbox functions, value pushing.
        .target(name: "CLuaHost", dependencies: ["CLua", "CJSONItem"]),
        // Only the item type C's result walk writes and PushmapJSON reads in place: one
        // definition, so the compiler, not a check at run time, keeps their layouts the same.
        .target(name: "CJSONItem"),
        .target(name: "PushmapJSON", dependencies: ["CJSONItem"], swiftSettings: strict),
        .target(
            name: "LuaHost",
            dependencies: ["CLua", "CLuaHost", "PushmapJSON", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        .target(
            name: "Pushmap",
            dependencies: ["LuaHost", "PushmapJSON", .product(name: "Logging", package: "swift-log")],
            exclude: ["Lua"],
            swiftSettings: strict,
            plugins: ["EmbedScripts"]
        ),
        // What each phone shows of a translation, drawn as HTML or text (`pushmap preview`).
        .target(name: "PushmapPreview", dependencies: ["Pushmap", "PushmapJSON"], swiftSettings: strict),
        // The JSON the command line and the server both write: diagnostics, batch lines.
        .target(name: "PushmapOutput", dependencies: ["Pushmap", "PushmapJSON"], swiftSettings: strict),
        .executableTarget(
            name: "PushmapCLI",
            dependencies: [
                "Pushmap", "PushmapJSON", "PushmapOutput", "PushmapPreview",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // pushmap-server: the routes of openapi.yaml on Hummingbird, metrics for Prometheus.
        .executableTarget(
            name: "PushmapServer",
            dependencies: [
                "Pushmap", "PushmapJSON", "PushmapOutput", "PushmapPreview",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            exclude: ["openapi.yaml"],
            swiftSettings: strict,
            plugins: ["EmbedServerFiles"]
        ),
        // How a service embeds the library; built by CI with everything else.
        .executableTarget(
            name: "pushmap-embedding-example",
            dependencies: ["Pushmap", "PushmapJSON", .product(name: "Logging", package: "swift-log")],
            path: "Examples/EmbeddingService",
            swiftSettings: strict
        ),
        // The per-call figures of scripts/bench.
        .executableTarget(
            name: "pushmap-bench",
            dependencies: ["Pushmap", "PushmapJSON", "LuaHost", .product(name: "Logging", package: "swift-log")],
            path: "Sources/PushmapBench",
            swiftSettings: strict
        ),
        // Fuzz targets: the per-input checks (a library the tests replay too), libFuzzer's entry
        // point declared for scripts/fuzz, and the driver that replays inputs or runs libFuzzer.
        .target(
            name: "PushmapFuzzing",
            dependencies: ["Pushmap", "PushmapJSON", "LuaHost", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        .target(name: "CFuzzDriver"),
        .executableTarget(
            name: "pushmap-fuzz",
            dependencies: ["PushmapFuzzing", "CFuzzDriver"],
            path: "Sources/PushmapFuzz",
            swiftSettings: strict
        ),
        // Turns the built-in Lua scripts into Swift source, so they travel inside the binary.
        .executableTarget(name: "EmbedScriptsTool", swiftSettings: strict),
        .plugin(name: "EmbedScripts", capability: .buildTool(), dependencies: ["EmbedScriptsTool"]),
        .plugin(name: "EmbedServerFiles", capability: .buildTool(), dependencies: ["EmbedScriptsTool"]),

        // What the test targets share: seeded randomness and random JSON values.
        .target(name: "PushmapTestSupport", dependencies: ["PushmapJSON"], path: "Tests/PushmapTestSupport", swiftSettings: strict),
        .testTarget(name: "PushmapJSONTests", dependencies: ["PushmapJSON", "PushmapTestSupport"], swiftSettings: strict),
        .testTarget(
            name: "LuaHostTests",
            dependencies: ["LuaHost", "PushmapJSON", "PushmapTestSupport", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "PushmapTests",
            dependencies: ["Pushmap", "PushmapJSON", "LuaHost", "PushmapTestSupport", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "PushmapFuzzingTests",
            dependencies: ["PushmapFuzzing", "PushmapJSON"],
            swiftSettings: strict
        ),
        .testTarget(name: "PushmapPreviewTests", dependencies: ["PushmapPreview", "PushmapJSON"], swiftSettings: strict),
        .testTarget(
            name: "PushmapCLITests",
            dependencies: ["PushmapJSON"],
            swiftSettings: strict
        ),
        // The built pushmap-server binary, end to end (PUSHMAP_SERVER_BINARY from scripts/test).
        .testTarget(name: "PushmapServerTests", exclude: ["schemathesis_hooks.py"], swiftSettings: strict),
    ]
)
