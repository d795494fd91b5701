/*
 * fio's human number formatting for the normal report: a number squeezed
 * into a few significant digits with a decimal (k, M, G) or binary (Ki, Mi,
 * Gi) prefix, like "49.8MiB/s (52.2MB/s)" or "IOPS=12.7k", and the choice
 * of nsec/usec/msec for latency lines. One difference from fio on purpose:
 * a fraction that rounds up to a whole unit carries into the integer part
 * ("50.0k", where fio prints "49.0k").
 */
#include "report/report_int.h"
#include "util/array.h"

#include <inttypes.h>
#include <math.h>

static unsigned ndigits(uint64_t v)
{
	unsigned n = 1;
	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

const char *numfmt(char *buf, uint64_t num, unsigned maxlen, bool pow2, enum numfmt_unit unit)
{
	static const char *const si[] = { "", "k", "M", "G", "T", "P" };
	static const char *const iec[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi" };
	static const char *const units[] = { "", "/s", "B", "B/s", "bit/s" };
	const char *const *prefix = pow2 ? iec : si;
	const unsigned thousand = pow2 ? 1024 : 1000;
	const unsigned nr_prefix = ARRAY_SIZE(si);
	const char *ustr = units[(unsigned)unit < 5 ? unit : 0];
	unsigned idx = 0;
	uint64_t rem = 0;
	bool divided = false;

	while (idx + 1 < nr_prefix && ndigits(num) > maxlen) {
		rem = num % thousand;
		num /= thousand;
		idx++;
		divided = true;
	}
	if (!divided) {
		snprintf(buf, NUMFMT_LEN, "%" PRIu64 "%s%s", num, prefix[idx], ustr);
		return buf;
	}

	int left = (int)maxlen - (int)ndigits(num);
	if (left <= 1) {
		if (rem >= thousand / 2)
			num++;
		snprintf(buf, NUMFMT_LEN, "%" PRIu64 "%s%s", num, prefix[idx], ustr);
		return buf;
	}

	unsigned decimals = (unsigned)left - 1;
	if (decimals > 9)
		decimals = 9;
	uint64_t scale = 1;
	for (unsigned i = 0; i < decimals; i++)
		scale *= 10;
	uint64_t frac = (uint64_t)llround((double)rem / thousand * (double)scale);
	if (frac >= scale) {
		num++;
		frac = 0;
	}
	snprintf(buf, NUMFMT_LEN, "%" PRIu64 ".%0*" PRIu64 "%s%s", num, (int)decimals, frac,
		 prefix[idx], ustr);
	return buf;
}

const char *lat_unit_scale(uint64_t *min, uint64_t *max, double *mean, double *dev)
{
	if (*min > 2000000 && *max > 99999999ULL && *dev > 1000000.0) {
		*min /= 1000000;
		*max /= 1000000;
		*mean /= 1000000.0;
		*dev /= 1000000.0;
		return "msec";
	}
	if (*min > 2000 && *max > 99999 && *dev > 1000.0) {
		*min /= 1000;
		*max /= 1000;
		*mean /= 1000.0;
		*dev /= 1000.0;
		return "usec";
	}
	return "nsec";
}
