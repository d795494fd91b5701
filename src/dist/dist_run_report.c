/*
 * The root's report of `iobench-mpi run`: IOR's figures per phase (MIN
 * start, MAX end, bytes over the span, per-rank min/mean/max/stddev, the
 * stonewall pairs) from the reduced table, as the MPI block of the JSON
 * and of the normal output.
 */
#include "dist/dist_run_int.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "dist/dist_comm.h"
#include "util/json.h"

/* --- the root's report ---------------------------------------------- */

static const char *const dir_names[DDIR_RWDIR_CNT] = { "read", "write", "trim" };

struct phase_fig {
	double start, end, span;
	uint64_t bytes[DDIR_RWDIR_CNT], ios[DDIR_RWDIR_CNT];
	double first_done;            /* the first rank's end - start */
	unsigned nr_ranks;
	/* the stonewall: until the last rank stopped at the deadline (with
	 * --wearout, when it gave its count; else its end), and the bytes and
	 * I/Os (IOR's pairs) done by then */
	double sw_time;
	uint64_t sw_bytes, sw_ios_min, sw_ios_max;
	/* per rank bytes/s (its bytes over its own start..end) */
	double bw_min[DDIR_RWDIR_CNT], bw_max[DDIR_RWDIR_CNT], bw_mean[DDIR_RWDIR_CNT],
		bw_sd[DDIR_RWDIR_CNT];
};

static void phase_figures(const struct dist_run *d, size_t p, struct phase_fig *f)
{
	memset(f, 0, sizeof(*f));
	f->start = INFINITY;
	f->end = -INFINITY;
	double first_end = INFINITY;
	for (int r = 0; r < d->c->size; r++) {
		const struct rank_row *row = &d->ranks[r];
		if (!row->answered || p >= row->nr_phases)
			continue;
		const struct phase_row *ph = &row->phases[p];
		f->nr_ranks++;
		if (ph->start < f->start)
			f->start = ph->start;
		if (ph->end > f->end)
			f->end = ph->end;
		if (ph->end < first_end)
			first_end = ph->end;
		for (int k = 0; k < DDIR_RWDIR_CNT; k++) {
			f->bytes[k] += ph->bytes[k];
			f->ios[k] += ph->ios[k];
		}
	}
	if (!f->nr_ranks) {
		f->start = f->end = 0;
		return;
	}
	f->span = f->end - f->start;
	f->first_done = first_end - f->start;
	f->sw_ios_min = UINT64_MAX;
	double sw_last = -INFINITY;
	for (int r = 0; r < d->c->size; r++) {
		const struct rank_row *row = &d->ranks[r];
		if (!row->answered || p >= row->nr_phases)
			continue;
		const struct phase_row *ph = &row->phases[p];
		bool wore = ph->sw_at > 0;
		uint64_t ios = 0, bytes = 0;
		for (int k = 0; k < DDIR_RWDIR_CNT; k++) {
			ios += ph->ios[k];
			bytes += ph->bytes[k];
		}
		double at = wore ? ph->sw_at : ph->end;
		if (at > sw_last)
			sw_last = at;
		f->sw_bytes += wore ? ph->sw_bytes : bytes;
		uint64_t n = wore ? ph->sw_ios : ios;
		if (n < f->sw_ios_min)
			f->sw_ios_min = n;
		if (n > f->sw_ios_max)
			f->sw_ios_max = n;
	}
	f->sw_time = sw_last - f->start;
	for (int k = 0; k < DDIR_RWDIR_CNT; k++) {
		double sum = 0, sq = 0, mn = INFINITY, mx = 0;
		for (int r = 0; r < d->c->size; r++) {
			const struct rank_row *row = &d->ranks[r];
			if (!row->answered || p >= row->nr_phases)
				continue;
			const struct phase_row *ph = &row->phases[p];
			double t = ph->end - ph->start;
			double bw = t > 0 ? (double)ph->bytes[k] / t : 0;
			sum += bw;
			sq += bw * bw;
			if (bw < mn)
				mn = bw;
			if (bw > mx)
				mx = bw;
		}
		double mean = sum / f->nr_ranks;
		double var = sq / f->nr_ranks - mean * mean;
		f->bw_min[k] = mn;
		f->bw_max[k] = mx;
		f->bw_mean[k] = mean;
		f->bw_sd[k] = var > 0 ? sqrt(var) : 0; /* population, as IOR's summary */
	}
}

static double bw_of(uint64_t bytes, double s)
{
	return s > 0 ? (double)bytes / s : 0;
}

