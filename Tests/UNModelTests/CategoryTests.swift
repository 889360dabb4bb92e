import TestSupport
import UNModel
import XCTest

final class CategoryTests: XCTestCase {
  func testRegisterReplacesTheWholeSet() throws {
    let (center, _) = makeCenter()
    XCTAssertEqual(try center.registerCategories(app: "a", [messageCategory, Category(identifier: "other")]), 2)
    XCTAssertEqual(try center.registerCategories(app: "a", [Category(identifier: "only")]), 1)
    XCTAssertEqual(center.categories(app: "a").map(\.identifier), ["only"])
    XCTAssertEqual(center.categories(app: "b"), [], "apps are separate")
  }

  func testInvalidSetLeavesTheOldOneIntact() throws {
    let (center, _) = makeCenter()
    _ = try center.registerCategories(app: "a", [messageCategory])
    assertThrows(.invalidParams(field: "categories[1].identifier", problem: "duplicate identifier 'x'")) {
      () throws(UNError) in
      try center.registerCategories(app: "a", [Category(identifier: "x"), Category(identifier: "x")])
    }
    var dupActions = messageCategory
    dupActions.actions.append(Action(identifier: "reply", title: "again"))
    assertThrows(.invalidParams(field: "categories[0].actions[2].identifier", problem: "duplicate identifier 'reply'"))
    {
      () throws(UNError) in try center.registerCategories(app: "a", [dupActions])
    }
    assertThrows(.invalidParams(field: "categories[0].identifier", problem: "must be a non-empty string")) {
      () throws(UNError) in try center.registerCategories(app: "a", [Category(identifier: "")])
    }
    XCTAssertEqual(center.categories(app: "a"), [messageCategory])
  }

  func testIdentifiersAreCaseSensitive() throws {
    let (center, _) = makeCenter()
    XCTAssertEqual(try center.registerCategories(app: "a", [Category(identifier: "m"), Category(identifier: "M")]), 2)
  }

  func testLimits() {
    let (center, _) = makeCenter {
      $0.maxCategoriesPerApp = 2
      $0.maxActionsPerCategory = 1
    }
    assertThrows(.limitExceeded(limit: "maxCategoriesPerApp", value: 2)) { () throws(UNError) in
      try center.registerCategories(app: "a", (0..<3).map { Category(identifier: "c\($0)") })
    }
    assertThrows(.limitExceeded(limit: "maxActionsPerCategory", value: 1)) { () throws(UNError) in
      try center.registerCategories(app: "a", [messageCategory])
    }
  }
}
