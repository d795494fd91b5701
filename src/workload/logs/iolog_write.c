/*
 * write_iolog=: the job's I/O as fio 3.33 writes it, its iolog version 3.
 * The file is opened for appending (as fio's fopen "a") through the device
 * guard as iobench's own output (never a block device; read-only mode
 * still allows it), starts with "fio version 3 iolog" and an "add" line
 * per file, then has a line per file opened or closed ("TIME FILE open")
 * and per I/O issued ("TIME FILE read|write|trim|sync|datasync OFFSET
 * LENGTH"), TIME being microseconds since the log was opened; a sync of
 * the job's own (fsync=, end_fsync=) carries the offset of the I/O before
 * it, as fio's does. A replay
 * (read_iolog) writes the I/O it issued, which fio does not: fio ignores
 * write_iolog when read_iolog is set.
 */
#include "workload/job/job.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "util/error.h"
#include "util/xmalloc.h"
#include "workload/logs/iolog.h"

static unsigned long long log_us(const struct job *j)
{
	return (unsigned long long)((job_now(j) - j->iolog_t0) / 1000);
}

int iolog_write_open(struct job *j)
{
	char why[2560];
	int rc = devguard_fopen(j->spec->write_iolog, true, &j->guard, &j->iolog_f, why,
				sizeof(why));
	if (rc < 0) {
		error("job '%s': cannot write the iolog '%s': %s", j->spec->name,
		      j->spec->write_iolog, why);
		j->iolog_f = NULL;
		return rc;
	}
	j->iolog_t0 = job_now(j);
	fputs("fio version 3 iolog\n", j->iolog_f);
	for (unsigned i = 0; i < j->nr_files; i++)
		iolog_write_file(j, i, RP_ADD);
	return 0;
}

void iolog_write_file(struct job *j, unsigned file, enum replay_kind what)
{
	static const char *const acts[] = { [RP_ADD] = "add", [RP_OPEN] = "open",
					    [RP_CLOSE] = "close" };
	if (what > RP_CLOSE || file >= j->nr_files)
		return;
	fprintf(j->iolog_f, "%llu %s %s\n", log_us(j), j->files[file].path, acts[what]);
}

void iolog_write_io(struct job *j, const struct io_unit *u)
{
	if (u->ddir < DDIR_RWDIR_CNT)
		j->iolog_last_off = u->offset;
	fprintf(j->iolog_f, "%llu %s %s %llu %llu\n", log_us(j), u->file ? u->file->path : "?",
		ddir_name(u->ddir), (unsigned long long)u->offset, (unsigned long long)u->buflen);
}

void iolog_write_close(struct job *j)
{
	FILE *f = j->iolog_f;
	j->iolog_f = NULL;
	bool bad = ferror(f);
	if (fclose(f) != 0 || bad) {
		error("job '%s': writing the iolog '%s' failed: %s", j->spec->name,
		      j->spec->write_iolog, strerror(bad ? EIO : errno));
		if (!j->res.error) {
			j->res.error = EIO;
			j->res.error_msg = xasprintf("writing the iolog '%s' failed",
						     j->spec->write_iolog);
		}
	}
}

void iolog_write_sync(struct job *j, const struct io_unit *u)
{
	fprintf(j->iolog_f, "%llu %s %s %llu 0\n", log_us(j), u->file ? u->file->path : "?",
		ddir_name(u->ddir), (unsigned long long)j->iolog_last_off);
}
