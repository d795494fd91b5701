/*
 * A sweep's `command =` workload (a RAID study's `dd ...; sync`, `unrar x`):
 * at each point the shell command (its {mnt}, {dev}, {FACTOR} placeholders
 * filled in) runs in the point's mount directory, timed from fork to exit,
 * with the devices under that directory's statistics (watch/diskres.h) and
 * the monitor (watch/envwatch.h) around it, as `run` has them. Each
 * repetition is stored as a run of kind "run" with one job named
 * "command": its runtime is the command's elapsed time (what the goal
 * `elapsed` reads), its read and write directions the bytes and I/Os the
 * sweep's target devices did meanwhile (so `write bw` is bytes over the
 * elapsed time; the disk under an image file is in disk_util but not
 * counted again),
 * the devices' disk_util, the machine around it, the command line as the
 * run's job file and its exit status, stdout and stderr after the normal
 * rendering. A command that exits non-zero (or is killed) fails the point
 * with its status and last stderr line, and is not stored as a measurement.
 */
#include "sweep/sweep_int.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "results/results.h"
#include "spec/jobspec.h"
#include "store/store.h"
#include "sweep/sweep_exec_int.h"
#include "sweep/sweep_group_int.h"
#include "util/error.h"
#include "util/timeutil.h"
#include "util/xmalloc.h"
#include "watch/diskres.h"
#include "watch/envwatch.h"

#define OUT_KEEP (1u << 20) /* of each of stdout and stderr, kept with the run */

/* What a finished command gave. */
struct cmd_out {
	int status;          /* waitpid's */
	uint64_t start_ms, end_ms, elapsed_ns;
	char *out, *err;     /* their first OUT_KEEP bytes */
	size_t out_total, err_total;
	struct disk_result *disks;
	size_t nr_disks;
	struct run_env *env;
};

