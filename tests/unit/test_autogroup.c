/*
 * Autogroup weights for fio's one-session-per-job CPU share: parsing
 * /proc/PID/autogroup text, the nice picked for N sessions (nearest kernel
 * weight), the sessions a batch counts (process jobs one each, `thread` jobs
 * one together), and, where autogroups are on and we may lower nice, that a
 * batch of five jobs raises the weight for its duration and puts it back,
 * and that the weight follows the threads that are busy.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "sys/autogroup.h"
#include "workload/cpushare.h"

static void test_parse(void)
{
	int n = 99;
	CHECK(autogroup_parse("/autogroup-49 nice 0\n", &n) == 0 && n == 0, "n=%d", n);
	CHECK(autogroup_parse("/autogroup-7 nice -7\n", &n) == 0 && n == -7, "n=%d", n);
	CHECK(autogroup_parse("/autogroup-7 nice 19", &n) == 0 && n == 19, "n=%d", n);
	CHECK(autogroup_parse("/autogroup-7 nice 20", &n) == -EINVAL, "out of range");
	CHECK(autogroup_parse("autogroup nice 0", &n) == -EINVAL, "bad prefix");
	CHECK(autogroup_parse("/autogroup-3 nice x", &n) == -EINVAL, "no number");
}

static void test_nice_for(void)
{
	CHECK(autogroup_nice_for(0) == 0, "0 sessions");
	CHECK(autogroup_nice_for(1) == 0, "1 session");
	CHECK(autogroup_nice_for(2) == -3, "2: weight 1991 nearest 2048, got %d", autogroup_nice_for(2));
	CHECK(autogroup_nice_for(5) == -7, "5: weight 4904 nearest 5120, got %d", autogroup_nice_for(5));
	CHECK(autogroup_nice_for(10) == -10, "10: weight 9548, got %d", autogroup_nice_for(10));
	CHECK(autogroup_nice_for(1000) == -20, "bounded at -20, got %d", autogroup_nice_for(1000));
	for (unsigned s = 1; s < 90; s++)
		CHECK(autogroup_nice_for(s + 1) <= autogroup_nice_for(s), "monotonic at %u", s);
}

static void test_sessions(void)
{
	struct job_spec specs[6];
	struct job jobs[6];
	memset(specs, 0, sizeof(specs));
	memset(jobs, 0, sizeof(jobs));
	for (int i = 0; i < 6; i++)
		jobs[i].spec = &specs[i];
	CHECK(cpushare_sessions(jobs, 5) == 5, "five process jobs");
	specs[1].thread = specs[3].thread = true;
	CHECK(cpushare_sessions(jobs, 5) == 4, "three processes and one session for two threads");
	for (int i = 0; i < 6; i++)
		specs[i].thread = true;
	CHECK(cpushare_sessions(jobs, 6) == 1, "all threads: one session");
}

static void test_batch(void)
{
	int before, during = 99, after = 99;
	if (autogroup_nice_get(&before) < 0 || geteuid() != 0) {
		printf("skip: autogroups off or not root, batch weight not tried\n");
		return;
	}
	struct job_spec specs[5];
	struct job jobs[5];
	memset(specs, 0, sizeof(specs));
	memset(jobs, 0, sizeof(jobs));
	for (int i = 0; i < 5; i++)
		jobs[i].spec = &specs[i];
	struct cpushare cs;
	cpushare_begin(&cs, jobs, 5, 0);
	CHECK(autogroup_nice_get(&during) == 0, "read during");
	bool changed = cs.changed;
	cpushare_end(&cs);
	CHECK(autogroup_nice_get(&after) == 0, "read after");
	if (before > -7)
		CHECK(changed && during == -7 && cs.nice == -7, "five jobs: nice -7, got %d", during);
	else
		CHECK(!changed && during == before, "already weighs more: left alone");
	CHECK(after == before, "put back: %d, was %d", after, before);
}

static atomic_bool spin_on;

static void *spin(void *arg)
{
	while (atomic_load(&spin_on))
		;
	return NULL;
}

static void sleep_ms(unsigned ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) < 0)
		;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* The weight follows the busy threads: four spinning threads (running or
 * waiting for a CPU all the time) weigh four sessions, and once they stop,
 * the weight falls back to the user's. */
static void test_follow(void)
{
	int before, n = 99;
	if (autogroup_nice_get(&before) < 0 || geteuid() != 0 || before != 0) {
		printf("skip: autogroups off, not root or nice not 0: weight following not tried\n");
		return;
	}
	struct job_spec specs[5];
	struct job jobs[5];
	memset(specs, 0, sizeof(specs));
	memset(jobs, 0, sizeof(jobs));
	for (int i = 0; i < 5; i++)
		jobs[i].spec = &specs[i];
	struct cpushare cs;
	cpushare_begin(&cs, jobs, 5, mono_ns());
	pthread_t t[4];
	atomic_store(&spin_on, true);
	for (int i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, spin, NULL);
	sleep_ms(200);
	cpushare_update(&cs, mono_ns());
	autogroup_nice_get(&n);
	CHECK(n == autogroup_nice_for(4) || n == autogroup_nice_for(5),
	      "four busy threads weigh four sessions: nice %d (want %d)", n, autogroup_nice_for(4));
	atomic_store(&spin_on, false);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	sleep_ms(200);
	cpushare_update(&cs, mono_ns());
	autogroup_nice_get(&n);
	CHECK(n == 0, "idle threads weigh one session: nice %d", n);
	cpushare_end(&cs);
	autogroup_nice_get(&n);
	CHECK(n == before, "put back");
}

int main(void)
{
	test_parse();
	test_nice_for();
	test_sessions();
	test_batch();
	test_follow();
	return check_done("test_autogroup");
}
