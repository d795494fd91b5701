/*
 * Signal handlers for signals.h. The flag, the signal number and when it
 * came are, with the error capture pointer (util/error.h), the only mutable
 * globals in iobench: a signal handler can reach nothing else.
 */
#include "sys/signals.h"
#include "util/array.h"

#include <stdbool.h>
#include <string.h>
#include <time.h>

static volatile sig_atomic_t stop_requested;
static volatile sig_atomic_t stop_signal;
static volatile sig_atomic_t stop_ms; /* CLOCK_MONOTONIC ms of the first, truncated */

/* A repeat of the first signal within this long is the same request sent
 * twice (timeout(1) signals its child and then the child's process group;
 * a terminal's ^C reaches every process of the group): it is not a second
 * ^C asking to give up the cleanup. */
#define REPEAT_GRACE_MS 1000u

static unsigned now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts); /* async-signal-safe */
	return (unsigned)ts.tv_sec * 1000u + (unsigned)(ts.tv_nsec / 1000000);
}

/* The signals that end a run: ^C, kill, a closed terminal or dropped ssh
 * session, ^\. Each one's default action would kill iobench with files
 * (unlink=1, Bonnie.PID) left behind. */
static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

/* A sweep's: its cleanup restores the machine, and no signal gives it up. */
static const int restore_signals[] = { SIGINT, SIGTERM, SIGHUP };

/* Record a stop request: true for the first one. */
static bool note(int sig)
{
	stop_requested = 1;
	if (stop_signal)
		return false;
	stop_signal = sig;
	stop_ms = (sig_atomic_t)now_ms();
	return true;
}

static void on_restore_signal(int sig)
{
	note(sig);
}

static void on_signal(int sig)
{
	if (note(sig))
		return;
	if (sig == stop_signal && now_ms() - (unsigned)stop_ms < REPEAT_GRACE_MS)
		return;
	/* asked again later (or another of them): give up the cleanup and
	 * take the signal's default action */
	signal(sig, SIG_DFL);
	raise(sig);
}

/* handler for each of sigs[0..n), with all of them held off while it
 * runs; no SA_RESTART, so a wait returns at a signal */
static void install(void (*handler)(int), const int *sigs, size_t n)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < n; i++)
		sigaddset(&sa.sa_mask, sigs[i]);
	for (size_t i = 0; i < n; i++)
		sigaction(sigs[i], &sa, NULL);
}

volatile sig_atomic_t *signals_install_restore(void)
{
	install(on_restore_signal, restore_signals,
		ARRAY_SIZE(restore_signals));
	return &stop_requested;
}

volatile sig_atomic_t *signals_install(void)
{
	install(on_signal, stop_signals, ARRAY_SIZE(stop_signals));
	/* A reader that went away (iobench run ... | head -c1) makes writes
	 * fail with EPIPE, which the output checks report, instead of killing
	 * the process in the middle of a run. */
	signal(SIGPIPE, SIG_IGN);
	return &stop_requested;
}

void signals_add_stop_set(sigset_t *set)
{
	for (size_t i = 0; i < ARRAY_SIZE(stop_signals); i++)
		sigaddset(set, stop_signals[i]);
}

int signals_caught(void)
{
	return stop_signal;
}
