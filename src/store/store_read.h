/*
 * What the report (html/) reads from a stored run beyond the compare model
 * (store_model.h): the machine around it as the JSON the reporters wrote
 * (sysinfo, monitor series, warnings with their evidence) and its latency
 * histograms, decoded (store_hist.h), with the name of their job.
 */
#ifndef IOBENCH_STORE_STORE_READ_H
#define IOBENCH_STORE_STORE_READ_H

#include <stdint.h>

#include "store/store.h"
#include "store/store_hist.h"

/* The run_env JSON of run id (*json xmalloc'ed). 0, -ENOENT (no message)
 * when the run has none, or -errno after printing why. */
int store_env_get(struct store *st, int64_t id, char **json);

/* One stored histogram of a run. */
struct store_hist_row {
	int job_idx;
	const char *job_name;  /* "" when the job is not in the jobs table */
	const char *direction; /* read, write, trim; a bonnie phase */
	const char *name;      /* slat, clat, lat */
	const struct store_hist *hist;
};
/* Call fn for each histogram of run id, in job, direction and name order;
 * a blob that does not decode is skipped. 0, fn's non-zero return, or
 * -errno after printing why. */
int store_hists_each(struct store *st, int64_t id,
		     int (*fn)(void *arg, const struct store_hist_row *row), void *arg);

#endif
