#!/usr/bin/env bash
# Fuzzes the C core API (fuzz/core/fuzz_core.c) with libFuzzer under ASan + UBSan for a bounded time.
#
#   scripts/fuzz-core.sh [SECONDS]        default 60 (CI); longer on demand, e.g. scripts/fuzz-core.sh 3600
#   BUILD=/tmp/mine scripts/fuzz-core.sh  ... with the Makefile's build directory elsewhere (a shared checkout)
#
# Installs clang-14 and libclang-rt-14-dev if missing (idempotent, like scripts/install-deps.sh; libFuzzer's runtime
# is in libclang-rt-14-dev, which clang-14 only recommends), builds with `make fuzz-core`, then runs the fuzzer from
# the seed corpus fuzz/core/corpus/ plus the units it found on earlier runs (build/<target>/fuzz/corpus/, not in the
# repository). Exits non-zero when the fuzzer finds a crash, a sanitizer report, a leak or a broken model check, and
# prints the reproducer: a failing input is rerun with `<fuzzer> <reproducer>`; each one becomes a regression case in
# Tests/CoreC.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-60}"
if ! [[ "$seconds" =~ ^[1-9][0-9]*$ ]]; then
    echo "usage: $0 [SECONDS]  (a positive whole number of seconds, default 60; got '$seconds')" >&2
    exit 2
fi

PACKAGES=(clang-14 libclang-rt-14-dev make)
missing=()
for package in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "fuzz-core: installing ${missing[*]}" >&2
    sudo_cmd=()
    [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
    export DEBIAN_FRONTEND=noninteractive
    "${sudo_cmd[@]}" apt-get update -qq
    "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The Makefile's build directory is named after the C compiler's target triple (gcc unless CC says otherwise), unless
# BUILD names another.
build_dir="${BUILD:-build/$("${CC:-gcc}" -dumpmachine)}"
make -s fuzz-core BUILD="$build_dir"
fuzz_dir="$build_dir/fuzz"
fuzzer="$fuzz_dir/fuzz_core"
corpus="$fuzz_dir/corpus"
artifacts="$fuzz_dir/artifacts"
log="$fuzz_dir/fuzz-core.log"
mkdir -p "$corpus" "$artifacts"
marker="$fuzz_dir/.run-started"
touch "$marker"

# -timeout: a unit slower than 30 s is a hang (the slowest legitimate one, a 50 km margin among 1 m fences near
# 85 degrees, takes well under a second even with the sanitizers). New units go to the first corpus directory.
echo "fuzz-core: $fuzzer for ${seconds} s (log: $log)"
status=0
"$fuzzer" -max_total_time="$seconds" -timeout=30 -print_final_stats=1 -artifact_prefix="$artifacts/" \
    "$corpus" fuzz/core/corpus > "$log" 2>&1 || status=$?

grep -E '^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::average_exec_per_sec|stat::new_units_added|stat::peak_rss_mb)' \
    "$log" || true
if [ "$status" -ne 0 ]; then
    tail -n 40 "$log" >&2
    echo "fuzz-core: the fuzzer failed (exit $status); reproducers:" >&2
    # libFuzzer names each one ("Test unit written to PATH"); the newer-than-start files are a fallback.
    { sed -n 's/.*Test unit written to //p' "$log"; find "$artifacts" -type f -newer "$marker" -print; } |
        sort -u | sed 's/^/  /' >&2
    echo "fuzz-core: rerun one with: $fuzzer <reproducer>" >&2
    exit 1
fi
echo "fuzz-core: no crash in ${seconds} s"
