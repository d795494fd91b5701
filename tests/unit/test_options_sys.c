/*
 * The options of the job thread's identity and placement: uid/gid ranges
 * and "not set", numa_cpu_nodes and numa_mem_policy syntax (fio's rules:
 * default and local take no list, prefer one node, bind and interleave a
 * list), deep copy of their strings, random_distribution=zoned with ranges
 * left out (fio's share of the rest), and the node lists of sys/numanode.h
 * (parse, count, the check against this machine's nodes).
 */
#include "check.h"
#include "spec/options.h"
#include "sys/numanode.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static int set(struct job_spec *s, const char *k, const char *v, char *why, size_t len)
{
	why[0] = 0;
	return option_set(s, k, v, why, len);
}

static void test_ids(void)
{
	struct job_spec s;
	char why[512];
	job_spec_defaults(&s);
	CHECK(s.uid == -1 && s.gid == -1, "not set by default");
	CHECK(set(&s, "uid", "65534", why, sizeof(why)) == 0 && s.uid == 65534, "uid=65534: %s", why);
	CHECK(set(&s, "gid", "0", why, sizeof(why)) == 0 && s.gid == 0, "gid=0 is root, not 'unset': %s", why);
	CHECK(set(&s, "uid", "-1", why, sizeof(why)) == -EINVAL && strstr(why, "user id"), "uid=-1: %s", why);
	CHECK(set(&s, "gid", "nobody", why, sizeof(why)) == -EINVAL && strstr(why, "group id"), "gid=nobody: %s", why);
	CHECK(set(&s, "uid", "4294967295", why, sizeof(why)) == -ERANGE, "uid=2^32-1 is the kernel's 'unchanged': %s", why);
	CHECK(s.uid == 65534, "a bad value leaves the old one");
	job_spec_release(&s);
}

static void test_numa_opts(void)
{
	struct job_spec s;
	char why[512];
	job_spec_defaults(&s);
	CHECK(s.numa_mem_mode == NUMA_MEM_DEFAULT && !s.numa_cpu_nodes && !s.numa_mem_nodes, "defaults");
	CHECK(set(&s, "numa_cpu_nodes", "0-1,3", why, sizeof(why)) == 0 && !strcmp(s.numa_cpu_nodes, "0-1,3"),
	      "a list of nodes of another machine parses: %s", why);
	CHECK(set(&s, "numa_cpu_nodes", "1-0", why, sizeof(why)) == -EINVAL, "1-0: %s", why);
	CHECK(set(&s, "numa_cpu_nodes", "0,", why, sizeof(why)) == -EINVAL, "0,: %s", why);
	CHECK(set(&s, "numa_mem_policy", "interleave:0-1", why, sizeof(why)) == 0 &&
	      s.numa_mem_mode == NUMA_MEM_INTERLEAVE && !strcmp(s.numa_mem_nodes, "0-1"), "interleave:0-1: %s", why);
	CHECK(set(&s, "numa_mem_policy", "prefer:1", why, sizeof(why)) == 0 && s.numa_mem_mode == NUMA_MEM_PREFER,
	      "prefer:1: %s", why);
	CHECK(set(&s, "numa_mem_policy", "prefer:0,1", why, sizeof(why)) == -EINVAL && strstr(why, "one node"),
	      "prefer:0,1: %s", why);
	CHECK(set(&s, "numa_mem_policy", "bind", why, sizeof(why)) == -EINVAL && strstr(why, "needs a node list"),
	      "bind: %s", why);
	CHECK(set(&s, "numa_mem_policy", "bind:", why, sizeof(why)) == -EINVAL, "bind: with an empty list: %s", why);
	CHECK(set(&s, "numa_mem_policy", "local:0", why, sizeof(why)) == -EINVAL && strstr(why, "no node list"),
	      "local:0: %s", why);
	CHECK(set(&s, "numa_mem_policy", "bindx:0", why, sizeof(why)) == -EINVAL, "bindx:0: %s", why);
	CHECK(s.numa_mem_mode == NUMA_MEM_PREFER && !strcmp(s.numa_mem_nodes, "1"), "bad values leave prefer:1");
	struct job_spec c;
	job_spec_copy(&c, &s);
	CHECK(c.numa_mem_nodes != s.numa_mem_nodes && !strcmp(c.numa_mem_nodes, "1") &&
	      c.numa_cpu_nodes != s.numa_cpu_nodes, "deep copy");
	job_spec_release(&c);
	CHECK(set(&s, "numa_mem_policy", "local", why, sizeof(why)) == 0 && s.numa_mem_mode == NUMA_MEM_LOCAL &&
	      !s.numa_mem_nodes, "local: %s", why);
	CHECK(set(&s, "cgroup", "grp", why, sizeof(why)) == 0 && !strcmp(s.cgroup, "grp"), "cgroup=grp");
	CHECK(set(&s, "cgroup_weight", "99", why, sizeof(why)) < 0, "cgroup_weight=99 (fio: 100..1000): %s", why);
	CHECK(set(&s, "cgroup_weight", "1000", why, sizeof(why)) == 0 && s.cgroup_weight == 1000, "1000: %s", why);
	job_spec_copy(&c, &s);
	CHECK(c.cgroup != s.cgroup && !strcmp(c.cgroup, "grp"), "cgroup deep copy");
	job_spec_release(&c);
	job_spec_release(&s);
}

