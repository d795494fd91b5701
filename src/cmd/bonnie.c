/*
 * `iobench bonnie`: bonnie++ 2.00a's command line and output. Flags are
 * parsed by bonnie_args.c and checked by bonnie_spec_validate(); as root the
 * run needs -u and drops to that user before the tests, once the machine's
 * watch has read and opened what needs root; -p/-y synchronise processes;
 * each of -x's tests is one bonnie_run(). Output is bonnie++'s text table
 * and CSV line (the text on stderr with -q; CSV lines only with -x), or
 * one JSON document with --output-format=json. A signal stops the run,
 * removes its files and exits with 128 + the signal.
 */
#include "cmd/command.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/bonnie_args.h"
#include "cmd/bonnie_sync.h"
#include "cmd/envwatch.h"
#include "cmd/memlimit.h"
#include "cmd/output.h"
#include "cmd/signals.h"
#include "cmd/storing.h"
#include "cmd/teeout.h"
#include "report/bonnie_report.h"
#include "report/env_report.h"
#include "sys/devguard.h"
#include "util/error.h"
#include "util/xmalloc.h"
#include "workload/anomaly.h"

static const char bonnie_usage[] =
	"usage: iobench bonnie [-d dir] [-c concurrency]\n"
	"                      [-s size(MiB)[:chunk[:seeks[:seekers]]]]\n"
	"                      [-n files(*1024)[:max[:min[:dirs[:chunk]]]]] [-m machine]\n"
	"                      [-r ram(MiB)] [-x tests] [-u user[:group]] [-g group] [-q]\n"
	"                      [-f[size(MiB)]] [-b] [-D] [-p procs | -y s|p]\n"
	"                      [-z seed | -Z file] [--precise | --no-precise]\n"
	"                      [--random-data] [--output-format=normal|json]\n"
	"                      [--allow-destroy=DEV] [--readonly] [--no-monitor]\n"
	"                      [--monitor-interval=SEC] [--warn-slab=SIZE]\n"
	"                      [--memory-limit=SIZE]\n"
	"\n"
	"Run bonnie++ 2.00a's tests with its flags and their meaning: per-char, block\n"
	"and rewrite output, per-char and block input and random seeks on a file of\n"
	"-s MiB (default twice the RAM; a smaller one is refused unless -r gives less\n"
	"RAM, -r 0 turns the check off; -s 0 skips these tests), then create, stat\n"
	"and delete -n x1024 files in sequential and random order (-n 0 skips them;\n"
	"max -1 makes hard links, -2 symlinks). -c N runs N copies at once, each in\n"
	"its own directory, and reports their sum. -x N repeats the test, printing\n"
	"a CSV line each time, every test with one seed as in bonnie++ (the same\n"
	"files each time). -b (no write buffering) fsyncs each block written back\n"
	"by the seek test and each file (and its directory) created or deleted, as\n"
	"bonnie++ 2.00a does; -D uses O_DIRECT in every bulk phase (the per-char\n"
	"phases stay buffered: a 1-byte O_DIRECT write is impossible); -f skips the\n"
	"per-char tests (-fN makes them N MiB; 2.00a's default is 3 MiB, not the\n"
	"20 MiB its man page says), -z/-Z seed the\n"
	"random numbers, -m names the machine (default the host name). As root, -u\n"
	"is required (-u root allowed) and the tests run as that user and group;\n"
	"what watching the machine needs root for (the ext superblock, the slab\n"
	"caches, other processes' I/O) is read or opened before that, or by a\n"
	"small sampler that stays root.\n"
	"-p N creates the semaphores for N processes (-p -1 removes them); -y s\n"
	"makes a process wait on them before each phase so all N start it together,\n"
	"-y p waits for Enter instead.\n"
	"\n"
	"options beyond bonnie++:\n";

