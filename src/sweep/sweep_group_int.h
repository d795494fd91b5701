/*
 * The process group a sweep runs each command in, so that what a command
 * starts (the `sleep &` of a shell, a daemon a setup template forks) ends
 * with it and never outlives a SIGKILLed sweep: the child gets its own
 * process group and, where a cgroup v2 hierarchy is mounted and writable,
 * a cgroup of its own (iobench-sweep-PID-N below this process's cgroup),
 * entered before it execs. Without cgroups the sweep is a child subreaper
 * and the group is ended by its process group id, each member verified by
 * its session and start time (/proc/PID/stat fields 6 and 22), so a pid
 * someone else got since is never signalled. The journal records the
 * group ("procs PGID:START:SID CGROUP|-") before the child may exec;
 * restore ends it before it undoes anything.
 */
#ifndef IOBENCH_SWEEP_SWEEP_GROUP_INT_H
#define IOBENCH_SWEEP_SWEEP_GROUP_INT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct sweep_group {
	pid_t pgid;                /* the leader's pid, the group's id */
	unsigned long long start;  /* the leader's start time (clock ticks after boot) */
	pid_t sid;                 /* the session it runs in */
	char cgroup[PATH_MAX];     /* its cgroup v2 directory, or "" */
	int gate[2];               /* the child waits on gate[0] until the group is journaled */
};

/* Before fork: the gate pipe. 0 or -errno. */
int sweep_group_begin(struct sweep_group *g);
/* In the child, first thing: its own process group, then wait at the
 * gate (exits 125 when the parent closes it without letting it on). */
void sweep_group_child(struct sweep_group *g);
/* In the parent after fork: the group set, the cgroup made and the child
 * put in it (cgroup.procs) when cgroup v2 allows (IOBENCH_SWEEP_CGROUP=0
 * in the environment disables it), its start time read. */
void sweep_group_enter(struct sweep_group *g, pid_t pid);
/* Let the child run (ok) or make it exit without running (!ok). */
void sweep_group_release(struct sweep_group *g, bool ok);

/* The journal's words for g: a = "PGID:START:SID", b = the cgroup or "-". */
void sweep_group_format(const struct sweep_group *g, char *a, size_t alen, char *b, size_t blen);
/* Back from the journal's words: 0, or -EINVAL with why (malformed, or a
 * cgroup that is not one of a sweep's: named iobench-sweep-*, on cgroup2). */
int sweep_group_parse(const char *a, const char *b, struct sweep_group *g, char *why,
		      size_t whylen);
/* Does any process of the group still run? */
bool sweep_group_alive(const struct sweep_group *g);
/* SIGKILL every process of the group (the cgroup's, or the verified
 * members of the process group), wait until they are gone (reaping those
 * that are this process's children) and remove the cgroup. 0, or -1 with
 * why (some still run after 10 s). */
int sweep_group_end(const struct sweep_group *g, char *why, size_t whylen);
/* The start time of process pid (field 22 of /proc/PID/stat), its process
 * group and session; 0 or -errno. */
int sweep_proc_stat(pid_t pid, unsigned long long *start, pid_t *pgrp, pid_t *sid);

#endif
