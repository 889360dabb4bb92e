/// The app found by the center's last lookup and its id: calls come in runs for one app,
/// and comparing its id is cheaper than hashing it.  Forgotten whenever the center's
/// `apps` change.  Two fields, not an optional pair: reading the pair copied it
/// (retaining the app) before the id was even compared.
struct AppLookupCache {
  var id: String?
  var app: AppState?

  mutating func forget() {
    id = nil
    app = nil
  }
}
