/*
 * Reading a log to replay: which format it is (fio's text iologs version 2
 * and 3 by their first line, a blktrace by its first record's magic), and
 * the text formats' lines as entries, with the replay options applied as
 * fio 3.33 applies them: replay_skip drops reads, writes, trims or syncs
 * (never a datasync), replay_scale divides and replay_align rounds down
 * the offsets, replay_redirect names one file for all, read-only mode
 * leaves writes and trims out, and a version 3 line's delay is the time
 * since the previous line's timestamp (scaled by replay_time_scale; none
 * with replay_no_stall; none before the first). A line fio would not take
 * (a bad action, a "wait" in version 3, the wrong number of fields) is
 * skipped with the warning fio gives; a file used before its "add" is an
 * error, where fio would crash or misplace the I/O.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "spec/jobspec.h"
#include "sys/dev/devguard.h"
#include "util/array.h"
#include "util/error.h"
#include "workload/logs/iolog.h"
#include "workload/replay/replay_int.h"

static const char ver2[] = "fio version 2 iolog";
static const char ver3[] = "fio version 3 iolog";

int replay_src_open(struct replay_src *src, const char *path, const struct job_spec *spec,
		    bool readonly)
{
	memset(src, 0, sizeof(*src));
	src->path = path;
	src->spec = spec;
	src->readonly = readonly;
	if (!strcmp(path, "-"))
		src->f = stdin;
	else
		src->f = fopen(path, "re");
	if (!src->f)
		return error_errno(-errno, "cannot open the iolog '%s'", path);
	if (src->f != stdin && blktrace_detect(src->f, &src->swap)) {
		src->version = REPLAY_BLKTRACE;
		return 0;
	}
	char head[256];
	if (!fgets(head, sizeof(head), src->f)) {
		int rc = ferror(src->f) ? -EIO : -EINVAL;
		replay_src_close(src);
		return error_errno(rc, "cannot read the iolog '%s': it is empty", path);
	}
	if (!strncmp(head, ver2, sizeof(ver2) - 1))
		src->version = 2;
	else if (!strncmp(head, ver3, sizeof(ver3) - 1))
		src->version = 3;
	else {
		replay_src_close(src);
		return error("'%s' is neither a fio iolog (its first line must be '%s' or '%s'; "
			     "version 1 is no longer supported, as in fio) nor a blktrace binary "
			     "file", path, ver2, ver3);
	}
	src->line = 1;
	return 0;
}

void replay_src_close(struct replay_src *src)
{
	if (src->f && src->f != stdin)
		fclose(src->f);
	src->f = NULL;
	free(src->dev_of);
	src->dev_of = NULL;
}

static bool parse_u64(const char *s, uint64_t *v)
{
	char *end;
	errno = 0;
	unsigned long long x = strtoull(s, &end, 10);
	if (errno || end == s || *end || *s == '-')
		return false;
	*v = x;
	return true;
}

static int ddir_of(const char *act, enum ddir *d)
{
	static const struct { const char *name; enum ddir d; } acts[] = {
		{ "read", DDIR_READ }, { "write", DDIR_WRITE }, { "trim", DDIR_TRIM },
		{ "sync", DDIR_SYNC }, { "datasync", DDIR_DATASYNC },
	};
	for (size_t i = 0; i < ARRAY_SIZE(acts); i++)
		if (!strcmp(act, acts[i].name)) {
			*d = acts[i].d;
			return 0;
		}
	return -1;
}

/* fio's delay from the previous timestamp (ts in the log's unit). */
static uint64_t delay_since(struct replay_src *src, uint64_t ts)
{
	const struct job_spec *s = src->spec;
	uint64_t last = src->last_ttime;
	src->last_ttime = ts;
	if (!last || s->replay_no_stall || ts < last)
		return 0;
	return replay_scaled_delay(ts - last, s->replay_time_scale);
}

