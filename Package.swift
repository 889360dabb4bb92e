// swift-tools-version:6.0
// uncenter: a UserNotifications-style notification daemon for Linux.
import PackageDescription

/// Release builds of the daemon's own request path skip the runtime exclusivity checks
/// (debug builds and the test suite keep them): the loop-confined design has no
/// concurrent access for them to catch.  Only daemon targets carry it: SwiftPM refuses
/// unsafe flags in a package depended on by version, so every module a client library
/// depends on (JSONRPC, UNEndpoint, UNModel, UNProtocol) builds without them; UNModel's
/// loop-owned classes mark their stored properties `@exclusivity(unchecked)` instead
/// (BENCHMARKS.md has what each costs).
let hotPath: [SwiftSetting] = [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]

let package = Package(
  name: "uncenter",
  products: [
    .executable(name: "uncenterd", targets: ["uncenterd"]),
    .executable(name: "unctl", targets: ["unctl"]),
    .library(name: "UNCenterClient", targets: ["UNCenterClient"]),
    .library(name: "UserNotifications", targets: ["UserNotifications"]),
  ],
  targets: [
    // libuv from Debian's libuv1-dev; UVLoop is the only module that imports it.
    .systemLibrary(
      name: "CLibUV",
      pkgConfig: "libuv",
      providers: [.apt(["libuv1-dev"])]
    ),
    // SQLite from Debian's libsqlite3-dev, for the durable state store.
    .systemLibrary(
      name: "CSQLite",
      pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"])]
    ),
    // sd-bus from Debian's libsystemd-dev: headers only, the library is dlopen'ed
    // (Sources/CSystemd/shim.h says why), so no pkgConfig and nothing to link.
    .systemLibrary(name: "CSystemd", path: "Sources/CSystemd"),
    // The per-thread file-system identity calls (setfsuid, setfsgid, setgroups) that read
    // a client's attachment as that client: headers only, nothing to link.
    .systemLibrary(name: "CFileIdentity", path: "Sources/CFileIdentity"),
    // Pure: the byte-level JSON codec, JSON-RPC 2.0 messages, errors and framers.  No
    // unsafe flags: the client libraries depend on it.
    .target(name: "JSONRPC"),
    // Where the daemon listens and its clients connect: shared by uncenterd, unctl and the client.
    .target(name: "UNEndpoint"),
    // Pure domain: categories, content, triggers, the Center state machine, clocks.
    .target(name: "UNModel"),
    // The protocol both sides share: the wire shapes' descriptor tables (decoding, encoding,
    // OpenRPC properties) and the params reader, imported by the daemon, unctl and the client.
    .target(name: "UNProtocol", dependencies: ["JSONRPC", "UNModel"]),
    // Persistence behind a protocol: in memory, or SQLite (WAL) in a state directory.
    .target(name: "UNStore", dependencies: ["CSQLite"]),
    // The libuv event loop: loop, pipe server, stream connections, timers, signals.
    .target(name: "UVLoop", dependencies: ["CLibUV"]),
    // The desktop bridge: the center's banners on org.freedesktop.Notifications.
    .target(name: "UNDesktop", dependencies: ["UNModel", "UVLoop", "CSystemd"]),
    // Wiring: method table, sessions, callbacks, configuration, the daemon.
    .target(
      name: "UNServer",
      dependencies: ["JSONRPC", "UNEndpoint", "UNModel", "UNProtocol", "UNStore", "UVLoop", "UNDesktop", "CFileIdentity"],
      swiftSettings: hotPath),
    .executableTarget(name: "uncenterd", dependencies: ["UNServer"]),
    // Clients: the connection used by unctl, tests and the UserNotifications-shaped API.
    .target(name: "UNCenterClient", dependencies: ["JSONRPC", "UNEndpoint", "UNModel", "UNProtocol"]),
    // Apple's module name for the client, so `import UserNotifications` code builds unchanged.
    .target(name: "UserNotifications", dependencies: ["UNCenterClient"]),
    .executableTarget(name: "unctl", dependencies: ["UNCenterClient", "JSONRPC", "UNEndpoint", "UNProtocol"]),
    // The Polish seed's AppDelegate, ported to UNCenterClient almost line for line.
    .executableTarget(name: "PolishChatExample", dependencies: ["UserNotifications"], path: "Examples/PolishChat"),
    // Micro-benchmark: parse + encode of a typical request.
    .executableTarget(name: "JSONBench", dependencies: ["JSONRPC"]),

    // What the test targets share: the daemon launcher, a raw socket, the build products, JSON literals, fixtures.
    .target(name: "TestSupport", dependencies: ["JSONRPC", "UNCenterClient", "UNModel"], path: "Tests/TestSupport"),
    .testTarget(name: "JSONRPCTests", dependencies: ["JSONRPC", "TestSupport"], exclude: ["JSONTestSuite"]),
    .testTarget(name: "UNModelTests", dependencies: ["UNModel", "TestSupport"]),
    .testTarget(name: "UVLoopTests", dependencies: ["UVLoop"]),
    .testTarget(name: "UNStoreTests", dependencies: ["UNStore", "CSQLite", "TestSupport"]),
    .testTarget(name: "UNDesktopTests", dependencies: ["UNDesktop", "UNModel", "TestSupport"]),
    .testTarget(name: "UNServerTests", dependencies: ["UNServer", "UNProtocol", "JSONRPC", "UNModel", "UNDesktop", "TestSupport"]),
    .testTarget(name: "UNCenterClientTests", dependencies: ["UNCenterClient", "JSONRPC", "TestSupport"]),
    // Code written as Apple's documentation writes it, run against a real daemon.
    .testTarget(name: "AppleSampleCodeTests", dependencies: ["UserNotifications", "JSONRPC", "TestSupport", "uncenterd"]),
    .testTarget(name: "unctlTests", dependencies: ["JSONRPC", "UNCenterClient", "TestSupport", "unctl", "uncenterd"]),
    .testTarget(name: "EndToEndTests", dependencies: ["JSONRPC", "UNCenterClient", "TestSupport", "uncenterd", "unctl", "PolishChatExample"]),
  ]
)
