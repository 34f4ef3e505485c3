#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Puts a serial device (a GNSS receiver on /dev/ttyUSB0, /dev/ttyACM0, /dev/serial0, ...) into the state an NMEA
/// reader needs: raw bytes at a given speed, no echo, no line editing, no translation of CR to LF, modem control
/// lines ignored.
enum SerialPort {
    /// Speeds NMEA receivers use: 4800 baud is the NMEA 0183 standard (most marine equipment, older GPS mice);
    /// 9600 is the default of u-blox, MediaTek and most USB receivers; 38400 is NMEA 0183-HS (AIS), faster ones
    /// are for high-rate receivers. USB CDC-ACM devices (ttyACM) ignore the speed.
    static let supportedBaudRates: [Int: speed_t] = [
        1200: speed_t(B1200), 2400: speed_t(B2400), 4800: speed_t(B4800), 9600: speed_t(B9600),
        19200: speed_t(B19200), 38400: speed_t(B38400), 57600: speed_t(B57600), 115200: speed_t(B115200),
        230400: speed_t(B230400),
    ]

    /// Configures the terminal `descriptor` for raw reading at `baudRate`; does nothing when it is not a terminal
    /// (a file, a pipe, a pseudo-terminal of gpsfake is a terminal and is configured).
    ///
    /// - Throws: `TrackReadError` naming `source` when the speed is not supported or the terminal refuses.
    static func configureIfTerminal(_ descriptor: Int32, baudRate: Int, source: String) throws {
        guard isatty(descriptor) == 1 else { return }
        guard let speed = supportedBaudRates[baudRate] else {
            let known = supportedBaudRates.keys.sorted().map(String.init).joined(separator: ", ")
            throw TrackReadError(source: source, message: "baud rate \(baudRate) is not one of \(known)")
        }
        var settings = termios()
        guard tcgetattr(descriptor, &settings) == 0 else { throw systemError(source, "tcgetattr") }
        cfmakeraw(&settings)
        settings.c_cflag |= tcflag_t(CLOCAL | CREAD)     // no modem control lines; enable the receiver
        // read() returns as soon as one byte is there; the reader's poll() provides the timeout.
        withUnsafeMutableBytes(of: &settings.c_cc) { controlCharacters in
            controlCharacters[Int(VMIN)] = 1
            controlCharacters[Int(VTIME)] = 0
        }
        guard cfsetispeed(&settings, speed) == 0, cfsetospeed(&settings, speed) == 0,
              tcsetattr(descriptor, TCSANOW, &settings) == 0
        else { throw systemError(source, "setting \(baudRate) baud raw mode") }
    }

    static func systemError(_ source: String, _ operation: String) -> TrackReadError {
        TrackReadError(source: source, message: "\(operation) failed: \(String(cString: strerror(errno)))")
    }
}
