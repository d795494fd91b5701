/*
 * `iobench run`: fio-compatible job files and fio's command-line job form,
 * with --set overrides, run in order and reported in the chosen formats.
 * Parse errors stop everything before any file is touched; job errors and
 * signals still report the results gathered so far and exit non-zero.
 * --allow-destroy and --readonly feed the device guard (sys/devguard.h).
 */
#include "cmd/command.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/runner.h"
#include "jobfile/jobfile.h"
#include "report/report.h"
#include "sys/devguard.h"
#include "util/error.h"
#include "util/xmalloc.h"
#include "workload/run.h"

static const char run_usage[] =
	"usage: iobench run [OPTIONS] [JOBFILE...] [--name=NAME --OPTION=VALUE...]\n"
	"\n"
	"Run fio-compatible job files in order (several files are separated by a\n"
	"stonewall, as fio does), or jobs given on the command line in fio's form:\n"
	"--name=NAME starts a job and later --OPTION=VALUE belong to it; options\n"
	"before the first --name apply to every command-line job.\n"
	"\n"
	"options:\n"
	"  --output-format=FMT  normal, json, json+ or terse; comma-combinable\n"
	"                       (default normal). JSON is the only thing on stdout;\n"
	"                       a run that fails before it starts gives a JSON\n"
	"                       object with \"jobs\": [] and its error under \"iobench\"\n"
	"  --output=FILE        write the report to FILE instead of stdout\n"
	"  --set KEY=VALUE      override option KEY in every job (repeatable), e.g.\n"
	"                       --set size=64m --set directory=/mnt/test\n"
	"  --parse-only         check the job files and options, run nothing\n"
	"  --eta=auto|never     progress line on a terminal's stderr (default auto)\n"
	"  --allow-destroy=DEVICE\n"
	"                       let jobs write to and trim DEVICE although it\n"
	"                       carries a filesystem, RAID, LVM, swap or partition-\n"
	"                       table signature (repeatable; one device each)\n"
	"  --readonly           refuse any job that writes, trims, lays out or\n"
	"                       deletes files (the job option readonly=1 does the\n"
	"                       same for one job)\n"
	ENVWATCH_USAGE
	"  -h, --help           this text\n"
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
	"Job options: 'iobench help options'. Exit status: 0 on success, 1 on a bad\n"
	"job file, an I/O error or a report that could not be written, 128+N when\n"
	"stopped by signal N (SIGINT, SIGTERM, SIGHUP, SIGQUIT). continue_on_error\n"
	"(and ignore_error) let a job go on after the errors they cover and count them\n"
	"(total_err, first_error); unlike fio, the exit status is still 1 when any\n"
	"error happened.\n";

static bool takes(const char *arg, const char *flag, const char **val)
{
	size_t n = strlen(flag);
	if (strncmp(arg, flag, n) || arg[n] != '=')
		return false;
	*val = arg + n + 1;
	return true;
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

static int run_run(int argc, char **argv)
{
	struct runner_args ra;
	runner_args_init(&ra);
	const char **files = xcalloc(argc + 1, sizeof(*files));
	char **jobargs = xcalloc(argc + 1, sizeof(*jobargs));
	const char **sets = xcalloc(argc + 1, sizeof(*sets));
	const char **allow = xcalloc(argc + 1, sizeof(*allow));
	size_t nf = 0, nj = 0, ns = 0, na = 0;
	bool parse_only = false;
	int status = 1, rc;
	char why[512];

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v;
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(run_usage, stdout);
			status = 0;
			goto out;
		} else if (takes(a, "--output-format", &v)) {
			ra.formats_text = v;
		} else if (takes(a, "--output", &v)) {
			ra.output_path = v;
		} else if (!strcmp(a, "--set") || takes(a, "--set", &v)) {
			if (!strcmp(a, "--set")) {
				if (i + 1 >= argc) {
					error("--set needs KEY=VALUE");
					goto out;
				}
				v = argv[++i];
			}
			if (!strchr(v, '=') || *v == '=') {
				error("--set needs KEY=VALUE, not '%s'", v);
				goto out;
			}
			sets[ns++] = v;
		} else if (!strcmp(a, "--allow-destroy") || takes(a, "--allow-destroy", &v)) {
			if (!strcmp(a, "--allow-destroy")) {
				if (i + 1 >= argc) {
					error("--allow-destroy needs a DEVICE");
					goto out;
				}
				v = argv[++i];
			}
			if (!*v) {
				error("--allow-destroy needs a DEVICE");
				goto out;
			}
			allow[na++] = v;
		} else if (!strcmp(a, "--readonly")) {
			ra.readonly = true;
		} else if ((rc = envwatch_parse_flag(&ra.env, a, why, sizeof(why))) != 0) {
			if (rc < 0) {
				error("%s", why);
				goto out;
			}
		} else if (!strcmp(a, "--parse-only")) {
			parse_only = true;
		} else if (takes(a, "--eta", &v)) {
			if (strcmp(v, "auto") && strcmp(v, "never") && strcmp(v, "always")) {
				error("--eta takes auto or never, not '%s'", v);
				goto out;
			}
			ra.progress = strcmp(v, "never") != 0;
		} else if (!strncmp(a, "--", 2) && a[2]) {
			jobargs[nj++] = argv[i];
		} else if (!strcmp(a, "-")) {
			error("reading a job file from standard input is not supported; name a file");
			goto out;
		} else if (a[0] == '-' && a[1]) {
			error("unknown flag '%s' for 'iobench run'; see 'iobench help run'", a);
			goto out;
		} else {
			files[nf++] = a;
		}
	}
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
	struct jobfile_ctx ctx = { .set_opts = sets, .nr_set = ns };
	if (devguard_allow_validate(&ga, why, sizeof(why)) < 0) {
		error("%s", why);
		rc = -EINVAL;
	} else {
		/* a bad --set is reported once, not once per job file */
		rc = jobfile_check_sets(&ctx);
	}
	bool parse = rc == 0; /* every file's errors are reported, not just the first's */
	for (size_t i = 0; parse && i < nf; i++)
		if (jobfile_parse_file(files[i], (unsigned)i, &list, &ctx) < 0)
			rc = -EINVAL;
	if (parse && nj && jobfile_parse_args((int)nj, jobargs, &list, &ctx) < 0)
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
		status = runner_run_and_report(&list, &ra);
	}
	error_capture_release(&errs);
	job_list_release(&list);
out:
	free(files);
	free(jobargs);
	free(sets);
	free(allow);
	return status;
}

const struct command cmd_run = {
	.name = "run",
	.summary = "run fio-compatible job files or command-line jobs",
	.usage = run_usage,
	.run = run_run,
};
