import Geofencing

/// Observations already in memory (a track file's) as an asynchronous sequence: each iteration walks the array from
/// the start, without copying it.
public struct RecordedObservations: AsyncSequence, Sendable {
    public typealias Element = Observation
    public typealias Failure = Never

    private let observations: [Observation]

    public init(_ observations: [Observation]) {
        self.observations = observations
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(observations: observations)
    }

    public struct Iterator: AsyncIteratorProtocol {
        public typealias Element = Observation
        public typealias Failure = Never

        fileprivate let observations: [Observation]
        private var index = 0

        fileprivate init(observations: [Observation]) {
            self.observations = observations
        }

        /// The next observation; nil at the end, and once the consumer's task is cancelled (as a live source ends).
        public mutating func next() async -> Observation? {
            guard index < observations.count, !Task.isCancelled else { return nil }
            defer { index += 1 }
            return observations[index]
        }
    }
}
