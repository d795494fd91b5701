/*
 * blktrace binary files as replay input, read by their documented layout:
 * a sequence of struct blk_io_trace records (the kernel's published ABI,
 * <linux/blktrace_api.h>), each followed by pdu_len bytes of payload. As
 * fio 3.33 replays them, only queue events (__BLK_TA_QUEUE) of file-system
 * requests count: a discard is a trim, a flush a sync, the rest a read or
 * a write (BLK_TC_WRITE) of `bytes` at `sector` * 512 on the traced device
 * (found in /dev by its major:minor, kernel-style with 20 minor bits, or
 * replay_redirect), opened at its first I/O and closed at the end. The
 * delay before each is the time since the previous queue event. Zero-byte
 * traces are skipped (once with a warning, as fio). merge_blktrace_file
 * first merges several traces by time into one (blktrace_merge).
 */
#include "workload/replay/replay.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <byteswap.h>
#include <linux/blktrace_api.h>

#include "spec/jobspec.h"
#include "sys/dev/devguard.h"
#include "sys/dev/guardopen.h"
#include "util/error.h"
#include "util/strutil.h"
#include "util/xmalloc.h"
#include "workload/logs/iolog.h"
#include "workload/replay/replay_int.h"

#define KDEV_MINORBITS 20

static bool magic_ok(uint32_t m)
{
	return (m & 0xffffff00u) == BLK_IO_TRACE_MAGIC;
}

bool blktrace_detect(FILE *f, bool *swap)
{
	struct blk_io_trace t;
	size_t n = fread(&t, 1, sizeof(t), f);
	rewind(f);
	*swap = false;
	if (n != sizeof(t))
		return false;
	if (magic_ok(t.magic))
		return true;
	if (magic_ok(bswap_32(t.magic))) {
		*swap = true;
		return true;
	}
	return false;
}

static void swap_trace(struct blk_io_trace *t)
{
	t->magic = bswap_32(t->magic);
	t->sequence = bswap_32(t->sequence);
	t->time = bswap_64(t->time);
	t->sector = bswap_64(t->sector);
	t->bytes = bswap_32(t->bytes);
	t->action = bswap_32(t->action);
	t->pid = bswap_32(t->pid);
	t->device = bswap_32(t->device);
	t->cpu = bswap_32(t->cpu);
	t->error = bswap_16(t->error);
	t->pdu_len = bswap_16(t->pdu_len);
}

/* One record (payload skipped): 1, 0 at the end, -errno. */
static int read_trace(FILE *f, bool swap, const char *path, struct blk_io_trace *t)
{
	size_t n = fread(t, 1, sizeof(*t), f);
	if (n == 0 && !ferror(f))
		return 0;
	if (n != sizeof(*t))
		return ferror(f) ? error_errno(-EIO, "cannot read the blktrace '%s'", path)
				 : error("blktrace '%s' ends inside a record (%zu of %zu bytes)",
					 path, n, sizeof(*t));
	if (swap)
		swap_trace(t);
	if (!magic_ok(t->magic))
		return error("blktrace '%s': bad magic 0x%08x in a record", path, t->magic);
	if ((t->magic & 0xff) != BLK_IO_TRACE_VERSION)
		return error("blktrace '%s': version %u, not %u", path, t->magic & 0xff,
			     BLK_IO_TRACE_VERSION);
	if (t->pdu_len && fseek(f, t->pdu_len, SEEK_CUR) < 0)
		return error_errno(-errno, "cannot skip a record's payload in the blktrace '%s'",
				   path);
	return 1;
}