static const char bonnie_usage_tail[] =
	"\n"
	"With --memory-limit the RAM that -s's default and the 2xRAM rule count is\n"
	"the limit (unless -r says), so -s 1024 -r 512 --memory-limit=512m reads its\n"
	"1 GiB from the device on any machine. The cgroup is made before -u drops\n"
	"privileges and removed afterwards.\n"
	"\n"
	"Output: bonnie++'s 80-column table (K/sec, /sec, %CP, Latency lines;\n"
	"files/s where bonnie++ 2.00a prints counts), a line saying what --precise\n"
	"did, the devices under -d per phase (not with -q), then the CSV line\n"
	"(format 1.98, 50 fields, for bon_csv2html and bon_csv2txt; field 6 holds the\n"
	"chunk size). With -q the CSV line alone is on stdout and the text on stderr.\n"
	"With -x only CSV lines are printed (after a header line when N > 1).\n"
	"\n"
	"JSON (--output-format=json, the only thing on stdout):\n"
	"  { \"iobench version\", \"bonnie++ semantics\", \"machine\", \"directory\",\n"
	"    \"options\": { file_size_bytes, chunk_size_bytes, seeks, seekers,\n"
	"                 putc_size_bytes, num_files, file_kind, max_size_bytes,\n"
	"                 min_size_bytes, num_dirs, file_chunk_size_bytes, concurrency,\n"
	"                 ram_mib, tests, sync_writes, direct, precise, random_data },\n"
	"    \"runs\": [ { run, seed, interrupted, error,\n"
	"               aggregate: { PHASE: {...} },\n"
	"               copies: [ { copy, phases: { PHASE: {...} } } ] } ] }\n"
	"  PHASE is putc, put_block, rewrite, getc, get_block, seeks, seq_create,\n"
	"  seq_stat, seq_del, ran_create, ran_stat or ran_del; each is {\"ran\": false}\n"
	"  or { ran, too_short, rate, rate_unit (KiB/s, seeks/s, files/s), work,\n"
	"  work_unit (bytes, seeks, files), elapsed_s, cpu_pct, sched_busy_pct (time\n"
	"  its threads ran or waited for a CPU, % of the phase), repeats,\n"
	"  latency_us: { p50, p99, max }, disks: [ { name, read_ios, write_ios,\n"
	"  read_merges, write_merges, read_bytes, write_bytes, read_ticks_ms,\n"
	"  write_ticks_ms, in_queue_ms, io_ticks_ms, elapsed_ms, util_pct } ] }.\n"
	"  The aggregate's rate is the sum of the copies' rates. Then \"sysinfo\",\n"
	"  \"monitor\", \"process_io\", \"unwatched\", \"memory_limit\" (with\n"
	"  --memory-limit) and \"warnings\" as in 'iobench help run'.\n"
	"\n"
	"The machine is captured under -d before the first test (a short form heads\n"
	"the text), sampled while the tests run (a summary and any warnings follow\n"
	"the text; on stderr with -q or -x).\n"
	"\n"
	"Errors are one line and exit 1; a signal stops the run, removes its files\n"
	"and exits with 128 + the signal.\n";

static const struct cmdopt_help bonnie_help_for[] = {
	{ "output-format", "normal (bonnie++'s text table, then its CSV line) or json" },
	{ "allow-destroy", "the device guard, as for 'iobench run'" },
	{ "readonly", "the device guard, as for 'iobench run'" },
	{ NULL, NULL },
};

/* -p: make or remove the semaphores and stop, as bonnie++ does. */
static int semaphores(int procs)
{
	char why[256];
	if (procs < 0) {
		if (bonnie_sem_remove(why, sizeof(why)) < 0) {
			error("%s", why);
			return 1;
		}
		printf("Semaphore removed.\n");
		return 0;
	}
	if (bonnie_sem_create(procs, why, sizeof(why)) < 0) {
		error("%s", why);
		return 1;
	}
	printf("Creating semaphore for %d procs.\n", procs);
	return 0;
}

