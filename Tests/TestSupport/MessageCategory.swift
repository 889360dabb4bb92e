import UNModel

/// The Polish chat's "message" category, as the examples and scenarios register it:
/// reply (text input, foreground), delete (destructive), and a custom dismiss action.
public let messageCategory = Category(
  identifier: "message",
  actions: [
    Action(
      identifier: "reply", title: "Odpowiedz", options: [.foreground],
      textInput: TextInput(buttonTitle: "Wyślij", placeholder: "Wpisz wiadomość...")),
    Action(identifier: "delete", title: "Usuń", options: [.destructive]),
  ],
  options: [.customDismissAction])
