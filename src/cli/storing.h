/*
 * The results store as the commands use it (store/store.h): the
 * dispatcher's hooks that open it once the options are parsed (--db,
 * IOBENCH_DB or the default; none with --no-store, and invoked as `fio`
 * none without --db or IOBENCH_DB) and close it after the
 * command, and the one call a workload command makes once its results are
 * printed, which stores them with the command line and the --label values
 * and, when that fails, says so on stderr: the measurement was printed,
 * only the storing failed, and the command's exit status becomes 1. A
 * database that cannot be opened is said at the start; the command runs
 * anyway and fails the same way once it has printed its results. The
 * commands that only read it (compare, report, results) open it through
 * cmd_store_read, without creating it.
 */
#ifndef IOBENCH_CLI_STORING_H
#define IOBENCH_CLI_STORING_H

#include "cli/command.h"
#include "store/store.h"

/* The hooks of CMD_OPENS_STORE (commands.c). 0, or -1 after printing why. */
int cmd_store_open(struct cmd_ctx *ctx, const struct cmd_common *common);
void cmd_store_close(struct cmd_ctx *ctx);
/* CMD_READS_STORE once parsed: keep the --db of common in ctx. */
void cmd_store_reads(struct cmd_ctx *ctx, const struct cmd_common *common);
/*
 * CMD_READS_STORE: the database in ctx->store, opened at the first call
 * (never created). One that is not there yet is an empty one (0, and
 * ctx->store NULL) when missing is NULL; otherwise it is refused with
 * "NAME: no results stored yet (no database 'PATH')" and missing after it
 * ("; store runs with ..."). 0, or -1 after printing why.
 */
int cmd_store_read(struct cmd_ctx *ctx, const char *missing);

/* Open now a store that cmd_store_open left for the first result (before
 * a command gives up the rights it was opened with: bonnie -u). */
void cmd_store_open_now(struct cmd_ctx *ctx);

/* Store r with ctx's command line and labels (and rep_group/rep_index/sweep
 * from extra when not NULL; its argv and labels are ignored), if ctx has a
 * store. Call after the results were printed. 0 (stored, or no store), or
 * -1 after printing that the results were not stored. *id gets the run's
 * id (0 when not stored); id may be NULL. */
int cmd_store_put(struct cmd_ctx *ctx, const struct store_run *r, const struct store_meta *extra,
		  int64_t *id);

/* Does ctx want its results stored (a store, or one that failed to open,
 * which cmd_store_put reports)? */
bool cmd_store_wanted(const struct cmd_ctx *ctx);

#endif
