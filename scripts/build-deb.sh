#!/usr/bin/env bash
# Makes the Debian package geofence_<VERSION>_<arch>.deb with dpkg-deb, offline:
#
#   /usr/bin/geofence                         the binary, the Swift runtime linked in (--static-swift-stdlib)
#   /lib/systemd/system/geofence.service      the service unit (installed, not enabled: the admin enables it)
#   /etc/geofence/geofence.conf               the service's options, a conffile (systemd/geofence.conf)
#   /usr/share/man/man1/geofence.1.gz         geofence(1), printed by the binary itself (geofence help --man)
#   /usr/share/doc/geofence/copyright, changelog.gz
#
# Depends is what dpkg-shlibdeps finds for the binary's shared libraries (libc, libsqlite3, libgps, libmosquitto).
#
#   scripts/build-deb.sh [--binary PATH] [--output DIR]
#
# --binary: a geofence built already (check-package.sh passes the one it checked); without it the script builds
# the geofence product with `swift build -c release --static-swift-stdlib --disable-local-rpath` (no $ORIGIN
# run path: the binary loads nothing from beside itself) in .build-static. --output: where the
# .deb goes (default: the current directory). Prints the package's path on standard output.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
binary=""
output="$PWD"
while [ $# -gt 0 ]; do
    case "$1" in
        --binary) binary="$2"; shift 2 ;;
        --output) output="$2"; shift 2 ;;
        *) echo "usage: $0 [--binary PATH] [--output DIR]" >&2; exit 2 ;;
    esac
done

version="$(tr -d '[:space:]' < "$root/VERSION")"
[[ "$version" =~ ^[0-9][0-9A-Za-z.+~]*$ ]] || { echo "$root/VERSION: '$version' is not a Debian version" >&2; exit 1; }
arch="$(dpkg --print-architecture)"

if [ -z "$binary" ]; then
    export PATH="/opt/swift/usr/bin:$PATH"
    (cd "$root" && swift build -c release --static-swift-stdlib --disable-local-rpath --product geofence \
        --scratch-path .build-static >&2)
    binary="$root/.build-static/release/geofence"
fi
[ -x "$binary" ] || { echo "$binary: not an executable" >&2; exit 1; }
# The package carries what the binary says it is: a binary of another version is refused.
built_version="$("$binary" --version | head -n 1)"
[ "$built_version" = "geofence $version" ] || {
    echo "$binary: says '$built_version', VERSION says $version: rebuild it" >&2; exit 1; }

# Reproducible: every file's time, the changelog's date and the archive's are the commit's (else VERSION's).
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
    SOURCE_DATE_EPOCH="$(git -C "$root" log -1 --format=%ct 2>/dev/null || stat -c %Y "$root/VERSION")"
fi
export SOURCE_DATE_EPOCH

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
stage="$work/geofence_${version}_${arch}"
install -d "$stage/DEBIAN" "$stage/usr/bin" "$stage/lib/systemd/system" "$stage/etc/geofence" \
    "$stage/usr/share/man/man1" "$stage/usr/share/doc/geofence"

# Stripped as Debian policy asks (the symbol table only: Swift's metadata sections and .dynsym stay).
install -m 755 "$binary" "$stage/usr/bin/geofence"
strip --strip-all --remove-section=.comment "$stage/usr/bin/geofence"
install -m 644 "$root/systemd/geofence.service" "$stage/lib/systemd/system/geofence.service"
install -m 644 "$root/systemd/geofence.conf" "$stage/etc/geofence/geofence.conf"
"$stage/usr/bin/geofence" help --man | gzip -9n > "$stage/usr/share/man/man1/geofence.1.gz"
install -m 644 "$root/scripts/deb/copyright" "$stage/usr/share/doc/geofence/copyright"
{
    printf 'geofence (%s) unstable; urgency=medium\n\n' "$version"
    printf '  * Release %s; the changes are in the project'"'"'s history.\n\n' "$version"
    printf ' -- Geofencing maintainers <geofencing@example.org>  %s\n' "$(date -u -R -d "@$SOURCE_DATE_EPOCH")"
} | gzip -9n > "$stage/usr/share/doc/geofence/changelog.gz"
chmod 644 "$stage/usr/share/man/man1/geofence.1.gz" "$stage/usr/share/doc/geofence/changelog.gz"
for script in postinst prerm postrm; do install -m 755 "$root/scripts/deb/$script" "$stage/DEBIAN/$script"; done
echo /etc/geofence/geofence.conf > "$stage/DEBIAN/conffiles"
# Checksums of the files dpkg installs (a conffile's are kept by dpkg itself).
(cd "$stage" && find usr lib -type f -print0 | sort -z | xargs -0 md5sum > DEBIAN/md5sums)

# dpkg-shlibdeps reads the installed libraries' symbols files; it wants a debian/control to stand in.
mkdir -p "$work/shlibs/debian"
printf 'Source: geofence\n\nPackage: geofence\nArchitecture: any\n' > "$work/shlibs/debian/control"
depends="$(cd "$work/shlibs" && dpkg-shlibdeps -O -e"$stage/usr/bin/geofence" 2>"$work/shlibdeps.log" \
    | sed -n 's/^shlibs:Depends=//p')" || { cat "$work/shlibdeps.log" >&2; exit 1; }
[ -n "$depends" ] || { echo "dpkg-shlibdeps found no libraries:" >&2; cat "$work/shlibdeps.log" >&2; exit 1; }

installed_size="$(du -sk --exclude=DEBIAN "$stage" | cut -f1)"
cat > "$stage/DEBIAN/control" <<CONTROL
Package: geofence
Version: $version
Architecture: $arch
Maintainer: Geofencing maintainers <geofencing@example.org>
Installed-Size: $installed_size
Depends: $depends
Recommends: gpsd
Section: misc
Priority: optional
Description: geofencing daemon for vehicle units, with durable events
 geofence tells which of up to a million fences (circles, polygons,
 corridors) a GNSS fix is inside or near, and reports enter, exit, dwell,
 approach and state events that neither flap on GPS jitter nor go missing.
 .
 The daemon (geofence run) reads fixes from gpsd or NMEA 0183, keeps regions,
 states and an event outbox in a SQLite store, and delivers every event at
 least once to standard output, a command per event, or an MQTT broker. The
 service unit geofence.service is installed but not enabled.
CONTROL

find "$stage" -exec touch --no-dereference -d "@$SOURCE_DATE_EPOCH" {} +
mkdir -p "$output"
package="$output/geofence_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$stage" "$package" >&2
echo "$package"
