// Schedules: weekly windows in an IANA zone, from GNSS time only; the events a window's opening and closing cause;
// midnight, daylight-saving change days and edges in the gap or the overlap.
import Foundation
@testable import Geofencing
import Testing

@Suite("Schedules")
struct ScheduleTests {
    /// Unix time of an ISO 8601 UTC time written "2024-03-31T01:30:00Z".
    private func utc(_ text: String) -> Double {
        ISO8601DateFormatter().date(from: text)!.timeIntervalSince1970
    }

    private func activity(_ schedule: String, at time: String) throws -> (active: Bool, from: Double, until: Double) {
        let parsed = try Schedule(parsing: schedule)
        let zone = try #require(TimeZone(identifier: parsed.timeZoneIdentifier))
        let (active, from, until) = ScheduleWindows.activity(at: utc(time), windows: parsed.windows, zone: zone)
        return (active, from, until)
    }

    @Test("the text form: parsed, written canonically, read back equal")
    func textForm() throws {
        let school = try Schedule(parsing: "Australia/Brisbane Mo-Fr 07:00-09:00,14:30-16:00; Sa,Su 08:00-12:00")
        #expect(school.windows.count == 3)
        #expect(school.windows[0] == Schedule.Window(days: 0b001_1111, start: 420, end: 540))
        #expect(school.text == "Australia/Brisbane Mo-Fr 07:00-09:00; Mo-Fr 14:30-16:00; Sa,Su 08:00-12:00")
        #expect(try Schedule(parsing: school.text) == school)
        #expect(try Schedule(parsing: "Europe/Berlin Sa-Mo 22:00-26:00").windows[0].days == 0b110_0001)
    }

    @Test("bad schedules are refused saying what is wrong")
    func badSchedules() throws {
        for (text, expected) in [
            ("Mars/Olympus_Mons Mo-Fr 07:00-09:00", "unknown time zone \"Mars/Olympus_Mons\""),
            ("Australia/Brisbane Mo-Fr 09:00-07:00", "ends before it starts"),
            ("Australia/Brisbane Fr 22:00-02:00", "ends before it starts"),
            ("Australia/Brisbane Mo-Fr 07:00-07:00", "ends before it starts"),
            ("Australia/Brisbane Xy 07:00-09:00", "\"Xy\" is not a day"),
            ("Australia/Brisbane Mo 7:00-09:00", "is not a time HH:MM"),
            ("Australia/Brisbane Mo 07:00-49:00", "longer than 24 hours"),
            ("Australia/Brisbane", "no windows"),
            ("", "empty"),
        ] {
            let error = try #require(throws: ScheduleError.self) { try Schedule(parsing: text) }
            #expect(error.message.contains(expected), "\(text): \(error)")
        }
        var region = Region.test("school")
        region.schedule = Schedule(timeZoneIdentifier: "Nowhere/Land", windows: [.init(days: 1, start: 0, end: 60)])
        let error = try #require(throws: RegionMonitorError.self) { try region.validate() }
        #expect("\(error)".contains("the schedule is invalid: unknown time zone \"Nowhere/Land\""))
    }

    @Test("a Brisbane school zone: the windows' edges in UTC (UTC+10, no daylight saving)")
    func brisbaneSchoolZone() throws {
        let school = "Australia/Brisbane Mo-Fr 07:00-09:00,14:30-16:00"
        // Monday 2024-03-04: 07:00 AEST is 21:00 UTC on Sunday.
        let morning = try activity(school, at: "2024-03-03T21:30:00Z")
        #expect(morning.active && morning.from == utc("2024-03-03T21:00:00Z") && morning.until == utc("2024-03-03T23:00:00Z"))
        let between = try activity(school, at: "2024-03-04T01:00:00Z")
        #expect(!between.active && between.until == utc("2024-03-04T04:30:00Z"))
        // Saturday: closed until Monday 07:00.
        let weekend = try activity(school, at: "2024-03-09T02:00:00Z")
        #expect(!weekend.active && weekend.until == utc("2024-03-10T21:00:00Z"))
    }

    @Test("a window across midnight: Friday 22:00 to Saturday 02:00")
    func acrossMidnight() throws {
        let night = "Australia/Brisbane Fr 22:00-26:00"
        #expect(try activity(night, at: "2024-03-01T11:59:59Z").active == false)  // Fri 21:59:59
        let inside = try activity(night, at: "2024-03-01T15:00:00Z")  // Sat 01:00
        #expect(inside.active && inside.from == utc("2024-03-01T12:00:00Z") && inside.until == utc("2024-03-01T16:00:00Z"))
        #expect(try activity(night, at: "2024-03-01T16:00:00Z").active == false)  // Sat 02:00, the end is exclusive
    }

