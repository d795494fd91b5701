/*
 * CPU sets and per-thread scheduling for affinity.h: parsing fio's
 * cpus_allowed lists and cpumask bit masks, picking a job's CPUs under
 * cpus_allowed_policy, and applying affinity, nice and I/O priority to the
 * calling thread (Linux keeps all three per thread).
 */
#include "sys/affinity.h"

#include <ctype.h>
#include <errno.h>
#include <linux/ioprio.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

__attribute__((format(printf, 3, 4)))
static int fail(char *why, size_t whylen, const char *fmt, ...)
{
	if (why && whylen) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(why, whylen, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

unsigned cpus_configured(void)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);
	if (n < 1)
		return 1;
	return n > CPU_SETSIZE ? CPU_SETSIZE : (unsigned)n;
}

static int cpu_missing(unsigned long cpu, char *why, size_t whylen)
{
	unsigned n = cpus_configured();
	if (n == 1)
		fail(why, whylen, "CPU %lu does not exist (this machine has CPU 0 only)", cpu);
	else
		fail(why, whylen, "CPU %lu does not exist (this machine has CPUs 0-%u)", cpu, n - 1);
	return -ERANGE;
}

/* A CPU number at *p; advances *p. */
static int cpu_number(const char **p, unsigned long *cpu, const char *s, char *why, size_t whylen)
{
	while (isspace((unsigned char)**p))
		(*p)++;
	if (!isdigit((unsigned char)**p))
		return fail(why, whylen, "'%s' is not a list of CPUs such as 0-3,6", s);
	errno = 0;
	char *end;
	*cpu = strtoul(*p, &end, 10);
	if (errno)
		return fail(why, whylen, "CPU number in '%s' is too large", s);
	*p = end;
	while (isspace((unsigned char)**p))
		(*p)++;
	return 0;
}

int cpuset_parse(const char *s, cpu_set_t *out, char *why, size_t whylen)
{
	unsigned n = cpus_configured();
	CPU_ZERO(out);
	const char *p = s;
	while (*p) {
		while (isspace((unsigned char)*p))
			p++;
		if (*p == ',') { /* empty element: skipped, as fio does */
			p++;
			continue;
		}
		if (!*p)
			break;
		unsigned long lo, hi;
		int ret = cpu_number(&p, &lo, s, why, whylen);
		if (ret)
			return ret;
		hi = lo;
		if (*p == '-') {
			p++;
			if ((ret = cpu_number(&p, &hi, s, why, whylen)))
				return ret;
			if (hi < lo)
				return fail(why, whylen, "CPU range %lu-%lu in '%s' is backwards", lo, hi, s);
		}
		if (*p && *p != ',')
			return fail(why, whylen, "'%s' is not a list of CPUs such as 0-3,6", s);
		if (hi >= n)
			return cpu_missing(hi, why, whylen);
		for (unsigned long c = lo; c <= hi; c++)
			CPU_SET(c, out);
	}
	if (!CPU_COUNT(out))
		return fail(why, whylen, "'%s' names no CPU", s);
	return 0;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)tolower((unsigned char)c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

int cpumask_parse(const char *s, cpu_set_t *out, char *why, size_t whylen)
{
	unsigned n = cpus_configured();
	CPU_ZERO(out);
	while (isspace((unsigned char)*s))
		s++;
	size_t len = strlen(s);
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		unsigned bit = 0;
		for (size_t i = len; i-- > 2; bit += 4) {
			int v = hexval(s[i]);
			if (v < 0)
				return fail(why, whylen, "'%.*s' is not a CPU mask such as 0x3 or 34", (int)len, s);
			for (int b = 0; b < 4; b++) {
				if (!(v & (1 << b)))
					continue;
				if (bit + (unsigned)b >= n)
					return cpu_missing(bit + (unsigned)b, why, whylen);
				CPU_SET(bit + (unsigned)b, out);
			}
		}
	} else {
		for (size_t i = 0; i < len; i++)
			if (!isdigit((unsigned char)s[i]))
				return fail(why, whylen, "'%.*s' is not a CPU mask such as 0x3 or 34", (int)len, s);
		if (!len)
			return fail(why, whylen, "an empty CPU mask names no CPU");
		errno = 0;
		unsigned long long v = strtoull(s, NULL, 10);
		if (errno)
			return fail(why, whylen, "CPU mask '%.*s' is too large; use 0x... or cpus_allowed", (int)len, s);
		for (unsigned b = 0; b < 64; b++) {
			if (!(v & (1ULL << b)))
				continue;
			if (b >= n)
				return cpu_missing(b, why, whylen);
			CPU_SET(b, out);
		}
	}
	if (!CPU_COUNT(out))
		return fail(why, whylen, "CPU mask '%.*s' names no CPU", (int)len, s);
	return 0;
}

