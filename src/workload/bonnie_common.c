/*
 * Helpers every part of the bonnie++ runner uses (bonnie_int.h): recording
 * a copy's first error, opening the test file through the guarded open,
 * the aligned I/O buffers, process CPU time, the phase timer and the data
 * the bulk phases write.
 */
#include "workload/bonnie_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "sys/guardopen.h"
#include "sys/cpuusage.h"
#include "util/xmalloc.h"

int bon_failf(struct bon_copy *c, int err, const char *path, const char *fmt, ...)
{
	if (!c->error) {
		char what[2600];
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(what, sizeof(what), fmt, ap);
		va_end(ap);
		c->error = -err;
		c->error_msg = xasprintf("%s: %s", path, what);
	}
	atomic_store(&c->sh->abort, 1);
	return err;
}

int bon_fail(struct bon_copy *c, int err, const char *path, const char *what)
{
	return bon_failf(c, err, path, "%s: %s", what, strerror(-err));
}

int bon_open_iofile(struct bon_copy *c, int flags)
{
	static const struct devguard_seen regular = { .type = S_IFREG };
	struct devguard_use u = { .kind = DEVGUARD_DATA, .what = DEVGUARD_WRITE,
				  .allow = &c->spec->guard, .seen = &regular, .dir_checked = true };
	struct devguard_fd g;
	char why[2560];
	int rc = devguard_openat(c->wfd, c->iofile_rel, flags, 0600, &u, &g, why, sizeof(why));
	if (rc < 0 && !strncmp(why, "cannot ", 7)) /* the open failed: not a refusal */
		return bon_fail(c, rc, c->iofile, flags & O_DIRECT ? "open with O_DIRECT" : "open");
	if (rc < 0)
		return bon_failf(c, rc, c->iofile, "%s", why);
	return g.fd;
}

unsigned char *bon_alloc_buf(struct bon_copy *c, size_t len, const char *what)
{
	void *p = NULL;
	int rc = posix_memalign(&p, 4096, len ? len : 1);
	if (rc) {
		bon_failf(c, -rc, c->workdir, "cannot allocate %s of %zu bytes: %s", what, len,
			  strerror(rc));
		return NULL;
	}
	return p;
}

uint64_t bon_process_cpu_ns(void)
{
	struct rusage ru;
	if (getrusage(RUSAGE_SELF, &ru) < 0)
		return 0;
	return ((uint64_t)ru.ru_utime.tv_sec + (uint64_t)ru.ru_stime.tv_sec) * 1000000000ull +
	       ((uint64_t)ru.ru_utime.tv_usec + (uint64_t)ru.ru_stime.tv_usec) * 1000ull;
}

uint64_t bon_thread_busy_ns(void)
{
	uint64_t run, wait;
	cpu_sched_thread(&run, &wait);
	return run + wait;
}

void bon_timer_stop(const struct bon_copy *c, const struct bon_timer *t, struct bonnie_phase *p)
{
	uint64_t now = clock_ns(&c->sh->clk);
	uint64_t cpu = bon_process_cpu_ns();
	uint64_t busy = bon_thread_busy_ns();
	p->elapsed_ns += now > t->t0 ? now - t->t0 : 0;
	p->cpu_ns += cpu > t->cpu0 ? cpu - t->cpu0 : 0;
	p->busy_ns += busy > t->busy0 ? busy - t->busy0 : 0;
	if (!p->threads)
		p->threads = 1;
}

/* bonnie++ writes a mostly-zero buffer whose bytes it bumps as it goes (the
 * bulk loops bump one byte per chunk); --random-data starts from PRNG bytes
 * instead, so nothing compresses. */
void bon_fill(struct bon_copy *c, unsigned char *buf, size_t len)
{
	if (!c->spec->random_data) {
		memset(buf, 0, len);
		return;
	}
	size_t i = 0;
	for (; i + 8 <= len; i += 8) {
		uint64_t v = rng_next(&c->rng);
		memcpy(buf + i, &v, 8);
	}
	for (; i < len; i++)
		buf[i] = (unsigned char)rng_next(&c->rng);
}
