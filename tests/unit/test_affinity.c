/*
 * CPU sets and thread scheduling: cpus_allowed lists and ranges, cpumask in
 * decimal and hex, bad input and CPUs that do not exist; split policy round
 * robin; affinity applied to a thread and read back with
 * pthread_getaffinity_np; nice and I/O priority applied to one thread, read
 * back, and not leaking into the thread that started it.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "check.h"
#include "sys/affinity.h"
#include "util/array.h"

static unsigned ncpu;

static int parse_list(const char *s, cpu_set_t *set, char *why, size_t len)
{
	why[0] = 0;
	return cpuset_parse(s, set, why, len);
}

static void test_parse(void)
{
	cpu_set_t set;
	char why[200], buf[64];
	CHECK(parse_list("0", &set, why, sizeof(why)) == 0 && CPU_COUNT(&set) == 1 && CPU_ISSET(0, &set), "0");
	snprintf(buf, sizeof(buf), "0-%u", ncpu - 1);
	CHECK(parse_list(buf, &set, why, sizeof(why)) == 0 && CPU_COUNT(&set) == (int)ncpu, "%s: %s", buf, why);
	CHECK(parse_list(" 0 , ", &set, why, sizeof(why)) == 0 && CPU_COUNT(&set) == 1, "spaces and empty elements");
	if (ncpu >= 2) {
		CHECK(parse_list("1,0", &set, why, sizeof(why)) == 0 && CPU_COUNT(&set) == 2, "list");
		CHECK(parse_list("0,,1", &set, why, sizeof(why)) == 0 && CPU_COUNT(&set) == 2, "0,,1 as fio");
		CHECK(parse_list("1-1", &set, why, sizeof(why)) == 0 && CPU_COUNT(&set) == 1 && CPU_ISSET(1, &set), "1-1");
	}
	static const char *const bad[] = { "", ",", "abc", "1-0", "0-", "-1", "0;1", "0-1-2", "0x1", "1.5" };
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		int ret = parse_list(bad[i], &set, why, sizeof(why));
		CHECK(ret == -EINVAL && why[0], "'%s' refused: %d '%s'", bad[i], ret, why);
	}
	CHECK(parse_list("1-0", &set, why, sizeof(why)) == -EINVAL && strstr(why, "backwards"), "%s", why);
	snprintf(buf, sizeof(buf), "0,%u", ncpu);
	int ret = parse_list(buf, &set, why, sizeof(why));
	CHECK(ret == -ERANGE && strstr(why, "does not exist"), "'%s': %d '%s'", buf, ret, why);
	CHECK(parse_list("99999999999999999999999", &set, why, sizeof(why)) == -EINVAL, "huge: %s", why);
	CHECK(parse_list("4096", &set, why, sizeof(why)) == -ERANGE, "beyond CPU_SETSIZE: %s", why);
}

static void test_mask(void)
{
	cpu_set_t set;
	char why[200] = "";
	CHECK(cpumask_parse("1", &set, why, sizeof(why)) == 0 && CPU_COUNT(&set) == 1 && CPU_ISSET(0, &set), "1");
	CHECK(cpumask_parse("0x1", &set, why, sizeof(why)) == 0 && CPU_ISSET(0, &set), "0x1");
	CHECK(cpumask_parse("0x0001", &set, why, sizeof(why)) == 0 && CPU_COUNT(&set) == 1, "leading zeroes");
	if (ncpu >= 2) {
		CHECK(cpumask_parse("3", &set, why, sizeof(why)) == 0 && CPU_COUNT(&set) == 2, "3");
		CHECK(cpumask_parse("0X2", &set, why, sizeof(why)) == 0 && CPU_ISSET(1, &set) && CPU_COUNT(&set) == 1, "0X2");
	}
	static const char *const bad[] = { "", "0", "0x0", "zz", "0xg", "-1", "1,2" };
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		why[0] = 0;
		int ret = cpumask_parse(bad[i], &set, why, sizeof(why));
		CHECK(ret == -EINVAL && why[0], "mask '%s' refused: %d '%s'", bad[i], ret, why);
	}
	if (ncpu < 64) {
		char buf[32];
		snprintf(buf, sizeof(buf), "%llu", 1ULL << ncpu);
		CHECK(cpumask_parse(buf, &set, why, sizeof(why)) == -ERANGE && strstr(why, "does not exist"), "%s: %s", buf, why);
		CHECK(cpumask_parse("0x8000000000000000000", &set, why, sizeof(why)) == -ERANGE, "long hex: %s", why);
	}
}

static void test_format_and_split(void)
{
	cpu_set_t set, out;
	char buf[64];
	CPU_ZERO(&set);
	cpuset_format(&set, buf, sizeof(buf));
	CHECK(!strcmp(buf, ""), "empty set formats as ''");
	for (int c = 0; c <= 2; c++)
		CPU_SET(c, &set);
	CPU_SET(5, &set);
	CPU_SET(9, &set);
	CPU_SET(10, &set);
	cpuset_format(&set, buf, sizeof(buf));
	CHECK(!strcmp(buf, "0-2,5,9-10"), "format: '%s'", buf);

	CPU_ZERO(&set);
	CPU_SET(1, &set);
	CPU_SET(3, &set);
	CPU_SET(5, &set);
	static const int want[] = { 1, 3, 5, 1, 3, 5, 1 };
	for (unsigned j = 0; j < 7; j++) {
		int ret = affinity_for_job(&set, true, j, &out);
		CHECK(ret == 0 && CPU_COUNT(&out) == 1 && CPU_ISSET(want[j], &out), "split job %u gets CPU %d", j, want[j]);
	}
	CHECK(affinity_for_job(&set, false, 4, &out) == 0 && CPU_EQUAL(&out, &set), "shared gets the whole set");
	CPU_ZERO(&set);
	CHECK(affinity_for_job(&set, true, 0, &out) == -EINVAL && affinity_for_job(&set, false, 0, &out) == -EINVAL,
	      "an empty set is refused");
}

struct thread_result {
	int apply_ret, cpu;
	cpu_set_t want, got;
	int nice0, nice1, nice_clamped;
	int ret_be, cls_be, prio_be;
	int ret_idle, cls_idle;
	int ret_prio_only, cls_prio_only, prio_prio_only;
	int ret_rt, cls_rt, prio_rt;
	int ret_bad_prio, ret_bad_class, ret_none, cls_none, prio_none;
};

static void *thread_body(void *arg)
{
	struct thread_result *r = arg;
	int c, p;
	r->apply_ret = affinity_apply(&r->want);
	pthread_getaffinity_np(pthread_self(), sizeof(r->got), &r->got);
	sched_yield();
	r->cpu = sched_getcpu();

	sched_read(&r->nice0, &c, &p);
	sched_apply(3, -1, -1);
	sched_read(&r->nice1, &c, &p);
	sched_apply(100, -1, -1);
	sched_read(&r->nice_clamped, &c, &p);

	r->ret_be = sched_apply(0, 2, 5);
	sched_read(&p, &r->cls_be, &r->prio_be);
	r->ret_idle = sched_apply(0, 3, 0);
	sched_read(&p, &r->cls_idle, &c);
	r->ret_prio_only = sched_apply(0, -1, 6);  /* prio alone: best-effort */
	sched_read(&p, &r->cls_prio_only, &r->prio_prio_only);
	r->ret_bad_prio = sched_apply(0, 2, 8);
	r->ret_bad_class = sched_apply(0, 4, 0);
	r->ret_none = sched_apply(0, -1, -1);      /* leaves it alone */
	sched_read(&p, &r->cls_none, &r->prio_none);
	r->ret_rt = sched_apply(0, 1, 0);
	sched_read(&p, &r->cls_rt, &r->prio_rt);
	return NULL;
}

