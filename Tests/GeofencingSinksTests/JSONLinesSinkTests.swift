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