void dist_run_json(struct json_writer *w, void *arg)
{
	const struct dist_run *d = arg;
	const struct dist_comm *c = d->c;
	if (!d->ranks)
		return;
	json_kv_object_begin(w, "mpi");
	json_kv_uint(w, "ranks", (uint64_t)c->size);
	json_kv_string(w, "layout", d->o.layout == DIST_SHARED_FILE ? "shared-file" : "file-per-rank");
	json_kv_bool(w, "interleave", d->o.interleave);
	json_kv_uint(w, "ranks_per_job", d->o.ranks_per_job);
	json_kv_uint(w, "reorder_read", d->o.reorder);
	json_kv_bool(w, "fsync", d->o.fsync);
	json_kv_double(w, "stonewall_s", d->o.stonewall_s);
	json_key(w, "failure");
	if (c->failed) {
		json_object_begin(w);
		json_kv_int(w, "rank", c->fail.rank);
		json_kv_string(w, "host", c->fail.host);
		json_kv_int(w, "error", c->fail.error);
		json_kv_bool(w, "hung", c->fail.hung);
		json_kv_string(w, "message", c->fail.msg);
		json_object_end(w);
	} else {
		json_null(w);
	}
	json_kv_array_begin(w, "phases");
	for (size_t p = 0; p < d->nr_phases; p++) {
		struct phase_fig f;
		phase_figures(d, p, &f);
		json_object_begin(w);
		json_kv_uint(w, "group_first", d->phases[p].group_first);
		json_kv_uint(w, "group_last", d->phases[p].group_last);
		json_kv_uint(w, "ranks", f.nr_ranks);
		json_kv_double(w, "start", f.start);
		json_kv_double(w, "end", f.end);
		json_kv_double(w, "span_s", f.span);
		json_kv_double(w, "first_done_s", f.first_done);
		json_kv_double(w, "last_done_s", f.span);
		for (int k = 0; k < DDIR_RWDIR_CNT; k++) {
			if (!f.bytes[k] && !f.ios[k])
				continue;
			json_kv_object_begin(w, dir_names[k]);
			json_kv_uint(w, "bytes", f.bytes[k]);
			json_kv_uint(w, "ios", f.ios[k]);
			json_kv_double(w, "bw_bytes", bw_of(f.bytes[k], f.span));
			json_kv_double(w, "bw_mib", bw_of(f.bytes[k], f.span) / 1048576.0);
			json_kv_double(w, "iops", bw_of(f.ios[k], f.span));
			json_kv_object_begin(w, "rank_bw_bytes");
			json_kv_double(w, "min", f.bw_min[k]);
			json_kv_double(w, "mean", f.bw_mean[k]);
			json_kv_double(w, "max", f.bw_max[k]);
			json_kv_double(w, "stddev", f.bw_sd[k]);
			json_object_end(w);
			if (d->o.stonewall_s > 0) {
				/* IOR's Stonewall(s) and Stonewall(MiB): a rank's mean
				 * bytes at the deadline over the time the last one
				 * stopped; the last-done figure is bw_bytes (with
				 * --wearout: every byte, the wearout's too) */
				json_kv_object_begin(w, "stonewall");
				json_kv_bool(w, "wearout", d->o.wearout);
				json_kv_double(w, "time_s", f.sw_time);
				json_kv_uint(w, "bytes", f.sw_bytes);
				json_kv_uint(w, "pairs_min", f.sw_ios_min);
				json_kv_uint(w, "pairs_max", f.sw_ios_max);
				json_kv_double(w, "rank_mean_mib_s",
					       bw_of(f.sw_bytes, f.sw_time) / f.nr_ranks / 1048576.0);
				json_kv_double(w, "first_done_s", f.first_done);
				json_kv_double(w, "last_done_bw_bytes", bw_of(f.bytes[k], f.span));
				json_object_end(w);
			}
			const struct phase_lat *l = &d->lat[p][k];
			json_kv_object_begin(w, "clat_ns");
			json_kv_uint(w, "count", l->count);
			json_kv_uint(w, "min", l->min);
			json_kv_uint(w, "max", l->max);
			json_kv_object_begin(w, "percentile");
			json_kv_uint(w, "50.000000", l->p50);
			json_kv_uint(w, "90.000000", l->p90);
			json_kv_uint(w, "99.000000", l->p99);
			json_kv_uint(w, "99.900000", l->p999);
			json_object_end(w);
			json_object_end(w);
			json_object_end(w);
		}
		json_object_end(w);
	}
	json_array_end(w);
	json_kv_array_begin(w, "per_rank");
	for (int r = 0; r < c->size; r++) {
		const struct rank_row *row = &d->ranks[r];
		json_object_begin(w);
		json_kv_int(w, "rank", r);
		json_kv_string(w, "host", c->hosts[r]);
		json_kv_bool(w, "answered", row->answered);
		json_kv_array_begin(w, "jobs");
		for (uint32_t i = 0; i < row->nr_jobs; i++) {
			json_object_begin(w);
			json_kv_string(w, "name", row->jobs[i]);
			json_kv_string(w, "files", row->files[i]);
			json_object_end(w);
		}
		json_array_end(w);
		json_kv_array_begin(w, "phases");
		for (size_t p = 0; p < row->nr_phases; p++) {
			const struct phase_row *ph = &row->phases[p];
			json_object_begin(w);
			json_kv_uint(w, "group_first", ph->group_first);
			json_kv_uint(w, "group_last", ph->group_last);
			json_kv_double(w, "start", ph->start);
			json_kv_double(w, "end", ph->end);
			for (int k = 0; k < DDIR_RWDIR_CNT; k++) {
				char key[32];
				snprintf(key, sizeof(key), "%s_bytes", dir_names[k]);
				json_kv_uint(w, key, ph->bytes[k]);
				snprintf(key, sizeof(key), "%s_ios", dir_names[k]);
				json_kv_uint(w, key, ph->ios[k]);
			}
			json_object_end(w);
		}
		json_array_end(w);
		json_object_end(w);
	}
	json_array_end(w);
	json_kv_array_begin(w, "nodes");
	for (int r = 0; r < c->size; r++) {
		if (!d->envs[r])
			continue;
		json_object_begin(w);
		json_kv_string(w, "host", c->hosts[r]);
		json_kv_int(w, "rank", r);
		json_key(w, "env");
		json_raw(w, d->envs[r]);
		json_object_end(w);
	}
	json_array_end(w);
	json_object_end(w);
}

