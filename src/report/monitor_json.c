/*
 * JSON of the system monitor (monitor_report.h). Keys follow the tools the
 * figures come from: iostat -x's column names ("r/s", "rkB/s", "aqu-sz",
 * "%util"...) and vmstat's ("r", "bi", "us"...). Next to the figures each
 * interval carries the raw deltas the anomaly checks read.
 */
#include "report/monitor_report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/xmalloc.h"

static void json_iostat(struct json_writer *w, const struct iostat_x *x)
{
	json_kv_double(w, "r/s", x->r_s);
	json_kv_double(w, "rkB/s", x->rkb_s);
	json_kv_double(w, "rrqm/s", x->rrqm_s);
	json_kv_double(w, "%rrqm", x->rrqm_pct);
	json_kv_double(w, "r_await", x->r_await);
	json_kv_double(w, "rareq-sz", x->rareq_sz);
	json_kv_double(w, "w/s", x->w_s);
	json_kv_double(w, "wkB/s", x->wkb_s);
	json_kv_double(w, "wrqm/s", x->wrqm_s);
	json_kv_double(w, "%wrqm", x->wrqm_pct);
	json_kv_double(w, "w_await", x->w_await);
	json_kv_double(w, "wareq-sz", x->wareq_sz);
	json_kv_double(w, "d/s", x->d_s);
	json_kv_double(w, "dkB/s", x->dkb_s);
	json_kv_double(w, "drqm/s", x->drqm_s);
	json_kv_double(w, "%drqm", x->drqm_pct);
	json_kv_double(w, "d_await", x->d_await);
	json_kv_double(w, "dareq-sz", x->dareq_sz);
	json_kv_double(w, "f/s", x->f_s);
	json_kv_double(w, "f_await", x->f_await);
	json_kv_double(w, "aqu-sz", x->aqu_sz);
	json_kv_double(w, "%util", x->util_pct);
}

static void json_diskstat(struct json_writer *w, const struct diskstat *d)
{
	json_kv_uint(w, "rd_ios", d->rd_ios);
	json_kv_uint(w, "rd_merges", d->rd_merges);
	json_kv_uint(w, "rd_sectors", d->rd_sectors);
	json_kv_uint(w, "rd_ticks", d->rd_ticks);
	json_kv_uint(w, "wr_ios", d->wr_ios);
	json_kv_uint(w, "wr_merges", d->wr_merges);
	json_kv_uint(w, "wr_sectors", d->wr_sectors);
	json_kv_uint(w, "wr_ticks", d->wr_ticks);
	json_kv_uint(w, "in_flight", d->in_flight);
	json_kv_uint(w, "io_ticks", d->io_ticks);
	json_kv_uint(w, "time_in_queue", d->time_in_queue);
	json_kv_uint(w, "dc_ios", d->dc_ios);
	json_kv_uint(w, "dc_sectors", d->dc_sectors);
	json_kv_uint(w, "dc_ticks", d->dc_ticks);
	json_kv_uint(w, "fl_ios", d->fl_ios);
	json_kv_uint(w, "fl_ticks", d->fl_ticks);
}

static void json_vmstat(struct json_writer *w, const struct vmstat_x *v)
{
	json_kv_uint(w, "r", v->r);
	json_kv_uint(w, "b", v->b);
	json_kv_uint(w, "swpd", v->swpd_kb);
	json_kv_uint(w, "free", v->free_kb);
	json_kv_uint(w, "buff", v->buff_kb);
	json_kv_uint(w, "cache", v->cache_kb);
	json_kv_double(w, "si", v->si);
	json_kv_double(w, "so", v->so);
	json_kv_double(w, "bi", v->bi);
	json_kv_double(w, "bo", v->bo);
	json_kv_double(w, "in", v->in);
	json_kv_double(w, "cs", v->cs);
	json_kv_double(w, "us", v->us);
	json_kv_double(w, "sy", v->sy);
	json_kv_double(w, "id", v->id);
	json_kv_double(w, "wa", v->wa);
	json_kv_double(w, "st", v->st);
	json_kv_double(w, "gu", v->gu);
}

