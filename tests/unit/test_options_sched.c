/*
 * The scheduling and clock options: cpus_allowed / cpumask (the later one
 * wins, CPUs that do not exist are errors at file:line:col), the policy,
 * nice / prio / prioclass ranges and "not set", clocksource names,
 * gtod_reduce switching the disable_* options, disable_bw as an alias, and
 * deep copy of the new strings; job_sched_apply() binding a thread under
 * both policies and setting its nice value and I/O priority.
 */
#include "check.h"
#include "jobfile/jobfile.h"
#include "sys/affinity.h"
#include "util/clock.h"
#include "spec/options.h"
#include "workload/jobsched_int.h"
#include "spec/options_sched.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int set(struct job_spec *s, const char *k, const char *v, char *why, size_t len)
{
	why[0] = 0;
	return option_set(s, k, v, why, len);
}

static void test_cpus(void)
{
	struct job_spec s;
	char why[512], big[32];
	cpu_set_t cs;
	unsigned n = cpus_configured();
	job_spec_defaults(&s);
	CHECK(!s.cpus_allowed && !s.cpumask && !s.cpus_allowed_split, "defaults: no binding, shared");
	CHECK(job_spec_cpuset(&s, &cs, why, sizeof(why)) == 0, "no set: 0");
	CHECK(set(&s, "cpus_allowed", "0", why, sizeof(why)) == 0 && !strcmp(s.cpus_allowed, "0"), "cpus_allowed=0");
	CHECK(job_spec_cpuset(&s, &cs, why, sizeof(why)) == 1 && CPU_COUNT(&cs) == 1 && CPU_ISSET(0, &cs), "set {0}");
	CHECK(set(&s, "cpumask", "0x1", why, sizeof(why)) == 0 && !s.cpus_allowed && !strcmp(s.cpumask, "0x1"),
	      "cpumask after cpus_allowed replaces it");
	CHECK(job_spec_cpuset(&s, &cs, why, sizeof(why)) == 1 && CPU_ISSET(0, &cs), "mask {0}");
	CHECK(set(&s, "cpus_allowed", "0", why, sizeof(why)) == 0 && !s.cpumask, "and the other way round");
	snprintf(big, sizeof(big), "0-%u", n);
	int ret = set(&s, "cpus_allowed", big, why, sizeof(why));
	CHECK(ret == -ERANGE && strstr(why, "does not exist") && strstr(why, "cpus_allowed"), "%s: %d %s", big, ret, why);
	CHECK(!strcmp(s.cpus_allowed, "0"), "a bad value leaves the old one");
	CHECK(set(&s, "cpus_allowed", "x", why, sizeof(why)) == -EINVAL, "x: %s", why);
	CHECK(set(&s, "cpumask", "0", why, sizeof(why)) == -EINVAL, "cpumask=0: %s", why);
	CHECK(set(&s, "cpus_allowed_policy", "split", why, sizeof(why)) == 0 && s.cpus_allowed_split, "split");
	CHECK(set(&s, "cpus_allowed_policy", "shared", why, sizeof(why)) == 0 && !s.cpus_allowed_split, "shared");
	CHECK(set(&s, "cpus_allowed_policy", "spread", why, sizeof(why)) == -EINVAL, "spread: %s", why);

	struct job_spec c;
	job_spec_copy(&c, &s);
	CHECK(c.cpus_allowed && c.cpus_allowed != s.cpus_allowed && !strcmp(c.cpus_allowed, "0"), "deep copy");
	job_spec_release(&c);
	job_spec_release(&s);
}

