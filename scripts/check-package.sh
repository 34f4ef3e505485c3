#!/usr/bin/env bash
# The release as a unit gets it: a geofence that runs without the Swift toolchain, and its Debian package installed,
# run as the service runs it, and removed again. For a throwaway machine (CI), as root: it installs the package
# with dpkg and refuses to start where geofence is installed already or /var/lib/geofence exists.
#
#   scripts/check-package.sh            every check below
#   GEOFENCE_PACKAGE_COMPARE=1 scripts/check-package.sh
#                                       also builds the dynamically linked release binary and prints both binaries'
#                                       size and median start-up time (`geofence --version`, 20 runs each)
#
#  1. builds the geofence product with `swift build -c release --static-swift-stdlib` (in .build-static);
#  2. ldd lists no Swift library (libswiftCore, Foundation and its ICU, Dispatch, BlocksRuntime) and no path into the
#     toolchain;
#  3. a copy outside the build tree runs `geofence demo` with `env -i PATH=/usr/bin:/bin`, in a mount namespace
#     where the toolchain's directory is an empty file system;
#  4. scripts/build-deb.sh makes the package; lintian finds nothing (scripts/deb/lintian-suppressed justifies what
#     it may say);
#  5. dpkg -i; /usr/bin/geofence --version and demo; systemd-analyze verify on the installed unit; the daemon as the
#     unit runs it (the installed unit's sandbox through scripts/service-sandbox.py, an unprivileged user, the
#     installed configuration, the store in /var/lib/geofence) on fixes from a real gpsd (gpsfake);
#  6. dpkg -r keeps the conffile, dpkg -P removes it; afterwards only the state directory is left of the package
#     (README.md, "Running as a service"), and the script removes that too.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
export PATH="/opt/swift/usr/bin:$PATH"
toolchain="$(dirname "$(dirname "$(dirname "$(command -v swift)")")")"

