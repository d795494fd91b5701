/*
 * Parse callbacks of write-side and submission options of fio:
 * sync_file_range=FLAGS[:N] (FLAGS a comma list of wait_before, write and
 * wait_after, the
 * SYNC_FILE_RANGE_* flags; N writes between calls, 1 when left out, 0 for
 * none) and atomic=1 (implies direct=1); write_hint's and io_submit_mode's
 * words are their rows' in options_table.c. The runtime is workload/io/syncrange.c's,
 * files.c's and writeopts.c's.
 */
#include "spec/options_cb_int.h"
#include "util/array.h"
#include "util/units.h"
#include "util/xmalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int opt_cb_sync_file_range(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	char *copy = xstrdup(val), *colon = strchr(copy, ':'), *save = NULL;
	uint64_t every = 1;
	unsigned set = 0;
	int rc = 0;
	if (colon) {
		*colon = 0;
		char *end;
		every = strtoull(colon + 1, &end, 10);
		if (!colon[1] || *end || colon[1] == '-')
			rc = opt_fail(c, -EINVAL, "count", colon + 1, "expected FLAGS:N, N writes between calls");
	}
	for (char *t = strtok_r(copy, ",", &save); t && !rc; t = strtok_r(NULL, ",", &save)) {
		const struct opt_posval *flag = optdef_word(c->opt, t); /* the row's words */
		if (!flag)
			rc = optdef_word_fail(c->opt, t, c);
		else
			set |= (unsigned)flag->value;
	}
	if (!rc && !set) {
		char words[160], why[200];
		snprintf(why, sizeof(why), "name at least one of %s",
			 optdef_words(c->opt, words, sizeof(words)));
		rc = opt_fail(c, -EINVAL, "sync_file_range", val, why);
	}
	free(copy);
	if (rc)
		return rc;
	s->sync_file_range_flags = set;
	s->sync_file_range_every = every;
	return 0;
}

/* atomic=1, fio 3.33's "atomic I/O with O_DIRECT (implies O_DIRECT)" */
int opt_cb_atomic(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	bool b = true;
	const char *why = NULL;
	if (val && parse_bool(val, &b, &why))
		return opt_fail(c, -EINVAL, "boolean", val, why);
	s->atomic = b;
	if (b)
		s->direct = true;
	return 0;
}
