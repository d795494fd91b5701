#!/usr/bin/env bash
# One command for a new machine: install what building and running iobench
# needs (scripts/deps.sh build), build, and run the quick suite on DIR
# (default: the current directory). Extra arguments go to `iobench quick`,
# e.g. scripts/quick.sh /mnt/data --size=256m.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
dir=${1:-$PWD}
[ $# -gt 0 ] && shift
"$here/scripts/deps.sh" build
"$here/scripts/build.sh"
exec "$here/build/iobench" quick "$dir" "$@"
