/*
 * fio's job control (job.h: job_exec, job_exit_others). exec_prerun and
 * exec_postrun run their command through /bin/sh -c, as fio's system(3)
 * does, with stdout and stderr in JOBNAME.prerun.txt / .postrun.txt in the
 * current directory (fio's names); the file is opened through the device
 * guard like everything iobench writes, and the whole command's output goes
 * there (fio's "CMD > FILE 2>&1" redirects only the last command of a
 * list). exitall is global in fio: one job that sets it makes the end of
 * every job stop others; which others is the finished job's exit_what:
 * its reporting group, every job running now (the next stonewall batch
 * still runs) or every job of the run, those not started yet included
 * (they start, do nothing and are reported with no I/O, as in fio).
 * ioscheduler= switches the queue under a job's first file for its batch,
 * holding the queue's knob lock, and puts the whole queue back after it
 * (the scheduler, then nr_requests and the iosched/ knobs the switch
 * reset: sys/sysknob_snap.h); fio 3.33 leaves it switched.
 */
#include "workload/job/job.h"

#include <errno.h>
#include <limits.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sys/dev/devoperand.h"
#include "sys/iosched.h"
#include "sys/sysknob_lock.h"
#include "sys/sysknob_snap.h"
#include "util/error.h"
#include "util/xmalloc.h"
#include "workload/runtime_int.h"

extern char **environ;

__attribute__((format(printf, 2, 3)))
static void job_note(const struct job *j, const char *fmt, ...)
{
	FILE *out = j->sync ? j->sync->notes : NULL;
	if (!out)
		return;
	va_list ap;
	va_start(ap, fmt);
	flockfile(out);
	vfprintf(out, fmt, ap);
	fflush(out);
	funlockfile(out);
	va_end(ap);
}

/* Spawn sh -c cmd with fd as stdout and stderr: its wait status, or -errno. */
static int spawn_sh(const char *cmd, int fd)
{
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fd, STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(&fa, fd, STDERR_FILENO);
	char *argv[] = { "sh", "-c", (char *)cmd, NULL };
	pid_t pid;
	int rc = posix_spawn(&pid, "/bin/sh", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc)
		return -rc;
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return st;
}

/* cmd names no block device but those of jobs[0..nr) and --allow-destroy. */
static int operands_check(const struct job *jobs, size_t nr, const char *cmd, const char *what,
			  const char *job)
{
	size_t n = 0;
	for (size_t i = 0; i < nr; i++)
		n += jobs[i].nr_files;
	const char **devs = xcalloc(n + 1, sizeof(*devs));
	size_t nd = 0;
	for (size_t i = 0; i < nr; i++)
		for (unsigned f = 0; f < jobs[i].nr_files; f++)
			if (jobs[i].files[f].is_bdev)
				devs[nd++] = jobs[i].files[f].path;
	struct devoperand_allow al = { .devs = devs, .ndev = nd, .allow = &jobs[0].guard,
				       .whose = nr == 1 ? "a device of the job" : "a device of a job" };
	char why[1024];
	int rc = 0;
	if (devoperand_check(cmd, true, &al, NULL, why, sizeof(why)) < 0) {
		if (job)
			error("job '%s': refusing %s '%s': %s", job, what, cmd, why);
		else
			error("refusing %s '%s': %s", what, cmd, why);
		rc = -EPERM;
	}
	free(devs);
	return rc;
}

int job_exec_check(const struct job *j)
{
	const struct job_spec *s = j->spec;
	if (s->exec_prerun && operands_check(j, 1, s->exec_prerun, "exec_prerun", s->name) < 0)
		return -EPERM;
	if (s->exec_postrun && operands_check(j, 1, s->exec_postrun, "exec_postrun", s->name) < 0)
		return -EPERM;
	return 0;
}

int job_trigger_check(const struct job *jobs, size_t nr, const char *cmd)
{
	return nr && cmd && *cmd ? operands_check(jobs, nr, cmd, "the trigger command", NULL) : 0;
}

