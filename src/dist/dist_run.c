/*
 * `iobench-mpi run` (dist_run.h): the job list per rank, the phases'
 * barriers and times, and the reduction of every rank's results to the
 * root, with IOR's figures per phase.
 */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/env_report.h"
#include "results/results.h"
#include "spec/jobspec.h"
#include "stats/hist.h"
#include "util/array.h"
#include "util/error.h"
#include "util/json.h"
#include "util/xmalloc.h"

#include "dist/dist_run_int.h"


/* --- the job list --------------------------------------------------- */

static bool has(const char *s, const char *w)
{
	return s && strstr(s, w);
}

/* s with $nranks, $rank and $host replaced (fio's own $jobname, $jobnum,
 * $filenum stay); NULL stays NULL. */
static char *subst(const char *s, unsigned rank, unsigned nranks, const char *host)
{
	if (!s)
		return NULL;
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	if (!f)
		die("out of memory");
	for (const char *p = s; *p;) {
		if (!strncmp(p, "$nranks", 7)) {
			fprintf(f, "%u", nranks);
			p += 7;
		} else if (!strncmp(p, "$rank", 5)) {
			fprintf(f, "%u", rank);
			p += 5;
		} else if (!strncmp(p, "$host", 5)) {
			fputs(host, f);
			p += 5;
		} else {
			fputc(*p++, f);
		}
	}
	fclose(f);
	return out;
}

static void replace(char **field, char *v)
{
	free(*field);
	*field = v;
}

/* filename's ':'-separated names, each with ".$rank" after it (IOR's -F
 * names its files FILE.%08d: iobench-mpi FILE.RANK). */
static char *per_rank_names(const char *names)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	if (!f)
		die("out of memory");
	for (const char *p = names; *p; p++) {
		if (*p == '\\' && p[1]) {
			fputc(*p++, f);
			fputc(*p, f);
			continue;
		}
		if (*p == ':')
			fputs(".$rank", f);
		fputc(*p, f);
	}
	fputs(".$rank", f);
	fclose(f);
	return out;
}

