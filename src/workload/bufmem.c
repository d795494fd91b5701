/*
 * The memory behind a job's I/O buffers, of the kind mem= asks for (fio's
 * mem/iomem): a private anonymous mapping (malloc, mmap), a shared one
 * (mmapshared), a System V segment (shm, shmhuge with SHM_HUGETLB), huge
 * pages (mmaphuge, MAP_HUGETLB) or a mapping of a file (mmap:FILE and the
 * like: created, sized and unlinked when the job is done, as fio does). Huge
 * kinds are rounded up to hugepage-size; without huge pages reserved
 * (/proc/sys/vm/nr_hugepages) they fail with a message that says so. And
 * lockmem: memory mlock'ed for the job's life so the rest has less RAM.
 */
#include "workload/job/job.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/dev/guardopen.h"
#include "util/error.h"
#include "util/xmalloc.h"
#include "workload/runtime_int.h"

static const char *const kind_names[] = {
	[MEM_MALLOC] = "malloc", [MEM_SHM] = "shm", [MEM_SHMHUGE] = "shmhuge",
	[MEM_MMAP] = "mmap", [MEM_MMAPHUGE] = "mmaphuge", [MEM_MMAPSHARED] = "mmapshared",
};

static int huge_error(const struct job *j, size_t len, int err)
{
	return error_errno(err, "job '%s': mem=%s: cannot have %zu bytes of huge pages of %llu bytes "
			   "(reserve some in /proc/sys/vm/nr_hugepages, or check hugepage-size)",
			   j->spec->name, kind_names[j->spec->mem], len,
			   (unsigned long long)j->spec->hugepage_size);
}

int job_bufmem_map(struct job *j, size_t *len, void **out)
{
	const struct job_spec *s = j->spec;
	enum mem_type m = s->mem;
	bool huge = m == MEM_SHMHUGE || m == MEM_MMAPHUGE;
	if (huge && s->hugepage_size)
		*len = (*len + s->hugepage_size - 1) / s->hugepage_size * s->hugepage_size;
	void *mem;
	if (m == MEM_SHM || m == MEM_SHMHUGE) {
		int id = shmget(IPC_PRIVATE, *len, IPC_CREAT | 0600 | (huge ? SHM_HUGETLB : 0));
		if (id < 0)
			return huge ? huge_error(j, *len, -errno)
				    : error_errno(-errno, "job '%s': mem=shm: shmget of %zu bytes", s->name, *len);
		mem = shmat(id, NULL, 0);
		int err = errno;
		shmctl(id, IPC_RMID, NULL); /* gone once detached, even if we die */
		if (mem == (void *)-1)
			return error_errno(-err, "job '%s': mem=%s: shmat", s->name, kind_names[m]);
		j->buf_shm = true;
		*out = mem;
		return 0;
	}
	int flags = m == MEM_MMAPSHARED ? MAP_SHARED : MAP_PRIVATE;
	int fd = -1;
	if (s->mem_file && m != MEM_MALLOC) {
		/* a file iobench creates (O_CREAT|O_EXCL: one that exists is
		 * somebody's, never truncated or removed), through the device
		 * guard; a clone maps FILE.N of its own */
		struct devguard_use use = { .kind = DEVGUARD_OWN, .what = DEVGUARD_WRITE };
		struct devguard_fd gfd;
		char why[512], *path;
		if (s->jobnum)
			path = xasprintf("%s.%u", s->mem_file, s->jobnum);
		else
			path = xstrdup(s->mem_file);
		int grc = devguard_open(path, O_RDWR | O_CREAT | O_EXCL, 0600, &use, &gfd, why, sizeof(why));
		if (grc < 0) {
			if (grc == -EEXIST)
				snprintf(why, sizeof(why), "it exists, and iobench maps only a file it "
					 "creates (and removes after): name a file that does not exist");
			error_errno(grc, "job '%s': mem=%s: cannot create '%s': %s", s->name,
				    kind_names[m], path, why);
			free(path);
			return grc;
		}
		fd = gfd.fd;
		if (fstat(fd, &j->buf_file_st) < 0 || ftruncate(fd, (off_t)*len) < 0) {
			int err = -errno;
			close(fd);
			unlink(path); /* just made by O_CREAT|O_EXCL, still empty */
			error_errno(err, "job '%s': mem=%s: cannot size '%s' to %zu bytes", s->name,
				    kind_names[m], path, *len);
			free(path);
			return err;
		}
		j->buf_file = path;
	} else {
		flags |= MAP_ANONYMOUS | (m == MEM_MMAPHUGE ? MAP_HUGETLB : 0);
	}
	mem = mmap(NULL, *len, PROT_READ | PROT_WRITE, flags, fd, 0);
	int err = -errno;
	if (fd >= 0)
		close(fd);
	if (mem == MAP_FAILED)
		return huge ? huge_error(j, *len, err)
			    : error_errno(err, "cannot allocate %u buffers of %llu bytes for job '%s' "
					  "(mem=%s, %zu bytes)", j->nr_units, (unsigned long long)j->buf_size,
					  s->name, kind_names[m], *len);
	*out = mem;
	return 0;
}

void job_bufmem_unmap(struct job *j, void *mem, size_t len)
{
	if (j->buf_shm)
		shmdt(mem);
	else
		munmap(mem, len);
	j->buf_shm = false;
	if (j->buf_file) {
		char why[512];
		if (devguard_unlink_created(AT_FDCWD, j->buf_file, &j->buf_file_st, why, sizeof(why)) < 0)
			error("job '%s': mem=%s: %s", j->spec->name, kind_names[j->spec->mem], why);
		free(j->buf_file);
		j->buf_file = NULL;
	}
	if (j->lock_map) {
		munlock(j->lock_map, j->lock_len);
		munmap(j->lock_map, j->lock_len);
		j->lock_map = NULL;
	}
}

int job_lockmem(struct job *j)
{
	size_t len = (size_t)j->spec->lockmem;
	if (!len)
		return 0;
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return error_errno(-errno, "job '%s': lockmem: cannot map %zu bytes", j->spec->name, len);
	if (mlock(p, len) < 0) {
		int err = -errno;
		munmap(p, len);
		return error_errno(err, "job '%s': lockmem: cannot mlock %zu bytes (RLIMIT_MEMLOCK?)",
				   j->spec->name, len);
	}
	j->lock_map = p;
	j->lock_len = len;
	return 0;
}
