#!/usr/bin/env bash
# Fuzzes the Swift input readers with libFuzzer: NMEA 0183, GPX, gpsd JSON, TrackFile's format detection, and the
# fence file importers (GeoJSON, CSV, GTFS).
#
#   scripts/fuzz-inputs.sh [SECONDS]      SECONDS in total (default 60), split evenly over the targets
#   FUZZ_TARGETS="nmea gpx" scripts/fuzz-inputs.sh 600      only these targets, 300 s each
#
# Each target is fuzz/inputs/<target>.swift (an LLVMFuzzerTestOneInput that checks the reader's invariants, with the
# shared fuzz/inputs/FuzzChecks.swift), seeded from fuzz/inputs/corpus/<target>/. Exits non-zero when a target
# crashes, trips an invariant, leaks, or exceeds the time bound, and prints the reproducer's path; rerun one with
#   SWIFT_BACKTRACE=enable=no LSAN_OPTIONS=suppressions=fuzz/inputs/lsan-suppressions.txt \
#       build/fuzz-inputs/bin/fuzz-<target> <reproducer>
#
# The fuzzers are built outside the package graph (SwiftPM library targets may not carry -sanitize=fuzzer as an
# unsafe flag): the C core with clang, Geofencing, GeofencingEvents (the readers' ISO 8601 time, the writers' string
# escaper), GeofencingInputs and GeofencingWriters (the fence file fuzzer writes back what it read) as modules with
# swiftc, all with libFuzzer's coverage instrumentation and AddressSanitizer. libFuzzer comes with the Swift
# toolchain's clang runtime (libclang_rt.fuzzer). Build output, the growing corpora and crash reproducers go to
# build/fuzz-inputs (FUZZ_BUILD_DIR to change), which is ignored by git; the seed corpora in the repository are only
# read.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

total_seconds=${1:-60}
targets=(${FUZZ_TARGETS:-nmea gpx gpsd-json track-file fence-file})
build=${FUZZ_BUILD_DIR:-build/fuzz-inputs}
mkdir -p "$build"
build=$(cd "$build" && pwd)
root=$(pwd)

