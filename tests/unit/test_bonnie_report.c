/*
 * The bonnie reporters against bonnie++ 2.00a's own output, column for
 * column: size, latency and name cells; the text table's lines (K/sec
 * shrinking to k/m/g, seeks with a decimal below 1000, file rates, +++++
 * and blanks, the "files:max:min/dirs" cell); the CSV line's 50 fields and
 * where each lands (io_chunk_size in 6, dirs in 24, chunk in 25); the JSON
 * keys and the per-copy entries.
 */
#include "check.h"
#include "report/bonnie_report.h"

#include <stdlib.h>
#include <string.h>

#define MIB (1024ull * 1024)

static void test_cells(void)
{
	char b[128];
	bonnie_fmt_size(b, sizeof(b), 64, "MG");
	CHECK(!strcmp(b, "64M"), "64M: %s", b);
	bonnie_fmt_size(b, sizeof(b), 2048, "MG");
	CHECK(!strcmp(b, "2G"), "2G: %s", b);
	bonnie_fmt_size(b, sizeof(b), 1536, "MG");
	CHECK(!strcmp(b, "1536M"), "1536M: %s", b);
	bonnie_fmt_size(b, sizeof(b), 8192, " km");
	CHECK(!strcmp(b, "8k"), "8k: %s", b);
	bonnie_fmt_size(b, sizeof(b), 512, " km");
	CHECK(!strcmp(b, "512"), "512: %s", b);
	bonnie_fmt_size(b, sizeof(b), 1048576, " km");
	CHECK(!strcmp(b, "1m"), "1m: %s", b);

	bonnie_fmt_latency(b, sizeof(b), 0);
	CHECK(!strcmp(b, ""), "no latency is blank");
	bonnie_fmt_latency(b, sizeof(b), 40565123);
	CHECK(!strcmp(b, "40565us"), "us: %s", b);
	bonnie_fmt_latency(b, sizeof(b), 150000000);
	CHECK(!strcmp(b, "150ms"), "ms: %s", b);
	bonnie_fmt_latency(b, sizeof(b), 120000000000ull);
	CHECK(!strcmp(b, "120s"), "s: %s", b);

	struct bonnie_spec s = { .file_size = 32 * MIB, .chunk_size = 4096, .seeks = 1000,
				 .seekers = 3, .concurrency = 1 };
	char size[64];
	bonnie_fmt_io_size(size, sizeof(size), &s);
	CHECK(!strcmp(size, "32M:4k::1000:3"), "size field: %s", size);
	bonnie_fmt_name_cell(b, sizeof(b), "averyveryverylongmachinename", size);
	CHECK(!strcmp(b, "aver 32M:4k::1000:3"), "long size eats the name: '%s'", b);
	s = (struct bonnie_spec){ .file_size = 16 * MIB, .chunk_size = 8192, .seeks = 8192,
				  .seekers = 5, .concurrency = 2 };
	bonnie_fmt_io_size(size, sizeof(size), &s);
	CHECK(!strcmp(size, "16M::2"), "concurrency: %s", size);
	bonnie_fmt_name_cell(b, sizeof(b), "vm", size);
	CHECK(!strcmp(b, "vm           16M::2"), "bonnie++'s cell: '%s'", b);
	CHECK(strlen(b) == 19, "19 columns");

	s = (struct bonnie_spec){ .num_files = 1, .max_size = 1000, .min_size = 100, .num_dirs = 4 };
	bonnie_fmt_file_size(b, sizeof(b), &s);
	CHECK(!strcmp(b, "1:1000:100/4"), "files: %s", b);
	s = (struct bonnie_spec){ .num_files = 1, .max_size = BONNIE_HARD_LINKS };
	bonnie_fmt_file_size(b, sizeof(b), &s);
	CHECK(!strcmp(b, "1:link"), "links: %s", b);
	s = (struct bonnie_spec){ .num_files = 50, .num_dirs = 50 };
	bonnie_fmt_file_size(b, sizeof(b), &s);
	CHECK(!strcmp(b, "50/50"), "dirs only: %s", b);
}

