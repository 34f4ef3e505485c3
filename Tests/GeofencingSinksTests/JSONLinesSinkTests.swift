import Foundation
import GeofencingEvents
import Testing

@testable import GeofencingSinks

@Suite struct JSONLinesSinkTests {
    /// Parses JSON Lines text into objects, one per line; the text must end with a newline.
    static func objects(_ bytes: [UInt8]) throws -> [[String: Any]] {
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasSuffix("\n"))
        return try text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { line in
            try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
    }

    @Test func linesThroughAPipeHaveExactlyTheInterfaceKeys() throws {
        let pipe = TestPipe()
        let sink = JSONLinesSink(fileDescriptor: pipe.writeEnd)
        #expect(sink.name == "jsonl")
        let events = [
            SampleEvents.event(17),
            SampleEvents.event(18, kind: .exit, region: "quote \" back\\slash\nnew line", distance: 4.05,
                               state: .outside, inferred: true),
            SampleEvents.event(19, kind: .state, distance: nil, state: .unknown, interpolated: true),
        ]
        for event in events { try sink.deliver(event) }
        try sink.flush()
        sink.close()
        pipe.closeWriteEnd()
        let objects = try Self.objects(pipe.readAll())

        #expect(objects.count == 3)
        for object in objects { #expect(Set(object.keys) == SampleEvents.jsonKeys) }
        #expect(objects.map { $0["seq"] as? Int } == [17, 18, 19])
        #expect(objects.map { $0["type"] as? String } == ["enter", "exit", "state"])
        #expect(objects.map { $0["region"] as? String } == events.map(\.region))
        #expect(objects[0]["time"] as? String == "2008-03-03T22:25:13Z")
        #expect(objects[0]["lat"] as? Double == -27.5712345 && objects[0]["lon"] as? Double == 153.0912345)
        #expect(objects[0]["distance_m"] as? Double == -3.2)
        #expect(objects[2]["distance_m"] is NSNull)
        #expect(objects.map { $0["state"] as? String } == ["inside", "outside", "unknown"])
        #expect(objects.map { $0["inferred"] as? Bool } == [false, true, false])
        #expect(objects.map { $0["interpolated"] as? Bool } == [false, false, true])
    }

    /// A line larger than the pipe (64 KiB) arrives whole while a reader drains the other end.
    @Test func largeLineIsWrittenWhole() throws {
        let pipe = TestPipe()
        let region = String(repeating: "ä", count: 150_000)  // 300 kB of UTF-8
        let reader = PipeReader(pipe)
        let sink = JSONLinesSink(fileDescriptor: pipe.writeEnd)
        try sink.deliver(SampleEvents.event(region: region))
        try sink.flush()
        pipe.closeWriteEnd()
        let objects = try Self.objects(reader.wait())
        #expect(objects.count == 1)
        #expect(objects.first?["region"] as? String == region)
    }

    /// A reader that has gone (`geofence run | head`) is an EPIPE error naming the sink, not the end of the process
    /// (SIGPIPE would kill it).
    @Test func goneReaderIsAnErrorNamingTheSink() throws {
        let pipe = TestPipe()
        pipe.closeReadEnd()
        let sink = JSONLinesSink(fileDescriptor: pipe.writeEnd, name: "stdout")
        try sink.deliver(SampleEvents.event())
        let error = try #require(throws: SinkError.self) { try sink.flush() }
        #expect(error.sink == "stdout")
        #expect(error.message.contains("EPIPE"), "\(error)")
        #expect(error.message.contains("descriptor \(pipe.writeEnd)"), "\(error)")
        #expect(error.description.hasPrefix("stdout: "))
    }

    @Test func badDescriptorIsAnError() throws {
        let sink = JSONLinesSink(fileDescriptor: -1)
        try sink.deliver(SampleEvents.event())
        let error = try #require(throws: SinkError.self) { try sink.flush() }
        #expect(error.message.contains("EBADF"), "\(error)")
    }

    /// To a regular file: the lines are buffered until `flush`, which writes them all at once (no fsync: the
    /// store keeps the events until then); the file then holds exactly the lines.
    @Test func buffersUntilFlushedToARegularFile() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("events.jsonl")
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let events = SampleEvents.burst(5)
        let sink = JSONLinesSink(fileDescriptor: descriptor)
        for event in events { try sink.deliver(event) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "", "nothing is written before the flush")
        try sink.flush()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == events.map { $0.jsonLine + "\n" }.joined())
        try sink.flush()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == events.map { $0.jsonLine + "\n" }.joined(),
                "a second flush writes nothing again")
    }

    /// A file a killed writer left ending in part of a line (the kernel ends a write to a regular file at a page
    /// boundary once SIGKILL is pending): the next sink appending to it starts on a new line, so its first line
    /// stays whole. A file ending in a newline, an empty one, one written in its middle, and a pipe get nothing
    /// added; the text sink shares the rule.
    @Test(arguments: [
        (before: "{\"seq\":4,\"type\":\"ent", appending: true, separator: "\n"),
        (before: "{\"seq\":4,\"type\":\"ent", appending: false, separator: "\n"),
        (before: "{\"seq\":3}\n", appending: true, separator: ""),
        (before: "", appending: true, separator: ""),
    ])
    func appendingAfterACutLineStartsANewLine(before: String, appending: Bool, separator: String) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("events.jsonl")
        try before.write(toFile: path, atomically: false, encoding: .utf8)
        // Write-only, as a shell's `>>` opens standard output; without O_APPEND, positioned at the end.
        let descriptor = open(path, O_WRONLY | O_CLOEXEC | (appending ? O_APPEND : 0))
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        if !appending { lseek(descriptor, 0, SEEK_END) }
        let events = SampleEvents.burst(3)
        let sink = JSONLinesSink(fileDescriptor: descriptor)
        for event in events { try sink.deliver(event) }
        try sink.flush()
        try sink.deliver(SampleEvents.event(9))
        try sink.flush()
        let lines = (events + [SampleEvents.event(9)]).map { $0.jsonLine + "\n" }.joined()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == before + separator + lines)

        let text = directory.file("events.txt")
        try before.write(toFile: text, atomically: false, encoding: .utf8)
        let textDescriptor = open(text, O_WRONLY | O_APPEND | O_CLOEXEC)
        try #require(textDescriptor >= 0)
        defer { close(textDescriptor) }
        let textSink = TextSink(fileDescriptor: textDescriptor)
        try textSink.deliver(SampleEvents.event(9))
        try textSink.flush()
        #expect(try String(contentsOfFile: text, encoding: .utf8)
                == before + separator + TextSink.line(for: SampleEvents.event(9)) + "\n")
    }

    /// Written into the middle of a file (not appending, not at its end), and into a pipe: nothing is added.
    @Test func onlyAnAppendAfterACutLineGetsANewLine() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("events.jsonl")
        try "{\"seq\":4,\"type\":\"ent".write(toFile: path, atomically: false, encoding: .utf8)
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        #expect(!LineBuffer.appendsAfterPartialLine(descriptor), "positioned at 0, not at the end")
        lseek(descriptor, 0, SEEK_END)
        #expect(LineBuffer.appendsAfterPartialLine(descriptor))

        let pipe = TestPipe()
        #expect(!LineBuffer.appendsAfterPartialLine(pipe.writeEnd))
        #expect(!LineBuffer.appendsAfterPartialLine(-1))
    }
}

/// Reads a pipe to its end on a thread of its own.
final class PipeReader: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var bytes: [UInt8] = []  // written by the thread before `done` is signalled, read after

    init(_ pipe: TestPipe) {
        let readEnd = pipe.readEnd
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = read(readEnd, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                bytes += buffer[0..<count]
            }
            done.signal()
        }
    }

    func wait() -> [UInt8] {
        done.wait()
        return bytes
    }
}
