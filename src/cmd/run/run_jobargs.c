/*
 * The job options on run's command line, as fio's getopt table has them:
 * every spelling of every job option (iobench's table, each engine's own
 * rows, and the fio options it lacks, which the job parser names) is a long
 * option. fio's "set"
 * options (group_reporting, time_based, stonewall, ...) take a value only
 * after '=' (--group_reporting job.fio: the job file is a job file); a
 * bool-like option takes the next word unless it is a flag (--direct 1,
 * --direct --size=1m, where fio would read "--size=1m" as direct's value);
 * every other option takes the next word (--rw read, --bs 8k). Each one
 * becomes a "--key[=value]" word for jobfile_parse_args, in order.
 */
#include "cmd/run/run_cmdline_int.h"

#include <stdlib.h>
#include <string.h>

#include "engines/engine.h"
#include "util/xmalloc.h"
#include "spec/options.h"

/* fio 3.33's FIO_OPT_STR_SET options ("empty or boolean value" in
 * `fio --cmdhelp=NAME`), every spelling */
static const char *const set_options[] = {
	"bs_unaligned", "blocksize_unaligned", "norandommap", "time_based", "verify_only",
	"exitall", "exitall_on_error", "stonewall", "wait_for_previous", "new_group",
	"thread", "group_reporting", "zero_buffers", "refill_buffers", NULL,
};

static bool is_set_option(const char *key, size_t len)
{
	for (const char *const *s = set_options; *s; s++)
		if (strlen(*s) == len && !strncmp(*s, key, len))
			return true;
	return false;
}

static int job_kind(void *arg, const char *key, size_t len)
{
	char *k = xstrndup(key, len);
	const struct option_def *o = option_find_any(k); /* a job's or an engine's */
	bool fio = o || option_is_fio(k);
	free(k);
	if (!fio || !len)
		return -1;
	if (is_set_option(key, len))
		return CMDOPT_OPTARG;
	if (o && (o->is_flag || o->type == OPT_BOOL))
		return CMDOPT_MAYBEARG;
	return CMDOPT_REQARG;
}

static int job_take(void *arg, const char *name, size_t len, const char *value, char *why,
		    size_t whylen)
{
	struct run_cmdline *cl = arg;
	cmdopt_list_add(&cl->jobargs, value ? xasprintf("--%.*s=%s", (int)len, name, value)
					    : xasprintf("--%.*s", (int)len, name));
	return 0;
}

/* Spellings in rows[0..nr) that start with key[0..klen), counted from n. */
static size_t rows_prefixed(const struct option_def *rows, size_t nr, const char *key, size_t klen,
			    const char **out, size_t max, size_t n)
{
	for (size_t i = 0; i < nr; i++) {
		const struct option_def *o = &rows[i];
		const char *spell[3] = { o->name, o->alias[0], o->alias[1] };
		for (int k = 0; k < 3; k++)
			if (spell[k] && !strncmp(spell[k], key, klen)) {
				if (n < max)
					out[n] = spell[k];
				n++;
			}
	}
	return n;
}

/* The job options' spellings, then each engine's own. */
static size_t job_prefixed(void *arg, const char *key, size_t klen, const char **out, size_t max)
{
	const struct engine_ops *e;
	size_t n = rows_prefixed(option_table, option_table_len, key, klen, out, max, 0);
	for (size_t i = 0; (e = engine_at(i)); i++)
		n = rows_prefixed(e->options, e->nr_options, key, klen, out, max, n);
	return n;
}

static const char *job_nearest(void *arg, const char *key, size_t *score)
{
	const char *near = option_suggest(key);
	const struct option_def *o = near ? option_find_any(near) : NULL;
	*score = (size_t)-1;
	if (!o)
		return NULL;
	const char *spell[3] = { o->name, o->alias[0], o->alias[1] };
	for (int k = 0; k < 3; k++) {
		size_t s = spell[k] ? cmdopt_suggest_score(key, spell[k]) : (size_t)-1;
		if (s < *score)
			*score = s;
	}
	return near;
}

void run_jobargs_foreign(struct cmdopt_foreign *f, struct run_cmdline *cl)
{
	*f = (struct cmdopt_foreign){ job_kind, job_take, job_prefixed, job_nearest, cl };
}

void run_cmdline_release(struct run_cmdline *cl)
{
	for (size_t i = 0; i < cl->jobargs.n; i++)
		free((char *)cl->jobargs.v[i]);
	cmdopt_list_release(&cl->files);
	cmdopt_list_release(&cl->jobargs);
	cmdopt_list_release(&cl->sets);
	cmdopt_list_release(&cl->sections);
}
