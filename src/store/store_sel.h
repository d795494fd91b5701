/*
 * Selections of stored runs as the commands' operands name them (compare,
 * report, sweep report, results export): one word is
 *
 *   run ids     "12", "12,13", "12-15", "12,20-22": items separated by
 *               commas or spaces, each a positive decimal id or a range
 *               A-B with A <= B spanning at most 100001 ids;
 *   labels      "fs=xfs", "fs=xfs,chunk=64k": K=V items (store_label_parse)
 *               separated by commas or spaces, runs that carry all of them;
 *   a sweep     "sweep:ID", the points of sweep ID (only where the command
 *               takes it: STORE_SEL_SWEEP).
 *
 * A word with '=' in it is labels, one starting "sweep:" is a sweep, any
 * other is ids. Parsing needs no store; store_sel_resolve turns a parsed
 * word into the ids of the runs it names, among those a filter selects.
 */
#ifndef IOBENCH_STORE_STORE_SEL_H
#define IOBENCH_STORE_STORE_SEL_H

#include <stddef.h>
#include <stdint.h>

#include "compare/cmp_model.h"
#include "store/store.h"
#include "store/store_query.h"

/* Run ids in the order first added, each once. */
struct store_ids {
	int64_t *v;
	size_t n, alloc;
	int64_t max; /* the largest (an id above it is new: no search) */
};
void store_ids_add(struct store_ids *l, int64_t id);
void store_ids_release(struct store_ids *l);

/* The most ids a range A-B may span, less one (B - A). */
#define STORE_SEL_RANGE_MAX 100000

enum store_sel_kind {
	STORE_SEL_IDS,
	STORE_SEL_LABELS,
	STORE_SEL_SWEEP_ID,
};

/* store_sel_parse's flags */
enum {
	STORE_SEL_SWEEP = 1u << 0, /* "sweep:ID" is a word of its own */
};

struct store_sel_word {
	enum store_sel_kind kind;
	struct store_ids ids;        /* STORE_SEL_IDS: as written, each once */
	struct store_label *labels;  /* STORE_SEL_LABELS */
	size_t nr_labels;
	int64_t sweep_id;            /* STORE_SEL_SWEEP_ID */
};

/* A positive decimal id (digits only, no sign or space, no overflow) into
 * *id: 0, or -EINVAL (no message). */
int store_sel_parse_id(const char *s, int64_t *id);

/* Parse word into *w (zeroed first). 0, or -EINVAL after printing
 * "CMD: ..." naming the item and the word (cmd is the command's name). */
int store_sel_parse(const char *cmd, const char *word, unsigned flags, struct store_sel_word *w);
void store_sel_word_release(struct store_sel_word *w);

/* The word's short name for verdicts and legends (xmalloc'ed): "run 12",
 * "runs 12-15" (runs when it names more than one id), the label values
 * "xfs,64k", "sweep 3". */
char *store_sel_short_name(const struct store_sel_word *w, const char *word);

/* Add to out the runs w names: with base NULL, ids as written (whether
 * they exist is the loader's to say) and the runs that carry the labels
 * or are the sweep's points; with base, only those of the runs base
 * selects as well (its labels and w's all held). 0 or -errno. */
int store_sel_resolve(struct store *st, const struct store_sel_word *w,
		      const struct store_filter *base, struct store_ids *out);

/* Add to out every run base selects (NULL: every stored run). 0 or -errno. */
int store_sel_all(struct store *st, const struct store_filter *base, struct store_ids *out);

/* Run id from the store appended to runs. 0; -ENOENT after printing
 * "CMD: no run ID in the results database 'PATH'"; or -errno. */
int store_sel_load(struct store *st, const char *cmd, int64_t id, struct cmp_runs *runs);

#endif
