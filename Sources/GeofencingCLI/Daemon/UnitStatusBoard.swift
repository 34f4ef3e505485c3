import Foundation
import Geofencing
import GeofencingStore

/// The daemon's current `UnitStatus`, kept for the MQTT sink, which asks for it on its network thread (at each
/// connection, for the Last Will, periodically): the daemon's loop writes the fences and the last observation,
/// and the backlog is read, at each request, through a read-only store connection of the board's own.
final class UnitStatusBoard: Sendable {
    private let started = ContinuousClock.now
    private let status = Locked(UnitStatus())
    /// Opened once the daemon has opened the store; used only under its lock.
    private let store = Locked<GeofenceStore?>(nil)

    /// The store is open: the backlog can be read (each sink's cursor against the last sequence).
    func attach(storePath: String) {
        let connection = try? GeofenceStore(path: storePath, readOnly: true)
        store.withLock { $0 = connection }
    }

    /// Closes the board's connection, before the daemon's own: SQLite checkpoints the WAL into the store when its
    /// last connection closes, which a read-only one cannot do.
    func detach() {
        store.withLock { $0 = nil }
    }

    /// Changes the status; returns whether a part that is published on change changed.
    @discardableResult
    func update(_ change: (inout UnitStatus) -> Void) -> Bool {
        status.withLock { current in
            let before = current.publishedPart
            change(&current)
            return current.publishedPart != before
        }
    }

    /// The status JSON now, online or offline.
    func json(online: Bool) -> String {
        let backlog = store.withLock { store -> [String: UInt64] in
            guard let store, let last = try? store.lastSequence(), let sinks = try? store.sinks() else { return [:] }
            return sinks.mapValues { cursor in last > cursor ? last - cursor : 0 }
        }
        var current = status.withLock { $0 }
        current.backlog = backlog
        return current.json(online: online, uptime: ContinuousClock.now - started, now: Date())
    }
}
