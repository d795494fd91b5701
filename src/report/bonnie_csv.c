/*
 * bonnie++'s CSV line, format 1.98, 50 fields (as bonnie++ 2.00a writes it): empty fields
 * for skipped phases and sections, "+++++,+++" for phases under 0.5 s,
 * K/sec for the I/O tests, seeks/s with one decimal below 1000, files/s,
 * latencies as "123us"/"45ms"/"2s". Unlike bonnie++ 2.00a, field 6 holds
 * the I/O chunk size, field 24 the number of directories and field 25 a
 * non-default file chunk size, where bon_csv2html and bon_csv2txt look.
 */
#include "report/bonnie_report.h"

#include <errno.h>
#include <stdio.h>

#ifndef IOBENCH_VERSION
#define IOBENCH_VERSION "unknown"
#endif

#define MIB (1024ull * 1024)

static void cpu_field(const struct bonnie_phase *p, FILE *out)
{
	if (!p->ran)
		fputs(",", out);
	else if (bonnie_phase_too_short(p))
		fputs(",+++", out);
	else
		fprintf(out, ",%d", (int)bonnie_phase_cpu_pct(p));
}

static void io_fields(enum bonnie_io_test t, const struct bonnie_phase *p, FILE *out)
{
	if (!p->ran)
		fputs(",", out);
	else if (bonnie_phase_too_short(p))
		fputs(",+++++", out);
	else if (t == BON_SEEKS)
		fprintf(out, p->rate >= 1000.0 ? ",%.0f" : ",%.1f", p->rate);
	else
		fprintf(out, ",%d", (int)bonnie_io_figure(t, p));
	cpu_field(p, out);
}

static void file_fields(const struct bonnie_phase *p, FILE *out)
{
	if (!p->ran)
		fputs(",", out);
	else if (bonnie_phase_too_short(p))
		fputs(",+++++", out);
	else
		fprintf(out, ",%d", (int)p->rate);
	cpu_field(p, out);
}

static void latency_field(const struct bonnie_phase *p, FILE *out)
{
	char b[32];
	bonnie_fmt_latency(b, sizeof(b), p->ran ? p->max_lat_ns : 0);
	fprintf(out, ",%s", b);
}

/* The machine name with the commas that would shift every field replaced. */
static void name_field(const char *name, FILE *out)
{
	for (const char *c = name; *c; c++)
		fputc(*c == ',' ? '_' : *c, out);
}

int bonnie_report_csv_header(FILE *out)
{
	fputs("format_version,bonnie_version,name,concurrency,seed,file_size,io_chunk_size,"
	      "seeks,seek_procs,putc,putc_cpu,put_block,put_block_cpu,rewrite,rewrite_cpu,"
	      "getc,getc_cpu,get_block,get_block_cpu,seeks,seeks_cpu,num_files,max_size,"
	      "min_size,num_dirs,file_chunk_size,seq_create,seq_create_cpu,seq_stat,"
	      "seq_stat_cpu,seq_del,seq_del_cpu,ran_create,ran_create_cpu,ran_stat,"
	      "ran_stat_cpu,ran_del,ran_del_cpu,putc_latency,put_block_latency,"
	      "rewrite_latency,getc_latency,get_block_latency,seeks_latency,"
	      "seq_create_latency,seq_stat_latency,seq_del_latency,ran_create_latency,"
	      "ran_stat_latency,ran_del_latency\n", out);
	return ferror(out) ? -EIO : 0;
}

int bonnie_report_csv(const struct bonnie_spec *s, const struct bonnie_result *r, FILE *out)
{
	const struct bonnie_figures *f = &r->total;
	char b[64];
	fprintf(out, "%s,iobench-%s,", BONNIE_CSV_FORMAT, IOBENCH_VERSION);
	name_field(bonnie_machine(s), out);
	fprintf(out, ",%u,%llu", s->concurrency, (unsigned long long)r->seed);
	if (s->file_size) {
		bonnie_fmt_size(b, sizeof(b), s->file_size / MIB, "MG");
		fprintf(out, ",%s", b);
		bonnie_fmt_size(b, sizeof(b), s->chunk_size, " km");
		fprintf(out, ",%s,%u,%u", b, s->seeks, s->seekers);
		for (int t = 0; t < BON_IO_TESTS; t++)
			io_fields((enum bonnie_io_test)t, &f->io[t], out);
	} else {
		fputs(",,,,,,,,,,,,,,,,", out);
	}
	if (s->num_files) {
		fprintf(out, ",%u", s->num_files);
		if (s->max_size == BONNIE_HARD_LINKS)
			fputs(",link,", out);
		else if (s->max_size == BONNIE_SOFT_LINKS)
			fputs(",symlink,", out);
		else if (s->max_size && s->min_size)
			fprintf(out, ",%ld,%ld", s->max_size, s->min_size);
		else if (s->max_size)
			fprintf(out, ",%ld,", s->max_size);
		else
			fputs(",,", out);
		if (s->num_dirs > 1)
			fprintf(out, ",%u", s->num_dirs);
		else
			fputs(",", out);
		b[0] = 0;
		if (s->file_chunk_size && s->file_chunk_size != BONNIE_DEFAULT_CHUNK)
			bonnie_fmt_size(b, sizeof(b), s->file_chunk_size, " km");
		fprintf(out, ",%s", b);
		for (int t = 0; t < BON_FILE_TESTS; t++)
			file_fields(&f->file[t], out);
	} else {
		fputs(",,,,,,,,,,,,,,,,,", out);
	}
	for (int t = 0; t < BON_IO_TESTS; t++)
		latency_field(&f->io[t], out);
	for (int t = 0; t < BON_FILE_TESTS; t++)
		latency_field(&f->file[t], out);
	fputs("\n", out);
	errno = 0;
	if (fflush(out) != 0)
		return errno ? -errno : -EIO; /* ENOSPC, EPIPE: the reason, for the message */
	return ferror(out) ? -EIO : 0;
}
