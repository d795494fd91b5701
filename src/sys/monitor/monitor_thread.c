/*
 * The sampler thread of monitor.h. It waits on a condition variable bound
 * to CLOCK_MONOTONIC with absolute deadlines first + k * interval, so the
 * intervals do not drift and monitor_stop() wakes it at once; a deadline
 * missed (a stalled machine) is skipped, not caught up. The thread blocks
 * every signal, so SIGINT reaches the workload's thread. monitor_mark()
 * has it take one sample out of turn (a workload's phase starts or ends)
 * without moving the regular deadlines, and returns at once with the index
 * that sample will have: the workload does not wait the millisecond a
 * sample takes to read. Marks asked before the thread starts reading are
 * served by one sample; the thread serves every mark before it stops, and
 * monitor_stop() takes a last sample unless the newest served a mark less
 * than STOP_REUSE_NS ago (a run's last mark is its end already).
 */
#include "sys/monitor/monitor.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/timeutil.h"
#include "util/xmalloc.h"

#define STOP_REUSE_NS (20 * 1000000ull) /* see monitor_stop() */

struct monitor {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	bool stop;
	/* marks asked and marks served; a sample serves every mark asked
	 * before it began to be read */
	unsigned long marks_asked, marks_served;
	bool reading;       /* a sample is being read, outside the lock */
	bool newest_marked; /* the newest sample served a mark */
	int error;
	struct monitor_probe probe;
	struct monitor_series series;   /* appended under lock */
	struct monitor_sample scratch;  /* the thread's sample being read */
	struct diskstat *scratch_disks;
};

static struct timespec to_timespec(uint64_t ns)
{
	return (struct timespec){ .tv_sec = (time_t)(ns / NSEC_PER_SEC),
				  .tv_nsec = (long)(ns % NSEC_PER_SEC) };
}

static void *sampler_main(void *arg)
{
	struct monitor *m = arg;
	uint64_t interval = m->series.interval_ns;
	uint64_t deadline = m->series.samples[0].t_ns + interval;

	pthread_mutex_lock(&m->lock);
	for (;;) {
		bool owed = m->marks_asked != m->marks_served;
		if (m->stop && !owed)
			break;
		struct timespec ts = to_timespec(deadline);
		if (!owed && !m->stop) /* a mark asked while a sample was being read */
			pthread_cond_timedwait(&m->wake, &m->lock, &ts);
		owed = m->marks_asked != m->marks_served;
		if (m->stop && !owed)
			break;
		if (!owed && now_ns() < deadline)
			continue; /* spurious wake-up */
		unsigned long serves = m->marks_asked;
		m->reading = true;
		pthread_mutex_unlock(&m->lock);
		int ret = monitor_probe_take(&m->probe, &m->scratch, m->scratch_disks);
		pthread_mutex_lock(&m->lock);
		m->reading = false;
		if (ret) {
			m->error = ret;
			break;
		}
		monitor_series_add(&m->series, &m->scratch, m->scratch_disks);
		m->newest_marked = serves != m->marks_served;
		m->marks_served = serves;
		if (owed && now_ns() < deadline)
			continue;
		uint64_t now = now_ns();
		deadline += interval;
		while (deadline <= now)
			deadline += interval;
	}
	pthread_mutex_unlock(&m->lock);
	return NULL;
}

static void monitor_free(struct monitor *m)
{
	pthread_cond_destroy(&m->wake);
	pthread_mutex_destroy(&m->lock);
	monitor_probe_close(&m->probe);
	monitor_series_release(&m->series);
	free(m->scratch_disks);
	free(m);
}

int monitor_start(struct monitor **out, const char *const *devs, unsigned ndev,
		  uint64_t interval_ns)
{
	struct monitor *m = xcalloc(1, sizeof(*m));
	pthread_condattr_t attr;
	sigset_t all, old;
	int ret;

	pthread_mutex_init(&m->lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&m->wake, &attr);
	pthread_condattr_destroy(&attr);
	ret = monitor_probe_open(&m->probe, devs, ndev);
	if (ret) {
		free(m->scratch_disks);
		pthread_cond_destroy(&m->wake);
		pthread_mutex_destroy(&m->lock);
		free(m);
		return ret;
	}
	monitor_series_init(&m->series, &m->probe,
			    interval_ns ? interval_ns : MONITOR_DEFAULT_INTERVAL_NS);
	m->scratch_disks = xcalloc(m->probe.ndev ? m->probe.ndev : 1, sizeof(*m->scratch_disks));
	ret = monitor_probe_take(&m->probe, &m->scratch, m->scratch_disks);
	if (ret) {
		monitor_free(m);
		return error_errno(ret, "cannot take the first monitor sample");
	}
	monitor_series_add(&m->series, &m->scratch, m->scratch_disks);
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ret = -pthread_create(&m->thread, NULL, sampler_main, m);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret) {
		monitor_free(m);
		return error_errno(ret, "cannot start the monitor thread");
	}
	*out = m;
	return 0;
}

int monitor_stop(struct monitor *m, struct monitor_series *series)
{
	int ret;

	pthread_mutex_lock(&m->lock);
	m->stop = true;
	pthread_cond_signal(&m->wake);
	pthread_mutex_unlock(&m->lock);
	pthread_join(m->thread, NULL);
	ret = m->error;
	/* the newest sample is the end when a mark asked for it (the last
	 * phase's end) this recently: one more would read the same machine
	 * a millisecond later */
	bool fresh = m->newest_marked && m->series.n > 1 &&
		     now_ns() - m->series.samples[m->series.n - 1].t_ns < STOP_REUSE_NS;
	if (!ret && !fresh) {
		ret = monitor_probe_take(&m->probe, &m->scratch, m->scratch_disks);
		if (!ret)
			monitor_series_add(&m->series, &m->scratch, m->scratch_disks);
	}
	*series = m->series;
	memset(&m->series, 0, sizeof(m->series));
	monitor_free(m);
	return ret;
}

long monitor_mark(struct monitor *m)
{
	long index = -1;

	pthread_mutex_lock(&m->lock);
	if (!m->stop && !m->error) {
		/* the sample being read began before this call: the next one */
		index = (long)m->series.n + (m->reading ? 1 : 0);
		m->marks_asked++;
		pthread_cond_signal(&m->wake);
	}
	pthread_mutex_unlock(&m->lock);
	return index;
}

size_t monitor_latest(struct monitor *m, struct monitor_sample *s, struct diskstat *disks)
{
	size_t n;

	pthread_mutex_lock(&m->lock);
	n = m->series.n;
	if (n) {
		*s = m->series.samples[n - 1];
		memcpy(disks, monitor_series_disks(&m->series, n - 1),
		       m->series.ndev * sizeof(*disks));
	}
	pthread_mutex_unlock(&m->lock);
	return n;
}

unsigned monitor_ndev(const struct monitor *m)
{
	return m->probe.ndev;
}
