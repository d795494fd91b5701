#!/usr/bin/env bash
# e2e: long
# fio's own test suite at its 3.33 tag, its job tests 1-26 and the Python
# tests 1003 (readonly), 1006 (strided), 1011 (jsonplus2csv) and 1012
# (log_compression), with iobench and with Debian's fio 3.33 side by side
# (fio_tsuite.sh): every test fio passes here passes with iobench. The
# steady-state and latency-percentile tests are test_fio_t_suite_py.sh's;
# the C programs' tests and the zoned ones need fio's build and are left
# out. The libaio tests (2, 3, 4, 6, 15: 10 GiB of direct I/O between the
# two tools) are test_fio_t_suite_aio.sh's; test 9 needs 4 CPUs. The flow
# tests (11, 12, 14) compare IOPS ratios, which a loaded machine can tip.
# About 3 minutes.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fio_src.sh"
. "$(dirname "$0")/fio_tsuite.sh"
fio_tsuite $(seq 1 26 | grep -vxE '2|3|4|6|15') 1003 1006 1011 1012
check "fio passes most of these here ($FIO_TSUITE_PASSED tests)" [ "$FIO_TSUITE_PASSED" -ge 19 ]
exit $E2E_FAILED
