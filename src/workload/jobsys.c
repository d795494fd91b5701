/*
 * cgroup, NUMA, gid and uid of a job's thread (jobsys.h). Every iobench
 * job is a thread of one process, so what fio does to a job process is
 * done here to one thread: a threaded cgroup v2 group (cgroup.threads),
 * libnuma's per-thread CPU binding and memory policy, and the setgid and
 * setuid system calls made directly, which change the calling thread's
 * credentials only (glibc's wrappers would change every thread's).
 */
#include "workload/jobsys_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sys/cgroup2.h"
#include "sys/numanode.h"
#include "util/error.h"
#include "util/xmalloc.h"

struct job_sys {
	char *cg_path;           /* the cgroup's directory, NULL = no cgroup */
	bool cg_created;         /* this job made it: remove it at the end */
	bool numa_cpu, numa_mem; /* numa_cpu_nodes, a numa_mem_policy with nodes */
	struct nodeset cpu_nodes, mem_nodes;
};

static bool wants_sys(const struct job_spec *s)
{
	return s->cgroup || s->cgroup_weight || s->numa_cpu_nodes || s->numa_mem_mode != NUMA_MEM_DEFAULT;
}

/* opt=shown: the option as written, list: its node list */
static int nodes_for(const struct job_spec *s, const char *opt, const char *shown, const char *list, bool cpus,
		     struct nodeset *out)
{
	char why[256];
	int rc = nodeset_parse(list, out, why, sizeof(why));
	if (!rc)
		rc = nodeset_check(out, cpus, !cpus, why, sizeof(why));
	if (rc < 0)
		error("job '%s': %s=%s: %s", s->name, opt, shown, why);
	return rc;
}

int job_sys_check(struct job *j)
{
	const struct job_spec *s = j->spec;
	if (!wants_sys(s))
		return 0;
	struct job_sys *y = j->sys = xcalloc(1, sizeof(*y));
	int rc;
	if (s->numa_cpu_nodes) {
		if ((rc = nodes_for(s, "numa_cpu_nodes", s->numa_cpu_nodes, s->numa_cpu_nodes, true, &y->cpu_nodes)) < 0)
			return rc;
		y->numa_cpu = true;
	}
	if (s->numa_mem_mode == NUMA_MEM_LOCAL) {
		struct nodeset any; /* a local policy still needs NUMA in the kernel */
		if ((rc = nodes_for(s, "numa_mem_policy", "local", "0", false, &any)) < 0)
			return rc;
	} else if (s->numa_mem_mode != NUMA_MEM_DEFAULT) {
		static const char *const mode[] = { [NUMA_MEM_PREFER] = "prefer", [NUMA_MEM_BIND] = "bind",
						    [NUMA_MEM_INTERLEAVE] = "interleave" };
		char shown[256];
		snprintf(shown, sizeof(shown), "%s:%s", mode[s->numa_mem_mode], s->numa_mem_nodes);
		if ((rc = nodes_for(s, "numa_mem_policy", shown, s->numa_mem_nodes, false, &y->mem_nodes)) < 0)
			return rc;
	}
	y->numa_mem = s->numa_mem_mode != NUMA_MEM_DEFAULT;
	if (s->cgroup || s->cgroup_weight) {
		char why[512];
		/* as fio's: cgroup_weight alone names the group after the job */
		const char *name = s->cgroup ? s->cgroup : s->name;
		if ((rc = cgroup2_group_path(name, &y->cg_path, why, sizeof(why))) < 0 ||
		    (s->cgroup_weight && (rc = cgroup2_weight_refusal(y->cg_path, s->cgroup_weight, why, sizeof(why))) < 0) ||
		    (rc = cgroup2_prepare(y->cg_path, &y->cg_created, why, sizeof(why))) < 0) {
			error("job '%s': cgroup=%s: %s", s->name, name, why);
			return rc;
		}
	}
	return 0;
}

int job_sys_buffers(struct job *j)
{
	struct job_sys *y = j->sys;
	if (!y || !y->numa_mem || !j->buf_map)
		return 0;
	int rc = nodeset_mbind(j->buf_map, j->buf_map_len, (enum nodeset_mpol)j->spec->numa_mem_mode, &y->mem_nodes);
	if (rc < 0)
		return error_errno(rc, "job '%s': cannot give its buffers the memory policy numa_mem_policy asks for",
				   j->spec->name);
	return 0;
}

int job_sys_enter(struct job *j, char *why, size_t whylen)
{
	const struct job_spec *s = j->spec;
	struct job_sys *y = j->sys;
	int rc;
	if (y && y->cg_path && (rc = cgroup2_enter(y->cg_path)) < 0) {
		snprintf(why, whylen, "cannot move the job's thread into cgroup %s (cgroup.threads): %s",
			 y->cg_path, strerror(-rc));
		return rc;
	}
	if (y && y->numa_cpu && (rc = nodeset_run_on(&y->cpu_nodes)) < 0) {
		snprintf(why, whylen, "cannot run on the CPUs of NUMA nodes %s: %s", s->numa_cpu_nodes, strerror(-rc));
		return rc;
	}
	if (y && y->numa_mem && (rc = nodeset_mem_policy((enum nodeset_mpol)s->numa_mem_mode, &y->mem_nodes)) < 0) {
		snprintf(why, whylen, "cannot set the memory policy numa_mem_policy asks for: %s", strerror(-rc));
		return rc;
	}
	/* the group first: once the uid is dropped it cannot be changed back */
	if (s->gid >= 0 && syscall(SYS_setgid, (gid_t)s->gid) < 0) {
		rc = -errno;
		snprintf(why, whylen, "cannot switch to gid %lld: %s%s", (long long)s->gid, strerror(-rc),
			 rc == -EPERM ? " (changing the group needs root or CAP_SETGID)" : "");
		return rc;
	}
	if (s->uid >= 0 && syscall(SYS_setuid, (uid_t)s->uid) < 0) {
		rc = -errno;
		snprintf(why, whylen, "cannot switch to uid %lld: %s%s", (long long)s->uid, strerror(-rc),
			 rc == -EPERM ? " (changing the user needs root or CAP_SETUID)" : "");
		return rc;
	}
	return 0;
}

void job_sys_release(struct job *j)
{
	struct job_sys *y = j->sys;
	if (!y)
		return;
	if (y->cg_created && !j->spec->cgroup_nodelete) {
		int rc = cgroup2_remove(y->cg_path);
		if (rc < 0)
			error_errno(rc, "job '%s': cannot remove cgroup %s", j->spec->name, y->cg_path);
	}
	free(y->cg_path);
	free(y);
	j->sys = NULL;
}
