import GeofencingEvents

/// Where the daemon delivers stored events: a file descriptor (JSON Lines, text), a command per event, an MQTT
/// broker. The daemon keeps each event in its store until `deliver` returns, and keeps one delivery cursor per sink
/// under the sink's `name`, so delivery is at least once: a consumer drops repeats by the sequence number.
public protocol EventSink: AnyObject {
    /// Stable name, used as the store's delivery-cursor key: "jsonl", "exec", "mqtt:host:port/topic".
    var name: String { get }

    /// Delivers one event. A sink that writes at once has handed the event over for good when this returns (the
    /// command exited 0; the broker's PUBACK received); a buffering sink (JSON Lines, text) only once a later
    /// `flush()` has returned.
    ///
    /// Throws `SinkError` when it could not; the caller keeps the event and retries later with backoff. Called from
    /// one thread at a time.
    func deliver(_ event: EventRecord) throws(SinkError)

    /// Hands over for good what `deliver` has buffered (writes it out). When it throws, the events delivered since
    /// the last successful flush must be delivered again. Sinks that do not buffer have nothing to do.
    func flush() throws(SinkError)

    /// Asks a delivery in progress on another thread to end soon (the daemon is stopping and will not wait for it):
    /// a command still running is stopped (`ExecSink`). Later deliveries fail at once. Callable from any thread;
    /// most sinks have nothing to do.
    func interrupt()

    /// Releases resources (disconnects). Idempotent.
    func close()
}

extension EventSink {
    public func flush() throws(SinkError) {}
    public func interrupt() {}
}

/// Why a sink could not take an event (or could not be set up): which sink, and what went wrong in words that name
/// the input (the descriptor, the command, the broker).
public struct SinkError: Error, CustomStringConvertible, Equatable {
    /// The sink's `name` ("jsonl", "exec", "mqtt:127.0.0.1:1883/vehicle/7/events").
    public var sink: String
    public var message: String
    /// The condition the sink is in, worded the same for every event while it lasts (an MQTT broker's TLS
    /// certificate not accepted, its refusal of the user name): the daemon logs a failing sink again when this
    /// changes. nil: nothing beyond "failing".
    public var state: String?

    public init(sink: String, message: String, state: String? = nil) {
        self.sink = sink
        self.message = message
        self.state = state
    }

    /// "sink: message", e.g. `exec: "notify" exited with status 3`.
    public var description: String { "\(sink): \(message)" }
}
