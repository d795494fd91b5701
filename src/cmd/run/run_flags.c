/*
 * run's flags: fio 3.33's command line (`fio --help`, and the flags fio
 * takes without listing them), with fio's long names, fio's letters and
 * fio's meaning where iobench has it, a clear refusal where it does not
 * (the client/server mode: the MPI build runs many clients), and
 * --set, iobench's own. The shared rows (--output, --output-format,
 * --readonly, --allow-destroy, --help) are in common_opts.c; their letters
 * (-o, -F, -r) are here.
 */
#include "cmd/run/run_cmdline_int.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "util/units.h"

#define OFF(f) offsetof(struct run_cmdline, f)

static int refuse(char *why, size_t len, const char *fmt, const char *v)
{
	snprintf(why, len, fmt, v);
	return -EINVAL;
}

static int set_override(void *dest, const struct cmdopt *o, const char *v, char *why, size_t len)
{
	struct run_cmdline *r = dest;
	if (!strchr(v, '=') || *v == '=')
		return refuse(why, len, "--set needs KEY=VALUE, not '%s'", v);
	cmdopt_list_add(&r->sets, v);
	return 0;
}

static int set_eta(void *dest, const struct cmdopt *o, const char *v, char *why, size_t len)
{
	struct run_cmdline *r = dest;
	if (strcmp(v, "auto") && strcmp(v, "never") && strcmp(v, "always"))
		return refuse(why, len, "--eta takes auto, always or never, not '%s'", v);
	r->progress = strcmp(v, "never") != 0;
	r->eta_always = !strcmp(v, "always");
	return 0;
}

static int set_output(void *dest, const struct cmdopt *o, const char *v, char *why, size_t len)
{
	((struct run_cmdline *)dest)->common->output = v;
	return 0;
}

static int set_format(void *dest, const struct cmdopt *o, const char *v, char *why, size_t len)
{
	((struct run_cmdline *)dest)->common->output_format = v;
	return 0;
}

static int set_minimal(void *dest, const struct cmdopt *o, const char *v, char *why, size_t len)
{
	((struct run_cmdline *)dest)->common->output_format = "terse";
	return 0;
}

static int set_readonly(void *dest, const struct cmdopt *o, const char *v, char *why, size_t len)
{
	((struct run_cmdline *)dest)->common->readonly = true;
	return 0;
}

/* -f, --append-terse[=X]: fio ignores the value */
static int set_append_terse(void *dest, const struct cmdopt *o, const char *v, char *why,
			    size_t len)
{
	((struct run_cmdline *)dest)->append_terse = true;
	return 0;
}

static int set_terse_version(void *dest, const struct cmdopt *o, const char *v, char *why,
			     size_t len)
{
	struct run_cmdline *r = dest;
	if (v[0] >= '2' && v[0] <= '5' && !v[1]) {
		r->terse_version = (unsigned)(v[0] - '0');
		return 0;
	}
	return refuse(why, len, "bad terse version format '%s': fio's are 2, 3, 4 and 5", v);
}

/* --max-jobs: fio 3.33 reads and ignores it ("we don't track/need this
 * anymore"); iobench checks it is a number and does the same */
static int set_max_jobs(void *dest, const struct cmdopt *o, const char *v, char *why, size_t len)
{
	uint64_t n;
	const char *bad = NULL;
	if (parse_uint(v, 1024, &n, &bad) < 0)
		return refuse(why, len, "bad --max-jobs '%s': not a number", v);
	return 0;
}

static int set_section(void *dest, const struct cmdopt *o, const char *v, char *why, size_t len)
{
	struct run_cmdline *r = dest;
	if (!strcmp(v, "global"))
		return refuse(why, len, "--section='%s': the global section is always read; name a "
			      "job's section", v);
	if (!*v)
		return refuse(why, len, "--section needs a section name%s", "");
	cmdopt_list_add(&r->sections, v);
	return 0;
}

