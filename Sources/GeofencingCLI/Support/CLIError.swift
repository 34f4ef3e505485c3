/// How a command fails, and so the process's exit status: 2 for a usage error (the command line is wrong), 1 for a
/// failure at run time (a file that cannot be read, a store that cannot be written).
public enum CLIError: Error, CustomStringConvertible {
    /// The command line is wrong: `command` names the subcommand whose usage to show.
    case usage(command: String, message: String)
    /// Something failed while running; the message names the input and what is wrong.
    case failure(String)

    public var description: String {
        switch self {
        case .usage(_, let message), .failure(let message): message
        }
    }

    public var exitStatus: Int32 {
        switch self {
        case .usage: 2
        case .failure: 1
        }
    }
}
