// gpsd JSON logs: hand-written TPV lines and a real gpspipe recording.
import Foundation
import Geofencing
import GeofencingEvents
@testable import GeofencingInputs
import Testing

@Suite("gpsd JSON reader")
struct GPSDJSONReaderTests {
    private func read(_ lines: [String]) -> GPSDJSONLog {
        GPSDJSONReader.read(data: Data(lines.joined(separator: "\n").utf8), source: "test.json")
    }

    @Test func tpvReportsBecomeObservations() throws {
        let log = read([
            #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#,
            #"{"class":"TPV","device":"/dev/ttyUSB0","mode":1,"time":"2024-05-01T10:00:00.000Z"}"#,
            #"{"class":"TPV","device":"/dev/ttyUSB0","mode":3,"time":"2024-05-01T10:00:01.000Z","lat":52.5,"lon":13.4,"altHAE":90.0,"altMSL":50.8,"alt":50.8,"epx":9.457,"epy":15.457,"track":158.3,"speed":17.388,"eph":22.8}"#,
            #"{"class":"SKY","device":"/dev/ttyUSB0","hdop":1.2,"satellites":[]}"#,
            #"{"class":"TPV","device":"/dev/ttyUSB0","mode":2,"time":"2024-05-01T10:00:02.000Z","lat":52.5001,"lon":13.4001,"epx":3.0,"epy":4.0}"#,
        ])
        #expect(log.observations.count == 3)
        #expect(log.observations[0] == .noFix(ISO8601Time.parse("2024-05-01T10:00:00Z")!))
        let full = try #require(log.observations[1].fix)
        #expect(full.coordinate == Coordinate(latitude: 52.5, longitude: 13.4))
        #expect(full.horizontalAccuracy == 22.8)
        #expect(full.altitude == 50.8)
        #expect(full.speed == 17.388)
        #expect(full.course == 158.3)
        let sparse = try #require(log.observations[2].fix)
        #expect(sparse.altitude == nil && sparse.speed == nil && sparse.course == nil, "absent stays nil, never 0")
        #expect(sparse.horizontalAccuracy == HorizontalAccuracyEstimate.fromAxisErrors95(x: 3, y: 4))
        #expect(log.statistics.otherReports == 2)
        #expect(log.statistics.fixes == 2 && log.statistics.noFixes == 1)
    }

