/*
 * verify_state_save / verify_state_load files: how far a job's write
 * sequence got, so that a later verify_only run checks only what was
 * written. Named as fio names its own, "local-NAME-INDEX-verify.state" in
 * the current directory or fio's --aux-path, but the contents are
 * iobench's: a few text lines,
 *   iobench-verify-state 1
 *   job NAME
 *   index N
 *   seed 0xHEX
 *   loop L          (0-based loop the job was in when it stopped)
 *   writes W        (writes issued and completed in that loop)
 *   seq S           (writes of the whole job)
 *   complete 0|1    (all loops ran)
 * written to a temporary file and renamed, so a crash leaves the old state.
 * The temporary file is opened through the guarded open (sys/dev/guardopen.h),
 * so a name that leads to a block device is refused, not written.
 */
#include "verify/verify.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sys/dev/guardopen.h"

#define STATE_MAGIC "iobench-verify-state 1"

void verify_state_path(const char *dir, const char *name, unsigned index, char *out,
		       size_t outlen)
{
	/* dir: fio's --aux-path; a job name may hold '/', which a file name
	 * cannot */
	int d = dir && *dir ? snprintf(out, outlen, "%s/", dir) : 0;
	if (d < 0 || (size_t)d >= outlen)
		d = 0;
	int n = d + snprintf(out + d, outlen - (size_t)d, "local-%s-%u-verify.state", name, index);
	for (int i = d + 6; i > 0 && i < n && (size_t)i < outlen; i++)
		if (out[i] == '/')
			out[i] = '_';
}

int verify_state_save(const char *path, const char *name, unsigned index,
		      const struct verify_saved *v, char *why, size_t whylen)
{
	char tmp[4200];
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	FILE *f;
	int orc = devguard_fopen(tmp, false, NULL, &f, why, whylen);
	if (orc < 0)
		return orc;
	fprintf(f, "%s\njob %s\nindex %u\nseed 0x%" PRIx64 "\nloop %u\nwrites %" PRIu64
		"\nseq %" PRIu64 "\ncomplete %d\n", STATE_MAGIC, name, index, v->seed, v->loop,
		v->writes, v->seq, v->complete ? 1 : 0);
	int rc = ferror(f) ? -EIO : 0;
	if (fclose(f) && !rc)
		rc = -errno;
	if (!rc && rename(tmp, path))
		rc = -errno;
	if (rc) {
		unlink(tmp);
		snprintf(why, whylen, "%s", strerror(-rc));
	}
	return rc;
}

static int bad(char *why, size_t whylen, const char *what)
{
	snprintf(why, whylen, "%s", what);
	return -EINVAL;
}

int verify_state_load(const char *path, const char *name, unsigned index,
		      struct verify_saved *v, char *why, size_t whylen)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -errno;
	char line[4200];
	unsigned seen = 0;
	int rc = 0;
	memset(v, 0, sizeof(*v));
	if (!fgets(line, sizeof(line), f) || strncmp(line, STATE_MAGIC, strlen(STATE_MAGIC))) {
		fclose(f);
		return bad(why, whylen, "not an iobench verify state file");
	}
	while (!rc && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		char *val = strchr(line, ' ');
		if (!val)
			continue;
		*val++ = 0;
		char *end;
		unsigned long long n = strtoull(val, &end, 0);
		bool num = *val && !*end;
		if (!strcmp(line, "job")) {
			if (strcmp(val, name))
				rc = bad(why, whylen, "saved by a job of another name");
			seen |= 1;
		} else if (!strcmp(line, "index") && num) {
			if (n != index)
				rc = bad(why, whylen, "saved by a job at another position in the run");
			seen |= 2;
		} else if (!strcmp(line, "seed") && num) {
			v->seed = n;
			seen |= 4;
		} else if (!strcmp(line, "loop") && num) {
			v->loop = (unsigned)n;
			seen |= 8;
		} else if (!strcmp(line, "writes") && num) {
			v->writes = n;
			seen |= 16;
		} else if (!strcmp(line, "seq") && num) {
			v->seq = n;
		} else if (!strcmp(line, "complete") && num) {
			v->complete = n != 0;
		} else {
			rc = bad(why, whylen, "malformed line");
		}
	}
	fclose(f);
	if (!rc && seen != 31)
		rc = bad(why, whylen, "incomplete (job, index, seed, loop and writes are needed)");
	return rc;
}
