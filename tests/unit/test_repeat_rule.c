/*
 * The `--repeat auto` stopping rule: a steady job (three figures within
 * +-2%) continues below the minimum, then for want of a 95% interval at
 * n = 3..5, and stops converged at n = 6 naming the widest figure; with the
 * RANGE policy it stops at the minimum of 3 and says the confidence is 75%.
 * A noisy job (a figure alternating 100/150 as with alternating rate=) runs
 * to the maximum, reports the wide interval and an estimate of the
 * repetitions it would need. Zero figures, a zero median with spread, bad
 * rules and the describe() lines are checked too.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "check.h"
#include "stats/repeat_rule.h"

int main(void)
{
	struct repeat_rule rule = REPEAT_RULE_DEFAULT;
	double bw[] = { 100, 101, 99, 100.5, 99.5, 100.2, 100, 99.8, 100.1, 99.9 };
	double iops[] = { 2000, 2040, 1960, 2010, 1990, 2030, 2000, 1980, 2020, 2000 };
	double lat[] = { 50, 50.5, 49.5, 50.2, 49.8, 50, 50.1, 49.9, 50, 50 };
	struct repeat_figure figs[] = { { "write bw", bw }, { "write iops", iops }, { "clat p50", lat } };
	struct repeat_decision d;
	struct repeat_figure_ci cis[3];
	char line[512];

	CHECK(repeat_rule_judge(&rule, figs, 3, 0, NULL, &d) == 0 && d.verdict == REPEAT_CONTINUE &&
	      d.reason == REPEAT_BELOW_MIN, "nothing run yet");
	for (size_t n = 1; n <= 2; n++)
		CHECK(repeat_rule_judge(&rule, figs, 3, n, NULL, &d) == 0 && d.verdict == REPEAT_CONTINUE &&
		      d.reason == REPEAT_BELOW_MIN, "n %zu below the minimum", n);
	for (size_t n = 3; n <= 5; n++) {
		CHECK(repeat_rule_judge(&rule, figs, 3, n, cis, &d) == 0 && d.verdict == REPEAT_CONTINUE &&
		      d.reason == REPEAT_NO_INTERVAL && d.min_n_ci == 6 && !cis[0].has_ci,
		      "n %zu: no 95%% interval yet (reason %d)", n, d.reason);
	}
	repeat_decision_describe(&rule, figs, &d, line, sizeof(line));
	CHECK(strstr(line, "continue: no 95% confidence interval of the median from 5 repetitions") &&
	      strstr(line, "93.8%") && strstr(line, "6 are needed"), "%s", line);

	CHECK(repeat_rule_judge(&rule, figs, 3, 6, cis, &d) == 0 && d.verdict == REPEAT_STOP_CONVERGED &&
	      d.reason == REPEAT_CONVERGED && d.widest == 1, "steady: stop at 6, widest %zu", d.widest);
	CHECK(cis[1].has_ci && cis[1].within && cis[1].lo == 1960 && cis[1].hi == 2040 && cis[1].median == 2005 &&
	      fabs(d.widest_rel - 45.0 / 2005) < 1e-12, "iops interval [%g, %g] around %g", cis[1].lo, cis[1].hi,
	      cis[1].median);
	CHECK(cis[0].confidence == 0.96875, "n = 6 covers with 96.875%%");
	repeat_decision_describe(&rule, figs, &d, line, sizeof(line));
	CHECK(strstr(line, "stop: after 6 repetitions every figure's 95% confidence interval of the median is within 5%") &&
	      strstr(line, "'write iops' -2.2%/+1.7%"), "%s", line);

	/* RANGE policy: stops at the minimum of 3, at 75% */
	struct repeat_rule range = rule;
	range.small_n = REPEAT_SMALL_N_RANGE;
	CHECK(repeat_rule_judge(&range, figs, 3, 3, cis, &d) == 0 && d.verdict == REPEAT_STOP_CONVERGED &&
	      d.widest_ci.confidence == 0.75 && !d.widest_ci.has_ci, "range policy: stop at 3");
	repeat_decision_describe(&range, figs, &d, line, sizeof(line));
	CHECK(strstr(line, "75% confidence interval"), "%s", line);
	CHECK(repeat_rule_judge(&range, figs, 3, 2, cis, &d) == 0 && d.verdict == REPEAT_CONTINUE, "2 < minimum");

	/* noisy: the write bw alternates 100 / 150 */
	double alt[] = { 100, 150, 100, 150, 100, 150, 100, 150, 100, 150 };
	struct repeat_figure noisy[] = { { "write bw", alt }, { "write iops", iops } };
	for (size_t n = 6; n <= 9; n++)
		CHECK(repeat_rule_judge(&rule, noisy, 2, n, NULL, &d) == 0 && d.verdict == REPEAT_CONTINUE &&
		      d.reason == REPEAT_TOO_WIDE && d.widest == 0, "noisy n %zu: too wide", n);
	repeat_decision_describe(&rule, noisy, &d, line, sizeof(line));
	CHECK(strstr(line, "continue: 'write bw' is the widest") && strstr(line, "wider than 5%"), "%s", line);
	CHECK(repeat_rule_judge(&rule, noisy, 2, 10, cis, &d) == 0 && d.verdict == REPEAT_STOP_MAX &&
	      d.reason == REPEAT_MAX_REACHED && d.widest == 0 && d.widest_rel >= 0.19 && d.reps_needed > 10,
	      "noisy: stop at the maximum, widest %.3f, %zu needed", d.widest_rel, d.reps_needed);
	CHECK(cis[0].lo == 100 && cis[0].hi == 150 && cis[0].median == 125, "wide interval [100, 150]");
	repeat_decision_describe(&rule, noisy, &d, line, sizeof(line));
	CHECK(strstr(line, "stop: the maximum of 10 repetitions was reached; 'write bw' is still at -20.0%/+20.0%") &&
	      strstr(line, "would be needed at its cv of"), "%s", line);
	/* a larger maximum still stops when the noise is gone for good */
	struct repeat_rule more = rule;
	more.max_reps = 20;
	CHECK(repeat_rule_judge(&more, noisy, 2, 10, NULL, &d) == 0 && d.verdict == REPEAT_CONTINUE,
	      "max 20: continue at 10");

	/* zero figures */
	double zeros[10] = { 0 }, zero_spread[] = { 0, 0, 0, 1, 0, 0, 2, 0, -1, 0 };
	struct repeat_figure z[] = { { "trim bw", zeros }, { "write bw", bw } };
	CHECK(repeat_rule_judge(&rule, z, 2, 6, cis, &d) == 0 && d.verdict == REPEAT_STOP_CONVERGED && cis[0].within,
	      "an all-zero figure converges");
	struct repeat_figure zs[] = { { "errors", zero_spread }, { "write bw", bw } };
	CHECK(repeat_rule_judge(&rule, zs, 2, 10, cis, &d) == 0 && d.verdict == REPEAT_STOP_MAX && d.widest == 0 &&
	      isinf(d.widest_rel), "zero median with spread never converges");
	repeat_decision_describe(&rule, zs, &d, line, sizeof(line));
	CHECK(strstr(line, "around a median of 0"), "%s", line);

	/* bad rules and input */
	struct repeat_rule bad = rule;
	bad.width = 0;
	CHECK(repeat_rule_judge(&bad, figs, 3, 6, NULL, &d) == -EINVAL, "width 0");
	bad = rule;
	bad.max_reps = 2;
	CHECK(repeat_rule_judge(&bad, figs, 3, 6, NULL, &d) == -EINVAL, "max below min");
	bad = rule;
	bad.min_reps = 0;
	CHECK(repeat_rule_judge(&bad, figs, 3, 6, NULL, &d) == -EINVAL, "min 0");
	CHECK(repeat_rule_judge(&rule, figs, 0, 6, NULL, &d) == -EINVAL, "no figures");
	double with_nan[] = { 1, 2, NAN, 4, 5, 6 };
	struct repeat_figure nanfig[] = { { "x", with_nan } };
	CHECK(repeat_rule_judge(&rule, nanfig, 1, 6, NULL, &d) == -EINVAL, "NAN rejected");
	return check_done("test_repeat_rule");
}
