/*
 * `iobench-mpi meta` (dist_meta.h): the options, the loop over -i
 * iterations with dist_sync between the phases (meta/meta.h's sync
 * hook), the gather of every rank's per-phase figures to rank 0 after each
 * iteration, and rank 0's output: mdtest 4.1's SUMMARY table ("SUMMARY
 * rate (in ops/sec)", one row per operation, Max/Min/Mean/Std Dev over the
 * iterations; --show-perrank-statistics adds the ranks' own rates), or the
 * JSON with every figure and every rank's items and times, and rank 0
 * stores the run (kind "meta", store/store.h) as the other commands do:
 * --db, --no-store, --label K=V, both renderings, the command line. A rank that
 * fails ends the run after the phase it failed in: the ranks agree at the
 * phase's barrier, rank 0 names the rank, its host and the error, and the
 * figures of the phases done so far are printed.
 */
#include "dist/dist_meta.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store/store.h"
#include "sys/dev/guardopen.h"
#include "util/array.h"
#include "util/error.h"
#include "util/json.h"
#include "util/timeutil.h"
#include "util/units.h"
#include "util/xmalloc.h"
#include "meta/meta.h"

static const char usage[] =
	"usage: mpirun [MPIRUN OPTIONS] iobench-mpi meta -d DIR (-n ITEMS | -I ITEMS) [OPTIONS]\n"
	"\n"
	"mdtest's metadata phases on every rank at once, with mdtest's options and\n"
	"figures (rate = all ranks' items / the slowest rank's phase time):\n"
	"  -d DIR     the directory to test in (test-dir.I-0 is made in it)\n"
	"  -n N       items per rank (spread over the tree's directories)\n"
	"  -I N       items per directory of the tree\n"
	"  -z DEPTH   depth of the directory tree (0: one directory)\n"
	"  -b N       branching factor of the tree (1)\n"
	"  -u         a tree per rank (mdtest_tree.RANK.0), else one shared tree\n"
	"  -L         items only in the tree's leaves\n"
	"  -F / -D    files only / directories only (default both)\n"
	"  -C -T -E -r  only create / stat / read / remove (default all)\n"
	"  -w BYTES   bytes written into each file at create\n"
	"  -e BYTES   bytes read from each file in the read phase\n"
	"  -y         fsync each file after writing it\n"
	"  -i N       iterations (the summary gives max/min/mean/stddev over them)\n"
	"  --show-perrank-statistics   the ranks' own rates too (max/min/mean)\n"
	"  --output-format=normal|json  mdtest's SUMMARY table (default) or JSON\n"
	"  --output=FILE                write the output there (rank 0)\n"
	"  --sync-timeout=SEC           how long a rank waits at a barrier (600)\n"
	"  --readonly                   refuse to write (every phase writes)\n"
	"  --db=PATH                    the results database (else $IOBENCH_DB, else\n"
	"                               ~/.local/share/iobench/results.db)\n"
	"  --no-store                   do not store the run\n"
	"  --label=K=V                  a label of the stored run (repeatable)\n"
	"Rank 0 stores the run (kind meta: a job per phase, direction \"meta\", its\n"
	"figures rate, items, time_s, rate.max/min/mean/stddev, ...): see `iobench\n"
	"results`, `iobench compare` and `iobench report`.\n";

struct meta_opts {
	struct meta_spec spec;
	bool json, perrank, help, no_store;
	const char *output;
	const char *db;       /* --db, or NULL */
	const char **labels;  /* --label arguments (checked), nr_labels of them */
	size_t nr_labels;
};

/* The hook's state: the barriers are numbered so every rank names the same one. */
struct hook {
	struct dist_comm *c;
	struct meta_result *res;
	unsigned n, iteration;
};

