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
  /// O(number of alternatives) per value.
  /// - Precondition: at least one alternative; every weight is positive.
  public static func frequency(_ alternatives: [(Int, Gen<Value>)]) -> Gen<Value> {
    precondition(!alternatives.isEmpty, "Gen.frequency needs at least one alternative")
    precondition(alternatives.allSatisfy { $0.0 > 0 }, "Gen.frequency needs positive weights")
    let weights = alternatives.map(\.0)
    let generators = alternatives.map(\.1)
    let total = UInt64(weights.reduce(0, +))
    return Gen { source in
      let intended =
        source.random { random, _ in
          var ticket = random.next(below: total)
          for (index, weight) in weights.enumerated() {
            if ticket < UInt64(weight) {
              return index
            }
            ticket -= UInt64(weight)
          }
          return weights.count - 1
        } ?? 0
      let index = try source.drawIndex(count: generators.count, intended: intended)
      return try generators[index].run(&source)
    }
  }

  /// A generator of pairs, drawing `a` then `b`. Shrinks both components.
  public static func zip<A, B>(_ a: Gen<A>, _ b: Gen<B>) -> Gen<(A, B)>
  where Value == (A, B) {
    Gen<(A, B)> { source in (try a.run(&source), try b.run(&source)) }
  }

  /// A generator of triples, drawing `a`, `b`, then `c`. Shrinks all components.
  public static func zip<A, B, C>(_ a: Gen<A>, _ b: Gen<B>, _ c: Gen<C>) -> Gen<(A, B, C)>
  where Value == (A, B, C) {
    Gen<(A, B, C)> { source in (try a.run(&source), try b.run(&source), try c.run(&source)) }
  }

  /// A generator of quadruples, drawing `a`, `b`, `c`, then `d`. Shrinks all components.
  public static func zip<A, B, C, D>(
    _ a: Gen<A>, _ b: Gen<B>, _ c: Gen<C>, _ d: Gen<D>
  ) -> Gen<(A, B, C, D)> where Value == (A, B, C, D) {
    Gen<(A, B, C, D)> { source in
      (try a.run(&source), try b.run(&source), try c.run(&source), try d.run(&source))
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
      let intended = source.random { random, _ in Int(random.next(below: UInt64(elements.count))) }
      return elements[try source.drawIndex(count: elements.count, intended: intended ?? 0)]
    }
  }
}