/* --status-interval: a time, in seconds by default, at least 1 ms: a full
 * report of the run so far every interval (workload/status.h) */
static int set_status_interval(void *dest, const struct cmdopt *o, const char *v, char *why,
			       size_t len)
{
	uint64_t ns;
	const char *bad = NULL;
	if (parse_time(v, 1000000000ull, &ns, &bad) < 0)
		return refuse(why, len, "bad --status-interval '%s': not a time", v);
	if (ns < 1000000)
		return refuse(why, len, "--status-interval '%s' is too small: give at least 1ms", v);
	((struct run_cmdline *)dest)->ctl.status_interval_ns = ns;
	return 0;
}

/* a time flag (seconds by default, as fio's) of at least min_ns */
static int flag_time(const struct cmdopt *o, const char *v, uint64_t min_ns, uint64_t *out,
		     char *why, size_t len)
{
	const char *bad = NULL;
	if (parse_time(v, 1000000000ull, out, &bad) < 0) {
		snprintf(why, len, "bad --%s '%s': not a time", o->name, v);
		return -EINVAL;
	}
	if (*out < min_ns) {
		snprintf(why, len, "--%s '%s' is too short: give at least %llums", o->name, v,
			 (unsigned long long)(min_ns / 1000000));
		return -EINVAL;
	}
	return 0;
}

/* --eta-interval: fio's minimum is 250 ms */
static int set_eta_interval(void *dest, const struct cmdopt *o, const char *v, char *why,
			    size_t len)
{
	return flag_time(o, v, 250000000ull, &((struct run_cmdline *)dest)->ctl.eta_interval_ns,
			 why, len);
}

static int set_eta_newline(void *dest, const struct cmdopt *o, const char *v, char *why,
			   size_t len)
{
	return flag_time(o, v, 1000000ull, &((struct run_cmdline *)dest)->ctl.eta_newline_ns, why,
			 len);
}

/* --trigger-timeout: 0 (fio accepts it) is no timeout */
static int set_trigger_timeout(void *dest, const struct cmdopt *o, const char *v, char *why,
			       size_t len)
{
	return flag_time(o, v, 0, &((struct run_cmdline *)dest)->ctl.trigger_timeout_ns, why, len);
}

static int set_trigger_file(void *dest, const struct cmdopt *o, const char *v, char *why,
			    size_t len)
{
	if (!*v)
		return refuse(why, len, "--trigger-file needs a file name%s", "");
	((struct run_cmdline *)dest)->ctl.trigger_file = v;
	return 0;
}

static int set_trigger(void *dest, const struct cmdopt *o, const char *v, char *why, size_t len)
{
	((struct run_cmdline *)dest)->ctl.trigger_cmd = v;
	return 0;
}

/* --aux-path: the directory must be there (fio fails on its first state
 * file; iobench says so before the run) */
static int set_aux_path(void *dest, const struct cmdopt *o, const char *v, char *why,
			size_t len)
{
	struct stat st;
	if (!*v)
		return refuse(why, len, "--aux-path needs a directory%s", "");
	if (stat(v, &st) < 0 || !S_ISDIR(st.st_mode))
		return refuse(why, len, "--aux-path '%s' is not a directory", v);
	((struct run_cmdline *)dest)->ctl.aux_path = v;
	return 0;
}

/* --warnings-fatal: what fio's parser only warns about becomes an error
 * (time_based without runtime, run.c); what iobench's parser refuses
 * already needs nothing more */
static int set_warnings_fatal(void *dest, const struct cmdopt *o, const char *v, char *why,
			      size_t len)
{
	((struct run_cmdline *)dest)->warnings_fatal = true;
	return 0;
}

