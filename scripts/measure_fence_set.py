#!/usr/bin/env python3
"""How long a running daemon takes to apply a large fence set from the broker, and what it costs the fixes meanwhile.

Starts a mosquitto broker on the loopback and `geofence run --nmea - --mqtt ...` on a new store, feeds it a drive at
10 Hz (RMC + GGA, GNSS time = wall-clock pace) that crosses a row of 30 m circles every 5 s, publishes (retained,
QoS 1) on BASE/fences a set of those circles plus COUNT uniform random circles elsewhere, and reads the ack on
BASE/fences/ack. Prints: the set's size, the ack and the seconds from publish to ack; per event, the delay from the
write of the fix that decided it to its line on the daemon's standard output (median and worst, before, while and
after the set is applied); and whether every crossing of the drive was reported exactly once (none dropped, none
repeated: the circles of the drive are in the store before the set arrives and stay in it, so their states carry
through). Exit status 1 when the ack is not "applied" or a crossing is missing or repeated.

    python3 scripts/measure_fence_set.py [--geofence .build/release/geofence] [--count 100000] [--seconds 40]

Needs mosquitto, mosquitto_pub and mosquitto_sub (Debian packages mosquitto, mosquitto-clients; both installed by
scripts/install-deps.sh --test).
"""
import argparse, datetime, json, math, os, random, socket, subprocess, sys, tempfile, threading, time

ORIGIN_LAT, ORIGIN_LON = -27.40, 152.90   # the drive starts here and heads east
SPEED = 20.0                                # m/s
SPACING = 100.0                             # metres between the drive's circles: a crossing pair every 5 s
RADIUS = 30.0
METRES_PER_DEGREE = 111_320.0


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def nmea(body):
    checksum = 0
    for c in body.encode():
        checksum ^= c
    return f"${body}*{checksum:02X}\r\n"


def position(t):
    """The drive's position t seconds after its start (due east along the origin's parallel)."""
    east = SPEED * t
    return ORIGIN_LAT, ORIGIN_LON + east / (METRES_PER_DEGREE * math.cos(math.radians(ORIGIN_LAT)))


def epoch(t, start):
    lat, lon = position(t)
    stamp = time.gmtime(start + int(t))
    hms = time.strftime("%H%M%S", stamp) + f".{int(round((t % 1) * 100)) % 100:02d}"
    date = time.strftime("%d%m%y", stamp)
    def dm(value, degrees_digits, positive, negative):
        hemisphere = positive if value >= 0 else negative
        value = abs(value)
        degrees = int(value)
        return f"{degrees:0{degrees_digits}d}{(value - degrees) * 60:07.4f}", hemisphere
    la, ns = dm(lat, 2, "N", "S")
    lo, ew = dm(lon, 3, "E", "W")
    return (nmea(f"GPRMC,{hms},A,{la},{ns},{lo},{ew},{SPEED / 0.514444:.1f},90.0,{date},,,A")
            + nmea(f"GPGGA,{hms},{la},{ns},{lo},{ew},1,12,0.2,20.0,M,40.0,M,,"))


def drive_circles(seconds):
    """The circles the drive crosses, centred on its line: (identifier, lat, lon)."""
    circles = []
    for i in range(1, int(SPEED * seconds / SPACING) + 1):
        lat, lon = position(i * SPACING / SPEED)
        circles.append((f"drive-{i:03d}", lat, lon))
    return circles