step() { printf '\ncheck-package: %s\n' "$*" >&2; }
fail() { printf 'check-package: FAILED: %s\n' "$*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || fail "needs root (dpkg -i)"
if dpkg-query -W -f='${Status}' geofence 2>/dev/null | grep -q "installed"; then
    fail "the geofence package is installed on this machine already: this check installs and purges its own"
fi
[ ! -e /var/lib/geofence ] || fail "/var/lib/geofence exists: this check would run its daemon on that state"

work="$(mktemp -d /tmp/check-package.XXXXXX)"
chmod 755 "$work"  # the service's user reads the fence file in it
gpsfake_pid=""
daemon_pid=""
cleanup() {
    [ -z "$daemon_pid" ] || kill -KILL "$daemon_pid" 2>/dev/null || true
    [ -z "$gpsfake_pid" ] || { kill -INT "$gpsfake_pid" 2>/dev/null; sleep 1; kill -KILL "$gpsfake_pid" 2>/dev/null; }
    if dpkg-query -W -f='${Status}' geofence 2>/dev/null | grep -q "installed\|config-files"; then
        dpkg -P geofence >/dev/null 2>&1 || true
    fi
    rm -rf "$work" /var/lib/geofence
}
trap cleanup EXIT

# dpkg takes its lock or fails at once; on a machine where apt runs beside this script, wait for it (bounded).
dpkg_retrying() {
    local attempt
    for attempt in $(seq 1 60); do
        if dpkg "$@" > "$work/dpkg.log" 2>&1; then cat "$work/dpkg.log" >&2; return 0; fi
        grep -q "lock" "$work/dpkg.log" || { cat "$work/dpkg.log" >&2; return 1; }
        sleep 2
    done
    cat "$work/dpkg.log" >&2
    return 1
}

step "1. the static release binary"
build_static() {
    swift build -c release --static-swift-stdlib --disable-local-rpath --product geofence --scratch-path .build-static
}
# SwiftPM cannot reuse a scratch directory built with other flags ("unknown build description"): start it afresh.
build_static 2>&1 | tee "$work/build.log" >&2 || {
    grep -q "unknown build description" "$work/build.log" || fail "swift build"
    rm -rf .build-static
    build_static
}
binary="$root/.build-static/release/geofence"

step "2. ldd: no Swift library, nothing from $toolchain"
ldd "$binary" | tee "$work/ldd.txt" >&2
if grep -E 'libswift|Foundation|libdispatch|BlocksRuntime' "$work/ldd.txt" || grep -F "$toolchain" "$work/ldd.txt"; then
    fail "the binary links a library of the Swift toolchain"
fi
grep -q "not found" "$work/ldd.txt" && fail "a library the binary needs is missing"
printf 'check-package: size %s bytes (%s stripped)\n' "$(stat -c %s "$binary")" \
    "$(strip -o "$work/stripped" "$binary" && stat -c %s "$work/stripped")" >&2

step "3. demo from a copy outside the build tree, env -i PATH=/usr/bin:/bin, the toolchain hidden"
mkdir "$work/alone"
cp "$binary" "$work/alone/geofence"
# An empty tmpfs over the toolchain in a private mount namespace: were anything of it still loaded at run time
# (a library, ICU data, a module), the demo would fail here.
(cd "$work/alone" && env -i PATH=/usr/bin:/bin unshare --mount --propagation private \
    sh -c "mount -t tmpfs none '$toolchain' && ls -A '$toolchain' | wc -l && ./geofence demo --map alone-map.html" \
    > "$work/alone/demo.txt" 2>&1) || fail "the copied binary did not run the demo without the toolchain"
[ "$(head -n 1 "$work/alone/demo.txt")" = "0" ] || fail "the toolchain was not hidden"
grep '^demo: 11 fences, .* events$' "$work/alone/demo.txt" >&2 \
    || fail "demo printed: $(tail -n 3 "$work/alone/demo.txt")"

if [ "${GEOFENCE_PACKAGE_COMPARE:-0}" = 1 ]; then
    step "size and start-up time: static against dynamic (geofence --version, 20 runs, median)"
    swift build -c release --product geofence --scratch-path .build-static-compare
    median_ms() {
        local run start end
        for run in $(seq 1 20); do
            start=$(date +%s%N); "$1" --version > /dev/null; end=$(date +%s%N)
            echo $(( (end - start) / 1000 ))
        done | sort -n | sed -n '10,11p' | awk '{ sum += $1 } END { printf "%.2f", sum / 2 / 1000 }'
    }
    for variant in static:"$binary" dynamic:"$root/.build-static-compare/release/geofence"; do
        path="${variant#*:}"
        printf 'check-package: %-7s %9s bytes, %s ms median start-up\n' "${variant%%:*}" "$(stat -c %s "$path")" \
            "$(median_ms "$path")" >&2
    done
fi

step "4. the Debian package, and lintian"
package="$(scripts/build-deb.sh --binary "$binary" --output "$work")"
dpkg-deb --info "$package" >&2
dpkg-deb --contents "$package" >&2
lintian --fail-on error,warning,info --display-info --suppress-tags-from-file scripts/deb/lintian-suppressed \
    "$package" >&2 || fail "lintian: see above"

step "5. dpkg -i, the installed binary, the unit, the daemon as the unit runs it"
snapshot() {
    find /etc /usr/bin /usr/sbin /usr/lib/systemd /usr/share/man /usr/share/doc /var/lib -xdev \
        -path /var/lib/dpkg -prune -o -path /var/lib/apt -prune -o -path /var/lib/ucf -prune -o -print 2>/dev/null \
        | sort
}
snapshot > "$work/before.txt"
dpkg_retrying -i "$package" || fail "dpkg -i"
version="$(tr -d '[:space:]' < VERSION)"
/usr/bin/geofence --version | tee "$work/version.txt" >&2
[ "$(head -n 1 "$work/version.txt")" = "geofence $version" ] || fail "--version does not say $version"
grep -q '^traits: GPSD MQTT$' "$work/version.txt" || fail "--version names other traits"
(cd "$work" && env -i PATH=/usr/bin:/bin /usr/bin/geofence demo --map "$work/demo-map.html" > "$work/demo.txt" 2>&1) \
    || fail "/usr/bin/geofence demo"
grep -q '^demo: 11 fences, ' "$work/demo.txt" || fail "demo printed: $(tail -n 3 "$work/demo.txt")"
man -l /usr/share/man/man1/geofence.1.gz 2>/dev/null | grep -q -- "--max-fence-set-bytes" \
    || fail "the installed man page lacks run's options"
systemd-analyze verify /lib/systemd/system/geofence.service || fail "systemd-analyze verify"
[ ! -e /etc/systemd/system/multi-user.target.wants/geofence.service ] || fail "the package enabled the service"

# The daemon as geofence.service runs it: its ExecStart line, in the unit's sandbox, as a user of its own, with
# /var/lib/geofence as StateDirectory=/UMask= make it; the fixes from gpsd (gpsfake on a free port, named on the
# command line, which wins over the configuration's gpsd line). The fences: one circle around the drive's start.
/usr/bin/geofence simulate --seed 3 -o "$work/drive.nmea" >&2
start="$(awk -F, '/^\$G.RMC/ && $3 == "A" {
    lat = int($4 / 100) + ($4 % 100) / 60; if ($5 == "S") lat = -lat
    lon = int($6 / 100) + ($6 % 100) / 60; if ($7 == "W") lon = -lon
    printf "%.7f,%.7f", lat, lon; exit }' "$work/drive.nmea")"
