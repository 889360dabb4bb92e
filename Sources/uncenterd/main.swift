import Foundation
import UNServer

/// uncenterd: arguments → configuration → run.
let arguments = Array(CommandLine.arguments.dropFirst())
let configuration: ServerConfiguration
do {
  let (parsed, action) = try ServerConfiguration.parse(arguments)
  switch action {
  case "help":
    print(ServerConfiguration.usage)
    exit(0)
  case "version":
    print("uncenterd \(ServerConfiguration.version)")
    exit(0)
  default:
    configuration = parsed
  }
} catch {
  FileHandle.standardError.write(Data("uncenterd: \(error)\n\(ServerConfiguration.usage)\n".utf8))
  exit(2)
}
do {
  let server = try Server(configuration: configuration, environment: ProcessInfo.processInfo.environment)
  exit(server.run())
} catch {
  LogSink.standardError.flush()  // the lines logged before the failure come first
  FileHandle.standardError.write(Data("uncenterd: \(error)\n".utf8))
  exit(1)
}
