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
 * ioscheduler= switches the queue under a job's first file for its batch
 * and puts the old scheduler back after it (fio 3.33 leaves it switched).
 */
#include "workload/job.h"

#include <errno.h>
#include <limits.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sys/iosched.h"
#include "util/error.h"
#include "util/xmalloc.h"

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

/* ioscheduler=: what a batch switched, to put back after it */
struct iosched_saved {
	size_t nr;
	struct {
		char file[PATH_MAX];
		char was[64];
		const char *want;   /* the spec's string */
		const char *job;    /* the job that asked first */
	} q[];
};

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
		if (!rc && !(rc = iosched_get(file, sv->q[k].was, sizeof(sv->q[k].was))) &&
		    !(rc = iosched_set(file, s->ioscheduler, why, sizeof(why)))) {
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
		char why[PATH_MAX + 256];
		if (iosched_set(sv->q[k].file, sv->q[k].was, why, sizeof(why)) < 0)
			warning("cannot put the I/O scheduler back: %s", why);
	}
	free(sv);
}