static void phase(struct bonnie_phase *p, uint64_t work, double secs, double rate, double cpu_pct,
		  uint64_t lat_ns)
{
	memset(p, 0, sizeof(*p));
	p->ran = true;
	p->work = work;
	p->elapsed_ns = (uint64_t)(secs * 1e9);
	p->cpu_ns = (uint64_t)(secs * 1e9 * cpu_pct / 100.0);
	p->repeats = 1;
	p->rate = rate;
	p->max_lat_ns = lat_ns;
	hist_add(&p->lat, lat_ns / 2);
	hist_add(&p->lat, lat_ns);
}

static void release(struct bonnie_result *r)
{
	for (int i = 0; i < BON_IO_TESTS; i++)
		hist_release(&r->total.io[i].lat);
	for (int i = 0; i < BON_FILE_TESTS; i++)
		hist_release(&r->total.file[i].lat);
}

static char *capture_text(const struct bonnie_spec *s, const struct bonnie_result *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	bonnie_report_text(s, r, false, f);
	fclose(f);
	return buf;
}

static char *capture_csv(const struct bonnie_spec *s, const struct bonnie_result *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	bonnie_report_csv(s, r, f);
	fclose(f);
	return buf;
}

/* Field i of a CSV line (static buffer). */
static const char *field(const char *line, int i)
{
	static char out[128];
	const char *p = line;
	for (int k = 0; k < i && p; k++) {
		p = strchr(p, ',');
		if (p)
			p++;
	}
	if (!p)
		return "<missing>";
	size_t n = strcspn(p, ",\n");
	snprintf(out, sizeof(out), "%.*s", (int)n, p);
	return out;
}

static int nfields(const char *line)
{
	int n = 1;
	for (const char *p = line; *p && *p != '\n'; p++)
		n += *p == ',';
	return n;
}

/* The line starting with prefix in text (static copy, without newline). */
static const char *line_of(const char *text, const char *prefix)
{
	static char out[256];
	for (const char *p = text; p && *p;) {
		const char *e = strchr(p, '\n');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		if (!strncmp(p, prefix, strlen(prefix))) {
			snprintf(out, sizeof(out), "%.*s", (int)n, p);
			return out;
		}
		p = e ? e + 1 : NULL;
	}
	return "<none>";
}

