/*
 * Per-group aggregates for fio's "Run status group N" lines, computed from
 * the job entries that share a groupid: total bytes per direction, the
 * aggregate bandwidth (group bytes over the longest entry runtime), the
 * slowest and fastest entry bandwidth and the shortest and longest runtime.
 * An entry that did not run a direction does not count for it.
 */
#include "report/report_int.h"

#include <string.h>

void report_group_compute(const struct run_result *r, unsigned groupid, struct report_group *g)
{
	memset(g, 0, sizeof(*g));
	g->groupid = groupid;
	g->kb_base = 1024;
	g->sig_figs = 4;

	for (size_t i = 0; i < r->nr_jobs; i++) {
		const struct job_result *j = &r->jobs[i];

		if (j->groupid != groupid)
			continue;
		if (!g->nr_entries) {
			g->kb_base = entry_kb_base(j);
			g->sig_figs = j->spec->sig_figs ? j->spec->sig_figs : 4;
			g->unit_bits = j->spec->unit_bits;
		}
		g->nr_entries++;

		for (int d = 0; d < DDIR_RWDIR_CNT; d++) {
			const struct dir_result *dr = &j->dir[d];
			uint64_t bw;

			if (!dr->runtime_ns)
				continue;
			bw = rate_per_sec(dr->io_bytes, dr->runtime_ns);
			if (!g->maxt_ns[d]) {
				g->mint_ns[d] = dr->runtime_ns;
				g->minb[d] = bw;
			}
			if (dr->runtime_ns < g->mint_ns[d])
				g->mint_ns[d] = dr->runtime_ns;
			if (dr->runtime_ns > g->maxt_ns[d])
				g->maxt_ns[d] = dr->runtime_ns;
			if (bw < g->minb[d])
				g->minb[d] = bw;
			if (bw > g->maxb[d])
				g->maxb[d] = bw;
			g->io_bytes[d] += dr->io_bytes;
		}
	}

	for (int d = 0; d < DDIR_RWDIR_CNT; d++)
		g->aggrb[d] = rate_per_sec(g->io_bytes[d], g->maxt_ns[d]);
}

unsigned report_max_groupid(const struct run_result *r)
{
	unsigned max = 0;

	for (size_t i = 0; i < r->nr_jobs; i++)
		if (r->jobs[i].groupid > max)
			max = r->jobs[i].groupid;
	return max;
}
