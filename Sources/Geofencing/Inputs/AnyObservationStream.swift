extension ObservationSource {
    /// `observationStream()` under one type whatever the source, for a caller that holds `any ObservationSource`:
    /// iterating the existential's own `Observations` would give elements of type `Any`, not `Observation`.
    public func erasedObservationStream() -> AnyObservationStream {
        AnyObservationStream(observationStream())
    }
}

/// The observations of some source, its sequence type hidden. One iteration: the iterator is made once, here, so
/// the source is read (a device opened, a track walked) as often as `observationStream()` was called: once.
public struct AnyObservationStream: AsyncSequence {
    public typealias Element = Observation
    public typealias Failure = any Error

    private let iterator: Iterator

    public init<Base: AsyncSequence<Observation, BaseFailure>, BaseFailure: Error>(_ base: Base) {
        var baseIterator = base.makeAsyncIterator()
        iterator = Iterator(nextObservation: { try await baseIterator.next() })
    }

    public func makeAsyncIterator() -> Iterator {
        iterator
    }

    public struct Iterator: AsyncIteratorProtocol {
        fileprivate let nextObservation: () async throws -> Observation?

        public mutating func next() async throws -> Observation? {
            try await nextObservation()
        }
    }
}
