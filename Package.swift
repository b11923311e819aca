// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "gestured",
    products: [
        .executable(name: "gestured", targets: ["gestured"]),
        .executable(name: "gesturectl", targets: ["gesturectl"]),
        .executable(name: "gestured-web", targets: ["gestured-web"]),
        .library(name: "GestureCore", targets: ["GestureCore"]),
        // For the benchmark package (Benchmarks/), which depends on this one by path.
        .library(name: "TouchInput", targets: ["TouchInput"]),
        .library(name: "ConfigModel", targets: ["ConfigModel"]),
        .library(name: "GestureConfig", targets: ["GestureConfig"]),
        .library(name: "TouchPipeline", targets: ["TouchPipeline"]),
        .library(name: "GestureDaemon", targets: ["GestureDaemon"]),
        .library(name: "SystemLoop", targets: ["SystemLoop"]),
        .library(name: "ActionDispatch", targets: ["ActionDispatch"]),
        .library(name: "GestureControl", targets: ["GestureControl"]),
        // For the fuzz package (Fuzz/): the writer templates render into.
        .library(name: "JSONOutput", targets: ["JSONOutput"]),
        // For the fuzz package (Fuzz/): the web bridge's request reader and checks.
        .library(name: "WebBridge", targets: ["WebBridge"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // 1.11.0: the first with LogEvent (LogHandler.log(event:)), the last Swift 6.0.3 resolves.
        .package(url: "https://github.com/apple/swift-log", from: "1.11.0"),
        .package(url: "https://github.com/ordo-one/malloc-interposer", from: "1.6.1"),
    ],
    targets: [
        // C libraries, headers only.
        .systemLibrary(name: "CEvdev", pkgConfig: "libevdev", providers: [.apt(["libevdev-dev"])]),
        .systemLibrary(name: "CUdev", pkgConfig: "libudev", providers: [.apt(["libudev-dev"])]),
        .systemLibrary(name: "CMtdev", pkgConfig: "mtdev", providers: [.apt(["libmtdev-dev"])]),
        // libinput record files (YAML) for gesturectl: Debian's libyaml, not a copy of it.
        .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
        .target(name: "CLinuxShims", cSettings: [.define("_GNU_SOURCE")]),
        // toml++ (Debian's libtomlplusplus-dev, header-only) behind a C function: the parser
        // frees what it allocates, which TOMLKit 0.6.0 did not (33 KB lost per reload).
        .target(name: "CTOMLPlusPlus"),

        // Pure: geometry, touches, views, recognizers, arbitration; frames arrive in screen px
        // and mm. No I/O, no clock.
        .target(name: "GestureCore"),
        // The bottom system layer: errno errors with the path, the descriptor owner, the
        // EINTR-retrying read and write, the one whole-file reader, Unix socket addresses,
        // the one process spawner.
        .target(name: "LinuxSystem", dependencies: ["CLinuxShims"]),
        // JSON text without Foundation: the reused-buffer writer and number formatting.
        .target(name: "JSONOutput"),
        // evdev normalizer, libevdev devices, udev discovery and hotplug, evemu files.
        .target(name: "TouchInput", dependencies: ["GestureCore", "LinuxSystem", "JSONOutput", "CEvdev", "CUdev", "CMtdev", "CLinuxShims"]),
        // The configuration model: plain values the pipeline, the control requests and the
        // daemon run on (the `Configuration`, device rules, frames, units, warnings and
        // diagnostics with their positions), without the TOML reader.
        .target(name: "ConfigModel", dependencies: ["GestureCore"]),
        // The TOML loader: schema, validation with positions, model building. Re-exports
        // ConfigModel (what it builds). libevdev for the key names of `keys` actions (its
        // table of input-event-codes.h).
        .target(name: "GestureConfig", dependencies: [
            "ConfigModel", "GestureCore", "LinuxSystem", "CTOMLPlusPlus", "CEvdev",
        ]),
        // What the daemon and gesturectl share: the JSON value and parser, the control
        // commands' table and their typed requests (the runtime commands' too, for the
        // pipeline and `replay --script`), the control client, the status model and its
        // renderers (JSON, text, Prometheus), monitor lines. ConfigModel for the frame lengths
        // and durations a request gives.
        .target(name: "GestureControl", dependencies: ["GestureCore", "ConfigModel", "JSONOutput", "LinuxSystem"]),
        // The one road from raw events to gesture events and the clones' frames, live or
        // replayed: normalizers, each device's geometry, the frame stages, the engine, the
        // touch encoders, the runtime changes. Pure: no sockets, no processes, no clock of its
        // own. ConfigModel for the `Configuration` it runs (the model and the `[[device]]`
        // rules), not the TOML loader; GestureControl for the runtime commands' typed requests it takes and the
        // JSON of the updates they make.
        .target(name: "TouchPipeline", dependencies: ["GestureCore", "TouchInput", "ConfigModel", "GestureControl"]),
        // The daemon's system layer, as swift-nio keeps NIOPosix apart: the epoll event loop,
        // its clocks (the one place the monotonic clock is read), deadline timers, signals.
        .target(name: "SystemLoop", dependencies: ["GestureCore", "LinuxSystem", "CLinuxShims"]),
        // What running a gesture's actions takes, for the daemon and for `gesturectl replay
        // --run-actions` alike: the dispatcher (commands, socket messages), the event JSON they
        // carry, logging (stderr and journald).
        .target(name: "ActionDispatch", dependencies: [
            "SystemLoop", "GestureCore", "LinuxSystem", "JSONOutput", "ConfigModel", "GestureConfig", "GestureControl", "CLinuxShims",
            .product(name: "Logging", package: "swift-log"),
        ]),
        // The daemon: inputs, the control socket and status, reloads, the clones' device
        // writes, systemd's notifications.
        .target(name: "GestureDaemon", dependencies: [
            "ActionDispatch", "SystemLoop", "GestureCore", "LinuxSystem", "JSONOutput", "TouchInput", "GestureConfig", "GestureControl",
            "TouchPipeline", "CLinuxShims",
            .product(name: "Logging", package: "swift-log"),
        ]),
        .executableTarget(name: "gestured", dependencies: [
            "GestureDaemon", "ActionDispatch", "SystemLoop", "GestureControl", "GestureConfig",
            .product(name: "Logging", package: "swift-log"),
        ]),
        // gesturectl render: configs and recordings as SVG (PNG through rsvg-convert).
        .target(name: "GesturePicture", dependencies: ["GestureCore", "ConfigModel", "GestureConfig", "GestureControl", "TouchPipeline", "TouchInput", "LinuxSystem"]),
        // `libinput record` files (YAML) as recordings, for gesturectl (the daemon does not link libyaml).
        .target(name: "LibinputRecord", dependencies: ["TouchInput", "LinuxSystem", "CYAML"]),
        .executableTarget(name: "gesturectl", dependencies: [
            "ActionDispatch", "SystemLoop", "GestureControl", "ConfigModel", "GestureConfig", "TouchInput", "TouchPipeline", "LinuxSystem",
            "JSONOutput",
            "GesturePicture", "LibinputRecord",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // The web bridge (its own process, not linked into the daemon): HTTP on one epoll loop
        // for kiosk pages, as a client of the control socket: the event stream as Server-Sent
        // Events, set/mode/reset per page session, status, metrics, the live view.
        .target(name: "WebBridge", dependencies: ["GestureControl", "GestureCore", "JSONOutput", "LinuxSystem", "SystemLoop", "CLinuxShims"]),
        .executableTarget(name: "gestured-web", dependencies: [
            "WebBridge", "GestureControl", "GestureConfig", "GestureCore", "GesturePicture", "LinuxSystem", "SystemLoop",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        // Shared test helpers: frame builders, the harness that drives frames through the
        // pipeline's FramePath, the location of ../shared/recordings.
        .target(name: "TestSupport", dependencies: ["GestureCore", "GestureConfig", "TouchPipeline", "LinuxSystem"], path: "Tests/TestSupport"),
        // Runs frames through the pipeline's FramePath (geometry, stages, engine) under the
        // malloc interposer (LD_PRELOAD); GestureCoreTests spawns it.
        .executableTarget(name: "EngineAllocationProbe", dependencies: [
            "GestureCore", "GestureConfig", "TouchPipeline", "TestSupport",
            .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
        ], path: "Tests/EngineAllocationProbe"),
        .testTarget(name: "GestureCoreTests", dependencies: ["GestureCore", "TestSupport", "EngineAllocationProbe"]),
        .testTarget(name: "LinuxSystemTests", dependencies: ["LinuxSystem"]),
        .testTarget(name: "JSONOutputTests", dependencies: ["JSONOutput"]),
        // The loop, its timers and signals; that only the clock type reads the monotonic clock.
        .testTarget(name: "SystemLoopTests", dependencies: ["SystemLoop", "DaemonTestSupport", "LinuxSystem", "TestSupport"]),
        // The status model against its JSON, docs/PROTOCOL.md, docs/MONITORING.md and promtool;
        // the commands' table against PROTOCOL.md, their typed requests.
        .testTarget(name: "GestureControlTests", dependencies: ["GestureControl", "GestureConfig", "GestureCore", "LinuxSystem"]),
        .testTarget(name: "TouchInputTests", dependencies: ["TouchInput", "LinuxSystem", "JSONOutput", "TestSupport"]),
        // The engine over real recordings, replayed as `gesturectl replay` replays them
        // (`VirtualReplay` through the pipeline, its output stream kept).
        .testTarget(name: "EngineRecordingTests", dependencies: ["GestureCore", "GestureConfig", "TouchInput", "TouchPipeline", "TestSupport"]),
        // The pipeline's pure parts on their own: frame stages, the touch encoder, the runtime state.
        .testTarget(name: "TouchPipelineTests", dependencies: ["TouchPipeline", "GestureCore", "TouchInput", "GestureConfig", "GestureControl", "TestSupport"]),
        .testTarget(name: "GestureConfigTests", dependencies: ["GestureConfig", "TouchInput", "LinuxSystem", "TestSupport"]),
        // The daemon's per-event path (event JSON, templates, publishing, socket actions)
        // under the malloc interposer.
        .executableTarget(name: "DaemonAllocationProbe", dependencies: [
            "GestureDaemon", "ActionDispatch", "SystemLoop", "GestureControl", "GestureConfig", "GestureCore", "TouchInput", "JSONOutput",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
        ], path: "Tests/DaemonAllocationProbe"),
        // What the tests of the daemon's modules share: serving a loop, a listening socket,
        // small configurations.
        .target(name: "DaemonTestSupport", dependencies: ["ActionDispatch", "SystemLoop", "GestureConfig", "GestureCore", "LinuxSystem", "CLinuxShims"],
                path: "Tests/DaemonTestSupport"),
        // The dispatcher (commands, socket actions), the event JSON, logging.
        .testTarget(name: "ActionDispatchTests", dependencies: [
            "ActionDispatch", "SystemLoop", "DaemonTestSupport", "GestureConfig", "GestureControl", "GestureCore", "TouchPipeline", "TouchInput",
            "LinuxSystem", "JSONOutput", "TestSupport",
        ]),
        // The daemon: its control server, runtime changes, health actions, the clones' device
        // writes, systemd's notifications, its per-event path under the malloc interposer.
        .testTarget(name: "GestureDaemonTests", dependencies: [
            "GestureDaemon", "ActionDispatch", "SystemLoop", "GestureConfig", "GestureControl", "GestureCore", "TouchPipeline", "LinuxSystem", "JSONOutput", "TestSupport", "DaemonAllocationProbe",
            "DaemonTestSupport", "gesturectl",
        ]),
        // libinput record files against the evemu file they were written from.
        .testTarget(name: "LibinputRecordTests", dependencies: ["LibinputRecord", "LinuxSystem", "TestSupport", "gesturectl"],
                    exclude: ["Fixtures"]),
        // The bridge's parts on their own: requests read within bounds, the Host and Origin checks, the filter.
        .testTarget(name: "WebBridgeTests", dependencies: ["WebBridge", "GestureControl", "CLinuxShims", "GestureCore", "LinuxSystem", "SystemLoop", "TestSupport"]),
        // Pictures parsed back as XML: every view, gesture, contact and outcome with its geometry.
        .testTarget(name: "GesturePictureTests", dependencies: ["GesturePicture", "TouchPipeline", "TestSupport", "gesturectl"]),
        // The real gestured and gesturectl binaries on real recordings (--replay, replay --json goldens).
        .testTarget(name: "IntegrationTests", dependencies: ["GestureDaemon", "ActionDispatch", "SystemLoop", "GestureControl", "LinuxSystem", "TestSupport", "gestured", "gesturectl", "gestured-web"],
                    exclude: ["Goldens"]),
    ],
    cxxLanguageStandard: .cxx17
)