static int prepare_job(struct dist_run *d, struct job_spec *s)
{
	const struct dist_comm *c = d->c;
	unsigned n = (unsigned)c->size;
	bool reads_only = spec_reads(s) && !spec_writes(s);
	/* the rank whose data this job touches: --reorder-read shifts the readers */
	unsigned who = (unsigned)c->rank;
	if (reads_only && d->o.reorder)
		who = (who + d->o.reorder) % n;
	if (d->o.layout == DIST_FILE_PER_RANK) {
		if (s->filename && *s->filename) {
			if (!has(s->filename, "$rank"))
				replace(&s->filename, per_rank_names(s->filename));
		} else if (!has(s->filename_format, "$rank") && !has(s->directory, "$rank")) {
			replace(&s->filename_format,
				xasprintf("%s.$rank", s->filename_format ? s->filename_format
									 : "$jobname.$jobnum.$filenum"));
		}
	} else {
		if (has(s->filename, "$rank") || has(s->filename_format, "$rank") ||
		    has(s->directory, "$rank"))
			return error("job '%s': --layout shared-file, but its file names use $rank (one "
				     "file per rank): drop $rank or use --layout file-per-rank", s->name);
		if (!s->size || s->size_pct || s->offset_pct || s->nrfiles > 1)
			return error("job '%s': --layout shared-file needs size= (the bytes of each "
				     "rank's region), one file and an offset in bytes", s->name);
		if (!d->o.interleave) {
			s->offset += (uint64_t)who * s->size; /* rank r's region: r * size */
		} else {
			/* IOR's segments with -b = -t = bs: the file is size / bs
			 * segments of one block per rank; rank r's k-th I/O is at
			 * offset + (k * N + r) * bs */
			int dd = spec_writes(s) ? DDIR_WRITE : DDIR_READ;
			uint64_t b = s->bs[dd];
			if (spec_is_rand(s) || s->rw_seq_skip || s->bssplit || !b ||
			    s->min_bs[dd] != s->max_bs[dd] || s->size % b ||
			    (spec_reads(s) && spec_writes(s) && s->bs[DDIR_READ] != s->bs[DDIR_WRITE]))
				return error("job '%s': --interleave needs sequential I/O of one block "
					     "size that divides size= (each I/O is one rank's block of a "
					     "segment)", s->name);
			if (!s->io_size)
				s->io_size = s->size; /* each rank's bytes */
			s->rw_seq_skip = (int64_t)((n - 1) * b);
			s->offset += (uint64_t)who * b;
			s->size *= n;         /* the region every rank's blocks share */
		}
	}
	replace(&s->filename, subst(s->filename, who, n, c->host));
	replace(&s->directory, subst(s->directory, who, n, c->host));
	replace(&s->filename_format, subst(s->filename_format, who, n, c->host));
	/* the logs: rank 0's, and every rank's whose names say which rank
	 * (or host) wrote them; the others would write over rank 0's */
	char **logs[] = { &s->bw_log, &s->iops_log, &s->lat_log, &s->hist_log, &s->write_iolog };
	for (size_t k = 0; k < ARRAY_SIZE(logs); k++) {
		if (!*logs[k])
			continue;
		if (c->rank && !has(*logs[k], "$rank") && !has(*logs[k], "$host"))
			replace(logs[k], NULL);
		else
			replace(logs[k], subst(*logs[k], (unsigned)c->rank, n, c->host));
	}
	if (d->o.fsync && spec_writes(s))
		s->end_fsync = true; /* IOR -e: inside the phase's time */
	if (d->o.stonewall_s > 0) {
		/* IOR -D: each rank stops at the deadline or when its work is done */
		s->runtime = (uint64_t)(d->o.stonewall_s * 1e9);
		s->time_based = false;
	}
	return 0;
}

/* --ranks-per-job: only this rank's job stays in the list; the root keeps
 * a copy of them all for the report. */
static int split_jobs(struct dist_run *d, struct job_list *list)
{
	for (size_t i = 1; i < list->nr; i++)
		if (list->jobs[i].stonewall)
			return error("--ranks-per-job splits the jobs of one phase among the ranks: job "
				     "'%s' starts another (stonewall); run each phase on its own",
				     list->jobs[i].name);
	size_t own = ((size_t)d->c->rank / d->o.ranks_per_job) % list->nr;
	if (d->c->rank == 0) {
		d->all = xcalloc(list->nr, sizeof(*d->all));
		for (size_t i = 0; i < list->nr; i++)
			job_spec_copy(&d->all[i], &list->jobs[i]);
		d->nr_all = list->nr;
	}
	for (size_t i = 0; i < list->nr; i++)
		if (i != own)
			job_spec_release(&list->jobs[i]);
	if (own)
		list->jobs[0] = list->jobs[own];
	list->nr = 1;
	return 0;
}

static int prepare(void *arg, struct job_list *list)
{
	struct dist_run *d = arg;
	if (d->o.ranks_per_job && list->nr && split_jobs(d, list) < 0)
		return -1;
	d->jobs = xcalloc(list->nr ? list->nr : 1, sizeof(*d->jobs));
	d->files = xcalloc(list->nr ? list->nr : 1, sizeof(*d->files));
	for (size_t i = 0; i < list->nr; i++) {
		struct job_spec *s = &list->jobs[i];
		if (prepare_job(d, s) < 0)
			return -1;
		d->jobs[d->nr_jobs] = xstrdup(s->name ? s->name : "");
		d->files[d->nr_jobs++] = xstrdup(s->filename && *s->filename ? s->filename
					       : s->filename_format ? s->filename_format
					       : "$jobname.$jobnum.$filenum");
	}
	return 0;
}

/* --- the phases ----------------------------------------------------- */

