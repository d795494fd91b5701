/*
 * The device table printed after bonnie++'s text table: for every phase
 * that ran, one line per device under -d with iostat -x's figures over that
 * phase (r/s, w/s, rMiB/s, wMiB/s, r_await, w_await, aqu-sz, %util).
 */
#include "report/bonnie_report.h"

#include <stdio.h>

#include "report/report_int.h"

static double per_sec(uint64_t n, uint64_t ms)
{
	return ms ? (double)n * 1000.0 / (double)ms : 0.0;
}

static double ratio(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0.0;
}

static void dev_lines(const char *label, const struct bonnie_phase *p, FILE *out)
{
	for (size_t i = 0; p->ran && i < p->nr_disks; i++) {
		const struct disk_result *d = &p->disks[i];
		fprintf(out, "%-10.10s %-8.8s %7.1f %7.1f %7.1f %7.1f %7.2f %7.2f %6.2f %5.1f\n",
			label, d->name, per_sec(d->read_ios, d->elapsed_ms),
			per_sec(d->write_ios, d->elapsed_ms),
			per_sec(d->read_sectors, d->elapsed_ms) * 512.0 / 1048576.0,
			per_sec(d->write_sectors, d->elapsed_ms) * 512.0 / 1048576.0,
			ratio(d->read_ticks, d->read_ios), ratio(d->write_ticks, d->write_ios),
			ratio(d->in_queue, d->elapsed_ms), disk_util_pct(d));
	}
}

void bonnie_devtext(const struct bonnie_spec *s, const struct bonnie_figures *f, FILE *out)
{
	size_t n = 0;
	for (int t = 0; t < BON_IO_TESTS; t++)
		n += f->io[t].ran ? f->io[t].nr_disks : 0;
	for (int t = 0; t < BON_FILE_TESTS; t++)
		n += f->file[t].ran ? f->file[t].nr_disks : 0;
	if (!n)
		return;
	fprintf(out, "Devices under '%s', per phase:\n", s->dir);
	fprintf(out, "%-10s %-8s %7s %7s %7s %7s %7s %7s %6s %5s\n", "phase", "device", "r/s",
		"w/s", "rMiB/s", "wMiB/s", "r_await", "w_await", "aqu-sz", "%util");
	for (int t = 0; t < BON_IO_TESTS; t++)
		dev_lines(bonnie_io_label((enum bonnie_io_test)t), &f->io[t], out);
	for (int t = 0; t < BON_FILE_TESTS; t++)
		dev_lines(bonnie_file_label((enum bonnie_file_test)t), &f->file[t], out);
}