void cpuset_format(const cpu_set_t *set, char *buf, size_t len)
{
	size_t used = 0;
	if (len)
		buf[0] = 0;
	for (int c = 0; c < CPU_SETSIZE; c++) {
		if (!CPU_ISSET(c, set))
			continue;
		int e = c;
		while (e + 1 < CPU_SETSIZE && CPU_ISSET(e + 1, set))
			e++;
		int w = e == c ? snprintf(buf + used, len - used, "%s%d", used ? "," : "", c)
			       : snprintf(buf + used, len - used, "%s%d-%d", used ? "," : "", c, e);
		if (w < 0 || (size_t)w >= len - used)
			return; /* truncated */
		used += (size_t)w;
		c = e;
	}
}

int affinity_for_job(const cpu_set_t *allowed, bool split, unsigned jobnum, cpu_set_t *out)
{
	int count = CPU_COUNT(allowed);
	if (!count)
		return -EINVAL;
	if (!split) {
		*out = *allowed;
		return 0;
	}
	int nth = (int)(jobnum % (unsigned)count);
	CPU_ZERO(out);
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, allowed) && nth-- == 0) {
			CPU_SET(c, out);
			return 0;
		}
	return -EINVAL; /* not reached */
}

int affinity_apply(const cpu_set_t *set)
{
	return -pthread_setaffinity_np(pthread_self(), sizeof(*set), set);
}

static int nice_get(pid_t tid, int *nice)
{
	errno = 0;
	int v = getpriority(PRIO_PROCESS, (id_t)tid);
	if (v == -1 && errno)
		return -errno;
	*nice = v;
	return 0;
}

int sched_apply(int nice_delta, int ioprio_class, int ioprio)
{
	pid_t tid = gettid();
	if (nice_delta) {
		int cur, ret = nice_get(tid, &cur);
		if (ret)
			return ret;
		int want = cur + nice_delta;
		want = want < -20 ? -20 : want > 19 ? 19 : want;
		if (setpriority(PRIO_PROCESS, (id_t)tid, want))
			return -errno;
	}
	if (ioprio_class < 0 && ioprio < 0)
		return 0;
	if (ioprio_class <= 0)
		ioprio_class = IOPRIO_CLASS_BE;
	if (ioprio < 0)
		ioprio = 0;
	if (ioprio_class > IOPRIO_CLASS_IDLE || ioprio >= IOPRIO_NR_LEVELS)
		return -EINVAL;
	if (syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, (int)tid,
		    (int)IOPRIO_PRIO_VALUE(ioprio_class, ioprio)))
		return -errno;
	return 0;
}

int sched_read(int *nice, int *ioprio_class, int *ioprio)
{
	pid_t tid = gettid();
	int ret = nice_get(tid, nice);
	if (ret)
		return ret;
	long v = syscall(SYS_ioprio_get, IOPRIO_WHO_PROCESS, (int)tid);
	if (v < 0)
		return -errno;
	*ioprio_class = (int)IOPRIO_PRIO_CLASS(v);
	*ioprio = (int)IOPRIO_PRIO_DATA(v);
	return 0;
}
