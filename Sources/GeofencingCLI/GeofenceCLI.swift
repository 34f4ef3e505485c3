/// The `geofence` command: parses the subcommand and runs it. `main` of the executable is one call to `run`.
///
/// Exit status: 0 success, 1 failure at run time, 2 usage error. Errors go to standard error, naming the input
/// (file, line, field) and what is wrong; events and results go to standard output.
public enum GeofenceCLI {
    /// A subcommand: its name, one line for the overview, its full help, and its body.
    struct Command: Sendable {
        let name: String
        let summary: String
        let help: String
        let run: @Sendable (inout ArgumentList) throws -> Void
    }

    static let commands: [Command] = [
        DemoCommand.command, ReplayCommand.command, QueryCommand.command, RunCommand.command,
        FencesCommand.command, MapCommand.command, SimulateCommand.command, ConvertCommand.command,
    ]

    /// Runs the command line (without the program name) and returns the exit status.
    public static func run(_ arguments: [String]) -> Int32 {
        if arguments == ["--version"] {
            Console.out(Version.text)
            return 0
        }
        if arguments == ["help", "--man"] {
            Console.out(ManPage.text)
            return 0
        }
        guard let name = arguments.first, name != "--help", name != "-h", name != "help" else {
            Console.out(overview)
            return arguments.isEmpty ? 2 : 0
        }
        guard let command = commands.first(where: { $0.name == name }) else {
            Console.error("geofence: unknown command \(name)\n\n" + overview)
            return 2
        }
        var list = ArgumentList(command: name, Array(arguments.dropFirst()))
        if list.wantsHelp {
            Console.out(command.help)
            return 0
        }
        do {
            try command.run(&list)
            return 0
        } catch let error as CLIError {
            Console.error(error.description)
            if case .usage = error { Console.error("Run 'geofence \(name) --help' for usage.") }
            return error.exitStatus
        } catch {
            Console.error("geofence \(name): \(error)")
            return 1
        }
    }

    static var overview: String {
        var text = """
            geofence: geofencing for vehicle units (gpsd, NMEA, GPX), with durable events.

            Usage: geofence COMMAND [OPTIONS]   (geofence COMMAND --help for each)

            Commands:

            """
        for command in commands { text += "  \(command.name.padding(toLength: 10, withPad: " ", startingAt: 0))\(command.summary)\n" }
        text += "\ngeofence --version prints the version, the commit and the traits compiled in;\n"
            + "geofence help --man the manual page geofence(1).\n"
        text += "\nExit status: 0 success, 1 failure, 2 usage error."
        return text
    }
}
