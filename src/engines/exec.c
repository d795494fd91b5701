/*
 * The "exec" engine, fio's: no file and no I/O; the job runs a program
 * beside the others (a monitor such as turbostat, a load, a sleep). The
 * first unit starts `program` with `arguments` (split on spaces, no
 * quoting, %r replaced by the job's runtime in seconds and %n by its name,
 * as fio does), its stdout and stderr going to JOB.stdout and JOB.stderr in
 * the working directory (std_redirect=1, the default; opened through the
 * guarded open as iobench's own output). Each later unit waits 50 ms; one
 * that ends past the job's runtime sends the program SIGTERM and waits
 * grace_time seconds. The job's end (its file closing) sends SIGKILL and
 * reaps it. Units are
 * reads of no bytes and the job stalls 50 ms after each (fio's thinktime
 * for this engine); the program's exit status is not the job's.
 */
#include "engines/engine.h"
#include "sys/dev/devoperand.h"
#include "sys/dev/guardopen.h"
#include "util/array.h"
#include "util/error.h"
#include "util/timeutil.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define EXEC_POLL_NS 50000000ull /* fio's 50 ms */
#define EXEC_STR 4096

struct exec_opts {
	char program[EXEC_STR];
	char arguments[EXEC_STR];
	bool has_arguments;
	unsigned grace_time; /* seconds between SIGTERM and the end */
	bool std_redirect;
};

static int opt_str(char *dst, const char *val, struct opt_ctx *c)
{
	if (strlen(val) >= EXEC_STR)
		return opt_failf(c, -ENAMETOOLONG, "value of option '%s' is longer than %d bytes",
				 c->key, EXEC_STR - 1);
	strcpy(dst, val);
	return 0;
}

static int opt_program(void *target, const char *val, struct opt_ctx *c)
{
	return opt_str(((struct exec_opts *)target)->program, val, c);
}

static int opt_arguments(void *target, const char *val, struct opt_ctx *c)
{
	struct exec_opts *o = target;
	o->has_arguments = true;
	return opt_str(o->arguments, val, c);
}

#define O(field) offsetof(struct exec_opts, field)
static const struct option_def exec_options[] = {
	{ .name = "program", .type = OPT_FUNC, .parse = opt_program, .type_text = "str",
	  .help = "program to run (required); SIGTERM past the runtime, SIGKILL at the job's end" },
	{ .name = "arguments", .type = OPT_FUNC, .parse = opt_arguments, .type_text = "str",
	  .help = "its arguments, split on spaces; %r is the runtime in seconds, %n the job's name" },
	{ .name = "grace_time", .type = OPT_UINT, .off = O(grace_time), .width = sizeof(unsigned),
	  .type_text = "int", .def = "1", .help = "seconds between the SIGTERM and the SIGKILL" },
	{ .name = "std_redirect", .type = OPT_BOOL, .off = O(std_redirect), .type_text = "bool",
	  .def = "1", .help = "send the program's stdout and stderr to JOB.stdout and JOB.stderr" },
};
#undef O

struct exec_priv {
	pid_t pid;         /* 0 until started, -1 when it could not start */
	uint64_t start_ns;
};

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000u), .tv_nsec = (long)(ns % 1000000000u) };
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static void exec_hints(const void *opts, struct engine_job_hints *h)
{
	(void)opts;
	h->thinktime_set = true;
	h->thinktime_ns = EXEC_POLL_NS;
}

static int exec_init(struct engine_ctx *ctx)
{
	const struct exec_opts *o = engine_options(ctx);
	if (!o->program[0])
		return error("the exec engine needs program= (no program is defined), as fio's");
	if (ctx->params.guard && ctx->params.guard->readonly_by)
		return error("the exec engine runs no program in read-only mode (%s): iobench cannot "
			     "hold a program to read-only", ctx->params.guard->readonly_by);
	return 0;
}

/* "a %r b" with %r and %n replaced, into a new string. */
static char *expand(const char *args, const char *name, uint64_t runtime_ns)
{
	char secs[24];
	snprintf(secs, sizeof(secs), "%llu", (unsigned long long)(runtime_ns / 1000000000u));
	size_t n = 1;
	for (const char *p = args; *p; p++)
		n += (p[0] == '%' && (p[1] == 'r' || p[1] == 'n')) ? strlen(secs) + strlen(name) : 1;
	char *out = malloc(n), *w = out;
	if (!out)
		return NULL;
	for (const char *p = args; *p; p++) {
		if (p[0] == '%' && (p[1] == 'r' || p[1] == 'n')) {
			const char *with = p[1] == 'r' ? secs : name;
			w = stpcpy(w, with);
			p++;
		} else {
			*w++ = *p;
		}
	}
	*w = '\0';
	return out;
}