[ -n "$start" ] || fail "no fix in the simulated drive"
printf 'id,lat,lon,radius_m\nstart,%s,300\n' "$start" > "$work/fences.csv"
install -d -m 0700 -o nobody -g nogroup /var/lib/geofence
chmod 644 "$work/fences.csv"
exec_start="$(sed -n 's/^ExecStart=//p' /lib/systemd/system/geofence.service)"
[ "$exec_start" = "/usr/bin/geofence run --config /etc/geofence/geofence.conf" ] || fail "ExecStart is $exec_start"
# It becomes the command (exec): call it in a subshell, or in the background, where $! is then the daemon itself.
as_service() {
    umask 0077 && cd / && exec setpriv --reuid=nobody --regid=nogroup --clear-groups \
        /usr/bin/python3 "$root/scripts/service-sandbox.py" /lib/systemd/system/geofence.service -- "$@"
}
(as_service /usr/bin/geofence fences import "$work/fences.csv" --store /var/lib/geofence/store.db >&2)
port="$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
setsid gpsfake -q -P "$port" -c 0.02 "$work/drive.nmea" > "$work/gpsfake.log" 2>&1 &
gpsfake_pid=$!
# shellcheck disable=SC2086  # ExecStart is split into words as systemd splits it (no quotes in it)
as_service $exec_start --gpsd "127.0.0.1:$port" > "$work/events.jsonl" 2> "$work/daemon.log" &
daemon_pid=$!
for _ in $(seq 1 300); do
    grep -q '"region":"start"' "$work/events.jsonl" 2>/dev/null && break
    kill -0 "$daemon_pid" 2>/dev/null || break
    sleep 0.2
done
kill -TERM "$daemon_pid" 2>/dev/null || true
wait "$daemon_pid" || fail "the daemon exited $? after SIGTERM: $(cat "$work/daemon.log")"
cat "$work/daemon.log" >&2
head -n 1 "$work/events.jsonl" >&2
grep -q '"type":"state","region":"start"' "$work/events.jsonl" \
    || fail "the daemon reported no state of the fence at the drive's start: $(cat "$work/daemon.log")"
head -n 1 "$work/daemon.log" | grep -q "^geofence run: geofence $version (commit " \
    || fail "the daemon's first log line does not say its version"
[ -s /var/lib/geofence/store.db ] && [ "$(stat -c %a /var/lib/geofence/store.db)" = 600 ] \
    || fail "the store is not /var/lib/geofence/store.db with mode 0600"

step "6. dpkg -r, dpkg -P, and what is left"
dpkg_retrying -r geofence || fail "dpkg -r"
[ ! -e /usr/bin/geofence ] && [ ! -e /lib/systemd/system/geofence.service ] || fail "dpkg -r left the program"
[ -e /etc/geofence/geofence.conf ] || fail "dpkg -r removed the conffile"
dpkg_retrying -P geofence || fail "dpkg -P"
snapshot > "$work/after.txt"
left="$(comm -13 "$work/before.txt" "$work/after.txt")"
gone="$(comm -23 "$work/before.txt" "$work/after.txt")"
[ -n "$left" ] && ! grep -v '^/var/lib/geofence\(/\|$\)' <<< "$left" \
    || fail "left behind besides the state directory: $left"
[ -z "$gone" ] || fail "removed what was there before: $gone"
echo "check-package: all checks passed; left behind, as documented: /var/lib/geofence (removed now)" >&2
