/*
 * Interval sampler (fio's bwavgtime/iopsavgtime). Once at least interval_ns
 * has passed since the last sample, the counter's growth since then becomes
 * one rate sample in units per second over the time actually elapsed, and
 * the sample point moves to now. A late call therefore gives one sample over
 * a longer span, as fio does, not several copies of the same rate.
 */
#include "stats/sampler.h"

void sampler_init(struct sampler *s, uint64_t interval_ns, uint64_t now_ns, uint64_t value)
{
	s->interval_ns = interval_ns;
	s->last_ns = now_ns;
	s->last_value = value;
	runstat_init(&s->rate);
}

void sampler_update(struct sampler *s, uint64_t now_ns, uint64_t value)
{
	if (now_ns <= s->last_ns)
		return;
	uint64_t spent = now_ns - s->last_ns;
	if (spent < s->interval_ns)
		return;
	uint64_t delta = value >= s->last_value ? value - s->last_value : 0;
	runstat_add(&s->rate, (double)delta * 1e9 / (double)spent);
	s->last_ns = now_ns;
	s->last_value = value;
}
