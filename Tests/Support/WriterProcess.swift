import Foundation

/// The `stores-writer` process: a writer on the library in a process of its own (see
/// Tests/StoresWriter/main.swift), for the tests of two processes on one file.
public enum WriterProcess {
  /// Starts `stores-writer KIND FILE COUNT TAG`, its output discarded, with its local state
  /// (its device id) in a folder of its own beside `file` (`STORES_STATE_HOME`).
  public static func start(_ kind: String, _ file: URL, count: Int, tag: String) throws
    -> Process
  {
    let process = Process()
    let state = file.deletingLastPathComponent().appendingPathComponent("state-\(tag)")
    process.environment = ProcessInfo.processInfo.environment.merging([
      "STORES_STATE_HOME": state.path
    ]) { $1 }
    process.executableURL = BuildProducts.executable("stores-writer")
    process.arguments = [kind, file.path, "\(count)", tag]
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    return process
  }
}
