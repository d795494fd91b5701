/*
 * The shared option rows (common_opts.h) and the callbacks that check
 * their values: the device guard's --allow-destroy, and the flags that
 * tune the watch of the machine (once envwatch_parse_flag).
 */
#include "cli/common_opts.h"

#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store.h"
#include "sys/memcg.h"
#include "util/units.h"

static int set_allow_destroy(void *dest, const struct cmdopt *o, const char *v, char *why,
			     size_t len)
{
	struct cmd_common *c = dest;
	if (!*v) {
		snprintf(why, len, "--allow-destroy needs a DEVICE");
		return -EINVAL;
	}
	cmdopt_list_add(&c->allow_destroy, v);
	return 0;
}

static int set_interval(void *dest, const struct cmdopt *o, const char *v, char *why, size_t len)
{
	struct cmd_common *c = dest;
	double s;
	if (parse_double(v, &s, NULL) < 0 || !(s >= 0.01 && s <= 3600)) {
		snprintf(why, len, "bad --monitor-interval '%s': give seconds from 0.01 to 3600", v);
		return -EINVAL;
	}
	c->env.interval_ns = (uint64_t)(s * 1e9);
	return 0;
}

static int set_warn_slab(void *dest, const struct cmdopt *o, const char *v, char *why, size_t len)
{
	struct cmd_common *c = dest;
	const char *bad = NULL;
	uint64_t x;
	if (parse_size(v, 1024, &x, &bad) < 0) {
		snprintf(why, len, "bad --warn-slab '%s': %s", v, bad ? bad : "not a size");
		return -EINVAL;
	}
	c->env.warn_slab_bytes = x;
	return 0;
}

static int set_memory_limit(void *dest, const struct cmdopt *o, const char *v, char *why,
			    size_t len)
{
	struct cmd_common *c = dest;
	const char *bad = NULL;
	uint64_t x;
	if (parse_size(v, 1024, &x, &bad) < 0) {
		snprintf(why, len, "bad --memory-limit '%s': %s", v, bad ? bad : "not a size");
		return -EINVAL;
	}
	if (x < MEMCG_MIN_LIMIT) {
		snprintf(why, len, "--memory-limit '%s' is below 16m: iobench itself needs that much", v);
		return -EINVAL;
	}
	c->env.memory_limit = x;
	return 0;
}

/* --repeat N or --repeat auto[:W%] (W in (0, 100), the % optional). */
static int set_repeat(void *dest, const struct cmdopt *o, const char *v, char *why, size_t len)
{
	struct repeat_opts *r = &((struct cmd_common *)dest)->repeat;
	char *end;
	if (!strncmp(v, "auto", 4) && (!v[4] || v[4] == ':')) {
		double w = 5;
		if (v[4] == ':') {
			errno = 0;
			w = strtod(v + 5, &end);
			if (end == v + 5 || errno || (*end && strcmp(end, "%")) || !(w > 0 && w < 100)) {
				snprintf(why, len, "bad --repeat '%s': auto:W%% takes a width W above 0 "
					 "and below 100 percent, e.g. auto:5%%", v);
				return -EINVAL;
			}
		}
		r->automatic = true;
		r->count = 0;
		r->width = w / 100;
		return 0;
	}
	errno = 0;
	unsigned long n = strtoul(v, &end, 10);
	if (!isdigit((unsigned char)*v) || *end || errno || n < 1 || n > REPEAT_COUNT_MAX) {
		snprintf(why, len, "bad --repeat '%s': give a count from 1 to %u, or auto[:W%%]", v,
			 REPEAT_COUNT_MAX);
		return -EINVAL;
	}
	r->count = (unsigned)n;
	r->automatic = false;
	return 0;
}

static int set_max_repeat(void *dest, const struct cmdopt *o, const char *v, char *why,
			  size_t len)
{
	struct repeat_opts *r = &((struct cmd_common *)dest)->repeat;
	char *end;
	errno = 0;
	unsigned long n = strtoul(v, &end, 10);
	if (!isdigit((unsigned char)*v) || *end || errno || n < REPEAT_MIN_AUTO ||
	    n > REPEAT_COUNT_MAX) {
		snprintf(why, len, "bad --max-repeat '%s': give a count from %u (auto's minimum) to %u",
			 v, REPEAT_MIN_AUTO, REPEAT_COUNT_MAX);
		return -EINVAL;
	}
	r->max_reps = (unsigned)n;
	return 0;
}

int cmd_common_check_repeat(const struct repeat_opts *r, unsigned euid, char *why, size_t len)
{
	if (r->max_reps && !r->automatic) {
		snprintf(why, len, "--max-repeat bounds --repeat auto; with %s it means nothing",
			 r->count ? "a fixed --repeat count" : "no --repeat");
		return -EINVAL;
	}
	if (r->drop_caches && euid != 0) {
		snprintf(why, len, "--drop-caches needs root: it writes /proc/sys/vm/drop_caches to "
			 "drop the whole page cache before each repetition; run as root or leave "
			 "it out (nothing was run)");
		return -EPERM;
	}
	return 0;
}

