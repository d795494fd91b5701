/*
 * Signal handling of the commands, one flag for the whole process. For
 * the commands that run workloads (signals_install): the first SIGINT,
 * SIGTERM, SIGHUP or SIGQUIT asks every job to stop (results so far are
 * still reported, files the run made are removed) and the command exits
 * with 128 + that signal. The same signal again within a second is the
 * same request delivered twice (timeout(1) signals the child, then its
 * process group) and is ignored; any later or other one kills the process
 * the default way, giving up the cleanup. SIGPIPE is ignored, so a closed
 * stdout is a write error that the command reports rather than a silent
 * death. For a sweep (signals_install_restore): the first SIGINT, SIGTERM
 * or SIGHUP stops it, and every later one is ignored, since its cleanup
 * restores the machine from its journal and must not be given up; SIGQUIT
 * and SIGPIPE keep what they had.
 */
#ifndef IOBENCH_SYS_SIGNALS_H
#define IOBENCH_SYS_SIGNALS_H

#include <signal.h>

/* Install the handlers; returns the flag the workload polls. */
volatile sig_atomic_t *signals_install(void);
/* A sweep's handlers; returns the same flag. */
volatile sig_atomic_t *signals_install_restore(void);
/* Add the signals that stop a run to *set (to hold them off briefly). */
void signals_add_stop_set(sigset_t *set);
/* The first signal that stopped the run (0 if none): exit with 128 + it. */
int signals_caught(void);

#endif
