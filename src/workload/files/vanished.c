/*
 * A job's files must still be there when its I/O is done (job.h:
 * job_files_check_present). A file deleted while the job ran (rm -rf of its
 * directory, say) keeps taking reads and writes through the open descriptor
 * without one error, so the run would end "successfully" having written to
 * nothing anyone can read. Before the files are closed, each regular file
 * is checked: unlinked (no link left), or its path now naming another
 * inode or nothing, fails the job with a message saying so, and the exit
 * status is 1.
 */
#include "workload/job/job.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/error.h"
#include "util/xmalloc.h"
#include "workload/files/files.h"

static const char *vanished_why(const struct job_file *f, char *buf, size_t len)
{
	struct stat fst, pst;
	if (f->fd < 0 || f->is_bdev || fstat(f->fd, &fst) < 0 || !S_ISREG(fst.st_mode))
		return NULL;
	if (fst.st_nlink == 0)
		return "was deleted while the job ran";
	if (stat(f->path, &pst) < 0) {
		snprintf(buf, len, "is gone from its path while the job ran (%s)", strerror(errno));
		return buf;
	}
	if (pst.st_dev != fst.st_dev || pst.st_ino != fst.st_ino)
		return "was replaced by another file while the job ran";
	return NULL;
}

int job_files_check_present(struct job *j)
{
	int rc = 0;
	for (unsigned i = 0; i < j->nr_files; i++) {
		char buf[160];
		const char *why = vanished_why(&j->files[i], buf, sizeof(buf));
		if (!why)
			continue;
		char *msg = xasprintf("'%s' %s: its I/O went to a file that is no longer there",
				      j->files[i].path, why);
		rc = error("job '%s': %s", j->spec->name, msg);
		if (!j->res.error) {
			j->res.error = ENOENT;
			j->res.error_msg = msg;
		} else {
			free(msg);
		}
	}
	return rc;
}
