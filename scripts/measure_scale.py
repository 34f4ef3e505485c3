#!/usr/bin/env python3
"""Time and peak memory of `geofence` with many fences on one unit: the import, the daemon's first start and its
restart, and `geofence replay`, each under GNU time (`/usr/bin/time -v`: wall time, CPU time, peak resident memory).

The fences are those of `DaemonScaleTests` (Tests/GeofencingCLITests/DaemonScaleTests.swift): a CSV of COUNT
circles, three along a 2 km drive east from (-27.5, 153) ("start" contains its first fix, "middle" and "end" are
entered and left) and COUNT - 3 circles of 50 m with 12-byte identifiers on a grid 200 m apart, more than 100 km
away. The drive is `geofence simulate` (car, perfect receiver, seed 7) along that line; the daemon reads its 1 Hz
log split in two at 1,300 m (the first start reads the first part, the restart the second), and the replay reads
the same drive at 10 Hz. Each step's events are checked against those the test expects; a difference, or a step
that fails, ends the script with status 1.

    python3 scripts/measure_scale.py [--geofence .build/release/geofence] [--count 1000000] [--steps STEP,...]
                                     [--approach SECONDS]

STEP is import, first, restart or replay (default: all four, in that order; first and restart need import).
--approach gives the replay an approach alarm on every fence. Every line printed says the load (uptime) before the
step: other processes on the machine change the times, so compare runs made one after the other.
"""
import argparse, math, os, re, subprocess, sys, tempfile

START_LAT, START_LON = -27.5, 153.0
SPLIT_METRES = 1_300


def east(metres):
    """The point `metres` east of the drive's start (the same formula as DaemonFixtures.east)."""
    return START_LAT, START_LON + metres / (111_320 * math.cos(27.5 * math.pi / 180))


def fence_file(path, count):
    drive_regions = [("start", east(0), 300.0), ("middle", east(1_000), 100.0), ("end", east(1_800), 100.0)]
    with open(path, "w") as out:
        out.write("id,lat,lon,radius_m\n")
        for identifier, (lat, lon), radius in drive_regions:
            out.write(f"{identifier},{lat!r},{lon!r},{radius!r}\n")
        for index in range(count - len(drive_regions)):
            lat = -26 + (index // 1_000) * 0.002
            lon = 152 + (index % 1_000) * 0.002
            out.write(f"s-{index:010d},{lat!r},{lon!r},50\n")


def simulate(geofence, directory, rate):
    route = os.path.join(directory, "route.gpx")
    (lat0, lon0), (lat1, lon1) = east(0), east(2_000)
    with open(route, "w") as out:
        out.write('<?xml version="1.0"?>\n<gpx version="1.1" creator="measure_scale"><rte>'
                  f'<rtept lat="{lat0!r}" lon="{lon0!r}"/><rtept lat="{lat1!r}" lon="{lon1!r}"/></rte></gpx>\n')
    log = os.path.join(directory, f"drive-{rate}hz.nmea")
    subprocess.run([geofence, "simulate", "--route", route, "--profile", "car", "--errors", "perfect",
                    "--rate", str(rate), "--seed", "7", "-o", log], check=True, stderr=subprocess.DEVNULL)
    return log


def split_log(log, directory):
    """The log's epochs up to the first fix at SPLIT_METRES east or beyond, and the rest. An epoch starts with its
    GSA sentence (NMEAWriter's order: GSA, RMC, GGA, GST)."""
    epochs, comments = [], []
    with open(log) as lines:
        for line in lines:
            if line.startswith("#"):
                comments.append(line)
            elif line[3:6] == "GSA" or not epochs:
                epochs.append([line])
            else:
                epochs[-1].append(line)
    split_lon = east(SPLIT_METRES)[1]

    def longitude(epoch):
        for line in epoch:
            fields = line.split(",")
            if fields[0].endswith("RMC") and fields[2] == "A":
                value = float(fields[5][:3]) + float(fields[5][3:]) / 60
                return value if fields[6] == "E" else -value
        return None

    cut = next(i for i, epoch in enumerate(epochs) if (longitude(epoch) or -1e9) >= split_lon) + 1
    parts = []
    for name, chosen in (("first", epochs[:cut]), ("second", epochs[cut:])):
        path = os.path.join(directory, f"{name}.nmea")
        with open(path, "w") as out:
            out.writelines(comments + [line for epoch in chosen for line in epoch])
        parts.append(path)
    return parts


def load():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def measure(name, command, directory):
    """Runs `command` under GNU time; returns its standard output. Prints wall, CPU and peak RSS."""
    report = os.path.join(directory, "time.txt")
    before = load()
    run = subprocess.run(["/usr/bin/time", "-v", "-o", report] + command, stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    text = open(report).read()
    if run.returncode != 0:
        sys.exit(f"{name}: exit status {run.returncode}\n{run.stderr[-2000:]}")
    wall = text.split("Elapsed (wall clock) time (h:mm:ss or m:ss): ")[1].split("\n")[0]
    seconds = sum(float(part) * 60 ** i for i, part in enumerate(reversed(wall.split(":"))))
    cpu = sum(float(re.search(rf"{kind} time \(seconds\): ([0-9.]+)", text).group(1)) for kind in ("User", "System"))
    peak = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", text).group(1))
    print(f"{name}: {seconds:.2f} s wall, {cpu:.2f} s CPU, peak RSS {peak / 1024:.0f} MiB (load {before})",
          flush=True)
    return run.stdout


def events(output):
    """`type region state` of each JSON line."""
    found = []
    for line in output.splitlines():
        fields = dict(re.findall(r'"(type|region|state)":"([^"]*)"', line))
        found.append(f"{fields.get('type')} {fields.get('region')} {fields.get('state')}")
    return found


def expect(name, got, wanted):
    if got != wanted:
        sys.exit(f"{name}: events {got}, expected {wanted}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--geofence", default=".build/release/geofence")
    parser.add_argument("--count", type=int, default=1_000_000)
    parser.add_argument("--steps", default="import,first,restart,replay")
    parser.add_argument("--approach", type=float)
    options = parser.parse_args()
    steps = options.steps.split(",")
    geofence = os.path.abspath(options.geofence)
    with tempfile.TemporaryDirectory(prefix="measure-scale-") as directory:
        fences = os.path.join(directory, "fences.csv")
        fence_file(fences, options.count)
        store = os.path.join(directory, "unit.db")
        first, second = split_log(simulate(geofence, directory, 1), directory)
        print(f"geofence with {options.count} fences ({geofence})", flush=True)
        if "import" in steps:
            measure("fences import", [geofence, "fences", "import", fences, "--store", store], directory)
        daemon = [geofence, "run", "--store", store, "--format", "jsonl", "--nmea"]
        if "first" in steps:
            expect("first start", events(measure("first start", daemon + [first], directory)),
                   ["state start inside", "exit start outside", "enter middle inside", "exit middle outside"])
        if "restart" in steps:
            expect("restart", events(measure("restart", daemon + [second], directory)),
                   ["enter end inside", "exit end outside"])
        if "replay" in steps:
            approach = ["--approach", str(options.approach)] if options.approach else []
            output = measure("replay, 10 Hz drive",
                             [geofence, "replay", simulate(geofence, directory, 10), "--fences", fences,
                              "--format", "jsonl"] + approach, directory)
            if not approach:
                expect("replay", events(output), ["state start inside", "exit start outside", "enter middle inside",
                                                  "exit middle outside", "enter end inside", "exit end outside"])


if __name__ == "__main__":
    main()
