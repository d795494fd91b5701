/*
 * O_DIRECT alignment: before a direct=1 job runs, every block size it can
 * issue and every offset it can start from must be a multiple of what the
 * file's filesystem or the device requires (statx STATX_DIOALIGN where the
 * kernel reports it, else the device's logical block size), and its
 * buffers must be aligned to the memory alignment (page-aligned buffers
 * cover every device we know). A job that breaks this is refused with the
 * alignment it needs, instead of failing I/O by I/O with EINVAL.
 */
#include "workload/job/job.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/dev/devres.h"
#include "sys/sysmem.h"
#include "util/error.h"
#include "workload/setup/setup.h"

/* The logical block size of the device the filesystem of an existing path
 * is on (its disk's, for a partition), or 0. */
static unsigned fs_device_lbs(const char *path)
{
	char dir[PATH_MAX], file[PATH_MAX + 32], line[32];
	struct stat st;
	if (devres_existing_ancestor(path, dir, sizeof(dir), &st) < 0 ||
	    devres_sysdir_of_dev(st.st_dev, dir) < 0)
		return 0;
	snprintf(file, sizeof(file), "%s/queue/logical_block_size", dir);
	if (devres_read_line(file, line, sizeof(line)) < 0) {
		snprintf(file, sizeof(file), "%s/../queue/logical_block_size", dir);
		if (devres_read_line(file, line, sizeof(line)) < 0)
			return 0;
	}
	return (unsigned)strtoul(line, NULL, 10);
}

/* The offset/length alignment direct I/O needs on f, or 512 if unknown. A
 * file not laid out yet (the checks come first) is judged by its
 * filesystem's device. */
static unsigned dio_align(const struct job_file *f, unsigned *mem_align)
{
	struct statx stx;
	*mem_align = 512;
	if (statx(AT_FDCWD, f->path, 0, STATX_DIOALIGN, &stx) == 0 &&
	    (stx.stx_mask & STATX_DIOALIGN) && stx.stx_dio_offset_align) {
		*mem_align = stx.stx_dio_mem_align ? stx.stx_dio_mem_align : 512;
		return stx.stx_dio_offset_align;
	}
	if (!f->is_bdev && access(f->path, F_OK) < 0) {
		unsigned lbs = fs_device_lbs(f->path);
		if (lbs > 512 && lbs <= 65536)
			return lbs;
	}
	if (f->is_bdev) {
		int fd = open(f->path, O_RDONLY | O_CLOEXEC);
		unsigned lbs = 0;
		if (fd >= 0) {
			if (devres_logical_block_size(fd, &lbs) < 0)
				lbs = 0;
			close(fd);
		}
		if (lbs)
			return lbs;
	}
	return 512;
}

static int check_size(const struct job *j, const struct job_file *f, const char *what,
		      uint64_t v, unsigned align)
{
	if (v % align == 0)
		return 0;
	return error("job '%s': %s=%llu is not a multiple of %u, the direct I/O alignment of "
		     "'%s' (direct=1 needs sizes and offsets aligned to it)", j->spec->name, what,
		     (unsigned long long)v, align, f->path);
}

int job_check_direct_alignment(const struct job *j)
{
	const struct job_spec *s = j->spec;
	if (!s->direct || (j->eng.ops->flags & ENGINE_NO_FILE))
		return 0;
	int rc = 0;
	for (unsigned i = 0; i < j->nr_files && !rc; i++) {
		const struct job_file *f = &j->files[i];
		unsigned mem, align = dio_align(f, &mem);
		if (mem > sys_pagesize())
			return error("job '%s': '%s' needs buffers aligned to %u bytes for direct I/O, "
				     "more than a page", s->name, f->path, mem);
		for (int d = 0; d < DDIR_RWDIR_CNT && !rc; d++) {
			bool used = (d == DDIR_READ && (s->rw & RW_READ)) ||
				    (d == DDIR_WRITE && (s->rw & RW_WRITE)) ||
				    (d == DDIR_TRIM && (s->rw & RW_TRIM));
			if (!used)
				continue;
			if (s->nr_bssplit[d]) {
				for (unsigned k = 0; k < s->nr_bssplit[d] && !rc; k++)
					rc = check_size(j, f, "bssplit", s->bssplit[d][k].bs, align);
			} else {
				rc = check_size(j, f, "bs", s->min_bs[d], align);
				if (!rc && s->max_bs[d] != s->min_bs[d]) {
					rc = check_size(j, f, "bsrange", s->max_bs[d], align);
					if (!rc && s->bs_unaligned)
						rc = error("job '%s': bs_unaligned cannot be used with direct=1 "
							   "on '%s' (alignment %u)", s->name, f->path, align);
				}
			}
			if (!rc && s->blockalign[d])
				rc = check_size(j, f, "blockalign", s->blockalign[d], align);
		}
		if (!rc)
			rc = check_size(j, f, "offset", f->io_offset, align);
		if (!rc && s->rw_seq_skip)
			rc = check_size(j, f, "rw skip", (uint64_t)(s->rw_seq_skip < 0 ? -s->rw_seq_skip
										       : s->rw_seq_skip), align);
	}
	return rc;
}
