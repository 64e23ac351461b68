import Foundation
import Observation
import Stores

/// A store of one's own on a `CodableState`: nested `Codable` types, dates, optionals, an
/// enumeration with associated values and a dictionary, not one field described by hand.
@MainActor @Observable
final class JournalStore: Store {
  struct Entry: Codable, Equatable, Sendable {
    var id = UUID()
    var text: String
    var date: Date
    var mood: Mood?
    var tags: [String] = []
    var place: Place?
  }

  struct Place: Codable, Equatable, Sendable {
    var latitude: Double
    var longitude: Double
    var name: String?
  }

  enum Mood: Codable, Equatable, Sendable {
    case calm
    case rated(Int)
    case described(String, intensity: Double)
  }

  struct State: CodableState {
    /// Keys before the envelope's `"version"` and after it.
    var author = ""
    var entries: [Entry] = []
    var counts: [String: Int] = [:]
    var zone: String?
  }

  enum Action: Sendable {
    case add(Entry)
    case setAuthor(String)
    case setZone(String?)
    case clear
  }

  nonisolated static func reduce(_ state: inout State, _ action: Action) -> Bool {
    switch action {
    case .add(let entry):
      state.entries.append(entry)
      state.counts[entry.tags.first ?? "untagged", default: 0] += 1
      return true
    case .setAuthor(let author):
      defer { state.author = author }
      return state.author != author
    case .setZone(let zone):
      defer { state.zone = zone }
      return state.zone != zone
    case .clear:
      defer { state = State(author: state.author, zone: state.zone) }
      return !state.entries.isEmpty || !state.counts.isEmpty
    }
  }

  @ObservationIgnored let core: StoreCore<JournalStore>

  init(contentsOf url: URL, lockTimeout: Duration = .defaultLockTimeout) throws {
    core = try JournalStore.fileCore(contentsOf: url, lockTimeout: lockTimeout)
  }
}