static int batch_sync(void *arg, unsigned g0, unsigned g1, bool end, int err, const char *msg)
{
	struct dist_run *d = arg;
	char point[96], why[DIST_MSG_MAX];
	if (!end) {
		/* by number only: under --ranks-per-job the ranks' groups differ */
		snprintf(point, sizeof(point), "the start of phase %zu", d->nr_phases + 1);
		if (dist_sync(d->c, point, 0, NULL) < 0)
			return -1;
		if (d->nr_phases == d->alloc) {
			d->alloc = d->alloc ? 2 * d->alloc : 8;
			d->phases = xrealloc(d->phases, d->alloc * sizeof(*d->phases));
		}
		struct phase_row *p = &d->phases[d->nr_phases++];
		memset(p, 0, sizeof(*p));
		p->group_first = g0;
		p->group_last = g1;
		p->start = dist_now();
		return 0;
	}
	if (d->nr_phases)
		d->phases[d->nr_phases - 1].end = dist_now();
	snprintf(point, sizeof(point), "the end of phase %zu", d->nr_phases);
	if (err)
		snprintf(why, sizeof(why), "%s", msg ? msg : strerror(err));
	return dist_sync(d->c, point, err, err ? why : NULL);
}

/* --wearout: the batch's deadline has passed on this rank; every rank's
 * counts to the root, the largest of each job back as the targets (IOR's
 * MPI_Allreduce MAX of the pairs). When that fails, the jobs end where they
 * are; the phase's end then names the rank. */
static void wearout(void *arg, const uint64_t *ios, const uint64_t *bytes, uint64_t *targets,
		    size_t n)
{
	struct dist_run *d = arg;
	struct dist_comm *c = d->c;
	struct phase_row *ph = d->nr_phases ? &d->phases[d->nr_phases - 1] : NULL;
	memcpy(targets, ios, n * sizeof(*targets));
	if (ph) {
		ph->sw_at = dist_now();
		ph->sw_bytes = ph->sw_ios = 0;
		for (size_t k = 0; k < n; k++) {
			ph->sw_bytes += bytes[k];
			ph->sw_ios += ios[k];
		}
	}
	void **blobs = NULL;
	size_t *lens = NULL;
	int rc = dist_gather(c, ios, n * sizeof(*ios), &blobs, &lens);
	uint64_t *max = xcalloc(n ? n : 1, sizeof(*max));
	memcpy(max, ios, n * sizeof(*max));
	if (c->rank == 0) {
		for (int r = 0; r < c->size; r++) {
			for (size_t k = 0; blobs[r] && lens[r] == n * sizeof(*ios) && k < n; k++) {
				uint64_t v;
				memcpy(&v, (const char *)blobs[r] + k * sizeof(v), sizeof(v));
				if (v > max[k])
					max[k] = v;
			}
			free(blobs[r]);
		}
		free(blobs);
		free(lens);
	}
	if (dist_bcast_u64(c, max, n) == 0 && rc == 0)
		memcpy(targets, max, n * sizeof(*targets));
	free(max);
}

/* --- the blob a rank sends the root --------------------------------- */

struct buf {
	char *p;
	size_t n, cap;
};

static void put(struct buf *b, const void *v, size_t len)
{
	if (b->n + len > b->cap) {
		b->cap = (b->n + len) * 2 + 256;
		b->p = xrealloc(b->p, b->cap);
	}
	memcpy(b->p + b->n, v, len);
	b->n += len;
}

static void put_u32(struct buf *b, uint32_t v) { put(b, &v, sizeof(v)); }
static void put_u64(struct buf *b, uint64_t v) { put(b, &v, sizeof(v)); }

static void put_str(struct buf *b, const char *s)
{
	uint32_t n = s ? (uint32_t)strlen(s) + 1 : 0;
	put_u32(b, n);
	if (n)
		put(b, s, n);
}

