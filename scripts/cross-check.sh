#!/usr/bin/env bash
# The C core on the vehicle units' own processors, without Swift. On Debian 12, as root or with sudo:
#   1. installs the aarch64 and armhf cross compilers and qemu-user (only what is missing);
#   2. per target (host, aarch64, armhf): builds libgeofence.a, runs Tests/CoreC under qemu-user for the cross ones
#      (`make check`), and compiles the query path without an FPU (`make no-fpu-check`, with a control);
#   3. fails unless the three digests of all computed results are identical (integer arithmetic: bit for bit);
#   4. installs the library into a temporary prefix and builds examples/consumer.c through pkg-config, natively
#      and for both ARM targets;
#   5. reports instructions per query (callgrind on x86-64, if valgrind is there) and the ARM library sizes.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS

# ---- 1. Packages ----
PACKAGES=(make gcc libc6-dev pkg-config gcc-aarch64-linux-gnu libc6-dev-arm64-cross gcc-arm-linux-gnueabihf
          libc6-dev-armhf-cross qemu-user)
missing=()
for package in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "cross-check: installing ${missing[*]}"
    sudo_cmd=()
    [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
    export DEBIAN_FRONTEND=noninteractive
    "${sudo_cmd[@]}" apt-get update -qq
    "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# ---- 2. Build, test and no-FPU check per target ----
# The three test runs are independent, so they run side by side (qemu is the slow part); each writes its own log.
# CROSS prefixes and the matching target names (gcc -dumpmachine, also the build directories), index by index.
CROSSES=("" aarch64-linux-gnu- arm-linux-gnueabihf-)
TARGETS=()
for cross in "${CROSSES[@]}"; do
    TARGETS+=("$("${cross}gcc" -dumpmachine)")
    make -s CROSS="$cross" all >/dev/null
done
host=${TARGETS[0]}
pids=()
for i in "${!CROSSES[@]}"; do
    ( make -s CROSS="${CROSSES[$i]}" check no-fpu-check no-fpu-control >"build/${TARGETS[$i]}/check.out" 2>&1 ) &
    pids+=($!)
done
failed=0
for i in "${!CROSSES[@]}"; do
    cross=${CROSSES[$i]}
    target=${TARGETS[$i]}
    status=0
    wait "${pids[$i]}" || status=$?
    echo "==== $target${cross:+ (qemu-user)}"
    cat "build/$target/check.out"
    [ "$status" -eq 0 ] || { echo "cross-check: $target FAILED"; failed=1; }
done
[ "$failed" -eq 0 ] || exit 1

# ---- 3. Bit-identical results ----
echo "==== digests"
digests=()
for target in "${TARGETS[@]}"; do
    digest=$(sed -n 's/^digest: //p' "build/$target/core_test.log")
    printf '  %-22s %s   (%s)\n' "$target" "$digest" "$(tail -n 1 "build/$target/core_test.log")"
    digests+=("$digest")
done
if [ "$(printf '%s\n' "${digests[@]}" | sort -u | wc -l)" -ne 1 ] || [ -z "${digests[0]}" ]; then
    echo "cross-check: the architectures computed different results"
    exit 1
fi
echo "  identical on all three"

# ---- 4. The README's consumer, through pkg-config ----
echo "==== examples/consumer.c against the installed library"
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
for i in "${!CROSSES[@]}"; do
    cross=${CROSSES[$i]}
    target=${TARGETS[$i]}
    make -s CROSS="$cross" install PREFIX="$prefix/$target"
    export PKG_CONFIG_PATH="$prefix/$target/lib/pkgconfig"
    cc=${cross:+${cross}gcc}
    cc=${cc:-cc}
    # shellcheck disable=SC2046  # pkg-config's output is meant to be split into words
    "$cc" -std=c99 -Wall -Wextra -Werror examples/consumer.c $(pkg-config --cflags --libs geofence) \
        -o "$prefix/consumer-$target"
    case $target in
        aarch64-*) run=(qemu-aarch64 -L "/usr/$target") ;;
        arm-*) run=(qemu-arm -L "/usr/$target") ;;
        *) run=() ;;
    esac
    echo "-- $target: $cc examples/consumer.c \$(pkg-config --cflags --libs geofence)"
    "${run[@]}" "$prefix/consumer-$target" | tee "$prefix/consumer-$target.out"
    [ -z "$cross" ] || cmp -s "$prefix/consumer-$target.out" "$prefix/consumer-$host.out" ||
        { echo "cross-check: the consumer prints something else on $target"; exit 1; }
done
if command -v c++ >/dev/null; then  # the header's extern "C" block, used from C++
    PKG_CONFIG_PATH="$prefix/$host/lib/pkgconfig" c++ -x c++ -Wall -Wextra -Werror examples/consumer.c \
        $(PKG_CONFIG_PATH="$prefix/$host/lib/pkgconfig" pkg-config --cflags --libs geofence) -o "$prefix/consumer++"
    "$prefix/consumer++" | cmp -s - "$prefix/consumer-$host.out" && echo "-- the same program as C++: same output"
fi

# ---- 5. Instructions per query and library sizes ----
echo "==== instructions per query (callgrind, $host, 10^5 fences, 10^4 drive fixes)"
if command -v valgrind >/dev/null; then
    make -s "build/$host/query_count"
    for margin_mm in 0 100000; do
        out="build/$host/callgrind.$margin_mm.out"
        valgrind --tool=callgrind --toggle-collect=run_queries --callgrind-out-file="$out" \
            "build/$host/query_count" "$margin_mm" 2>/dev/null
        total=$(sed -n 's/^totals: *//p' "$out" | awk '{print $1}')
        echo "  margin $margin_mm mm: $total instructions for 10^4 queries = $((total / 10000)) Ir per query"
    done
else
    echo "  skipped: valgrind is not installed (apt-get install valgrind)"
fi
echo "==== libgeofence.a size (text includes the read-only ECEF tables of gf_tables.o)"
for i in "${!CROSSES[@]}"; do
    cross=${CROSSES[$i]}
    target=${TARGETS[$i]}
    read -r text data bss _ < <("${cross}size" -t "build/$target/libgeofence.a" | tail -n 1)
    read -r tables _ < <("${cross}size" "build/$target/gf_tables.o" | tail -n 1)
    printf '  %-22s text %6d bytes (tables %d, code %d), data %d, bss %d\n' "$target" "$text" "$tables" \
        "$((text - tables))" "$data" "$bss"
done

echo "cross-check: passed in $((SECONDS - started)) s"
