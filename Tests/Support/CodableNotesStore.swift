import Foundation
import Observation
import Stores

/// A store of one's own on a `CodableState`: notes with dates, through `Codable` — kept by
/// `stores-writer codable` in a process of its own and read by the tests of Codable stores.
@MainActor @Observable
public final class CodableNotesStore: Store {
  public struct Note: Codable, Equatable, Sendable {
    public var text: String
    public var date: Date

    public init(text: String, date: Date) {
      self.text = text
      self.date = date
    }
  }

  public struct State: CodableState {
    public var notes: [Note] = []

    public init() {}
  }

  public enum Action: Sendable { case add(Note) }

  public nonisolated static func reduce(_ state: inout State, _ action: Action) -> Bool {
    guard case .add(let note) = action else { return false }
    state.notes.append(note)
    return true
  }

  @ObservationIgnored public let core: StoreCore<CodableNotesStore>

  public init(contentsOf url: URL) throws {
    core = try CodableNotesStore.fileCore(contentsOf: url)
  }
}