static int hook_fn(void *arg, int rc)
{
	struct hook *h = arg;
	if (h->c->failed) {
		/* cleaning up after the failure: later syncs no longer talk, but
		 * rank 0 removes the shared tree and the test directory, so it
		 * waits (a gather) until every rank that still answers has
		 * removed its own items */
		void **blobs = NULL;
		size_t *lens = NULL;
		char one = 1;
		dist_gather(h->c, &one, 1, &blobs, &lens);
		for (int r = 0; blobs && r < h->c->size; r++)
			free(blobs[r]);
		free(blobs);
		free(lens);
		return h->c->fail.error ? -h->c->fail.error : -EIO;
	}
	char point[96];
	snprintf(point, sizeof(point), "barrier %u of meta iteration %u", ++h->n, h->iteration);
	if (dist_sync(h->c, point, rc < 0 ? -rc : 0, rc < 0 && h->res->msg[0] ? h->res->msg : NULL) == 0)
		return 0;
	return h->c->fail.error ? -h->c->fail.error : -EIO;
}

static int num_arg(const char *v, int opt, bool size, uint64_t *out, bool root)
{
	const char *why = NULL;
	int rc = size ? parse_size(v, 1024, out, &why) : parse_uint(v, 1000, out, &why);
	if (rc < 0 && root)
		error("iobench-mpi meta: bad value '%s' for -%c%s%s", v, opt, why ? ": " : "",
		      why ? why : "");
	return rc < 0 ? -EINVAL : 0;
}

