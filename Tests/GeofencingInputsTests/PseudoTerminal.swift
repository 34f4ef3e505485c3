// Test support: a pseudo-terminal pair, standing in for a serial GNSS receiver.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The master side plays the receiver; the slave side (`devicePath`, /dev/pts/N) is a terminal like /dev/ttyUSB0.
///
/// glibc declares posix_openpt, grantpt, unlockpt and ptsname only with _XOPEN_SOURCE, which Swift's Glibc module
/// does not define, so they are looked up at run time. Adding a C target to the package for a test helper would
/// cost more than this.
final class PseudoTerminal {
    let master: Int32
    let devicePath: String

    init?() {
        typealias OpenFunction = @convention(c) (Int32) -> Int32
        typealias NameFunction = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?
        guard let process = dlopen(nil, RTLD_NOW),
              let openSymbol = dlsym(process, "posix_openpt"), let grantSymbol = dlsym(process, "grantpt"),
              let unlockSymbol = dlsym(process, "unlockpt"), let nameSymbol = dlsym(process, "ptsname")
        else { return nil }
        let master = unsafeBitCast(openSymbol, to: OpenFunction.self)(O_RDWR | O_NOCTTY)
        guard master >= 0 else { return nil }
        guard unsafeBitCast(grantSymbol, to: OpenFunction.self)(master) == 0,
              unsafeBitCast(unlockSymbol, to: OpenFunction.self)(master) == 0,
              let name = unsafeBitCast(nameSymbol, to: NameFunction.self)(master)
        else {
            close(master)
            return nil
        }
        self.master = master
        devicePath = String(cString: name)
    }

    deinit {
        close(master)
    }
}
