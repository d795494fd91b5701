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
#include "cli/command.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/bonnie/bonnie_args_int.h"
#include "cmd/bonnie/bonnie_sync_int.h"
#include "watch/envwatch.h"
#include "watch/memlimit.h"
#include "cli/output.h"
#include "runner/repeat/repeat.h"
#include "sys/signals.h"
#include "cli/storing.h"
#include "cli/teeout.h"
#include "dist/dist.h"
#include "report/bonnie_report.h"
#include "report/env_report.h"
#include "report/repeat_figs.h"
#include "report/report.h"
#include "sys/dev/devguard.h"
#include "util/error.h"
#include "util/json.h"
#include "util/timeutil.h"
#include "util/xmalloc.h"
#include "watch/anomaly.h"

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
	"                      [--memory-limit=SIZE] [--repeat=N|auto[:W%]]\n"
	"                      [--max-repeat=N] [--drop-caches]\n"
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
	"--repeat (not with -x) prints each repetition's table, then the summary of\n"
	"each phase's rate over them (see 'iobench help run'), then one CSV line per\n"
	"finished repetition; --drop-caches needs the tests to run as root (-u root).\n"
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
	"  --memory-limit) and \"warnings\" as in 'iobench help run'. With --repeat,\n"
	"  \"iobench\": { \"repetitions\": [ { repetition, start_ms, end_ms, status,\n"
	"  interrupted, in_summary, result (its number in runs) } ], \"repeat_summary\"\n"
	"  as in 'iobench help run' }.\n"
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
	struct run_env *env; /* where the phases' starts and ends go, or NULL */
	const struct dist_hooks *dist; /* iobench-mpi bonnie, or NULL */
	bool dist_failed;              /* a rank failed: the test stops */
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

static const char *phase_name(unsigned phase)
{
	return phase < BON_IO_TESTS ? bonnie_io_name((enum bonnie_io_test)phase)
				    : bonnie_file_name((enum bonnie_file_test)(phase - BON_IO_TESTS));
}

/* A phase ends: its end on the monitor's clock, for the report's plots. */
static void phase_ended(void *arg, unsigned phase)
{
	struct phase_sync *ps = arg;
	if (ps->env && phase < BON_IO_TESTS + BON_FILE_TESTS)
		run_env_phase(ps->env, phase_name(phase), true, now_ns());
}

/* ... and starts (after any -y/-p wait) */
static void phase_started(struct phase_sync *ps, unsigned phase)
{
	if (ps->env && phase < BON_IO_TESTS + BON_FILE_TESTS)
		run_env_phase(ps->env, phase_name(phase), false, now_ns());
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
	if (ps->dist && !ps->dist_failed && ps->dist->bonnie_phase(ps->dist->arg, phase) < 0) {
		ps->dist_failed = true;
		*ps->stop = 1; /* the run stops like on a signal, then fails */
	}
	if (ps->mode != BONNIE_SYNC_SEM && ps->mode != BONNIE_SYNC_PROMPT) {
		phase_started(ps, phase);
		return;
	}
	ps->phases++;
	if (ps->mode == BONNIE_SYNC_PROMPT) {
		bonnie_prompt(ps->phases);
	} else if (bonnie_barrier_wait(ps->bar, ps->stop) < 0 && !*ps->stop) {
		ps->failed = true;
		*ps->stop = 1; /* the run stops like on a signal, then fails */
	}
	phase_started(ps, phase);
}

/* A report write failed with rc: one message (for stdout; a failing
 * stderr has nowhere to say it), exit status 1. */
static int write_failed(int rc, FILE *f)
{
	if (f != stderr)
		output_failed(f, rc, "the report", NULL);
	return 1;
}

/* The tests of one invocation: -x's, or --repeat's repetitions. */
struct test_loop {
	struct bonnie_args *a;
	struct phase_sync *ps;
	struct bonnie_result *runs;
	size_t nr;
	FILE *text;            /* where the text goes (stderr with -q or -x) */
	FILE *out;             /* stdout, or the tee that keeps it for the store */
	bool json;
	int status;
	size_t limit;          /* --repeat: N, or auto's maximum */
	char **kept;           /* --repeat with a store: each one's text as printed */
	size_t *kept_len;      /* (NULL without) */
};

