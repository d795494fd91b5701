/*
 * `iobench run`: fio-compatible job files and fio's command-line job form,
 * with --set overrides, run in order and reported in the chosen formats.
 * Parse errors stop everything before any file is touched; job errors and
 * signals still report the results gathered so far and exit non-zero.
 * --allow-destroy and --readonly feed the device guard (sys/dev/devguard.h).
 * The flags follow fio's getopt_long_only rules (cli/cmdopt.h); every other
 * --KEY[=VALUE] whose KEY is a job option goes, in order, to the job
 * parser, and one that is neither is refused with the nearest of both.
 */
#include "cli/command.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/run/run_cmdline_int.h"
#include "cmd/run/run_files_int.h"
#include "runner/repeat/runner_repeat.h"
#include "engines/engine.h"
#include "jobfile/jobfile.h"
#include "report/report.h"
#include "sys/dev/devguard.h"
#include "store/store.h"
#include "util/error.h"
#include "util/xmalloc.h"
#include "spec/options.h"
#include "workload/replay/replay.h"
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
	"option or job option. A job option takes the next word as fio's do\n"
	"(--rw read); fio's set options (--group_reporting, --time_based, ...)\n"
	"take a value only after '='. A job file '-' is read from standard input.\n"
	"Invoked as 'fio' (a symlink), iobench is 'iobench run' speaking as fio\n"
	"3.33: --version prints fio-3.33, the reports name fio-3.33, the normal\n"
	"output has fio's head and job headers (pid=) and none of iobench's own\n"
	"lines (the system, its warnings: they are in the JSON's \"iobench\"), and\n"
	"nothing is stored without --db or IOBENCH_DB.\n"
	"\n"
	"fio's short forms: -o is --output, -F --output-format, -r --readonly, and\n"
	"each flag below has fio's letter. --latency-log (-l) is refused as fio\n"
	"refuses it; --server (-S), --daemonize (-D), --client (-C),\n"
	"--remote-config (-R) and --trigger-remote (-J) are refused: for many\n"
	"clients use the MPI build, iobench-mpi.\n"
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
	"--repeat N runs the whole workload N times, each repetition a run of its\n"
	"own (a read job's existing file reused, a write job's laid out as always),\n"
	"its report printed as it ends, then a summary per job, direction and figure\n"
	"(bw KiB/s, iops, clat p50 and p99 ns): median, the 95% confidence interval\n"
	"of the median (order statistics; none below 6 values, where [min, max] and\n"
	"its coverage are given), cv, min/max, n and Tukey's outliers by repetition,\n"
	"kept. --repeat auto[:W%] stops when every figure's interval is within W\n"
	"(default 5%) of its median, after 6 repetitions at the earliest (the fewest\n"
	"that give a 95% interval), or at --max-repeat, and says which figure\n"
	"decided. A signal keeps the repetition it interrupted, marked, out of the\n"
	"summary. The JSON keeps fio's keys for the last repetition and adds\n"
	"\"repetitions\" (each one's times, status and whole document as \"result\")\n"
	"and \"repeat_summary\" (mode, stopped_by, deciding_figure, decision and\n"
	"per figure name, job, ddir, figure, unit, n, median, ci_lo, ci_hi,\n"
	"ci_confidence, ci_95, ci_rel_lo_pct, ci_rel_hi_pct, mean, stddev, cv, min,\n"
	"max, q1, q3, values, outliers) under \"iobench\".\n"
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
	"'iobench help results'); invoked as 'fio', only with --db or IOBENCH_DB.\n"
	"\n"
	"Job options: 'iobench help options'. Exit status: 0 on success, 1 on a bad\n"
	"job file, an I/O error, a report that could not be written or a result that\n"
	"could not be stored, 128+N when\n"
	"stopped by signal N (SIGINT, SIGTERM, SIGHUP, SIGQUIT). continue_on_error\n"
	"(and ignore_error) let a job go on after the errors they cover and count them\n"
	"(total_err, first_error); unlike fio, the exit status is still 1 when any\n"
	"error happened.\n";