static int prepare(struct bonnie_args *a, char *host, size_t hostlen, struct bonnie_barrier *bar,
		   struct memlimit *ml)
{
	struct bonnie_spec *s = &a->spec;
	char why[512];
	if (!s->machine) {
		if (gethostname(host, hostlen) < 0)
			snprintf(host, hostlen, "localhost");
		host[hostlen - 1] = 0;
		s->machine = host;
	}
	if (devguard_allow_validate(&s->guard, why, sizeof(why)) < 0)
		return error("%s", why);
	struct stat st;
	if (stat(s->dir, &st) < 0)
		return error_errno(-errno, "can't change to directory '%s'", s->dir);
	if (!S_ISDIR(st.st_mode))
		return error("can't change to directory '%s': not a directory", s->dir);
	if (!s->file_size && !s->num_files)
		return error("nothing to test: -s 0 skips the I/O tests and -n 0 the file tests");
	if (bonnie_spec_validate(s, why, sizeof(why)) < 0)
		return error("%s", why);
	if (geteuid() == 0 && !a->user && !a->group)
		return error("you must use the \"-u\" switch when running as root (-u root is allowed)");
	if (a->sync == BONNIE_SYNC_SEM && bonnie_barrier_open(bar, why, sizeof(why)) < 0)
		return error("%s", why);
	/* the cgroup is made and entered while still privileged; bonnie's
	 * file is created inside it, so there is no cache to drop first */
	if (memlimit_begin(ml, a->common.env.memory_limit, NULL, 0) < 0)
		return -1;
	return 0;
}

/* -u/-g: become that user and group, after the machine's watch has read
 * and opened what needs root (envwatch drops_root). */
static int drop_privileges(const struct bonnie_args *a)
{
	char why[512];
	if (!a->user && !a->group)
		return 0;
	if (bonnie_setugid(a->user, a->group, why, sizeof(why)) < 0)
		return error("%s", why);
	if (!a->spec.quiet)
		fprintf(stderr, "Using uid:%d, gid:%d.\n", (int)getuid(), (int)getgid());
	return 0;
}

/* One finished test: with -x its CSV line at once; otherwise the text
 * table now and the CSV line after the monitor summary, so that it stays
 * the last line of the output as in bonnie++. */
static int report_normal(const struct bonnie_args *a, const struct bonnie_result *r, FILE *text,
			 FILE *out)
{
	const struct bonnie_spec *s = &a->spec;
	if (a->repeats_given)
		return bonnie_report_csv(s, r, out);
	return bonnie_report_text(s, r, !s->quiet, text);
}

/* Before each phase: bonnie++'s progress line on stderr ("Rewriting...",
 * its "done" when the next phase starts or the test ends) unless -q, and
 * with -y the synchronisation of the processes. */
struct phase_sync {
	enum bonnie_sync_mode mode;
	struct bonnie_barrier *bar;
	volatile sig_atomic_t *stop;
	bool progress;
	int shown;        /* the phase whose line is open, -1 none */
	unsigned phases;
	bool failed;
};

static const char *const phase_lines[BON_IO_TESTS + BON_FILE_TESTS] = {
	"Writing a byte at a time...", "Writing intelligently...", "Rewriting...",
	"Reading a byte at a time...", "Reading intelligently...", "start 'em...",
	"Create files in sequential order...", "Stat files in sequential order...",
	"Delete files in sequential order...", "Create files in random order...",
	"Stat files in random order...", "Delete files in random order...",
};

static void progress_done(struct phase_sync *ps)
{
	if (ps->shown >= 0)
		fputs("done\n", stderr);
	ps->shown = -1;
}

static void sync_phase(void *arg, unsigned phase)
{
	struct phase_sync *ps = arg;
	if (ps->progress && (int)phase != ps->shown &&
	    phase < BON_IO_TESTS + BON_FILE_TESTS) {
		progress_done(ps);
		fputs(phase_lines[phase], stderr);
		fflush(stderr);
		ps->shown = (int)phase;
	}
	if (ps->mode != BONNIE_SYNC_SEM && ps->mode != BONNIE_SYNC_PROMPT)
		return;
	ps->phases++;
	if (ps->mode == BONNIE_SYNC_PROMPT) {
		bonnie_prompt(ps->phases);
	} else if (bonnie_barrier_wait(ps->bar, ps->stop) < 0 && !*ps->stop) {
		ps->failed = true;
		*ps->stop = 1; /* the run stops like on a signal, then fails */
	}
}

/* A report write failed with rc: one message (for stdout; a failing
 * stderr has nowhere to say it), exit status 1. */
