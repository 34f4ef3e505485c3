import Foundation
import Geofencing
import Testing

@testable import GeofencingGPSD

/// How gpsd's TPV and GST reports become one report per epoch, in the two orders gpsd 3.22 sends them (measured
/// with gpsfake on the Brisbane log and on its variant with RMC moved before GGA). No gpsd needed.
@Suite struct TPVEpochAssemblerTests {
    static func tpv(_ second: Int, eph: Double = 24.7) -> TPVReport {
        var report = TPVReportTests.brisbane
        report.seconds += second
        report.eph = eph
        return report
    }

    static func gst(_ second: Int, _ sigma: Double) -> GSTReport {
        GSTReport(seconds: TPVReportTests.brisbane.seconds + second, nanoseconds: 0, latitudeSigma: sigma,
                  longitudeSigma: sigma)
    }

    /// GGA before RMC: gpsd sends GST(n), SKY(n), TPV(n). The TPV takes the GST that came before it; the epoch is
    /// passed on when the next epoch's GST arrives.
    @Test func gstBeforeItsTPV() {
        var epochs = TPVEpochAssembler()
        #expect(epochs.add(Self.gst(0, 6)) == nil)
        #expect(epochs.add(Self.tpv(0)) == nil)
        let first = epochs.add(Self.gst(1, 7))
        #expect(first?.seconds == Self.tpv(0).seconds)
        #expect(first?.gst == Self.gst(0, 6))
        #expect(epochs.add(Self.tpv(1)) == nil)
        #expect(epochs.flush()?.gst == Self.gst(1, 7))
        #expect(epochs.flush() == nil)
    }

    /// RMC before GGA: gpsd sends TPV(n), GST(n), SKY(n). The GST joins the held TPV; the next TPV passes it on.
    @Test func gstAfterItsTPV() {
        var epochs = TPVEpochAssembler()
        #expect(epochs.add(Self.tpv(0)) == nil)
        #expect(epochs.add(Self.gst(0, 6)) == nil)
        let first = epochs.add(Self.tpv(1))
        #expect(first?.gst == Self.gst(0, 6))
        #expect(epochs.add(Self.gst(1, 7)) == nil)
        #expect(epochs.flush()?.gst == Self.gst(1, 7))
    }

    /// Several TPVs of one epoch (gpsd learning the cycle): the last one stands for the epoch, with the GST.
    @Test func repeatedTPVsBecomeOne() {
        var epochs = TPVEpochAssembler()
        #expect(epochs.add(Self.tpv(0, eph: 1)) == nil)
        #expect(epochs.add(Self.gst(0, 6)) == nil)
        #expect(epochs.add(Self.tpv(0, eph: 2)) == nil)
        let only = epochs.flush()
        #expect(only?.eph == 2)
        #expect(only?.gst == Self.gst(0, 6))
    }

    /// Without GST, every epoch keeps its eph; a stale GST of another time is never paired.
    @Test func withoutGSTNothingIsPaired() {
        var epochs = TPVEpochAssembler()
        #expect(epochs.add(Self.gst(-5, 6)) == nil)
        #expect(epochs.add(Self.tpv(0)) == nil)
        #expect(epochs.add(Self.tpv(1))?.gst == nil)
        #expect(epochs.flush()?.gst == nil)
    }
}