if ! [[ "$total_seconds" =~ ^[0-9]+$ ]] || (( total_seconds < ${#targets[@]} )); then
    echo "usage: $0 [SECONDS]  (at least 1 s per target: ${#targets[@]})" >&2
    exit 2
fi
seconds_per_target=$(( total_seconds / ${#targets[@]} ))

# -O keeps the fuzzers fast; -g gives ASan reports file and line.
# -package-name: the modules share `package` declarations, as SwiftPM builds them (it names the package for them).
swift_flags=(-swift-version 6 -O -g -parse-as-library -sanitize=fuzzer,address -package-name Geofencing)

build_libraries() {
    echo "fuzz-inputs: building the C core, Geofencing, GeofencingEvents, GeofencingInputs and GeofencingWriters (instrumented) in $build"
    rm -rf "$build/obj" "$build/modules" "$build/cgeofence"
    mkdir -p "$build/obj" "$build/modules" "$build/cgeofence"
    for source in CSources/*.c; do
        clang -std=c11 -O1 -g -fsanitize=fuzzer-no-link,address -Iinclude \
            -c "$source" -o "$build/obj/$(basename "${source%.c}").o"
    done
    # SwiftPM would make this module map from the target's include/ directory.
    cat > "$build/cgeofence/module.modulemap" <<EOF
module CGeofence {
    header "$root/include/geofence.h"
    export *
}
EOF
    swiftc "${swift_flags[@]}" -module-name Geofencing -I "$build/cgeofence" -wmo \
        -emit-module -emit-module-path "$build/modules/Geofencing.swiftmodule" \
        -c $(find Sources/Geofencing -name '*.swift' | sort) -o "$build/obj/Geofencing.o"
    swiftc "${swift_flags[@]}" -module-name GeofencingEvents -I "$build/cgeofence" -I "$build/modules" -wmo \
        -emit-module -emit-module-path "$build/modules/GeofencingEvents.swiftmodule" \
        -c Sources/GeofencingEvents/*.swift -o "$build/obj/GeofencingEvents.o"
    swiftc "${swift_flags[@]}" -module-name GeofencingInputs -I "$build/cgeofence" -I "$build/modules" -wmo \
        -emit-module -emit-module-path "$build/modules/GeofencingInputs.swiftmodule" \
        $(printf '%s\n' Sources/GeofencingInputs/*.swift Sources/GeofencingInputs/*/*.swift | sort) \
        -c -o "$build/obj/GeofencingInputs.o"
    swiftc "${swift_flags[@]}" -module-name GeofencingWriters -I "$build/cgeofence" -I "$build/modules" -wmo \
        -emit-module -emit-module-path "$build/modules/GeofencingWriters.swiftmodule" \
        $(printf '%s\n' Sources/GeofencingWriters/*.swift | sort) \
        -c -o "$build/obj/GeofencingWriters.o"
}

build_fuzzer() {
    local target=$1
    mkdir -p "$build/bin"
    swiftc "${swift_flags[@]}" -warnings-as-errors -module-name "Fuzz_${target//-/_}" \
        -I "$build/cgeofence" -I "$build/modules" \
        "fuzz/inputs/$target.swift" fuzz/inputs/FuzzChecks.swift "$build"/obj/*.o -lm -use-ld=lld \
        -o "$build/bin/fuzz-$target"
}

# Rebuilds only when a source, a fuzz entry or this script changed since the last complete build.
stamp="$build/built.stamp"
inputs_changed() {
    [[ ! -e "$stamp" ]] && return 0
    [[ -n "$(find Sources/Geofencing Sources/GeofencingEvents Sources/GeofencingInputs Sources/GeofencingWriters CSources \
        include fuzz/inputs -maxdepth 3 \( -name '*.swift' -o -name '*.c' -o -name '*.h' \) -newer "$stamp" -print -quit)" ]] \
        && return 0
    [[ scripts/fuzz-inputs.sh -nt "$stamp" ]]
}
if inputs_changed; then
    rm -f "$stamp"
    build_libraries
    for target in "${targets[@]}" ; do build_fuzzer "$target"; done
    touch "$stamp"
fi
for target in "${targets[@]}"; do
    [[ -x "$build/bin/fuzz-$target" ]] || build_fuzzer "$target"
done

# Leaks in the toolchain's own libraries (listed with their reasons) are not ours to fix; ASan still reports any other.
export LSAN_OPTIONS="suppressions=$root/fuzz/inputs/lsan-suppressions.txt${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
# Swift's own crash backtracer would take the signal first (and trips ASan itself); libFuzzer's handler must get it,
# to print the stack and write the reproducer.
export SWIFT_BACKTRACE=enable=no
failed=0
summary=()
for target in "${targets[@]}"; do
    corpus="$build/corpus/$target"          # grows with what libFuzzer finds; the first directory is written to
    crashes="$build/crashes/$target"
    log="$build/logs/$target.log"
    mkdir -p "$corpus" "$crashes" "$(dirname "$log")"
    # Seeds from the real logs in ../shared/data when it is there (first 2 KB of each file; never copied into the
    # repository), besides the hand-made seeds of fuzz/inputs/corpus.
    shared_seeds="$build/shared-seeds/$target"
    mkdir -p "$shared_seeds"
    shared="$root/../shared/data"
    if [ -d "$shared" ]; then
        case "$target" in
            nmea|track-file) sources=("$shared"/nmea/*) ;;
            gpx) sources=("$shared"/gpx/*) ;;
            gpsd-json) sources=("$root"/Tests/GeofencingInputsTests/Fixtures/*.json) ;;
            fence-file) sources=("$shared"/pois/* "$shared"/polygons/*) ;;
            *) sources=() ;;
        esac
        for source in "${sources[@]}"; do
            [ -f "$source" ] && head -c 2048 "$source" > "$shared_seeds/$(basename "$source")"
        done
    fi
    echo "fuzz-inputs: $target for ${seconds_per_target} s (log $log)"
    # -timeout: an input running 10 s is a hang (FuzzChecks' own bound is far tighter, per KB);
    # -max_len: inputs up to 8 KB, so that the per-KB bound means something; ASan's leak check stays on.
    status=0
    "$build/bin/fuzz-$target" -max_total_time="$seconds_per_target" -timeout=10 -max_len=8192 \
        -print_final_stats=1 -artifact_prefix="$crashes/" \
        "$corpus" "fuzz/inputs/corpus/$target" "$shared_seeds" > "$log" 2>&1 || status=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    if (( status != 0 )); then
        failed=1
        reproducer=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
        summary+=("$target: FAILED (exit $status) after ${runs:-?} runs; reproducer ${reproducer:-none written}")
        grep -m 20 -E 'ERROR|Fatal error|fuzz-'"$target"':|SUMMARY' "$log" >&2 || true
    else
        summary+=("$target: ${runs:-?} runs in ${seconds_per_target} s, no crash")
    fi
done

printf 'fuzz-inputs: %s\n' "${summary[@]}"
exit $failed
