/// The manual page geofence(1), in roff (man macros), made from the commands' own help texts: `geofence help --man`
/// prints it, and the Debian package installs it (scripts/build-deb.sh). Each command's help is set verbatim in
/// no-fill mode, so the page says exactly what `geofence COMMAND --help` says and cannot fall out of step with it.
enum ManPage {
    static var text: String {
        var page = """
            .TH GEOFENCE 1 "" "geofence \(roff(Version.current))" "User Commands"
            .SH NAME
            geofence \\- geofencing for vehicle units (gpsd, NMEA, GPX), with durable events
            .SH SYNOPSIS
            .B geofence
            .I COMMAND
            .RI [ OPTIONS ]
            .br
            .B geofence
            .I COMMAND
            .B \\-\\-help
            .br
            .B geofence \\-\\-version
            .br
            .B geofence help \\-\\-man
            .SH DESCRIPTION
            .B geofence
            tells which of up to a million fences (circles, polygons, corridors) a GNSS fix is inside or near, and
            reports enter, exit, dwell, approach and state events that neither flap on GPS jitter nor go missing.
            Fixes come from gpsd, NMEA 0183 or GPX logs, or a simulated drive;
            .B geofence run
            is the daemon, which keeps regions, states and an event outbox in a SQLite store and delivers every event
            at least once to standard output, a command per event, or an MQTT broker.
            .PP
            .B \\-\\-version
            prints the version, the git commit the binary was built from and the build's traits
            (GPSD: the gpsd input; MQTT: the MQTT sink).
            .B help \\-\\-man
            prints this page.
            .SH COMMANDS

            """
        for command in GeofenceCLI.commands {
            page += ".SS \(roff(command.name))\n\(roff(command.summary))\n.PP\n.nf\n"
            page += command.help.split(separator: "\n", omittingEmptySubsequences: false)
                .map { roffLine(String($0)) }.joined(separator: "\n")
            page += "\n.fi\n"
        }
        page += """
            .SH FILES
            .TP
            .I /etc/geofence/geofence.conf
            the options of the service's
            .B geofence run \\-\\-config
            (one key = value a line; see run above)
            .TP
            .I /var/lib/geofence/store.db
            the service's store: regions, states and the event outbox (kept when the package is removed or purged)
            .TP
            .I /lib/systemd/system/geofence.service
            the service unit; installed disabled: enable it with
            .B systemctl enable \\-\\-now geofence
            .SH EXIT STATUS
            0 success, 1 failure at run time, 2 usage error. Errors go to standard error and name the input
            (file, line, field) and what is wrong.
            .SH SEE ALSO
            .BR gpsd (8),
            .BR gpsfake (1),
            .BR mosquitto (8),
            .BR systemctl (1)

            """
        return page
    }

    /// One line of text set in no-fill mode: a line that starts with the control character is protected by `\&`
    /// (the other one, `'`, is always escaped).
    private static func roffLine(_ line: String) -> String {
        let escaped = roff(line)
        return escaped.hasPrefix(".") ? "\\&" + escaped : escaped
    }

    /// Text with roff's escape character, hyphens (`\-`, the character options are written with) and the characters
    /// groff would make typographic escaped, and anything beyond ASCII as a Unicode escape, so that the page reads
    /// the same in any locale.
    static func roff(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\e"
            case "-": result += "\\-"
            // groff would typeset these as typographic quotes and accents; the help means the ASCII characters.
            case "'": result += "\\(aq"
            case "`": result += "\\(ga"
            case "^": result += "\\(ha"
            case "~": result += "\\(ti"
            case _ where scalar.isASCII: result.unicodeScalars.append(scalar)
            default: result += "\\[u" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4) + "]"
            }
        }
        return result
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