def feature(identifier, lat, lon, radius):
    return {"type": "Feature", "id": identifier, "geometry": {"type": "Point", "coordinates": [lon, lat]},
            "properties": {"radius": radius}}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--geofence", default=".build/release/geofence")
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--seconds", type=float, default=40.0, help="length of the drive")
    parser.add_argument("--publish-at", type=float, default=12.0, help="seconds into the drive the set is sent")
    options = parser.parse_args()

    work = tempfile.mkdtemp(prefix="geofence-fence-set-")
    port = free_port()
    with open(os.path.join(work, "mosquitto.conf"), "w") as conf:
        conf.write(f"persistence false\nlistener {port} 127.0.0.1\nallow_anonymous true\n"
                   + ("user root\n" if os.geteuid() == 0 else ""))
    broker = subprocess.Popen(["/usr/sbin/mosquitto", "-c", os.path.join(work, "mosquitto.conf")],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
            break
        except OSError:
            time.sleep(0.05)

    circles = drive_circles(options.seconds)
    fences = os.path.join(work, "drive.geojson")
    with open(fences, "w") as f:
        json.dump({"type": "FeatureCollection", "features": [feature(i, la, lo, RADIUS) for i, la, lo in circles]}, f)
    rng = random.Random(7)
    others = [feature(f"far-{n:06d}", rng.uniform(-30.0, -20.0), rng.uniform(140.0, 150.0), rng.uniform(20, 2000))
              for n in range(options.count)]
    fence_set = os.path.join(work, "set.json")
    with open(fence_set, "w") as f:
        json.dump({"type": "FeatureCollection", "version": "measure-1",
                   "features": [feature(i, la, lo, RADIUS) for i, la, lo in circles] + others}, f)
    set_bytes = os.path.getsize(fence_set)

    base = "fleet/measure"
    acks = []
    ack_reader = subprocess.Popen(["mosquitto_sub", "-h", "127.0.0.1", "-p", str(port), "-t", f"{base}/fences/ack",
                                   "-q", "1"], stdout=subprocess.PIPE, text=True)
    def read_acks():
        for line in ack_reader.stdout:
            acks.append((time.monotonic(), line.strip()))
    threading.Thread(target=read_acks, daemon=True).start()

    daemon = subprocess.Popen([options.geofence, "run", "--store", os.path.join(work, "unit.db"), "--nmea", "-",
                               "--fences", fences, "--format", "jsonl", "--status-interval", "0",
                               "--mqtt", f"mqtt://127.0.0.1:{port}/{base}"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    events = []
    def read_events():
        for line in daemon.stdout:
            events.append((time.monotonic(), json.loads(line)))
    log = []
    threading.Thread(target=read_events, daemon=True).start()
    threading.Thread(target=lambda: log.extend(daemon.stderr), daemon=True).start()

    start = int(time.time()) - 60           # GNSS time of the first fix; any fixed start would do
    written = {}                            # fix time in tenths of a second since 1970 → wall time it was written
    published = None
    begin = time.monotonic()
    step = 0
    while step * 0.1 <= options.seconds:
        t = step * 0.1
        due = begin + t
        while time.monotonic() < due:
            time.sleep(min(0.01, due - time.monotonic()))
        if published is None and t >= options.publish_at:
            subprocess.run(["mosquitto_pub", "-h", "127.0.0.1", "-p", str(port), "-t", f"{base}/fences", "-q", "1",
                            "-r", "-f", fence_set], check=True)
            published = time.monotonic()
        daemon.stdin.write(epoch(t, start))
        daemon.stdin.flush()
        written[start * 10 + step] = time.monotonic()
        step += 1
    daemon.stdin.close()
    daemon.wait(timeout=120)
    time.sleep(0.5)
    ack_reader.terminate()
    broker.terminate()

    ack_time, ack = (acks[0] if acks else (None, "none"))
    print(f"set: {len(circles) + options.count} circles, {set_bytes} bytes; ack {ack}")
    if ack_time is not None:
        print(f"published → ack: {ack_time - published:.2f} s")
    def phase(wall):
        if ack_time is None or wall < published:
            return "before the set"
        return "while it is applied" if wall <= ack_time else "after the ack"
    delays = {}
    crossings = {}
    for wall, event in events:
        if event.get("type") not in ("enter", "exit"):
            continue
        crossings[(event["region"], event["type"])] = crossings.get((event["region"], event["type"]), 0) + 1
        stamp = datetime.datetime.fromisoformat(event["time"].replace("Z", "+00:00")).timestamp()
        key = round(stamp * 10)
        if key in written:
            delays.setdefault(phase(written[key]), []).append(wall - written[key])
    for name in ("before the set", "while it is applied", "after the ack"):
        values = sorted(delays.get(name, []))
        if values:
            print(f"event delay {name}: {len(values)} events, median {values[len(values) // 2] * 1000:.0f} ms, "
                  f"worst {values[-1] * 1000:.0f} ms")
    crossed = [identifier for identifier, lat, lon in circles
               if (lon - ORIGIN_LON) * METRES_PER_DEGREE * math.cos(math.radians(ORIGIN_LAT)) + RADIUS + 40
               < SPEED * options.seconds]
    missing = [(i, kind) for i in crossed for kind in ("enter", "exit") if crossings.get((i, kind), 0) == 0]
    repeated = [key for key, n in crossings.items() if n > 1]
    print(f"crossings: {len(crossed)} circles crossed, {len(missing)} enters/exits missing, {len(repeated)} repeated")
    if missing or repeated or not ack.startswith("{") or json.loads(ack).get("status") != "applied":
        print("daemon log:\n" + "".join(log[-20:]), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
