/*
 * The process-level parts of bonnie++'s command line: -u/-g (drop to a
 * user and group before testing, by name or number, as bonnie_setugid()
 * does) and -p/-y (several bonnie processes starting each test together
 * through POSIX named semaphores, or a prompt on stdin).
 */
#ifndef IOBENCH_CMD_BONNIE_BONNIE_SYNC_INT_H
#define IOBENCH_CMD_BONNIE_BONNIE_SYNC_INT_H

#include <semaphore.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

/* Switch to user (name or number; its primary group, or "nogroup" for an
 * unknown number) and group (name or number), either may be NULL. Returns
 * 0 or -errno with a one-line message in why. */
int bonnie_setugid(const char *user, const char *group, char *why, size_t whylen);

/* -p N: (re)create the barrier for N processes; -p -1: remove it. */
int bonnie_sem_create(int procs, char *why, size_t whylen);
int bonnie_sem_remove(char *why, size_t whylen);

/* -y s: a barrier every process of -p reaches before each test. */
struct bonnie_barrier {
	sem_t *mutex, *count, *gate1, *gate2, *procs;
};
int bonnie_barrier_open(struct bonnie_barrier *b, char *why, size_t whylen);
/* Wait until every process has arrived; returns 0 or -errno (-EINTR when
 * *stop was set, e.g. by a signal). Reusable for the next test. */
int bonnie_barrier_wait(struct bonnie_barrier *b, volatile sig_atomic_t *stop);
void bonnie_barrier_close(struct bonnie_barrier *b);

/* -y p: print the test number to stderr, wait for a line on stdin. */
void bonnie_prompt(unsigned test);

#endif
