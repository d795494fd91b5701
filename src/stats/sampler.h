/*
 * Interval sampler for bandwidth and IOPS: every `interval_ns` of job time it
 * turns the bytes and I/Os done since the last sample into a rate and feeds
 * it to a runstat (fio's bwavgtime/iopsavgtime). Constant memory.
 */
#ifndef IOBENCH_STATS_SAMPLER_H
#define IOBENCH_STATS_SAMPLER_H

#include <stdint.h>

#include "stats/runstat.h"

struct sampler {
	uint64_t interval_ns;
	uint64_t last_ns;     /* time of the last sample */
	uint64_t last_value;  /* counter value at the last sample */
	struct runstat rate;  /* samples in units per second */
};

void sampler_init(struct sampler *s, uint64_t interval_ns, uint64_t now_ns, uint64_t value);
/* Call with the current counter; adds a sample for each elapsed interval. */
void sampler_update(struct sampler *s, uint64_t now_ns, uint64_t value);

#endif
