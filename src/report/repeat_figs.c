/*
 * One repetition's headline figures into the table (repeat_figs.h).
 */
#include "report/repeat_figs.h"

#include <stdlib.h>

#include "report/bonnie_report.h"
#include "stats/hist.h"
#include "util/xmalloc.h"

static const unsigned dir_bits[DDIR_RWDIR_CNT] = { RW_READ, RW_WRITE, RW_TRIM };

void rep_figs_add_jobs(struct rep_table *t, const char *prefix, const struct run_result *r)
{
	for (size_t i = 0; i < r->nr_jobs; i++) {
		const struct job_result *j = &r->jobs[i];
		char *named = prefix ? xasprintf("%s:%s", prefix, j->name ? j->name : "") : NULL;
		const char *name = named ? named : j->name ? j->name : "";
		for (int d = 0; d < DDIR_RWDIR_CNT; d++) {
			const struct dir_result *dr = &j->dir[d];
			bool asked = j->spec && (j->spec->rw & dir_bits[d]);
			if (!asked && !dr->total_ios)
				continue;
			double sec = (double)dr->runtime_ns / 1e9;
			const char *dn = ddir_name((enum ddir)d);
			rep_table_set(t, name, dn, "bw", "KiB/s",
				      sec > 0 ? (double)dr->io_bytes / 1024.0 / sec : 0);
			rep_table_set(t, name, dn, "iops", "IO/s",
				      sec > 0 ? (double)dr->total_ios / sec : 0);
			rep_table_set(t, name, dn, "clat_p50", "ns",
				      (double)hist_percentile(&dr->clat_hist, 50.0));
			rep_table_set(t, name, dn, "clat_p99", "ns",
				      (double)hist_percentile(&dr->clat_hist, 99.0));
		}
		free(named);
	}
}

void rep_figs_add_run(struct rep_table *t, size_t rep, const struct run_result *r)
{
	rep_table_begin_row(t, rep);
	rep_figs_add_jobs(t, NULL, r);
	rep_table_end_row(t);
}

void rep_figs_add_bonnie(struct rep_table *t, size_t rep, const struct bonnie_result *r)
{
	rep_table_begin_row(t, rep);
	const struct bonnie_figures *f = &r->total;
	for (int i = 0; i < BON_IO_TESTS; i++)
		if (f->io[i].ran)
			rep_table_set(t, bonnie_io_name((enum bonnie_io_test)i), NULL, "rate",
				      i == BON_SEEKS ? "seeks/s" : "KiB/s",
				      bonnie_io_figure((enum bonnie_io_test)i, &f->io[i]));
	for (int i = 0; i < BON_FILE_TESTS; i++)
		if (f->file[i].ran)
			rep_table_set(t, bonnie_file_name((enum bonnie_file_test)i), NULL, "rate",
				      "files/s", f->file[i].rate);
	rep_table_end_row(t);
}