static int parse(int argc, char **argv, struct meta_opts *o, double *timeout, bool root)
{
	enum { O_PERRANK = 256, O_FORMAT, O_OUTPUT, O_TIMEOUT, O_READONLY, O_DB, O_LABEL, O_NOSTORE };
	static const struct option longs[] = {
		{ "show-perrank-statistics", no_argument, NULL, O_PERRANK },
		{ "output-format", required_argument, NULL, O_FORMAT },
		{ "output", required_argument, NULL, O_OUTPUT },
		{ "sync-timeout", required_argument, NULL, O_TIMEOUT },
		{ "readonly", no_argument, NULL, O_READONLY },
		{ "db", required_argument, NULL, O_DB },
		{ "label", required_argument, NULL, O_LABEL },
		{ "no-store", no_argument, NULL, O_NOSTORE },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct meta_spec *s = &o->spec;
	s->branch = 1;
	s->iterations = 1;
	optind = 1;
	opterr = root;
	int ch;
	uint64_t u;
	while ((ch = getopt_long(argc, argv, "d:n:I:z:b:uLFDCTErw:e:yi:hN:W:SR::", longs, NULL)) != -1) {
		switch (ch) {
		case 'd': s->dir = optarg; break;
		case 'n': if (num_arg(optarg, ch, false, &s->items, root)) return -EINVAL; break;
		case 'I': if (num_arg(optarg, ch, false, &s->items_per_dir, root)) return -EINVAL; break;
		case 'z':
		case 'b':
		case 'i':
			if (num_arg(optarg, ch, false, &u, root))
				return -EINVAL;
			if (u > 1u << 20 || (ch == 'i' && !u)) {
				if (root)
					error("iobench-mpi meta: bad value '%s' for -%c", optarg, ch);
				return -EINVAL;
			}
			if (ch == 'z')
				s->depth = (unsigned)u;
			else if (ch == 'b')
				s->branch = (unsigned)u;
			else
				s->iterations = (unsigned)u;
			break;
		case 'u': s->unique_dir = true; break;
		case 'L': s->leaf_only = true; break;
		case 'F': s->files = true; break;
		case 'D': s->dirs = true; break;
		case 'C': s->ops |= META_OP_CREATE; break;
		case 'T': s->ops |= META_OP_STAT; break;
		case 'E': s->ops |= META_OP_READ; break;
		case 'r': s->ops |= META_OP_REMOVE; break;
		case 'w': if (num_arg(optarg, ch, true, &s->write_bytes, root)) return -EINVAL; break;
		case 'e': if (num_arg(optarg, ch, true, &s->read_bytes, root)) return -EINVAL; break;
		case 'y': s->sync_file = true; break;
		case O_PERRANK: o->perrank = true; break;
		case O_FORMAT:
			if (!strcmp(optarg, "json"))
				o->json = true;
			else if (strcmp(optarg, "normal")) {
				if (root)
					error("iobench-mpi meta: bad value '%s' for --output-format: normal or json",
					      optarg);
				return -EINVAL;
			}
			break;
		case O_OUTPUT: o->output = optarg; break;
		case O_TIMEOUT: {
			const char *why = NULL;
			if (parse_double(optarg, timeout, &why) < 0 || !(*timeout > 0)) {
				if (root)
					error("iobench-mpi meta: bad value '%s' for --sync-timeout", optarg);
				return -EINVAL;
			}
			break;
		}
		case O_READONLY: s->guard.readonly_by = "--readonly"; break;
		case O_NOSTORE: o->no_store = true; break;
		case O_DB: o->db = optarg; break;
		case O_LABEL: {
			char why[256];
			if (store_label_check(optarg, why, sizeof(why)) < 0) {
				if (root)
					error("iobench-mpi meta: %s", why);
				return -EINVAL;
			}
			o->labels = xrealloc(o->labels, (o->nr_labels + 1) * sizeof(*o->labels));
			o->labels[o->nr_labels++] = optarg;
			break;
		}
		case 'h': o->help = true; return 0;
		case 'N':
		case 'W':
		case 'S':
		case 'R':
			if (root)
				error("iobench-mpi meta: mdtest's -%c (%s) is not implemented yet", ch,
				      ch == 'N' ? "the rank shift of stat, read and remove" :
				      ch == 'W' ? "the stonewall" : ch == 'S' ? "the shared file" :
				      "the random order");
			return -EINVAL;
		default:
			return -EINVAL; /* getopt said which (on rank 0) */
		}
	}
	if (optind < argc) {
		if (root)
			error("iobench-mpi meta: unexpected argument '%s' (mdtest's options only: "
			      "see iobench-mpi meta --help)", argv[optind]);
		return -EINVAL;
	}
	return 0;
}

/* mdtest's row order: directories, files, then the tree. */
static const enum meta_phase row_order[] = {
	META_DIR_CREATE, META_DIR_STAT, META_DIR_REMOVE, META_FILE_CREATE, META_FILE_STAT,
	META_FILE_READ, META_FILE_REMOVE, META_TREE_CREATE, META_TREE_REMOVE,
};

struct run {
	struct dist_comm *c;
	struct meta_opts *o;
	struct meta_tree t;
	int argc;
	char **argv;
	time_t began, finished;
	uint64_t start_ms, end_ms;                   /* the same, ms since the epoch */
	unsigned done;                               /* iterations with figures */
	struct meta_phase_agg (*agg)[META_NR_PHASES]; /* per iteration */
	struct meta_result *ranks;                   /* [iteration × size] */
	bool failed;
};

static unsigned hosts_of(const struct dist_comm *c)
{
	unsigned n = 0;
	for (int r = 0; r < c->size; r++) {
		bool seen = false;
		for (int q = 0; q < r && !seen; q++)
			seen = !strcmp(c->hosts[q], c->hosts[r]);
		n += !seen;
	}
	return n;
}

static bool phase_ran(const struct run *R, enum meta_phase p)
{
	for (unsigned i = 0; i < R->done; i++)
		if (R->agg[i][p].ran)
			return true;
	return false;
}

static void stat_over(const struct run *R, enum meta_phase p, struct meta_stat *rate,
		      struct meta_stat *time, struct meta_stat *rank)
{
	double *v = xcalloc(R->done + 1, sizeof(*v)), *w = xcalloc(R->done + 1, sizeof(*w));
	unsigned n = 0;
	double rmax = 0, rmin = 0, rsum = 0;
	for (unsigned i = 0; i < R->done; i++) {
		const struct meta_phase_agg *a = &R->agg[i][p];
		if (!a->ran)
			continue;
		v[n] = a->rate;
		w[n] = a->time_s;
		if (!n || a->rank_max > rmax)
			rmax = a->rank_max;
		if (!n || a->rank_min < rmin)
			rmin = a->rank_min;
		rsum += a->rank_mean;
		n++;
	}
	meta_stat_of(v, n, rate);
	meta_stat_of(w, n, time);
	*rank = (struct meta_stat){ .max = rmax, .min = rmin, .mean = n ? rsum / n : 0 };
	free(v);
	free(w);
}

static const char *items_word(const struct meta_spec *s)
{
	return s->files && s->dirs ? "files/directories" : s->files ? "files" : "directories";
}

static void stamp(FILE *out, const char *what, time_t t)
{
	char buf[64];
	strftime(buf, sizeof(buf), "%m/%d/%Y %H:%M:%S", localtime(&t));
	fprintf(out, "-- %s at %s --\n", what, buf);
}

static void print_text(const struct run *R, FILE *out)
{
	const struct dist_comm *c = R->c;
	const struct meta_spec *s = &R->o->spec;
	stamp(out, "started", R->began);
	fprintf(out, "\niobench-mpi meta (mdtest's phases) was launched with %d total task(s) on %u "
		"node(s)\n", c->size, hosts_of(c));
	fprintf(out, "Command line used: iobench-mpi");
	for (int i = 0; i < R->argc; i++)
		fprintf(out, " '%s'", R->argv[i]);
	fprintf(out, "\nPath                : %s\n", s->dir);
	fprintf(out, "Tree                : %llu director%s per tree (-z %u -b %u), %llu items in each%s\n",
		(unsigned long long)R->t.num_dirs, R->t.num_dirs == 1 ? "y" : "ies", R->t.depth,
		R->t.branch, (unsigned long long)R->t.per_dir, s->leaf_only ? " leaf" : "");
	fprintf(out, "%d tasks, %llu %s\n", c->size,
		(unsigned long long)(R->t.items * (uint64_t)c->size), items_word(s));
	fprintf(out, "\nSUMMARY rate (in ops/sec): (of %u iterations)\n", R->done);
	fprintf(out, "   Operation     %s Max            Min           Mean        Std Dev\n",
		R->o->perrank ? "per Rank: Max            Min           Mean      per Iteration:"
			      : "               ");
	fprintf(out, "   ---------      %s               ---            ---           ----        -------\n",
		R->o->perrank ? "         ---            ---           ----       " : "");
	for (size_t k = 0; k < ARRAY_SIZE(row_order); k++) {
		enum meta_phase p = row_order[k];
		if (!phase_ran(R, p))
			continue;
		struct meta_stat rate, time, rank;
		stat_over(R, p, &rate, &time, &rank);
		fprintf(out, "   %-18s ", meta_phase_title(p));
		if (R->o->perrank)
			fprintf(out, "%14.3f %14.3f %14.3f     ", rank.max, rank.min, rank.mean);
		fprintf(out, "    %14.3f %14.3f %14.3f %14.3f\n", rate.max, rate.min, rate.mean, rate.sd);
	}
	fprintf(out, "\nSUMMARY time (in s per phase, the slowest rank's): (of %u iterations)\n", R->done);
	fprintf(out, "   Operation                     Max            Min           Mean        Std Dev\n");
	fprintf(out, "   ---------                     ---            ---           ----        -------\n");
	for (size_t k = 0; k < ARRAY_SIZE(row_order); k++) {
		enum meta_phase p = row_order[k];
		if (!phase_ran(R, p))
			continue;
		struct meta_stat rate, time, rank;
		stat_over(R, p, &rate, &time, &rank);
		fprintf(out, "   %-18s     %14.3f %14.3f %14.3f %14.3f\n", meta_phase_title(p), time.max,
			time.min, time.mean, time.sd);
	}
	if (R->failed)
		fprintf(out, "\nERROR: rank %d (%s) failed: %s\n", c->fail.rank, c->fail.host, c->fail.msg);
	stamp(out, "finished", R->finished);
}

static double secs(uint64_t a, uint64_t b)
{
	return b > a ? (double)(b - a) / 1e9 : 0.0;
}

static void json_stat(struct json_writer *w, const char *key, const struct meta_stat *st)
{
	json_kv_object_begin(w, key);
	json_kv_double(w, "max", st->max);
	json_kv_double(w, "min", st->min);
	json_kv_double(w, "mean", st->mean);
	json_kv_double(w, "stddev", st->sd);
	json_object_end(w);
}

static void print_json(const struct run *R, FILE *out)
{
	const struct dist_comm *c = R->c;
	const struct meta_spec *s = &R->o->spec;
	struct json_writer w;
	json_init(&w, out);
	json_object_begin(&w);
	json_kv_string(&w, "iobench_version", IOBENCH_VERSION);
	json_kv_string(&w, "command", "meta");
	json_kv_int(&w, "timestamp", (int64_t)R->began);
	json_kv_object_begin(&w, "meta");
	json_kv_int(&w, "tasks", c->size);
	json_kv_uint(&w, "nodes", hosts_of(c));
	json_kv_array_begin(&w, "hosts");
	for (int r = 0; r < c->size; r++)
		json_string(&w, c->hosts[r]);
	json_array_end(&w);
	json_kv_object_begin(&w, "options");
	json_kv_string(&w, "dir", s->dir);
	json_kv_uint(&w, "items", s->items);
	json_kv_uint(&w, "items_per_dir", s->items_per_dir);
	json_kv_uint(&w, "depth", s->depth);
	json_kv_uint(&w, "branch", s->branch);
	json_kv_bool(&w, "unique_dir", s->unique_dir);
	json_kv_bool(&w, "leaf_only", s->leaf_only);
	json_kv_bool(&w, "files", s->files);
	json_kv_bool(&w, "dirs", s->dirs);
	json_kv_bool(&w, "create", s->ops & META_OP_CREATE);
	json_kv_bool(&w, "stat", s->ops & META_OP_STAT);
	json_kv_bool(&w, "read", s->ops & META_OP_READ);
	json_kv_bool(&w, "remove", s->ops & META_OP_REMOVE);
	json_kv_uint(&w, "write_bytes", s->write_bytes);
	json_kv_uint(&w, "read_bytes", s->read_bytes);
	json_kv_bool(&w, "sync_file", s->sync_file);
	json_kv_uint(&w, "iterations", s->iterations);
	json_object_end(&w);
	json_kv_object_begin(&w, "tree");
	json_kv_uint(&w, "dirs_per_tree", R->t.num_dirs);
	json_kv_uint(&w, "items_per_dir", R->t.per_dir);
	json_kv_uint(&w, "items_per_rank", R->t.items);
	json_kv_uint(&w, "items_total", R->t.items * (uint64_t)c->size);
	json_object_end(&w);
	json_kv_array_begin(&w, "iterations");
	for (unsigned i = 0; i < R->done; i++) {
		json_object_begin(&w);
		json_kv_uint(&w, "iteration", i);
		json_kv_object_begin(&w, "phases");
		for (size_t k = 0; k < ARRAY_SIZE(row_order); k++) {
			enum meta_phase p = row_order[k];
			const struct meta_phase_agg *a = &R->agg[i][p];
			if (!a->ran)
				continue;
			json_kv_object_begin(&w, meta_phase_key(p));
			json_kv_string(&w, "operation", meta_phase_title(p));
			json_kv_uint(&w, "items", a->items);
			json_kv_uint(&w, "all_items", a->all_items);
			json_kv_double(&w, "time_s", a->time_s);
			json_kv_double(&w, "rate", a->rate);
			json_kv_double(&w, "rank_rate_min", a->rank_min);
			json_kv_double(&w, "rank_rate_max", a->rank_max);
			json_kv_double(&w, "rank_rate_mean", a->rank_mean);
			json_kv_array_begin(&w, "ranks");
			for (int r = 0; r < c->size; r++) {
				const struct meta_phase_fig *f = &R->ranks[(size_t)i * c->size + r].ph[p];
				json_object_begin(&w);
				json_kv_int(&w, "rank", r);
				json_kv_string(&w, "host", c->hosts[r]);
				json_kv_uint(&w, "items", f->items);
				json_kv_double(&w, "time_s", secs(f->start_ns, f->end_ns));
				json_kv_double(&w, "time_before_barrier_s", secs(f->start_ns, f->end_bb_ns));
				json_object_end(&w);
			}
			json_array_end(&w);
			json_object_end(&w);
		}
		json_object_end(&w);
		json_object_end(&w);
	}
	json_array_end(&w);
	json_kv_object_begin(&w, "summary");
	for (size_t k = 0; k < ARRAY_SIZE(row_order); k++) {
		enum meta_phase p = row_order[k];
		if (!phase_ran(R, p))
			continue;
		struct meta_stat rate, time, rank;
		stat_over(R, p, &rate, &time, &rank);
		json_kv_object_begin(&w, meta_phase_key(p));
		json_kv_string(&w, "operation", meta_phase_title(p));
		json_stat(&w, "rate", &rate);
		json_stat(&w, "time_s", &time);
		json_kv_object_begin(&w, "rank_rate");
		json_kv_double(&w, "max", rank.max);
		json_kv_double(&w, "min", rank.min);
		json_kv_double(&w, "mean", rank.mean);
		json_object_end(&w);
		json_object_end(&w);
	}
	json_object_end(&w);
	if (R->failed) {
		json_kv_object_begin(&w, "error");
		json_kv_int(&w, "rank", c->fail.rank);
		json_kv_string(&w, "host", c->fail.host);
		json_kv_int(&w, "errno", c->fail.error);
		json_kv_bool(&w, "hung", c->fail.hung);
		json_kv_string(&w, "message", c->fail.msg);
		json_object_end(&w);
	} else {
		json_kv_string(&w, "error", NULL);
	}
	json_object_end(&w);
	json_object_end(&w);
	json_finish(&w);
}

/* Both formats in memory: the one printed, and the other for the store. */
static int render(const struct run *R, struct store_renderings *rend)
{
	for (int json = 0; json < 2; json++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);
		if (!m)
			return -ENOMEM;
		if (json)
			print_json(R, m);
		else
			print_text(R, m);
		int bad = ferror(m);
		if (fclose(m) != 0 || bad) {
			free(buf);
			return -EIO;
		}
		store_renderings_add(rend, json ? "json" : "normal", buf, len, json == R->o->json);
		free(buf);
	}
	return 0;
}

