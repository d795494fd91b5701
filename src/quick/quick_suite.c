/*
 * quick's rows (quick_suite.h) and the job spec of each, set through the
 * option table as a job file would set them.
 */
#include "quick/quick_suite.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "engines/engine.h"
#include "spec/options.h"
#include "util/error.h"

const struct quick_test quick_tests[] = {
	{ "SEQ1M Q8T1", "read", "1m", "8", true },
	{ "SEQ1M Q8T1", "write", "1m", "8", false },
	{ "SEQ1M Q1T1", "read", "1m", "1", true },
	{ "SEQ1M Q1T1", "write", "1m", "1", false },
	{ "RND4K Q32T1", "randread", "4k", "32", true },
	{ "RND4K Q32T1", "randwrite", "4k", "32", false },
	{ "RND4K Q1T1", "randread", "4k", "1", true },
	{ "RND4K Q1T1", "randwrite", "4k", "1", false },
};

const struct quick_dev_test quick_dev_tests[] = {
	{ "hdparm -t", "hdparm-t-buffered", "read", "2m", "1", false, true, false },
	{ "hdparm -t --direct", "hdparm-t-direct", "read", "2m", "1", false, true, true },
	{ "SEQ1M Q8T1", "1m-read-q8", "read", "1m", "8", false, false, false },
	{ "SEQ1M Q8T1", "1m-write-q8", "write", "1m", "8", true, false, false },
	{ "SEQ1M Q1T1", "1m-read-q1", "read", "1m", "1", false, false, false },
	{ "SEQ1M Q1T1", "1m-write-q1", "write", "1m", "1", true, false, false },
	{ "RND4K Q32T1", "4k-randread-q32", "randread", "4k", "32", false, false, false },
	{ "RND4K Q32T1", "4k-randwrite-q32", "randwrite", "4k", "32", true, false, false },
	{ "RND4K Q1T1", "4k-randread-q1", "randread", "4k", "1", false, false, false },
	{ "RND4K Q1T1", "4k-randwrite-q1", "randwrite", "4k", "1", true, false, false },
};

static int set(struct job_spec *s, const char *k, const char *v)
{
	char why[256];
	int rc = option_set(s, k, v, why, sizeof(why));
	if (rc < 0)
		error("quick: %s", why);
	return rc;
}

bool quick_engine_sync(const char *name)
{
	const struct engine_ops *e = engine_find(name);
	return e && (e->flags & ENGINE_SYNC);
}

int quick_dir_jobs(struct job_list *l, const char *path, const char *size, const char *runtime,
		   const char *engine, bool direct, bool flush, bool *ran)
{
	bool sync = quick_engine_sync(engine);
	for (size_t i = 0; i < QUICK_NR_TESTS; i++) {
		const struct quick_test *t = &quick_tests[i];
		ran[i] = !sync || !strcmp(t->depth, "1");
		if (!ran[i])
			continue;
		struct job_spec *s = job_list_add(l); /* starts with fio's defaults */
		char name[32];
		snprintf(name, sizeof(name), "%s-%s-q%s", t->bs, t->rw, t->depth);
		if (set(s, "name", name) || set(s, "filename", path) || set(s, "size", size) ||
		    set(s, "rw", t->rw) || set(s, "bs", t->bs) || set(s, "iodepth", t->depth) ||
		    set(s, "runtime", runtime) || set(s, "time_based", NULL) ||
		    set(s, "ioengine", engine) || set(s, "direct", direct ? "1" : "0") ||
		    set(s, "stonewall", NULL) || set(s, "overwrite", "1") ||
		    (flush && !t->is_read && set(s, "end_fsync", "1")))
			return -EINVAL;
		job_spec_finalize(s);
		if (job_spec_validate(s, NULL, NULL) < 0)
			return -EINVAL;
	}
	return 0;
}

int quick_dev_job(struct job_list *l, const struct quick_dev_test *t, const char *path,
		  uint64_t region, bool direct, const char *engine, const char *runtime)
{
	char size[32];
	snprintf(size, sizeof(size), "%llu", (unsigned long long)region);
	bool odirect = t->hdparm ? t->direct : direct;
	struct job_spec *s = job_list_add(l);
	if (set(s, "name", t->name) || set(s, "filename", path) || set(s, "size", size) ||
	    set(s, "rw", t->rw) || set(s, "bs", t->bs) || set(s, "iodepth", t->depth) ||
	    set(s, "runtime", runtime) || set(s, "ioengine", t->hdparm ? "psync" : engine) ||
	    set(s, "direct", odirect ? "1" : "0") || set(s, "stonewall", NULL) ||
	    (!t->hdparm && set(s, "time_based", NULL)))
		return -EINVAL;
	job_spec_finalize(s);
	return job_spec_validate(s, NULL, NULL) < 0 ? -EINVAL : 0;
}

int quick_cached_job(struct job_list *l, const char *path, const char *runtime)
{
	struct job_spec *s = job_list_add(l);
	if (set(s, "name", "hdparm-T-cached") || set(s, "filename", path) ||
	    set(s, "size", "2m") || set(s, "rw", "read") || set(s, "bs", "2m") ||
	    set(s, "ioengine", "psync") || set(s, "direct", "0") || set(s, "invalidate", "0") ||
	    set(s, "time_based", NULL) || set(s, "runtime", runtime) ||
	    set(s, "ramp_time", "200ms"))
		return -EINVAL;
	job_spec_finalize(s);
	return job_spec_validate(s, NULL, NULL) < 0 ? -EINVAL : 0;
}
