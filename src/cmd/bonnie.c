/*
 * `iobench bonnie`: bonnie++ 2.00a's command line and output. Flags are
 * parsed by bonnie_args.c and checked by bonnie_spec_validate(); as root the
 * run needs -u and drops to that user first; -p/-y synchronise processes;
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
#include "cmd/signals.h"
#include "report/bonnie_report.h"
#include "sys/devguard.h"
#include "util/error.h"
#include "util/xmalloc.h"

static const char bonnie_usage[] =
	"usage: iobench bonnie [-d dir] [-c concurrency]\n"
	"                      [-s size(MiB)[:chunk[:seeks[:seekers]]]]\n"
	"                      [-n files(*1024)[:max[:min[:dirs[:chunk]]]]] [-m machine]\n"
	"                      [-r ram(MiB)] [-x tests] [-u user[:group]] [-g group] [-q]\n"
	"                      [-f[size(MiB)]] [-b] [-D] [-p procs | -y s|p]\n"
	"                      [-z seed | -Z file] [--precise | --no-precise]\n"
	"                      [--random-data] [--output-format=normal|json]\n"
	"                      [--allow-destroy=DEV] [--readonly]\n"
	"\n"
	"Run bonnie++ 2.00a's tests with its flags and their meaning: per-char, block\n"
	"and rewrite output, per-char and block input and random seeks on a file of\n"
	"-s MiB (default twice the RAM; a smaller one is refused unless -r gives less\n"
	"RAM, -r 0 turns the check off; -s 0 skips these tests), then create, stat\n"
	"and delete -n x1024 files in sequential and random order (-n 0 skips them;\n"
	"max -1 makes hard links, -2 symlinks). -c N runs N copies at once, each in\n"
	"its own directory, and reports their sum. -x N repeats the test, printing\n"
	"a CSV line each time. -b fsyncs every write, -D uses O_DIRECT in every bulk\n"
	"phase, -f skips the per-char tests (-fN makes them N MiB), -z/-Z seed the\n"
	"random numbers, -m names the machine (default the host name). As root, -u\n"
	"is required (-u root allowed) and the tests run as that user and group.\n"
	"-p N creates the semaphores for N processes (-p -1 removes them); -y s\n"
	"makes a process wait on them before each test so all N start it together,\n"
	"-y p waits for Enter instead.\n"
	"\n"
	"options beyond bonnie++:\n"
	"  --precise          repeat any phase shorter than 0.5 s until it lasts 0.5 s,\n"
	"                     so no figure is +++++ (default with JSON)\n"
	"  --no-precise       print +++++ for such phases, as bonnie++ (default for text)\n"
	"  --random-data      write incompressible data instead of bonnie++'s zeros\n"
	"  --output-format=F  normal (bonnie++'s text table, then its CSV line) or json\n"
	"  --allow-destroy=DEV, --readonly   the device guard, as for 'iobench run'\n"
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
	"  work_unit (bytes, seeks, files), elapsed_s, cpu_pct, repeats,\n"
	"  latency_us: { p50, p99, max }, disks: [ { name, read_ios, write_ios,\n"
	"  read_merges, write_merges, read_bytes, write_bytes, read_ticks_ms,\n"
	"  write_ticks_ms, in_queue_ms, io_ticks_ms, elapsed_ms, util_pct } ] }.\n"
	"  The aggregate's rate is the sum of the copies' rates.\n"
	"\n"
	"Errors are one line and exit 1; a signal stops the run, removes its files\n"
	"and exits with 128 + the signal.\n";

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

static int prepare(struct bonnie_args *a, char *host, size_t hostlen, struct bonnie_barrier *bar)
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
	if (a->user || a->group) {
		if (bonnie_setugid(a->user, a->group, why, sizeof(why)) < 0)
			return error("%s", why);
		if (!s->quiet)
			fprintf(stderr, "Using uid:%d, gid:%d.\n", (int)getuid(), (int)getgid());
	}
	return 0;
}

/* Text (not with -x) then the CSV line, for one finished test. */
static int report_normal(const struct bonnie_args *a, const struct bonnie_result *r)
{
	const struct bonnie_spec *s = &a->spec;
	int rc = 0;
	if (!a->repeats_given)
		rc = bonnie_report_text(s, r, !s->quiet, s->quiet ? stderr : stdout);
	if (!rc)
		rc = bonnie_report_csv(s, r, stdout);
	return rc;
}

static int run_tests(struct bonnie_args *a, struct bonnie_barrier *bar)
{
	const struct bonnie_spec *s = &a->spec;
	volatile sig_atomic_t *stop = signals_install();
	bool json = a->output == BONNIE_OUT_JSON;
	struct bonnie_result *runs = xcalloc(s->repeats, sizeof(*runs));
	size_t nr = 0;
	int status = 0;

	if (!json && a->repeats_given && s->repeats > 1 && bonnie_report_csv_header(stdout) < 0)
		status = 1;
	for (unsigned i = 0; i < s->repeats && !status && !*stop; i++) {
		if (a->sync == BONNIE_SYNC_SEM && bonnie_barrier_wait(bar) < 0) {
			if (!*stop) {
				error("waiting on the -y s semaphores failed");
				status = 1;
			}
			break;
		}
		if (a->sync == BONNIE_SYNC_PROMPT)
			bonnie_prompt(i + 1);
		struct bonnie_result *r = &runs[nr++];
		int rc = bonnie_run(s, stop, r);
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
		if (!json && report_normal(a, r) < 0)
			status = 1;
	}
	if (json && bonnie_report_json(s, runs, nr, stdout) < 0)
		status = 1;
	for (size_t i = 0; i < nr; i++)
		bonnie_result_release(&runs[i]);
	free(runs);
	int sig = signals_caught();
	return sig ? 128 + sig : status;
}

static int bonnie_main(int argc, char **argv)
{
	struct bonnie_args a;
	struct bonnie_barrier bar = { 0 };
	char why[512], host[256];
	int status = 1;
	if (bonnie_args_parse(argc, argv, &a, why, sizeof(why)) < 0) {
		error("%s", why);
		goto out;
	}
	if (a.help) {
		fputs(bonnie_usage, stdout);
		status = 0;
		goto out;
	}
	a.spec.precise = a.precise >= 0 ? a.precise == 1 : a.output == BONNIE_OUT_JSON;
	if (a.sem_procs) {
		status = semaphores(a.sem_procs);
		goto out;
	}
	if (prepare(&a, host, sizeof(host), &bar) < 0)
		goto out;
	status = run_tests(&a, &bar);
out:
	bonnie_barrier_close(&bar);
	bonnie_args_release(&a);
	fflush(stdout);
	return status;
}

const struct command cmd_bonnie = {
	.name = "bonnie",
	.summary = "bonnie++ 2.00a's tests, flags and text/CSV output (and JSON)",
	.usage = bonnie_usage,
	.run = bonnie_main,
};