static void put_hist(struct buf *b, const struct hist *h)
{
	put_u64(b, h->count);
	put_u64(b, h->min);
	put_u64(b, h->max);
	uint32_t nz = 0;
	for (unsigned i = 0; i < HIST_NR_BUCKETS; i++)
		nz += hist_count_at(h, i) != 0;
	put_u32(b, nz);
	for (unsigned i = 0; i < HIST_NR_BUCKETS; i++) {
		uint64_t k = hist_count_at(h, i);
		if (k) {
			put_u32(b, i);
			put_u64(b, k);
		}
	}
}

struct cur {
	const char *p;
	size_t left;
	bool bad;
};

static void get(struct cur *c, void *v, size_t len)
{
	if (c->bad || len > c->left) {
		c->bad = true;
		memset(v, 0, len);
		return;
	}
	memcpy(v, c->p, len);
	c->p += len;
	c->left -= len;
}

static uint32_t get_u32(struct cur *c) { uint32_t v; get(c, &v, sizeof(v)); return v; }
static uint64_t get_u64(struct cur *c) { uint64_t v; get(c, &v, sizeof(v)); return v; }

static char *get_str(struct cur *c)
{
	uint32_t n = get_u32(c);
	if (!n || c->bad)
		return NULL;
	if (n > c->left) {
		c->bad = true;
		return NULL;
	}
	char *s = xmalloc(n);
	get(c, s, n);
	s[n - 1] = '\0';
	return s;
}

static void get_hist(struct cur *c, struct hist *h)
{
	hist_init(h);
	uint64_t count = get_u64(c), min = get_u64(c), max = get_u64(c);
	uint32_t nz = get_u32(c);
	for (uint32_t k = 0; k < nz && !c->bad; k++) {
		uint32_t i = get_u32(c);
		uint64_t n = get_u64(c);
		if (i >= HIST_NR_BUCKETS) {
			c->bad = true;
			break;
		}
		hist_add_n(h, hist_bucket_value(i), n);
	}
	if (h->count == count) { /* the exact extremes, not the buckets' */
		h->min = min;
		h->max = max;
	}
}

/* The job's histograms in a fixed order. */
static struct hist *job_hist(struct job_result *j, int k)
{
	if (k == 3 * DDIR_RWDIR_CNT)
		return &j->sync.lat_hist;
	struct dir_result *d = &j->dir[k / 3];
	return k % 3 == 0 ? &d->slat_hist : k % 3 == 1 ? &d->clat_hist : &d->lat_hist;
}
#define NR_JOB_HISTS (3 * DDIR_RWDIR_CNT + 1)

static void put_job(struct buf *b, const struct job_result *j)
{
	put(b, j, sizeof(*j)); /* the figures; the pointers are sent below or dropped */
	put_str(b, j->name);
	put_str(b, j->error_msg);
	for (int k = 0; k < NR_JOB_HISTS; k++)
		put_hist(b, job_hist((struct job_result *)j, k));
}

/* A job as a rank sent it: its figures and histograms, no spec, no
 * per-priority or steadystate detail (only the root's own are kept). */
static void get_job(struct cur *c, struct job_result *j)
{
	get(c, j, sizeof(*j));
	j->spec = NULL;
	j->ss = NULL;
	for (int d = 0; d < DDIR_RWDIR_CNT; d++) {
		j->dir[d].prios = NULL;
		j->dir[d].nr_prios = 0;
	}
	j->name = get_str(c);
	j->error_msg = get_str(c);
	for (int k = 0; k < NR_JOB_HISTS; k++)
		get_hist(c, job_hist(j, k));
}

/* This rank's phases with their bytes and I/Os from its results. */
static void count_phases(struct dist_run *d, const struct run_result *res)
{
	for (size_t p = 0; p < d->nr_phases; p++) {
		struct phase_row *ph = &d->phases[p];
		for (size_t i = 0; i < res->nr_jobs; i++) {
			const struct job_result *j = &res->jobs[i];
			if (j->groupid < ph->group_first || j->groupid > ph->group_last)
				continue;
			for (int k = 0; k < DDIR_RWDIR_CNT; k++) {
				ph->bytes[k] += j->dir[k].io_bytes;
				ph->ios[k] += j->dir[k].total_ios;
			}
		}
	}
}

