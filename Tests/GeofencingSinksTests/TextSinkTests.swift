import Foundation
import GeofencingEvents
import Testing

@testable import GeofencingSinks

@Suite struct TextSinkTests {
    @Test func lineHasTimeSequenceKindRegionDistanceAndPosition() {
        #expect(TextSink.line(for: SampleEvents.event()) ==
            "2008-03-03T22:25:13Z  #17 enter  stop-1234  -3.2 m  (-27.5712345, 153.0912345)")
    }

    @Test func flagsStatesAndMissingDistance() {
        let exit = SampleEvents.event(18, kind: .exit, distance: 4.05, state: .outside, inferred: true)
        #expect(TextSink.line(for: exit) ==
            "2008-03-03T22:25:14Z  #18 exit  stop-1234  4.05 m  (-27.5712345, 153.0912345) inferred")
        let state = SampleEvents.event(19, kind: .state, distance: nil, state: .unknown, inferred: true,
                                       interpolated: true)
        #expect(TextSink.line(for: state) ==
            "2008-03-03T22:25:15Z  #19 state unknown  stop-1234  no distance  (-27.5712345, 153.0912345)"
                + " inferred interpolated")
    }

    /// An identifier cannot drive the terminal (ESC sequences, CSI), fake a second line, or reverse the text.
    @Test func regionIdentifiersArePrintedSafely() {
        #expect(TextSink.printable("Haltestelle Müller / 東京駅") == "Haltestelle Müller / 東京駅")
        #expect(TextSink.printable("a\nb\r\tc") == "a\\nb\\r\\tc")
        #expect(TextSink.printable("\u{1B}[2J\u{9B}31m\u{7F}\u{0}") == "\\e[2J\\u{9b}31m\\u{7f}\\u{0}")
        #expect(TextSink.printable("abc\u{202E}fed\u{2066}") == "abc\\u{202e}fed\\u{2066}")
        #expect(TextSink.printable("back\\slash") == "back\\\\slash")
        #expect(TextSink.printable("") == "\"\"")

        let line = TextSink.line(for: SampleEvents.event(region: "x\n2008-03-03T22:25:13Z  #18 exit  fake"))
        #expect(!line.contains("\n"))
        #expect(line.contains("x\\n2008"))
    }

    @Test func writesOneLinePerEvent() throws {
        let pipe = TestPipe()
        let sink = TextSink(fileDescriptor: pipe.writeEnd)
        #expect(sink.name == "text")
        let events = SampleEvents.burst(3)
        for event in events { try sink.deliver(event) }
        try sink.flush()
        pipe.closeWriteEnd()
        let text = String(decoding: pipe.readAll(), as: UTF8.self)
        #expect(text == events.map { TextSink.line(for: $0) + "\n" }.joined())
    }

    @Test func goneReaderIsAnError() throws {
        let pipe = TestPipe()
        pipe.closeReadEnd()
        let sink = TextSink(fileDescriptor: pipe.writeEnd)
        try sink.deliver(SampleEvents.event())
        let error = try #require(throws: SinkError.self) { try sink.flush() }
        #expect(error.sink == "text" && error.message.contains("EPIPE"), "\(error)")
    }
}
