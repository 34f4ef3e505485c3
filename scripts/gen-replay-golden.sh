#!/usr/bin/env bash
# Writes the expected outputs of ReplayGoldenTests: `geofence replay` of every NMEA log in ../shared/data/nmea
# against the 12,866 SEQ stops (100 m), and `geofence demo` (text, jsonl, its NMEA log). Run it only when a change of
# the events is intended, and say why in the commit: the test exists to prove that refactorings change nothing.
#
#   scripts/gen-replay-golden.sh [SHARED_DIR]       (default ../shared)
set -euo pipefail
cd "$(dirname "$0")/.."
shared=${1:-../shared}
export PATH="/opt/swift/usr/bin:$PATH"
swift build --product geofence >&2
geofence="$(swift build --show-bin-path)/geofence"
out=Tests/GeofencingCLITests/Fixtures/replay-golden
mkdir -p "$out"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# One line per output: name, line count, SHA-256. The whole outputs are megabytes of determinations; the events
# other than determinations are kept in full, so that a difference there shows as a diff.
digests="$out/digests.txt"
: > "$digests"
for log in "$shared"/data/nmea/*; do
    name=$(basename "$log")
    # Every region's determination: the outputs stay comparable with those before the daemon's inside-only default.
    "$geofence" replay "$log" --fences "$shared/data/pois/seq-stops.txt" --format jsonl --determinations all \
        > "$scratch/out" 2>/dev/null
    printf '%s %s %s\n' "replay/$name" "$(wc -l < "$scratch/out")" "$(sha256sum < "$scratch/out" | cut -d' ' -f1)" \
        >> "$digests"
    grep -v '"type":"state"' "$scratch/out" > "$out/$name.events.jsonl" || rm -f "$out/$name.events.jsonl"
done
(cd "$scratch" && "$geofence" demo --map map.html --nmea demo.nmea > demo.txt 2>/dev/null \
    && "$geofence" demo --format jsonl --map map.html > demo.jsonl 2>/dev/null)
cp "$scratch/demo.txt" "$scratch/demo.jsonl" "$out/"
printf '%s %s %s\n' "demo/nmea" "$(wc -l < "$scratch/demo.nmea")" "$(sha256sum < "$scratch/demo.nmea" | cut -d' ' -f1)" \
    >> "$digests"
echo "gen-replay-golden: wrote $out" >&2