/* Open JOB.SUFFIX for the program's output, through the guarded open. */
static int open_out(struct engine_ctx *ctx, const char *suffix)
{
	char path[4200], why[2560];
	snprintf(path, sizeof(path), "%s.%s", ctx->params.job_name ? ctx->params.job_name : "exec",
		 suffix);
	struct devguard_use use = { .kind = DEVGUARD_OWN, .what = DEVGUARD_WRITE,
				    .allow = ctx->params.guard };
	struct devguard_fd g;
	int rc = devguard_open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644, &use, &g, why, sizeof(why));
	if (rc < 0)
		return why[0] ? error("exec: cannot open '%s' for the program's output: %s", path, why)
			      : error_errno(rc, "exec: cannot open '%s' for the program's output", path);
	return g.fd;
}

static int start_program(struct engine_ctx *ctx)
{
	const struct exec_opts *o = engine_options(ctx);
	struct exec_priv *p = ctx->priv;
	const char *name = ctx->params.job_name ? ctx->params.job_name : "";
	char *args = o->has_arguments ? expand(o->arguments, name, ctx->params.runtime_ns) : NULL;
	size_t len = strlen(o->program) + (args ? strlen(args) : 0) + 2;
	char *line = malloc(len);
	char **argv = calloc(len / 2 + 2, sizeof(*argv));
	int outfd = -1, errfd = -1, rc = -ENOMEM;
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	if (!line || !argv || (o->has_arguments && !args))
		goto out;
	snprintf(line, len, "%s%s%s", o->program, args ? " " : "", args ? args : "");
	/* its operands name no block device --allow-destroy does not */
	struct devoperand_allow al = { .allow = ctx->params.guard, .whose = "a device offered" };
	char why[1024];
	if (devoperand_check(line, false, &al, NULL, why, sizeof(why)) < 0) {
		rc = error("exec: refusing to run '%s': %s", line, why);
		rc = -EPERM;
		goto out;
	}
	size_t n = 0;
	for (char *tok = strtok(line, " "); tok; tok = strtok(NULL, " "))
		argv[n++] = tok;
	if (o->std_redirect) {
		if ((outfd = open_out(ctx, "stdout")) < 0 || (errfd = open_out(ctx, "stderr")) < 0) {
			rc = -EIO;
			goto out;
		}
		posix_spawn_file_actions_adddup2(&fa, outfd, STDOUT_FILENO);
		posix_spawn_file_actions_adddup2(&fa, errfd, STDERR_FILENO);
	}
	pid_t pid;
	int err = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	if (err) {
		rc = error_errno(-err, "exec: cannot run '%s'", argv[0]);
		goto out;
	}
	p->pid = pid;
	rc = 0;
out:
	posix_spawn_file_actions_destroy(&fa);
	if (outfd >= 0)
		close(outfd);
	if (errfd >= 0)
		close(errfd);
	free(argv);
	free(line);
	free(args);
	return rc;
}

static int exec_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	const struct exec_opts *o = engine_options(ctx);
	struct exec_priv *p = ctx->priv;
	u->result = (int64_t)u->buflen; /* no bytes are counted (ENGINE_NO_IO) */
	if (p->pid == 0) {
		p->start_ns = now_ns();
		if (start_program(ctx) < 0) {
			p->pid = -1;
			u->result = -ECHILD;
		}
		return ENGINE_Q_COMPLETED;
	}
	sleep_ns(EXEC_POLL_NS);
	if (p->pid > 0 && now_ns() - p->start_ns > ctx->params.runtime_ns) {
		kill(p->pid, SIGTERM);
		sleep_ns((uint64_t)o->grace_time * 1000000000u);
	}
	return ENGINE_Q_COMPLETED;
}

/* The job's end (its files close): SIGKILL, and reap the program. */
static void stop_program(struct engine_ctx *ctx)
{
	struct exec_priv *p = ctx->priv;
	if (p && p->pid > 0) {
		kill(p->pid, SIGKILL);
		while (waitpid(p->pid, NULL, 0) < 0 && errno == EINTR)
			;
		p->pid = -1;
	}
}

static int exec_close(struct engine_ctx *ctx, struct job_file *f)
{
	(void)f;
	stop_program(ctx);
	return 0;
}

static int exec_open(struct engine_ctx *ctx, struct job_file *f)
{
	(void)ctx;
	(void)f;
	return 0;
}

const struct engine_ops engine_exec = {
	.name = "exec",
	.summary = "fio's: no I/O; runs a program for the job's runtime (SIGTERM, grace_time, SIGKILL)",
	.flags = ENGINE_SYNC | ENGINE_NO_FILE | ENGINE_NO_IO,
	.priv_size = sizeof(struct exec_priv),
	.options = exec_options,
	.nr_options = ARRAY_SIZE(exec_options),
	.options_size = sizeof(struct exec_opts),
	.init = exec_init,
	.open_file = exec_open,
	.close_file = exec_close,
	.queue = exec_queue,
	.cleanup = stop_program,
	.job_hints = exec_hints,
};
