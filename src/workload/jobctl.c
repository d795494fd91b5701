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
 */
#include "workload/job.h"

#include <errno.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

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
