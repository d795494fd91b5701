/*
 * The `--repeat auto` stopping rule (see repeat_rule.h): one median
 * interval per figure, the widest by its larger relative end, then the
 * verdict in this order: below min_reps -> continue; every figure within W
 * -> stop (converged); max_reps reached -> stop (max); too few values for
 * an interval -> continue; else continue (too wide).
 */
#include "stats/repeat_rule.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "stats/median_ci.h"
#include "stats/reps.h"
#include "stats/sample_int.h"

static double rel_end(double d, double median)
{
	if (d == 0)
		return 0;
	return median != 0 ? d / fabs(median) : INFINITY;
}

static int judge_figure(const struct repeat_rule *rule, const double *x, size_t n,
			struct repeat_figure_ci *ci)
{
	struct median_ci m;
	int rc = median_ci(x, n, rule->conf, &m);
	if (rc < 0 && rc != -EDOM)
		return rc;
	*ci = (struct repeat_figure_ci){
		.median = m.median,
		.lo = m.lo,
		.hi = m.hi,
		.rel_lo = rel_end(m.median - m.lo, m.median),
		.rel_hi = rel_end(m.hi - m.median, m.median),
		.confidence = m.confidence,
		.has_ci = rc == 0,
		.cv = NAN,
	};
	if (n >= 2) {
		double mean = sample_mean(x, n);
		if (mean != 0)
			ci->cv = sqrt(sample_variance(x, n, mean)) / fabs(mean);
	}
	bool judged = ci->has_ci || (rule->small_n == REPEAT_SMALL_N_RANGE && n >= 2);
	ci->within = judged && ci->rel_lo <= rule->width && ci->rel_hi <= rule->width;
	return 0;
}

int repeat_rule_judge(const struct repeat_rule *rule, const struct repeat_figure *figs, size_t nfig,
		      size_t n, struct repeat_figure_ci *cis, struct repeat_decision *out)
{
	if (!rule || isnan(rule->width) || rule->width <= 0 || isnan(rule->conf) || rule->conf <= 0 ||
	    rule->conf >= 1 || rule->min_reps == 0 || rule->max_reps < rule->min_reps || nfig == 0)
		return -EINVAL;
	struct repeat_decision d = { .n = n, .min_n_ci = median_ci_min_n(rule->conf) };
	if (n == 0) {
		d.verdict = REPEAT_CONTINUE;
		d.reason = REPEAT_BELOW_MIN;
		*out = d;
		return 0;
	}
	bool all_within = true, any_ci_missing = false;
	d.widest_rel = -1;
	for (size_t i = 0; i < nfig; i++) {
		struct repeat_figure_ci ci;
		int rc = judge_figure(rule, figs[i].x, n, &ci);
		if (rc < 0)
			return rc;
		if (cis)
			cis[i] = ci;
		all_within = all_within && ci.within;
		any_ci_missing = any_ci_missing || !ci.has_ci;
		double rel = fmax(ci.rel_lo, ci.rel_hi);
		if (rel > d.widest_rel) {
			d.widest = i;
			d.widest_rel = rel;
			d.widest_ci = ci;
		}
	}
	size_t need;
	if (isfinite(d.widest_ci.cv) && reps_for_median_ci(d.widest_ci.cv, rule->width, rule->conf, &need) == 0)
		d.reps_needed = need;

	if (n < rule->min_reps) {
		d.verdict = REPEAT_CONTINUE;
		d.reason = REPEAT_BELOW_MIN;
	} else if (all_within) {
		d.verdict = REPEAT_STOP_CONVERGED;
		d.reason = REPEAT_CONVERGED;
	} else if (n >= rule->max_reps) {
		d.verdict = REPEAT_STOP_MAX;
		d.reason = REPEAT_MAX_REACHED;
	} else if (any_ci_missing && rule->small_n == REPEAT_SMALL_N_WAIT) {
		d.verdict = REPEAT_CONTINUE;
		d.reason = REPEAT_NO_INTERVAL;
	} else {
		d.verdict = REPEAT_CONTINUE;
		d.reason = REPEAT_TOO_WIDE;
	}
	*out = d;
	return 0;
}

int repeat_decision_describe(const struct repeat_rule *rule, const struct repeat_figure *figs,
			     const struct repeat_decision *d, char *buf, size_t len)
{
	double pct = 100 * rule->conf, w = 100 * rule->width;
	const struct repeat_figure_ci *c = &d->widest_ci;
	const char *name = figs[d->widest].name ? figs[d->widest].name : "?";
	char ends[64];
	if (isinf(c->rel_lo) || isinf(c->rel_hi))
		snprintf(ends, sizeof(ends), "[%g, %g] around a median of 0", c->lo, c->hi);
	else
		snprintf(ends, sizeof(ends), "-%.1f%%/+%.1f%%", 100 * c->rel_lo, 100 * c->rel_hi);
	char need[64] = "";
	if (d->reps_needed)
		snprintf(need, sizeof(need), "; about %zu would be needed at its cv of %.1f%%",
			 d->reps_needed, 100 * c->cv);

	switch (d->reason) {
	case REPEAT_BELOW_MIN:
		return snprintf(buf, len, "continue: %zu of at least %zu repetitions done", d->n, rule->min_reps);
	case REPEAT_NO_INTERVAL:
		return snprintf(buf, len,
				"continue: no %g%% confidence interval of the median from %zu repetitions "
				"(their range covers it with %.1f%%), %zu are needed",
				pct, d->n, 100 * c->confidence, d->min_n_ci);
	case REPEAT_TOO_WIDE:
		return snprintf(buf, len, "continue: '%s' is the widest, its %g%% confidence interval of the "
				"median is %s of it, wider than %g%%",
				name, c->has_ci ? pct : 100 * c->confidence, ends, w);
	case REPEAT_CONVERGED:
		return snprintf(buf, len, "stop: after %zu repetitions every figure's %g%% confidence interval "
				"of the median is within %g%% of it (widest: '%s' %s)",
				d->n, c->has_ci ? pct : 100 * c->confidence, w, name, ends);
	case REPEAT_MAX_REACHED:
		if (!c->has_ci)
			return snprintf(buf, len, "stop: the maximum of %zu repetitions was reached with no "
					"%g%% confidence interval of the median (%zu are needed)",
					d->n, pct, d->min_n_ci);
		return snprintf(buf, len, "stop: the maximum of %zu repetitions was reached; '%s' is still "
				"at %s at %g%% confidence, wider than %g%%%s",
				d->n, name, ends, pct, w, need);
	}
	return snprintf(buf, len, "?");
}
