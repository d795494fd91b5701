/*
 * What the anomaly checks need to know about a fio-style run (anomaly.h):
 * bytes read and written through the page cache or around it, whether any
 * flush made the writes durable, the busiest job's CPU, and what the disk
 * under the first file saw over the same time.
 */
#include "workload/anomaly.h"

#include <stdio.h>
#include <string.h>

static bool writes_flushed(const struct job_spec *s)
{
	return s->fsync_blocks || s->fdatasync_blocks || s->end_fsync || s->fsync_on_close ||
	       s->sync_io;
}

void anomaly_input_from_run(const struct run_result *r, struct anomaly_input *in)
{
	memset(in, 0, sizeof(*in));
	for (size_t i = 0; i < r->nr_jobs; i++) {
		const struct job_result *j = &r->jobs[i];
		const struct job_spec *s = j->spec;
		in->nr_jobs += j->nr_jobs ? j->nr_jobs : 1;
		double cpu = j->usr_cpu + j->sys_cpu;
		/* the busiest job by either measure */
		if (cpu > in->max_job_cpu_pct || j->busy_pct > in->max_job_cpu_busy_pct) {
			in->max_job_cpu_pct = cpu;
			in->max_job_cpu_busy_pct = j->busy_pct;
			snprintf(in->max_cpu_job, sizeof(in->max_cpu_job), "%s", j->name ? j->name : "?");
		}
		if (!s || (s->ioengine && !strcmp(s->ioengine, "null")))
			continue;
		in->any_device_io = true;
		uint64_t rd = j->dir[DDIR_READ].io_bytes, wr = j->dir[DDIR_WRITE].io_bytes;
		bool flushed = writes_flushed(s);
		if (!s->direct) {
			in->buffered_read_bytes += rd;
			in->buffered_write_bytes += wr;
			if (!flushed)
				in->buffered_unsynced_write_bytes += wr;
			if (!s->invalidate && rd)
				in->cached_working_set += s->size;
		}
		if (!flushed)
			in->unsynced_write_bytes += wr;
	}
	if (r->nr_disks) {
		in->device = r->disks[0].name;
		in->dev_read_bytes = r->disks[0].read_sectors * 512;
		in->dev_write_bytes = r->disks[0].write_sectors * 512;
	}
}
