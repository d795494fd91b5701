/*
 * The machine around a workload (envwatch.h): system capture, the monitor
 * thread and the per-process I/O snapshots, started before and stopped
 * after the workload by the commands that run one.
 */
#include "cmd/envwatch.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sys/devres.h"
#include "sys/memcg.h"
#include "util/error.h"
#include "util/units.h"
#include "util/xmalloc.h"
#include "workload/anomaly.h"

void envwatch_opts_init(struct envwatch_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->warn_slab_bytes = ANOMALY_DEFAULT_SLAB_BYTES;
}

int envwatch_parse_flag(struct envwatch_opts *o, const char *arg, char *whybuf, size_t whylen)
{
	const char *why = NULL;
	if (!strcmp(arg, "--no-monitor")) {
		o->no_monitor = true;
		return 1;
	}
	if (!strncmp(arg, "--monitor-interval=", 19)) {
		double s;
		if (parse_double(arg + 19, &s, &why) < 0 || !(s >= 0.01 && s <= 3600)) {
			snprintf(whybuf, whylen,
				 "bad --monitor-interval '%s': give seconds from 0.01 to 3600", arg + 19);
			return -EINVAL;
		}
		o->interval_ns = (uint64_t)(s * 1e9);
		return 1;
	}
	if (!strncmp(arg, "--warn-slab=", 12)) {
		uint64_t v;
		if (parse_size(arg + 12, 1024, &v, &why) < 0) {
			snprintf(whybuf, whylen, "bad --warn-slab '%s': %s", arg + 12,
				 why ? why : "not a size");
			return -EINVAL;
		}
		o->warn_slab_bytes = v;
		return 1;
	}
	if (!strncmp(arg, "--memory-limit=", 15)) {
		uint64_t v;
		if (parse_size(arg + 15, 1024, &v, &why) < 0) {
			snprintf(whybuf, whylen, "bad --memory-limit '%s': %s", arg + 15,
				 why ? why : "not a size");
			return -EINVAL;
		}
		if (v < MEMCG_MIN_LIMIT) {
			snprintf(whybuf, whylen, "--memory-limit '%s' is below 16m: iobench itself "
				 "needs that much", arg + 15);
			return -EINVAL;
		}
		o->memory_limit = v;
		return 1;
	}
	return 0;
}

/* The device number of the filesystem holding path (its nearest existing
 * ancestor), or of the block device path names. */
static bool path_dev(const char *path, dev_t *dev)
{
	char buf[PATH_MAX];
	struct stat st;
	if (devres_existing_ancestor(path, buf, sizeof(buf), &st) < 0)
		return false;
	*dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
	return true;
}

void envwatch_begin(struct envwatch *w, const char *path, const struct envwatch_opts *o)
{
	memset(w, 0, sizeof(*w));
	w->env = xcalloc(1, sizeof(*w->env));
	w->env->warn_slab_bytes = o->warn_slab_bytes;
	w->env->have_sysinfo = sysinfo_capture(&w->env->si, path ? path : ".") == 0;
	if (!w->env->have_sysinfo)
		sysinfo_release(&w->env->si);
	/* watch the devices under the path (all disks when none, e.g. tmpfs) */
	char names[MONITOR_MAX_DEVS][64];
	const char *devs[MONITOR_MAX_DEVS];
	size_t ndev = 0;
	if (devres_devices_for_path(path ? path : ".", names, MONITOR_MAX_DEVS, &ndev) < 0 &&
	    ndev > MONITOR_MAX_DEVS)
		ndev = MONITOR_MAX_DEVS;
	for (size_t i = 0; i < ndev; i++)
		devs[i] = names[i];
	if (!o->no_monitor && monitor_start(&w->mon, devs, (unsigned)ndev, o->interval_ns) < 0) {
		warning("the system monitor could not start: no monitor figures for this run");
		w->mon = NULL;
	}
	w->have_dev = path_dev(path ? path : ".", &w->dev);
	w->env->have_self_io = procio_self(&w->self_rd, &w->self_wr) == 0;
	if (procio_snapshot_take(&w->before) < 0)
		w->before.n = 0;
}

struct run_env *envwatch_end(struct envwatch *w)
{
	struct run_env *e = w->env;
	if (w->mon) {
		if (monitor_stop(w->mon, &e->series) < 0)
			warning("the system monitor stopped early: its figures cover part of the run");
		e->have_monitor = e->series.n > 0;
		if (e->have_monitor)
			monitor_summarize(&e->series, &e->summary);
		else
			monitor_series_release(&e->series);
	}
	uint64_t rd, wr;
	if (e->have_self_io && procio_self(&rd, &wr) == 0) {
		e->self_read_bytes = rd - w->self_rd;
		e->self_write_bytes = wr - w->self_wr;
	} else {
		e->have_self_io = false;
	}
	struct procio_snapshot after;
	if (procio_snapshot_take(&after) == 0) {
		procio_diff(&w->before, &after, 1u << 20, &e->others, &e->nr_others);
		/* only those with files on the run's filesystem or device */
		if (w->have_dev)
			procio_filter_dev(e->others, &e->nr_others, w->dev);
		else
			e->nr_others = 0;
	}
	procio_snapshot_release(&after);
	procio_snapshot_release(&w->before);
	w->env = NULL;
	return e;
}
