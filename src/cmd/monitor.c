/*
 * `iobench monitor [DEV...] [-i SEC] [-c COUNT] [--json]`: a live view of
 * the system for anyone who just wants to watch it, like running iostat -x
 * and vmstat side by side: every interval a vmstat line and an iostat -x
 * table of the devices (all whole disks that did I/O when none is named), or
 * with --json one JSON object a line. Runs until COUNT intervals are shown
 * or SIGINT/SIGTERM/SIGHUP/SIGQUIT, which ends it cleanly (exit 0, no line
 * half-written); a closed stdout ends it with an error.
 */
#include "cmd/command.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd/output.h"
#include "cmd/signals.h"
#include "report/monitor_report.h"
#include "sys/monitor.h"
#include "sys/monitor_calc.h"
#include "util/error.h"
#include "util/timeutil.h"
#include "util/units.h"
#include "util/xmalloc.h"

#define MONITOR_USAGE \
	"usage: iobench monitor [DEV...] [-i SEC] [-c COUNT] [--json]\n" \
	"\n" \
	"Show what the system does every SEC seconds: a vmstat line (processes,\n" \
	"memory, swap, block I/O, interrupts, CPU) and an iostat -x table of the\n" \
	"devices, computed with sysstat's and procps' formulas. With no DEV, every\n" \
	"whole disk that has done I/O; DEV is a name as in /proc/diskstats (sda,\n" \
	"loop3, dm-0) or a device path (/dev/sda, /dev/mapper/vg-lv).\n" \
	"\n" \
	"  -i, --interval SEC  seconds between reports (default 1, fractions allowed)\n" \
	"  -c, --count COUNT   stop after COUNT reports (default: until interrupted)\n" \
	"      --json          one JSON object per line and interval\n"

struct monitor_opts {
	uint64_t interval_ns;
	uint64_t count; /* 0: until interrupted */
	bool json;
};

/* 0, 1 when --help was printed, or -EINVAL after an error message. */
static int parse_args(int argc, char **argv, struct monitor_opts *o, int *first_dev)
{
	static const struct option longopts[] = {
		{ "interval", required_argument, NULL, 'i' },
		{ "count", required_argument, NULL, 'c' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	o->interval_ns = MONITOR_DEFAULT_INTERVAL_NS;
	o->count = 0;
	o->json = false;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":i:c:h", longopts, NULL)) != -1) {
		double sec;
		uint64_t n;
		switch (c) {
		case 'i':
			if (parse_double(optarg, &sec, NULL) || !(sec > 0) || sec > 86400 ||
			    sec * 1e9 < 1e6)
				return error("invalid interval '%s' (seconds, at least 0.001)", optarg);
			o->interval_ns = (uint64_t)llround(sec * 1e9);
			break;
		case 'c':
			if (parse_uint(optarg, 1000, &n, NULL) || n == 0)
				return error("invalid count '%s' (a positive whole number)", optarg);
			o->count = n;
			break;
		case 'j':
			o->json = true;
			break;
		case 'h':
			fputs(MONITOR_USAGE, stdout);
			return 1;
		case ':':
			return error("option '%s' needs a value", argv[optind - 1]);
		default:
			return error("unknown option '%s'; see 'iobench help monitor'", argv[optind - 1]);
		}
	}
	*first_dev = optind;
	return 0;
}

/* Print one interval with the stop signals held off, so a signal cannot cut
 * a line in half; the flag they set is seen right after. */
static int print_interval(const struct monitor_opts *o, const struct monitor_interval *iv,
			  bool only_active)
{
	sigset_t block, old;
	int ret = 0;

	sigemptyset(&block);
	signals_add_stop_set(&block);
	sigprocmask(SIG_BLOCK, &block, &old);
	if (o->json)
		ret = monitor_json_line(stdout, iv, only_active);
	else
		monitor_text_interval(stdout, iv, only_active);
	int wrc = output_check(stdout, NULL, NULL); /* says why: ENOSPC, EPIPE */
	if (wrc < 0)
		ret = wrc;
	else if (ret < 0)
		error_errno(ret, "cannot write the output");
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ret;
}

static int watch(struct monitor_probe *p, const struct monitor_opts *o)
{
	volatile sig_atomic_t *stop = signals_install();
	struct monitor_sample a, b;
	struct diskstat *da = xcalloc(p->ndev + 1, sizeof(*da));
	struct diskstat *db = xcalloc(p->ndev + 1, sizeof(*db));
	struct monitor_dev_interval *devs = xcalloc(p->ndev + 1, sizeof(*devs));
	int ret = monitor_probe_take(p, &a, da);
	uint64_t t0 = a.t_ns;
	bool printed = false;

	if (ret)
		goto out;
	if (!o->json) {
		monitor_text_header(stdout);
		if ((ret = output_check(stdout, NULL, NULL)) < 0) {
			printed = true;
			goto out;
		}
	}
	for (uint64_t k = 1; !*stop && (!o->count || k <= o->count); k++) {
		uint64_t deadline = t0 + k * o->interval_ns;
		while (!*stop && now_ns() < deadline)
			sleep_until_ns(deadline);
		if (*stop)
			break;
		if ((ret = monitor_probe_take(p, &b, db)))
			break;
		struct monitor_interval iv = { .devs = devs };
		monitor_interval_compute(&a, da, &b, db, (const char (*)[64])p->names, p->ndev, t0,
					 &iv);
		if ((ret = print_interval(o, &iv, p->all_disks))) {
			printed = true; /* and said why */
			break;
		}
		a = b;
		struct diskstat *t = da;
		da = db;
		db = t;
	}
out:
	if (ret && !printed)
		error_errno(ret, "cannot read the system statistics");
	free(da);
	free(db);
	free(devs);
	return ret ? 1 : 0;
}

static int run_monitor(int argc, char **argv)
{
	struct monitor_opts o;
	struct monitor_probe p;
	int first = 1, ret;

	ret = parse_args(argc, argv, &o, &first);
	if (ret)
		return ret > 0 ? 0 : 1;
	if (monitor_probe_open(&p, (const char *const *)argv + first, (unsigned)(argc - first)))
		return 1;
	ret = watch(&p, &o);
	monitor_probe_close(&p);
	return ret;
}

const struct command cmd_monitor = {
	.name = "monitor",
	.summary = "watch the system live, like iostat -x and vmstat side by side",
	.usage = MONITOR_USAGE,
	.run = run_monitor,
};
