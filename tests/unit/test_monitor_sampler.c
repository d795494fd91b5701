/*
 * The sampler thread and probe on the real machine: device resolution
 * (name, /dev path, unknown), a sampler at a short interval whose samples
 * never come before their deadline (first + k * interval), a last sample
 * at stop, monitor_latest() while running, and the figures of the series
 * are sane (percentages sum to 100; util within 100% give or take a 10 ms
 * tick); monitor_mark() takes a sample at once, after the call, and the
 * regular samples keep their schedule, without the caller waiting for it;
 * a stop long after the newest sample adds one at the stop. No timing is asserted beyond order.
 */
#include "sys/monitor/monitor.h"
#include "sys/monitor/monitor_calc.h"

#include "check.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/timeutil.h"

static void test_resolve(void)
{
	struct diskstat *all = NULL;
	size_t n = 0;
	char name[64], path[128];
	struct stat st;

	CHECK(diskstats_read(NULL, &all, &n) == 0 && n > 0, "read diskstats");
	if (!n)
		return;
	CHECK(monitor_resolve_device(all[0].name, name) == 0 && !strcmp(name, all[0].name),
	      "resolve '%s' by name", all[0].name);
	snprintf(path, sizeof(path), "/dev/%s", all[0].name);
	if (stat(path, &st) == 0 && S_ISBLK(st.st_mode))
		CHECK(monitor_resolve_device(path, name) == 0 && !strcmp(name, all[0].name),
		      "resolve '%s' by path", path);
	fprintf(stderr, "(an error message about 'no-such-disk-iobench' is expected)\n");
	CHECK(monitor_resolve_device("no-such-disk-iobench", name) == -ENODEV, "unknown device");
	free(all);
}

static void test_probe(void)
{
	struct monitor_probe p;
	struct monitor_sample s;
	struct diskstat d[MONITOR_MAX_DEVS];

	CHECK(monitor_probe_open(&p, NULL, 0) == 0, "open probe on all disks");
	CHECK(p.all_disks && p.ndev > 0, "found %u whole disks", p.ndev);
	CHECK(monitor_probe_take(&p, &s, d) == 0, "take a sample");
	CHECK(s.stat.ctxt > 0 && s.mem.total_kb > 0 && s.load.threads > 0 && s.vm.pgpgin > 0,
	      "sample filled");
	for (unsigned i = 0; i < p.ndev; i++)
		CHECK(!strcmp(d[i].name, p.names[i]), "disk %u is '%s'", i, p.names[i]);
	if (geteuid() == 0)
		CHECK(s.slab.have && s.slab.dentry_objs > 0, "slabinfo read as root");
	monitor_probe_close(&p);
	CHECK(p.fd_stat == -1 && p.names == NULL, "closed");
}

static void test_sampler(void)
{
	const uint64_t interval = 20 * NSEC_PER_MSEC;
	struct monitor *m = NULL;
	struct monitor_series s;
	struct monitor_sample latest;
	struct diskstat disks[MONITOR_MAX_DEVS];
	int ret = monitor_start(&m, NULL, 0, interval);

	CHECK(ret == 0 && m, "start sampler: %d", ret);
	if (ret)
		return;
	while (monitor_latest(m, &latest, disks) < 4)
		sleep_until_ns(now_ns() + 5 * NSEC_PER_MSEC);
	CHECK(monitor_ndev(m) > 0, "sampler watches disks");
	uint64_t before_stop = now_ns();
	ret = monitor_stop(m, &s);
	CHECK(ret == 0, "stop: %d", ret);
	CHECK(s.n >= 5 && s.interval_ns == interval, "%zu samples", s.n);
	uint64_t t0 = s.samples[0].t_ns;
	bool ordered = true, on_time = true;
	for (size_t i = 1; i < s.n; i++) {
		ordered &= s.samples[i].t_ns > s.samples[i - 1].t_ns;
		if (i + 1 < s.n)
			on_time &= s.samples[i].t_ns >= t0 + i * interval;
	}
	CHECK(ordered, "timestamps increase");
	CHECK(on_time, "no sample before its deadline first + k * interval");
	CHECK(s.samples[s.n - 1].t_ns >= before_stop, "a last sample at stop");

	struct monitor_summary sum;
	monitor_summarize(&s, &sum);
	const struct vmstat_x *v = &sum.whole.vm;
	/* us leaves guest out (vmstat's gu), so us..st and gu together are 100 */
	CHECK(fabs(v->us + v->sy + v->id + v->wa + v->st + v->gu - 100) < 1e-6,
	      "cpu percentages sum to 100: %f %f %f %f %f + gu %f", v->us, v->sy, v->id, v->wa, v->st,
	      v->gu);
	CHECK(sum.ndev == s.ndev && sum.whole.dt_s > 0, "summary covers the series");
	for (unsigned d = 0; d < sum.ndev; d++)
		CHECK(sum.devs[d].whole.util_pct >= 0 && sum.devs[d].whole.util_pct <= 100 + 1.0 / sum.dt_s,
		      "util of '%s' %f", sum.devs[d].name, sum.devs[d].whole.util_pct);
	monitor_summary_release(&sum);
	monitor_series_release(&s);

	const char *bad[] = { "no-such-disk-iobench" };
	m = NULL;
	CHECK(monitor_start(&m, bad, 1, interval) == -ENODEV && m == NULL, "unknown device refused");
}

static void test_mark(void)
{
	struct monitor *m = NULL;
	struct monitor_series s;
	/* an interval no test run reaches: every sample but the first and the
	 * last is a mark */
	CHECK(monitor_start(&m, NULL, 0, 3600 * NSEC_PER_SEC) == 0, "start an hourly sampler");
	if (!m)
		return;
	uint64_t t0 = now_ns();
	long a = monitor_mark(m);
	uint64_t t1 = now_ns();
	long b = monitor_mark(m);
	/* b is a's sample when the thread had not begun reading it yet */
	CHECK(a == 1 && (b == 1 || b == 2), "marks are sample 1, and 1 or 2: %ld %ld", a, b);
	/* (and adds none when the stop comes within 20 ms of b's: not
	 * asserted, a loaded machine may take longer) */
	CHECK(monitor_stop(m, &s) == 0 && (s.n == (size_t)b + 1 || s.n == (size_t)b + 2),
	      "stop serves both marks: %zu samples", s.n);
	CHECK(s.n > (size_t)b && s.samples[a].t_ns >= t0 && (b == a || s.samples[b].t_ns >= t1),
	      "a mark's sample is taken after the call");
	monitor_series_release(&s);

	/* a stop long after the last sample adds one: the run's end */
	CHECK(monitor_start(&m, NULL, 0, 3600 * NSEC_PER_SEC) == 0, "start it again");
	if (!m)
		return;
	long c = monitor_mark(m);
	struct timespec pause = { .tv_nsec = 30 * 1000000L };
	nanosleep(&pause, NULL);
	uint64_t t2 = now_ns();
	CHECK(monitor_stop(m, &s) == 0 && c == 1 && s.n == 3, "stop after 30 ms adds the end: %zu",
	      s.n);
	CHECK(s.n == 3 && s.samples[2].t_ns >= t2, "the end is read at the stop");
	monitor_series_release(&s);
}

int main(void)
{
	test_mark();
	test_resolve();
	test_probe();
	test_sampler();
	return check_done("test_monitor_sampler");
}
