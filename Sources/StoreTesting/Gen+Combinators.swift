extension Gen {
  /// A generator that transforms every value of this one. Shrinks exactly like `self`
  /// (the transform is re-applied to each shrunk value).
  public func map<T>(_ transform: @escaping @Sendable (Value) -> T) -> Gen<T> {
    Gen<T> { source in transform(try self.run(&source)) }
  }

  /// A generator whose second stage depends on the first value, e.g. an array whose length is
  /// itself generated. Both stages draw from the same choice sequence, so shrinking simplifies
  /// the first value and the dependent value together.
  public func flatMap<T>(_ transform: @escaping @Sendable (Value) -> Gen<T>) -> Gen<T> {
    Gen<T> { source in
      let first = try self.run(&source)
      return try transform(first).run(&source)
    }
  }

  /// A generator of the values of `self` that satisfy `predicate`.
  ///
  /// Draws up to `maxAttempts` candidates per value; if all are rejected, generation fails with
  /// a `GenerationError` (reported by `check`) instead of looping forever. Prefer constructing
  /// valid values directly when the predicate rejects most candidates.
  public func filter(
    maxAttempts: Int = 100, _ predicate: @escaping @Sendable (Value) -> Bool
  ) -> Gen<Value> {
    precondition(maxAttempts > 0, "Gen.filter needs a positive maxAttempts")
    return Gen { source in
      for _ in 0..<maxAttempts {
        let candidate = try self.run(&source)
        if predicate(candidate) {
          return candidate
        }
      }
      throw GenerationError(
        "Gen.filter rejected \(maxAttempts) candidates in a row; "
          + "generate valid values directly or loosen the predicate")
    }
  }

  /// A generator that produces `nil` about 20% of the time and a value of `self` otherwise.
  /// Shrinks toward `nil`.
  public var optional: Gen<Value?> {
    Gen<Value?> { source in
      let intended = source.random { random, _ in random.nextBool(probability: 0.8) } ?? false
      guard try source.drawBool(intended: intended) else { return nil }
      return try self.run(&source)
    }
  }

  /// A generator that picks one of `generators` uniformly, then draws from it.
  /// Shrinks toward the first alternative. - Precondition: at least one generator.
  public static func oneOf(_ generators: Gen<Value>...) -> Gen<Value> {
    oneOf(generators)
  }

  /// A generator that picks one of `generators` uniformly, then draws from it.
  /// Shrinks toward the first alternative. - Precondition: at least one generator.
  public static func oneOf(_ generators: [Gen<Value>]) -> Gen<Value> {
    frequency(generators.map { (1, $0) })
  }

  /// A generator that picks an alternative with probability proportional to its weight, then
  /// draws from it. Shrinks toward the first alternative, so list the simplest one first.
  /// Inside a collection (a sequence of actions, say), 3 collections in 4 are *swarms*: their
  /// elements pick only among a random half of the alternatives, so some kinds are left out
  /// altogether and the others go deeper (an action that undoes the others' work is absent
  /// from many sequences). O(number of alternatives) per value.
  /// - Precondition: at least one alternative; every weight is positive.
  public static func frequency(_ alternatives: [(Int, Gen<Value>)]) -> Gen<Value> {
    precondition(!alternatives.isEmpty, "Gen.frequency needs at least one alternative")
    precondition(alternatives.allSatisfy { $0.0 > 0 }, "Gen.frequency needs positive weights")
    let weights = alternatives.map(\.0)
    let generators = alternatives.map(\.1)
    let identity = SwarmIdentity()
    return Gen { source in
      var swarm = source.swarm
      let intended =
        source.random { random, _ in
          let allowed = swarm?.alternatives(
            of: ObjectIdentifier(identity), count: weights.count, using: &random)
          let total = weights.indices.reduce(UInt64(0)) { total, index in
            allowed?[index] == false ? total : total + UInt64(weights[index])
          }
          var ticket = random.next(below: total)
          for (index, weight) in weights.enumerated() where allowed?[index] != false {
            if ticket < UInt64(weight) {
              return index
            }
            ticket -= UInt64(weight)
          }
          return weights.count - 1
        } ?? 0
      source.swarm = swarm
      let index = try source.drawIndex(count: generators.count, intended: intended)
      return try generators[index].run(&source)
    }
  }

  /// A generator of tuples of any arity, drawing from `gens` in order:
  /// `Gen<(Int, String, Bool)>.zip(.integer(in: 0...9), .string(), .bool)`, or
  /// `Gen.zip(a, b)` when the component types are known. Shrinks every component.
  /// O(1) besides the components' own cost.
  public static func zip<each Component>(_ gens: repeat Gen<each Component>) -> Gen<Value>
  where Value == (repeat each Component) {
    Gen { source in (repeat try (each gens).run(&source)) }
  }

  /// A generator that builds its generator from the size of the case: 0 for the first cases
  /// of a run, growing to 100 for the last (see `Property.run`). The size is drawn as a choice,
  /// so a shrunk value may have a smaller one. Use it to scale what a generator builds, e.g.
  /// `Gen.sized { size in Gen<Int>.integer(in: 0...size) }`.
  public static func sized(_ body: @escaping @Sendable (_ size: Int) -> Gen<Value>) -> Gen<Value> {
    Gen { source in
      let size = try source.drawIndex(count: CaseSchedule.maxSize + 1, intended: source.size)
      return try body(size).run(&source)
    }
  }

  /// A generator of recursive values — trees, expressions — that needs no depth of its own.
  ///
  /// A value is either `base` or `extend(child)`, a node built from smaller values drawn from
  /// `child`, which is this generator one level deeper:
  ///
  /// ```swift
  /// indirect enum Expression { case number(Int), sum(Expression, Expression) }
  /// let expressions = Gen<Expression>.recursive(Gen<Int>.integer(in: 0...9).map { .number($0) }) {
  ///   child in Gen<(Expression, Expression)>.zip(child, child).map { .sum($0, $1) }
  /// }
  /// ```
  ///
  /// Each level picks `base` or `extend` with equal odds, and at most `max(1, size / 10)`
  /// levels extend (1 to 10; the case size is drawn as with `sized(_:)`), so generation always
  /// terminates and small cases are small. Shrinks toward `base`, then toward shallower values.
  /// O(levels) to build per value, besides the cost of the values.
  public static func recursive(
    _ base: Gen<Value>, _ extend: @escaping @Sendable (_ child: Gen<Value>) -> Gen<Value>
  ) -> Gen<Value> {
    let label = RecursionLabel()
    return sized { size in
      // Every level starts with the choice "extend?" (forced to 0 at the bottom), so that a
      // level drawn at one depth reads the same at any other.
      var level = Gen { source in
        try source.node(label: ObjectIdentifier(label)) { source in
          _ = try source.draw(max: 0, intended: 0)
          return try base.run(&source)
        }
      }
      for _ in 0..<Swift.max(1, size / 10) {
        let node = extend(level)
        level = Gen { source in
          try source.node(label: ObjectIdentifier(label)) { source in
            let intended = source.random { random, _ in random.nextBool() } ?? false
            return try source.drawBool(intended: intended)
              ? node.run(&source) : base.run(&source)
          }
        }
      }
      return level
    }
  }
}

extension Gen where Value: Sendable {
  /// A generator that always produces `value` and draws no choices.
  public static func constant(_ value: Value) -> Gen<Value> {
    Gen { _ in value }
  }

  /// A generator that picks an element of `collection` uniformly. Shrinks toward the first
  /// element, so put the simplest first. O(n) to build, O(1) per value.
  /// - Precondition: `collection` is not empty.
  public static func element<C: Collection>(of collection: C) -> Gen<Value>
  where C.Element == Value {
    let elements = Array(collection)
    precondition(!elements.isEmpty, "Gen.element(of:) needs a non-empty collection")
    return Gen { source in
      try source.value { source in
        let intended = source.random { random, _ in
          Int(random.next(below: UInt64(elements.count)))
        }
        return elements[try source.drawIndex(count: elements.count, intended: intended ?? 0)]
      }
    }
  }
}

/// A unique object per recursive generator, whose identity labels the levels it draws.
private final class RecursionLabel: Sendable {}

/// The identity of one `Gen.frequency` generator, under which a collection keeps its swarm.
private final class SwarmIdentity: Sendable {}
