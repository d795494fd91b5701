/*
 * fio's local trigger (--trigger-file, --trigger-timeout, --trigger): the
 * main thread checks, while the jobs run, whether the trigger file has
 * appeared (it is then removed, as fio does) or the trigger time has come;
 * the first time either happens the run stops every job and runs the
 * trigger command through the shell.
 */
#ifndef IOBENCH_WORKLOAD_TRIGGER_INT_H
#define IOBENCH_WORKLOAD_TRIGGER_INT_H

#include <stdbool.h>
#include <stdint.h>

struct run_control;

struct trigger {
	const char *file;
	const char *cmd;
	uint64_t deadline_ns; /* 0: no timeout */
	bool fired;
};

/* start_ns: when the run began (the timeout counts from there) */
void trigger_init(struct trigger *t, const struct run_control *ctl, uint64_t start_ns);
/* true once, when the trigger fires at now_ns; the caller stops the jobs
 * and then calls trigger_run */
bool trigger_check(struct trigger *t, uint64_t now_ns);
/* Run the trigger command, if there is one (a failure is a warning: the
 * results stand). */
void trigger_run(const struct trigger *t);

#endif