static void test_prio(void)
{
	struct job_spec s;
	char why[512];
	job_spec_defaults(&s);
	CHECK(s.nice == 0 && s.ioprio == -1 && s.ioprio_class == -1, "defaults: nice 0, no I/O priority");
	CHECK(set(&s, "nice", "-20", why, sizeof(why)) == 0 && s.nice == -20, "nice=-20");
	CHECK(set(&s, "nice", "19", why, sizeof(why)) == 0 && s.nice == 19, "nice=19");
	CHECK(set(&s, "nice", "-21", why, sizeof(why)) == -ERANGE && s.nice == 19, "nice=-21: %s", why);
	CHECK(set(&s, "nice", "20", why, sizeof(why)) == -ERANGE, "nice=20");
	CHECK(set(&s, "nice", "1x", why, sizeof(why)) == -EINVAL, "nice=1x");
	CHECK(set(&s, "prio", "7", why, sizeof(why)) == 0 && s.ioprio == 7, "prio=7");
	CHECK(set(&s, "prio", "8", why, sizeof(why)) == -ERANGE, "prio=8: %s", why);
	CHECK(set(&s, "prio", "-1", why, sizeof(why)) == -ERANGE, "prio=-1");
	CHECK(set(&s, "prioclass", "3", why, sizeof(why)) == 0 && s.ioprio_class == 3, "prioclass=3");
	CHECK(set(&s, "prioclass", "0", why, sizeof(why)) == 0 && s.ioprio_class == 0, "prioclass=0");
	CHECK(set(&s, "prioclass", "4", why, sizeof(why)) == -ERANGE, "prioclass=4");
	job_spec_release(&s);
}

static void test_clock_opts(void)
{
	struct job_spec s;
	char why[512];
	job_spec_defaults(&s);
	CHECK(s.clocksource == CLOCK_SRC_AUTO, "default clocksource auto");
	CHECK(set(&s, "clocksource", "gettimeofday", why, sizeof(why)) == 0 && s.clocksource == CLOCK_SRC_GETTIMEOFDAY, "gtod");
	CHECK(set(&s, "clocksource", "clock_gettime", why, sizeof(why)) == 0 && s.clocksource == CLOCK_SRC_MONOTONIC, "cg");
	CHECK(set(&s, "clocksource", "cpu", why, sizeof(why)) == 0 && s.clocksource == CLOCK_SRC_TSC, "cpu");
	CHECK(set(&s, "clocksource", "hpet", why, sizeof(why)) == -EINVAL && strstr(why, "clock_gettime"), "hpet: %s", why);

	CHECK(!s.gtod_reduce && !s.disable_lat && !s.disable_clat && !s.disable_slat && !s.disable_bw, "defaults");
	CHECK(set(&s, "gtod_reduce", NULL, why, sizeof(why)) == 0 && s.gtod_reduce, "bare gtod_reduce");
	CHECK(s.disable_lat && s.disable_clat && s.disable_slat && s.disable_bw && !s.clat_percentiles,
	      "gtod_reduce disables lat, clat, slat, bw and clat percentiles");
	CHECK(set(&s, "disable_clat", "0", why, sizeof(why)) == 0 && !s.disable_clat && s.disable_lat, "a later option overrides one");
	CHECK(set(&s, "gtod_reduce", "0", why, sizeof(why)) == 0 && !s.disable_lat && !s.disable_bw && s.clat_percentiles, "gtod_reduce=0");
	CHECK(set(&s, "disable_bw", "1", why, sizeof(why)) == 0 && s.disable_bw, "disable_bw alias");
	CHECK(set(&s, "disable_bw_measurement", "0", why, sizeof(why)) == 0 && !s.disable_bw, "disable_bw_measurement");
	CHECK(set(&s, "disable_slat", NULL, why, sizeof(why)) == 0 && s.disable_slat, "bare disable_slat");
	job_spec_release(&s);
}

/* Parse a job file held in memory with stderr captured into err. */
static int parse_capture(const char *text, struct job_list *l, char *err, size_t errlen)
{
	fflush(stderr);
	int saved = dup(2);
	FILE *tmp = tmpfile();
	dup2(fileno(tmp), 2);
	int ret = jobfile_parse_buffer("t.fio", text, strlen(text), 0, l, NULL);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	size_t n = fread(err, 1, errlen - 1, tmp);
	err[n] = 0;
	fclose(tmp);
	return ret;
}

