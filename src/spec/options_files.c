/*
 * Parse callbacks of the file options whose values are more than a number:
 * file_service_type (roundrobin, sequential, random with an optional :N of
 * I/Os per file before switching; zipf, pareto, normal/gauss with their
 * value after ':') and lockfile (none, exclusive, readwrite with an
 * optional :N of I/Os done per lock taken), with fio 3.33's spellings and
 * defaults.
 */
#include "spec/options_cb_int.h"
#include "util/array.h"
#include "util/strutil.h"
#include "util/units.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The N of NAME:N, a count of at least 1; *n unchanged without one. */
static int parse_count(const char *val, const char *colon, unsigned *n, struct opt_ctx *c)
{
	uint64_t v;
	const char *why = NULL;
	if (!colon)
		return 0;
	if (parse_uint(colon + 1, 1000, &v, &why) < 0 || v == 0 || v > 0xffffffffu)
		return opt_fail(c, -EINVAL, "value", val, why ? why : "the count after ':' must be at least 1");
	*n = (unsigned)v;
	return 0;
}

int opt_cb_file_service_type(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	const char *colon = strchr(val, ':');
	size_t len = colon ? (size_t)(colon - val) : strlen(val);
	const struct opt_posval *type = optdef_word_n(c->opt, val, len); /* the row's words */
	if (!type)
		return optdef_word_fail(c->opt, val, c);
	enum file_service t = (enum file_service)type->value;
	unsigned nr = 1;
	double p = t == FSRV_ZIPF ? 1.1 : t == FSRV_PARETO ? 0.2 : 0; /* as the row's help says */
	if (t < FSRV_ZIPF) {
		int rc = parse_count(val, colon, &nr, c);
		if (rc)
			return rc;
	} else if (colon) {
		const char *why = NULL;
		if (parse_double(colon + 1, &p, &why))
			return opt_fail(c, -EINVAL, "file service type", val, why);
		if (t == FSRV_ZIPF && (p <= 0 || p == 1.0))
			return opt_fail(c, -ERANGE, "file service type", val, "zipf theta must be above 0 and not 1");
		if (t == FSRV_PARETO && (p <= 0 || p >= 1))
			return opt_fail(c, -ERANGE, "file service type", val, "pareto power must be between 0 and 1");
		if (t == FSRV_NORMAL && (p < 0 || p > 100))
			return opt_fail(c, -ERANGE, "file service type", val, "normal deviation must be from 0 to 100");
	}
	s->file_service = t;
	s->fsrv_nr = nr;
	s->fsrv_param = p;
	return 0;
}

int opt_cb_lockfile(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	const char *colon = strchr(val, ':');
	size_t len = colon ? (size_t)(colon - val) : strlen(val);
	const struct opt_posval *mode = optdef_word_n(c->opt, val, len); /* the row's words */
	if (!mode)
		return optdef_word_fail(c->opt, val, c);
	unsigned batch = 1;
	int rc = parse_count(val, colon, &batch, c);
	if (rc)
		return rc;
	s->lockfile = (enum lockfile_mode)mode->value;
	s->lockfile_batch = batch;
	return 0;
}
