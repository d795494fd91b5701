/*
 * `iobench run`: fio-compatible job files and fio's command-line job form,
 * with --set overrides, run in order and reported in the chosen formats.
 * Parse errors stop everything before any file is touched; job errors and
 * signals still report the results gathered so far and exit non-zero.
 * --allow-destroy and --readonly feed the device guard (sys/devguard.h).
 * The flags follow fio's getopt_long_only rules (cmd/cmdopt.h); every other
 * --KEY[=VALUE] whose KEY is a job option goes, in order, to the job
 * parser, and one that is neither is refused with the nearest of both.
 */
#include "cmd/command.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/runner.h"
#include "jobfile/jobfile.h"
#include "report/report.h"
#include "store/store.h"
#include "sys/devguard.h"
#include "util/error.h"
#include "util/xmalloc.h"
#include "workload/options.h"
#include "workload/run.h"

static const char run_usage[] =
	"usage: iobench run [OPTIONS] [JOBFILE...] [--name=NAME --OPTION=VALUE...]\n"
	"\n"
	"Run fio-compatible job files in order (several files are separated by a\n"
	"stonewall, as fio does), or jobs given on the command line in fio's form:\n"
	"--name=NAME starts a job and later --OPTION=VALUE belong to it; options\n"
	"before the first --name apply to every command-line job.\n"
	"\n"
	"The options below follow fio's rules (getopt_long_only): -parse-only is\n"
	"--parse-only, an unambiguous prefix will do (--parse), and a value follows\n"
	"'=' or is the next word (--output FILE). Any other --KEY=VALUE is a job\n"
	"option, in order; a word that is neither is refused with the nearest\n"
	"option or job option.\n"
	"\n"
	"options:\n";

static const char run_usage_tail[] =
	"\n"
	"Around every run iobench captures the system under the first job's\n"
	"directory or file (kernel, CPU, memory, VM settings, the device chain,\n"
	"queue tunables, filesystem geometry: see 'iobench sysinfo'), samples\n"
	"iostat -x and vmstat figures while it runs, and ends the report with\n"
	"warnings about figures that do not measure what they seem to (page\n"
	"cache, reclaim, swap, dirty limits, load, saturation, CPU-bound jobs,\n"
	"other processes' I/O, slab growth, unflushed write caches), each judged\n"
	"per stonewall group on that group's device statistics, process I/O and\n"
	"monitor window, and naming its group and jobs; what could not be watched\n"
	"is listed too. All of it is in the JSON under \"iobench\".\n"
	"\n"
	"Device guard: before a job writes to or trims a block device (also one\n"
	"named through a symlink such as /dev/disk/by-id/...), iobench refuses when\n"
	"the device, one of its partitions or its whole disk is mounted, used as\n"
	"swap, held by another device (md, dm, LVM) or holds a loop device's\n"
	"backing file, or it shares its storage with a device in use (a loop\n"
	"device over the same file or over the device), or when libblkid finds a\n"
	"filesystem, RAID, LVM, swap or partition-table signature on it or its\n"
	"partitions. The message names the device and what was found. Only\n"
	"--allow-destroy naming that exact device (the same device number; its\n"
	"disk or another device does not count) lets a job destroy such data; a\n"
	"device in use is refused even then. Every open that writes is judged\n"
	"on the opened descriptor: a device a job writes is checked again and\n"
	"held O_EXCL while open, a planned regular file that became a symlink\n"
	"or a device is refused, --output never goes to a block device, no file\n"
	"is created in /dev, and nothing is written before every job passed.\n"
	"\n"
	"The result is stored once it is printed (--db, --no-store, --label; see\n"
	"'iobench help results').\n"
	"\n"
	"Job options: 'iobench help options'. Exit status: 0 on success, 1 on a bad\n"
	"job file, an I/O error, a report that could not be written or a result that\n"
	"could not be stored, 128+N when\n"
	"stopped by signal N (SIGINT, SIGTERM, SIGHUP, SIGQUIT). continue_on_error\n"
	"(and ignore_error) let a job go on after the errors they cover and count them\n"
	"(total_err, first_error); unlike fio, the exit status is still 1 when any\n"
	"error happened.\n";

/* run's own flags, and the words of the command line they leave. */
struct run_cmdline {
	struct cmdopt_list files;   /* job files, in order */
	struct cmdopt_list jobargs; /* fio's --name=... job form, in order */
	struct cmdopt_list sets;    /* --set KEY=VALUE */
	bool parse_only;
	bool progress;
};

static int set_override(void *dest, const struct cmdopt *o, const char *v, char *why, size_t len)
{
	struct run_cmdline *r = dest;
	if (!strchr(v, '=') || *v == '=') {
		snprintf(why, len, "--set needs KEY=VALUE, not '%s'", v);
		return -EINVAL;
	}
	cmdopt_list_add(&r->sets, v);
	return 0;
}

static int set_eta(void *dest, const struct cmdopt *o, const char *v, char *why, size_t len)
{
	struct run_cmdline *r = dest;
	if (strcmp(v, "auto") && strcmp(v, "never") && strcmp(v, "always")) {
		snprintf(why, len, "--eta takes auto or never, not '%s'", v);
		return -EINVAL;
	}
	r->progress = strcmp(v, "never") != 0;
	return 0;
}

