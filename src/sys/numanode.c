/*
 * NUMA node lists and the thread's placement through libnuma (numanode.h).
 * libnuma's own parser prints warnings to stderr and knows only this
 * machine's nodes; the list is parsed here so a job file can be checked
 * anywhere (--parse-only) and the message names the missing node.
 */
#include "sys/numanode.h"

#include <errno.h>
#include <numa.h>
#include <numaif.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void set_bit(struct nodeset *s, unsigned n)
{
	s->bits[n / 64] |= 1ULL << (n % 64);
}

bool nodeset_has(const struct nodeset *s, unsigned node)
{
	return node < NODESET_MAX && (s->bits[node / 64] >> (node % 64)) & 1;
}

unsigned nodeset_count(const struct nodeset *s)
{
	unsigned n = 0;
	for (size_t i = 0; i < NODESET_MAX / 64; i++)
		n += (unsigned)__builtin_popcountll(s->bits[i]);
	return n;
}

/* The machine's nodes, from libnuma (node 0 alone where NUMA is absent). */
static void machine_nodes(struct nodeset *s)
{
	memset(s, 0, sizeof(*s));
	if (numa_available() < 0) {
		set_bit(s, 0);
		return;
	}
	int max = numa_max_node();
	for (int n = 0; n <= max && n < NODESET_MAX; n++)
		if (numa_bitmask_isbitset(numa_nodes_ptr, (unsigned)n))
			set_bit(s, (unsigned)n);
}

static unsigned long parse_node(const char *p, char **end)
{
	if (*p < '0' || *p > '9') {
		*end = (char *)p;
		return 0;
	}
	errno = 0;
	return strtoul(p, end, 10);
}

int nodeset_parse(const char *list, struct nodeset *out, char *why, size_t whylen)
{
	memset(out, 0, sizeof(*out));
	if (!strcmp(list, "all")) {
		machine_nodes(out);
		return 0;
	}
	const char *p = list;
	if (!*p) {
		snprintf(why, whylen, "empty node list");
		return -EINVAL;
	}
	while (*p) {
		char *end;
		unsigned long lo = parse_node(p, &end), hi = lo;
		if (end == p || errno) {
			snprintf(why, whylen, "'%s' is not a node number (give nodes as 0, 0-1 or 0,2-3)", p);
			return -EINVAL;
		}
		p = end;
		if (*p == '-') {
			hi = parse_node(p + 1, &end);
			if (end == p + 1 || errno || hi < lo) {
				snprintf(why, whylen, "bad node range at '%s' (give nodes as 0, 0-1 or 0,2-3)", p);
				return -EINVAL;
			}
			p = end;
		}
		if (hi >= NODESET_MAX) {
			snprintf(why, whylen, "node %lu is beyond the %d nodes a list may name", hi, NODESET_MAX);
			return -EINVAL;
		}
		for (unsigned long n = lo; n <= hi; n++)
			set_bit(out, (unsigned)n);
		if (*p == ',' && p[1])
			p++;
		else if (*p) {
			snprintf(why, whylen, "unexpected '%s' (give nodes as 0, 0-1 or 0,2-3)", p);
			return -EINVAL;
		}
	}
	return 0;
}

static void format(const struct nodeset *s, char *buf, size_t len)
{
	size_t at = 0;
	buf[0] = '\0';
	for (unsigned n = 0; n < NODESET_MAX && at < len; n++) {
		if (!nodeset_has(s, n))
			continue;
		unsigned e = n;
		while (e + 1 < NODESET_MAX && nodeset_has(s, e + 1))
			e++;
		int w = e > n ? snprintf(buf + at, len - at, "%s%u-%u", at ? "," : "", n, e)
			      : snprintf(buf + at, len - at, "%s%u", at ? "," : "", n);
		at += w > 0 ? (size_t)w : 0;
		n = e;
	}
}

void nodeset_machine(char *buf, size_t len)
{
	struct nodeset m;
	machine_nodes(&m);
	format(&m, buf, len);
}