/* One test into runs[nr++]: 0 to go on, -1 to stop (status says whether
 * it failed; a signal stops it with status 0). */
static int one_test(struct test_loop *l, unsigned i)
{
	struct bonnie_args *a = l->a;
	const struct bonnie_spec *s = &a->spec;
	struct phase_sync *ps = l->ps;
	struct bonnie_result *r = &l->runs[l->nr++];
	int rc = bonnie_run(s, ps->stop, r);
	if (ps->dist && ps->dist->bonnie_reduce(ps->dist->arg, r, rc) < 0) {
		/* a rank failed (the root named it): what the ranks measured
		 * until then is reported, then the run fails */
		if (ps->shown >= 0)
			fputc('\n', stderr);
		ps->shown = -1;
		l->status = 1;
		if (!l->json && report_normal(a, r, l->text, l->out) < 0)
			l->status = write_failed(-EIO, l->text);
		return -1;
	}
	/* as bonnie++ 2.00a: every -x test reuses the first one's seed */
	a->spec.seed = r->seed;
	a->spec.have_seed = true;
	if (ps->shown >= 0 && rc == 0)
		progress_done(ps);
	else if (ps->shown >= 0)
		fputc('\n', stderr);
	ps->shown = -1;
	if (ps->failed) {
		error("waiting on the -y s semaphores failed: the test was stopped");
		l->status = 1;
		return -1;
	}
	if (rc == -EINTR || r->interrupted) {
		r->interrupted = true;
		warning("stopped by a signal: the test's files were removed");
		return -1;
	}
	if (rc < 0) {
		if (r->error_msg)
			error("%s", r->error_msg);
		else
			error_errno(rc, "bonnie test %u failed", i + 1);
		l->status = 1;
		return -1;
	}
	if (l->json)
		return 0;
	/* a repetition's text is kept, as printed, for the store */
	char *buf = NULL;
	size_t len = 0;
	FILE *m = l->kept ? open_memstream(&buf, &len) : NULL;
	FILE *dst = m ? m : l->text;
	if (l->limit && !s->quiet)
		fprintf(dst, "\nrepetition %u\n", i + 1);
	rc = report_normal(a, r, dst, l->out);
	if (m) {
		if (fclose(m) != 0 && rc == 0)
			rc = -ENOMEM;
		if (rc == 0 && fwrite(buf, 1, len, l->text) != len)
			rc = -EIO;
		if (rc == 0) {
			l->kept[l->nr - 1] = buf;
			l->kept_len[l->nr - 1] = len;
		} else {
			free(buf);
		}
	}
	if (rc < 0) {
		l->status = write_failed(rc, l->text);
		return -1;
	}
	return 0;
}

static int repeat_one(void *arg, struct repetition *rep)
{
	struct test_loop *l = arg;
	int rc = one_test(l, (unsigned)rep->index);
	rep->bonnie = &l->runs[l->nr - 1];
	rep->interrupted = l->runs[l->nr - 1].interrupted;
	return rc < 0 && !l->status && !rep->interrupted ? 1 : l->status;
}

static void repeat_figures(void *arg, struct rep_table *t, const struct repetition *rep)
{
	rep_figs_add_bonnie(t, rep->index, rep->bonnie);
}

/* bonnie's "result" of a repetition in the JSON: its number in "runs". */
static void repeat_json_each(struct json_writer *w, const struct repetition *rep, void *arg)
{
	json_uint(w, rep->index + 1);
}

static void repeat_json(struct json_writer *w, void *arg)
{
	repeat_write_json(arg, w, repeat_json_each, NULL);
}

/* A bonnie run to store (cli/storing.h): its tests and what was printed. */
struct bonnie_stored {
	const struct bonnie_result *runs;
	size_t nr;
	const struct run_env *env;
	const char *text;             /* the text as printed ("normal"), or NULL */
	size_t text_len;
	uint64_t start_ms, end_ms;
	int status;
	bool interrupted;
	const struct store_meta *meta; /* a repetition's group and index, or NULL */
	int64_t *id;                   /* or NULL */
};

/* Store it: the text as printed (normal), the CSV lines and the JSON. 0,
 * or -1 after saying it was not stored. */