/* --idle-prof: calibrate prints the unit work and runs nothing, as fio */
static int set_idle_prof(void *dest, const struct cmdopt *o, const char *v, char *why,
			 size_t len)
{
	struct run_cmdline *r = dest;
	if (!strcmp(v, "calibrate")) {
		if (r->info == RUN_INFO_NONE)
			r->info = RUN_INFO_IDLE_CALIBRATE;
	} else if (!strcmp(v, "system")) {
		r->ctl.idle_prof = IDLE_PROF_SYSTEM;
	} else if (!strcmp(v, "percpu")) {
		r->ctl.idle_prof = IDLE_PROF_PERCPU;
	} else {
		return refuse(why, len, "bad --idle-prof '%s': give calibrate, system or percpu", v);
	}
	return 0;
}

/* --alloc-size: fio's shared-memory pool for its processes; iobench's jobs
 * are threads of one process and allocate from the heap, so there is no
 * pool to size: the value is checked and does nothing */
static int set_alloc_size(void *dest, const struct cmdopt *o, const char *v, char *why,
			  size_t len)
{
	uint64_t n;
	const char *bad = NULL;
	if (parse_uint(v, 1024, &n, &bad) < 0 || !n)
		return refuse(why, len, "bad --alloc-size '%s': give the pool size in KiB", v);
	return 0;
}

/* --debug: fio's categories are accepted. parse (or all) turns on the
 * option parser's trace, in fio's form; the others have no trace here, and
 * a note on stderr says so. "help" lists them. */
static const char *const debug_names[] = {
	"process", "file", "io", "mem", "blktrace", "verify", "random", "parse", "diskutil",
	"job", "mutex", "profile", "time", "net", "rate", "compress", "steadystate",
	"helperthread", "zbd", "all", NULL,
};

static int set_debug(void *dest, const struct cmdopt *o, const char *v, char *why, size_t len)
{
	struct run_cmdline *r = dest;
	char list[512];
	snprintf(list, sizeof(list), "%s", v);
	for (char *save = NULL, *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		size_t n = strcspn(t, ":"); /* job:N */
		bool known = false;
		for (const char *const *d = debug_names; *d && !known; d++)
			known = strlen(*d) == n && !strncmp(*d, t, n);
		if (!strcmp(t, "help") || !strcmp(t, "?")) {
			printf("fio's debug categories (only parse has a trace here):\n");
			for (const char *const *d = debug_names; *d; d++)
				printf("\t%s\n", *d);
			continue;
		}
		if (!known)
			return refuse(why, len, "--debug: '%s' is not one of fio's debug categories "
				      "(process, file, io, mem, blktrace, verify, random, parse, diskutil, "
				      "job:N, mutex, profile, time, net, rate, compress, steadystate, "
				      "helperthread, zbd, all)", t);
		if (!strcmp(t, "parse") || !strcmp(t, "all")) {
			r->debug_parse = true;
			printf("fio: set debug option %s\n", t);
		}
		if (strcmp(t, "parse"))
			fprintf(stderr, "iobench: --debug=%.*s: no trace of that category here "
				"(only parse has one)\n", (int)n, t);
	}
	return 0;
}

static int set_info(struct run_cmdline *r, enum run_info what, const char *v)
{
	if (r->info == RUN_INFO_NONE) {
		r->info = what;
		r->info_arg = v;
	}
	return 0;
}

#define INFO_FN(fn, what) \
	static int fn(void *dest, const struct cmdopt *o, const char *v, char *why, size_t len) \
	{ \
		return set_info(dest, what, v); \
	}
INFO_FN(set_version, RUN_INFO_VERSION)
INFO_FN(set_cmdhelp, RUN_INFO_CMDHELP)
INFO_FN(set_enghelp, RUN_INFO_ENGHELP)
INFO_FN(set_crctest, RUN_INFO_CRCTEST)
INFO_FN(set_cpuclock, RUN_INFO_CPUCLOCK)
INFO_FN(set_inflate, RUN_INFO_INFLATE)
INFO_FN(set_memcpy, RUN_INFO_MEMCPY)

/* fio's client/server mode: one iobench runs here; many clients are the
 * MPI build's */
