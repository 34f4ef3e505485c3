#!/usr/bin/env bash
# Proves the query path of the C core uses no floating point: every translation unit except gf_convert.c (degree
# conversion, not on the query path) must compile with gcc -mgeneral-regs-only, which makes any float or double
# operation a compile error on x86-64.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for source in CSources/*.c; do
    [ "$(basename "$source")" = gf_convert.c ] && continue
    gcc -std=c11 -O2 -Wall -Wextra -Werror -mgeneral-regs-only -Iinclude -c "$source" -o "$out/$(basename "$source").o"
done
echo "check-integer-only: $(ls CSources/*.c | grep -vc gf_convert.c) translation units compile with -mgeneral-regs-only"
