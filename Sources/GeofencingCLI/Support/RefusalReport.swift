import Geofencing
import GeofencingEvents
import GeofencingSinks
import GeofencingStore

/// A region the monitor refused (it passed the fence file's checks but not the monitor's): on standard error, and,
/// in JSON Lines output, as the `{"type":"error",...}` line consumers of the event stream see.
enum RefusalReport {
    static func report(_ region: Region, _ error: RegionMonitorError, command: String, format: EventFormat) {
        Console.error(
            "geofence \(command): region \(PrintableText.escaped(region.identifier)) refused: "
                + PrintableText.escaped("\(error)"))
        if format == .jsonl {
            Console.out(EventRecord.errorLine(region: region.identifier, message: "\(error)"))
        }
    }
}
