#!/usr/bin/env bash
# Installs the Debian packages the build, the tests and the demo need. Idempotent: installs only what is missing,
# and runs apt-get update only when something is. Needs root (or sudo) only when something is missing.
set -euo pipefail

# gcc: the integer-only check of the C core (gcc -mgeneral-regs-only).
# libgps-dev: the gpsd reader (GeofencingGPSD); gpsd + gpsd-clients: gpsfake and gpsdecode for the input tests.
PACKAGES=(gcc libc6-dev pkg-config libgps-dev gpsd gpsd-clients)

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
