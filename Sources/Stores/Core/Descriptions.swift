import Foundation

// Descriptions a person reads — in `print`, a debugger and a failed test's message — written
// as Swift would write the value, showing only what the public API holds.

extension Todo: CustomStringConvertible {
  /// The todo as a person writes it: its title, then whether it is done and its priority
  /// when they are not the defaults — `Todo("Buy milk", priority: 2)`. Its id and date are
  /// left out (`dump(todo)` shows them).
  public var description: String {
    var parts = [String(reflecting: title)]
    if isDone { parts.append("isDone: true") }
    if priority != 0 { parts.append("priority: \(priority)") }
    return "Todo(\(parts.joined(separator: ", ")))"
  }
}

extension Workout: CustomStringConvertible {
  /// The workout as a person writes it: its name, distance in kilometres and date (in ISO
  /// 8601), then its complexity, duration and sport when they are not the defaults —
  /// `Workout("Run", distance: 5.2, date: 2026-11-29T07:30:00Z)`. Its id is left out.
  public var description: String {
    var parts = [
      String(reflecting: name), "distance: \(storedDistance.kilometersText)",
      "date: \(Readable.describe(date))",
    ]
    if complexity != .medium { parts.append("complexity: .\(complexity.name)") }
    if let duration { parts.append("duration: \(Readable.describe(duration))") }
    if let sport { parts.append("sport: \(String(reflecting: sport.name))") }
    return "Workout(\(parts.joined(separator: ", ")))"
  }
}

extension Workout: CustomReflectable {
  /// The public fields — the distance in kilometres, not as files hold it — so that a test's
  /// diff names only what the API holds.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "id": id, "name": name, "distance": distance, "date": date, "complexity": complexity,
        "duration": duration as Any, "sport": sport as Any,
      ], displayStyle: .struct)
  }
}

extension WorkoutsStore.State: CustomReflectable {
  /// The public fields: the workouts, the sort, the order added while sorted (which `==`
  /// compares too), and the import status — not the index of ids kept beside them.
  public var customMirror: Mirror {
    var children: KeyValuePairs<String, Any> {
      guard sortType != nil else {
        return ["workouts": workouts, "sortType": sortType as Any, "importStatus": importStatus]
      }
      return [
        "workouts": workouts, "sortType": sortType as Any,
        "workoutsInAddedOrder": workoutsInAddedOrder, "importStatus": importStatus,
      ]
    }
    return Mirror(self, children: children, displayStyle: .struct)
  }
}

extension SettingsStore.State.Values: CustomReflectable {
  /// The values by key name, as a dictionary: a test's diff names a key as
  /// `.values["sleepGoal"]`.
  public var customMirror: Mirror {
    Mirror(self, unlabeledChildren: Array(self), displayStyle: .dictionary)
  }
}

extension SettingsStore.State.Values: CustomStringConvertible {
  /// The values as a dictionary literal, by key name in order: `["sleepGoal": .number(7.5)]`.
  public var description: String {
    guard !isEmpty else { return "[:]" }
    let pairs = sorted { $0.key.unicodeScalars.lexicographicallyPrecedes($1.key.unicodeScalars) }
    return "["
      + pairs.map { "\(String(reflecting: $0.key)): \(Readable.describe($0.value))" }
      .joined(separator: ", ") + "]"
  }
}

extension StoreChange: CustomStringConvertible {
  /// The change as a person writes it: `.action(.addTodo(Todo("Buy milk")))` or `.reload`.
  public var description: String {
    guard let action else { return ".reload" }
    return ".action(\(Readable.describe(action)))"
  }
}

extension UndoHistory: CustomStringConvertible {
  /// The steps' names, oldest first on each side: `UndoHistory(undo: ["Add Todo"], redo: [])`.
  public var description: String {
    "UndoHistory(undo: \(Readable.describe(undoSteps.map(\.name))), "
      + "redo: \(Readable.describe(redoSteps.map(\.name))))"
  }
}

extension UndoHistory.Step: CustomStringConvertible {
  /// The step as a person writes it: `Step(action: .removeTodos(ids: […]), name: "Add Todo")`.
  public var description: String {
    "Step(action: \(Readable.describe(action)), name: \(String(reflecting: name)))"
  }
}

extension JSONNumber: CustomReflectable {
  /// No parts: a number is compared and shown whole, as its text (`7.5`).
  public var customMirror: Mirror { Mirror(self, children: [:]) }
}

extension DatePattern: CustomReflectable {
  /// The pattern, as given (`"dd/MM/yyyy"`).
  public var customMirror: Mirror {
    Mirror(self, children: ["pattern": pattern], displayStyle: .struct)
  }
}

extension ListRun: CustomReflectable {
  /// The public fields: the elements, where they stood and their offset.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "elements": elements, "before": before as Any, "after": after as Any, "offset": offset,
      ],
      displayStyle: .struct)
  }
}

extension SettingsStore.ValueChanges: CustomReflectable {
  /// The changes, as the array they are written as.
  public var customMirror: Mirror {
    Mirror(self, unlabeledChildren: Array(self), displayStyle: .collection)
  }
}