int job_exec(struct job *j, const char *cmd, const char *mode)
{
	/* validation refuses it first, at the option's line; this holds for
	 * every way a job gets here */
	if (j->guard.readonly_by)
		return error("job '%s': exec_%s is not run: read-only mode (%s) runs nothing that "
			     "could change the system", j->spec->name, mode, j->guard.readonly_by);
	char *path = xasprintf("%s.%s.txt", j->spec->name, mode);
	char why[512];
	FILE *fp;
	job_note(j, "%s : Saving output of %s in %s\n", j->spec->name, mode, path);
	int rc = devguard_fopen(path, false, &j->guard, &fp, why, sizeof(why));
	if (rc < 0) {
		free(path);
		return error_errno(rc, "job '%s': cannot write the output of exec_%s: %s", j->spec->name,
				   mode, why);
	}
	int st = spawn_sh(cmd, fileno(fp));
	fclose(fp);
	if (st < 0) {
		free(path);
		return error_errno(st, "job '%s': cannot run exec_%s '%s' through /bin/sh",
				   j->spec->name, mode, cmd);
	}
	bool ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;
	if (!ok)
		job_note(j, "%s : exec_%s failed (%s %d, see %s)%s\n", j->spec->name, mode,
			 WIFEXITED(st) ? "exit status" : "signal",
			 WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st), path,
			 strcmp(mode, "prerun") ? "" : ": the job does no I/O, as in fio");
	free(path);
	return ok ? 0 : 1;
}

/* Should a job finishing with exit_what `what` stop job k? */
static bool stops(const struct job *j, enum exit_what what, const struct job *k)
{
	switch (what) {
	case EXIT_WHAT_GROUP:
		return k->spec->groupid == j->spec->groupid;
	case EXIT_WHAT_STONEWALL: {
		/* fio: those past their start-up and ramp (TD_RUNNING and on) */
		int st = atomic_load(&k->state);
		return st >= JOB_RUNNING && st != JOB_DONE;
	}
	case EXIT_WHAT_ALL:
		return true;
	}
	return false;
}

void job_exit_others(struct job *j)
{
	struct run_sync *s = j->sync;
	if (!s || !s->jobs)
		return;
	if (!s->exitall && !(j->spec->exitall_on_error && j->res.error))
		return;
	bool any = false;
	for (size_t i = 0; i < s->nr_jobs; i++) {
		struct job *k = &s->jobs[i];
		if (k == j || atomic_load(&k->terminate) || !stops(j, j->spec->exit_what, k))
			continue;
		atomic_store(&k->terminate, true);
		any = true;
	}
	if (any) {
		pthread_mutex_lock(&s->lock);
		pthread_cond_broadcast(&s->wake); /* end their startdelay, rate and wait_for sleeps */
		pthread_mutex_unlock(&s->lock);
	}
}

/* ioscheduler=: what a batch switched, to put back after it: the queue's
 * whole state before (a switch resets nr_requests and the iosched/ knobs),
 * under the queue's knob lock (no sweep or other run turns it meanwhile) */
struct iosched_saved {
	size_t nr;
	struct {
		char file[PATH_MAX];
		struct sysknob_snap snap;
		struct sysknob_lock lock;
		const char *want;   /* the spec's string */
		const char *job;    /* the job that asked first */
	} q[];
};

/* Lock and save the queue of disk, then switch its scheduler (file) to
 * name: 0, or -errno with why and nothing held. */
static int switch_queue(const char *disk, const char *file, const char *name,
			struct sysknob_snap *snap, struct sysknob_lock *lock, char *why, size_t whylen)
{
	int rc = sysknob_lock_disk(NULL, disk, lock, why, whylen);
	if (rc < 0)
		return rc;
	if ((rc = sysknob_snap_take(NULL, disk, snap, why, whylen)) < 0) {
		sysknob_lock_release(lock);
		return rc;
	}
	free(snap->excluded); /* the read-only ones: nothing to put back */
	snap->excluded = NULL;
	if ((rc = iosched_set(file, name, why, whylen)) < 0) {
		char *report;
		sysknob_snap_restore(NULL, snap, &report); /* a failed switch may still reset */
		free(report);
		sysknob_snap_release(snap);
		sysknob_lock_release(lock);
	}
	return rc;
}

