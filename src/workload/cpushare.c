/*
 * A batch's CPU share (cpushare.h): count the sessions fio would use, and
 * follow the process's busy threads with the autogroup's weight.
 */
#include "workload/cpushare.h"

#include <string.h>

#include "util/timeutil.h"

#define MIN_INTERVAL_NS (20 * NSEC_PER_MSEC)

unsigned cpushare_sessions(const struct job *jobs, size_t n)
{
	unsigned procs = 0;
	bool threads = false;
	for (size_t i = 0; i < n; i++) {
		if (jobs[i].spec->thread)
			threads = true;
		else
			procs++;
	}
	return procs + (threads ? 1 : 0);
}

static void set_nice(struct cpushare *cs, int want)
{
	if (want == cs->nice)
		return;
	if (autogroup_nice_set(want) < 0) {
		/* no CAP_SYS_NICE: the batch runs with one session's share */
		cs->active = false;
		return;
	}
	cs->nice = want;
	cs->changed = true;
}

static void sample(struct cpushare *cs, uint64_t now_ns)
{
	int n = autogroup_tasks_busy(cs->tasks, CPUSHARE_MAX_TASKS);
	cs->nr_tasks = n > 0 ? (unsigned)n : 0;
	cs->last_ns = now_ns;
}

void cpushare_begin(struct cpushare *cs, const struct job *jobs, size_t n, uint64_t now_ns)
{
	memset(cs, 0, sizeof(*cs));
	cs->sessions = cpushare_sessions(jobs, n);
	int cur;
	if (cs->sessions <= 1 || autogroup_nice_get(&cur) < 0)
		return;
	int want = autogroup_nice_for(cs->sessions);
	if (want >= cur)
		return; /* already weighs as much: leave the user's setting */
	cs->active = true;
	cs->saved = cs->nice = cur;
	sample(cs, now_ns);
	set_nice(cs, want);
}

void cpushare_update(struct cpushare *cs, uint64_t now_ns)
{
	if (!cs->active || now_ns < cs->last_ns + MIN_INTERVAL_NS)
		return;
	struct task_busy prev[CPUSHARE_MAX_TASKS];
	unsigned nprev = cs->nr_tasks;
	uint64_t dt = now_ns - cs->last_ns;
	memcpy(prev, cs->tasks, nprev * sizeof(*prev));
	sample(cs, now_ns);
	/* Each thread counts as the square of the share of the interval it
	 * spent running or runnable: a thread busy all the time weighs one
	 * session, as a busy fio job does; one that is mostly asleep (waiting
	 * for its I/O) counts little, because in one group the threads that
	 * happen to be runnable would take the weight of those asleep, a share
	 * fio's sleeping job processes do not pass on. A thread new since the
	 * last sample was busy only in this interval; one that ended is gone. */
	double runnable = 0;
	for (unsigned i = 0; i < cs->nr_tasks; i++) {
		unsigned long long was = 0;
		for (unsigned k = 0; k < nprev; k++)
			if (prev[k].tid == cs->tasks[i].tid) {
				was = prev[k].ns;
				break;
			}
		double b = cs->tasks[i].ns > was ? (double)(cs->tasks[i].ns - was) / (double)dt : 0;
		if (b > 1)
			b = 1;
		runnable += b * b;
	}
	if (runnable < 1)
		runnable = 1;
	if (runnable > cs->sessions)
		runnable = cs->sessions;
	int want = autogroup_nice_for(runnable);
	if (want > cs->saved)
		want = cs->saved; /* never below the user's own weight */
	set_nice(cs, want);
}

void cpushare_end(struct cpushare *cs)
{
	if (cs->changed)
		autogroup_nice_set(cs->saved);
	cs->changed = false;
	cs->active = false;
}