/* The first rank of each host sends its node's environment. */
static bool node_first(const struct dist_comm *c)
{
	for (int r = 0; r < c->rank; r++)
		if (!strcmp(c->hosts[r], c->host))
			return false;
	return true;
}

static char *env_json_text(const struct run_env *env)
{
	if (!env)
		return NULL;
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	if (!f)
		return NULL;
	struct json_writer w;
	json_init(&w, f);
	json_object_begin(&w);
	env_json_members(&w, env);
	json_object_end(&w);
	int rc = json_finish(&w);
	fclose(f);
	if (rc < 0) {
		free(out);
		return NULL;
	}
	return out;
}

static void make_blob(struct dist_run *d, const struct run_result *res, struct buf *b)
{
	put_u32(b, BLOB_MAGIC);
	put_u32(b, (uint32_t)d->nr_phases);
	put(b, d->phases, d->nr_phases * sizeof(*d->phases));
	char *env = node_first(d->c) ? env_json_text(res->env) : NULL;
	put_str(b, env);
	free(env);
	put_u32(b, (uint32_t)d->nr_jobs);
	for (size_t i = 0; i < d->nr_jobs; i++) {
		put_str(b, d->jobs[i]);
		put_str(b, d->files[i]);
	}
	put_u32(b, (uint32_t)res->nr_jobs);
	for (size_t i = 0; i < res->nr_jobs; i++)
		put_job(b, &res->jobs[i]);
}

/* --- the root's reduction ------------------------------------------- */

static void merge_blob(struct dist_run *d, int r, const void *blob, size_t len,
		       struct run_result *res)
{
	struct cur c = { .p = blob, .left = len };
	struct rank_row *row = &d->ranks[r];
	if (!len)
		return; /* it failed before its run: nothing measured */
	if (get_u32(&c) != BLOB_MAGIC) {
		warning("iobench-mpi: rank %d sent results iobench-mpi cannot read", r);
		return;
	}
	uint32_t np = get_u32(&c);
	if (np > len / sizeof(struct phase_row)) {
		warning("iobench-mpi: rank %d sent a damaged result", r);
		return;
	}
	row->phases = xcalloc(np ? np : 1, sizeof(*row->phases));
	get(&c, row->phases, np * sizeof(*row->phases));
	row->nr_phases = np;
	row->answered = true;
	d->envs[r] = get_str(&c);
	uint32_t nf = get_u32(&c);
	if (nf > len / 8) {
		warning("iobench-mpi: rank %d sent a damaged result", r);
		return;
	}
	row->jobs = xcalloc(nf ? nf : 1, sizeof(*row->jobs));
	row->files = xcalloc(nf ? nf : 1, sizeof(*row->files));
	for (uint32_t i = 0; i < nf && !c.bad; i++, row->nr_jobs++) {
		row->jobs[i] = get_str(&c);
		row->files[i] = get_str(&c);
	}
	if (r == 0)
		return; /* the root's jobs are res itself */
	uint32_t nj = get_u32(&c);
	struct job_result *got = xcalloc(nj ? nj : 1, sizeof(*got));
	uint32_t ng = 0;
	for (uint32_t i = 0; i < nj && !c.bad; i++) {
		get_job(&c, &got[ng]);
		if (c.bad)
			job_result_release(&got[ng]);
		else
			ng++;
	}
	for (uint32_t i = 0; i < ng; i++) {
		struct job_result *j = &got[i];
		/* the root's entry of the same name, as many times named before */
		size_t nth = 0, at = SIZE_MAX;
		for (uint32_t k = 0; k < i; k++)
			nth += got[k].name && j->name && !strcmp(got[k].name, j->name);
		for (size_t k = 0; k < res->nr_jobs && at == SIZE_MAX; k++)
			if (res->jobs[k].name && j->name && !strcmp(res->jobs[k].name, j->name) && !nth--)
				at = k;
		const struct job_spec *spec = NULL;
		for (size_t k = 0; at == SIZE_MAX && k < d->nr_all && !spec; k++)
			if (d->all[k].name && j->name && !strcmp(d->all[k].name, j->name))
				spec = &d->all[k];
		if (at != SIZE_MAX) {
			job_result_merge(&res->jobs[at], j);
		} else if (spec) {
			/* --ranks-per-job: a job the root did not run */
			res->jobs = xrealloc(res->jobs, (res->nr_jobs + 1) * sizeof(*res->jobs));
			struct job_result *n = &res->jobs[res->nr_jobs++];
			job_result_init(n);
			n->spec = xcalloc(1, sizeof(*n->spec));
			job_spec_copy(n->spec, spec);
			job_result_merge(n, j);
		} else {
			warning("iobench-mpi: rank %d's job %u ('%s') is not the root's: not merged", r,
				i, j->name ? j->name : "");
		}
		job_result_release(j);
	}
	free(got);
	if (c.bad)
		warning("iobench-mpi: rank %d sent a damaged result: part of it is not merged", r);
}