/* Rank 0's store: NULL with --no-store; *failed when it cannot be opened
 * (said now; the run goes on and fails once it has printed). */
static struct store *store_begin_meta(const struct meta_opts *o, bool *failed)
{
	struct store *st = NULL;
	char *path = NULL;
	*failed = false;
	if (o->no_store)
		return NULL;
	if (store_path_resolve(o->db, true, &path) < 0 || store_open(path, &st) < 0) {
		warning("the results of this meta run will be printed but not stored (--no-store "
			"runs without storing)");
		*failed = true;
		st = NULL;
	}
	free(path);
	return st;
}

/* Store the run as printed: 0, or 1 after saying it was not stored. */
static int store_meta_run(struct store *st, const struct run *R,
			  const struct store_renderings *rend, int status)
{
	const struct meta_opts *o = R->o;
	struct store_label *labels = xcalloc(o->nr_labels + 1, sizeof(*labels));
	const char **argv = xcalloc((size_t)R->argc + 2, sizeof(*argv));
	size_t nl = 0;
	int rc = 0;
	for (size_t i = 0; i < o->nr_labels && rc == 0; i++)
		if ((rc = store_label_parse(o->labels[i], &labels[nl])) == 0)
			nl++;
	argv[0] = "iobench-mpi";
	for (int i = 0; i < R->argc; i++)
		argv[i + 1] = R->argv[i];
	char *err = R->failed ? xasprintf("rank %d (%s) failed: %s", R->c->fail.rank,
					  R->c->fail.host, R->c->fail.msg) : NULL;
	const char *msg = err;
	struct store_run r = {
		.kind = STORE_KIND_META,
		.start_ms = R->start_ms,
		.end_ms = R->end_ms,
		.renderings = rend,
		.exit_status = status,
		.errors = msg ? &msg : NULL,
		.nr_errors = msg ? 1 : 0,
	};
	struct store_meta m = {
		.argv = argv,
		.argc = (size_t)R->argc + 1,
		.labels = labels,
		.nr_labels = nl,
		.rep_index = -1,
	};
	if (rc == 0)
		rc = store_put_run(st, &r, &m, NULL);
	if (rc < 0)
		error("the results above were not stored in '%s'", store_path(st));
	store_labels_free(labels, nl);
	free(argv);
	free(err);
	return rc < 0;
}

