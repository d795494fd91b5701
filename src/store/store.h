/*
 * The results store: every run, quick, bonnie and meta result (and every imported
 * fio JSON or bonnie++ CSV file) kept in one SQLite database with its
 * context, so that results can be listed, reprinted, exported and compared
 * later (store_query.h reads, store_import.h imports).
 *
 * Where: --db PATH, else $IOBENCH_DB, else $XDG_DATA_HOME/iobench/results.db,
 * else ~/.local/share/iobench/results.db (store_path_resolve). The file and
 * every file SQLite makes beside it (-wal, -journal, -shm) are opened
 * through the device guard (sys/guardopen.h, as iobench's own output: never
 * a block device), in WAL mode with a busy timeout, so that several runs
 * can store at once, and with foreign keys on (deleting a run deletes
 * everything it owns).
 *
 * What a run stores (store_put_run), all in ONE transaction at the end of
 * the run, so a run killed meanwhile leaves all of it or nothing: its kind,
 * start/end time, host, labels, command line, job files' text, every
 * option of every job, the machine around it (sysinfo, monitor series,
 * warnings: the JSON the reporters write), every figure of its JSON output
 * as a tall table (run, job, group, direction, figure, value), its latency
 * histograms as bucket counts, errors, exit status, and the text of each
 * format it printed, so `results show` can reprint it byte for byte.
 *
 * Functions print what failed (util/error.h: "results database 'PATH':
 * ...") and return 0 or a negative errno. A store handle is used by one
 * thread at a time.
 */
#ifndef IOBENCH_STORE_STORE_H
#define IOBENCH_STORE_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bonnie/bonnie.h"
#include "results/results.h"

#define STORE_BUSY_TIMEOUT_MS 10000 /* how long a store waits for another writer */

struct store;

enum store_kind {
	STORE_KIND_RUN,
	STORE_KIND_QUICK,
	STORE_KIND_BONNIE,
	STORE_KIND_IMPORT,
	STORE_KIND_META,
	STORE_KIND_CNT
};
/* "run", "quick", "bonnie", "import", "meta" (iobench-mpi meta). */
const char *store_kind_name(enum store_kind k);
/* The reverse: 0, or -EINVAL (no message) for another word. */
int store_kind_parse(const char *s, enum store_kind *k);

/*
 * The database path: db_opt (--db) when given, else $IOBENCH_DB when set
 * and not empty, else $XDG_DATA_HOME/iobench/results.db (an absolute
 * XDG_DATA_HOME only, as the XDG spec says), else
 * $HOME/.local/share/iobench/results.db. With make_dirs the missing
 * directories above the default location are created (0700: its data is
 * the user's alone); a path the user named (--db, IOBENCH_DB) must be in
 * a directory that exists. *path is
 * xmalloc'ed. -ENOENT when there is no HOME to fall back on.
 */
int store_path_resolve(const char *db_opt, bool make_dirs, char **path);

/*
 * Open (creating it if needed) the database at path, migrate an older
 * schema forward (each step in its own transaction) and return the handle
 * in *out. A database written by a newer iobench (PRAGMA user_version above
 * store_schema_version()) is refused with -EPROTO and left untouched, and
 * so is an SQLite database that is not iobench's (-EPROTO); a path the
 * guard refuses gives its -errno.
 */
int store_open(const char *path, struct store **out);
void store_close(struct store *st);
/*
 * Does the file at path look like a store that store_open would take as
 * it is: a regular file we may read and write whose header says SQLite,
 * WAL mode, iobench's application id and this iobench's schema version?
 * Read from the header, without SQLite (whose code and page cache cost a
 * run 1 MiB of memory while its threads run): a command that stores only
 * at its end may then open the store there. false: open it now, so that
 * what is wrong is said before the run (a missing file, an older schema
 * to migrate, another program's database...).
 */
bool store_ready(const char *path);
/* Limit the store's page cache to STORE_SMALL_CACHE_KIB (a command that
 * adds one result; queries keep SQLite's default). 0 or -errno. */
#define STORE_SMALL_CACHE_KIB 64u
int store_limit_cache(struct store *st);
/* The path the store was opened with. */
const char *store_path(const struct store *st);
/* The schema version this iobench writes. */
unsigned store_schema_version(void);

/* A label "key=value"; in structs the store returns, both are owned. */
struct store_label {
	char *key;
	char *value;
};
/*
 * Parse a --label argument "K=V" into *l (both xmalloc'ed): K is 1 to 64
 * letters, digits, '_', '-', '.' or ':', V may be empty. -EINVAL with a
 * message naming the argument otherwise.
 */