static int text_next(struct replay_src *src, struct replay_files *files, struct replay_entry *e)
{
	const struct job_spec *s = src->spec;
	char buf[4096];
	while (fgets(buf, sizeof(buf), src->f)) {
		src->line++;
		char *tok[6], *save = NULL;
		int n = 0;
		for (char *t = strtok_r(buf, " \t\r\n", &save); t; t = strtok_r(NULL, " \t\r\n", &save))
			if (n < 6)
				tok[n++] = t;
			else
				n = 7;
		int base = src->version == 3 ? 1 : 0;
		uint64_t ts = 0, delay = 0;
		if (src->version == 3) {
			if (n < 1 || !parse_u64(tok[0], &ts)) {
				warning("iolog '%s':%u: no timestamp: line skipped", src->path, src->line);
				continue;
			}
			delay = delay_since(src, ts);
		}
		int fields = n - base;
		if (fields != 2 && fields != 4) {
			warning("iolog '%s':%u: a line is 'FILE ACTION' or 'FILE ACTION OFFSET LENGTH'%s: "
				"line skipped", src->path, src->line,
				src->version == 3 ? " after its timestamp" : "");
			continue;
		}
		const char *name = s->replay_redirect ? s->replay_redirect : tok[base];
		const char *act = tok[base + 1];
		memset(e, 0, sizeof(*e));
		e->delay_us = delay;
		if (fields == 2) {
			if (!strcmp(act, "add")) {
				e->kind = RP_ADD;
				e->file = replay_file_add(files, name);
				return 1;
			}
			if (strcmp(act, "open") && strcmp(act, "close")) {
				warning("iolog '%s':%u: bad file action '%s' (add, open or close): line "
					"skipped", src->path, src->line, act);
				continue;
			}
			e->kind = strcmp(act, "open") ? RP_CLOSE : RP_OPEN;
		} else {
			enum ddir d;
			uint64_t off, len;
			if (!strcmp(act, "wait")) {
				if (src->version == 3) {
					warning("iolog '%s':%u: 'wait' is not allowed in version 3 (its "
						"timestamps do that): line skipped", src->path, src->line);
					continue;
				}
				if (s->replay_no_stall)
					continue;
				if (!parse_u64(tok[base + 2], &off)) {
					warning("iolog '%s':%u: bad wait time '%s': line skipped",
						src->path, src->line, tok[base + 2]);
					continue;
				}
				e->kind = RP_WAIT;
				e->delay_us = off;
				return 1;
			}
			if (ddir_of(act, &d) < 0) {
				warning("iolog '%s':%u: bad I/O action '%s' (read, write, trim, sync, "
					"datasync or wait): line skipped", src->path, src->line, act);
				continue;
			}
			if (!parse_u64(tok[base + 2], &off) || !parse_u64(tok[base + 3], &len) ||
			    len > UINT32_MAX) {
				warning("iolog '%s':%u: bad offset '%s' or length '%s': line skipped",
					src->path, src->line, tok[base + 2], tok[base + 3]);
				continue;
			}
			unsigned skip_as = d == DDIR_DATASYNC ? 0 : 1u << d;
			if (s->replay_skip & skip_as)
				continue;
			if (src->readonly && (d == DDIR_WRITE || d == DDIR_TRIM)) {
				src->skipped_ro++;
				continue;
			}
			e->kind = RP_IO;
			e->ddir = (unsigned char)d;
			e->offset = d < DDIR_RWDIR_CNT ? replay_place(s, off) : off;
			e->len = d < DDIR_RWDIR_CNT ? len : 0;
		}
		e->file = replay_file_index(files, name);
		if (e->file == ~0u)
			return error("iolog '%s':%u: '%s' is used before the line that adds it "
				     "('%s%s add')", src->path, src->line, name,
				     src->version == 3 ? "TIME " : "", name);
		return 1;
	}
	if (ferror(src->f))
		return error_errno(-EIO, "cannot read the iolog '%s' after line %u", src->path,
				   src->line);
	return 0;
}

int replay_src_next(struct replay_src *src, struct replay_files *files, struct replay_entry *e)
{
	int rc = src->version == REPLAY_BLKTRACE ? blktrace_next(src, files, e)
						 : text_next(src, files, e);
	if (rc == 1 && e->kind == RP_IO && e->ddir < DDIR_RWDIR_CNT) {
		uint64_t end = e->offset + e->len;
		if (end > files->end[e->file])
			files->end[e->file] = end;
		if (e->ddir == DDIR_WRITE)
			files->what[e->file] |= DEVGUARD_WRITE;
		else if (e->ddir == DDIR_TRIM)
			files->what[e->file] |= DEVGUARD_TRIM;
	}
	return rc;
}