static const struct cmdopt run_rows[] = {
	{ "set", 0, CMDOPT_REQARG, CMDOPT_CALL, 0, set_override, 0, "KEY=VALUE",
	  "override option KEY in every job (repeatable), e.g.\n"
	  "--set size=64m --set directory=/mnt/test" },
	{ "parse-only", 0, CMDOPT_NOARG, CMDOPT_TRUE, offsetof(struct run_cmdline, parse_only), NULL,
	  0, NULL, "check the job files and options, run nothing" },
	{ "eta", 0, CMDOPT_REQARG, CMDOPT_CALL, 0, set_eta, 0, "auto|never",
	  "progress line on a terminal's stderr (default auto)" },
	CMDOPT_END,
};

static const struct cmdopt_help run_help_for[] = {
	{ "output-format", "normal, json, json+ or terse; comma-combinable (default normal). JSON "
			   "is the only thing on stdout; a run that fails before it starts gives a "
			   "JSON object with \"jobs\": [] and its error under \"iobench\"" },
	{ "allow-destroy", "let jobs write to and trim DEVICE although it carries a filesystem, "
			   "RAID, LVM, swap or partition-table signature (repeatable; one device "
			   "each)" },
	{ "readonly", "refuse any job that writes, trims, lays out or deletes files (the job "
		      "option readonly=1 does the same for one job)" },
	{ NULL, NULL },
};

static int add_file(void *arg, const char *word, char *why, size_t len)
{
	struct run_cmdline *r = arg;
	if (!strcmp(word, "-")) {
		snprintf(why, len, "reading a job file from standard input is not supported; name a file");
		return -EINVAL;
	}
	cmdopt_list_add(&r->files, word);
	return 0;
}

/* The job options on the command line: every --KEY[=VALUE] whose KEY is a
 * job option (or a fio option iobench lacks, which the job parser names)
 * goes to jobfile_parse_args in order. Issue 14 adds prefixes here. */
static int job_arg(void *arg, const char *word, char *why, size_t len)
{
	struct run_cmdline *r = arg;
	if (strncmp(word, "--", 2))
		return 0;
	char *key = xstrndup(word + 2, strcspn(word + 2, "="));
	bool job = *key && (option_find(key) || option_is_fio(key));
	free(key);
	if (job)
		cmdopt_list_add(&r->jobargs, word);
	return job;
}

static size_t job_prefixed(void *arg, const char *key, size_t klen, const char **out, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < option_table_len; i++) {
		const struct option_def *o = &option_table[i];
		const char *spell[3] = { o->name, o->alias[0], o->alias[1] };
		for (int k = 0; k < 3; k++)
			if (spell[k] && !strncmp(spell[k], key, klen)) {
				if (n < max)
					out[n] = spell[k];
				n++;
			}
	}
	return n;
}

static const char *job_nearest(void *arg, const char *key, size_t *score)
{
	const char *near = option_suggest(key);
	const struct option_def *o = near ? option_find(near) : NULL;
	*score = (size_t)-1;
	if (!o)
		return NULL;
	const char *spell[3] = { o->name, o->alias[0], o->alias[1] };
	for (int k = 0; k < 3; k++) {
		size_t s = spell[k] ? cmdopt_suggest_score(key, spell[k]) : (size_t)-1;
		if (s < *score)
			*score = s;
	}
	return near;
}

/* --parse-only --readonly: the refusal the run would give at setup. */
static int check_readonly(const struct job_list *l)
{
	int rc = 0;
	for (size_t i = 0; i < l->nr; i++) {
		const struct job_spec *s = &l->jobs[i];
		if (s->rw & (RW_WRITE | RW_TRIM))
			rc = error("job '%s' writes or trims, but read-only mode (--readonly) forbids "
				   "every write and trim", s->name);
		else if (s->unlink)
			rc = error("job '%s' deletes its files (unlink=1), but read-only mode "
				   "(--readonly) forbids every write", s->name);
	}
	return rc;
}

/* A flag refused (why): the message, and under a JSON format (a valid
 * one: a bad one is not reported on top) the JSON error document, as for
 * any run that fails before it starts. Returns the exit status, 1. */
static int bad_flag(const struct runner_args *ra, const char *why)
{
	unsigned formats = 0;
	const char *bad;
	int badlen;
	bool json = ra->formats_text && *ra->formats_text &&
		    report_formats_parse(ra->formats_text, &formats, &bad, &badlen) == 0 &&
		    (formats & (REPORT_JSON | REPORT_JSONPLUS));
	struct error_capture errs = { 0 };
	if (json)
		error_capture_begin(&errs);
	error("%s", why);
	error_capture_end();
	int status = json ? runner_report_failure(ra, &errs) : 1;
	error_capture_release(&errs);
	return status;
}

