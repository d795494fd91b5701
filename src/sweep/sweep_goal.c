/*
 * Goal texts into stored figure names, and the goal's value of one run
 * (sweep_goal.h): the sum, largest or mean over the run's jobs, and the
 * list of goals a run could give when it lacks the one asked for.
 */
#include "sweep/sweep_goal.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/array.h"
#include "util/error.h"

#define MAX_WORDS 6

static const char *const fio_dirs[] = { "read", "write", "trim", "mixed" };
static const char *const bonnie_phases[] = { "putc", "put_block", "rewrite", "getc",
					     "get_block", "seeks", "seq_create", "seq_stat",
					     "seq_del", "ran_create", "ran_stat", "ran_del" };

static size_t split(char *s, char **w)
{
	size_t n = 0;
	for (char *p = s; *p;) {
		while (*p && isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		if (n == MAX_WORDS)
			return MAX_WORDS + 1;
		w[n++] = p;
		while (*p && !isspace((unsigned char)*p)) {
			*p = (char)tolower((unsigned char)*p);
			p++;
		}
		if (*p)
			*p++ = '\0';
	}
	return n;
}

static const char *fio_dir(const char *w)
{
	for (size_t i = 0; i < ARRAY_SIZE(fio_dirs); i++)
		if (!strcmp(w, fio_dirs[i]))
			return fio_dirs[i];
	if (!strncmp(w, "rand", 4))
		for (size_t i = 0; i < 3; i++)
			if (!strcmp(w + 4, fio_dirs[i]))
				return fio_dirs[i];
	return NULL;
}

/* "p99.9" -> "p99.9" as fio names it (the number as %g); false if not one. */
static bool percentile(const char *w, char *out, size_t len)
{
	if (w[0] != 'p' || !w[1])
		return false;
	char *end;
	double v = strtod(w + 1, &end);
	if (*end || !(v > 0 && v <= 100))
		return false;
	snprintf(out, len, "p%g", v);
	return true;
}

static int fail(char *why, size_t len, const char *text, const char *fmt, const char *word)
{
	char msg[160];
	snprintf(msg, sizeof(msg), fmt, word);
	snprintf(why, len, "goal '%s': %s", text, msg);
	return -EINVAL;
}

static int parse_fio(const char *text, char **w, size_t n, struct sweep_goal *g, char *why,
		     size_t len)
{
	const char *dir = fio_dir(w[0]);
	if (!dir)
		return fail(why, len, text,
			    "unknown direction '%s' (read, write, trim, mixed, randread, "
			    "randwrite, randtrim; or bonnie PHASE, or elapsed)", w[0]);
	g->kind = SWEEP_GOAL_FIO;
	snprintf(g->dir, sizeof(g->dir), "%s", dir);
	if (n < 2)
		return fail(why, len, text, "'%s' needs a figure: bw, iops, p99, clat p99, lat mean, ...",
			    w[0]);
	char pct[24];
	if (n == 2 && (!strcmp(w[1], "bw") || !strcmp(w[1], "iops"))) {
		bool bw = !strcmp(w[1], "bw");
		snprintf(g->name, sizeof(g->name), "%s", bw ? "bw_bytes" : "iops");
		snprintf(g->text, sizeof(g->text), "%s %s", dir, w[1]);
		g->higher_is_better = true;
		g->combine = SWEEP_GOAL_SUM;
		g->unit = bw ? CMP_UNIT_BYTES_S : CMP_UNIT_PER_S;
		return 0;
	}
	const char *lat = "clat", *stat;
	if (n == 2) {
		stat = w[1];
	} else if (n == 3 && (!strcmp(w[1], "clat") || !strcmp(w[1], "lat") ||
			      !strcmp(w[1], "slat"))) {
		lat = w[1];
		stat = w[2];
	} else {
		return fail(why, len, text,
			    "unknown figure '%s' (bw, iops, pNN, clat|lat|slat pNN|mean|max)", w[1]);
	}
	bool pctl = percentile(stat, pct, sizeof(pct));
	if (pctl)
		stat = pct;
	else if (n == 2 && stat[0] != 'p' && strcmp(stat, "mean") && strcmp(stat, "max") &&
		 strcmp(stat, "min"))
		return fail(why, len, text,
			    "unknown figure '%s' (bw, iops, pNN, clat|lat|slat pNN|mean|max)", stat);
	else if (strcmp(stat, "mean") && strcmp(stat, "max") && strcmp(stat, "min"))
		return fail(why, len, text,
			    "unknown latency figure '%s' (pNN such as p99 or p99.9, mean, max, min)",
			    stat);
	snprintf(g->name, sizeof(g->name), "%s_ns.%s", lat, stat);
	snprintf(g->text, sizeof(g->text), "%s %s %s", dir, lat, stat);
	g->higher_is_better = false;
	g->combine = SWEEP_GOAL_MAX;
	g->unit = CMP_UNIT_NS;
	return 0;
}

static int parse_bonnie(const char *text, char **w, size_t n, struct sweep_goal *g, char *why,
			size_t len)
{
	if (n < 2 || n > 3)
		return fail(why, len, text, "%s: say 'bonnie PHASE [rate|cpu|latency|p50|p99|max]'",
			    n < 2 ? "a phase is missing" : "too many words");
	const char *ph = NULL;
	for (size_t i = 0; i < ARRAY_SIZE(bonnie_phases); i++)
		if (!strcmp(w[1], bonnie_phases[i]))
			ph = bonnie_phases[i];
	if (!ph)
		return fail(why, len, text,
			    "unknown bonnie phase '%s' (putc, put_block, rewrite, getc, get_block, "
			    "seeks, seq_create, seq_stat, seq_del, ran_create, ran_stat, ran_del)",
			    w[1]);
	const char *m = n == 3 ? w[2] : "rate";
	g->kind = SWEEP_GOAL_BONNIE;
	g->combine = SWEEP_GOAL_MEAN;
	snprintf(g->dir, sizeof(g->dir), "%s", ph);
	if (!strcmp(m, "rate")) {
		snprintf(g->name, sizeof(g->name), "rate");
		g->higher_is_better = true;
		g->unit = CMP_UNIT_BONNIE;
	} else if (!strcmp(m, "cpu")) {
		snprintf(g->name, sizeof(g->name), "cpu_pct");
		g->unit = CMP_UNIT_PCT;
	} else if (!strcmp(m, "latency") || !strcmp(m, "max") || !strcmp(m, "p50") ||
		   !strcmp(m, "p99")) {
		snprintf(g->name, sizeof(g->name), "latency_us.%s", !strcmp(m, "latency") ? "max" : m);
		g->unit = CMP_UNIT_US;
	} else {
		return fail(why, len, text, "unknown bonnie figure '%s' (rate, cpu, latency, p50, "
			    "p99, max)", m);
	}
	snprintf(g->text, sizeof(g->text), "bonnie %s %s", ph,
		 !strcmp(m, "latency") ? "max" : m);
	return 0;
}

int sweep_goal_parse(const char *text, struct sweep_goal *g, char *why, size_t len)
{
	memset(g, 0, sizeof(*g));
	if (why && len)
		why[0] = '\0';
	char buf[256], *w[MAX_WORDS];
	if (!text || strlen(text) >= sizeof(buf))
		return fail(why, len, text ? "(too long)" : "", "%s", "the text is empty or too long");
	snprintf(buf, sizeof(buf), "%s", text);
	size_t n = split(buf, w);
	if (n == 0)
		return fail(why, len, text, "%s", "it is empty (e.g. 'write bw', 'randread p99', "
			    "'bonnie seq_create', 'elapsed')");
	if (n > MAX_WORDS)
		return fail(why, len, text, "%s", "too many words");
	if (!strcmp(w[0], "elapsed")) {
		if (n != 1)
			return fail(why, len, text, "'elapsed' takes no more words ('%s')", w[1]);
		g->kind = SWEEP_GOAL_ELAPSED;
		snprintf(g->dir, sizeof(g->dir), "job");
		snprintf(g->name, sizeof(g->name), "iobench.runtime_ns");
		snprintf(g->text, sizeof(g->text), "elapsed");
		g->combine = SWEEP_GOAL_MAX;
		g->unit = CMP_UNIT_NS;
		return 0;
	}
	if (!strcmp(w[0], "bonnie"))
		return parse_bonnie(text, w, n, g, why, len);
	return parse_fio(text, w, n, g, why, len);
}

static bool dir_did_io(const struct cmp_run *run, const char *dir)
{
	for (size_t i = 0; i < run->nr_figs; i++) {
		const struct cmp_fig *f = &run->figs[i];
		if (!strcmp(f->dir, dir) && !strcmp(f->name, "io_bytes") && f->value > 0)
			return true;
	}
	return false;
}

static int fio_value(const struct sweep_goal *g, const struct cmp_run *run, double *out)
{
	if (!dir_did_io(run, g->dir))
		return -ENOENT;
	double acc = g->combine == SWEEP_GOAL_SUM ? 0 : -INFINITY;
	bool found = false;
	for (size_t i = 0; i < run->nr_figs; i++) {
		const struct cmp_fig *f = &run->figs[i];
		if (strcmp(f->dir, g->dir) || strcmp(f->name, g->name) || !isfinite(f->value))
			continue;
		if (g->combine == SWEEP_GOAL_SUM) {
			acc += f->value;
			found = true;
		} else if (f->value > 0) {
			acc = fmax(acc, f->value);
			found = true;
		}
	}
	if (!found)
		return -ENOENT;
	*out = acc;
	return 0;
}

static bool has_job(const struct cmp_run *run, const char *job)
{
	for (size_t i = 0; i < run->nr_figs; i++)
		if (!strcmp(run->figs[i].job, job))
			return true;
	return false;
}

/* bonnie: per (job, phase) block of consecutive figures (the store keeps a
 * job's figures together), the value unless the block says too_short. */
static int bonnie_value(const struct sweep_goal *g, const struct cmp_run *run, double *out)
{
	bool aggregates = has_job(run, "aggregate");
	bool rate_like = !strcmp(g->name, "rate") || !strcmp(g->name, "cpu_pct");
	double sum = 0;
	size_t n = 0;
	size_t i = 0;
	while (i < run->nr_figs) {
		const struct cmp_fig *first = &run->figs[i];
		bool have = false, too_short = false;
		double v = 0;
		size_t j = i;
		for (; j < run->nr_figs; j++) {
			const struct cmp_fig *f = &run->figs[j];
			if (strcmp(f->job, first->job) || strcmp(f->dir, first->dir))
				break;
			bool is_v = !strcmp(f->name, g->name), is_ts = !strcmp(f->name, "too_short");
			if ((is_v && have) || (is_ts && too_short))
				break; /* the same name again: the next job of that name */
			if (is_v) {
				have = true;
				v = f->value;
			} else if (is_ts && f->value != 0) {
				too_short = true;
			}
		}
		i = j > i ? j : i + 1;
		if (strcmp(first->dir, g->dir) || (aggregates && strcmp(first->job, "aggregate")))
			continue;
		if (!have || !isfinite(v) || (rate_like && too_short))
			continue;
		sum += v;
		n++;
	}
	if (!n)
		return -ENOENT;
	*out = sum / (double)n;
	return 0;
}

static int elapsed_value(const struct cmp_run *run, double *out)
{
	double best = -INFINITY, fio_ms = -INFINITY;
	for (size_t i = 0; i < run->nr_figs; i++) {
		const struct cmp_fig *f = &run->figs[i];
		if (strcmp(f->dir, "job") || !isfinite(f->value))
			continue;
		if (!strcmp(f->name, "iobench.runtime_ns"))
			best = fmax(best, f->value);
		else if (!strcmp(f->name, "job_runtime"))
			fio_ms = fmax(fio_ms, f->value);
	}
	if (best > 0) {
		*out = best;
		return 0;
	}
	if (fio_ms > 0) {
		*out = fio_ms * 1e6;
		return 0;
	}
	return -ENOENT;
}

int sweep_goal_value_quiet(const struct sweep_goal *g, const struct cmp_run *run, double *out)
{
	switch (g->kind) {
	case SWEEP_GOAL_FIO:
		return fio_value(g, run, out);
	case SWEEP_GOAL_BONNIE:
		return bonnie_value(g, run, out);
	case SWEEP_GOAL_ELAPSED:
		return elapsed_value(run, out);
	}
	return -EINVAL;
}

int sweep_goal_value(const struct sweep_goal *g, const struct cmp_run *run, double *out)
{
	int rc = sweep_goal_value_quiet(g, run, out);
	if (rc == -ENOENT) {
		char have[512];
		sweep_goal_available(run, have, sizeof(have));
		error("run %lld has no figure for goal '%s'; it has: %s", (long long)run->id,
		      g->text, have);
	}
	return rc;
}

static void append(char *buf, size_t len, size_t *at, const char *s)
{
	if (*at >= len)
		return;
	int w = snprintf(buf + *at, len - *at, "%s%s", *at ? ", " : "", s);
	if (w > 0)
		*at += (size_t)w;
	if (*at >= len && len > 4)
		memcpy(buf + len - 4, "...", 4);
}

void sweep_goal_available(const struct cmp_run *run, char *buf, size_t len)
{
	size_t at = 0;
	char item[96];
	if (!len)
		return;
	buf[0] = '\0';
	for (size_t d = 0; d < ARRAY_SIZE(fio_dirs); d++) {
		if (!dir_did_io(run, fio_dirs[d]))
			continue;
		static const char *const figs[] = { "bw", "iops", "clat p99" };
		for (size_t k = 0; k < ARRAY_SIZE(figs); k++) {
			snprintf(item, sizeof(item), "%s %s", fio_dirs[d], figs[k]);
			append(buf, len, &at, item);
		}
	}
	for (size_t p = 0; p < ARRAY_SIZE(bonnie_phases); p++) {
		for (size_t i = 0; i < run->nr_figs; i++) {
			if (!strcmp(run->figs[i].dir, bonnie_phases[p]) &&
			    !strcmp(run->figs[i].name, "rate")) {
				snprintf(item, sizeof(item), "bonnie %s", bonnie_phases[p]);
				append(buf, len, &at, item);
				break;
			}
		}
	}
	double e;
	if (elapsed_value(run, &e) == 0)
		append(buf, len, &at, "elapsed");
	if (!at)
		snprintf(buf, len, "no figures");
}

void sweep_goal_format(const struct sweep_goal *g, double v, char *buf, size_t len)
{
	struct cmp_figdef d = { .name = g->name, .label = g->text, .unit = g->unit,
				.higher_better = g->higher_is_better };
	cmp_format_value(buf, len, &d, g->dir, v);
}

bool sweep_goal_better(const struct sweep_goal *g, double a, double b)
{
	return g->higher_is_better ? a > b : a < b;
}