static void fmt_bw(double bps, char *out, size_t len)
{
	snprintf(out, len, "%.2f MiB/s", bps / 1048576.0);
}

void dist_run_text(void *arg, FILE *out)
{
	const struct dist_run *d = arg;
	const struct dist_comm *c = d->c;
	if (!d->ranks)
		return;
	unsigned hosts = 0;
	for (int r = 0; r < c->size; r++) {
		bool first = true;
		for (int q = 0; q < r && first; q++)
			first = strcmp(c->hosts[q], c->hosts[r]) != 0;
		hosts += first;
	}
	fprintf(out, "\nMPI: %d rank%s on %u host%s, layout %s%s%s%s\n", c->size,
		c->size == 1 ? "" : "s", hosts, hosts == 1 ? "" : "s",
		d->o.layout == DIST_SHARED_FILE ? "shared-file" : "file-per-rank",
		d->o.interleave ? " (interleaved blocks)" : "",
		d->o.reorder ? ", reordered reads" : "", d->o.fsync ? ", fsync" : "");
	for (size_t p = 0; p < d->nr_phases; p++) {
		struct phase_fig f;
		phase_figures(d, p, &f);
		fprintf(out, "  phase %zu (groups %u-%u): %u ranks, span %.3fs (first done %.3fs)\n", p + 1,
			d->phases[p].group_first, d->phases[p].group_last, f.nr_ranks, f.span,
			f.first_done);
		for (int k = 0; k < DDIR_RWDIR_CNT; k++) {
			if (!f.bytes[k] && !f.ios[k])
				continue;
			char agg[32], mn[32], mean[32], mx[32], sd[32];
			fmt_bw(bw_of(f.bytes[k], f.span), agg, sizeof(agg));
			fmt_bw(f.bw_min[k], mn, sizeof(mn));
			fmt_bw(f.bw_mean[k], mean, sizeof(mean));
			fmt_bw(f.bw_max[k], mx, sizeof(mx));
			fmt_bw(f.bw_sd[k], sd, sizeof(sd));
			const struct phase_lat *l = &d->lat[p][k];
			fprintf(out, "    %-5s: %" PRIu64 " bytes, %" PRIu64 " ios, aggregate %s; per rank "
				"min %s mean %s max %s stddev %s\n", dir_names[k], f.bytes[k], f.ios[k], agg,
				mn, mean, mx, sd);
			fprintf(out, "           clat (usec) of all ranks: p50 %.1f p99 %.1f p99.9 %.1f "
				"max %.1f (%" PRIu64 " ios)\n", l->p50 / 1e3, l->p99 / 1e3, l->p999 / 1e3,
				l->max / 1e3, l->count);
			if (d->o.stonewall_s > 0)
				fprintf(out, "           stonewall %.3fs: %.2f MiB/s per rank (IOR's "
					"Stonewall(MiB)), pairs min %" PRIu64 " max %" PRIu64 "%s; last "
					"done %s\n", f.sw_time,
					bw_of(f.sw_bytes, f.sw_time) / f.nr_ranks / 1048576.0,
					f.sw_ios_min, f.sw_ios_max, d->o.wearout ? ", worn out" : "", agg);
		}
	}
	if (c->failed)
		fprintf(out, "  stopped: rank %d (host %s) %s%s\n", c->fail.rank, c->fail.host,
			c->fail.hung ? "" : "failed: ", c->fail.msg);
}

