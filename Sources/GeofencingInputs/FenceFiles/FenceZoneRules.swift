import Geofencing

/// The zone rules of a fence in a file (GeoJSON properties, CSV columns): a speed limit from `speed_limit_kmh`,
/// `speed_tolerance_kmh` and `speed_duration_s` (the last two default to `SpeedLimit`'s defaults), and a schedule
/// from `schedule` in `Schedule`'s text form. Checked as the monitor checks them, so a file that reads also
/// monitors; each error names the field at fault.
enum FenceZoneRules {
    static let limitKey = "speed_limit_kmh"
    static let toleranceKey = "speed_tolerance_kmh"
    static let durationKey = "speed_duration_s"
    static let scheduleKey = "schedule"

    /// A problem with one of the fields: its key and what is wrong.
    struct Problem: Error {
        let key: String
        let message: String
    }

    /// The speed limit of the three fields (nil: absent or empty), or nil when there is none. A tolerance or
    /// duration without a limit is refused (it would be dropped silently).
    static func speedLimit(limit: Double?, tolerance: Double?, duration: Double?) throws(Problem) -> SpeedLimit? {
        guard let limit else {
            if tolerance != nil { throw Problem(key: toleranceKey, message: "is given without \(limitKey)") }
            if duration != nil { throw Problem(key: durationKey, message: "is given without \(limitKey)") }
            return nil
        }
        let speedLimit = SpeedLimit(
            kilometresPerHour: limit,
            toleranceKilometresPerHour: tolerance ?? SpeedLimit.defaultToleranceKilometresPerHour,
            duration: duration ?? SpeedLimit.defaultDuration)
        if case .invalidSpeedLimit(let key, let value, let range) = speedLimit.problem {
            throw Problem(key: key, message: "the speed limit's \(FenceNumber.shortest(value)) is outside \(range)")
        }
        return speedLimit
    }

    /// The schedule of a `schedule` field, checked (the zone against the system's tzdata).
    static func schedule(_ text: String) throws(Problem) -> Schedule {
        guard text.utf8.count <= maximumScheduleBytes else {
            throw Problem(key: scheduleKey, message: "the schedule is \(text.utf8.count) bytes long, more than the "
                + "\(maximumScheduleBytes) allowed")
        }
        do {
            return try Schedule(parsing: text)
        } catch {
            throw Problem(key: scheduleKey, message: "the schedule \(FenceText.quotedValue(text)) is invalid: "
                + error.message)
        }
    }

    /// The longest schedule text accepted: room for the most windows a schedule may have.
    static let maximumScheduleBytes = 4_096
}