/* --ranks-per-job: the jobs in the job files' order, wherever they ran */
static size_t job_order(const struct dist_run *d, const struct job_result *j)
{
	for (size_t k = 0; k < d->nr_all; k++)
		if (d->all[k].name && j->name && !strcmp(d->all[k].name, j->name))
			return k;
	return d->nr_all;
}

static void order_jobs(const struct dist_run *d, struct run_result *res)
{
	/* insertion sort, stable: a few jobs */
	for (size_t i = 1; i < res->nr_jobs; i++) {
		struct job_result t = res->jobs[i];
		size_t o = job_order(d, &t), k = i;
		for (; k > 0 && job_order(d, &res->jobs[k - 1]) > o; k--)
			res->jobs[k] = res->jobs[k - 1];
		res->jobs[k] = t;
	}
}

static void phase_lat(struct dist_run *d, const struct run_result *res)
{
	d->lat = xcalloc(d->nr_phases ? d->nr_phases : 1, sizeof(*d->lat));
	for (size_t p = 0; p < d->nr_phases; p++) {
		const struct phase_row *ph = &d->phases[p];
		for (int k = 0; k < DDIR_RWDIR_CNT; k++) {
			struct hist h;
			hist_init(&h);
			for (size_t i = 0; i < res->nr_jobs; i++) {
				const struct job_result *j = &res->jobs[i];
				if (d->o.ranks_per_job ||
				    (j->groupid >= ph->group_first && j->groupid <= ph->group_last))
					hist_merge(&h, &j->dir[k].clat_hist);
			}
			d->lat[p][k] = (struct phase_lat){
				.count = h.count, .min = h.count ? h.min : 0, .max = h.max,
				.p50 = hist_percentile(&h, 50), .p90 = hist_percentile(&h, 90),
				.p99 = hist_percentile(&h, 99), .p999 = hist_percentile(&h, 99.9),
			};
			hist_release(&h);
		}
	}
}

/* The first error of this rank's run: a job's, else the message given. */
static int run_error(const struct run_result *res, int status, const char *first_error,
		     char *why, size_t len)
{
	for (size_t i = 0; i < res->nr_jobs; i++) {
		const struct job_result *j = &res->jobs[i];
		if (j->error) {
			snprintf(why, len, "job '%s': %s%s%s", j->name ? j->name : "", strerror(j->error),
				 j->error_msg ? ": " : "", j->error_msg ? j->error_msg : "");
			return j->error;
		}
	}
	if (!status)
		return 0;
	snprintf(why, len, "%s", first_error ? first_error : "the run failed (exit status 1)");
	return status >= 128 ? EINTR : EIO;
}

