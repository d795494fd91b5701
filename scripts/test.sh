#!/usr/bin/env bash
# The other command for a new machine: install what the suite needs
# (scripts/deps.sh test: the build set and the test tools), build (normal
# and ASan+UBSan, both with iobench-mpi), and run every test: unit tests in
# both builds, then the end-to-end tests (real files, loop devices and
# filesystems; root needed for those). Ends with the line
# "N passed, N failed, N skipped"; exits non-zero if anything failed.
set -uo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
"$here/scripts/deps.sh" test || { echo "installing the test packages failed"; echo "0 passed, 1 failed"; exit 1; }
"$here/scripts/build.sh" --mpi --asan || { echo "build failed"; echo "0 passed, 1 failed"; exit 1; }
exec "$here/tests/run_all.sh"