static int write_failed(int rc, FILE *f)
{
	if (f != stderr)
		output_failed(f, rc, "the report", NULL);
	return 1;
}

/* Store the printed tests (cmd/storing.h): the text as printed (normal),
 * the CSV lines and the JSON. The new status. */
static int store_tests(const struct cmd_ctx *ctx, const struct bonnie_args *a,
		       const struct bonnie_result *runs, size_t nr, const struct run_env *env,
		       const char *text, size_t text_len, uint64_t start_ms, int status)
{
	bool json = a->output == BONNIE_OUT_JSON;
	struct store_bonnie b = { &a->spec, runs, nr, env };
	struct store_renderings rend = { 0 };
	int rc = store_render_bonnie(&b, json, !json, &rend);
	if (rc < 0) {
		error_errno(rc, "cannot render the results to store them");
	} else {
		if (text)
			store_renderings_add(&rend, "normal", text, text_len, true);
		bool stopped = signals_caught() != 0;
		for (size_t i = 0; i < nr; i++)
			stopped |= runs[i].interrupted;
		struct store_run r = {
			.kind = STORE_KIND_BONNIE,
			.start_ms = start_ms,
			.end_ms = cmd_store_now_ms(),
			.bonnie = &b,
			.renderings = &rend,
			.exit_status = status,
			.interrupted = stopped,
		};
		rc = cmd_store_put(ctx, &r, NULL, NULL);
	}
	store_renderings_release(&rend);
	return rc < 0 && status == 0 ? 1 : status;
}

static int run_tests(const struct cmd_ctx *ctx, struct bonnie_args *a, struct bonnie_barrier *bar,
		     struct memlimit *ml)
{
	uint64_t start_ms = cmd_store_now_ms();
	volatile sig_atomic_t *stop = signals_install();
	struct phase_sync ps = { .mode = a->sync, .bar = bar, .stop = stop,
				 .progress = !a->spec.quiet, .shown = -1 };
	a->spec.before_phase = sync_phase;
	a->spec.before_phase_arg = &ps;
	const struct bonnie_spec *s = &a->spec;
	bool json = a->output == BONNIE_OUT_JSON;
	/* -x sizes it (util/xmalloc.h): too many is an error, not an abort */
	struct bonnie_result *runs = calloc(s->repeats, sizeof(*runs));
	if (!runs) {
		error_errno(-ENOMEM, "cannot keep the results of %u tests (-x %u)", s->repeats,
			    s->repeats);
		return 1;
	}
	size_t nr = 0;
	int status = 0, rc0;
	/* what goes to stdout, also kept as printed for the store */
	struct teeout *tee = NULL;
	FILE *out = cmd_store_wanted(ctx) && !json ? teeout_open(stdout, &tee) : stdout;
	if (!out) {
		free(runs);
		return error_errno(-ENOMEM, "cannot keep the report for the store") < 0;
	}
	/* the text (and the machine around it) goes where bonnie++ puts its
	 * text: stderr with -q, nowhere but stderr with -x's CSV-only stdout */
	FILE *text = s->quiet || a->repeats_given ? stderr : out;
	struct envwatch ew;
	a->common.env.drops_root = geteuid() == 0 && (a->user || a->group);
	envwatch_begin(&ew, s->dir, &a->common.env);
	if (drop_privileges(a) < 0) {
		run_env_free(envwatch_end(&ew));
		free(runs);
		if (tee) {
			fclose(out);
			free(teeout_take(tee, &(size_t){ 0 }));
		}
		return 1;
	}
	if (!json)
		env_text_header(ew.env, "", text);
	/* a report that cannot be written is not worth the test: say so now */
	if (!json && text == out && output_check(out, "the report", NULL) < 0)
		status = 1;

