/*
 * The shared option rows (common_opts.h) and the callbacks that check
 * their values: the device guard's --allow-destroy, and the flags that
 * tune the watch of the machine (once envwatch_parse_flag).
 */
#include "cmd/common_opts.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
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
	{ "db", 0, CMDOPT_REQARG, CMDOPT_CALL, 0, set_db, COMMON_DB, "PATH",
	  "keep the results in the SQLite database PATH (default $IOBENCH_DB, else "
	  "$XDG_DATA_HOME/iobench/results.db, else ~/.local/share/iobench/results.db)" },
	{ "no-store", 0, CMDOPT_NOARG, CMDOPT_TRUE, OFF(no_store), NULL, COMMON_NO_STORE, NULL,
	  "do not keep the results in the database" },
	{ "label", 0, CMDOPT_REQARG, CMDOPT_CALL, 0, set_label, COMMON_LABEL, "K=V",
	  "store the results with label K=V (repeatable, e.g. --label fs=xfs --label chunk=64k; "
	  "K is letters, digits, _ - . :)" },
	/* issue 13: { "repeat", ... } */
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