static int add_file(void *arg, const char *word, char *why, size_t len)
{
	struct run_cmdline *r = arg;
	cmdopt_list_add(&r->files, word);
	return 0;
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
	struct run_cmdline cl = { .progress = true, .terse_version = 3, .as_fio = ctx->as_fio };
	struct cmd_common common;
	cmd_common_init(&common);
	cl.common = &common;
	int status = 1, rc;
	char why[512], *formats_text = NULL;

	struct cmdopt_parser p;
	command_parser(&p, ctx->cmd, &cl, &common);
	struct cmdopt_foreign jobs;
	run_jobargs_foreign(&jobs, &cl);
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
	if (rc == 0 && cl.info) {
		status = run_info(&cl);
		goto out;
	}
	if (cl.append_terse) /* fio: terse after what --output-format says */
		common.output_format = formats_text =
			xasprintf("%s,terse", common.output_format ? common.output_format : "normal");
	ra.formats_text = common.output_format;
	ra.output_path = common.output;
	ra.readonly = common.readonly;
	ra.env = common.env;
	ra.progress = cl.progress;
	ra.progress_always = cl.eta_always;
	ra.ctl = cl.ctl;
	ra.terse_version = cl.terse_version;
	ra.as_fio = ctx->as_fio;
	if (rc == 0 && (rc = cmd_common_check_repeat(&common.repeat, geteuid(), why, sizeof(why))) > 0)
		rc = 0;
	if (rc == 0 && common.readonly && cl.ctl.trigger_cmd) {
		snprintf(why, sizeof(why), "--trigger runs a command, but read-only mode (--readonly) "
			 "runs nothing that could change the system: iobench cannot hold a command to "
			 "read-only");
		rc = -EINVAL;
	}
	if (rc == 0 && cl.ctl.status_interval_ns && repeat_wanted(&common.repeat)) {
		snprintf(why, sizeof(why), "--status-interval and --repeat do not go together: each "
			 "repetition is a report of its own; give one of them");
		rc = -EINVAL;
	}
	if (rc < 0) {
		status = bad_flag(&ra, why);
		goto out;
	}
	ra.repeat = &common.repeat;
	if (cl.parse_only)
		common.no_store = true; /* nothing runs, nothing is stored */
	if (command_parsed(ctx, &common) < 0)
		goto out;
	ra.bandwidth_log = cl.bandwidth_log;
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
	struct jobfile_ctx jctx = { .set_opts = sets, .nr_set = ns, .parse_only = cl.parse_only,
				   .readonly = ra.readonly, .debug_parse = cl.debug_parse };
	if (devguard_allow_validate(&ga, why, sizeof(why)) < 0) {
		error("%s", why);
		rc = -EINVAL;
	} else {
		/* a bad --set is reported once, not once per job file */
		rc = jobfile_check_sets(&jctx);
	}
	bool parse = rc == 0; /* every file's errors are reported, not just the first's */
	if (parse && cl.showcmd) {
		error_capture_end();
		status = run_showcmd(files, nf, &jctx) < 0 ? 1 : 0;
		error_capture_release(&errs);
		goto out;
	}
	/* as fio: the command-line jobs first, then the job files */
	if (parse && nj && jobfile_parse_args((int)nj, jobargs, &list, &jctx) < 0)
		rc = -EINVAL;
	for (size_t i = 0; parse && i < nf; i++)
		if (run_parse_file(files[i], (unsigned)i, &list, &jctx) < 0)
			rc = -EINVAL;
	if (!rc)
		run_keep_sections(&list, &cl.sections);
	if (!rc && !list.nr && !parse_only) /* fio checks global options alone */
		rc = error("the job files define no jobs");
	/* as fio: its parser's warnings become errors under --warnings-fatal */
	for (size_t i = 0; !rc && cl.warnings_fatal && i < list.nr; i++)
		if (list.jobs[i].time_based_dropped)
			rc = error("job '%s': time_based needs a runtime (a warning fio's --warnings-fatal makes "
				   "an error, as here)", list.jobs[i].name);
	if (!rc && parse_only && ra.readonly)
		rc = check_readonly(&list); /* a run refuses them at setup */
	if (!rc)
		rc = workload_check_threads(&list); /* before anything clones them */
	error_capture_end();
	if (rc < 0) {
		status = runner_report_failure(&ra, &errs);
	} else if (parse_only) {
		status = 0; /* silent, as fio */
	} else if (cl.merge_blktrace_only) {
		status = 0; /* as fio: the merges, and nothing runs */
		for (size_t i = 0; i < list.nr && !status; i++)
			if (list.jobs[i].merge_blktrace_file && list.jobs[i].read_iolog &&
			    blktrace_merge(&list.jobs[i], &ga) < 0)
				status = 1;
	} else {
		/* the job files as they were when the run began, for the store */
		struct store_text *texts = xcalloc(nf ? nf : 1, sizeof(*texts));
		for (size_t i = 0; (ctx->store || ctx->store_later) && i < nf; i++) {
			char *text = NULL;
			size_t len = 0;
			if (jobfile_read_text(files[i], &text, &len) < 0)
				continue; /* parsed a moment ago; gone now: not stored */
			texts[ra.nr_job_files++] = (struct store_text){ files[i], text, len };
		}
		ra.job_files = texts;
		ra.store_ctx = ctx;
		ra.store_kind = STORE_KIND_RUN;
		ra.dist = ctx->dist;
		if (ra.dist && ra.dist->prepare(ra.dist->arg, &list) < 0)
			status = 1;
		else if (repeat_wanted(ra.repeat))
			status = runner_repeat_and_report(&list, &ra);
		else
			status = runner_run_and_report(&list, &ra);
		for (size_t i = 0; i < ra.nr_job_files; i++)
			free((char *)texts[i].text);
		free(texts);
	}
	error_capture_release(&errs);
	job_list_release(&list);
out:
	run_cmdline_release(&cl);
	cmd_common_release(&common);
	free(formats_text);
	return status;
}

const struct command cmd_run = {
	.name = "run",
	.summary = "run fio-compatible job files or command-line jobs",
	.usage = run_usage,
	.usage_tail = run_usage_tail,
	.opts = run_rows,
	.common = COMMON_OUTPUT_FORMAT | COMMON_OUTPUT | COMMON_ALLOW_DESTROY | COMMON_READONLY |
		  COMMON_REPEAT | COMMON_DB | COMMON_NO_STORE | COMMON_LABEL | COMMON_HELP,
	.help_for = run_help_for,
	.flags = CMD_WATCHES_ENV | CMD_FIO_ARGS | CMD_OPENS_STORE,
	.run = run_run,
};
