/*
 * Formatting shared by the bonnie reporters: bonnie++'s size strings
 * ("64M", "1G", "4k"), its latency strings ("123us", "45ms", "101s"), the
 * "Name:Size etc" cell, the "files:max:min/dirs" cell, and the names and
 * units of the twelve phases.
 */
#include "report/bonnie_report.h"

#include <stdio.h>
#include <string.h>

#define MIB (1024ull * 1024)

static const char *const io_names[BON_IO_TESTS] = {
	"putc", "put_block", "rewrite", "getc", "get_block", "seeks",
};
static const char *const file_names[BON_FILE_TESTS] = {
	"seq_create", "seq_stat", "seq_del", "ran_create", "ran_stat", "ran_del",
};
static const char *const io_labels[BON_IO_TESTS] = {
	"Char out", "Block out", "Rewrite", "Char in", "Block in", "Seeks",
};
static const char *const file_labels[BON_FILE_TESTS] = {
	"Seq Create", "Seq Read", "Seq Delete", "Ran Create", "Ran Read", "Ran Delete",
};

const char *bonnie_io_name(enum bonnie_io_test t) { return io_names[t]; }
const char *bonnie_file_name(enum bonnie_file_test t) { return file_names[t]; }
const char *bonnie_io_label(enum bonnie_io_test t) { return io_labels[t]; }
const char *bonnie_file_label(enum bonnie_file_test t) { return file_labels[t]; }

const char *bonnie_machine(const struct bonnie_spec *s)
{
	return s->machine && *s->machine ? s->machine : "localhost";
}

double bonnie_io_figure(enum bonnie_io_test t, const struct bonnie_phase *p)
{
	return t == BON_SEEKS ? p->rate : p->rate / 1024.0;
}

void bonnie_fmt_size(char *buf, size_t len, uint64_t n, const char *units)
{
	size_t u = 0;
	if (n)
		while (n % 1024 == 0 && units[u + 1]) {
			n /= 1024;
			u++;
		}
	if (units[u] == ' ')
		snprintf(buf, len, "%llu", (unsigned long long)n);
	else
		snprintf(buf, len, "%llu%c", (unsigned long long)n, units[u]);
}

void bonnie_fmt_latency(char *buf, size_t len, uint64_t ns)
{
	if (!ns)
		snprintf(buf, len, "%s", "");
	else if (ns > 99999999000ull)
		snprintf(buf, len, "%llus", (unsigned long long)(ns / 1000000000ull));
	else if (ns > 99999000ull)
		snprintf(buf, len, "%llums", (unsigned long long)(ns / 1000000ull));
	else
		snprintf(buf, len, "%lluus", (unsigned long long)(ns / 1000ull));
}

/* Append ":" and, when not the default, the value. */
static void part(char *buf, size_t len, const char *val)
{
	size_t n = strlen(buf);
	snprintf(buf + n, len - n, ":%s", val);
}

void bonnie_fmt_io_size(char *buf, size_t len, const struct bonnie_spec *s)
{
	char v[32];
	bonnie_fmt_size(buf, len, s->file_size / MIB, "MG");
	v[0] = 0;
	if (s->chunk_size != BONNIE_DEFAULT_CHUNK)
		bonnie_fmt_size(v, sizeof(v), s->chunk_size, " km");
	part(buf, len, v);
	v[0] = 0;
	if (s->concurrency > 1)
		snprintf(v, sizeof(v), "%u", s->concurrency);
	part(buf, len, v);
	v[0] = 0;
	if (s->seeks != BONNIE_DEFAULT_SEEKS)
		snprintf(v, sizeof(v), "%u", s->seeks);
	part(buf, len, v);
	v[0] = 0;
	if (s->seekers != BONNIE_DEFAULT_SEEKERS)
		snprintf(v, sizeof(v), "%u", s->seekers);
	part(buf, len, v);
	size_t n = strlen(buf);
	while (n && buf[n - 1] == ':')
		buf[--n] = 0;
}

/* bonnie++: the machine name in 18 columns, then a space and the size
 * right-aligned to column 19; a long size overwrites the name. */
void bonnie_fmt_name_cell(char *buf, size_t len, const char *machine, const char *size)
{
	size_t sl = strlen(size);
	if (sl > 18) {
		snprintf(buf, len, "%s", size);
		return;
	}
	int keep = (int)(18 - sl);
	snprintf(buf, len, "%-*.*s %s", keep, keep, machine, size);
}

void bonnie_fmt_file_size(char *buf, size_t len, const struct bonnie_spec *s)
{
	size_t n = (size_t)snprintf(buf, len, "%u", s->num_files);
	if (n >= len)
		return;
	if (s->max_size == BONNIE_HARD_LINKS)
		n += (size_t)snprintf(buf + n, len - n, ":link");
	else if (s->max_size == BONNIE_SOFT_LINKS)
		n += (size_t)snprintf(buf + n, len - n, ":symlink");
	else if (s->max_size)
		n += (size_t)snprintf(buf + n, len - n, ":%ld:%ld", s->max_size, s->min_size);
	if (n < len && s->num_dirs > 1)
		snprintf(buf + n, len - n, "/%u", s->num_dirs);
}
