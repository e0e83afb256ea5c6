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
        // The library a service embeds: the one product that is public API.
        .library(name: "Pushmap", targets: ["Pushmap"]),
        // For the Server package (Server/Package.swift) only, not API: what the command line and
        // the server both write and draw, the intent's JSON Schema, and the tool that embeds
        // files as Swift source.
        .library(name: "_PushmapServerSupport", targets: ["PushmapOutput", "PushmapPreview", "PushmapTooling"]),
        .executable(name: "EmbedScriptsTool", targets: ["EmbedScriptsTool"]),
    ],
    // pushmap-server is a package of its own in Server/, so that a package depending on the
    // library resolves and fetches none of the HTTP stack: SwiftPM fetches every dependency a
    // manifest names, used by the products asked for or not (measured: 26 checkouts, Hummingbird
    // and swift-nio among them, with the server here; 2 without).
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
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
        // What the tools need and a service does not: script fixtures and their runner (`pushmap
        // scripts check`), the intent's JSON Schema (`pushmap schema`, the server's schema route)
        // and writing files. The library keeps what a service needs, reading scripts from a folder
        // for a reload among it.
        .target(name: "PushmapTooling", dependencies: ["Pushmap", "PushmapJSON"], swiftSettings: strict),
        // What each phone shows of a translation, drawn as HTML or text (`pushmap preview`).
        .target(name: "PushmapPreview", dependencies: ["Pushmap", "PushmapJSON", "PushmapTooling"], swiftSettings: strict),
        // The JSON the command line and the server both write: diagnostics, batch lines.
        .target(name: "PushmapOutput", dependencies: ["Pushmap", "PushmapJSON"], swiftSettings: strict),
        .executableTarget(
            name: "PushmapCLI",
            dependencies: [
                "Pushmap", "PushmapJSON", "PushmapOutput", "PushmapPreview", "PushmapTooling",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // How a service embeds the library; built by CI with everything else.
        .executableTarget(
            name: "pushmap-embedding-example",
            // The public API alone, as a team's service has it.
            dependencies: ["Pushmap", .product(name: "Logging", package: "swift-log")],
            path: "examples/embedding-service",
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
            // Read from their paths by OutputStabilityTests, LiquidReferenceTests and PeerCorpusTests, not resources.
            exclude: ["Golden", "LiquidReference", "PeerCorpus"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "PushmapFuzzingTests",
            dependencies: ["PushmapFuzzing", "PushmapJSON"],
            swiftSettings: strict
        ),
        .testTarget(name: "PushmapToolingTests", dependencies: ["PushmapTooling", "Pushmap", "PushmapJSON"], swiftSettings: strict),
        .testTarget(name: "PushmapPreviewTests", dependencies: ["PushmapPreview", "PushmapJSON"], swiftSettings: strict),
        .testTarget(
            name: "PushmapCLITests",
            dependencies: ["PushmapJSON", "PushmapTestSupport"],
            swiftSettings: strict
        ),
        // The built pushmap-server binary, end to end (PUSHMAP_SERVER_BINARY from scripts/test;
        // the server itself is built from Server/).
        .testTarget(
            name: "PushmapServerTests", dependencies: ["PushmapTestSupport"], exclude: ["schemathesis_hooks.py"], swiftSettings: strict),
        // A package that depends on the library, scripts/install and scripts/release, run as a
        // team would; scripts/test runs it alone, after the rest, since it builds.
        .testTarget(name: "PackagingTests", dependencies: ["PushmapTestSupport"], swiftSettings: strict),
    ]
)
