/*
 * The bw/iops lines of an averaged log (log_avg_msec) as fio's timer writes
 * them (joblog_rate_due, joblog_rate_value): stamped at the multiples of
 * log_avg_msec, a line due at the runtime's end written, none past it nor
 * for a partial interval, empty windows after a stall skipped, and the
 * rate over the window as fio truncates it.
 */
#include "check.h"

#include "workload/logs/joblog_int.h"

/* Feed completions at times ts[0..n) then the end at end_ms (as
 * joblog_finish does, 1 ms of slack); the due stamps into out. */
static unsigned stamps(const uint64_t *ts, unsigned n, uint64_t end_ms, uint64_t stop_ms,
		       unsigned avg, uint64_t *out, unsigned max)
{
	uint64_t next = avg, due;
	unsigned k = 0;
	for (unsigned i = 0; i < n; i++)
		if (joblog_rate_due(&next, ts[i], stop_ms, avg, &due) && k < max)
			out[k++] = due;
	if (joblog_rate_due(&next, end_ms + 1, stop_ms, avg, &due) && k < max)
		out[k++] = due;
	return k;
}

int main(void)
{
	uint64_t out[16];
	/* a 3 s time_based job, one completion a ms: 1000, 2000, 3000 (the
	 * last full interval, written as the job ends at 2999 or 3000) */
	uint64_t every[3000];
	for (unsigned i = 0; i < 3000; i++)
		every[i] = i;
	unsigned k = stamps(every, 3000, 3000, 3000, 1000, out, 16);
	CHECK(k == 3 && out[0] == 1000 && out[1] == 2000 && out[2] == 3000,
	      "3 s job at 1000 ms: %u lines, last %llu", k, k ? (unsigned long long)out[k - 1] : 0);
	k = stamps(every, 3000, 2999, 3000, 1000, out, 16);
	CHECK(k == 3 && out[2] == 3000, "ends 1 ms early: %u lines, last at %llu", k,
	      k ? (unsigned long long)out[k - 1] : 0);
	k = stamps(every, 3000, 3000, 3000, 500, out, 16);
	CHECK(k == 6 && out[0] == 500 && out[5] == 3000, "500 ms: %u lines", k);
	/* a size-limited job that ends at 1279 ms: only the 1000 ms line */
	k = stamps(every, 1279, 1279, UINT64_MAX, 1000, out, 16);
	CHECK(k == 1 && out[0] == 1000, "ends at 1279 ms: %u lines", k);
	/* runtime 2500 with 1000: the partial interval 2000-2500 has no line */
	k = stamps(every, 2500, 2500, 2500, 1000, out, 16);
	CHECK(k == 2 && out[1] == 2000, "runtime 2500 ms: %u lines", k);
	/* a stall from 900 to 3500 ms: the 1000 ms line (the I/Os before it),
	 * 2000 and 3000 empty, then 4000 */
	uint64_t stall[] = { 100, 900, 3500, 3600, 4100 };
	k = stamps(stall, 5, 4100, UINT64_MAX, 1000, out, 16);
	CHECK(k == 2 && out[0] == 1000 && out[1] == 4000, "stall: %u lines, %llu %llu", k,
	      (unsigned long long)out[0], (unsigned long long)out[1]);
	/* a completion at the due time itself closes the window first */
	uint64_t next = 1000, due = 0;
	CHECK(joblog_rate_due(&next, 1000, UINT64_MAX, 1000, &due) == 1 && due == 1000 && next == 2000,
	      "due at 1000: next %llu", (unsigned long long)next);
	CHECK(joblog_rate_due(&next, 1999, UINT64_MAX, 1000, &due) == 0 && next == 2000,
	      "not due at 1999");
	next = 1000;
	CHECK(joblog_rate_due(&next, 1500, 1000, 0, &due) == 0, "avg_ms 0: never due");
	/* past the runtime's end: nothing */
	next = 4000;
	CHECK(joblog_rate_due(&next, 4001, 3000, 1000, &due) == 0, "past the runtime's end");
	/* rates: 1000 I/Os of 4 KiB in 1000 ms, 4000 KiB/s, 1000 IOPS */
	CHECK(joblog_rate_value(true, 4096000, 1000, 1000) == 4000, "bw");
	CHECK(joblog_rate_value(false, 4096000, 1000, 1000) == 1000, "iops");
	CHECK(joblog_rate_value(true, 4096 * 3, 3, 500) == 24, "bw over 500 ms");
	CHECK(joblog_rate_value(false, 1, 7, 1000) == 7 && joblog_rate_value(false, 1, 7, 0) == 0,
	      "iops, span 0");
	return check_done("test_joblog_rate");
}
