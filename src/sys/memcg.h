/*
 * A memory cgroup made for one workload (--memory-limit), so that a machine
 * with far more RAM than the test file cannot serve the reads from its page
 * cache. memcg_create() finds the memory controller (cgroup v2's when this
 * process's v2 cgroup offers it, else the cgroup v1 memory hierarchy, as on
 * hybrid layouts), makes a child "iobench.PID" of the process's current
 * cgroup and forks a small keeper process that stays outside it.
 * memcg_enter() sets the limit (v2 memory.max, v1 memory.limit_in_bytes) and
 * moves the whole process, every thread, in (cgroup.procs). memcg_read()
 * reads what the limit did: v2 memory.events, memory.stat and memory.peak;
 * v1 memory.failcnt, memory.max_usage_in_bytes, memory.oom_control and
 * memory.stat. memcg_remove() has the keeper move the process back and
 * remove the cgroup: the keeper keeps the creator's privileges, so this
 * works after the workload dropped them (bonnie -u), and it also cleans up
 * when the process dies without asking (its socket closes).
 *
 * IOBENCH_CGROUP_ROOT=DIR replaces the lookup: DIR is the cgroup to make the
 * child in (v2 when it has cgroup.controllers, v1 when it has
 * memory.limit_in_bytes), for tests and unusual mounts.
 */
#ifndef IOBENCH_SYS_MEMCG_H
#define IOBENCH_SYS_MEMCG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define MEMCG_MIN_LIMIT (16ull << 20) /* iobench itself needs a few MiB */

/* What the limit did over the workload (counters since the cgroup was made). */
struct memcg_stats {
	unsigned version;       /* 1 or 2 */
	char path[256];         /* the cgroup directory */
	uint64_t limit_bytes;
	uint64_t peak_bytes;    /* 0 when the kernel does not say (v2 before 5.19) */
	uint64_t limit_hits;    /* v2 memory.events "max"; v1 memory.failcnt */
	uint64_t oom_kills;     /* memory.events / memory.oom_control "oom_kill" */
	bool have_scan;         /* v2 counts reclaim scans per cgroup, v1 does not */
	uint64_t scan_pages;    /* v2 memory.stat pgscan */
	uint64_t reclaim_pages; /* v2 pgsteal; v1 pgpgout (pages uncharged: reclaimed or freed) */
	uint64_t refault_anon;  /* workingset_refault_anon: the process's own memory came back */
	uint64_t refault_file;
	uint64_t swap_bytes;    /* v2 memory.swap.current; v1 memory.stat swap */
};

struct memcg {
	unsigned version;    /* 0 = none made */
	char *dir;           /* the cgroup made */
	char *home;          /* the cgroup the process came from */
	char *subtree_ctl;   /* v2: home's cgroup.subtree_control when we enabled
				memory there (undone at removal), else NULL */
	uint64_t limit;
	pid_t keeper;        /* the keeper process, or 0 */
	int sock;            /* to the keeper */
	bool entered;
};

/* Find the controller, make the child cgroup and the keeper. Returns 0, or
 * -errno with a one-line reason (what failed, where, what to do) in why. */
int memcg_create(struct memcg *m, uint64_t limit, char *why, size_t whylen);
/* Set the limit and move this process (all threads) in: 0 or -errno + why. */
int memcg_enter(struct memcg *m, char *why, size_t whylen);
/* The counters of the cgroup m made: 0 or -errno. Needs read access only. */
int memcg_read(const struct memcg *m, struct memcg_stats *st);
/* Move the process back, remove the cgroup and reap the keeper. Safe on a
 * zeroed or half-made m. 0, or -errno with the reason in why. */
int memcg_remove(struct memcg *m, char *why, size_t whylen);

/* Parsing, shared with the tests. */

/* This process's cgroup path in /proc/self/cgroup's text: the v2 line
 * ("0::/a/b") when controller is NULL, else the v1 line listing controller
 * ("4:memory:/a/b", "3:cpu,memory:/x"). 0 and the path in out, or -ENOENT. */
int memcg_parse_self(const char *text, const char *controller, char *out, size_t len);
/* The value of key in a "key value" per line file (memory.stat,
 * memory.events, memory.oom_control): 0, or -ENOENT. */
int memcg_parse_kv(const char *text, const char *key, uint64_t *val);
/* Whether a space-separated list (cgroup.controllers) holds word. */
bool memcg_list_has(const char *list, const char *word);

#endif
