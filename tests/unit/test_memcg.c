/*
 * The memory cgroup code's parsers (sys/memcg.h): /proc/self/cgroup lines
 * for v2 and for a v1 controller (alone or co-mounted), "key value" files
 * (memory.stat, memory.events) and controller lists.
 */
#include <errno.h>
#include <string.h>

#include "check.h"
#include "sys/memcg.h"

static const char hybrid[] =
	"9:name=systemd:/\n"
	"8:pids:/\n"
	"4:memory:/process_api/6abc\n"
	"3:cpu,cpuacct:/x\n"
	"0::/user.slice/session-1.scope\n";

static void test_self(void)
{
	char p[256];
	CHECK(memcg_parse_self(hybrid, "memory", p, sizeof(p)) == 0 && !strcmp(p, "/process_api/6abc"),
	      "v1 memory path '%s'", p);
	CHECK(memcg_parse_self(hybrid, NULL, p, sizeof(p)) == 0 &&
	      !strcmp(p, "/user.slice/session-1.scope"), "v2 path '%s'", p);
	CHECK(memcg_parse_self(hybrid, "cpuacct", p, sizeof(p)) == 0 && !strcmp(p, "/x"),
	      "co-mounted controller '%s'", p);
	CHECK(memcg_parse_self(hybrid, "cpu", p, sizeof(p)) == 0 && !strcmp(p, "/x"),
	      "first of a co-mounted list '%s'", p);
	CHECK(memcg_parse_self(hybrid, "mem", p, sizeof(p)) == -ENOENT, "no prefix match");
	CHECK(memcg_parse_self("4:memory:/a\n", NULL, p, sizeof(p)) == -ENOENT, "no v2 line");
	CHECK(memcg_parse_self("0::/\n", NULL, p, sizeof(p)) == 0 && !strcmp(p, "/"), "v2 root");
	CHECK(memcg_parse_self("4:memory:/a/b", "memory", p, sizeof(p)) == 0 && !strcmp(p, "/a/b"),
	      "last line without a newline '%s'", p);
	CHECK(memcg_parse_self("4:memory:/abcdef\n", "memory", p, 4) == -ENOENT, "too long");
	CHECK(memcg_parse_self("10::/not-v2\n", NULL, p, sizeof(p)) == -ENOENT,
	      "hierarchy 10 with no controllers is not v2");
}

static void test_kv(void)
{
	const char stat[] = "cache 4096\nrss 8192\npgpgout 17\ntotal_pgpgout 99\n"
			    "workingset_refault_anon 3\n";
	const char events[] = "low 0\nhigh 0\nmax 1234\noom 1\noom_kill 2\noom_group_kill 0\n";
	uint64_t v = 0;
	CHECK(memcg_parse_kv(stat, "pgpgout", &v) == 0 && v == 17, "pgpgout %llu",
	      (unsigned long long)v);
	CHECK(memcg_parse_kv(stat, "cache", &v) == 0 && v == 4096, "first line");
	CHECK(memcg_parse_kv(stat, "workingset_refault_anon", &v) == 0 && v == 3, "last line");
	CHECK(memcg_parse_kv(stat, "pgpg", &v) == -ENOENT, "no prefix match");
	CHECK(memcg_parse_kv(events, "max", &v) == 0 && v == 1234, "max");
	CHECK(memcg_parse_kv(events, "oom", &v) == 0 && v == 1, "oom, not oom_kill");
	CHECK(memcg_parse_kv(events, "oom_kill", &v) == 0 && v == 2, "oom_kill");
	CHECK(memcg_parse_kv("max x\n", "max", &v) == -ENOENT, "not a number");
	CHECK(memcg_parse_kv("", "max", &v) == -ENOENT, "empty");
}

static void test_list(void)
{
	CHECK(memcg_list_has("cpuset cpu io memory hugetlb pids\n", "memory"), "memory");
	CHECK(memcg_list_has("memory", "memory"), "alone");
	CHECK(!memcg_list_has("hugetlb\n", "memory"), "absent");
	CHECK(!memcg_list_has("memoryx mem\n", "memory"), "whole words only");
	CHECK(!memcg_list_has("", "memory"), "empty");
}

int main(void)
{
	test_self();
	test_kv();
	test_list();
	return check_done("test_memcg");
}
