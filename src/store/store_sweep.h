/*
 * Sweeps in the results store (schema step 4): one row per `iobench sweep`
 * (its plan file's path and text, the design, the goal as written, the seed
 * of the run order, the factor names in plan order, its state and times)
 * and one row per point of it (its place in the run order, its labels, its
 * state and, when it failed, why). The runs a point made are ordinary runs
 * with runs.sweep_id set to the sweep's id and runs.sweep_point to the
 * point's labels: store_select() with store_filter.sweep_id lists them.
 * Functions print what failed and return 0 or -errno.
 */
#ifndef IOBENCH_STORE_STORE_SWEEP_H
#define IOBENCH_STORE_STORE_SWEEP_H

#include <stddef.h>
#include <stdint.h>

#include "store/store.h"

/* A sweep's state. */
#define STORE_SWEEP_RUNNING "running"
#define STORE_SWEEP_DONE "done"
#define STORE_SWEEP_INTERRUPTED "interrupted"
#define STORE_SWEEP_FAILED "failed"

struct store_sweep {
	int64_t id;
	char *plan_path;   /* the plan file's absolute path */
	char *plan;        /* the plan's text */
	char *design;      /* "full", "ofat", "lhs:8", "race" */
	char *goal;        /* as written after goal =, or NULL */
	uint64_t seed;
	char **factors;    /* the factor names, in plan order */
	size_t nr_factors;
	char *state;       /* STORE_SWEEP_* */
	char *host;
	int64_t start_ms, end_ms; /* end_ms < 0: not ended */
};

/* A point's state. */
#define STORE_POINT_PENDING "pending"
#define STORE_POINT_RUNNING "running"
#define STORE_POINT_DONE "done"
#define STORE_POINT_FAILED "failed"

struct store_sweep_point {
	size_t idx;        /* its place in the run order */
	char *point;       /* "fs=xfs read_ahead_kb=128" */
	char *state;       /* STORE_POINT_* */
	char *message;     /* why it failed, or NULL */
	int64_t start_ms, end_ms; /* < 0: not yet */
};

/* Store a new sweep from in (its id, state, host and end are ignored:
 * state running, this host, not ended) with its points pending (points[i]
 * is the labels of the point at place i); its id in *id. One transaction. */
int store_sweep_new(struct store *st, const struct store_sweep *in, const char *const *points,
		    size_t nr_points, int64_t *id);
/* The sweep's state becomes state; end_ms >= 0 sets its end. */
int store_sweep_set_state(struct store *st, int64_t id, const char *state, int64_t end_ms);
/* Point idx of sweep id: state, message (NULL: none) and its start or end
 * (ms since the epoch; < 0 leaves it). */
int store_sweep_point_set(struct store *st, int64_t id, size_t idx, const char *state,
			  const char *message, int64_t start_ms, int64_t end_ms);
/* Sweep id into *out (release with store_sweep_release): 0, -ENOENT
 * (no message) when there is none, or -errno. */
int store_sweep_get(struct store *st, int64_t id, struct store_sweep *out);
void store_sweep_release(struct store_sweep *s);
/* The points of sweep id in run order into *v (free with
 * store_sweep_points_free). */
int store_sweep_points(struct store *st, int64_t id, struct store_sweep_point **v, size_t *n);
void store_sweep_points_free(struct store_sweep_point *v, size_t n);

#endif
