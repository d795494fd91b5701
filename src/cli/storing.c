/*
 * The commands' side of the results store (cli/storing.h): opening it with
 * the shared --db, --no-store and --label options (invoked as `fio`, only
 * with --db or IOBENCH_DB), and storing a result
 * with the command line it came from. A store whose header says it is
 * ready (store_ready) is opened only when the first result is stored: its
 * SQLite code and page cache then never share the memory with the run's
 * threads (1 MiB of a 64-thread null run's peak RSS). The
 * commands that read it open it when they need it, never creating it.
 */
#include "cli/storing.h"

#include <errno.h>
#include <malloc.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "util/error.h"
#include "util/timeutil.h"
#include "util/xmalloc.h"

int cmd_store_open(struct cmd_ctx *ctx, const struct cmd_common *common)
{
	char *path = NULL;
	if (common->no_store)
		return 0;
	/* as fio (a harness driving "fio"), the database is opt-in: only a
	 * --db or IOBENCH_DB it was given stores the results */
	const char *env = getenv("IOBENCH_DB");
	if (ctx->as_fio && !common->db && !(env && *env))
		return 0;
	if (common->labels.n) {
		ctx->labels = xcalloc(common->labels.n, sizeof(*ctx->labels));
		for (size_t i = 0; i < common->labels.n; i++) {
			if (store_label_parse(common->labels.v[i], &ctx->labels[i]) < 0)
				return -1; /* checked when parsed: cannot happen */
			ctx->nr_labels++;
		}
	}
	if (store_path_resolve(common->db, true, &path) == 0 && store_ready(path)) {
		ctx->store_later = path;
		return 0;
	}
	if (!path || store_open(path, &ctx->store) < 0 || store_limit_cache(ctx->store) < 0) {
		/* the measurement is not given up for it: it is printed, then
		 * the command fails */
		warning("the results of this %s will be printed but not stored (--no-store runs "
			"without storing)", ctx->cmd->name);
		ctx->store_failed = true;
	}
	free(path);
	return 0;
}

void cmd_store_reads(struct cmd_ctx *ctx, const struct cmd_common *common)
{
	free(ctx->store_db);
	ctx->store_db = common->db ? xstrdup(common->db) : NULL;
}

int cmd_store_read(struct cmd_ctx *ctx, const char *missing)
{
	char *path;
	struct stat sb;
	if (ctx->store)
		return 0;
	if (store_path_resolve(ctx->store_db, false, &path) < 0)
		return -1;
	int rc = 0;
	if (stat(path, &sb) < 0 && errno == ENOENT) {
		if (missing)
			rc = error("%s: no results stored yet (no database '%s')%s", ctx->cmd->name,
				   path, missing);
	} else if (store_open(path, &ctx->store) < 0) {
		rc = -1;
	}
	free(path);
	return rc;
}

void cmd_store_close(struct cmd_ctx *ctx)
{
	store_close(ctx->store);
	ctx->store = NULL;
	free(ctx->store_db);
	ctx->store_db = NULL;
	free(ctx->store_later);
	ctx->store_later = NULL;
	store_labels_free(ctx->labels, ctx->nr_labels);
	ctx->labels = NULL;
	ctx->nr_labels = 0;
}

/* A point of `iobench sweep` runs this binary with the sweep's id and the
 * point's labels in the environment (sweep/sweep_exec.c): its runs are
 * stored as that sweep's. */
static void sweep_from_env(struct store_meta *m)
{
	const char *id = getenv("IOBENCH_SWEEP_ID");
	char *end;
	if (!id || !*id)
		return;
	long long v = strtoll(id, &end, 10);
	if (*end || v <= 0)
		return;
	m->sweep_id = v;
	m->sweep_point = getenv("IOBENCH_SWEEP_POINT");
}

/* Open the store store_ready took at the start; false when it cannot be
 * (store_open said why). */
static bool open_later(struct cmd_ctx *ctx)
{
	bool ok = store_open(ctx->store_later, &ctx->store) == 0 && store_limit_cache(ctx->store) == 0;
	if (!ok) {
		store_close(ctx->store);
		ctx->store = NULL;
		ctx->store_failed = true;
	}
	free(ctx->store_later);
	ctx->store_later = NULL;
	return ok;
}

void cmd_store_open_now(struct cmd_ctx *ctx)
{
	if (ctx->store_later && !open_later(ctx))
		warning("the results of this %s will be printed but not stored (--no-store runs "
			"without storing)", ctx->cmd->name);
}

int cmd_store_put(struct cmd_ctx *ctx, const struct store_run *r, const struct store_meta *extra,
		  int64_t *id)
{
	if (id)
		*id = 0;
	if (ctx && ctx->store_later) {
		/* the run's memory freed by now goes back to the system first
		 * (free() keeps the pages of the heap's holes), so that
		 * SQLite's takes their place rather than adding to it */
		malloc_trim(0);
		open_later(ctx);
	}
	if (ctx && ctx->store_failed) {
		error("the results above were not stored: the results database could not be used "
		      "(see the message before them)");
		return -1;
	}
	if (!ctx || !ctx->store)
		return 0;
	const char **argv = xcalloc((size_t)ctx->argc + 1, sizeof(*argv));
	argv[0] = "iobench";
	for (int i = 0; i < ctx->argc; i++)
		argv[i + 1] = ctx->argv[i];
	struct store_meta m = {
		.rep_index = -1,
	};
	if (extra)
		m = *extra;
	if (!m.sweep_id)
		sweep_from_env(&m);
	m.argv = argv;
	m.argc = (size_t)ctx->argc + 1;
	m.labels = ctx->labels;
	m.nr_labels = ctx->nr_labels;
	int rc = store_put_run(ctx->store, r, &m, id);
	free(argv);
	if (rc < 0) {
		error("the results above were not stored in '%s'", store_path(ctx->store));
		return -1;
	}
	return 0;
}

bool cmd_store_wanted(const struct cmd_ctx *ctx)
{
	return ctx && (ctx->store || ctx->store_later || ctx->store_failed);
}
