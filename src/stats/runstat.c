/*
 * Running statistics in constant memory. runstat_add() is Welford's update
 * (numerically stable: no sum of squares to cancel); runstat_merge() is Chan,
 * Golub and LeVeque's pairwise combination, so per-thread stats merge into
 * exactly what one runstat fed every value would hold (up to rounding).
 */
#include "stats/runstat.h"

#include <math.h>
#include <string.h>

void runstat_init(struct runstat *s)
{
	memset(s, 0, sizeof(*s));
}

void runstat_add(struct runstat *s, double v)
{
	if (s->n == 0) {
		s->min = s->max = v;
	} else {
		if (v < s->min)
			s->min = v;
		if (v > s->max)
			s->max = v;
	}
	s->n++;
	double delta = v - s->mean;
	s->mean += delta / (double)s->n;
	s->m2 += delta * (v - s->mean);
}

void runstat_merge(struct runstat *dst, const struct runstat *src)
{
	if (src->n == 0)
		return;
	if (dst->n == 0) {
		*dst = *src;
		return;
	}
	double na = (double)dst->n, nb = (double)src->n, n = na + nb;
	double delta = src->mean - dst->mean;
	dst->mean += delta * nb / n;
	dst->m2 += src->m2 + delta * delta * na * nb / n;
	dst->n += src->n;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

double runstat_stddev(const struct runstat *s)
{
	if (s->n < 2 || s->m2 <= 0.0)
		return 0.0;
	return sqrt(s->m2 / (double)(s->n - 1));
}

double runstat_min(const struct runstat *s)
{
	return s->n ? s->min : 0.0;
}

double runstat_max(const struct runstat *s)
{
	return s->n ? s->max : 0.0;
}
