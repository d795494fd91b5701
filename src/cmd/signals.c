/*
 * Signal handlers for signals.h. The flag and the signal number are, with
 * the error capture pointer (util/error.h), the only mutable globals in
 * iobench: a signal handler can reach nothing else.
 */
#include "cmd/signals.h"

#include <string.h>

static volatile sig_atomic_t stop_requested;
static volatile sig_atomic_t stop_signal;

/* The signals that end a run: ^C, kill, a closed terminal or dropped ssh
 * session, ^\. Each one's default action would kill iobench with files
 * (unlink=1, Bonnie.PID) left behind. */
static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

static void on_signal(int sig)
{
	stop_requested = 1;
	if (!stop_signal)
		stop_signal = sig;
	/* a second signal of the same kind is not caught */
	signal(sig, SIG_DFL);
}

volatile sig_atomic_t *signals_install(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		sigaddset(&sa.sa_mask, stop_signals[i]);
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		sigaction(stop_signals[i], &sa, NULL);
	/* A reader that went away (iobench run ... | head -c1) makes writes
	 * fail with EPIPE, which the output checks report, instead of killing
	 * the process in the middle of a run. */
	signal(SIGPIPE, SIG_IGN);
	return &stop_requested;
}

void signals_add_stop_set(sigset_t *set)
{
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		sigaddset(set, stop_signals[i]);
}

int signals_caught(void)
{
	return stop_signal;
}
