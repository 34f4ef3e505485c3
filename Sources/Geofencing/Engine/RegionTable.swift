import CGeofence
import Foundation

/// The engine's regions, one record slot each, as dense arrays indexed by slot (struct of arrays): what every region
/// needs, packed, and nothing else. Not thread-safe (the engine's lock guards it).
///
/// Memory per region: the identifier (16 bytes: a `String` holds up to 15 UTF-8 bytes inline, a longer one points
/// to its own storage), the centre and radius (24; they give back the `Region` exactly, which the core's rounded
/// e7 degrees and millimetres could not), the core handle (4) and `RegionFlags` (2): 46 bytes. A region that is not
/// a plain circle (any field set beyond the centre, radius, identifier and notify flags, or another shape) keeps
/// its whole `Region` in a box out of line, found by slot; most of the 10^6 fences of a big unit have none. The
/// hysteresis of a plain circle is not stored: it is the configuration's for its radius. What only the regions
/// near the vehicle need (dwell clock, boundary watch, overspeed episodes) lives in the engine's side tables.
///
/// Growth: the arrays double, but never past the monitor's capacity, so a table filled to its capacity holds no
/// slack.
struct RegionTable {
    private(set) var identifiers: [String] = []
    private var centres: [Coordinate] = []
    private var radii: [Double] = []
    /// The core fence of each region; `MonitorEngine.recordSlotByCoreSlot` maps its slot back.
    var handles: [gf_handle] = []
    var flags: [RegionFlags] = []
    /// The regions that are not plain circles, by slot.
    private var boxes: [Int32: RegionBox] = [:]
    private var freeSlots: [Int32] = []
    /// Slots every array has room for (each at least this capacity; one may have more, from its allocator's
    /// rounding): the arrays grow together when the slots reach it, none of them on its own.
    private var reserved = 0
    private let configuration: MonitorConfiguration

    init(configuration: MonitorConfiguration) {
        self.configuration = configuration
    }

    /// One past the highest slot ever used: the range of `flags` (free slots included; `isOccupied` tells).
    var slotCount: Int { flags.count }

    /// The slot the next `add` uses.
    var nextSlot: Int { freeSlots.last.map { Int($0) } ?? flags.count }

    /// Makes room for `count` regions in all, so that adding them grows no array (a bulk add knows its count).
    mutating func reserve(_ count: Int) {
        let wanted = min(count, configuration.capacity)
        guard wanted > reserved else { return }
        reserveEvery(wanted)
    }

    /// Stores a new region in a free slot (the one freed last, or a new one) and returns that slot. Its state is
    /// unknown.
    mutating func add(_ region: Region, handle: gf_handle) -> Int {
        var entry = RegionFlags()
        entry.isOccupied = true
        if let reused = freeSlots.popLast() {
            let slot = Int(reused)
            handles[slot] = handle
            flags[slot] = entry
            store(region, in: slot)
            return slot
        }
        if flags.count == reserved {
            reserveEvery(min(max(16, reserved * 2), max(configuration.capacity, flags.count + 1)))
        }
        identifiers.append(region.identifier)
        centres.append(Coordinate(latitude: 0, longitude: 0))
        radii.append(0)
        handles.append(handle)
        flags.append(entry)
        store(region, in: flags.count - 1)
        return flags.count - 1
    }

    /// Gives the region in `slot` a new definition (same identifier); its state and flags other than the notify
    /// flags stay.
    mutating func replace(_ slot: Int, with region: Region) {
        store(region, in: slot)
    }

    /// Frees `slot` (its identifier's storage too).
    mutating func remove(_ slot: Int) {
        identifiers[slot] = ""
        boxes[Int32(slot)] = nil
        flags[slot] = RegionFlags()
        handles[slot] = GF_HANDLE_NONE
        freeSlots.append(Int32(slot))
    }

    private mutating func store(_ region: Region, in slot: Int) {
        identifiers[slot] = region.identifier
        flags[slot].notifyOnEntry = region.notifyOnEntry
        flags[slot].notifyOnExit = region.notifyOnExit
        if case .circle(let center, let radius) = region.shape,
           Region(center: center, radius: radius, identifier: region.identifier,
                  notifyOnEntry: region.notifyOnEntry, notifyOnExit: region.notifyOnExit) == region {
            // A plain circle: the rebuilt `Region` equals it, so nothing else needs keeping (a field `Region` gains
            // later makes it unequal, and so boxed, until this type learns to pack it).
            centres[slot] = center
            radii[slot] = radius
            flags[slot].isBoxed = false
            boxes[Int32(slot)] = nil
        } else {
            centres[slot] = Coordinate(latitude: 0, longitude: 0)
            radii[slot] = 0
            flags[slot].isBoxed = true
            let hysteresis = region.hysteresis ?? configuration.hysteresis(for: region.shape)
            boxes[Int32(slot)] = RegionBox(region, hysteresis: hysteresis)
        }
    }

    private mutating func reserveEvery(_ count: Int) {
        identifiers.reserveCapacity(count)
        centres.reserveCapacity(count)
        radii.reserveCapacity(count)
        handles.reserveCapacity(count)
        flags.reserveCapacity(count)
        reserved = count
    }

    // MARK: - A region's definition

    func isOccupied(_ slot: Int) -> Bool { flags[slot].isOccupied }

