// swift-tools-version: 6.1
// Fuzz targets of gestured (libFuzzer), in their own package so the main build and tests do
// not carry them. Built and run by `make fuzz` / `make fuzz-smoke` (mk/fuzz.mk), which
// instrument every module with AddressSanitizer and libFuzzer's coverage and link
// libFuzzer without its `main`: each target's own `main` hands its entry point to
// `LLVMFuzzerRunDriver` (SwiftPM renames an executable's `main`, which rules out the
// usual `-sanitize=fuzzer` link).
import PackageDescription

let gestured: [Target.Dependency] = [
    .product(name: "GestureCore", package: "gestured"),
    .product(name: "TouchInput", package: "gestured"),
    .product(name: "GestureConfig", package: "gestured"),
    .product(name: "TouchPipeline", package: "gestured"),
    .product(name: "GestureDaemon", package: "gestured"),
    .product(name: "SystemLoop", package: "gestured"),
    .product(name: "ActionDispatch", package: "gestured"),
    .product(name: "GestureControl", package: "gestured"),
    .product(name: "JSONOutput", package: "gestured"),
]

let package = Package(
    name: "gestured-fuzz",
    dependencies: [.package(name: "gestured", path: "..")],
    targets: [
        .target(name: "CFuzzer"),
        .target(name: "FuzzSupport", dependencies: ["CFuzzer"] + gestured),
        // evemu recordings and descriptions (file:line errors, never a crash).
        .executableTarget(name: "FuzzEvemu", dependencies: ["FuzzSupport"] + gestured),
        // TOML through validation to the model and an engine built from it.
        .executableTarget(name: "FuzzConfig", dependencies: ["FuzzSupport"] + gestured),
        // Socket message templates: parse, compile, render.
        .executableTarget(name: "FuzzTemplate", dependencies: ["FuzzSupport"] + gestured),
        // The control socket: a real server answering arbitrary bytes from a real client.
        .executableTarget(name: "FuzzControl", dependencies: ["FuzzSupport"] + gestured),
        // Arbitrary evdev streams through the normalizer and the engine, with invariants.
        .executableTarget(name: "FuzzPipeline", dependencies: ["FuzzSupport"] + gestured),
        // What a browser (or anything on loopback) sends gestured-web: the request reader
        // within its bounds, then the Host/Origin checks and the query, with invariants.
        .executableTarget(
            name: "FuzzHTTP", dependencies: ["FuzzSupport", .product(name: "WebBridge", package: "gestured")] + gestured),
    ]
)