	if (!status && !json && a->repeats_given && s->repeats > 1 &&
	    (rc0 = bonnie_report_csv_header(out)) < 0)
		status = write_failed(rc0, out);
	for (unsigned i = 0; i < s->repeats && !status && !*stop; i++) {
		struct bonnie_result *r = &runs[nr++];
		int rc = bonnie_run(s, stop, r);
		/* as bonnie++ 2.00a: every -x test reuses the first one's seed */
		a->spec.seed = r->seed;
		a->spec.have_seed = true;
		if (ps.shown >= 0 && rc == 0)
			progress_done(&ps);
		else if (ps.shown >= 0)
			fputc('\n', stderr);
		ps.shown = -1;
		if (ps.failed) {
			error("waiting on the -y s semaphores failed: the test was stopped");
			status = 1;
			break;
		}
		if (rc == -EINTR || r->interrupted) {
			warning("stopped by a signal: the test's files were removed");
			break;
		}
		if (rc < 0) {
			if (r->error_msg)
				error("%s", r->error_msg);
			else
				error_errno(rc, "bonnie test %u failed", i + 1);
			status = 1;
			break;
		}
		if (!json && (rc = report_normal(a, r, text, out)) < 0)
			status = write_failed(rc, text);
	}
	struct run_env *env = envwatch_end(&ew);
	memlimit_end(ml, env);
	struct anomaly_input in;
	bonnie_anomaly_input(s, runs, nr, &in);
	anomaly_check(&in, env);
	anomaly_check_memory_limit(env);
	if (json && (rc0 = bonnie_report_json(s, runs, nr, env, stdout)) < 0)
		status = write_failed(rc0, stdout);
	if (!json) {
		env_text_footer(env, text);
		if (!a->repeats_given && nr == 1 && !status && !runs[0].interrupted &&
		    (rc0 = bonnie_report_csv(s, &runs[0], out)) < 0)
			status = write_failed(rc0, out);
		if (!status && output_check(text, "the report", NULL) < 0)
			status = 1;
		if (!status && text != out && output_check(out, "the report", NULL) < 0)
			status = 1;
	} else if (env->nr_warnings) {
		fputs("iobench: the run raised warnings (also in the report):\n", stderr);
		env_text_warnings(env, stderr);
	}
	char *printed = NULL;
	size_t printed_len = 0;
	if (tee) {
		if (fclose(out) != 0 && !status)
			status = 1;
		printed = teeout_take(tee, &printed_len);
	}
	int sig = signals_caught();
	if (sig)
		status = 128 + sig;
	/* what was measured is printed: only now is it stored */
	if (cmd_store_wanted(ctx) && nr)
		status = store_tests(ctx, a, runs, nr, env, printed, printed_len, start_ms, status);
	free(printed);
	run_env_free(env);
	for (size_t i = 0; i < nr; i++)
		bonnie_result_release(&runs[i]);
	free(runs);
	return status;
}

static int bonnie_main(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct bonnie_args a;
	struct bonnie_barrier bar = { 0 };
	struct memlimit ml = { 0 };
	char why[512], host[256];
	int status = 1;
	if (bonnie_args_parse(argc, argv, &a, why, sizeof(why)) < 0) {
		error("%s", why);
		goto out;
	}
	if (a.help) {
		command_print_usage(ctx->cmd, stdout);
		status = 0;
		goto out;
	}
	if (command_parsed(ctx, &a.common) < 0)
		goto out;
	a.spec.precise = a.precise != 0; /* --precise unless --no-precise, in every format */
	if (a.sem_procs) {
		status = semaphores(a.sem_procs);
		goto out;
	}
	if (prepare(&a, host, sizeof(host), &bar, &ml) < 0)
		goto out;
	status = run_tests(ctx, &a, &bar, &ml);
out:
	memlimit_end(&ml, NULL);
	bonnie_barrier_close(&bar);
	bonnie_args_release(&a);
	fflush(stdout);
	return status;
}

const struct command cmd_bonnie = {
	.name = "bonnie",
	.summary = "bonnie++ 2.00a's tests, flags and text/CSV output (and JSON)",
	.usage = bonnie_usage,
	.usage_tail = bonnie_usage_tail,
	.opts = bonnie_rows,
	.common = COMMON_OUTPUT_FORMAT | COMMON_ALLOW_DESTROY | COMMON_READONLY | COMMON_DB |
		  COMMON_NO_STORE | COMMON_LABEL | COMMON_HELP,
	.help_for = bonnie_help_for,
	.flags = CMD_WATCHES_ENV | CMD_OPENS_STORE,
	.run = bonnie_main,
};
