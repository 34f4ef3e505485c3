#!/usr/bin/env bash
# Installs the Debian packages the build, the demo and (with --test) the tests need. Idempotent: installs only
# what is missing, and runs apt-get update only when something is. Needs root (or sudo) only then.
#
#   scripts/install-deps.sh          build everything and run `swift run geofence demo`
#   scripts/install-deps.sh --test   also what the tests run for real: gpsd, a mosquitto broker, chromium, ...
set -euo pipefail

# Build: the C libraries behind the system-library targets (libgps: the gpsd reader; SQLite: the store;
# libmosquitto: the MQTT sink; GEOS: perf's geos-strtree peer), and gcc for the C core's integer-only check.
# perf's C++ peers (`swift build` builds perf): libboost-dev for boost.geometry's rtree (headers only), libs2-dev for
# S2's S2CellIndex (it brings Abseil), libstdc++-12-dev for the C++ standard library they compile against.
# libjs-leaflet: the map's Leaflet, compiled into the binary (Plugins/LeafletEmbedding).
PACKAGES=(gcc libc6-dev pkg-config libgps-dev libsqlite3-dev libmosquitto-dev libgeos-dev libboost-dev libs2-dev
          libstdc++-12-dev libjs-leaflet)
# tzdata: the IANA zones a region's schedule names (Foundation's TimeZone reads the system's zoneinfo), at run
# time and in the schedule tests.
PACKAGES+=(tzdata)

if [ "${1:-}" = "--test" ]; then
    # gpsd + gpsd-clients: gpsfake, gpspipe and gpsdecode; sqlite3: the store's crash and lock tests; mosquitto:
    # the broker the MQTT tests start on loopback (and mosquitto_passwd); openssl: the CA and certificates of the
    # MQTT TLS tests; chromium + python3: the map's screenshot check; systemd:
    # systemd-analyze for the service unit.
    # clang-14 + libclang-rt-14-dev: libFuzzer and the sanitizers for the C core (scripts/fuzz-core.sh).
    # python3-geographiclib: the polygon reference (scripts/gen_polygon_vectors.py, make check-polygons-shared).
    # e2fsprogs + util-linux: the ext4 image the daemon's store-fault test turns read-only; setpriv runs the daemon
    # as an unprivileged user in the security test. python3-seccomp: scripts/service-sandbox.py, which runs the
    # daemon under the service unit's system call filter in the service-unit test. strace: the standard-output
    # tests count write and fsync calls. time: GNU time, the fence readers' peak-memory test.
    # dpkg-dev (dpkg-shlibdeps), binutils (strip), man-db + groff-base (the man page test), lintian: the Debian
    # package (scripts/build-deb.sh, scripts/check-package.sh). mosquitto-clients: mosquitto_pub and mosquitto_sub
    # for scripts/measure_fence_set.py.
    PACKAGES+=(gpsd gpsd-clients sqlite3 mosquitto mosquitto-clients openssl chromium python3 systemd clang-14
               libclang-rt-14-dev python3-geographiclib e2fsprogs util-linux python3-seccomp strace time
               dpkg-dev binutils man-db groff-base lintian)
elif [ -n "${1:-}" ]; then
    echo "usage: $0 [--test]" >&2
    exit 2
fi

missing=()
for package in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}" >&2
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
