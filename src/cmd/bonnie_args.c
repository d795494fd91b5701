/*
 * bonnie++ 2.00a's flags into a struct bonnie_spec (bonnie_args.h).
 * Letters may be grouped ("-qb"), a value may be attached ("-s64") or be the
 * next word ("-s 64"), except -f whose value must be attached as with
 * bonnie++'s getopt ("-f" alone skips the per-char tests, "-f4" makes them
 * 4 MiB). An empty part of a colon list keeps its default.
 */
#include "cmd/bonnie_args.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys/sysmem.h"
#include "util/strutil.h"
#include "util/xmalloc.h"

#define MIB (1024ull * 1024)

static int fail(char *why, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int bonnie_parse_num(const char *s, const char *suffixes, long long *out)
{
	const char *p = s;
	if (*p == '-')
		p++;
	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	errno = 0;
	char *end;
	long long v = strtoll(s, &end, 10);
	if (errno)
		return -EINVAL;
	if (*end) {
		const char *hit = suffixes && !end[1] ? strchr(suffixes, tolower((unsigned char)*end)) : NULL;
		if (!hit || !*end)
			return -EINVAL;
		for (long i = 0; i <= hit - suffixes; i++) {
			if (v > LLONG_MAX / 1024 || v < LLONG_MIN / 1024)
				return -EINVAL;
			v *= 1024;
		}
	}
	*out = v;
	return 0;
}

/* A non-negative number that fits in max. */
static int num_in(const char *s, const char *sfx, long long max, long long *out)
{
	if (bonnie_parse_num(s, sfx, out) < 0 || *out < 0 || *out > max)
		return -EINVAL;
	return 0;
}

/* -s size[:chunk[:seeks[:seekers]]] */
static int parse_s(struct bonnie_args *a, const char *v, char *why, size_t len)
{
	char **f;
	size_t n = str_split_escaped(v, ':', &f);
	long long x;
	int rc = 0;
	if (n > 4) {
		rc = fail(why, len, "-s '%s' has %zu parts; bonnie++ takes size[:chunk[:seeks[:seekers]]]", v, n);
		goto out;
	}
	if (num_in(f[0], "gt", (long long)(UINT64_MAX / MIB / 2), &x) < 0) {
		rc = fail(why, len, "bad file size '%s' in -s '%s': give MiB, or a g or t suffix", f[0], v);
		goto out;
	}
	a->spec.file_size = (uint64_t)x * MIB;
	a->size_given = true;
	if (n > 1 && *f[1]) {
		if (num_in(f[1], "k", UINT_MAX, &x) < 0) {
			rc = fail(why, len, "bad chunk size '%s' in -s '%s': give bytes, or a k suffix", f[1], v);
			goto out;
		}
		a->spec.chunk_size = (unsigned)x;
	}
	if (n > 2 && *f[2]) {
		if (num_in(f[2], "k", UINT_MAX, &x) < 0 || !x) {
			rc = fail(why, len, "bad number of seeks '%s' in -s '%s'", f[2], v);
			goto out;
		}
		a->spec.seeks = (unsigned)x;
	}
	if (n > 3 && *f[3]) {
		if (num_in(f[3], NULL, 1000, &x) < 0 || !x) {
			rc = fail(why, len, "bad number of seekers '%s' in -s '%s': give 1 to 1000", f[3], v);
			goto out;
		}
		a->spec.seekers = (unsigned)x;
	}
out:
	str_list_free(f);
	return rc;
}

/* -n num[:max[:min[:dirs[:chunk]]]] */
static int parse_n(struct bonnie_args *a, const char *v, char *why, size_t len)
{
	char **f;
	size_t n = str_split_escaped(v, ':', &f);
	long long x;
	int rc = 0;
	if (n > 5) {
		rc = fail(why, len, "-n '%s' has %zu parts; bonnie++ takes num[:max[:min[:dirs[:chunk]]]]", v, n);
		goto out;
	}
	if (num_in(f[0], "m", 4194304, &x) < 0) {
		rc = fail(why, len, "bad number of files '%s' in -n '%s': give multiples of 1024 files", f[0], v);
		goto out;
	}
	a->spec.num_files = (unsigned)x;
	if (n > 1 && *f[1]) {
		if (bonnie_parse_num(f[1], "kmg", &x) < 0 || x > LONG_MAX ||
		    (x < 0 && x != BONNIE_HARD_LINKS && x != BONNIE_SOFT_LINKS)) {
			rc = fail(why, len, "bad maximum file size '%s' in -n '%s': give bytes (k, m, g "
				  "suffixes), -1 for hard links or -2 for symlinks", f[1], v);
			goto out;
		}
		a->spec.max_size = (long)x;
	}
	if (n > 2 && *f[2]) {
		if (num_in(f[2], "kmg", LONG_MAX, &x) < 0) {
			rc = fail(why, len, "bad minimum file size '%s' in -n '%s'", f[2], v);
			goto out;
		}
		a->spec.min_size = (long)x;
	}
	if (n > 3 && *f[3]) {
		if (num_in(f[3], "k", 1000000, &x) < 0) {
			rc = fail(why, len, "bad number of directories '%s' in -n '%s'", f[3], v);
			goto out;
		}
		a->spec.num_dirs = (unsigned)x;
	}
	if (n > 4 && *f[4]) {
		if (num_in(f[4], "kmg", UINT_MAX, &x) < 0) {
			rc = fail(why, len, "bad file chunk size '%s' in -n '%s'", f[4], v);
			goto out;
		}
		a->spec.file_chunk_size = (unsigned)x;
	}
out:
	str_list_free(f);
	return rc;
}

static int parse_user(struct bonnie_args *a, const char *v, char *why, size_t len)
{
	if (a->user)
		return fail(why, len, "-u given twice");
	const char *colon = strchr(v, ':');
	if (colon) {
		if (a->group)
			return fail(why, len, "-u '%s' names a group and so does -g", v);
		a->group = xstrdup(colon + 1);
		a->user = xstrndup(v, (size_t)(colon - v));
	} else {
		a->user = xstrdup(v);
	}
	if (!*a->user)
		return fail(why, len, "-u '%s' names no user", v);
	return 0;
}

/* One letter flag; *val is its value (NULL if it takes none). */
static int apply_letter(struct bonnie_args *a, char c, const char *v, char *why, size_t len)
{
	struct bonnie_spec *s = &a->spec;
	long long x;
	switch (c) {
	case 'b': s->sync_writes = true; return 0;
	case 'D': s->direct = true; return 0;
	case 'q': s->quiet = true; return 0;
	case 'h': a->help = true; return 0;
	case 'd':
		if (!*v)
			return fail(why, len, "-d needs a directory");
		s->dir = v;
		return 0;
	case 'm': s->machine = v; return 0;
	case 's': return parse_s(a, v, why, len);
	case 'n': return parse_n(a, v, why, len);
	case 'u': return parse_user(a, v, why, len);
	case 'Z': s->random_file = v; return 0;
	case 'f':
		if (!v) {
			s->skip_putc = true;
			return 0;
		}
		if (num_in(v, NULL, 1 << 20, &x) < 0)
			return fail(why, len, "bad per-char size '%s' in -f%s: give MiB attached to -f", v, v);
		s->putc_size = (uint64_t)x * MIB;
		s->skip_putc = x == 0;
		return 0;
	case 'g':
		if (a->group)
			return fail(why, len, "-g '%s' names a group and so does -u or another -g", v);
		a->group = xstrdup(v);
		return 0;
	case 'c':
		if (num_in(v, NULL, 200, &x) < 0 || x < 1)
			return fail(why, len, "bad concurrency '%s' in -c: give 1 to 200", v);
		s->concurrency = (unsigned)x;
		return 0;
	case 'r':
		if (num_in(v, NULL, (long long)(UINT64_MAX / MIB), &x) < 0)
			return fail(why, len, "bad RAM size '%s' in -r: give MiB", v);
		s->ram_mb = (uint64_t)x;
		a->ram_given = true;
		return 0;
	case 'x':
		if (num_in(v, NULL, UINT_MAX, &x) < 0 || x < 1)
			return fail(why, len, "bad number of tests '%s' in -x", v);
		s->repeats = (unsigned)x;
		a->repeats_given = true;
		return 0;
	case 'z': {
		char *end;
		errno = 0;
		unsigned long long seed = strtoull(v, &end, 10);
		if (!isdigit((unsigned char)*v) || *end || errno)
			return fail(why, len, "bad seed '%s' in -z", v);
		s->seed = seed;
		s->have_seed = true;
		return 0;
	}
	case 'p':
		if (bonnie_parse_num(v, NULL, &x) < 0 || x < -1 || x == 0 || x > 100000)
			return fail(why, len, "bad process count '%s' in -p: give a number, or -1 to delete "
				    "the semaphores", v);
		a->sem_procs = (int)x;
		return 0;
	case 'y':
		if (tolower((unsigned char)v[0]) == 's' && !v[1])
			a->sync = BONNIE_SYNC_SEM;
		else if (tolower((unsigned char)v[0]) == 'p' && !v[1])
			a->sync = BONNIE_SYNC_PROMPT;
		else
			return fail(why, len, "bad -y '%s': use s (semaphores) or p (prompt)", v);
		return 0;
	}
	return fail(why, len, "unknown flag '-%c' for 'iobench bonnie'; see 'iobench help bonnie'", c);
}

static bool takes_value(char c)
{
	return strchr("dsnmrxugczZpy", c) != NULL;
}

static bool long_val(const char *arg, const char *name, const char **val)
{
	size_t n = strlen(name);
	if (strncmp(arg, name, n) || arg[n] != '=')
		return false;
	*val = arg + n + 1;
	return true;
}

static int apply_long(struct bonnie_args *a, int argc, char **argv, int *i, char *why, size_t len)
{
	const char *arg = argv[*i], *v;
	int rc = envwatch_parse_flag(&a->env, arg, why, len);
	if (rc != 0)
		return rc < 0 ? rc : 0;
	if (!strcmp(arg, "--help")) {
		a->help = true;
	} else if (!strcmp(arg, "--precise")) {
		a->precise = 1;
	} else if (!strcmp(arg, "--no-precise")) {
		a->precise = 0;
	} else if (!strcmp(arg, "--random-data")) {
		a->spec.random_data = true;
	} else if (!strcmp(arg, "--readonly")) {
		a->spec.guard.readonly_by = "--readonly";
	} else if (long_val(arg, "--output-format", &v)) {
		if (!strcmp(v, "normal") || !strcmp(v, "text"))
			a->output = BONNIE_OUT_NORMAL;
		else if (!strcmp(v, "json"))
			a->output = BONNIE_OUT_JSON;
		else
			return fail(why, len, "unknown --output-format '%s': use normal or json", v);
	} else if (!strcmp(arg, "--allow-destroy") || long_val(arg, "--allow-destroy", &v)) {
		if (!strcmp(arg, "--allow-destroy")) {
			if (*i + 1 >= argc)
				return fail(why, len, "--allow-destroy needs a DEVICE");
			v = argv[++*i];
		}
		if (!*v)
			return fail(why, len, "--allow-destroy needs a DEVICE");
		a->allow[a->nr_allow++] = v;
	} else {
		return fail(why, len, "unknown option '%s' for 'iobench bonnie'; see 'iobench help bonnie'",
			    arg);
	}
	return 0;
}

/* bonnie++: the RAM is detected unless -r says; without -s, the file is
 * twice the RAM, rounded up to a GiB when more than half a GiB over. Under
 * --memory-limit the RAM the test can use is the limit. */
static void default_size(struct bonnie_args *a)
{
	struct bonnie_spec *s = &a->spec;
	if (!a->ram_given) {
		uint64_t ram = sys_mem_bytes();
		if (a->env.memory_limit && (!ram || a->env.memory_limit < ram))
			ram = a->env.memory_limit;
		s->ram_mb = ram / MIB;
	}
	if (!a->size_given && s->ram_mb) {
		uint64_t mb = s->file_size / MIB;
		if (mb < s->ram_mb * 2)
			mb = s->ram_mb * 2;
		if (mb % 1024 > 512)
			mb += 1024 - mb % 1024;
		s->file_size = mb * MIB;
	}
	if (s->putc_size > s->file_size)
		s->putc_size = s->file_size;
}

int bonnie_args_parse(int argc, char **argv, struct bonnie_args *a, char *why, size_t len)
{
	memset(a, 0, sizeof(*a));
	bonnie_spec_init(&a->spec);
	envwatch_opts_init(&a->env);
	a->precise = -1;
	a->allow = xcalloc((size_t)argc + 1, sizeof(*a->allow));
	a->spec.guard.devices = a->allow;
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		int rc;
		if (!strncmp(arg, "--", 2) && arg[2]) {
			rc = apply_long(a, argc, argv, &i, why, len);
			a->spec.guard.nr_devices = a->nr_allow;
			if (rc < 0)
				return rc;
			continue;
		}
		if (arg[0] != '-' || !arg[1])
			return fail(why, len, "unexpected argument '%s': bonnie++ takes flags only "
				    "(a -f size must be attached, as in -f4)", arg);
		for (const char *p = arg + 1; *p; p++) {
			const char *v = NULL;
			if (*p == 'f') {
				v = p[1] ? p + 1 : NULL;
			} else if (takes_value(*p)) {
				if (p[1])
					v = p + 1;
				else if (i + 1 < argc)
					v = argv[++i];
				else
					return fail(why, len, "-%c needs a value", *p);
			}
			rc = apply_letter(a, *p, v, why, len);
			if (rc < 0)
				return rc;
			if (v)
				break;
		}
	}
	if (a->sem_procs && a->sync != BONNIE_SYNC_NONE)
		return fail(why, len, "-p makes the semaphores and -y uses them: give one of them");
	default_size(a);
	return 0;
}

void bonnie_args_release(struct bonnie_args *a)
{
	free(a->user);
	free(a->group);
	free(a->allow);
	memset(a, 0, sizeof(*a));
}
