/*
 * What the anomaly checks need to know about a fio-style run (anomaly.h),
 * for the whole run or for each stonewall batch: bytes read and written
 * through the page cache or around it, whether any flush made the writes
 * durable, which jobs did each, the busiest job's CPU, and what the disk
 * under the first file saw over the same time.
 */
#include "watch/anomaly.h"

#include <stdio.h>
#include <string.h>

#include "util/xmalloc.h"

static bool writes_flushed(const struct job_spec *s)
{
	return s->fsync_blocks || s->fdatasync_blocks || s->end_fsync || s->fsync_on_close ||
	       s->sync_io;
}

void anomaly_names_add(struct anomaly_names *n, const char *name)
{
	for (unsigned i = 0; i < n->n && i < ANOMALY_MAX_NAMES; i++)
		if (!strcmp(n->v[i], name))
			return;
	if (n->n < ANOMALY_MAX_NAMES)
		snprintf(n->v[n->n], sizeof(n->v[n->n]), "%s", name);
	n->n++;
}

/* Add reported entry j to in. */
static void add_job(const struct job_result *j, struct anomaly_input *in)
{
	const struct job_spec *s = j->spec;
	const char *name = j->name ? j->name : "?";
	in->nr_jobs += j->nr_jobs ? j->nr_jobs : 1;
	anomaly_names_add(&in->all, name);
	double cpu = j->usr_cpu + j->sys_cpu;
	/* the busiest job by either measure */
	if (cpu > in->max_job_cpu_pct || j->busy_pct > in->max_job_cpu_busy_pct) {
		in->max_job_cpu_pct = cpu;
		in->max_job_cpu_busy_pct = j->busy_pct;
		snprintf(in->max_cpu_job, sizeof(in->max_cpu_job), "%s", name);
	}
	if (!s || (s->ioengine && !strcmp(s->ioengine, "null")))
		return;
	in->any_device_io = true;
	uint64_t rd = j->dir[DDIR_READ].io_bytes, wr = j->dir[DDIR_WRITE].io_bytes;
	bool flushed = writes_flushed(s);
	if (!s->direct) {
		in->buffered_read_bytes += rd;
		in->buffered_write_bytes += wr;
		if (rd)
			anomaly_names_add(&in->readers, name);
		if (!flushed && wr) {
			in->buffered_unsynced_write_bytes += wr;
			anomaly_names_add(&in->writers, name);
			if (j->have_unwritten)
				in->buffered_unwritten_bytes += j->unwritten_bytes;
			else
				in->unwritten_missing = true;
			in->have_unwritten = !in->unwritten_missing;
		}
		if (!s->invalidate && rd) {
			in->cached_working_set += s->size;
			anomaly_names_add(&in->cachers, name);
		}
	} else {
		in->direct_read_bytes += rd;
		in->direct_write_bytes += wr;
	}
	if (!flushed && wr) {
		in->unsynced_write_bytes += wr;
		anomaly_names_add(&in->unflushed, name);
	}
}

static void set_disk(struct anomaly_input *in, const struct disk_result *d, size_t n)
{
	if (!n)
		return;
	in->device = d[0].name;
	in->dev_read_bytes = d[0].read_sectors * 512;
	in->dev_write_bytes = d[0].write_sectors * 512;
}

void anomaly_input_from_run(const struct run_result *r, struct anomaly_input *in)
{
	memset(in, 0, sizeof(*in));
	in->group_first = in->group_last = -1;
	for (size_t i = 0; i < r->nr_jobs; i++)
		add_job(&r->jobs[i], in);
	set_disk(in, r->disks, r->nr_disks);
}

size_t anomaly_inputs_from_run(const struct run_result *r, const struct anomaly_words *words,
			       struct anomaly_input **out)
{
	size_t n = r->nr_batches ? r->nr_batches : 1;
	struct anomaly_input *v = xcalloc(n, sizeof(*v));
	if (!r->nr_batches) {
		anomaly_input_from_run(r, &v[0]);
		v[0].words = words;
		*out = v;
		return 1;
	}
	for (size_t b = 0; b < r->nr_batches; b++) {
		const struct run_batch *rb = &r->batches[b];
		struct anomaly_input *in = &v[b];
		in->group_first = (int)rb->group_first;
		in->group_last = (int)rb->group_last;
		in->words = words;
		for (size_t i = 0; i < r->nr_jobs; i++)
			if (r->jobs[i].groupid >= rb->group_first && r->jobs[i].groupid <= rb->group_last)
				add_job(&r->jobs[i], in);
		set_disk(in, rb->disks, rb->nr_disks);
		const struct run_env *e = r->env;
		for (size_t w = 0; e && w < e->nr_windows; w++)
			if (e->windows[w].group_first == rb->group_first)
				in->window = &e->windows[w];
	}
	*out = v;
	return n;
}
