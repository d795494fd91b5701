/*
 * The machine around a workload (envwatch.h): system capture, the monitor
 * thread and the per-process I/O snapshots, started before and stopped
 * after the workload by the commands that run one.
 */
#include "cmd/envwatch.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/devres.h"
#include "util/error.h"
#include "util/timeutil.h"
#include "util/xmalloc.h"
#include "workload/anomaly.h"

void envwatch_opts_init(struct envwatch_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->warn_slab_bytes = ANOMALY_DEFAULT_SLAB_BYTES;
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

/* What the capture could not read: the geometry of the filesystem the
 * path is on (a filesystem further down, under a loop's backing file,
 * holds none of the workload's data). */
static void note_capture(struct run_env *e)
{
	const struct sysinfo *si = &e->si;
	if (!e->have_sysinfo || si->nr_nodes < 2 || si->nodes[1].parent != 0 ||
	    si->nodes[1].kind != SYSINFO_NODE_FS)
		return;
	const struct sysinfo_fs *fs = &si->fs[si->nodes[1].index];
	if (fs->geometry_error)
		run_env_unwatched(e, "filesystem geometry",
				  xasprintf("%s on %s: %s%s", fs->type, fs->mountpoint, fs->geometry_error,
					    geteuid() ? " (reading the device needs root)" : ""));
}

void envwatch_begin(struct envwatch *w, const char *path, const struct envwatch_opts *o)
{
	memset(w, 0, sizeof(*w));
	w->win_sample = -1;
	w->env = xcalloc(1, sizeof(*w->env));
	w->env->warn_slab_bytes = o->warn_slab_bytes;
	w->env->have_sysinfo = sysinfo_capture(&w->env->si, path ? path : ".") == 0;
	if (!w->env->have_sysinfo)
		sysinfo_release(&w->env->si);
	note_capture(w->env);
	w->have_dev = path_dev(path ? path : ".", &w->dev);
	if (procio_snapshot_take(&w->before, 0) < 0)
		w->before.n = 0;
	/* before any thread starts: the sampler that keeps root for the end */
	if (o->drops_root && geteuid() == 0 &&
	    procio_sampler_start(&w->sampler, &w->before, 1u << 20, w->have_dev, w->dev) < 0)
		warning("cannot start the privileged sampler: other processes' I/O will not be "
			"watched once root is dropped");
	/* watch the devices under the path (all disks when none, e.g. tmpfs) */
	char names[MONITOR_MAX_DEVS][64];
	const char *devs[MONITOR_MAX_DEVS];
	size_t ndev = 0;
	if (devres_devices_for_path(path ? path : ".", names, MONITOR_MAX_DEVS, &ndev) < 0 &&
	    ndev > MONITOR_MAX_DEVS)
		ndev = MONITOR_MAX_DEVS;
	for (size_t i = 0; i < ndev; i++)
		devs[i] = names[i];
	if (o->no_monitor) {
		run_env_unwatched(w->env, "system monitor",
				  xstrdup("--no-monitor: no monitor summary; reclaim, swap, "
					  "dirty-limit, load, device-saturated, foreign-io and "
					  "slab-growth were not checked"));
	} else if (monitor_start(&w->mon, devs, (unsigned)ndev, o->interval_ns) < 0) {
		warning("the system monitor could not start: no monitor figures for this run");
		run_env_unwatched(w->env, "system monitor",
				  xstrdup("it could not start (see the error above): no monitor "
					  "summary, and the checks that need it were not made"));
		w->mon = NULL;
	}
	w->self_fd = open("/proc/self/io", O_RDONLY | O_CLOEXEC);
	w->env->have_self_io = w->self_fd >= 0 &&
			       procio_self_fd(w->self_fd, &w->self_rd, &w->self_wr) == 0;
}

/* A window that starts within this long of the last one's end starts
 * from that end's readings instead of taking them again. */
#define EDGE_REUSE_NS (50 * 1000000ull)

void envwatch_window_begin(struct envwatch *w, unsigned g0, unsigned g1)
{
	struct run_env *e = w->env;
	e->windows = xrealloc(e->windows, (e->nr_windows + 1) * sizeof(*e->windows));
	struct run_window *x = &e->windows[e->nr_windows++];
	memset(x, 0, sizeof(*x));
	x->group_first = g0;
	x->group_last = g1;
	if (w->have_edge && now_ns() - w->edge_ns < EDGE_REUSE_NS) {
		w->win_sample = w->edge_sample;
		x->have_self_io = w->edge_self_io;
		w->win_rd = w->edge_rd;
		w->win_wr = w->edge_wr;
		w->win_before = w->edge_procs;
		w->edge_procs = (struct procio_snapshot){ 0 };
		w->have_edge = false;
		return;
	}
	w->win_sample = w->mon ? monitor_mark(w->mon) : -1;
	x->have_self_io = w->self_fd >= 0 && procio_self_fd(w->self_fd, &w->win_rd, &w->win_wr) == 0;
	if (procio_snapshot_take(&w->win_before, 0) < 0)
		w->win_before.n = 0;
}

void envwatch_window_end(struct envwatch *w)
{
	struct run_env *e = w->env;
	if (!e->nr_windows)
		return;
	struct run_window *x = &e->windows[e->nr_windows - 1];
	long last = w->mon ? monitor_mark(w->mon) : -1;
	if (w->win_sample >= 0 && last > w->win_sample) {
		x->have_samples = true; /* summarised once the series is complete */
		x->sample_first = (size_t)w->win_sample;
		x->sample_last = (size_t)last;
	}
	uint64_t rd = 0, wr = 0;
	bool self_io = w->self_fd >= 0 && procio_self_fd(w->self_fd, &rd, &wr) == 0;
	if (x->have_self_io && self_io) {
		x->self_read_bytes = rd - w->win_rd;
		x->self_write_bytes = wr - w->win_wr;
	} else {
		x->have_self_io = false;
	}
	struct procio_snapshot after;
	if (procio_snapshot_take(&after, 0) < 0)
		after.n = 0;
	procio_diff(&w->win_before, &after, 1u << 20, &x->others, &x->nr_others);
	if (w->have_dev)
		procio_filter_dev(x->others, &x->nr_others, w->dev);
	else
		x->nr_others = 0;
	procio_snapshot_release(&w->win_before);
	w->win_sample = -1;
	/* the next window starts here if it follows at once */
	procio_snapshot_release(&w->edge_procs);
	w->edge_procs = after;
	w->edge_sample = last;
	w->edge_self_io = self_io;
	w->edge_rd = rd;
	w->edge_wr = wr;
	w->edge_ns = now_ns();
	w->have_edge = true;
}

/* The other processes' storage I/O since envwatch_begin, on the run's
 * filesystem or device; as root, or through the sampler that kept it. */
static void others_io(struct envwatch *w, struct run_env *e)
{
	if (w->sampler.pid > 0) {
		if (procio_sampler_finish(&w->sampler, &e->others, &e->nr_others) < 0)
			run_env_unwatched(e, "other processes' I/O",
					  xstrdup("the privileged sampler did not answer: foreign-io "
						  "was not checked"));
		return;
	}
	if (geteuid() != 0)
		run_env_unwatched(e, "other processes' I/O",
				  xstrdup("not root: other users' /proc/PID/io cannot be read, so "
					  "foreign-io sees only this user's processes"));
	struct procio_snapshot after;
	if (procio_snapshot_take(&after, 0) == 0) {
		procio_diff(&w->before, &after, 1u << 20, &e->others, &e->nr_others);
		/* only those with files on the run's filesystem or device */
		if (w->have_dev)
			procio_filter_dev(e->others, &e->nr_others, w->dev);
		else
			e->nr_others = 0;
	}
	procio_snapshot_release(&after);
}

struct run_env *envwatch_end(struct envwatch *w)
{
	struct run_env *e = w->env;
	if (w->mon) {
		if (monitor_stop(w->mon, &e->series) < 0) {
			warning("the system monitor stopped early: its figures cover part of the run");
			run_env_unwatched(e, "system monitor",
					  xstrdup("it stopped early: its figures cover part of the run"));
		}
		e->have_monitor = e->series.n > 0;
		if (e->have_monitor) {
			monitor_summarize(&e->series, &e->summary);
			if (!e->series.samples[0].slab.have)
				run_env_unwatched(e, "buffer_head slab",
						  xstrdup("/proc/slabinfo could not be read (it is "
							  "readable by root only): slab-growth was "
							  "not checked"));
		} else {
			monitor_series_release(&e->series);
		}
	}
	for (size_t i = 0; i < e->nr_windows; i++) {
		struct run_window *x = &e->windows[i];
		if (!e->have_monitor || !x->have_samples || x->sample_last >= e->series.n) {
			x->have_samples = false;
			continue;
		}
		struct monitor_series view;
		monitor_series_view(&e->series, x->sample_first, x->sample_last, &view);
		monitor_summarize(&view, &x->summary);
	}
	uint64_t rd, wr;
	if (e->have_self_io && procio_self_fd(w->self_fd, &rd, &wr) == 0) {
		e->self_read_bytes = rd - w->self_rd;
		e->self_write_bytes = wr - w->self_wr;
	} else {
		e->have_self_io = false;
	}
	if (w->self_fd >= 0)
		close(w->self_fd);
	w->self_fd = -1;
	others_io(w, e);
	procio_snapshot_release(&w->before);
	procio_snapshot_release(&w->edge_procs);
	w->env = NULL;
	return e;
}