static void test_zoned(void)
{
	struct job_spec s;
	char why[512];
	job_spec_defaults(&s);
	CHECK(set(&s, "random_distribution", "zoned:50/5:30/15:20/", why, sizeof(why)) == 0 && s.nr_dist_zones == 3 &&
	      s.dist_zones[2].size_pct == 80 && s.dist_zones[2].access_pct == 20, "20/ is the 80%% left: %s", why);
	CHECK(set(&s, "random_distribution", "zoned:50/5:30/15:20", why, sizeof(why)) == 0 &&
	      s.dist_zones[2].size_pct == 80, "no slash: the same: %s", why);
	CHECK(set(&s, "random_distribution", "zoned:50/5:30/15:20/0", why, sizeof(why)) == 0 &&
	      s.dist_zones[2].size_pct == 80, "20/0: the same: %s", why);
	CHECK(set(&s, "random_distribution", "zoned:40/5:30/:30/", why, sizeof(why)) == 0 &&
	      s.dist_zones[1].size_pct == 47 && s.dist_zones[2].size_pct == 47, "two share 95%%, 47 each: %s", why);
	CHECK(set(&s, "random_distribution", "zoned:50/100:50/", why, sizeof(why)) == -EINVAL &&
	      strstr(why, "nothing is left"), "nothing left to share: %s", why);
	CHECK(set(&s, "random_distribution", "zoned_abs:50/1m:50/", why, sizeof(why)) == -EINVAL &&
	      strstr(why, "zone size"), "zoned_abs sizes cannot be left out: %s", why);
	CHECK(set(&s, "random_distribution", "zoned:/5:100/10", why, sizeof(why)) == -EINVAL,
	      "an access percentage cannot be left out: %s", why);
	job_spec_release(&s);
}

static void test_nodeset(void)
{
	struct nodeset ns;
	char why[256], have[64];
	CHECK(nodeset_parse("0-2,5", &ns, why, sizeof(why)) == 0 && nodeset_count(&ns) == 4 && nodeset_has(&ns, 5) &&
	      !nodeset_has(&ns, 3), "0-2,5: %s", why);
	CHECK(nodeset_parse("1024", &ns, why, sizeof(why)) == -EINVAL, "1024 is beyond the list: %s", why);
	CHECK(nodeset_parse("", &ns, why, sizeof(why)) == -EINVAL, "empty");
	CHECK(nodeset_parse("all", &ns, why, sizeof(why)) == 0 && nodeset_count(&ns) >= 1 && nodeset_has(&ns, 0),
	      "all: this machine's nodes");
	nodeset_machine(have, sizeof(have));
	CHECK(have[0] == '0', "the machine's nodes start at 0: %s", have);
	CHECK(nodeset_parse("0", &ns, why, sizeof(why)) == 0 && nodeset_check(&ns, true, true, why, sizeof(why)) == 0,
	      "node 0 exists, with CPUs and memory: %s", why);
	CHECK(nodeset_parse("1000", &ns, why, sizeof(why)) == 0 &&
	      nodeset_check(&ns, true, false, why, sizeof(why)) == -ENODEV && strstr(why, "NUMA node 1000 does not exist") &&
	      strstr(why, have), "node 1000: %s", why);
}

int main(void)
{
	test_ids();
	test_numa_opts();
	test_zoned();
	test_nodeset();
	return check_done("test_options_sys");
}