    @Test("daylight-saving change days keep the windows' clock times (Europe/Berlin, Australia/Sydney)")
    func daylightSavingDays() throws {
        // Berlin, Sunday 2024-03-31, clocks 02:00 -> 03:00: 07:00-09:00 is 05:00-07:00 UTC (CEST), a day before
        // 06:00-08:00 UTC (CET).
        let berlin = "Europe/Berlin Mo-Su 07:00-09:00"
        let before = try activity(berlin, at: "2024-03-30T07:00:00Z")
        #expect(before.active && before.from == utc("2024-03-30T06:00:00Z") && before.until == utc("2024-03-30T08:00:00Z"))
        let after = try activity(berlin, at: "2024-03-31T05:30:00Z")
        #expect(after.active && after.from == utc("2024-03-31T05:00:00Z") && after.until == utc("2024-03-31T07:00:00Z"))
        // Sydney, Sunday 2024-04-07, clocks 03:00 AEDT -> 02:00 AEST: 22:00-27:00 the night before lasts 6 h.
        let sydney = try activity("Australia/Sydney Sa 22:00-27:00", at: "2024-04-06T12:00:00Z")
        #expect(sydney.active && sydney.from == utc("2024-04-06T11:00:00Z") && sydney.until == utc("2024-04-06T17:00:00Z"))
        // An end in that night's repeated hour (02:00 happens at 15:00 and 16:00 UTC) is the first: 4 h.
        let repeated = try activity("Australia/Sydney Sa 22:00-26:00", at: "2024-04-06T12:00:00Z")
        #expect(repeated.until == utc("2024-04-06T15:00:00Z"))
    }

    @Test("an edge in the gap moves forward by the gap; one in the overlap is the first of the two")
    func gapAndOverlap() throws {
        // Berlin 2024-03-31: 02:30 does not exist; the window 02:30-04:00 opens at 03:30 CEST (01:30 UTC).
        let gap = try activity("Europe/Berlin Su 02:30-04:00", at: "2024-03-31T01:45:00Z")
        #expect(gap.active && gap.from == utc("2024-03-31T01:30:00Z") && gap.until == utc("2024-03-31T02:00:00Z"))
        // Berlin 2024-10-27: 02:30 happens at 00:30 UTC (CEST) and 01:30 UTC (CET); the window opens at the first.
        let overlap = try activity("Europe/Berlin Su 02:30-05:00", at: "2024-10-27T00:45:00Z")
        #expect(overlap.active && overlap.from == utc("2024-10-27T00:30:00Z") && overlap.until == utc("2024-10-27T04:00:00Z"))
    }

    @Test("in the monitor: nothing outside the windows, a determination when one opens, the normal rules inside")
    func windowsInTheMonitor() throws {
        // Brisbane (UTC+10): a window Mo 07:00-07:10, i.e. Sunday 2024-03-03 21:00-21:10 UTC.
        var region = Region.test("school", radius: 100)
        region.schedule = try Schedule(parsing: "Australia/Brisbane Mo 07:00-07:10")
        let start = Date(timeIntervalSince1970: utc("2024-03-03T20:55:00Z"))
        var track = TrackBuilder(origin: .brisbane, startTime: start)
        track.park(count: 240)  // inside, 20:55:01 ... 20:59:00: closed, silent
        track.park(count: 120)  // 20:59:01 ... 21:01:00: opens at 21:00:00 with the vehicle inside
        track.drive(bearing: 90, speed: 10, count: 60)  // leaves during the window: an exit
        track.drive(bearing: 270, speed: 10, count: 60)  // back in during the window: an enter
        track.park(count: 900)  // the window closes at 21:10 with the vehicle inside: nothing
        track.drive(bearing: 90, speed: 10, count: 60)  // leaves after the close: nothing
        let harness = try MonitorHarness()
        harness.start(region)
        harness.feed(track.fixes)
        let events = harness.events(of: "school")
        #expect(events.map(\.kind) == [.determined, .exit, .enter], "\(events.summary)")
        #expect(!events.contains { $0.interpolated }, "\(events.summary)")
        #expect(events.first?.time == Date(timeIntervalSince1970: utc("2024-03-03T21:00:00Z")))
        #expect(events.first?.state == .inside)
        #expect(events.allSatisfy { $0.time < Date(timeIntervalSince1970: utc("2024-03-03T21:10:00Z")) })
        #expect(harness.monitor.state(for: "school") == .outside)  // tracked silently after the close
    }

    @Test("a window closing cuts an overspeed short with its end, and then nothing")
    func closingEndsOverspeed() throws {
        var region = Region.test("school", radius: 2000)
        region.schedule = try Schedule(parsing: "Australia/Brisbane Mo 07:00-07:10")
        region.speedLimit = SpeedLimit(kilometresPerHour: 40)
        var track = TrackBuilder(origin: .brisbane, startTime: Date(timeIntervalSince1970: utc("2024-03-03T21:08:00Z")))
        track.park(count: 240)
        let fixes = track.fixes.map { fix in
            var fix = fix
            fix.speed = 60 / 3.6
            return fix
        }
        let harness = try MonitorHarness()
        harness.start(region)
        harness.feed(fixes)
        let events = harness.events(of: "school")
        #expect(events.map(\.kind) == [.determined, .overspeed, .overspeedEnd], "\(events.summary)")
        #expect(events.last?.time == Date(timeIntervalSince1970: utc("2024-03-03T21:10:00Z")))
    }
}
