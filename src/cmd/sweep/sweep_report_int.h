/*
 * `iobench sweep report`: the analysis of a sweep's runs, or of any stored
 * runs by their labels (sweep/sweep_analysis.h), as text or JSON. The
 * sweep command (cmd/sweep/sweep.c) hands its "report" subcommand here:
 *     if (argc >= 2 && !strcmp(argv[1], "report"))
 *             return sweep_report_main(ctx, argc - 1, argv + 1);
 * and a sweep that ends calls sweep_report_sweep for its analysis.
 */
#ifndef IOBENCH_CMD_SWEEP_SWEEP_REPORT_INT_H
#define IOBENCH_CMD_SWEEP_SWEEP_REPORT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/command.h"

struct store;

/* argv[0] is "report"; parses its own options (--goal, --factors,
 * --output-format, --db, --label, --since, --host, --help) and opens the
 * store itself (ctx->store is not used). Returns the exit status. */
int sweep_report_main(struct cmd_ctx *ctx, int argc, char **argv);

/* Its usage, as `iobench sweep report --help` prints it. */
extern const struct command cmd_sweep_report;

/*
 * The analysis of the runs of sweep sweep_id in st on goal (a goal text:
 * sweep/sweep_goal.h), over factors[0..nf) or, with nf 0, the factors its
 * runs' points name (runs.sweep_point: each K=V of it that is also a
 * label of the run), to out as text or JSON. 0, or -1 after printing why.
 */
int sweep_report_sweep(struct store *st, int64_t sweep_id, const char *goal,
		       const char *const *factors, size_t nf, bool json, FILE *out);

#endif
