/*
 * Fuzz target: the result readers of `results import` and `compare --from`
 * (compare/cmp_import.h): fio and iobench JSON, iobench's bonnie JSON and
 * bonnie++ CSV lines, and the compare engine on what they read. Besides "no
 * crash", a refusal leaves the run list as it was, and every run read has
 * its source, format and text and gives the engine something to compare.
 */
#include "common.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "compare/cmp_engine.h"
#include "compare/cmp_import.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_silence();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_strndup(data, size);
	struct cmp_sel s[2];
	cmp_sel_init(&s[0], "a", NULL);
	cmp_sel_init(&s[1], "b", NULL);
	cmp_runs_push(&s[0].runs)->id = 1;
	int rc = cmp_import_text("fuzz", text, strlen(text), &s[1].runs);
	if (rc < 0) {
		REQUIRE(rc == -EINVAL && s[1].runs.n == 0);
	} else {
		REQUIRE(s[1].runs.n > 0);
		for (size_t i = 0; i < s[1].runs.n; i++) {
			const struct cmp_run *r = &s[1].runs.v[i];
			REQUIRE(r->source && r->source_format && r->raw && r->tool);
			/* the baseline: the first run's figures */
			for (size_t k = 0; i == 0 && k < r->nr_figs; k++)
				cmp_run_add_fig(&s[0].runs.v[0], r->figs[k].job, r->figs[k].dir,
						r->figs[k].name, r->figs[k].value);
		}
		struct cmp_opts o = CMP_OPTS_DEFAULT;
		o.resamples = 100;
		struct cmp_result res;
		REQUIRE(cmp_compute(s, 2, &o, &res) == 0);
		for (size_t i = 0; i < res.nr_rows; i++) {
			char v[1024];
			REQUIRE(res.rows[i].cells[0].n >= 1 || res.rows[i].cells[1].status == CMP_MISSING);
			cmp_verdict(&res, i, 1, v, sizeof(v));
		}
		cmp_result_release(&res);
	}
	cmp_sel_release(&s[0]);
	cmp_sel_release(&s[1]);
	free(text);
	return 0;
}
