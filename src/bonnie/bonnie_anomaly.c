/*
 * What the anomaly checks (anomaly.h) need to know about bonnie++ tests:
 * the bytes the I/O phases read and wrote through the page cache (per-char
 * always; block phases unless -D), what the disk under -d saw during those
 * phases, and the busiest phase's CPU, in bonnie's vocabulary (phases, -D,
 * -s). Every bulk phase ends with fsync, so no write is unflushed. The
 * CPU check leaves out the per-char phases (they measure system-call cost
 * on purpose) and every phase too short to measure, the ones printed as
 * +++++: their CPU share is a few clock ticks over a few milliseconds.
 */
#include "bonnie/bonnie.h"

#include <stdio.h>
#include <string.h>

#include "watch/anomaly.h"

static const char *const phase_names[BON_IO_TESTS] = {
	"per-char output", "block output", "rewrite", "per-char input", "block input",
	"random seeks",
};

static void add_disk(struct anomaly_input *in, const struct bonnie_phase *p, bool reads)
{
	if (!p->nr_disks)
		return;
	if (!in->device)
		in->device = p->disks[0].name;
	if (strcmp(in->device, p->disks[0].name))
		return;
	if (reads)
		in->dev_read_bytes += p->disks[0].read_sectors * 512;
	else
		in->dev_write_bytes += p->disks[0].write_sectors * 512;
}

/* Phase t of one copy as a CPU-bound candidate. */
static void judge_cpu(const struct bonnie_phase *p, int t, unsigned copies,
		      struct anomaly_input *in)
{
	if (!p->ran || bonnie_phase_too_short(p))
		return;
	/* process CPU: the copies' and seekers' threads together */
	unsigned threads = copies * (p->threads ? p->threads : 1);
	double cpu = bonnie_phase_cpu_pct(p) / (threads ? threads : 1);
	double busy = bonnie_phase_busy_pct(p);
	if (cpu > in->max_job_cpu_pct || busy > in->max_job_cpu_busy_pct) {
		in->max_job_cpu_pct = cpu;
		in->max_job_cpu_busy_pct = busy;
		snprintf(in->max_cpu_job, sizeof(in->max_cpu_job), "%s", phase_names[t]);
	}
}

void bonnie_anomaly_input(const struct bonnie_spec *s, const struct bonnie_result *runs,
			  size_t nr, struct anomaly_input *in)
{
	memset(in, 0, sizeof(*in));
	in->group_first = in->group_last = -1;
	in->words = &anomaly_words_bonnie;
	in->nr_jobs = s->concurrency ? s->concurrency : 1;
	for (size_t i = 0; i < nr; i++) {
		const struct bonnie_figures *f = &runs[i].total;
		for (int t = 0; t < BON_IO_TESTS; t++) {
			const struct bonnie_phase *p = &f->io[t];
			if (!p->ran)
				continue;
			in->any_device_io = true;
			bool per_char = t == BON_PUTC || t == BON_GETC;
			bool buffered = per_char || !s->direct;
			if (t == BON_GETC || t == BON_GET_BLOCK) {
				if (buffered) {
					in->buffered_read_bytes += p->work;
					anomaly_names_add(&in->readers, phase_names[t]);
					add_disk(in, p, true);
				}
			} else if (t != BON_SEEKS && buffered) {
				in->buffered_write_bytes += p->work;
			}
			if (per_char)
				continue;
			for (unsigned c = 0; c < runs[i].nr_copies; c++)
				judge_cpu(&runs[i].copies[c].io[t], t, runs[i].nr_copies, in);
		}
	}
}