static void test_apply(void)
{
	cpu_set_t mine;
	pthread_getaffinity_np(pthread_self(), sizeof(mine), &mine);
	int last = -1;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &mine))
			last = c;
	struct thread_result r;
	memset(&r, 0, sizeof(r));
	CPU_ZERO(&r.want);
	CPU_SET(last, &r.want);
	int main_nice0, main_cls0, main_prio0, main_nice1, main_cls1, main_prio1;
	CHECK(sched_read(&main_nice0, &main_cls0, &main_prio0) == 0, "sched_read");

	pthread_t t;
	pthread_create(&t, NULL, thread_body, &r);
	pthread_join(t, NULL);

	CHECK(r.apply_ret == 0, "affinity_apply: %d", r.apply_ret);
	CHECK(CPU_EQUAL(&r.got, &r.want), "the thread's affinity reads back as CPU %d", last);
	CHECK(r.cpu == last, "the thread runs on CPU %d (on %d)", last, r.cpu);
	CHECK(r.nice1 == (r.nice0 + 3 > 19 ? 19 : r.nice0 + 3), "nice %d + 3 = %d", r.nice0, r.nice1);
	CHECK(r.nice_clamped == 19, "nice clamps at 19: %d", r.nice_clamped);
	CHECK(r.ret_be == 0 && r.cls_be == 2 && r.prio_be == 5, "best-effort 5: %d %d/%d", r.ret_be, r.cls_be, r.prio_be);
	CHECK(r.ret_idle == 0 && r.cls_idle == 3, "idle: %d %d", r.ret_idle, r.cls_idle);
	CHECK(r.ret_prio_only == 0 && r.cls_prio_only == 2 && r.prio_prio_only == 6, "prio alone is best-effort: %d/%d",
	      r.cls_prio_only, r.prio_prio_only);
	CHECK(r.ret_bad_prio == -EINVAL && r.ret_bad_class == -EINVAL, "prio 8 and class 4 refused");
	CHECK(r.ret_none == 0 && r.cls_none == 2 && r.prio_none == 6, "no class, no prio: unchanged");
	if (geteuid() == 0)
		CHECK(r.ret_rt == 0 && r.cls_rt == 1 && r.prio_rt == 0, "realtime as root: %d %d/%d", r.ret_rt, r.cls_rt, r.prio_rt);
	else
		CHECK(r.ret_rt == -EPERM, "realtime needs root: %d", r.ret_rt);

	CHECK(sched_read(&main_nice1, &main_cls1, &main_prio1) == 0, "sched_read");
	CHECK(main_nice1 == main_nice0 && main_cls1 == main_cls0 && main_prio1 == main_prio0,
	      "the main thread is untouched: nice %d->%d, ioprio %d/%d->%d/%d", main_nice0, main_nice1,
	      main_cls0, main_prio0, main_cls1, main_prio1);
	cpu_set_t after;
	pthread_getaffinity_np(pthread_self(), sizeof(after), &after);
	CHECK(CPU_EQUAL(&after, &mine), "the main thread's affinity is untouched");
}

int main(void)
{
	ncpu = cpus_configured();
	printf("# %u CPUs configured\n", ncpu);
	test_parse();
	test_mask();
	test_format_and_split();
	test_apply();
	return check_done("test_affinity");
}
