/*
 * Signal handlers for signals.h. The flag and the signal number are the only
 * mutable globals in iobench: a signal handler can reach nothing else.
 */
#include "cmd/signals.h"

#include <string.h>

static volatile sig_atomic_t stop_requested;
static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_requested = 1;
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
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	return &stop_requested;
}

int signals_caught(void)
{
	return stop_signal;
}
