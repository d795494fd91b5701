#!/usr/bin/env bash
# e2e: long
# fio 3.33's own job tests that need libaio (2, 3, 4, 6 and 15: verify
# after a bssplit/bsrange write, verify_dump, verify_interval across a
# stonewall, verify_backlog with meta verification on 4 GiB, and an
# async job's defaults), with iobench and with Debian's fio 3.33 side by
# side (fio_tsuite.sh): every test fio passes here passes with iobench.
# The runner reads config-host.h for libaio, which fio_src.sh writes. Test
# 6 alone moves about 8 GiB of direct I/O per tool, so these run apart from
# the other job tests.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fio_src.sh"
. "$(dirname "$0")/fio_tsuite.sh"
fio_tsuite 2 3 4 6 15
check "fio passes them here ($FIO_TSUITE_PASSED tests)" [ "$FIO_TSUITE_PASSED" -ge 4 ]
exit $E2E_FAILED