    /// The region, rebuilt (a plain circle: no allocation, the identifier's storage shared).
    func region(_ slot: Int) -> Region {
        if flags[slot].isBoxed { return boxes[Int32(slot)]!.region }
        return Region(center: centres[slot], radius: radii[slot], identifier: identifiers[slot],
                      notifyOnEntry: flags[slot].notifyOnEntry, notifyOnExit: flags[slot].notifyOnExit)
    }

    /// Metres past the boundary a fix must be to change the state.
    func hysteresis(_ slot: Int) -> Double {
        flags[slot].isBoxed ? boxes[Int32(slot)]!.hysteresis : configuration.hysteresis(forRadius: radii[slot])
    }

    /// The centre and radius of a circle (plain or not), nil for a polygon or a corridor.
    func circle(_ slot: Int) -> (center: Coordinate, radius: Double)? {
        guard flags[slot].isBoxed else { return (centres[slot], radii[slot]) }
        if case .circle(let center, let radius) = boxes[Int32(slot)]!.region.shape { return (center, radius) }
        return nil
    }

    func isCircle(_ slot: Int) -> Bool { !flags[slot].isBoxed || circle(slot) != nil }

    /// The rules only a boxed region can have (`Region`'s equality counts them, so a plain circle has none).
    func dwellTime(_ slot: Int) -> Double? { flags[slot].isBoxed ? boxes[Int32(slot)]!.region.dwellTime : nil }
    func speedLimit(_ slot: Int) -> SpeedLimit? { flags[slot].isBoxed ? boxes[Int32(slot)]!.region.speedLimit : nil }
    func schedule(_ slot: Int) -> Schedule? { flags[slot].isBoxed ? boxes[Int32(slot)]!.region.schedule : nil }
}

/// A region that is not a plain circle, out of line (see `RegionTable`), with its hysteresis.
final class RegionBox {
    let region: Region
    let hysteresis: Double

    init(_ region: Region, hysteresis: Double) {
        self.region = region
        self.hysteresis = hysteresis
    }
}

/// A region's state and small facts in two bytes: its state and last known state (2 bits each), whether its slot
/// is in use and its region boxed, the notify flags, and the rules' per-region marks.
struct RegionFlags {
    private var bits: UInt16 = 0

    private static let stateShift: UInt16 = 0
    private static let lastKnownShift: UInt16 = 2

    private func field(_ shift: UInt16) -> RegionState {
        switch (bits >> shift) & 3 {
        case 1: .inside
        case 2: .outside
        default: .unknown
        }
    }

    private mutating func setField(_ shift: UInt16, _ state: RegionState) {
        let code: UInt16 = switch state {
        case .unknown: 0
        case .inside: 1
        case .outside: 2
        }
        bits = bits & ~(3 << shift) | code << shift
    }

    private func bit(_ index: UInt16) -> Bool { bits & (1 << index) != 0 }

    private mutating func setBit(_ index: UInt16, _ value: Bool) {
        bits = value ? bits | (1 << index) : bits & ~(1 << index)
    }

    var state: RegionState {
        get { field(Self.stateShift) }
        set { setField(Self.stateShift, newValue) }
    }

    /// `RegionStateRecord.lastKnownState`: `state` whenever that is known (`MonitorEngine.setState`), kept while an
    /// outage makes `state` unknown; a different state found afterwards is an inferred transition.
    var lastKnownState: RegionState {
        get { field(Self.lastKnownShift) }
        set { setField(Self.lastKnownShift, newValue) }
    }

    var isOccupied: Bool {
        get { bit(4) }
        set { setBit(4, newValue) }
    }

    /// The region is kept whole in a `RegionBox` (not a plain circle).
    var isBoxed: Bool {
        get { bit(5) }
        set { setBit(5, newValue) }
    }

    var notifyOnEntry: Bool {
        get { bit(6) }
        set { setBit(6, newValue) }
    }

    var notifyOnExit: Bool {
        get { bit(7) }
        set { setBit(7, newValue) }
    }

    /// Restored from a store: a first fix that confirms `lastKnownState` reports nothing (the state never changed
    /// as far as anyone listening knows), so a restart with 100,000 regions is not 100,000 events.
    var confirmsQuietly: Bool {
        get { bit(8) }
        set { setBit(8, newValue) }
    }

    /// Restored from a record whose `state` is its `lastKnownState`: a quiet confirmation leaves the record as the
    /// store holds it, so it is not reported as changed (`ObservationOutcome.changedStates`).
    var storeHoldsLastKnownState: Bool {
        get { bit(9) }
        set { setBit(9, newValue) }
    }

    var dwellReported: Bool {
        get { bit(10) }
        set { setBit(10, newValue) }
    }

    /// requestState(for:) came before any usable fix: answer after the next one.
    var stateRequested: Bool {
        get { bit(11) }
        set { setBit(11, newValue) }
    }

    /// The core's query returned this region at the current fix (cleared after the fix: `MonitorEngine.seen`).
    var seenAtFix: Bool {
        get { bit(12) }
        set { setBit(12, newValue) }
    }

    /// This region produced an event since the fix number last advanced: one state change per region per fix
    /// (cleared when it advances: `MonitorEngine.spoke`).
    var eventAtFix: Bool {
        get { bit(13) }
        set { setBit(13, newValue) }
    }
}