static void test_jobfile(void)
{
	char text[512], err[2048];
	struct job_list l = { 0 };
	unsigned n = cpus_configured();
	snprintf(text, sizeof(text), "[global]\nioengine=null\nsize=1m\n[a]\ncpus_allowed=0,%u\n", n + 3);
	int ret = parse_capture(text, &l, err, sizeof(err));
	CHECK(ret == -EINVAL && strstr(err, "t.fio:5:14: error:") && strstr(err, "does not exist"),
	      "missing CPU points at file:line:col: %s", err);
	job_list_release(&l);

	snprintf(text, sizeof(text), "[a]\nioengine=null\nsize=1m\ncpus_allowed=0\ncpus_allowed_policy=split\n"
		 "nice=5\nprio=3\nprioclass=2\nclocksource=clock_gettime\ngtod_reduce=1\n");
	ret = parse_capture(text, &l, err, sizeof(err));
	CHECK(ret == 1 && l.nr == 1, "job file with every option parses: %d %s", ret, err);
	if (l.nr == 1) {
		const struct job_spec *s = &l.jobs[0];
		CHECK(!strcmp(s->cpus_allowed, "0") && s->cpus_allowed_split && s->nice == 5 && s->ioprio == 3 &&
		      s->ioprio_class == 2 && s->clocksource == CLOCK_SRC_MONOTONIC && s->disable_lat, "values");
	}
	job_list_release(&l);

	char why[200];
	if (!clock_tsc_invariant(why, sizeof(why))) {
		ret = parse_capture("[a]\nioengine=null\nsize=1m\nclocksource=cpu\n", &l, err, sizeof(err));
		CHECK(ret == -EINVAL && strstr(err, "t.fio:4:") && strstr(err, "clocksource 'cpu'"), "no TSC: %s", err);
		job_list_release(&l);
	}
}

struct applied {
	const struct job_spec *s;
	unsigned index;
	int ret, nice0, nice1, cls, prio;
	cpu_set_t got;
	char why[256];
};

static void *apply_thread(void *arg)
{
	struct applied *a = arg;
	int c, p;
	sched_read(&a->nice0, &c, &p);
	a->ret = job_sched_apply(a->s, a->index, a->why, sizeof(a->why));
	sched_read(&a->nice1, &a->cls, &a->prio);
	pthread_getaffinity_np(pthread_self(), sizeof(a->got), &a->got);
	return NULL;
}

static void run_applied(struct applied *a)
{
	pthread_t t;
	pthread_create(&t, NULL, apply_thread, a);
	pthread_join(t, NULL);
}

static void test_job_sched_apply(void)
{
	struct job_spec s;
	char why[256], list[32];
	unsigned n = cpus_configured();
	job_spec_defaults(&s);
	s.name = strdup("j");
	snprintf(list, sizeof(list), "0-%u", n - 1);
	CHECK(set(&s, "cpus_allowed", list, why, sizeof(why)) == 0, "cpus_allowed=%s", list);
	set(&s, "cpus_allowed_policy", "split", why, sizeof(why));
	set(&s, "nice", "2", why, sizeof(why));
	set(&s, "prio", "4", why, sizeof(why));
	for (unsigned i = 0; i < 3; i++) {
		struct applied a = { .s = &s, .index = i };
		run_applied(&a);
		CHECK(a.ret == 0, "job_sched_apply: %s", a.why);
		CHECK(CPU_COUNT(&a.got) == 1 && CPU_ISSET(i % n, &a.got), "split job %u is bound to CPU %u", i, i % n);
		CHECK(a.nice1 == (a.nice0 + 2 > 19 ? 19 : a.nice0 + 2), "nice %d -> %d", a.nice0, a.nice1);
		CHECK(a.cls == 2 && a.prio == 4, "prio 4 without a class is best-effort: %d/%d", a.cls, a.prio);
	}
	set(&s, "cpus_allowed_policy", "shared", why, sizeof(why));
	struct applied a = { .s = &s, .index = 5 };
	run_applied(&a);
	CHECK(a.ret == 0 && CPU_COUNT(&a.got) == (int)n, "shared: all %u CPUs (%d)", n, CPU_COUNT(&a.got));
	/* a set that no longer parses (changed behind the option table) fails with the job's name */
	free(s.cpus_allowed);
	s.cpus_allowed = strdup("nope");
	struct applied b = { .s = &s };
	run_applied(&b);
	CHECK(b.ret == -EINVAL && strstr(b.why, "job 'j'"), "bad set: %d %s", b.ret, b.why);
	job_spec_release(&s);
}

int main(void)
{
	test_job_sched_apply();
	test_cpus();
	test_prio();
	test_clock_opts();
	test_jobfile();
	return check_done("test_options_sched");
}
