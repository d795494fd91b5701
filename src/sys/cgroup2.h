/*
 * cgroup v2 groups for job threads (fio's cgroup, cgroup_weight and
 * cgroup_nodelete): find the cgroup2 mount and the cgroup the process runs
 * in, create a threaded child group for jobs, move the calling thread into
 * it, say why an io weight cannot be set, and remove the group at the end.
 * Each iobench job is a thread, and cgroup v2 takes single threads only
 * into threaded groups inside the process's own subtree.
 */
#ifndef IOBENCH_SYS_CGROUP2_H
#define IOBENCH_SYS_CGROUP2_H

#include <stdbool.h>
#include <stddef.h>

/* The path of the group NAME under the cgroup this process runs in on the
 * cgroup2 mount (with the process in the root: MOUNT/NAME, as fio's), into
 * out (malloc'ed). -ENOENT with why when no cgroup2 filesystem is mounted. */
int cgroup2_group_path(const char *name, char **out, char *why, size_t whylen);
/* Make the group a threaded one: create it (*created then true) or check
 * that the existing one is threaded. 0 or -errno with why. */
int cgroup2_prepare(const char *path, bool *created, char *why, size_t whylen);
/* Why cgroup_weight cannot be applied to the job threads in path's
 * hierarchy, into why; returns -ENOTSUP (there is no case where it can). */
int cgroup2_weight_refusal(const char *path, unsigned weight, char *why, size_t whylen);
/* Move the calling thread into the group; 0 or -errno. */
int cgroup2_enter(const char *path);
/* Remove the group (after its threads ended: retried while busy). */
int cgroup2_remove(const char *path);

#endif
