/*
 * Parse callbacks of uid, gid, numa_cpu_nodes and numa_mem_policy
 * (options_sys_int.h). Node lists are checked for syntax here, so --parse-only
 * accepts a job file written for a machine with more nodes, as fio's does;
 * whether the nodes exist is the runner's check (workload/jobsys.c), before
 * any I/O. numa_mem_policy's rules are fio 3.33's: default and local take
 * no list, prefer exactly one node, bind and interleave a list.
 */
#include "spec/options_sys_int.h"
#include "spec/jobspec.h"
#include "sys/numanode.h"
#include "util/array.h"
#include "util/xmalloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* An id in 0..2^32-2 (2^32-1 is the kernel's "unchanged"). */
static int id_in(const char *val, const char *what, int64_t *out, struct opt_ctx *c)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(val, &end, 10);
	if (end == val || *end || errno || val[0] == '-')
		return opt_fail(c, -EINVAL, what, val, "give a number, e.g. 65534");
	if (v >= 0xffffffffULL)
		return opt_fail(c, -ERANGE, what, val, "must be below 4294967295");
	*out = (int64_t)v;
	return 0;
}

int opt_cb_uid(void *target, const char *val, struct opt_ctx *c)
{
	return id_in(val, "user id", &((struct job_spec *)target)->uid, c);
}

int opt_cb_gid(void *target, const char *val, struct opt_ctx *c)
{
	return id_in(val, "group id", &((struct job_spec *)target)->gid, c);
}

int opt_cb_numa_cpu_nodes(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	struct nodeset ns;
	char why[160];
	if (nodeset_parse(val, &ns, why, sizeof(why)) < 0)
		return opt_fail(c, -EINVAL, "node list", val, why);
	free(s->numa_cpu_nodes);
	s->numa_cpu_nodes = xstrdup(val);
	return 0;
}

int opt_cb_numa_mem_policy(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	const char *colon = strchr(val, ':');
	size_t len = colon ? (size_t)(colon - val) : strlen(val);
	const char *list = colon ? colon + 1 : NULL;
	const struct opt_posval *mode = optdef_word_n(c->opt, val, len); /* the row's words */
	if (!mode)
		return optdef_word_fail(c->opt, val, c);
	enum numa_mem_mode m = (enum numa_mem_mode)mode->value;
	if (!mode->arg && list) /* the words with an arg take a node list */
		return opt_failf(c, -EINVAL, "option '%s': '%s' takes no node list (not '%s')", c->key,
				 mode->word, val);
	if (mode->arg) {
		if (!list || !*list)
			return opt_failf(c, -EINVAL, "option '%s': '%s' needs a node list, e.g. %s:0", c->key,
					 mode->word, mode->word);
		struct nodeset ns;
		char why[160];
		if (nodeset_parse(list, &ns, why, sizeof(why)) < 0)
			return opt_fail(c, -EINVAL, "node list", list, why);
		if (m == NUMA_MEM_PREFER && nodeset_count(&ns) != 1)
			return opt_failf(c, -EINVAL, "option '%s': 'prefer' takes one node only, not '%s'", c->key,
					 list);
	}
	free(s->numa_mem_nodes);
	s->numa_mem_nodes = list ? xstrdup(list) : NULL;
	s->numa_mem_mode = m;
	return 0;
}
