/*
 * The stopping rule of `--repeat auto[:W%]`: after each repetition, is the
 * confidence interval of the median (median_ci.h; Hoefler & Belli 2015) of
 * every headline figure within +-W of that median? Stop when it is (but not
 * before min_reps), or at max_reps; otherwise run again. The decision says
 * which figure is the widest (the one holding the run back, or the one that
 * was last to converge) and why, and estimates from its CV how many
 * repetitions it would take (reps.h).
 *
 * "Within W" means both ends: median - lo <= W |median| and hi - median <=
 * W |median| (an interval of zero width around a zero median is within).
 *
 * Small n: an order-statistic interval at 95% needs 6 values (median_ci.h).
 * With REPEAT_SMALL_N_WAIT (the default) the rule keeps going until it has
 * them, so at 95% it stops after 6 repetitions at the earliest, whatever
 * min_reps says. With REPEAT_SMALL_N_RANGE it judges [min, max] instead
 * while n is below that, a weaker claim (75% at n = 3, 87.5% at 4, 93.75% at
 * 5) that the decision reports as the confidence reached. `--repeat auto`
 * uses WAIT (runner/repeat/repeat.c; doc/repeat.md says why: a 95% claim needs 6 values).
 */
#ifndef IOBENCH_STATS_REPEAT_RULE_H
#define IOBENCH_STATS_REPEAT_RULE_H

#include <stdbool.h>
#include <stddef.h>

enum repeat_small_n {
	REPEAT_SMALL_N_WAIT,
	REPEAT_SMALL_N_RANGE,
};

struct repeat_rule {
	double width;       /* W as a fraction: 0.05 for 5% */
	double conf;        /* 0.95 */
	size_t min_reps;    /* >= 1 */
	size_t max_reps;    /* >= min_reps */
	enum repeat_small_n small_n;
};

#define REPEAT_RULE_DEFAULT { .width = 0.05, .conf = 0.95, .min_reps = 3, \
	.max_reps = 10, .small_n = REPEAT_SMALL_N_WAIT }

/* One headline figure over the repetitions so far (e.g. "job1 write bw"). */
struct repeat_figure {
	const char *name;
	const double *x;    /* x[i] = the figure in repetition i */
};

/* The interval of one figure, as the rule saw it. */
struct repeat_figure_ci {
	double median, lo, hi;
	double rel_lo, rel_hi;  /* (median - lo) / |median|, (hi - median) / |median| */
	double confidence;      /* achieved coverage of [lo, hi] */
	double cv;              /* stddev / |mean|; NAN below 2 values */
	bool has_ci;            /* an interval at rule->conf exists */
	bool within;            /* has_ci (or the RANGE policy) and both ends within W */
};

enum repeat_verdict {
	REPEAT_CONTINUE,
	REPEAT_STOP_CONVERGED,
	REPEAT_STOP_MAX,
};

enum repeat_reason {
	REPEAT_BELOW_MIN,    /* fewer than min_reps: continue */
	REPEAT_NO_INTERVAL,  /* too few values for an interval at conf: continue */
	REPEAT_TOO_WIDE,     /* some figure's interval is wider than W: continue */
	REPEAT_CONVERGED,    /* every figure within W: stop */
	REPEAT_MAX_REACHED,  /* max_reps done and not converged: stop */
};

struct repeat_decision {
	enum repeat_verdict verdict;
	enum repeat_reason reason;
	size_t n;            /* repetitions judged */
	size_t widest;       /* index of the widest figure (largest relative end) */
	double widest_rel;   /* max(rel_lo, rel_hi) of it; INFINITY for a zero median with spread */
	struct repeat_figure_ci widest_ci;
	size_t reps_needed;  /* estimate for the widest figure to converge; 0 if unknown */
	size_t min_n_ci;     /* values needed for an interval at conf (6 at 95%) */
};

/*
 * Judge n repetitions of nfig figures (each figs[i].x has n values). cis,
 * if not NULL, receives nfig per-figure intervals. 0; -EINVAL for a bad
 * rule (width <= 0, conf outside (0, 1), min_reps 0, max_reps < min_reps),
 * nfig == 0 or a non-finite value; -ENOMEM.
 */
int repeat_rule_judge(const struct repeat_rule *rule, const struct repeat_figure *figs, size_t nfig,
		      size_t n, struct repeat_figure_ci *cis, struct repeat_decision *out);

/*
 * One lowercase line saying what the decision is and why, naming the
 * widest figure, e.g. "stop: after 6 repetitions every figure's 95%
 * confidence interval of the median is within 5% of it (widest: 'write bw'
 * -1.2%/+2.0%)". Returns what snprintf returns.
 */
int repeat_decision_describe(const struct repeat_rule *rule, const struct repeat_figure *figs,
			     const struct repeat_decision *d, char *buf, size_t len);

#endif