static int store_bonnie_run(struct cmd_ctx *ctx, const struct bonnie_args *a,
			    const struct bonnie_stored *bs)
{
	bool json = a->output == BONNIE_OUT_JSON;
	struct store_bonnie b = { &a->spec, bs->runs, bs->nr, bs->env };
	struct store_renderings rend = { 0 };
	/* a repetition's own JSON was not printed: the whole loop's was */
	int rc = store_render_bonnie(&b, json && !bs->meta, !json, &rend);
	if (rc < 0) {
		error_errno(rc, "cannot render the results to store them");
	} else {
		if (bs->text)
			store_renderings_add(&rend, "normal", bs->text, bs->text_len, true);
		bool stopped = bs->interrupted;
		for (size_t i = 0; i < bs->nr; i++)
			stopped |= bs->runs[i].interrupted;
		struct store_run r = {
			.kind = STORE_KIND_BONNIE,
			.start_ms = bs->start_ms,
			.end_ms = bs->end_ms,
			.bonnie = &b,
			.renderings = &rend,
			.exit_status = bs->status,
			.interrupted = stopped,
		};
		rc = cmd_store_put(ctx, &r, bs->meta, bs->id);
	}
	store_renderings_release(&rend);
	return rc < 0 ? -1 : 0;
}

/* Store the printed tests as one run; the new status. */
static int store_tests(struct cmd_ctx *ctx, const struct bonnie_args *a,
		       const struct bonnie_result *runs, size_t nr, const struct run_env *env,
		       const char *text, size_t text_len, uint64_t start_ms, int status)
{
	struct bonnie_stored bs = {
		.runs = runs, .nr = nr, .env = env, .text = text, .text_len = text_len,
		.start_ms = start_ms, .end_ms = wall_time_ms(), .status = status,
		.interrupted = signals_caught() != 0,
	};
	return store_bonnie_run(ctx, a, &bs) < 0 && status == 0 ? 1 : status;
}

/* --repeat: each repetition stored as a bonnie run of its own, in one
 * group, with the machine captured around the whole loop (it exists only
 * now) and its text as printed (texts: NULL with JSON); the new status. */
static int store_reps(struct cmd_ctx *ctx, const struct bonnie_args *a,
		      const struct repeat_outcome *o, const struct run_env *env, char **texts,
		      const size_t *text_lens, int status)
{
	int64_t group = 0;
	bool failed = false;
	for (size_t i = 0; i < o->nr; i++) {
		const struct repetition *rep = &o->reps[i];
		if (!rep->bonnie)
			continue;
		struct store_meta m = { .rep_group = group ? group : STORE_NEW_GROUP,
					.rep_index = (int)rep->index };
		int64_t id = 0;
		struct bonnie_stored bs = {
			.runs = rep->bonnie, .nr = 1, .env = env,
			.text = texts ? texts[i] : NULL, .text_len = texts ? text_lens[i] : 0,
			.start_ms = rep->start_ms, .end_ms = rep->end_ms, .status = rep->status,
			.interrupted = rep->interrupted, .meta = &m, .id = &id,
		};
		if (store_bonnie_run(ctx, a, &bs) < 0)
			failed = true;
		else if (!group)
			group = id;
	}
	return failed && status == 0 ? 1 : status;
}