/* Rank 0's output (and its store, st: NULL for none): 0, or 1 when it
 * could not be written or stored. */
static int output(const struct run *R, struct store *st, bool store_failed, int status)
{
	struct store_renderings rend = { 0 };
	if (render(R, &rend) < 0) {
		store_renderings_release(&rend);
		error("iobench-mpi meta: cannot render the output");
		return 1;
	}
	const struct store_rendering *text = store_renderings_find(&rend, R->o->json ? "json" : "normal");
	FILE *out = stdout;
	if (R->o->output) {
		char why[512];
		int rc = devguard_fopen(R->o->output, false, &R->o->spec.guard, &out, why, sizeof(why));
		if (rc < 0) {
			error("iobench-mpi meta: cannot write '%s': %s", R->o->output, why);
			store_renderings_release(&rend);
			return 1;
		}
	}
	fwrite(text->text, 1, text->len, out);
	int bad = ferror(out) || fflush(out) != 0;
	if (out != stdout && fclose(out) != 0)
		bad = 1;
	if (bad)
		error("iobench-mpi meta: writing the output failed");
	if (store_failed) {
		error("the results above were not stored: the results database could not be used "
		      "(see the message before them)");
		bad = 1;
	} else if (st && store_meta_run(st, R, &rend, status || bad)) {
		bad = 1;
	}
	store_renderings_release(&rend);
	return bad;
}

