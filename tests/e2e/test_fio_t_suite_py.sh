#!/usr/bin/env bash
# e2e: long
# fio's own test suite at its 3.33 tag, its long Python tests: 1004
# (steadystate_tests.py: option parsing through --parse-only --debug=parse,
# then steady-state jobs of up to 100 s each) and 1010
# (latency_percentiles.py, a subset of its cases: fio_tsuite.sh), with
# iobench and with Debian's fio 3.33 side by side: each that fio passes
# here passes with iobench. About 4 minutes.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fio_src.sh"
. "$(dirname "$0")/fio_tsuite.sh"
fio_tsuite 1004 1010
check "fio passes at least one of them here ($FIO_TSUITE_PASSED tests)" [ "$FIO_TSUITE_PASSED" -ge 1 ]
exit $E2E_FAILED