static char *read_back(int fd, size_t *total)
{
	off_t end = lseek(fd, 0, SEEK_END);
	*total = end > 0 ? (size_t)end : 0;
	size_t n = *total < OUT_KEEP ? *total : OUT_KEEP, got = 0;
	char *s = xmalloc(n + 1);
	while (got < n) {
		ssize_t r = pread(fd, s + got, n - got, (off_t)got);
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	s[got] = '\0';
	return s;
}

/* Run /bin/sh -c cmd in dir, watched. 0, or -1 with why (it could not run). */
static int run_watched(struct sweep_ctx *c, const char *cmd, struct cmd_out *r, char *why,
		       size_t whylen)
{
	memset(r, 0, sizeof(*r));
	int fo = memfd_create("iobench-command-stdout", MFD_CLOEXEC);
	int fe = fo < 0 ? -1 : memfd_create("iobench-command-stderr", MFD_CLOEXEC);
	if (fe < 0) {
		snprintf(why, whylen, "cannot keep the command's output: %s", strerror(errno));
		if (fo >= 0)
			close(fo);
		return -1;
	}
	struct diskres dr = { 0 };
	diskres_add_path(&dr, c->mnt);
	struct envwatch_opts eo;
	envwatch_opts_init(&eo);
	struct envwatch ew;
	envwatch_begin(&ew, c->mnt, &eo);
	fflush(NULL);
	pid_t parent = getpid();
	r->start_ms = wall_time_ms();
	diskres_begin(&dr);
	struct sweep_group g;
	if (sweep_group_begin(&g) < 0) {
		snprintf(why, whylen, "cannot start the command: %s", strerror(errno));
		close(fo);
		close(fe);
		run_env_free(envwatch_end(&ew));
		diskres_release(&dr);
		return -1;
	}
	uint64_t t0 = now_ns();
	pid_t pid = fork();
	if (pid == 0) {
		/* dies with the sweep; its own group (and cgroup), recorded in
		 * the journal before it runs, so what the shell starts is
		 * ended by a stop, after it exits, and by restore */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(125);
		sweep_group_child(&g);
		int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
		if (devnull >= 0)
			dup2(devnull, 0);
		dup2(fo, 1);
		dup2(fe, 2);
		if (chdir(c->mnt) < 0) {
			dprintf(2, "cannot enter '%s': %s\n", c->mnt, strerror(errno));
			_exit(126);
		}
		signal(SIGPIPE, SIG_DFL);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		dprintf(2, "cannot run /bin/sh: %s\n", strerror(errno));
		_exit(127);
	}
	int rc = 0;
	size_t entry = 0;
	bool recorded = false;
	if (pid < 0) {
		snprintf(why, whylen, "cannot start the command: %s", strerror(errno));
		sweep_group_release(&g, false);
		rc = -1;
	} else {
		sweep_group_enter(&g, pid);
		recorded = sweep_group_record(&c->j, &g, &entry) == 0;
		sweep_group_release(&g, recorded);
		if (!recorded) {
			snprintf(why, whylen, "cannot journal the command's process group");
			rc = -1;
		}
	}
	bool passed = false;
	while (pid > 0 && waitpid(pid, &r->status, 0) < 0) {
		if (errno != EINTR) {
			snprintf(why, whylen, "cannot wait for the command: %s", strerror(errno));
			rc = -1;
			break;
		}
		if (c->stop && *c->stop && !passed) {
			kill(-pid, SIGTERM);
			passed = true;
		}
	}
	r->elapsed_ns = now_ns() - t0;
	r->end_ms = wall_time_ms();
	if (pid > 0) /* what it left running goes with it */
		sweep_group_done(&c->j, &g, entry, recorded, false);
	diskres_end(&dr, r->elapsed_ns / 1000000, &r->disks, &r->nr_disks);
	diskres_release(&dr);
	r->env = envwatch_end(&ew);
	r->out = read_back(fo, &r->out_total);
	r->err = read_back(fe, &r->err_total);
	close(fo);
	close(fe);
	return rc;
}

static void cmd_out_release(struct cmd_out *r)
{
	free(r->out);
	free(r->err);
	free(r->disks);
	run_env_free(r->env);
	memset(r, 0, sizeof(*r));
}

/* The last non-empty line of s, for a failed point's message. */
static void last_line(const char *s, char *out, size_t len)
{
	size_t n = strlen(s);
	while (n && s[n - 1] == '\n')
		n--;
	size_t b = n;
	while (b && s[b - 1] != '\n')
		b--;
	snprintf(out, len, "%.*s", (int)(n - b), s + b);
}

/* Is disk d one the directions count: one of the sweep's target disks
 * (not the disk under an image file, whose writes are the same bytes
 * again); without a match among them, the first device under the
 * directory (its filesystem's). */
static bool counted(const struct sweep_ctx *c, const struct cmd_out *o, size_t d)
{
	bool any = false;
	for (size_t k = 0; k < o->nr_disks; k++)
		for (size_t t = 0; t < c->ndisk; t++)
			if (!strcmp(o->disks[k].name, c->disks[t])) {
				if (k == d)
					return true;
				any = true;
			}
	return !any && d == 0;
}

/* The run: one job "command", the devices' bytes as its directions. */
static void make_result(const struct sweep_ctx *c, const struct cmd_out *o, struct run_result *res)
{
	memset(res, 0, sizeof(*res));
	res->version = RESULTS_VERSION;
	res->start_ms = o->start_ms;
	res->timestamp_ms = o->end_ms;
	res->timestamp = o->end_ms / 1000;
	time_t t = (time_t)res->timestamp;
	struct tm tm;
	localtime_r(&t, &tm);
	strftime(res->time_str, sizeof(res->time_str), "%a %b %e %H:%M:%S %Y", &tm);
	res->jobs = xcalloc(1, sizeof(*res->jobs));
	res->nr_jobs = 1;
	struct job_result *j = &res->jobs[0];
	job_result_init_zeroed(j);
	j->name = xstrdup("command");
	j->nr_jobs = 1;
	/* fio's defaults: the reporters read kb_base and the like from it */
	j->spec = xcalloc(1, sizeof(*j->spec));
	job_spec_defaults(j->spec);
	free(j->spec->name);
	j->spec->name = xstrdup("command");
	j->runtime_ns = o->elapsed_ns;
	for (size_t d = 0; d < o->nr_disks; d++) {
		const struct disk_result *k = &o->disks[d];
		if (!counted(c, o, d))
			continue;
		j->dir[DDIR_READ].io_bytes += k->read_sectors * 512;
		j->dir[DDIR_READ].total_ios += k->read_ios;
		j->dir[DDIR_WRITE].io_bytes += k->write_sectors * 512;
		j->dir[DDIR_WRITE].total_ios += k->write_ios;
	}
	for (int d = DDIR_READ; d <= DDIR_WRITE; d++)
		if (j->dir[d].io_bytes)
			j->dir[d].runtime_ns = o->elapsed_ns;
	if (o->nr_disks) {
		res->disks = xcalloc(o->nr_disks, sizeof(*res->disks));
		memcpy(res->disks, o->disks, o->nr_disks * sizeof(*res->disks));
		res->nr_disks = o->nr_disks;
	}
}

static char *output_text(const char *cmd, const struct cmd_out *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return xstrdup("");
	fprintf(m, "\ncommand: %s\n", cmd);
	fprintf(m, "elapsed: %.3f s, exit status %d\n", (double)o->elapsed_ns / 1e9,
		WIFEXITED(o->status) ? WEXITSTATUS(o->status) : 128 + WTERMSIG(o->status));
	const char *names[] = { "stdout", "stderr" };
	const char *texts[] = { o->out, o->err };
	size_t totals[] = { o->out_total, o->err_total };
	for (int i = 0; i < 2; i++) {
		fprintf(m, "%s (%zu bytes%s):\n%s", names[i], totals[i],
			totals[i] > OUT_KEEP ? ", the first 1 MiB kept" : "", texts[i]);
		if (*texts[i] && texts[i][strlen(texts[i]) - 1] != '\n')
			fputc('\n', m);
	}
	fclose(m);
	return buf;
}

/* Store one repetition as a run of the sweep's point i. */
static int store_one(struct sweep_ctx *c, size_t i, const char *cmd, const struct cmd_out *o,
		     int64_t *group, int rep, char *why, size_t whylen)
{
	const struct sweep_plan *p = c->p;
	struct run_result res;
	make_result(c, o, &res);
	res.env = o->env;
	struct store_renderings rend = { 0 };
	char *tail = output_text(cmd, o);
	int rc = store_render_result_extra(&res, 0, NULL, NULL, tail, &rend);
	free(tail);
	struct store_label *labels = xcalloc(p->nr_factors + 1, sizeof(*labels));
	size_t nl = 0;
	for (size_t f = 0; f < p->nr_factors; f++) {
		const char *l = sweep_point_level(p, c->pts, i, f);
		if (l) {
			labels[nl].key = p->factors[f].name;
			labels[nl++].value = (char *)l;
		}
	}
	char *point = sweep_point_text(p, c->pts, i);
	const char *argv[] = { "sh", "-c", cmd };
	struct store_text jf = { .name = "command", .text = cmd, .len = strlen(cmd) };
	struct store_meta meta = { .argv = argv, .argc = 3, .labels = labels, .nr_labels = nl,
				   .rep_group = *group, .rep_index = *group ? rep : -1,
				   .sweep_id = c->sweep_id, .sweep_point = point };
	struct store_run sr = { .kind = STORE_KIND_RUN, .start_ms = o->start_ms,
				.end_ms = o->end_ms, .result = &res, .job_files = &jf,
				.nr_job_files = 1, .renderings = &rend, .exit_status = 0 };
	int64_t id = 0;
	if (rc < 0)
		snprintf(why, whylen, "cannot render the command's results");
	else if ((rc = store_put_run(c->o->store, &sr, &meta, &id)) < 0)
		snprintf(why, whylen, "cannot store the command's run");
	if (rc == 0 && *group == STORE_NEW_GROUP)
		*group = id;
	res.env = NULL; /* o's */
	run_result_release(&res);
	store_renderings_release(&rend);
	free(labels);
	free(point);
	return rc < 0 ? -1 : 0;
}

int sweep_command_point(struct sweep_ctx *c, size_t i, char *why, size_t whylen)
{
	const struct sweep_plan *p = c->p;
	unsigned reps = p->repeat ? (unsigned)strtoul(p->repeat, NULL, 10) : 1;
	char *cmd = sweep_expand(c, i, p->command);
	if (c->dry) {
		for (unsigned r = 0; r < reps; r++) {
			sweep_drop_caches(c);
			fprintf(c->out, "  (in %s, timed) sh -c '%s'\n", c->mnt, cmd);
		}
		free(cmd);
		return 0;
	}
	int64_t group = reps > 1 ? STORE_NEW_GROUP : 0;
	int rc = 0;
	for (unsigned r = 0; r < reps && !rc; r++) {
		if (c->stop && *c->stop) {
			snprintf(why, whylen, "stopped by a signal");
			rc = -1;
			break;
		}
		sweep_drop_caches(c);
		struct cmd_out o;
		rc = run_watched(c, cmd, &o, why, whylen);
		if (!rc && !(WIFEXITED(o.status) && WEXITSTATUS(o.status) == 0)) {
			char line[512];
			last_line(o.err, line, sizeof(line));
			if (WIFEXITED(o.status))
				snprintf(why, whylen, "the command exited with status %d%s%s",
					 WEXITSTATUS(o.status), *line ? ": " : "", line);
			else
				snprintf(why, whylen, "the command was killed by signal %d%s%s",
					 WTERMSIG(o.status), *line ? ": " : "", line);
			rc = -1;
		}
		if (!rc)
			rc = store_one(c, i, cmd, &o, &group, (int)r, why, whylen);
		cmd_out_release(&o);
	}
	free(cmd);
	return rc;
}
