import Foundation
import Stores

// The fuzz target of the file decoders: any bytes, as a settings, todos or workouts file,
// must be refused with a StoreFileError or read — never crash — and what is read must
// write back and read again to an equal state.
//
// Built with `.ci/fuzz`, which adds `-sanitize=fuzzer -DFUZZING`: libFuzzer then provides
// `main` and calls `LLVMFuzzerTestOneInput`. Built normally, `main` below replays the
// files given as arguments, which is how the tests run the corpus of past crashes.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  checkFile(Data(bytes: bytes, count: count))
  return 0
}

/// Reads `data` as each kind of file; checks the round trip of what reads.
func checkFile(_ data: Data) {
  roundTrip(data, as: KeyValues.self)
  roundTrip(data, as: TodosStore.State.self)
  roundTrip(data, as: WorkoutsStore.State.self)
  checkCatalog(data)
}

/// Reads `data` as a key catalog: each key it describes must read back from its own entry,
/// and check a value of its default without a crash.
func checkCatalog(_ data: Data) {
  for key in SettingsCatalog(parsing: data, name: "fuzz.keys.json").keys {
    guard (try? SettingsKeyDescription(entry: key.json)) == key,
      AnySettingsKey(described: key).problem(with: key.defaultValue) == nil
        || key.allowedValues != .any
    else { fatalError("the key catalog's \(key.name) did not survive a round trip") }
  }
}

func roundTrip<State: PersistentState>(_ data: Data, as type: State.Type) {
  let path = "fuzz.json"
  guard let state: State = try? StateFileCoding.decode(data, path: path) else { return }
  // Dates outside the years 1…9999 cannot be written, and are refused then: fine.
  guard let written = try? StateFileCoding.encode(state, path: path) else { return }
  guard let reread: State = try? StateFileCoding.decode(written, path: path), reread == state else {
    fatalError("\(State.self) did not survive a round trip")
  }
}

#if !FUZZING
  @main
  enum Replay {
    static func main() {
      for path in CommandLine.arguments.dropFirst() {
        guard let data = FileManager.default.contents(atPath: path) else {
          FileHandle.standardError.write(Data("stores-fuzz: cannot read \(path)\n".utf8))
          exit(66)
        }
        checkFile(data)
      }
    }
  }
#endif
