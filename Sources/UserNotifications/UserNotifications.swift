// `import UserNotifications` on Linux: Apple's module name for the same API, so code
// written for iOS builds unchanged.  `UNCenterClient` stays for the explicit name.
@_exported import UNCenterClient
