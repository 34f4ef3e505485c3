/// The software version, as the unit's status reports it: the repository's VERSION file when there is one (there is
/// none yet), else "0.0.0-dev". One constant, read from nothing at run time.
enum Version {
    static let current = "0.0.0-dev"
}