    /// The epoch's GST report gives its fix the accuracy, before or after the TPV (the two orders gpsd 3.22 sends,
    /// GGA before RMC and RMC before GGA), as GPSDSource does live; a GST of another time does not.
    @Test func theEpochsGSTGivesTheAccuracy() throws {
        let log = read([
            #"{"class":"GST","time":"2027-10-18T22:24:38.000Z","rms":12.4,"major":6.4,"minor":9.3,"orient":16.2,"lat":6.1,"lon":8.3,"alt":16.4}"#,
            #"{"class":"TPV","mode":3,"time":"2027-10-18T22:24:38.000Z","lat":-27.57247,"lon":153.09078,"eph":22.8}"#,
            #"{"class":"TPV","mode":3,"time":"2027-10-18T22:24:39.000Z","lat":-27.57261,"lon":153.09084,"eph":22.8}"#,
            #"{"class":"GST","time":"2027-10-18T22:24:39.000Z","lat":9.8,"lon":9.9}"#,
            #"{"class":"TPV","mode":3,"time":"2027-10-18T22:24:40.000Z","lat":-27.57276,"lon":153.09090,"eph":32.3}"#,
        ])
        #expect(log.observations.map { $0.fix?.horizontalAccuracy } == [
            HorizontalAccuracyEstimate.fromSigmas(latitude: 6.1, longitude: 8.3),
            HorizontalAccuracyEstimate.fromSigmas(latitude: 9.8, longitude: 9.9),
            32.3,
        ])
    }

    @Test func tpvsOfOneTimeMergeIntoTheLast() {
        let log = read([
            #"{"class":"TPV","mode":2,"time":"2024-05-01T10:00:01.000Z","lat":52.5,"lon":13.4}"#,
            #"{"class":"TPV","mode":3,"time":"2024-05-01T10:00:01.000Z","lat":52.5,"lon":13.4,"altMSL":50.8}"#,
            #"{"class":"TPV","mode":3,"time":"2024-05-01T10:00:02.000Z","lat":52.6,"lon":13.4}"#,
        ])
        #expect(log.observations.count == 2)
        #expect(log.observations.first?.fix?.altitude == 50.8)
        #expect(log.statistics.usedReports == 3)
    }

    @Test func unusableAndBadLinesAreCounted() {
        let log = read([
            #"{"class":"TPV","device":"stdin","mode":1}"#,                                           // no time
            #"{"class":"TPV","mode":3,"time":"2024-05-01T10:00:01Z"}"#,                              // fix without position
            #"{"class":"TPV","mode":3,"time":"2024-05-01T10:00:01Z","lat":null,"lon":13.4}"#,       // null is absent
            #"{"class":"TPV","mode":3,"time":"yesterday","lat":1,"lon":2}"#,                         // bad time
            #"{"class":"TPV","mode":"3","time":"2024-05-01T10:00:01Z","lat":1,"lon":2}"#,            // wrong type
            #"{"mode":3}"#,                                                                          // no class
            #"{"class":"TPV","mode":3,"time":"2024-05-01T10:00:01Z","lat":1,"#,                      // cut off
            "$GPGGA,this is not JSON",
            "",
            #"1714557601.123: {"class":"TPV","mode":3,"time":"2024-05-01T10:00:01Z","lat":1,"lon":2}"#,  // gpspipe -u
        ])
        #expect(log.statistics.unusableReports == 3)
        #expect(log.statistics.badLines == 5)
        #expect(log.statistics.ignoredLines == 1)
        #expect(log.observations.count == 1)
        #expect(log.statistics.problems.first == TrackReadError(
            source: "test.json", line: 4, message: "not a gpsd report: \"yesterday\" is not an ISO 8601 time"))
        #expect(log.statistics.problems.map(\.line) == [4, 5, 6, 7, 8])
    }

    /// gpsd JSON is read as JSON is read, whatever the white space: spaces after the colons and commas (as Python's
    /// json.dumps and hand-written logs have them), and reports pretty-printed over several lines (gpsd's
    /// `"pretty":true` watch, jq), also through the format detection of a track file.
    @Test func reportsWithAnyWhiteSpaceReadAlike() throws {
        let compact = [
            #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#,
            #"{"class":"TPV","mode":3,"time":"2024-05-01T10:00:01.000Z","lat":52.5,"lon":13.4,"eph":5.0}"#,
            #"{"class":"TPV","mode":3,"time":"2024-05-01T10:00:02.000Z","lat":52.5001,"lon":13.4,"eph":5.0}"#,
        ]
        let spaced = compact.map { $0.replacingOccurrences(of: "\":", with: "\": ")
            .replacingOccurrences(of: ",\"", with: ", \"") }
        let pretty = compact.map { line in
            "{\n" + line.dropFirst().dropLast().replacingOccurrences(of: ",\"", with: ",\n    \"")
                .replacingOccurrences(of: "\":", with: "\": ")
                .split(separator: "\n").map { $0.hasPrefix(" ") ? String($0) : "    " + $0 }.joined(separator: "\n")
                + "\n}"
        }
        let expected = read(compact)
        #expect(expected.observations.count == 2)
        for variant in [spaced, pretty] {
            let log = read(variant)
            #expect(log.observations == expected.observations, "\(variant)")
            #expect(log.statistics.badLines == 0)
            #expect(log.statistics.usedReports == 2 && log.statistics.otherReports == 1)
            #expect(log.statistics.lines == log.statistics.continuationLines + 3)
            let track = try TrackFile.read(data: Data(variant.joined(separator: "\n").utf8), source: "t.json")
            #expect(track.format == .gpsdJSON)
            #expect(track.observations == expected.observations)
        }
    }

    /// A report left open is cut off by the next line that cannot continue it: counted bad at the line where it
    /// began, and the next report is read.
    @Test func aCutOffPrettyReportIsBadAtItsFirstLine() {
        let log = read([
            "{",
            #"    "class": "TPV","#,
            #"    "mode": 3,"#,
            #"{"class":"TPV","mode":3,"time":"2024-05-01T10:00:01Z","lat":1,"lon":2}"#,
        ])
        #expect(log.statistics.badLines == 1)
        #expect(log.statistics.problems.map(\.line) == [1])
        #expect(log.observations.count == 1)
    }

    @Test func olderProtocolsWithNumericTimesReadToo() {
        let log = read([#"{"class":"TPV","mode":2,"time":1272213100.0,"lat":1,"lon":2}"#])
        #expect(log.observations.first?.time == Date(timeIntervalSince1970: 1_272_213_100))
    }

    /// The fixture is gpsd's own output for the Brisbane log (see Fixtures/README.md). Where gpsd reported an epoch,
    /// its fix equals our NMEA reader's: position to 1e-7°, speed, course, altitude, mode. gpsd's times are our times
    /// plus 1024 weeks (gpsd's correction for dates before 2017, `GPSDecodeComparison.gpsdTime(forOurs:)`).
    /// Values are compared where both have them: gpsd's first report (22:24:42) was a partial merge without the
    /// altitude; where the receiver sent no speed (the last epochs, empty RMC speed and VTG mode N) gpsd
    /// derives one from successive positions, and so does the reader (`NMEADerivedSpeed`). The accuracy differs on purpose: gpsd's eph is
    /// HDOP × 19 m, ours uses the log's GST error statistics.
    @Test(.enabled(if: TestData.isSharedDataAvailable, TestData.skipMessage))
    func gpspipeRecordingEqualsTheNMEAReader() throws {
        let gpsd = try GPSDJSONReader.read(path: TestData.fixture("nmealog-gpspipe.json").path)
        let nmea = try NMEAReader.read(path: TestData.shared("nmea/nmealog.txt").path)
        #expect(gpsd.statistics.badLines == 0)
        #expect(gpsd.observations.count == 150)
        let ours = Dictionary(nmea.observations.compactMap(\.fix).map {
            (GPSDecodeComparison.key(GPSDecodeComparison.gpsdTime(forOurs: $0.timestamp)), $0)
        }, uniquingKeysWith: { first, _ in first })
        var derivedSpeeds = 0
        for case .fix(let theirs) in gpsd.observations {
            let fix = try #require(ours[GPSDecodeComparison.key(theirs.timestamp)], "\(theirs.timestamp)")
            #expect(abs(fix.coordinate.latitude - theirs.coordinate.latitude) <= 1e-7)
            #expect(abs(fix.coordinate.longitude - theirs.coordinate.longitude) <= 1e-7)
            #expect((fix.speed == nil) == (theirs.speed == nil), "\(theirs.timestamp)")
            if let speed = fix.speed, let theirSpeed = theirs.speed {
                #expect(abs(speed - theirSpeed) < 0.001, "gpsd prints m/s with 3 decimals")
                if fix.course == nil { derivedSpeeds += 1 }
            }
            if let course = fix.course, let theirCourse = theirs.course { #expect(course == theirCourse) }
            if let altitude = fix.altitude, let theirAltitude = theirs.altitude { #expect(altitude == theirAltitude) }
        }
        #expect(derivedSpeeds == 5)
        #expect(gpsd.observations.allSatisfy { $0.fix != nil })
    }
}
