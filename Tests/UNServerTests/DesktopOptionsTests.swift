import UNDesktop
import XCTest

@testable import UNServer

/// `--desktop` and `--desktop-bus` (README.md, "On the desktop"): off by default, precise
/// usage errors.
final class DesktopOptionsTests: XCTestCase {
  func testDefaultIsOff() throws {
    let config = try ServerConfiguration.parse([]).0
    XCTAssertEqual(config.desktop, .off)
    XCTAssertNil(config.desktopBus)
  }

  func testModesAndBusAddressWithGuid() throws {
    for mode in DesktopMode.allCases {
      XCTAssertEqual(try ServerConfiguration.parse(["--desktop", mode.rawValue]).0.desktop, mode)
    }
    let address = "unix:path=/tmp/bus,guid=0123456789abcdef0123456789abcdef"
    XCTAssertEqual(try ServerConfiguration.parse(["--desktop-bus", address]).0.desktopBus, address)
    // The inline form splits at the first '=' only: the address keeps its own.
    XCTAssertEqual(try ServerConfiguration.parse(["--desktop-bus=" + address]).0.desktopBus, address)
    // A later --desktop wins (make run passes --desktop auto before ARGS).
    XCTAssertEqual(try ServerConfiguration.parse(["--desktop", "auto", "--desktop", "off"]).0.desktop, .off)
  }

  func testBadValuesAreNamed() {
    XCTAssertThrowsError(try ServerConfiguration.parse(["--desktop", "gnome"])) { error in
      XCTAssertEqual("\(error)", "--desktop: 'gnome' is not off, auto or freedesktop")
    }
    XCTAssertThrowsError(try ServerConfiguration.parse(["--desktop-bus", ""])) { error in
      XCTAssertEqual("\(error)", "--desktop-bus needs a D-Bus address")
    }
    XCTAssertThrowsError(try ServerConfiguration.parse(["--desktop"]))
  }

  func testHelpListsTheOptions() {
    XCTAssertTrue(ServerConfiguration.usage.contains("--desktop MODE"))
    XCTAssertTrue(ServerConfiguration.usage.contains("--desktop-bus ADDRESS"))
  }
}
