// Shared by every input fuzzer (compiled into each one by scripts/fuzz-inputs.sh): the invariants that hold for
// whatever a reader returns, and the time bound per input. A broken invariant stops the fuzzer with the reason;
// libFuzzer then writes the input as crash-<sha1> for the reproducer.
import Foundation
import Geofencing
import GeofencingInputs

enum FuzzChecks {
    /// The input as Data, copied out of libFuzzer's buffer (which is only valid during the call).
    static func data(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Data {
        guard let bytes, count > 0 else { return Data() }
        return Data(bytes: bytes, count: count)
    }

    /// Stops the fuzzer: libFuzzer reports the trap as a crash and saves the input.
    static func fail(_ target: String, _ message: String) -> Never {
        fatalError("fuzz-\(target): \(message)")
    }

    /// Every fix a track reader returns has a finite, in-range coordinate and no negative or non-finite accuracy.
    static func checkObservations(_ observations: [Observation], target: String) {
        for (index, observation) in observations.enumerated() {
            guard case .fix(let fix) = observation else { continue }
            if !fix.coordinate.isValid { fail(target, "observation \(index): invalid coordinate \(fix.coordinate)") }
            if let accuracy = fix.horizontalAccuracy, !(accuracy.isFinite && accuracy >= 0) {
                fail(target, "observation \(index): horizontal accuracy \(accuracy)")
            }
        }
    }

    /// Runs `body` and fails when it took longer than the budget for `byteCount` bytes, twice in a row.
    ///
    /// The readers take well under a millisecond per KB; the budget (100 ms plus 10 ms per KB) is far above that even
    /// under AddressSanitizer, so that only superlinear behaviour (a quadratic scan, a backtracking loop) trips it.
    /// An input over budget is run again and fails only if it is over budget again, so that a moment without the
    /// CPU on a loaded machine is not reported; the process's first input (Foundation and libxml2 start-up) is not
    /// timed. A true hang is caught by libFuzzer's own -timeout.
    static func timed<T>(_ target: String, byteCount: Int, _ body: () -> T) -> T {
        let budget = Duration.milliseconds(100) + Duration.milliseconds(10) * Double(byteCount) / 1024
        let clock = ContinuousClock()
        var result: T?
        let elapsed = clock.measure { result = body() }
        if elapsed > budget && !isFirstInput {
            let again = clock.measure { result = body() }
            if again > budget {
                fail(target, "\(byteCount) bytes took \(elapsed), then \(again): more than the budget \(budget)")
            }
        }
        isFirstInput = false
        return result!
    }

    /// libFuzzer calls the entry point from one thread only, so the unsynchronised flag is safe.
    nonisolated(unsafe) private static var isFirstInput = true
}