/* The /proc/vmstat deltas and gauges, and their rates. */
static void json_vm(struct json_writer *w, const struct monitor_interval *iv)
{
	const struct proc_vmstat *d = &iv->dvm;

	json_kv_uint(w, "pgpgin", d->pgpgin);
	json_kv_uint(w, "pgpgout", d->pgpgout);
	json_kv_uint(w, "pswpin", d->pswpin);
	json_kv_uint(w, "pswpout", d->pswpout);
	json_kv_uint(w, "pgfault", d->pgfault);
	json_kv_uint(w, "pgmajfault", d->pgmajfault);
	json_kv_uint(w, "pgscan_kswapd", d->pgscan_kswapd);
	json_kv_uint(w, "pgscan_direct", d->pgscan_direct);
	json_kv_uint(w, "pgsteal_kswapd", d->pgsteal_kswapd);
	json_kv_uint(w, "pgsteal_direct", d->pgsteal_direct);
	json_kv_uint(w, "allocstall", d->allocstall);
	json_kv_uint(w, "pgscan_anon", d->pgscan_anon);
	json_kv_uint(w, "pgscan_file", d->pgscan_file);
	json_kv_double(w, "pgscan_kswapd/s", iv->pgscan_kswapd_s);
	json_kv_double(w, "pgscan_direct/s", iv->pgscan_direct_s);
	json_kv_double(w, "pgsteal_kswapd/s", iv->pgsteal_kswapd_s);
	json_kv_double(w, "pgsteal_direct/s", iv->pgsteal_direct_s);
	json_kv_double(w, "allocstall/s", iv->allocstall_s);
	json_kv_double(w, "pswpin/s", iv->pswpin_s);
	json_kv_double(w, "pswpout/s", iv->pswpout_s);
	json_kv_uint(w, "nr_dirty", d->nr_dirty);
	json_kv_uint(w, "nr_writeback", d->nr_writeback);
	json_kv_uint(w, "nr_dirty_threshold", d->nr_dirty_threshold);
	json_kv_uint(w, "nr_dirty_background_threshold", d->nr_dirty_background_threshold);
}

static void json_memory(struct json_writer *w, const struct proc_meminfo *m)
{
	json_kv_uint(w, "total_kb", m->total_kb);
	json_kv_uint(w, "free_kb", m->free_kb);
	json_kv_uint(w, "available_kb", m->available_kb);
	json_kv_uint(w, "buffers_kb", m->buffers_kb);
	json_kv_uint(w, "cached_kb", m->cached_kb);
	json_kv_uint(w, "sreclaimable_kb", m->sreclaimable_kb);
	json_kv_uint(w, "dirty_kb", m->dirty_kb);
	json_kv_uint(w, "writeback_kb", m->writeback_kb);
	json_kv_uint(w, "swap_total_kb", m->swap_total_kb);
	json_kv_uint(w, "swap_free_kb", m->swap_free_kb);
}

static void json_psi(struct json_writer *w, const struct monitor_interval *iv)
{
	for (unsigned r = 0; r < PSI_NR; r++) {
		if (!iv->psi_have[r])
			continue;
		json_kv_object_begin(w, psi_resource_name(r));
		json_kv_double(w, "some", iv->psi_some_pct[r]);
		json_kv_double(w, "full", iv->psi_full_pct[r]);
		json_object_end(w);
	}
}

static void json_slab(struct json_writer *w, const struct proc_slabs *s, int64_t bh_growth)
{
	json_kv_uint(w, "buffer_head_bytes", s->buffer_head_bytes);
	json_kv_int(w, "buffer_head_growth", bh_growth);
	json_kv_uint(w, "dentry_bytes", s->dentry_bytes);
	json_kv_uint(w, "inode_bytes", s->inode_bytes);
}

static void json_load(struct json_writer *w, const struct proc_loadavg *l)
{
	json_kv_double(w, "1", l->avg1);
	json_kv_double(w, "5", l->avg5);
	json_kv_double(w, "15", l->avg15);
	json_kv_uint(w, "running", l->running);
	json_kv_uint(w, "threads", l->threads);
}

void monitor_json_interval(struct json_writer *w, const struct monitor_interval *iv,
			   bool only_active)
{
	json_object_begin(w);
	json_kv_double(w, "time", iv->t_s);
	json_kv_double(w, "dt", iv->dt_s);
	json_kv_object_begin(w, "vmstat");
	json_vmstat(w, &iv->vm);
	json_object_end(w);
	json_kv_array_begin(w, "disks");
	for (unsigned d = 0; iv->devs && d < iv->ndev; d++) {
		const struct monitor_dev_interval *dv = &iv->devs[d];
		if (only_active && !dv->active)
			continue;
		json_object_begin(w);
		json_kv_string(w, "name", dv->name);
		json_iostat(w, &dv->x);
		json_kv_object_begin(w, "delta");
		json_diskstat(w, &dv->delta);
		json_object_end(w);
		json_object_end(w);
	}
	json_array_end(w);
	json_kv_object_begin(w, "load");
	json_load(w, &iv->load);
	json_object_end(w);
	json_kv_object_begin(w, "memory");
	json_memory(w, &iv->mem);
	json_object_end(w);
	json_kv_object_begin(w, "vm");
	json_vm(w, iv);
	json_object_end(w);
	json_kv_object_begin(w, "psi");
	json_psi(w, iv);
	json_object_end(w);
	if (iv->slab.have) {
		json_kv_object_begin(w, "slab");
		json_slab(w, &iv->slab, iv->buffer_head_growth);
		json_object_end(w);
	}
	json_object_end(w);
}

