/*
 * A job's sleeps (job.h: job_wait_until, job_wait_for_jobs): the rate limit,
 * startdelay and wait_for all wait here, never in a plain sleep, so that a
 * stop request (a signal, a thread that could not start) ends them at once.
 * The wait is on the run's `wake` condition variable, which the main thread
 * broadcasts when it sees the stop flag (it looks every 100 ms) and every
 * finished job broadcasts too; a job outside a run (no run_sync) sleeps in
 * short slices and looks at the flag between them.
 */
#include "workload/job/job.h"

#define SLICE_NS (20 * NSEC_PER_MSEC)

static struct timespec abs_ts(uint64_t ns)
{
	return (struct timespec){ .tv_sec = (time_t)(ns / NSEC_PER_SEC),
				  .tv_nsec = (long)(ns % NSEC_PER_SEC) };
}

/* Wait until deadline (CLOCK_MONOTONIC ns), until done() says so, or until
 * the run stops. Returns true when the stop ended the wait. */
static bool wait_cond(struct job *j, uint64_t deadline, bool (*done)(const struct job *))
{
	if (!j->sync) {
		while (!job_stopping(j) && !(done && done(j))) {
			uint64_t now = now_ns();
			if (deadline && now >= deadline)
				break;
			uint64_t until = now + SLICE_NS;
			sleep_until_ns(deadline && deadline < until ? deadline : until);
		}
		return job_stopping(j);
	}
	struct run_sync *s = j->sync;
	pthread_mutex_lock(&s->lock);
	while (!job_stopping(j) && !(done && done(j))) {
		if (deadline && now_ns() >= deadline)
			break;
		/* without a deadline, still look at the flag every slice: the
		 * main thread's broadcast is the fast path, not the only one */
		uint64_t until = now_ns() + 100 * NSEC_PER_MSEC;
		struct timespec ts = abs_ts(deadline && deadline < until ? deadline : until);
		pthread_cond_timedwait(&s->wake, &s->lock, &ts);
	}
	bool st = job_stopping(j);
	pthread_mutex_unlock(&s->lock);
	return st;
}

bool job_wait_until(struct job *j, uint64_t deadline_ns)
{
	if (!deadline_ns)
		return !job_stopping(j); /* 0 is no deadline to wait_cond: nothing to wait for */
	return !wait_cond(j, deadline_ns, NULL);
}

static bool waited_jobs_done(const struct job *j)
{
	for (unsigned i = 0; i < j->nr_wait; i++)
		if (!atomic_load(&j->wait_jobs[i]->done_flag))
			return false;
	return true;
}

bool job_wait_for_jobs(struct job *j)
{
	if (!j->nr_wait)
		return !job_stopping(j);
	return !wait_cond(j, 0, waited_jobs_done);
}

void run_sync_stop(struct run_sync *s)
{
	pthread_mutex_lock(&s->lock);
	s->stopping = true;
	pthread_cond_broadcast(&s->wake);
	pthread_mutex_unlock(&s->lock);
}
