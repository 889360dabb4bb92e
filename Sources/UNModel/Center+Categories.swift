extension Center {
  /// Rule 1: replaces the app's whole category set; on any error the old set stays.
  public func registerCategories(app appId: String, _ categories: [Category]) throws(UNError) -> Int {
    guard categories.count <= configuration.maxCategoriesPerApp else {
      throw .limitExceeded(limit: "maxCategoriesPerApp", value: configuration.maxCategoriesPerApp)
    }
    try Category.validate(categories, maxActions: configuration.maxActionsPerCategory)
    withApp(appId) { $0.categories = categories }
    return categories.count
  }

  public func categories(app appId: String) -> [Category] { apps[appId]?.categories ?? [] }

  /// The warnings for the category a request names (none, or the one of
  /// `unknownCategoryWarning`), remembered per app until its categories change.
  /// Inlined: called, it retained and released the app its caller already holds.
  @inline(__always)
  func categoryWarnings(_ identifier: String, app: AppState?) -> [String] {
    guard let app else { return unknownCategoryWarning(identifier, registered: []).map { [$0] } ?? [] }
    // Same bytes, not just `==` (canonical equivalence): the warning quotes the name as
    // the request spelled it.
    if let cached = app.categoryWarningIdentifier, sameUTF8(cached, identifier) { return app.categoryWarnings }
    let warnings = unknownCategoryWarning(identifier, registered: app.categories).map { [$0] } ?? []
    app.categoryWarningIdentifier = identifier
    app.categoryWarnings = warnings
    return warnings
  }

  /// The same for a category identifier's UTF-8 (valid): its string is built only when
  /// it is not the app's last one.
  @inline(__always)
  func categoryWarnings(_ identifier: UnsafeBufferPointer<UInt8>, app: AppState?) -> [String] {
    if let app, let cached = app.categoryWarningIdentifier, sameUTF8(cached, identifier) {
      return app.categoryWarnings
    }
    return categoryWarnings(String(decoding: identifier, as: UTF8.self), app: app)
  }

  /// The warning for a category that is not registered, with a near-miss suggestion:
  /// a registered identifier equal but for case, else within edit distance 2.
  func unknownCategoryWarning(_ identifier: String, registered: [Category]) -> String? {
    guard !identifier.isEmpty, !registered.contains(where: { $0.identifier.exactlyEquals(identifier) }) else {
      return nil
    }
    let base = "category '" + identifier + "' is not registered"
    guard !registered.isEmpty else { return base }
    let lower = identifier.lowercased()
    if let exact = registered.first(where: { $0.identifier.lowercased() == lower }) {
      return base + "; did you mean '\(exact.identifier)'?"
    }
    var best: (String, Int)?
    for c in registered {
      let d = editDistance(lower, c.identifier.lowercased(), limit: 2)
      if d <= 2, d < identifier.count, best == nil || d < best!.1 { best = (c.identifier, d) }
    }
    return best.map { base + "; did you mean '\($0.0)'?" } ?? base
  }
}

/// Levenshtein distance, giving up (returning limit + 1) once it must exceed `limit`.
public func editDistance(_ a: String, _ b: String, limit: Int) -> Int {
  let x = Array(a.unicodeScalars)
  let y = Array(b.unicodeScalars)
  if abs(x.count - y.count) > limit { return limit + 1 }
  var previous = Array(0...y.count)
  var current = [Int](repeating: 0, count: y.count + 1)
  for i in 1...max(x.count, 1) where !x.isEmpty {
    current[0] = i
    var rowMin = i
    for j in 1...max(y.count, 1) where !y.isEmpty {
      let cost = x[i - 1] == y[j - 1] ? 0 : 1
      current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
      rowMin = min(rowMin, current[j])
    }
    if rowMin > limit { return limit + 1 }
    swap(&previous, &current)
  }
  return x.isEmpty ? y.count : previous[y.count]
}
