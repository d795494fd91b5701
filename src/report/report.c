/*
 * The report entry points: parsing --output-format values and writing the
 * requested formats in fio's order (terse, then JSON, then normal, as fio
 * 3.33 does with --output-format=normal,json,terse). json and json+ together
 * give one JSON document, with bins.
 */
#include "report/report.h"

#include <errno.h>
#include <string.h>

#include "util/array.h"
#include "util/error.h"

static const struct {
	const char *name;
	unsigned bit;
} format_names[] = {
	{ "normal", REPORT_NORMAL },
	{ "json", REPORT_JSON },
	{ "json+", REPORT_JSONPLUS },
	{ "terse", REPORT_TERSE },
};

int report_formats_parse(const char *s, unsigned *formats, const char **bad, int *badlen)
{
	unsigned mask = 0;
	const char *p = s ? s : "";

	for (;;) {
		size_t len = strcspn(p, ",");
		bool found = false;

		for (size_t i = 0; i < ARRAY_SIZE(format_names); i++) {
			if (strlen(format_names[i].name) == len &&
			    !strncmp(format_names[i].name, p, len)) {
				mask |= format_names[i].bit;
				found = true;
			}
		}
		if (!found) {
			*bad = p;
			*badlen = (int)len;
			return -EINVAL;
		}
		if (!p[len])
			break;
		p += len + 1;
	}
	*formats = mask;
	return 0;
}

int report_parse_formats(const char *s, unsigned *formats)
{
	const char *bad;
	int len;
	if (!s || !*s)
		return error("empty output format");
	if (report_formats_parse(s, formats, &bad, &len) < 0)
		return error("unknown output format '%.*s' in --output-format=%s (use normal, json, "
			     "json+ or terse, comma-separated)", len, bad, s);
	return 0;
}

int report_write(const struct run_result *r, unsigned formats, FILE *out)
{
	return report_write_extra(r, formats, NULL, out);
}

int report_write_extra(const struct run_result *r, unsigned formats,
		       const struct report_json_extra *extra, FILE *out)
{
	int ret = 0, err;

	if (!(formats & (REPORT_NORMAL | REPORT_JSON | REPORT_JSONPLUS | REPORT_TERSE)))
		return -EINVAL;
	if (formats & REPORT_TERSE) {
		err = report_write_terse(r, out);
		if (err && !ret)
			ret = err;
	}
	if (formats & (REPORT_JSON | REPORT_JSONPLUS)) {
		err = report_write_json_extra(r, formats & REPORT_JSONPLUS, extra, out);
		if (err && !ret)
			ret = err;
	}
	if (formats & REPORT_NORMAL) {
		err = report_write_normal(r, out);
		if (err && !ret)
			ret = err;
	}
	/* the flush's errno says why (ENOSPC, EPIPE) better than a format's -EIO */
	errno = 0;
	if (fflush(out) != 0)
		ret = errno ? -errno : -EIO;
	return ret;
}