static int set_db(void *dest, const struct cmdopt *o, const char *v, char *why, size_t len)
{
	struct cmd_common *c = dest;
	if (!*v) {
		snprintf(why, len, "--db needs a file name");
		return -EINVAL;
	}
	c->db = v;
	return 0;
}

static int set_label(void *dest, const struct cmdopt *o, const char *v, char *why, size_t len)
{
	struct cmd_common *c = dest;
	if (store_label_check(v, why, len) < 0)
		return -EINVAL;
	cmdopt_list_add(&c->labels, v);
	return 0;
}

#define OFF(f) offsetof(struct cmd_common, f)

const struct cmdopt cmd_common_rows[] = {
	{ "output-format", 0, CMDOPT_REQARG, CMDOPT_STRING, OFF(output_format), NULL,
	  COMMON_OUTPUT_FORMAT, "FMT", "the report's format" },
	{ "output", 0, CMDOPT_REQARG, CMDOPT_STRING, OFF(output), NULL, COMMON_OUTPUT, "FILE",
	  "write the report to FILE instead of stdout" },
	{ "allow-destroy", 0, CMDOPT_REQARG, CMDOPT_CALL, 0, set_allow_destroy,
	  COMMON_ALLOW_DESTROY, "DEVICE",
	  "let iobench write to and trim DEVICE although it carries a filesystem, RAID, "
	  "LVM, swap or partition-table signature (repeatable; one device each)" },
	{ "readonly", 0, CMDOPT_NOARG, CMDOPT_TRUE, OFF(readonly), NULL, COMMON_READONLY, NULL,
	  "refuse anything that writes, trims, lays out or deletes files" },
	{ "monitor-interval", 0, CMDOPT_REQARG, CMDOPT_CALL, 0, set_interval, COMMON_ENVWATCH,
	  "SEC", "sample /proc every SEC seconds while the workload runs (default 1; "
		 "fractions allowed)" },
	{ "no-monitor", 0, CMDOPT_NOARG, CMDOPT_TRUE, OFF(env.no_monitor), NULL, COMMON_ENVWATCH,
	  NULL, "do not sample (no monitor summary, fewer warnings)" },
	{ "warn-slab", 0, CMDOPT_REQARG, CMDOPT_CALL, 0, set_warn_slab, COMMON_ENVWATCH, "SIZE",
	  "warn when the buffer_head slab grows by more than SIZE during the run (default 256m)" },
	{ "memory-limit", 0, CMDOPT_REQARG, CMDOPT_CALL, 0, set_memory_limit, COMMON_ENVWATCH,
	  "SIZE",
	  "run the workload in a memory cgroup made for it and limited to SIZE (at least 16m; "
	  "cgroup v2, else v1), so its page cache cannot hold more than SIZE and a file larger "
	  "than SIZE is read from the device however much RAM the machine has; the cgroup is "
	  "removed afterwards. Needs write access to the memory cgroup (root); refused where "
	  "none can be made" },
	{ "repeat", 0, CMDOPT_REQARG, CMDOPT_CALL, 0, set_repeat, COMMON_REPEAT, "N|auto[:W%]",
	  "run the whole workload N times and summarize every headline figure (median, its 95% "
	  "confidence interval, CV, min/max, outliers); auto repeats until each figure's 95% "
	  "confidence interval of the median is within W% (default 5%) of it: at least 6 "
	  "times (the fewest that give a 95% interval), at most --max-repeat" },
	{ "max-repeat", 0, CMDOPT_REQARG, CMDOPT_CALL, 0, set_max_repeat, COMMON_REPEAT, "N",
	  "the most repetitions --repeat auto runs (default 10, at least 3)" },
	{ "drop-caches", 0, CMDOPT_NOARG, CMDOPT_TRUE, OFF(repeat.drop_caches), NULL,
	  COMMON_REPEAT, NULL,
	  "sync and drop the page cache, dentries and inodes (/proc/sys/vm/drop_caches = 3) "
	  "before each repetition, so each starts cold; needs root" },
	{ "db", 0, CMDOPT_REQARG, CMDOPT_CALL, 0, set_db, COMMON_DB, "PATH",
	  "keep the results in the SQLite database PATH (default $IOBENCH_DB, else "
	  "$XDG_DATA_HOME/iobench/results.db, else ~/.local/share/iobench/results.db)" },
	{ "no-store", 0, CMDOPT_NOARG, CMDOPT_TRUE, OFF(no_store), NULL, COMMON_NO_STORE, NULL,
	  "do not keep the results in the database" },
	{ "label", 0, CMDOPT_REQARG, CMDOPT_CALL, 0, set_label, COMMON_LABEL, "K=V",
	  "store the results with label K=V (repeatable, e.g. --label fs=xfs --label chunk=64k; "
	  "K is letters, digits, _ - . :)" },
	{ "help", 'h', CMDOPT_NOARG, CMDOPT_HELP, 0, NULL, COMMON_HELP, NULL, "this text" },
	CMDOPT_END,
};

void cmd_common_init(struct cmd_common *c)
{
	memset(c, 0, sizeof(*c));
	envwatch_opts_init(&c->env);
}

void cmd_common_release(struct cmd_common *c)
{
	cmdopt_list_release(&c->allow_destroy);
	cmdopt_list_release(&c->labels);
	memset(c, 0, sizeof(*c));
}