static int run_run(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct runner_args ra;
	runner_args_init(&ra);
	struct run_cmdline cl = { .progress = true };
	struct cmd_common common;
	cmd_common_init(&common);
	int status = 1, rc;
	char why[512];

	struct cmdopt_parser p;
	command_parser(&p, ctx->cmd, &cl, &common);
	const struct cmdopt_foreign jobs = { job_arg, job_prefixed, job_nearest, &cl };
	p.operand = add_file;
	p.operand_arg = &cl;
	p.foreign = &jobs;
	p.keep_going = true; /* a bad flag still knows --output-format and --output */
	rc = cmdopt_parse(&p, argc, argv, why, sizeof(why));
	if (rc == CMDOPT_HELP_ASKED) {
		command_print_usage(ctx->cmd, stdout);
		status = 0;
		goto out;
	}
	ra.formats_text = common.output_format;
	ra.output_path = common.output;
	ra.readonly = common.readonly;
	ra.env = common.env;
	ra.progress = cl.progress;
	if (rc < 0) {
		status = bad_flag(&ra, why);
		goto out;
	}
	if (cl.parse_only)
		common.no_store = true; /* nothing runs, nothing is stored */
	if (command_parsed(ctx, &common) < 0)
		goto out;
	const char **files = cl.files.v, **sets = cl.sets.v, **allow = common.allow_destroy.v;
	char **jobargs = (char **)cl.jobargs.v;
	size_t nf = cl.files.n, nj = cl.jobargs.n, ns = cl.sets.n, na = common.allow_destroy.n;
	bool parse_only = cl.parse_only;
	/* the output format first: its error is the only one, and a JSON
	 * format makes every later error part of the JSON document */
	unsigned formats = REPORT_NORMAL;
	if (ra.formats_text && report_parse_formats(ra.formats_text, &formats) < 0)
		goto out;
	if (!nf && !nj) {
		error("no job file and no --name=JOB given; see 'iobench help run'");
		goto out;
	}
	struct error_capture errs = { 0 };
	if (formats & (REPORT_JSON | REPORT_JSONPLUS))
		error_capture_begin(&errs);
	ra.allow_destroy = allow;
	ra.nr_allow_destroy = na;
	struct devguard_allow ga = { .devices = allow, .nr_devices = na };
	struct job_list list = { 0 };
	struct jobfile_ctx jctx = { .set_opts = sets, .nr_set = ns };
	if (devguard_allow_validate(&ga, why, sizeof(why)) < 0) {
		error("%s", why);
		rc = -EINVAL;
	} else {
		/* a bad --set is reported once, not once per job file */
		rc = jobfile_check_sets(&jctx);
	}
	bool parse = rc == 0; /* every file's errors are reported, not just the first's */
	for (size_t i = 0; parse && i < nf; i++)
		if (jobfile_parse_file(files[i], (unsigned)i, &list, &jctx) < 0)
			rc = -EINVAL;
	if (parse && nj && jobfile_parse_args((int)nj, jobargs, &list, &jctx) < 0)
		rc = -EINVAL;
	if (!rc && !list.nr)
		rc = error("the job files define no jobs");
	if (!rc && parse_only && ra.readonly)
		rc = check_readonly(&list); /* a run refuses them at setup */
	if (!rc)
		rc = workload_check_threads(&list); /* before anything clones them */
	error_capture_end();
	if (rc < 0) {
		status = runner_report_failure(&ra, &errs);
	} else if (parse_only) {
		printf("%zu job(s) parsed, no errors\n", list.nr);
		status = 0;
	} else {
		/* the job files as they were when the run began, for the store */
		struct store_text *texts = xcalloc(nf ? nf : 1, sizeof(*texts));
		for (size_t i = 0; ctx->store && i < nf; i++) {
			char *text = NULL;
			size_t len = 0;
			if (jobfile_read_text(files[i], &text, &len) < 0)
				continue; /* parsed a moment ago; gone now: not stored */
			texts[ra.nr_job_files++] = (struct store_text){ files[i], text, len };
		}
		ra.job_files = texts;
		ra.store_ctx = ctx;
		ra.store_kind = STORE_KIND_RUN;
		status = runner_run_and_report(&list, &ra);
		for (size_t i = 0; i < ra.nr_job_files; i++)
			free((char *)texts[i].text);
		free(texts);
	}
	error_capture_release(&errs);
	job_list_release(&list);
out:
	cmdopt_list_release(&cl.files);
	cmdopt_list_release(&cl.jobargs);
	cmdopt_list_release(&cl.sets);
	cmd_common_release(&common);
	return status;
}

const struct command cmd_run = {
	.name = "run",
	.summary = "run fio-compatible job files or command-line jobs",
	.usage = run_usage,
	.usage_tail = run_usage_tail,
	.opts = run_rows,
	.common = COMMON_OUTPUT_FORMAT | COMMON_OUTPUT | COMMON_ALLOW_DESTROY | COMMON_READONLY |
		  COMMON_DB | COMMON_NO_STORE | COMMON_LABEL | COMMON_HELP,
	.help_for = run_help_for,
	.flags = CMD_WATCHES_ENV | CMD_FIO_ARGS | CMD_OPENS_STORE,
	.run = run_run,
};