/* The summarised figures of iv by name (monitor_sys_figures), those of a
 * PSI resource only where the whole window has it. */
static void json_figures(struct json_writer *w, const char *key, const struct monitor_interval *iv,
			 const struct monitor_interval *whole)
{
	json_kv_object_begin(w, key);
	for (size_t f = 0; f < monitor_nr_sys_figures; f++) {
		const struct monitor_figure *fig = &monitor_sys_figures[f];
		if (fig->psi >= 0 && !whole->psi_have[fig->psi])
			continue;
		if (fig->u64)
			json_kv_uint(w, fig->name, (uint64_t)monitor_figure_value(fig, iv));
		else
			json_kv_double(w, fig->name, monitor_figure_value(fig, iv));
	}
	json_object_end(w);
}

void monitor_json_summary(struct json_writer *w, const struct monitor_summary *sum,
			  bool only_active)
{
	json_object_begin(w);
	json_kv_uint(w, "samples", sum->nsamples);
	json_kv_double(w, "duration", sum->dt_s);
	json_kv_object_begin(w, "vmstat");
	json_vmstat(w, &sum->whole.vm);
	json_object_end(w);
	json_kv_object_begin(w, "vm");
	json_vm(w, &sum->whole);
	json_object_end(w);
	json_kv_object_begin(w, "psi");
	json_psi(w, &sum->whole);
	json_object_end(w);
	json_kv_uint(w, "intervals", sum->nintervals);
	json_figures(w, "mean", &sum->whole, &sum->whole);
	json_figures(w, "min", &sum->min, &sum->whole);
	json_figures(w, "max", &sum->max, &sum->whole);
	json_kv_array_begin(w, "disks");
	for (unsigned d = 0; d < sum->ndev; d++) {
		const struct monitor_dev_summary *ds = &sum->devs[d];
		if (only_active && !ds->active)
			continue;
		json_object_begin(w);
		json_kv_string(w, "name", ds->name);
		json_iostat(w, &ds->whole);
		json_kv_object_begin(w, "min");
		json_iostat(w, &ds->min);
		json_object_end(w);
		json_kv_object_begin(w, "max");
		json_iostat(w, &ds->max);
		json_object_end(w);
		json_kv_object_begin(w, "delta");
		json_diskstat(w, &ds->delta);
		json_object_end(w);
		json_object_end(w);
	}
	json_array_end(w);
	json_object_end(w);
}

void monitor_json_series(struct json_writer *w, const struct monitor_series *s)
{
	struct monitor_dev_interval *devs = xcalloc(s->ndev ? s->ndev : 1, sizeof(*devs));
	struct monitor_summary sum;

	json_object_begin(w);
	json_kv_double(w, "interval_ms", (double)s->interval_ns / 1e6);
	json_kv_array_begin(w, "devices");
	for (unsigned d = 0; d < s->ndev; d++)
		json_string(w, s->names[d]);
	json_array_end(w);
	json_kv_uint(w, "samples", s->n);
	json_kv_array_begin(w, "intervals");
	for (size_t i = 0; i + 1 < s->n; i++) {
		struct monitor_interval iv = { .devs = devs };
		monitor_series_interval(s, i, &iv);
		monitor_json_interval(w, &iv, s->all_disks);
	}
	json_array_end(w);
	monitor_summarize(s, &sum);
	json_key(w, "summary");
	monitor_json_summary(w, &sum, s->all_disks);
	monitor_summary_release(&sum);
	json_object_end(w);
	free(devs);
}

/* Copy the writer's indented text without the layout whitespace (outside
 * strings), so one object becomes one line. */
static void compact(const char *in, size_t len, FILE *out)
{
	bool in_str = false, esc = false;

	for (size_t i = 0; i < len; i++) {
		char c = in[i];
		if (in_str) {
			if (esc)
				esc = false;
			else if (c == '\\')
				esc = true;
			else if (c == '"')
				in_str = false;
		} else if (c == '"') {
			in_str = true;
		} else if (c == ' ' || c == '\n') {
			continue;
		}
		fputc(c, out);
	}
	fputc('\n', out);
}

int monitor_json_line(FILE *out, const struct monitor_interval *iv, bool only_active)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	struct json_writer w;
	int ret;

	if (!mem)
		return -errno;
	json_init(&w, mem);
	monitor_json_interval(&w, iv, only_active);
	ret = json_finish(&w);
	if (fclose(mem) != 0 && !ret)
		ret = -EIO;
	if (!ret)
		compact(text, len, out);
	free(text);
	return ret ? ret : (ferror(out) ? -EIO : 0);
}
