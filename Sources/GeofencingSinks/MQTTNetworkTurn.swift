#if MQTT
import CMosquitto
import Geofencing
import Glibc

/// One turn of a libmosquitto client's network loop, waiting with poll(2): what `mosquitto_loop` does, without
/// its descriptor bound.
///
/// Why not `mosquitto_loop`: it waits with select(2), so it refuses to run (MOSQ_ERR_INVAL, "Invalid function
/// arguments provided") once the client's socket is descriptor 1024 (FD_SETSIZE) or above. A process holding many
/// descriptors (a daemon with exec children's pipes, gpsd, the store; a test process running many suites) would
/// lose its broker after every connection for as long as it holds them. poll(2) has no such bound.
///
/// A turn reads when the socket is readable or has failed, writes when libmosquitto has something to write and the
/// socket takes it, then lets libmosquitto keep the connection alive (`mosquitto_loop_misc`: PINGREQ, PINGRESP
/// timeout). libmosquitto wakes its own select from other threads through a private pipe this loop cannot see, so
/// the turn has a wake signal of its own: `wake()` after queueing a packet from another thread (a publish, a
/// disconnect) ends the wait at once instead of at the turn's timeout.
///
/// Its owner keeps it until no thread can call `wake()` any more (the signal is closed when the turn is released).
package final class MQTTNetworkTurn: Sendable {
    private let wakeSignal: WakeSignal

    package init(sinkName: String) throws(SinkError) {
        do throws(WakeSignal.Failure) {
            wakeSignal = try WakeSignal()
        } catch {
            throw SinkError(sink: sinkName, message: "cannot make a pipe: \(SystemCalls.describe(error.code))")
        }
    }

    deinit {
        wakeSignal.close()
    }

    /// Ends the network thread's current wait. From any thread.
    package func wake() {
        wakeSignal.signal()
    }

    /// One turn for `client`, waiting at most `timeoutMilliseconds` for the socket or a wake-up. Returns what
    /// `mosquitto_loop` would: MOSQ_ERR_SUCCESS while the connection stands (a signal that interrupts the wait
    /// included), MOSQ_ERR_NO_CONN without a socket, else the error that ended the connection.
    package func run(_ client: OpaquePointer, timeoutMilliseconds: Int32) -> Int32 {
        let socket = mosquitto_socket(client)
        guard socket >= 0 else { return MOSQ_ERR_NO_CONN.rawValue }
        // A connection still being made has its CONNECT queued, so waiting for POLLOUT also sees the connect end.
        let socketEvents = Int16(POLLIN) | (mosquitto_want_write(client) ? Int16(POLLOUT) : 0)
        var descriptors = [
            pollfd(fd: socket, events: socketEvents, revents: 0),
            pollfd(fd: wakeSignal.readDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        if poll(&descriptors, nfds_t(descriptors.count), timeoutMilliseconds) < 0 {
            return errno == EINTR ? MOSQ_ERR_SUCCESS.rawValue : MOSQ_ERR_ERRNO.rawValue
        }
        // select(2) reports a failed or closed socket as readable; poll(2) as POLLERR/POLLHUP, whatever was asked.
        let failed = Int16(POLLERR) | Int16(POLLHUP) | Int16(POLLNVAL)
        if descriptors[0].revents & (Int16(POLLIN) | failed) != 0 {
            let read = mosquitto_loop_read(client, 1)
            if read != MOSQ_ERR_SUCCESS.rawValue || mosquitto_socket(client) < 0 { return read }
        }
        var writable = descriptors[0].revents & Int16(POLLOUT) != 0
        if descriptors[1].revents & Int16(POLLIN) != 0 {
            wakeSignal.drain()
            // A packet queued since the wait began: try the write even though POLLOUT was not asked for (a socket
            // that cannot take it yet leaves it queued, and the next turn waits for POLLOUT).
            writable = true
        }
        if writable {
            let written = mosquitto_loop_write(client, 1)
            if written != MOSQ_ERR_SUCCESS.rawValue || mosquitto_socket(client) < 0 { return written }
        }
        return mosquitto_loop_misc(client)
    }
}
#endif