/* The block device node of maj:min under dir, into out. */
static bool find_dev(const char *dir, unsigned maj, unsigned min, char *out, size_t outlen)
{
	DIR *d = opendir(dir);
	if (!d)
		return false;
	bool found = false;
	struct dirent *de;
	while (!found && (de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		char *p = xasprintf("%s/%s", dir, de->d_name);
		struct stat st;
		if (lstat(p, &st) == 0) {
			if (S_ISDIR(st.st_mode))
				found = find_dev(p, maj, min, out, outlen);
			else if (S_ISBLK(st.st_mode) && major(st.st_rdev) == maj &&
				 minor(st.st_rdev) == min) {
				snprintf(out, outlen, "%s", p);
				found = true;
			}
		}
		free(p);
	}
	closedir(d);
	return found;
}

static int trace_file(struct replay_src *src, struct replay_files *files, uint32_t dev,
		      unsigned *file, bool *is_new)
{
	*is_new = false;
	if (src->have_cache && src->dev_cache == dev) {
		*file = src->file_cache;
		return 0;
	}
	for (unsigned i = 0; i < files->n; i++)
		if (src->dev_of[i] == dev) {
			*file = i;
			goto cache;
		}
	char path[4096];
	unsigned maj = dev >> KDEV_MINORBITS, min = dev & ((1u << KDEV_MINORBITS) - 1);
	if (src->spec->replay_redirect)
		snprintf(path, sizeof(path), "%s", src->spec->replay_redirect);
	else if (!find_dev("/dev", maj, min, path, sizeof(path)))
		return error("blktrace '%s': no block device %u:%u in /dev, where the trace was "
			     "made (replay_redirect= names the device or file to replay it on)",
			     src->path, maj, min);
	unsigned before = files->n;
	*file = replay_file_add(files, path);
	if (files->n > before) {
		src->dev_of = xrealloc(src->dev_of, files->n * sizeof(*src->dev_of));
		src->dev_of[*file] = dev;
		*is_new = true;
	}
cache:
	src->have_cache = true;
	src->dev_cache = dev;
	src->file_cache = *file;
	return 0;
}

static void count_depth(struct replay_src *src, uint32_t action, bool write)
{
	switch (action & 0xffff) {
	case __BLK_TA_QUEUE:
		src->depth_now[write]++;
		break;
	case __BLK_TA_BACKMERGE:
	case __BLK_TA_FRONTMERGE:
		src->depth_now[write]--; /* merged into a queued one: not one more */
		break;
	case __BLK_TA_COMPLETE:
		if (src->depth_now[write] > src->depth_max[write])
			src->depth_max[write] = src->depth_now[write];
		src->depth_now[write] = 0;
		break;
	default:
		break;
	}
}

unsigned blktrace_depth(const struct replay_src *src)
{
	int d = src->depth_max[0] > src->depth_max[1] ? src->depth_max[0] : src->depth_max[1];
	return d <= 0 ? 0 : d > 1024 ? 1024 : (unsigned)d;
}

int blktrace_next(struct replay_src *src, struct replay_files *files, struct replay_entry *e)
{
	const struct job_spec *s = src->spec;
	struct blk_io_trace t;
	memset(e, 0, sizeof(*e));
	if (src->have_pending) {
		/* the I/O of a file's first trace, after its open */
		*e = src->pending;
		src->have_pending = false;
		return 1;
	}
	while (!src->closing) {
		int rc = read_trace(src->f, src->swap, src->path, &t);
		if (rc < 0)
			return rc;
		if (rc == 0) {
			src->closing = true;
			src->close_next = 0;
			break;
		}
		bool notify = t.action & BLK_TC_ACT(BLK_TC_NOTIFY);
		bool discard = t.action & BLK_TC_ACT(BLK_TC_DISCARD);
		bool write = t.action & BLK_TC_ACT(BLK_TC_WRITE);
		if (!notify) /* every event counts, skipped or not */
			count_depth(src, t.action, write);
		if (!notify && (write || discard) && src->readonly) {
			src->skipped_ro++;
			continue;
		}
		if ((t.action & 0xffff) != __BLK_TA_QUEUE || notify)
			continue;
		/* the time since the previous queue event, in ns */
		uint64_t last = src->last_ttime, delay = 0;
		src->last_ttime = t.time;
		if (last && !s->replay_no_stall && t.time >= last)
			delay = replay_scaled_delay(t.time - last, s->replay_time_scale);
		if (t.action & BLK_TC_ACT(BLK_TC_PC))
			continue;
		uint64_t bytes = t.bytes;
		if (s->replay_align)
			bytes = (bytes + s->replay_align - 1) & ~(s->replay_align - 1);
		enum ddir d = discard ? DDIR_TRIM : (t.action & BLK_TC_ACT(BLK_TC_FLUSH)) ? DDIR_SYNC
			      : write ? DDIR_WRITE : DDIR_READ;
		unsigned skip_as = 1u << d;
		if (s->replay_skip & skip_as)
			continue;
		if (d != DDIR_SYNC && d != DDIR_TRIM && !bytes) {
			if (!src->warned_zero)
				warning("blktrace '%s': zero-byte trace (action 0x%x) skipped, as fio "
					"does", src->path, t.action);
			src->warned_zero = true;
			continue;
		}
		bool is_new;
		unsigned file;
		if ((rc = trace_file(src, files, t.device, &file, &is_new)) < 0)
			return rc;
		e->kind = RP_IO;
		e->ddir = (unsigned char)d;
		e->file = file;
		e->delay_us = delay / 1000;
		if (d != DDIR_SYNC) {
			e->offset = replay_place(s, t.sector * 512);
			e->len = bytes;
		}
		if (is_new) {
			/* an open first: the I/O comes back with the next call */
			src->pending = *e;
			src->have_pending = true;
			memset(e, 0, sizeof(*e));
			e->kind = RP_OPEN;
			e->file = file;
		}
		return 1;
	}
	if (src->close_next < files->n) {
		e->kind = RP_CLOSE;
		e->file = src->close_next++;
		return 1;
	}
	return 0;
}

/* A trace being merged: its file, its next queue event and its passes. */
struct merge_in {
	FILE *f;
	char *path;
	bool swap;
	struct blk_io_trace t; /* the next event, time transformed */
	uint64_t raw_last;     /* the raw time of the last event read */
	uint64_t length;       /* the raw time of its last event (a pass's length) */
	unsigned iter, iters;
	double scalar;         /* percent */
};

/* The next queue event of a read, write or trim: 1, 0 at the end of all
 * passes, -errno. */
static int merge_read(struct merge_in *m)
{
	for (;;) {
		int rc = read_trace(m->f, m->swap, m->path, &m->t);
		if (rc < 0)
			return rc;
		if (rc == 0) {
			if (!m->length)
				m->length = m->raw_last;
			if (++m->iter >= m->iters)
				return 0;
			rewind(m->f);
			continue;
		}
		bool io = m->t.action & BLK_TC_ACT(BLK_TC_READ | BLK_TC_WRITE | BLK_TC_DISCARD);
		if ((m->t.action & 0xffff) != __BLK_TA_QUEUE || !io)
			continue;
		m->raw_last = m->t.time;
		m->t.time = (uint64_t)((double)(m->t.time + (uint64_t)m->iter * m->length) *
				       m->scalar / 100.0);
		m->t.pdu_len = 0; /* the merged file carries no payloads */
		return 1;
	}
}

int blktrace_merge(const struct job_spec *s, const struct devguard_allow *allow)
{
	char **names;
	size_t n = str_split_escaped(s->read_iolog, ':', &names);
	int rc = 0;
	if (s->nr_merge_blktrace_scalars && s->nr_merge_blktrace_scalars != n)
		rc = error("job '%s': merge_blktrace_scalars has %u values for the %zu files of "
			   "read_iolog (one each)", s->name, s->nr_merge_blktrace_scalars, n);
	else if (s->nr_merge_blktrace_iters && s->nr_merge_blktrace_iters != n)
		rc = error("job '%s': merge_blktrace_iters has %u values for the %zu files of "
			   "read_iolog (one each)", s->name, s->nr_merge_blktrace_iters, n);
	if (rc) {
		str_list_free(names);
		return rc;
	}
	struct merge_in *in = xcalloc(n ? n : 1, sizeof(*in));
	size_t live = 0;
	FILE *out = NULL;
	for (size_t i = 0; i < n && !rc; i++) {
		struct merge_in *m = &in[live];
		m->path = names[i];
		m->scalar = s->nr_merge_blktrace_scalars ? s->merge_blktrace_scalars[i] : 100.0;
		m->iters = s->nr_merge_blktrace_iters ? (unsigned)s->merge_blktrace_iters[i] : 1;
		m->f = fopen(m->path, "re");
		if (!m->f) {
			rc = error_errno(-errno, "job '%s': cannot open the blktrace '%s' to merge",
					 s->name, m->path);
			break;
		}
		if (!blktrace_detect(m->f, &m->swap)) {
			fclose(m->f);
			rc = error("job '%s': '%s' is not a blktrace binary file: merge_blktrace_file "
				   "merges blktraces only", s->name, m->path);
			break;
		}
		if ((rc = merge_read(m)) < 0) {
			fclose(m->f);
			break;
		}
		if (rc == 0)
			fclose(m->f);
		else
			live++;
		rc = 0;
	}
	char why[2560];
	if (!rc && devguard_fopen(s->merge_blktrace_file, false, allow, &out, why, sizeof(why)) < 0)
		rc = error("job '%s': cannot write the merged blktrace '%s': %s", s->name,
			   s->merge_blktrace_file, why);
	while (!rc && live) {
		size_t k = 0;
		for (size_t i = 1; i < live; i++)
			if (in[i].t.time < in[k].t.time)
				k = i;
		if (fwrite(&in[k].t, sizeof(in[k].t), 1, out) != 1) {
			rc = error_errno(-EIO, "job '%s': cannot write the merged blktrace '%s'",
					 s->name, s->merge_blktrace_file);
			break;
		}
		int r = merge_read(&in[k]);
		if (r < 0)
			rc = r;
		else if (r == 0) {
			fclose(in[k].f);
			in[k] = in[--live];
		}
	}
	for (size_t i = 0; i < live; i++)
		fclose(in[i].f);
	if (out && fclose(out) != 0 && !rc)
		rc = error_errno(-errno, "job '%s': cannot write the merged blktrace '%s'", s->name,
				 s->merge_blktrace_file);
	free(in);
	str_list_free(names);
	return rc;
}