static int run_tests(struct cmd_ctx *ctx, struct bonnie_args *a, struct bonnie_barrier *bar,
		     struct memlimit *ml)
{
	uint64_t start_ms = wall_time_ms();
	volatile sig_atomic_t *stop = signals_install();
	struct phase_sync ps = { .mode = a->sync, .bar = bar, .stop = stop,
				 .progress = !a->spec.quiet && !(ctx->dist && !ctx->dist->root),
				 .shown = -1, .dist = ctx->dist };
	a->spec.before_phase = sync_phase;
	a->spec.after_phase = phase_ended;
	a->spec.before_phase_arg = &ps;
	const struct bonnie_spec *s = &a->spec;
	bool json = a->output == BONNIE_OUT_JSON;
	const struct repeat_opts *ro = &a->common.repeat;
	bool repeat = repeat_wanted(ro);
	size_t limit = !repeat ? 0 : ro->automatic ? (ro->max_reps ? ro->max_reps : REPEAT_MAX_DEFAULT)
			   : ro->count ? ro->count : 1;
	size_t nruns = repeat ? limit : s->repeats;
	/* -x sizes it (util/xmalloc.h): too many is an error, not an abort */
	struct bonnie_result *runs = calloc(nruns, sizeof(*runs));
	if (!runs) {
		error_errno(-ENOMEM, "cannot keep the results of %zu tests (%s %zu)", nruns,
			    repeat ? "--repeat" : "-x", nruns);
		return 1;
	}
	int rc0;
	/* what goes to stdout, also kept as printed for the store; --repeat
	 * keeps each repetition's text instead (test_loop.kept) */
	bool storing = cmd_store_wanted(ctx);
	struct teeout *tee = NULL;
	/* iobench-mpi: the ranks but the root write their report nowhere */
	char *sink_buf = NULL;
	size_t sink_len = 0;
	FILE *sink = ctx->dist && !ctx->dist->root ? open_memstream(&sink_buf, &sink_len) : NULL;
	FILE *out = sink ? sink : storing && !json && !repeat ? teeout_open(stdout, &tee) : stdout;
	if (!out) {
		free(runs);
		return error_errno(-ENOMEM, "cannot keep the report for the store") < 0;
	}
	bool keep = storing && !json && repeat;
	char **kept = keep ? calloc(nruns, sizeof(*kept)) : NULL;
	size_t *kept_len = keep ? calloc(nruns, sizeof(*kept_len)) : NULL;
	if (keep && (!kept || !kept_len)) {
		free(kept);
		free(kept_len);
		free(runs);
		return error_errno(-ENOMEM, "cannot keep the report for the store") < 0;
	}
	/* the text (and the machine around it) goes where bonnie++ puts its
	 * text: stderr with -q, nowhere but stderr with -x's CSV-only stdout */
	FILE *text = s->quiet || a->repeats_given ? stderr : out;
	struct test_loop l = { .a = a, .ps = &ps, .runs = runs, .text = text, .out = out,
			       .json = json, .limit = limit, .kept = kept, .kept_len = kept_len };
	struct envwatch ew;
	a->common.env.drops_root = geteuid() == 0 && (a->user || a->group);
	envwatch_begin(&ew, s->dir, &a->common.env);
	ps.env = ew.env;
	if (a->common.env.drops_root)
		cmd_store_open_now(ctx); /* -u's user may not be able to open it */
	bool refused = drop_privileges(a) < 0;
	if (!refused && ro->drop_caches && geteuid() != 0) {
		error("--drop-caches needs root before each test, but -u made the tests run as uid "
		      "%d; use -u root or leave --drop-caches out (nothing was run)", (int)geteuid());
		refused = true;
	}
	if (refused) {
		run_env_free(envwatch_end(&ew));
		free(runs);
		free(kept);
		free(kept_len);
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
		l.status = 1;

	if (!l.status && !json && a->repeats_given && s->repeats > 1 &&
	    (rc0 = bonnie_report_csv_header(out)) < 0)
		l.status = write_failed(rc0, out);
	struct repeat_outcome reps = { 0 };
	if (repeat && !l.status) {
		struct repeat_driver d = {
			.opts = ro,
			.run_one = repeat_one,
			.add_figures = repeat_figures,
			.arg = &l,
		};
		int st = repeat_loop(&d, &reps);
		if (st && st < 128 && !l.status)
			l.status = st;
	}
	for (unsigned i = 0; !repeat && i < s->repeats && !l.status && !*stop; i++)
		if (one_test(&l, i) < 0)
			break;
	size_t nr = l.nr;
	int status = l.status;
	ps.env = NULL;
	struct run_env *env = envwatch_end(&ew);
	memlimit_end(ml, env);
	struct anomaly_input in;
	bonnie_anomaly_input(s, runs, nr, &in);
	anomaly_check(&in, env);
	anomaly_check_memory_limit(env);
	struct report_json_extra extra = { repeat_json, &reps };
	if (json && (rc0 = bonnie_report_json_extra(s, runs, nr, env, repeat ? &extra : NULL,
						    sink ? sink : stdout)) < 0)
		status = write_failed(rc0, stdout);
	if (!json) {
		env_text_footer(env, text);
		if (repeat && reps.nr)
			repeat_write_text(&reps, text);
		/* the CSV lines last, as bonnie++'s: one per finished test */
		for (size_t i = 0; !a->repeats_given && (repeat || nr == 1) && i < nr && !status; i++)
			if (!runs[i].interrupted && (rc0 = bonnie_report_csv(s, &runs[i], out)) < 0)
				status = write_failed(rc0, out);
		if (!status && output_check(text, "the report", NULL) < 0)
			status = 1;
		if (!status && text != out && output_check(out, "the report", NULL) < 0)
			status = 1;
	} else {
		if (repeat && reps.nr)
			repeat_write_text(&reps, stderr);
		if (env->nr_warnings) {
			fputs("iobench: the run raised warnings (also in the report):\n", stderr);
			env_text_warnings(env, stderr);
		}
	}
	char *printed = NULL;
	size_t printed_len = 0;
	if (sink) {
		fclose(sink);
		free(sink_buf);
	}
	if (tee) {
		if (fclose(out) != 0 && !status)
			status = 1;
		printed = teeout_take(tee, &printed_len);
	}
	int sig = signals_caught();
	if (sig)
		status = 128 + sig;
	/* what was measured is printed: only now is it stored */
	if (storing && repeat)
		status = store_reps(ctx, a, &reps, env, kept, kept_len, status);
	else if (storing && nr)
		status = store_tests(ctx, a, runs, nr, env, printed, printed_len, start_ms, status);
	free(printed);
	for (size_t i = 0; kept && i < nruns; i++)
		free(kept[i]);
	free(kept);
	free(kept_len);
	repeat_outcome_release(&reps);
	run_env_free(env);
	for (size_t i = 0; i < nr; i++)
		bonnie_result_release(&runs[i]);
	free(runs);
	return status;
}

/* iobench-mpi bonnie runs the file tests on every rank, synchronised by
 * its own barriers: what it does not do is refused. */
static int dist_checks(const struct cmd_ctx *ctx, struct bonnie_args *a)
{
	if (a->sync != BONNIE_SYNC_NONE || a->sem_procs)
		return error("iobench-mpi bonnie: -y and -p synchronise processes on one machine; "
			     "the ranks already start every phase together");
	if (repeat_wanted(&a->common.repeat))
		return error("iobench-mpi bonnie: --repeat is not implemented yet (-x N repeats the test)");
	if (a->size_given && a->spec.file_size)
		return error("iobench-mpi bonnie: the I/O tests on every rank (-s SIZE) are not "
			     "implemented yet: it runs bonnie's file tests (-n); give -s 0");
	a->spec.file_size = 0;
	if (!a->spec.num_files)
		return error("iobench-mpi bonnie: -n 0 leaves nothing to test (it runs the file tests)");
	return 0;
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
	if (cmd_common_check_repeat(&a.common.repeat, geteuid(), why, sizeof(why)) < 0) {
		error("%s", why);
		goto out;
	}
	if (a.repeats_given && repeat_wanted(&a.common.repeat)) {
		error("-x and --repeat both repeat the test: give one (-x for bonnie++'s CSV "
		      "lines, --repeat for the summary of the figures)");
		goto out;
	}
	if (command_parsed(ctx, &a.common) < 0)
		goto out;
	a.spec.precise = a.precise != 0; /* --precise unless --no-precise, in every format */
	if (a.sem_procs) {
		status = semaphores(a.sem_procs);
		goto out;
	}
	if (ctx->dist && dist_checks(ctx, &a) < 0)
		goto out;
	int prc = prepare(&a, host, sizeof(host), &bar, &ml);
	/* iobench-mpi: every rank agrees, then works in its own directory */
	if (ctx->dist && ctx->dist->bonnie_prepare(ctx->dist->arg, &a.spec, prc) < 0)
		goto out;
	if (prc < 0)
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
	.common = COMMON_OUTPUT_FORMAT | COMMON_ALLOW_DESTROY | COMMON_READONLY | COMMON_REPEAT |
		  COMMON_DB | COMMON_NO_STORE | COMMON_LABEL | COMMON_HELP,
	.help_for = bonnie_help_for,
	.flags = CMD_WATCHES_ENV | CMD_OPENS_STORE,
	.run = bonnie_main,
};
