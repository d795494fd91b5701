/*
 * Checks of two fio write options once a job's files are known:
 *  - atomic=1 asks for torn-write protection (RWF_ATOMIC, Linux 6.11+, on
 *    O_DIRECT writes). A job that writes is refused where the files' device
 *    cannot write atomically (its queue/atomic_write_unit_max_bytes is 0 or
 *    missing), naming the device; where one can, it is not implemented yet
 *    (no such device was at hand to test RWF_ATOMIC on). fio 3.33 itself
 *    only opens with an O_ATOMIC flag that Linux does not know, i.e. direct=1.
 *  - write_barrier=N marks every Nth write a barrier in fio only for engines
 *    that can issue one (its sg engine); iobench's engines cannot, so it is
 *    accepted with a warning that it changes nothing, as in fio.
 */
#include "workload/job/job.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "sys/dev/devres.h"
#include "util/error.h"
#include "workload/setup/setup.h"

static int check_atomic(const struct job *j, const struct job_file *f)
{
	const struct job_spec *s = j->spec;
	char names[4][64], file[PATH_MAX], buf[64] = "";
	size_t n = 0;
	int rc = devres_devices_for_path(f->path, names, 4, &n);
	if ((rc < 0 && rc != -ENOSPC) || !n)
		return error("job '%s': atomic=1: '%s' is on no block device that could write "
			     "atomically (RWF_ATOMIC needs one with atomic write support)", s->name,
			     f->path);
	snprintf(file, sizeof(file), "/sys/block/%s/queue/atomic_write_unit_max_bytes", names[0]);
	unsigned long long max = 0;
	if (devres_read_line(file, buf, sizeof(buf)) == 0)
		max = strtoull(buf, NULL, 10);
	if (!max)
		return error("job '%s': atomic=1: '%s' is on %s, which cannot write atomically (%s "
			     "is %s): RWF_ATOMIC needs a device with atomic write support and Linux "
			     "6.11 or later", s->name, f->path, names[0], file, buf[0] ? buf : "missing");
	return error("job '%s': atomic=1 on %s, a device with atomic writes of up to %llu bytes, "
		     "is not implemented yet (no such device was at hand to test RWF_ATOMIC on)",
		     s->name, names[0], max);
}

int job_write_opts_check(struct job *j)
{
	const struct job_spec *s = j->spec;
	if (s->time_based_dropped)
		warning("job '%s': time_based needs a runtime: the job runs as if time_based were not "
			"set, as fio does (\"time_based requires a runtime/timeout setting\")", s->name);
	if (s->write_barrier && (s->rw & RW_WRITE))
		warning("job '%s': write_barrier=%u changes nothing with ioengine=%s: fio issues "
			"barrier writes only through engines that have them (its sg engine), and "
			"iobench's engines have none", s->name, s->write_barrier, j->eng.ops->name);
	if (!s->atomic || !(s->rw & RW_WRITE) || s->verify_only)
		return 0;
	for (unsigned i = 0; i < j->nr_files; i++) {
		int rc = check_atomic(j, &j->files[i]);
		if (rc < 0)
			return rc;
	}
	return 0;
}
