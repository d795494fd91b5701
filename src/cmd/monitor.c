/*
 * `iobench monitor [DEV...] [-i SEC] [-c COUNT] [--json]`: a live view of
 * the system for anyone who just wants to watch it, like running iostat -x
 * and vmstat side by side: every interval a vmstat line and an iostat -x
 * table of the devices (all whole disks that did I/O when none is named), or
 * with --json one JSON object a line. Runs until COUNT intervals are shown
 * or SIGINT/SIGTERM/SIGHUP/SIGQUIT, which ends it cleanly (exit 0, no line
 * half-written); a closed stdout ends it with an error.
 */
#include "cli/command.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/output.h"
#include "sys/signals.h"
#include "report/monitor_report.h"
#include "sys/monitor/monitor.h"
#include "sys/monitor/monitor_calc.h"
#include "util/error.h"
#include "util/timeutil.h"
#include "util/units.h"
#include "util/xmalloc.h"

static const char monitor_usage[] =
	"usage: iobench monitor [DEV...] [-i SEC] [-c COUNT] [--json]\n"
	"\n"
	"Show what the system does every SEC seconds: a vmstat line (processes,\n"
	"memory, swap, block I/O, interrupts, CPU) and an iostat -x table of the\n"
	"devices, computed with sysstat's and procps' formulas. With no DEV, every\n"
	"whole disk that has done I/O; DEV is a name as in /proc/diskstats (sda,\n"
	"loop3, dm-0) or a device path (/dev/sda, /dev/mapper/vg-lv).\n"
	"\n"
	"options:\n";

struct monitor_opts {
	uint64_t interval_ns;
	uint64_t count; /* 0: until interrupted */
	bool json;
	struct cmdopt_list devs;
};

static int set_interval(void *dest, const struct cmdopt *r, const char *v, char *why, size_t len)
{
	struct monitor_opts *o = dest;
	double sec;
	if (parse_double(v, &sec, NULL) || !(sec > 0) || sec > 86400 || sec * 1e9 < 1e6) {
		snprintf(why, len, "invalid interval '%s' (seconds, at least 0.001)", v);
		return -EINVAL;
	}
	o->interval_ns = (uint64_t)llround(sec * 1e9);
	return 0;
}

static int set_count(void *dest, const struct cmdopt *r, const char *v, char *why, size_t len)
{
	struct monitor_opts *o = dest;
	uint64_t n;
	if (parse_uint(v, 1000, &n, NULL) || n == 0) {
		snprintf(why, len, "invalid count '%s' (a positive whole number)", v);
		return -EINVAL;
	}
	o->count = n;
	return 0;
}

static int add_dev(void *arg, const char *word, char *why, size_t len)
{
	struct monitor_opts *o = arg;
	cmdopt_list_add(&o->devs, word);
	return 0;
}

static const struct cmdopt monitor_rows[] = {
	{ "interval", 'i', CMDOPT_REQARG, CMDOPT_CALL, 0, set_interval, 0, "SEC",
	  "seconds between reports (default 1, fractions allowed)" },
	{ "count", 'c', CMDOPT_REQARG, CMDOPT_CALL, 0, set_count, 0, "COUNT",
	  "stop after COUNT reports (default: until interrupted)" },
	{ "json", 0, CMDOPT_NOARG, CMDOPT_TRUE, offsetof(struct monitor_opts, json), NULL, 0, NULL,
	  "one JSON object per line and interval" },
	CMDOPT_END,
};

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

static int run_monitor(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct monitor_opts o = { .interval_ns = MONITOR_DEFAULT_INTERVAL_NS };
	struct monitor_probe p;
	struct cmdopt_parser cp;
	command_parser(&cp, ctx->cmd, &o, NULL);
	cp.operand = add_dev;
	cp.operand_arg = &o;
	int ret = command_parse(ctx, &cp, argc, argv, NULL);
	if (ret) {
		cmdopt_list_release(&o.devs);
		return ret > 0 ? 0 : 1;
	}
	ret = 1;
	if (monitor_probe_open(&p, o.devs.v, (unsigned)o.devs.n) == 0) {
		ret = watch(&p, &o);
		monitor_probe_close(&p);
	}
	cmdopt_list_release(&o.devs);
	return ret;
}

const struct command cmd_monitor = {
	.name = "monitor",
	.summary = "watch the system live, like iostat -x and vmstat side by side",
	.usage = monitor_usage,
	.opts = monitor_rows,
	.common = COMMON_HELP,
	.run = run_monitor,
};
