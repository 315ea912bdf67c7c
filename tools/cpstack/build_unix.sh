#!/usr/bin/env bash
# Build CircuitPython 10.2.1's unix interpreter (32-bit, the Python language of an
# RP2040 full build: tools/cpstack/boardlike/) and put it in the cpstack cache.
#
#   tools/cpstack/build_unix.sh [--dry-run] [--src DIR] [--jobs N]
#
#   --dry-run  print the commands, run nothing
#   --src DIR  the CircuitPython clone to use or make
#              (default ~/.cache/california-speed/src/circuitpython-10.2.1)
#   --jobs N   parallel compile jobs (default: the number of cores)
#
# Needs git, make, python3 and gcc-multilib (Debian/Ubuntu: sudo apt-get install
# gcc-multilib), GitHub access, about 250 MB and a few minutes. `make cpstack-unix`.
set -euo pipefail

TAG=10.2.1
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
SRC=${XDG_CACHE_HOME:-$HOME/.cache}/california-speed/src/circuitpython-$TAG
JOBS=$(nproc 2>/dev/null || echo 2)
DRY=

fail() { echo "build_unix.sh: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case $1 in
    --dry-run) DRY=1 ;;
    --src) [ $# -ge 2 ] || fail "--src needs a folder"; SRC=$2; shift ;;
    --jobs) [ $# -ge 2 ] || fail "--jobs needs a number"; JOBS=$2; shift ;;
    -h|--help) sed -n '2,13s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) fail "unknown option $1 (see --help)" ;;
  esac
  shift
done
run() { echo "+ $*"; [ -n "$DRY" ] || "$@"; }
case $SRC in /*) ;; *) SRC=$PWD/$SRC ;; esac

if [ -z "$DRY" ]; then
  command -v git >/dev/null || fail "git is not installed: sudo apt-get install git"
  echo 'int main(void) { return 0; }' | gcc -m32 -static -x c -o /dev/null - 2>/dev/null ||
    fail "gcc cannot build static 32-bit programs: sudo apt-get install gcc-multilib"
fi
cd "$ROOT"
[ -d "$SRC/.git" ] ||
  run git clone --depth 1 --branch "$TAG" https://github.com/adafruit/circuitpython.git "$SRC"
# the unix port needs only this submodule (its error-message compressor)
run git -C "$SRC" submodule update --init --depth 1 tools/huffman
run rm -rf "$SRC/ports/unix/variants/boardlike"
run cp -R "$HERE/boardlike" "$SRC/ports/unix/variants/boardlike"
run env CP_VERSION="$TAG" make -C "$SRC/ports/unix" -j"$JOBS" VARIANT=boardlike \
  MICROPY_FORCE_32BIT=1 MICROPY_PY_FFI=0 MICROPY_PY_BTREE=0 MICROPY_PY_SSL=0 \
  CIRCUITPY_ULAB=0 FROZEN_MANIFEST= LDFLAGS_EXTRA=-static
run "${PYTHON:-python3}" -m tools.cpstack install unix "$SRC/ports/unix/build-boardlike/micropython"
