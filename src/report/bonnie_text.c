/*
 * bonnie++ 2.00a's 80-column text table, column for column: the I/O
 * section ("Name:Size etc", K/sec shown as 429k/12.3m/1.2g, seeks/s), the
 * file section ("files:max:min", files/s: rates, where bonnie++ prints
 * garbage), a Latency line under each, "+++++"/"+++" for a phase under
 * 0.5 s and blanks for a skipped one. The version field carries iobench's
 * version. After the table: whether --precise repeated phases, and with
 * devices the per-phase device statistics (bonnie_devtext.c).
 */
#include "report/bonnie_report.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#ifndef IOBENCH_VERSION
#define IOBENCH_VERSION "unknown"
#endif

static void version_cell(FILE *out)
{
	char v[64];
	snprintf(v, sizeof(v), "Version %5s", IOBENCH_VERSION);
	fprintf(out, "%-19s ", v);
}

static void cpu_cell(const struct bonnie_phase *p, FILE *out)
{
	if (!p->ran)
		fputs("    ", out);
	else if (bonnie_phase_too_short(p))
		fputs(" +++", out);
	else
		fprintf(out, " %3d", (int)bonnie_phase_cpu_pct(p));
}

/* K/sec as bonnie++ shrinks it into five columns. */
static void kib_cell(double kib, FILE *out)
{
	if (kib < 10000.0)
		fprintf(out, " %4dk", (int)kib);
	else if (kib / 1024.0 < 1000.0) {
		double mib = kib / 1024.0;
		if (mib < 100.0)
			fprintf(out, " %4.1fm", mib);
		else
			fprintf(out, " %4dm", (int)(mib + 0.5));
	} else {
		fprintf(out, " %4.1fg", kib / 1024.0 / 1024.0);
	}
}

static void io_cell(enum bonnie_io_test t, const struct bonnie_phase *p, FILE *out)
{
	if (!p->ran) {
		fputs("      ", out);
	} else if (bonnie_phase_too_short(p)) {
		fputs(" +++++", out);
	} else if (t == BON_SEEKS) {
		fprintf(out, p->rate >= 1000.0 ? " %5.0f" : " %5.1f", p->rate);
	} else {
		kib_cell(bonnie_io_figure(t, p), out);
	}
	cpu_cell(p, out);
}

static void file_cell(const struct bonnie_phase *p, FILE *out)
{
	if (!p->ran)
		fputs("      ", out);
	else if (bonnie_phase_too_short(p))
		fputs(" +++++", out);
	else
		fprintf(out, " %5d", (int)p->rate);
	cpu_cell(p, out);
}

static void latency_cell(const struct bonnie_phase *p, FILE *out)
{
	char b[32];
	bonnie_fmt_latency(b, sizeof(b), p->ran ? p->max_lat_ns : 0);
	fprintf(out, " %9s", b);
}

static void io_section(const struct bonnie_spec *s, const struct bonnie_figures *f, FILE *out)
{
	char size[96], cell[128];
	version_cell(out);
	fputs("------Sequential Output------ --Sequential Input- --Random-\n", out);
	fputs("                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n", out);
	fputs("Name:Size etc        /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n", out);
	bonnie_fmt_io_size(size, sizeof(size), s);
	bonnie_fmt_name_cell(cell, sizeof(cell), bonnie_machine(s), size);
	fputs(cell, out);
	for (int t = 0; t < BON_IO_TESTS; t++)
		io_cell((enum bonnie_io_test)t, &f->io[t], out);
	fputs("\nLatency          ", out);
	for (int t = 0; t < BON_IO_TESTS; t++)
		latency_cell(&f->io[t], out);
	fputs("\n", out);
}

static void file_section(const struct bonnie_spec *s, const struct bonnie_figures *f, FILE *out)
{
	char cell[96];
	version_cell(out);
	fputs("------Sequential Create------ --------Random Create--------\n", out);
	fprintf(out, "%-19.19s ", bonnie_machine(s));
	fputs("-Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n", out);
	if (s->min_size)
		fputs("files:max:min       ", out);
	else if (s->max_size)
		fputs("files:max           ", out);
	else
		fputs("              files ", out);
	fputs(" /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n", out);
	bonnie_fmt_file_size(cell, sizeof(cell), s);
	fprintf(out, "%19s", cell);
	for (int t = 0; t < BON_FILE_TESTS; t++)
		file_cell(&f->file[t], out);
	fputs("\nLatency          ", out);
	for (int t = 0; t < BON_FILE_TESTS; t++)
		latency_cell(&f->file[t], out);
}

/* Which phases --precise lengthened, or that "+++++" marks short ones. */
static void precise_line(const struct bonnie_spec *s, const struct bonnie_figures *f, FILE *out)
{
	char list[512] = "";
	size_t n = 0;
	unsigned short_phases = 0;
	for (int i = 0; i < BON_IO_TESTS + BON_FILE_TESTS; i++) {
		const struct bonnie_phase *p = i < BON_IO_TESTS ? &f->io[i] : &f->file[i - BON_IO_TESTS];
		const char *label = i < BON_IO_TESTS ? bonnie_io_label((enum bonnie_io_test)i)
			: bonnie_file_label((enum bonnie_file_test)(i - BON_IO_TESTS));
		if (!p->ran)
			continue;
		if (bonnie_phase_too_short(p))
			short_phases++;
		if (p->repeats > 1 && n < sizeof(list))
			n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s x%u", n ? ", " : "",
					      label, p->repeats);
	}
	if (s->precise)
		fprintf(out, "Precise: on: phases under 0.5 s were repeated until they lasted 0.5 s: %s\n",
			n ? list : "none needed it");
	else if (short_phases)
		fprintf(out, "Precise: off: +++++ marks %u phase%s under 0.5 s; --precise measures them\n",
			short_phases, short_phases == 1 ? "" : "s");
	else
		fputs("Precise: off: every phase lasted at least 0.5 s\n", out);
}

int bonnie_report_text(const struct bonnie_spec *s, const struct bonnie_result *r,
		       bool devices, FILE *out)
{
	if (s->file_size)
		io_section(s, &r->total, out);
	if (s->num_files)
		file_section(s, &r->total, out);
	fputs("\n", out);
	precise_line(s, &r->total, out);
	if (devices)
		bonnie_devtext(s, &r->total, out);
	errno = 0;
	if (fflush(out) != 0)
		return errno ? -errno : -EIO; /* ENOSPC, EPIPE: the reason, for the message */
	return ferror(out) ? -EIO : 0;
}