static void test_io_table(void)
{
	struct bonnie_spec s = { .dir = "/x", .machine = "vm", .file_size = 64 * MIB,
				 .chunk_size = 8192, .seeks = 8192, .seekers = 5, .concurrency = 1,
				 .num_files = 1, .file_chunk_size = 8192 };
	struct bonnie_result r = { .seed = 1796031084 };
	struct bonnie_figures *f = &r.total;
	phase(&f->io[BON_PUTC], 3 * MIB, 7.2, 429.9 * 1024, 77.6, 40565000);
	phase(&f->io[BON_PUT_BLOCK], 64 * MIB, 1.0, 537611.0 * 1024, 57.4, 3093000);
	phase(&f->io[BON_REWRITE], 64 * MIB, 0.2, 1e9, 50, 195000);
	phase(&f->io[BON_GETC], 3 * MIB, 6, 12.3 * 1024 * 1024, 10, 150000000);
	phase(&f->io[BON_GET_BLOCK], 64 * MIB, 2, 1.5 * 1024 * 1024 * 1024, 99.9, 4639000);
	phase(&f->io[BON_SEEKS], 8192, 3, 345.64, 3, 120000000000ull);
	phase(&f->file[BON_SEQ_CREATE], 1024, 0.6, 1706.7, 12, 422000);
	phase(&f->file[BON_SEQ_STAT], 1024, 0.1, 10240, 1, 87000);
	/* the rest of the file tests did not run: blank */
	char *t = capture_text(&s, &r);
	CHECK(strstr(t, "------Sequential Output------ --Sequential Input- --Random-\n"
		     "                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n"
		     "Name:Size etc        /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n")
	      != NULL, "I/O header:\n%s", t);
	CHECK(!strncmp(t, "Version ", 8) && t[19] == ' ' && t[20] == '-', "version cell is 20 columns");
	const char *l = line_of(t, "vm ");
	CHECK(!strcmp(l, "vm              64M  429k  77  525m  57 +++++ +++ 12.3m  10  1.5g  99 345.6   3"),
	      "I/O line: '%s'", l);
	l = line_of(t, "Latency  ");
	CHECK(!strcmp(l, "Latency             40565us    3093us     195us     150ms    4639us      120s"),
	      "I/O latency: '%s'", l);
	CHECK(strstr(t, "------Sequential Create------ --------Random Create--------\n"
		     "vm                  -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n"
		     "              files  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n")
	      != NULL, "file header:\n%s", t);
	char want[256];
	l = line_of(t, "                  1");
	snprintf(want, sizeof(want), "                  1  1706  12 +++++ +++%40s", "");
	CHECK(!strcmp(l, want), "file line, rates not counts: '%s'", l);
	snprintf(want, sizeof(want), "Latency               422us      87us%40s\n", "");
	CHECK(strstr(t, want), "file latency line:\n%s", t);
	CHECK(strstr(t, "Precise: off: +++++ marks 2 phases under 0.5 s"), "precise note:\n%s", t);
	free(t);

	char *c = capture_csv(&s, &r);
	CHECK(nfields(c) == BONNIE_CSV_FIELDS, "50 fields: %d in %s", nfields(c), c);
	CHECK(!strcmp(field(c, 0), "1.98"), "format");
	CHECK(!strcmp(field(c, 2), "vm") && !strcmp(field(c, 3), "1"), "name, concurrency");
	CHECK(!strcmp(field(c, 4), "1796031084"), "seed");
	CHECK(!strcmp(field(c, 5), "64M") && !strcmp(field(c, 6), "8k"), "size and chunk: %s", c);
	CHECK(!strcmp(field(c, 7), "8192") && !strcmp(field(c, 8), "5"), "seeks, seekers");
	CHECK(!strcmp(field(c, 9), "429") && !strcmp(field(c, 10), "77"), "putc K/sec, cpu");
	CHECK(!strcmp(field(c, 11), "537611"), "put_block K/sec: %s", field(c, 11));
	CHECK(!strcmp(field(c, 13), "+++++") && !strcmp(field(c, 14), "+++"), "rewrite too short");
	CHECK(!strcmp(field(c, 19), "345.6") && !strcmp(field(c, 20), "3"), "seeks/s");
	CHECK(!strcmp(field(c, 21), "1") && !strcmp(field(c, 22), "") && !strcmp(field(c, 24), ""),
	      "num_files");
	CHECK(!strcmp(field(c, 26), "1706") && !strcmp(field(c, 27), "12"), "seq_create files/s");
	CHECK(!strcmp(field(c, 28), "+++++"), "seq_stat too short");
	CHECK(!strcmp(field(c, 30), "") && !strcmp(field(c, 37), ""), "skipped file tests empty");
	CHECK(!strcmp(field(c, 38), "40565us") && !strcmp(field(c, 43), "120s"), "I/O latencies");
	CHECK(!strcmp(field(c, 44), "422us") && !strcmp(field(c, 49), ""), "file latencies");
	free(c);
	release(&r);
}

