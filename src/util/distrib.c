/*
 * Skewed block pickers (see distrib.h for the parameters).
 *
 * zipf uses Hoermann and Derflinger's rejection-inversion ("Rejection-
 * inversion to generate variates from monotone discrete distributions",
 * 1996): invert the integral H of the hat x^-theta, round to the nearest
 * integer k and accept unless the draw fell in the sliver between the hat and
 * the bar of k. It is exact for any theta > 0 and any n, needs no zeta(n) sum
 * (Gray et al.'s method, which fio uses, needs one and is approximate), and
 * accepts more than 9 draws in 10, so a pick is O(1) expected.
 *
 * pareto is one pow() per pick (fio's formula); normal is Box-Muller with
 * redraws outside the range. Raw picks are scattered by randperm.
 */
#include "util/distrib.h"

#include <errno.h>
#include <math.h>
#include <string.h>

/* log1p(x) / x, continuous at 0 */
static double log1p_over_x(double x)
{
	if (fabs(x) > 1e-8)
		return log1p(x) / x;
	return 1.0 - x * (0.5 - x * (1.0 / 3.0 - 0.25 * x));
}

/* expm1(x) / x, continuous at 0 */
static double expm1_over_x(double x)
{
	if (fabs(x) > 1e-8)
		return expm1(x) / x;
	return 1.0 + x * 0.5 * (1.0 + x / 3.0 * (1.0 + 0.25 * x));
}

/* the hat h(x) = x^-theta */
static double zipf_h(const struct distrib *d, double x)
{
	return exp(-d->theta * log(x));
}

/* H(x) = integral of h = (x^(1-theta) - 1) / (1 - theta), or log(x) at 1 */
static double zipf_hint(const struct distrib *d, double x)
{
	double lx = log(x);
	return expm1_over_x((1.0 - d->theta) * lx) * lx;
}

/* the inverse of H */
static double zipf_hint_inv(const struct distrib *d, double y)
{
	double t = y * (1.0 - d->theta);
	if (t < -1.0)
		t = -1.0; /* rounding only */
	return exp(log1p_over_x(t) * y);
}

static void zipf_setup(struct distrib *d)
{
	d->h_x1 = zipf_hint(d, 1.5) - 1.0;
	d->h_n = zipf_hint(d, (double)d->n + 0.5);
	d->squeeze = 2.0 - zipf_hint_inv(d, zipf_hint(d, 2.5) - zipf_h(d, 2.0));
}

/* rank in [0, n), 0 the most frequent */
static uint64_t zipf_raw(const struct distrib *d, struct rng *r)
{
	if (d->theta == 0.0)
		return rng_below(r, d->n);
	for (;;) {
		/* u is uniform in (h_x1, h_n] */
		double u = d->h_n + rng_double(r) * (d->h_x1 - d->h_n);
		double x = zipf_hint_inv(d, u);
		double kf = floor(x + 0.5);
		if (kf < 1.0)
			kf = 1.0;
		else if (kf > (double)d->n)
			kf = (double)d->n;
		if (kf - x <= d->squeeze || u >= zipf_hint(d, kf + 0.5) - zipf_h(d, kf))
			return (uint64_t)kf - 1;
	}
}

static uint64_t pareto_raw(const struct distrib *d, struct rng *r)
{
	double v = (double)d->n * pow(rng_double(r), d->pareto_pow);
	uint64_t b = (uint64_t)v;
	return b < d->n ? b : d->n - 1;
}

static uint64_t normal_raw(const struct distrib *d, struct rng *r)
{
	if (d->sd == 0.0)
		return (uint64_t)d->mean;
	for (;;) {
		double u1 = 1.0 - rng_double(r); /* (0, 1] */
		double u2 = rng_double(r);
		double z = sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
		double v = floor(d->mean + d->sd * z);
		if (v >= 0.0 && v < (double)d->n)
			return (uint64_t)v;
	}
}

int distrib_init(struct distrib *d, enum distrib_kind kind, double param, uint64_t n, uint64_t seed)
{
	memset(d, 0, sizeof(*d));
	if (n == 0 || !isfinite(param))
		return -EINVAL;
	d->kind = kind;
	d->param = param;
	d->n = n;
	switch (kind) {
	case DISTRIB_ZIPF:
		if (param < 0.0)
			return -EINVAL;
		d->theta = param;
		if (param > 0.0)
			zipf_setup(d);
		break;
	case DISTRIB_PARETO:
		if (!(param > 0.0 && param < 1.0))
			return -EINVAL;
		d->pareto_pow = log(param) / log(1.0 - param);
		break;
	case DISTRIB_NORMAL:
		if (!(param >= 0.0 && param < 100.0))
			return -EINVAL;
		d->mean = (double)n / 2.0;
		d->sd = (double)n * param / 100.0;
		break;
	default:
		return -EINVAL;
	}
	return randperm_init(&d->scatter, n, seed ^ 0x3c6ef372fe94f82bULL);
}

uint64_t distrib_raw(const struct distrib *d, struct rng *r)
{
	switch (d->kind) {
	case DISTRIB_ZIPF:
		return zipf_raw(d, r);
	case DISTRIB_PARETO:
		return pareto_raw(d, r);
	case DISTRIB_NORMAL:
		return normal_raw(d, r);
	}
	return 0;
}

void distrib_set_center(struct distrib *d, double center)
{
	uint64_t c = (uint64_t)(center * (double)d->n);
	d->center_block = c < d->n ? c : d->n - 1;
	d->has_center = true;
}

uint64_t distrib_next(struct distrib *d, struct rng *r)
{
	uint64_t b = randperm_at(&d->scatter, distrib_raw(d, r));
	if (!d->has_center)
		return b;
	/* rotate so that the scatter of raw 0 (the hottest) lands on the center */
	uint64_t hot = randperm_at(&d->scatter, 0);
	return (b + d->n - hot + d->center_block) % d->n;
}
