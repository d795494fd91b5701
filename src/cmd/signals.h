/*
 * SIGINT/SIGTERM handling shared by the commands that run workloads: the
 * first signal asks every job to stop (results so far are still reported),
 * a second one of the same kind kills the process the default way.
 */
#ifndef IOBENCH_CMD_SIGNALS_H
#define IOBENCH_CMD_SIGNALS_H

#include <signal.h>

/* Install the handlers; returns the flag the workload polls. */
volatile sig_atomic_t *signals_install(void);
/* The signal that stopped the run (0 if none): exit with 128 + it. */
int signals_caught(void);

#endif
