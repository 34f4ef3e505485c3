import Foundation
import GeofencingCLI

// The executable is the library's command runner; process exit happens here and nowhere else.
exit(GeofenceCLI.run(Array(CommandLine.arguments.dropFirst())))
