/*
 * Inside `iobench results` (results.c dispatches; results_export.c
 * exports): the parsed command line every subcommand gets, the open store,
 * and the helpers both halves use.
 */
#ifndef IOBENCH_CMD_RESULTS_RESULTS_INT_H
#define IOBENCH_CMD_RESULTS_RESULTS_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/cmdopt.h"
#include "cli/common_opts.h"
#include "store/store_query.h"
#include "store/store_sel.h"

struct results_cmdline {
	const char *since;          /* --since DATE */
	const char *host;           /* --host H */
	bool json;                  /* list --json */
	const char *format;         /* export --format csv|json */
	struct cmdopt_list words;   /* the operands after the subcommand */
};

/* The selection of list and export: --label, --since, --host, and operands
 * that are run ids, ranges and K=V labels as compare takes them
 * (store/store_sel.h; export only). f points into the returned arrays
 * (ids, *labels), released by results_filter_release. 0, or -1 after
 * printing why. */
struct results_filter {
	struct store_filter f;
	struct store_ids ids;
	struct store_label *labels;
	size_t nr_labels;
};
int results_filter_build(const struct results_cmdline *r, const struct cmd_common *c,
			 bool operands, struct results_filter *out);
void results_filter_release(struct results_filter *rf);

/* A run id operand: 0, or -1 after printing why. */
int results_parse_id(const char *word, int64_t *id);
/* ms since the epoch as "2026-12-01T11:40:32.123Z". */
void results_iso_time(int64_t ms, char *buf, size_t len);

/* `results export`: the rows of the runs rf selects in csv or json. */
int results_export(struct store *st, const struct results_filter *rf, const char *format,
		   FILE *out);

/* `results import FILE...` (results_import.c): the exit status. */
int results_import(const struct results_cmdline *r, const struct cmd_common *c);

#endif
