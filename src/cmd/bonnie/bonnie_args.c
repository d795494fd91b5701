/*
 * bonnie++ 2.00a's flags into a struct bonnie_spec (bonnie_args.h).
 * Letters may be grouped ("-qb"), a value may be attached ("-s64") or be the
 * next word ("-s 64"), except -f whose value must be attached as with
 * bonnie++'s getopt ("-f" alone skips the per-char tests, "-f4" makes them
 * 4 MiB). An empty part of a colon list keeps its default. The letters and
 * the long options are rows of the shared parser (cli/cmdopt.h); the
 * shared options (--output-format, the guard's, the watch's) are
 * cli/common_opts.h's.
 */
#include "cmd/bonnie/bonnie_args_int.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/command.h"
#include "sys/sysmem.h"
#include "util/strutil.h"
#include "util/xmalloc.h"

#define MIB (1024ull * 1024)

extern const struct command cmd_bonnie; /* its rows and shared options */

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

static int letter(void *dest, const struct cmdopt *o, const char *v, char *why, size_t len)
{
	return apply_letter(dest, o->letter, v, why, len);
}

static int set_precise(void *dest, const struct cmdopt *o, const char *v, char *why, size_t len)
{
	struct bonnie_args *a = dest;
	a->precise = !strcmp(o->name, "precise");
	return 0;
}

static int unexpected(void *arg, const char *word, char *why, size_t len)
{
	return fail(why, len, "unexpected argument '%s': bonnie++ takes flags only (a -f size must be "
		    "attached, as in -f4)", word);
}

/* bonnie++ 2.00a's getopt string is "bc:d:f::g:l:m:n:p:qr:s:u:x:y:z:Z:D"
 * (its undocumented -l is not iobench's); -h is iobench's. The letters are described in
 * the usage text; the long options beyond bonnie++ are listed, and
 * -h/--help is the shared row. */
#define LETTER(c, arg) { NULL, c, arg, CMDOPT_CALL, 0, letter, 0, NULL, NULL }
const struct cmdopt bonnie_rows[] = {
	LETTER('b', CMDOPT_NOARG),
	LETTER('c', CMDOPT_REQARG),
	LETTER('d', CMDOPT_REQARG),
	LETTER('f', CMDOPT_OPTARG),
	LETTER('g', CMDOPT_REQARG),
	LETTER('m', CMDOPT_REQARG),
	LETTER('n', CMDOPT_REQARG),
	LETTER('p', CMDOPT_REQARG),
	LETTER('q', CMDOPT_NOARG),
	LETTER('r', CMDOPT_REQARG),
	LETTER('s', CMDOPT_REQARG),
	LETTER('u', CMDOPT_REQARG),
	LETTER('x', CMDOPT_REQARG),
	LETTER('y', CMDOPT_REQARG),
	LETTER('z', CMDOPT_REQARG),
	LETTER('Z', CMDOPT_REQARG),
	LETTER('D', CMDOPT_NOARG),
	{ "precise", 0, CMDOPT_NOARG, CMDOPT_CALL, 0, set_precise, 0, NULL,
	  "repeat any phase shorter than half a second until it lasts that long, so no "
	  "figure is +++++ "
	  "(the default, in every format)" },
	{ "no-precise", 0, CMDOPT_NOARG, CMDOPT_CALL, 0, set_precise, 0, NULL,
	  "run each phase once and print +++++ for one under 0.5 s, as bonnie++ 2.00a does" },
	{ "random-data", 0, CMDOPT_NOARG, CMDOPT_TRUE, offsetof(struct bonnie_args, spec.random_data),
	  NULL, 0, NULL, "write incompressible data instead of bonnie++'s zeros" },
	CMDOPT_END,
};

/* The shared options into the spec: --output-format, the guard's. */
static int apply_common(struct bonnie_args *a, char *why, size_t len)
{
	const struct cmd_common *c = &a->common;
	const char *v = c->output_format;
	if (!v || !strcmp(v, "normal") || !strcmp(v, "text"))
		a->output = BONNIE_OUT_NORMAL;
	else if (!strcmp(v, "json"))
		a->output = BONNIE_OUT_JSON;
	else
		return fail(why, len, "unknown --output-format '%s': use normal or json", v);
	a->spec.guard.devices = c->allow_destroy.v;
	a->spec.guard.nr_devices = c->allow_destroy.n;
	if (c->readonly)
		a->spec.guard.readonly_by = "--readonly";
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
		if (a->common.env.memory_limit && (!ram || a->common.env.memory_limit < ram))
			ram = a->common.env.memory_limit;
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
	cmd_common_init(&a->common);
	a->precise = -1;
	struct cmdopt_parser p;
	command_parser(&p, &cmd_bonnie, a, &a->common);
	p.operand = unexpected;
	int rc = cmdopt_parse(&p, argc, argv, why, len);
	if (rc < 0)
		return rc;
	if (rc == CMDOPT_HELP_ASKED) {
		a->help = true; /* the rest is not read */
		return 0;
	}
	if ((rc = apply_common(a, why, len)) < 0)
		return rc;
	if (a->sem_procs && a->sync != BONNIE_SYNC_NONE)
		return fail(why, len, "-p makes the semaphores and -y uses them: give one of them");
	default_size(a);
	return 0;
}

void bonnie_args_release(struct bonnie_args *a)
{
	free(a->user);
	free(a->group);
	cmd_common_release(&a->common);
	memset(a, 0, sizeof(*a));
}