static void say_failure(const struct dist_run *d)
{
	const struct dist_failure *f = &d->c->fail;
	fprintf(stderr, "iobench-mpi: rank %d (host %s) %s%s: the run stopped%s\n", f->rank, f->host,
		f->hung ? "" : "failed: ", f->msg,
		d->c->rank == 0 ? "; the results measured so far are reported" : "");
}

static int exchange(struct dist_run *d, struct run_result *res, int status, int err,
		    const char *why)
{
	struct dist_comm *c = d->c;
	d->reduced = true;
	if (!c->failed)
		dist_sync(c, "the results", err, err ? why : NULL);
	struct buf b = { 0 };
	if (res)
		make_blob(d, res, &b);
	void **blobs = NULL;
	size_t *lens = NULL;
	dist_gather(c, b.p ? b.p : "", b.n, &blobs, &lens);
	free(b.p);
	if (c->rank == 0) {
		d->ranks = xcalloc((size_t)c->size, sizeof(*d->ranks));
		d->envs = xcalloc((size_t)c->size, sizeof(*d->envs));
		for (int r = 0; r < c->size; r++) {
			d->ranks[r].rank = r;
			if (blobs[r] && res)
				merge_blob(d, r, blobs[r], lens[r], res);
			free(blobs[r]);
		}
		if (res && d->nr_all)
			order_jobs(d, res);
		if (res)
			phase_lat(d, res);
	}
	free(blobs);
	free(lens);
	if (c->failed) {
		if (c->rank == 0 || c->fail.rank == 0)
			say_failure(d);
		if (!status)
			status = 1;
	}
	d->status = status;
	return status;
}

static int reduce(void *arg, struct run_result *res, int status, const char *first_error)
{
	struct dist_run *d = arg;
	char why[DIST_MSG_MAX];
	int err = run_error(res, status, first_error, why, sizeof(why));
	count_phases(d, res);
	return exchange(d, res, status, err, why);
}

int dist_run_finish(struct dist_run *d, int status)
{
	if (d->reduced)
		return status;
	/* 0: a command that runs nothing (--parse-only, --help), on every rank */
	char why[DIST_MSG_MAX];
	snprintf(why, sizeof(why), "its run did not start (exit status %d; its errors are above)",
		 status);
	return exchange(d, NULL, status, status ? EINVAL : 0, why);
}

/* --- life cycle ----------------------------------------------------- */

struct dist_run *dist_run_new(struct dist_comm *c, const struct dist_opts *o)
{
	struct dist_run *d = xcalloc(1, sizeof(*d));
	d->c = c;
	d->o = *o;
	return d;
}

void dist_run_hooks(struct dist_run *d, struct dist_hooks *h)
{
	*h = (struct dist_hooks){
		.arg = d,
		.root = d->c->rank == 0,
		.prepare = prepare,
		.batch_sync = batch_sync,
		.reduce = reduce,
		.json = dist_run_json,
		.text = dist_run_text,
		.wearout = d->o.wearout ? wearout : NULL,
	};
}

void dist_run_free(struct dist_run *d)
{
	if (!d)
		return;
	for (int r = 0; d->ranks && r < d->c->size; r++) {
		struct rank_row *row = &d->ranks[r];
		for (uint32_t i = 0; i < row->nr_jobs; i++) {
			free(row->jobs[i]);
			free(row->files[i]);
		}
		free(row->jobs);
		free(row->files);
		free(row->phases);
	}
	for (size_t i = 0; i < d->nr_jobs; i++) {
		free(d->jobs[i]);
		free(d->files[i]);
	}
	free(d->jobs);
	free(d->files);
	for (size_t i = 0; i < d->nr_all; i++)
		job_spec_release(&d->all[i]);
	free(d->all);
	for (int r = 0; d->envs && r < d->c->size; r++)
		free(d->envs[r]);
	free(d->ranks);
	free(d->envs);
	free(d->lat);
	free(d->phases);
	free(d);
}
