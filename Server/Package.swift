// swift-tools-version: 6.0
import PackageDescription

// pushmap-server: a package of its own, so that the library's dependents never fetch the HTTP
// stack (see the root Package.swift). It uses the library and the support targets of the
// package one folder up.

// The root package's strict settings.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "pushmap-server",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "pushmap-server", targets: ["PushmapServer"]),
    ],
    dependencies: [
        // Named, so that the products resolve whatever the folder of the checkout is called.
        .package(name: "pushmap", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/hummingbird-project/swift-openapi-hummingbird", from: "2.1.0"),
    ],
    targets: [
        // The routes of openapi.yaml on Hummingbird, metrics for Prometheus. The routes and their
        // types are generated from openapi.yaml by scripts/openapi-generate into Generated/.
        .executableTarget(
            name: "PushmapServer",
            dependencies: [
                .product(name: "Pushmap", package: "pushmap"),
                .product(name: "_PushmapServerSupport", package: "pushmap"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
            ],
            exclude: ["openapi.yaml"],
            swiftSettings: strict,
            plugins: ["EmbedServerFiles"]
        ),
        // The routes in process, through HummingbirdTesting: each route's answers and errors, and
        // the middleware's order (Tests/PushmapServerTests run the built binary, for deployment).
        .testTarget(
            name: "PushmapServerRouteTests",
            dependencies: [
                "PushmapServer",
                .product(name: "Pushmap", package: "pushmap"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ],
            swiftSettings: strict
        ),
        .plugin(
            name: "EmbedServerFiles",
            capability: .buildTool(),
            dependencies: [.product(name: "EmbedScriptsTool", package: "pushmap")]
        ),
    ]
)