int nodeset_check(const struct nodeset *s, bool need_cpus, bool need_mem, char *why, size_t whylen)
{
	if (numa_available() < 0) {
		snprintf(why, whylen, "this kernel has no NUMA support (get_mempolicy fails); "
			 "binding to NUMA nodes needs a kernel built with CONFIG_NUMA");
		return -ENOTSUP;
	}
	struct nodeset m;
	char have[128];
	machine_nodes(&m);
	format(&m, have, sizeof(have));
	unsigned nm = nodeset_count(&m);
	for (unsigned n = 0; n < NODESET_MAX; n++) {
		if (!nodeset_has(s, n))
			continue;
		if (!nodeset_has(&m, n)) {
			snprintf(why, whylen, "NUMA node %u does not exist: this machine has node%s %s "
				 "(/sys/devices/system/node); a node list may name only those",
				 n, nm == 1 ? "" : "s", have);
			return -ENODEV;
		}
		if (need_cpus) {
			struct bitmask *cpus = numa_allocate_cpumask();
			int rc = numa_node_to_cpus((int)n, cpus);
			unsigned w = rc ? 0 : numa_bitmask_weight(cpus);
			numa_free_cpumask(cpus);
			if (!w) {
				snprintf(why, whylen, "NUMA node %u has no CPUs to run on", n);
				return -ENODEV;
			}
		}
		if (need_mem && !numa_bitmask_isbitset(numa_all_nodes_ptr, n)) {
			snprintf(why, whylen, "NUMA node %u has no memory this process may use", n);
			return -ENODEV;
		}
	}
	if (!nodeset_count(s)) {
		snprintf(why, whylen, "the node list names no node");
		return -EINVAL;
	}
	return 0;
}

static struct bitmask *to_mask(const struct nodeset *s)
{
	struct bitmask *b = numa_allocate_nodemask();
	for (unsigned n = 0; n < NODESET_MAX && n < b->size; n++)
		if (nodeset_has(s, n))
			numa_bitmask_setbit(b, n);
	return b;
}

int nodeset_run_on(const struct nodeset *s)
{
	struct bitmask *b = to_mask(s);
	errno = 0;
	int rc = numa_run_on_node_mask(b) < 0 ? -(errno ? errno : EINVAL) : 0;
	numa_free_nodemask(b);
	return rc;
}

static int first_node(const struct nodeset *s)
{
	for (unsigned n = 0; n < NODESET_MAX; n++)
		if (nodeset_has(s, n))
			return (int)n;
	return -1;
}

int nodeset_mem_policy(enum nodeset_mpol mode, const struct nodeset *s)
{
	struct bitmask *b;
	errno = 0;
	switch (mode) {
	case NODESET_MPOL_DEFAULT:
		return 0;
	case NODESET_MPOL_PREFER:
		numa_set_preferred(first_node(s));
		break;
	case NODESET_MPOL_BIND:
		b = to_mask(s);
		numa_set_membind(b);
		numa_free_nodemask(b);
		break;
	case NODESET_MPOL_INTERLEAVE:
		b = to_mask(s);
		numa_set_interleave_mask(b);
		numa_free_nodemask(b);
		break;
	case NODESET_MPOL_LOCAL:
		numa_set_localalloc();
		break;
	}
	/* libnuma's setters return nothing: read the policy back */
	int got = -1;
	if (get_mempolicy(&got, NULL, 0, NULL, 0) < 0)
		return -errno;
	static const int want[] = { [NODESET_MPOL_PREFER] = MPOL_PREFERRED, [NODESET_MPOL_BIND] = MPOL_BIND,
				    [NODESET_MPOL_INTERLEAVE] = MPOL_INTERLEAVE, [NODESET_MPOL_LOCAL] = MPOL_LOCAL };
	return got == want[mode] ? 0 : -EINVAL;
}

int nodeset_mbind(void *addr, size_t len, enum nodeset_mpol mode, const struct nodeset *s)
{
	static const int kmode[] = { [NODESET_MPOL_PREFER] = MPOL_PREFERRED, [NODESET_MPOL_BIND] = MPOL_BIND,
				     [NODESET_MPOL_INTERLEAVE] = MPOL_INTERLEAVE, [NODESET_MPOL_LOCAL] = MPOL_LOCAL };
	if (mode == NODESET_MPOL_DEFAULT || !len)
		return 0;
	struct nodeset one = { { 0 } };
	const struct nodeset *use = s;
	if (mode == NODESET_MPOL_PREFER) {
		set_bit(&one, (unsigned)first_node(s));
		use = &one;
	}
	if (mode == NODESET_MPOL_LOCAL)
		return mbind(addr, len, kmode[mode], NULL, 0, MPOL_MF_MOVE) < 0 ? -errno : 0;
	return mbind(addr, len, kmode[mode], (const unsigned long *)use->bits, NODESET_MAX + 1,
		     MPOL_MF_MOVE) < 0 ? -errno : 0;
}