static int no_server(void *dest, const struct cmdopt *o, const char *v, char *why, size_t len)
{
	return refuse(why, len, "--%s: iobench has no fio client/server mode; to run jobs on many "
		      "machines at once use the MPI build, iobench-mpi", o->name);
}

static int no_latency_log(void *dest, const struct cmdopt *o, const char *v, char *why,
			  size_t len)
{
	return refuse(why, len, "--latency-log is deprecated in fio too: use the job options "
		      "write_lat_log%s", "");
}

#define NO CMDOPT_NOARG
#define REQ CMDOPT_REQARG
#define OPT CMDOPT_OPTARG
#define CALL CMDOPT_CALL

const struct cmdopt run_rows[] = {
	{ "set", 0, REQ, CALL, 0, set_override, 0, "KEY=VALUE",
	  "override option KEY in every job (repeatable), e.g.\n"
	  "--set size=64m --set directory=/mnt/test" },
	{ NULL, 'o', REQ, CALL, 0, set_output, 0, "FILE", NULL },
	{ NULL, 'F', REQ, CALL, 0, set_format, 0, "FMT", NULL },
	{ NULL, 'r', NO, CALL, 0, set_readonly, 0, NULL, NULL },
	{ "minimal", 'm', NO, CALL, 0, set_minimal, 0, NULL,
	  "the terse format only (as --output-format=terse)" },
	{ "append-terse", 'f', OPT, CALL, 0, set_append_terse, 0, "X",
	  "the terse format after the others" },
	{ "terse-version", 'V', REQ, CALL, 0, set_terse_version, 0, "2|3|4|5",
	  "the terse format's version, as fio's: 3 (the default), 2 (no fio version, trim, no "
	  "disks), 4 (trim), 5 (trim, bw samples and IOPS figures)" },
	{ "bandwidth-log", 'b', NO, CMDOPT_TRUE, OFF(bandwidth_log), NULL, 0, NULL,
	  "fio's aggregate bandwidth logs agg-{read,write,trim}_bw.log" },
	{ "parse-only", 'P', NO, CMDOPT_TRUE, OFF(parse_only), NULL, 0, NULL,
	  "check the job files and options, run nothing, print nothing" },
	{ "showcmd", 's', NO, CMDOPT_TRUE, OFF(showcmd), NULL, 0, NULL,
	  "print each job file as one command line, run nothing" },
	{ "section", 'x', REQ, CALL, 0, set_section, 0, "NAME",
	  "run only the job sections NAME of the job files (repeatable); [global] is always "
	  "read" },
	{ "max-jobs", 'j', REQ, CALL, 0, set_max_jobs, 0, "N",
	  "accepted and ignored, as fio 3.33 does" },
	{ "eta", 'e', REQ, CALL, 0, set_eta, 0, "auto|always|never",
	  "the progress line on stderr: when it is a terminal (auto, the default), always, "
	  "or never" },
	{ "eta-newline", 'E', REQ, CALL, 0, set_eta_newline, 0, "TIME",
	  "start a new progress line every TIME (seconds by default) instead of redrawing one" },
	{ "eta-interval", 'O', REQ, CALL, 0, set_eta_interval, 0, "TIME",
	  "redraw the progress line every TIME (default 1s, at least 250ms)" },
	{ "status-interval", 'L', REQ, CALL, 0, set_status_interval, 0, "TIME",
	  "every TIME (seconds by default, at least 1ms) print a full report of the run so "
	  "far, in the run's formats, where the final one goes" },
	{ "warnings-fatal", 'w', NO, CALL, 0, set_warnings_fatal, 0, NULL,
	  "make what fio's parser warns about an error (time_based without runtime)" },
	{ "version", 'v', NO, CALL, 0, set_version, 0, NULL,
	  "print the fio version iobench stands for, and iobench's" },
	{ "cmdhelp", 'c', OPT, CALL, 0, set_cmdhelp, 0, "OPTION|all",
	  "describe the job option OPTION, or list all" },
	{ "enghelp", 'i', OPT, CALL, 0, set_enghelp, 0, "ENGINE[,OPTION]",
	  "list the I/O engines, or an engine's options" },
	{ "crctest", 'G', OPT, CALL, 0, set_crctest, 0, "TYPE[,TYPE...]",
	  "measure the speed of iobench's checksums (all, or those named)" },
	{ "cpuclock-test", 'T', NO, CALL, 0, set_cpuclock, 0, NULL,
	  "check that the clock iobench reads advances on every CPU" },
	{ "inflate-log", 'X', REQ, CALL, 0, set_inflate, 0, "LOG",
	  "decompress a compressed log to stdout" },
	{ "alloc-size", 'a', REQ, CALL, 0, set_alloc_size, 0, "KIB",
	  "accepted: iobench's jobs are threads and have no shared pool to size" },
	{ "debug", 'd', REQ, CALL, 0, set_debug, 0, "LIST",
	  "fio's debug categories: parse (or all) traces the option parser as fio; the "
	  "others are accepted and have no trace" },
	{ "aux-path", 'K', REQ, CALL, 0, set_aux_path, 0, "DIR",
	  "write (and read) the verify state files local-NAME-N-verify.state in DIR" },
	{ "idle-prof", 'I', REQ, CALL, 0, set_idle_prof, 0, "calibrate|system|percpu",
	  "report the CPUs' idle share over the run (from /proc/stat), the system's or also "
	  "each CPU's, with the time of a unit of work; calibrate: only that time" },
	{ "trigger-file", 'W', REQ, CALL, 0, set_trigger_file, 0, "FILE",
	  "when FILE appears: remove it, stop every job (the results stand) and run the "
	  "--trigger command" },
	{ "trigger-timeout", 'B', REQ, CALL, 0, set_trigger_timeout, 0, "TIME",
	  "the same, TIME (seconds by default) after the run began" },
	{ "trigger", 'H', REQ, CALL, 0, set_trigger, 0, "CMD",
	  "the command (sh -c) a trigger runs" },
	{ "trigger-remote", 'J', REQ, CALL, 0, no_server, 0, "CMD", NULL },
	{ "memcpytest", 'M', OPT, CALL, 0, set_memcpy, 0, "TYPE[,TYPE...]",
	  "measure copying memory in pieces of 8 bytes to 512 KiB with memcpy, memmove, a "
	  "byte loop (simple) and hybrid (all, or those named; help lists them)" },
	{ "merge-blktrace-only", 'A', NO, CMDOPT_TRUE, OFF(merge_blktrace_only), NULL, 0, NULL,
	  "write each job's merge_blktrace_file from its read_iolog blktraces, run nothing" },
	{ "latency-log", 'l', REQ, CALL, 0, no_latency_log, 0, "X", NULL },
	{ "server", 'S', OPT, CALL, 0, no_server, 0, "ARGS", NULL },
	{ "daemonize", 'D', REQ, CALL, 0, no_server, 0, "PIDFILE", NULL },
	{ "client", 'C', REQ, CALL, 0, no_server, 0, "HOST", NULL },
	{ "remote-config", 'R', REQ, CALL, 0, no_server, 0, "FILE", NULL },
	CMDOPT_END,
};

const struct cmdopt_help run_help_for[] = {
	{ "output-format", "normal, json, json+ or terse; comma-combinable (default normal). JSON "
			   "is the only thing on stdout; a run that fails before it starts gives a "
			   "JSON object with \"jobs\": [] and its error under \"iobench\"" },
	{ "allow-destroy", "let jobs write to and trim DEVICE although it carries a filesystem, "
			   "RAID, LVM, swap or partition-table signature (repeatable; one device "
			   "each)" },
	{ "readonly", "refuse any job that writes, trims, lays out or deletes files, runs a "
		      "program (ioengine=exec, exec_prerun, exec_postrun) or creates one "
		      "(e4defrag's donor, mem=mmap:FILE) (the job option readonly=1 does the "
		      "same for one job)" },
	{ NULL, NULL },
};