int job_iosched_check(const struct job *j)
{
	const struct job_spec *s = j->spec;
	char file[PATH_MAX], disk[64], why[PATH_MAX + 256];
	if (!s->ioscheduler)
		return 0;
	if ((j->eng.ops->flags & ENGINE_NO_FILE) || !j->nr_files || !j->files[0].path)
		return error("job '%s': ioscheduler=%s: the %s engine does no I/O to a device, so "
			     "there is no queue to set", s->name, s->ioscheduler, j->eng.ops->name);
	/* a file still to be laid out: the file system of its directory */
	const char *path = j->files[0].path;
	char *dir = NULL;
	if (access(path, F_OK) < 0) {
		dir = xstrdup(path);
		char *slash = strrchr(dir, '/');
		if (!slash)
			strcpy(dir, ".");
		else if (slash == dir)
			slash[1] = '\0'; /* "/f": the root */
		else
			*slash = '\0';
		path = dir;
	}
	int rc = iosched_find(path, file, disk, why, sizeof(why));
	free(dir);
	struct sysknob_lock l;
	if (rc == 0 && (rc = sysknob_lock_disk(NULL, disk, &l, why, sizeof(why))) == 0)
		sysknob_lock_release(&l); /* free now: refused before any layout if not */
	if (rc < 0)
		return error("job '%s': ioscheduler=%s: %s", s->name, s->ioscheduler, why);
	return 0;
}

int job_iosched_apply(struct job *jobs, size_t from, size_t to, struct iosched_saved **saved)
{
	*saved = NULL;
	size_t want = 0;
	for (size_t i = from; i < to; i++)
		want += jobs[i].spec->ioscheduler != NULL;
	if (!want)
		return 0;
	struct iosched_saved *sv = xcalloc(1, sizeof(*sv) + want * sizeof(sv->q[0]));
	*saved = sv;
	for (size_t i = from; i < to; i++) {
		const struct job_spec *s = jobs[i].spec;
		char file[PATH_MAX], disk[64], why[PATH_MAX + 256];
		if (!s->ioscheduler)
			continue;
		if ((jobs[i].eng.ops->flags & ENGINE_NO_FILE) || !jobs[i].nr_files ||
		    !jobs[i].files[0].path) {
			job_iosched_restore(sv);
			*saved = NULL;
			return error("job '%s': ioscheduler=%s: the %s engine does no I/O to a device, "
				     "so there is no queue to set", s->name, s->ioscheduler,
				     jobs[i].eng.ops->name);
		}
		int rc = iosched_find(jobs[i].files[0].path, file, disk, why, sizeof(why));
		size_t k = 0;
		while (!rc && k < sv->nr && strcmp(sv->q[k].file, file))
			k++;
		if (!rc && k < sv->nr) { /* the queue is switched already */
			if (strcmp(sv->q[k].want, s->ioscheduler))
				snprintf(why, sizeof(why), "job '%s' runs beside it with ioscheduler=%s on "
					 "the same queue (%s)", sv->q[k].job, sv->q[k].want, disk), rc = -EINVAL;
			if (!rc)
				continue;
		}
		if (!rc && !(rc = switch_queue(disk, file, s->ioscheduler, &sv->q[k].snap,
					       &sv->q[k].lock, why, sizeof(why)))) {
			snprintf(sv->q[k].file, sizeof(sv->q[k].file), "%s", file);
			sv->q[k].want = s->ioscheduler;
			sv->q[k].job = s->name;
			sv->nr++;
			continue;
		}
		job_iosched_restore(sv);
		*saved = NULL;
		return error("job '%s': ioscheduler=%s: %s", s->name, s->ioscheduler, why);
	}
	return 0;
}

void job_iosched_restore(struct iosched_saved *sv)
{
	if (!sv)
		return;
	for (size_t k = sv->nr; k-- > 0;) {
		char *report;
		/* the scheduler first, then what the switch reset, in the order that sticks */
		if (sysknob_snap_restore(NULL, &sv->q[k].snap, &report) < 0)
			warning("ioscheduler=: the queue of %s did not all go back: %s",
				sv->q[k].snap.disk, report);
		free(report);
		sysknob_snap_release(&sv->q[k].snap);
		sysknob_lock_release(&sv->q[k].lock);
	}
	free(sv);
}