int dist_meta_main(struct dist_comm *c, int argc, char **argv)
{
	bool root = c->rank == 0;
	struct meta_opts o = { 0 };
	if (parse(argc, argv, &o, &c->timeout_s, root) < 0) {
		free(o.labels);
		return 1; /* every rank has the same command line: all stop here */
	}
	if (o.help) {
		if (root)
			fputs(usage, stdout);
		free(o.labels);
		return 0;
	}
	struct run R = { .c = c, .o = &o, .argc = argc, .argv = argv, .began = time(NULL),
			 .start_ms = wall_time_ms() };
	char err[512];
	if (meta_spec_check(&o.spec, &R.t, err, sizeof(err)) < 0) {
		if (root)
			error("iobench-mpi meta: %s", err);
		free(o.labels);
		return 1;
	}
	bool store_failed = false;
	struct store *st = root ? store_begin_meta(&o, &store_failed) : NULL;
	unsigned iters = o.spec.iterations;
	R.agg = xcalloc(iters, sizeof(*R.agg));
	R.ranks = xcalloc((size_t)iters * (size_t)c->size, sizeof(*R.ranks));
	int status = 0;
	for (unsigned i = 0; i < iters && !R.failed; i++) {
		struct meta_result res;
		struct hook h = { .c = c, .res = &res, .iteration = i };
		struct meta_sync sync = { hook_fn, &h };
		int rc = meta_run(&o.spec, &R.t, c->rank, c->size, i, &sync, &res);
		R.failed = rc < 0 || c->failed;
		void **blobs = NULL;
		size_t *lens = NULL;
		if (dist_gather(c, &res, sizeof(res), &blobs, &lens) < 0)
			R.failed = true;
		if (root) {
			bool all = true;
			for (int r = 0; r < c->size; r++) {
				if (blobs[r] && lens[r] == sizeof(res))
					R.ranks[(size_t)i * c->size + r] = *(struct meta_result *)blobs[r];
				else
					all = false;
				free(blobs[r]);
			}
			free(blobs);
			free(lens);
			/* the figures of this iteration, as far as every rank sent them */
			if (all) {
				meta_aggregate(&R.t, &R.ranks[(size_t)i * c->size], c->size, R.agg[i]);
				R.done = i + 1;
			}
		}
	}
	R.finished = time(NULL);
	R.end_ms = wall_time_ms();
	if (R.failed) {
		status = 1;
		if (root)
			error("iobench-mpi meta: rank %d (%s) failed: %s", c->fail.rank, c->fail.host,
			      c->fail.msg);
	}
	if (root && output(&R, st, store_failed, status))
		status = 1;
	store_close(st);
	free(o.labels);
	free(R.agg);
	free(R.ranks);
	return status;
}