static void test_sections(void)
{
	/* -s 0 -n 1:1000:100:4:512: only the file section, dirs and chunk in 24/25 */
	struct bonnie_spec s = { .dir = "/x", .machine = "vm", .concurrency = 1, .chunk_size = 8192,
				 .seeks = 8192, .seekers = 5, .num_files = 1, .max_size = 1000,
				 .min_size = 100, .num_dirs = 4, .file_chunk_size = 512 };
	struct bonnie_result r = { .seed = 7 };
	for (int i = 0; i < BON_FILE_TESTS; i++)
		phase(&r.total.file[i], 1024, 0.1, 10240, 10, 1000);
	char *t = capture_text(&s, &r);
	CHECK(strncmp(t, "Version ", 8) == 0 && strstr(t, "Sequential Create") &&
	      !strstr(t, "Sequential Output"), "file section only:\n%s", t);
	CHECK(strstr(t, "\nfiles:max:min        /sec %CP") != NULL, "files:max:min header");
	CHECK(strstr(t, "\n       1:1000:100/4 +++++ +++") != NULL, "files cell:\n%s", t);
	free(t);
	char *c = capture_csv(&s, &r);
	CHECK(nfields(c) == BONNIE_CSV_FIELDS, "50 fields: %s", c);
	for (int i = 5; i <= 20; i++)
		CHECK(!strcmp(field(c, i), ""), "I/O field %d empty", i);
	CHECK(!strcmp(field(c, 21), "1") && !strcmp(field(c, 22), "1000") &&
	      !strcmp(field(c, 23), "100") && !strcmp(field(c, 24), "4") &&
	      !strcmp(field(c, 25), "512"), "num,max,min,dirs,chunk: %s", c);
	free(c);
	release(&r);

	/* -n 0 -f: I/O only, per-char blank, a blank line after it as bonnie++ */
	s = (struct bonnie_spec){ .dir = "/x", .machine = "m", .concurrency = 1, .chunk_size = 8192,
				  .seeks = 8192, .seekers = 5, .file_size = 1024 * MIB, .skip_putc = true };
	r = (struct bonnie_result){ .seed = 7 };
	phase(&r.total.io[BON_PUT_BLOCK], 1024 * MIB, 2, 537611.0 * 1024, 57.4, 3093000);
	phase(&r.total.io[BON_REWRITE], 1024 * MIB, 2, 748762.0 * 1024, 53.4, 3062000);
	phase(&r.total.io[BON_GET_BLOCK], 1024 * MIB, 0.3, 1e10, 1, 3254000);
	phase(&r.total.io[BON_SEEKS], 8192, 0.3, 1e5, 1, 21936000);
	t = capture_text(&s, &r);
	CHECK(strstr(t, "\nm                1G            525m  57  731m  53           +++++ +++ +++++ +++\n"
		     "Latency                        3093us    3062us              3254us   21936us\n\n")
	      != NULL, "bonnie++'s -n 0 -f lines:\n%s", t);
	free(t);
	c = capture_csv(&s, &r);
	CHECK(nfields(c) == BONNIE_CSV_FIELDS, "50 fields");
	CHECK(!strcmp(field(c, 5), "1G") && !strcmp(field(c, 9), "") && !strcmp(field(c, 10), "") &&
	      !strcmp(field(c, 11), "537611"), "1G, per-char empty: %s", c);
	for (int i = 21; i <= 37; i++)
		CHECK(!strcmp(field(c, i), ""), "file field %d empty", i);
	CHECK(!strcmp(field(c, 38), "") && !strcmp(field(c, 39), "3093us"), "latencies");
	free(c);
	release(&r);
}

static void test_json(void)
{
	struct bonnie_spec s = { .dir = "/x", .machine = "vm", .concurrency = 2, .chunk_size = 8192,
				 .seeks = 8192, .seekers = 5, .num_files = 1, .precise = true };
	struct bonnie_result r = { .seed = 9, .nr_copies = 2 };
	struct bonnie_figures copies[2];
	memset(copies, 0, sizeof(copies));
	r.copies = copies;
	for (int i = 0; i < BON_FILE_TESTS; i++) {
		phase(&copies[0].file[i], 1024, 1, 1000, 10, 2000);
		phase(&copies[1].file[i], 1024, 1, 3000, 10, 4000);
		phase(&r.total.file[i], 2048, 1, 4000, 20, 4000);
	}
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	CHECK(bonnie_report_json(&s, &r, 1, NULL, f) == 0, "json written");
	fclose(f);
	CHECK(strstr(buf, "\"runs\" : [") && strstr(buf, "\"aggregate\" : {") &&
	      strstr(buf, "\"copies\" : ["), "layout:\n%s", buf);
	CHECK(strstr(buf, "\"rate\" : 4000.000000") && strstr(buf, "\"rate\" : 1000.000000") &&
	      strstr(buf, "\"rate\" : 3000.000000"), "aggregate and per-copy rates");
	CHECK(strstr(buf, "\"rate_unit\" : \"files/s\"") && strstr(buf, "\"latency_us\" : {") &&
	      strstr(buf, "\"p99\" : ") && strstr(buf, "\"max\" : 4.000000"), "units and latency");
	CHECK(strstr(buf, "\"putc\" : {\n") && strstr(buf, "\"ran\" : false"), "skipped phases");
	free(buf);
	for (int i = 0; i < BON_FILE_TESTS; i++) {
		hist_release(&copies[0].file[i].lat);
		hist_release(&copies[1].file[i].lat);
	}
	release(&r);
}

int main(void)
{
	test_cells();
	test_io_table();
	test_sections();
	test_json();
	return check_done("test_bonnie_report");
}