int store_label_parse(const char *arg, struct store_label *l);
/* The same check without allocating: 0, or -EINVAL with the message in why. */
int store_label_check(const char *arg, char *why, size_t len);
void store_labels_free(struct store_label *v, size_t n);

/* A job file as the run read it. */
struct store_text {
	const char *name;
	const char *text;
	size_t len;
};

/* A group of runs (repetitions of one run, points of one sweep): 0 none,
 * STORE_NEW_GROUP starts one (its id becomes the id of the run being
 * stored), any other value is the id of the group's first run. */
#define STORE_NEW_GROUP (-1)

/* What the caller knows about a run beyond its results. */
struct store_meta {
	const char *const *argv;          /* the command line, argc words */
	size_t argc;
	const struct store_label *labels; /* --label K=V ... (a key given twice: the last wins) */
	size_t nr_labels;
	const char *host;                 /* NULL: this machine's name (gethostname) */
	int64_t rep_group;                /* --repeat: the group (see STORE_NEW_GROUP) */
	int rep_index;                    /* its repetition, 0-based; -1 none */
	int64_t sweep_id;                 /* a sweep, as rep_group */
	const char *sweep_point;          /* its point's labels ("chunk=64k fs=xfs"), or NULL */
};

/* The text of one output format, as printed. */
struct store_rendering {
	char *format; /* "normal", "json", "json+", "terse"; bonnie: "normal", "csv", "json" */
	char *text;
	size_t len;
	bool printed; /* the run printed it (else kept for `results show` and figures) */
};
struct store_renderings {
	struct store_rendering *v;
	size_t n, alloc;
};
/* Add a copy of text under format (replacing one of the same format). */
void store_renderings_add(struct store_renderings *r, const char *format, const char *text,
			  size_t len, bool printed);
const struct store_rendering *store_renderings_find(const struct store_renderings *r,
						    const char *format);
void store_renderings_release(struct store_renderings *r);

/*
 * Render a run or quick result into r as the reporters print it, one
 * format at a time into memory (open_memstream): "json", "terse" and
 * "normal" always, "json+" when printed has it; each marked printed as
 * printed (REPORT_* of report/report.h) says. normal_head is what the
 * command prints before the run in the normal format (the system header
 * and fio's job lines) and is put before the normal rendering; NULL for
 * none. 0, or -ENOMEM/-EIO.
 */
int store_render_result(const struct run_result *res, unsigned printed, const char *normal_head,
			struct store_renderings *r);
/* The same with iobench-mpi's additions: extra members in the JSON
 * renderings' "iobench" object, and text after the normal rendering (each
 * NULL for none). */
struct report_json_extra;
int store_render_result_extra(const struct run_result *res, unsigned printed,
			      const char *normal_head, const struct report_json_extra *extra,
			      const char *normal_tail, struct store_renderings *r);

/* A bonnie run: its spec, its tests (-x) and the machine around them. */
struct store_bonnie {
	const struct bonnie_spec *spec;
	const struct bonnie_result *runs;
	size_t nr;
	const struct run_env *env;
};
/* Render a bonnie run into r: "json" (bonnie_report_json; printed as
 * json_printed says) and "csv" (its CSV lines, after bonnie++'s header line
 * when there are several, as -x prints them; printed as csv_printed says).
 * The text table goes under "normal", added by the caller as it printed it
 * (store_renderings_add). 0, or -ENOMEM/-EIO. */
int store_render_bonnie(const struct store_bonnie *b, bool json_printed, bool csv_printed,
			struct store_renderings *r);

/* One finished (or stopped) run to store. */
struct store_run {
	enum store_kind kind;             /* run, quick, bonnie or meta (its figures and
					     options from its "json" rendering alone) */
	uint64_t start_ms, end_ms;        /* wall clock, ms since the epoch */
	const struct run_result *result;  /* run, quick */
	const struct store_bonnie *bonnie; /* bonnie */
	const struct store_text *job_files;
	size_t nr_job_files;
	const struct store_renderings *renderings; /* must hold "json" (store_render_*) */
	int exit_status;
	bool interrupted;                 /* stopped by a signal (result->interrupted is
					     counted too): stored as measured, marked so */
	const char *const *errors;        /* the run's error messages, in order */
	size_t nr_errors;
};

/*
 * Store r in one transaction and give its id in *id (may be NULL). The
 * figures and job options are read from the "json" rendering (so they are
 * named exactly as the JSON output names them), the histograms from the
 * results themselves. Waits up to STORE_BUSY_TIMEOUT_MS for other writers.
 */
int store_put_run(struct store *st, const struct store_run *r, const struct store_meta *m,
		  int64_t *id);

#endif
