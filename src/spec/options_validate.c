/*
 * Cross-option checks of a finished job spec: things no single option can
 * see (bs larger than size, bssplit shares, rwmix sum, min_bs > max_bs,
 * numjobs/iodepth/nrfiles 0, a directory that does not exist, filename count
 * versus nrfiles, time_based without runtime, rate minimums above their
 * caps or both kinds at once, sizes and offsets whose sums and products
 * with numjobs and nrfiles overflow, readonly=1 with writes).
 * Each problem names the options to blame so the job-file parser can point
 * at file:line:col.
 * check_sched() re-checks cpus_allowed/cpumask against this machine's CPUs
 * and refuses clocksource=cpu without an invariant TSC.
 */
#include "spec/options.h"
#include "spec/options_sched.h"
#include "util/array.h"
#include "util/checked.h"
#include "util/error.h"
#include "util/strutil.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

struct vstate {
	spec_problem_fn report;
	void *arg;
	const struct job_spec *s;
	int problems;
	unsigned flags; /* SPEC_VALIDATE_* */
};

__attribute__((format(printf, 3, 4)))
static void problem(struct vstate *v, const char *keys, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	v->problems++;
	if (v->report)
		v->report(v->arg, keys, msg);
	else
		error("job '%s'%s%s: %s", v->s->name ? v->s->name : "?",
		      v->s->origin ? " at " : "", v->s->origin ? v->s->origin : "", msg);
}

static void check_counts(struct vstate *v)
{
	const struct job_spec *s = v->s;
	if (!s->numjobs)
		problem(v, "numjobs", "numjobs must be at least 1");
	else if (s->numjobs > JOB_MAX_THREADS)
		problem(v, "numjobs", "numjobs=%u is more than %u, the most threads a run may have "
			"(as in fio): every clone is a thread with its own buffers and files",
			s->numjobs, JOB_MAX_THREADS);
	if (!s->iodepth)
		problem(v, "iodepth", "iodepth must be at least 1");
	if (!s->nrfiles)
		problem(v, "nrfiles", "nrfiles must be at least 1");
	if (!s->loops)
		problem(v, "loops", "loops must be at least 1");
	if (s->rwmix[0] + s->rwmix[1] != 100)
		problem(v, "rwmixread,rwmixwrite", "rwmixread (%u) and rwmixwrite (%u) do not add up to 100",
			s->rwmix[0], s->rwmix[1]);
	if (s->nr_percentiles > MAX_PERCENTILES)
		problem(v, "percentile_list", "more than %d percentiles", MAX_PERCENTILES);
}

static void check_block_sizes(struct vstate *v)
{
	const struct job_spec *s = v->s;
	static const unsigned dir_bit[DDIR_RWDIR_CNT] = { RW_READ, RW_WRITE, RW_TRIM };
	for (int d = 0; d < DDIR_RWDIR_CNT; d++) {
		if (!s->min_bs[d] || s->min_bs[d] > s->max_bs[d])
			problem(v, "bsrange,bs,bssplit", "%s block size range %llu-%llu is empty",
				ddir_name(d), (unsigned long long)s->min_bs[d], (unsigned long long)s->max_bs[d]);
		unsigned sum = 0;
		for (unsigned i = 0; i < s->nr_bssplit[d] && i < MAX_BSSPLIT; i++)
			sum += s->bssplit[d][i].perc;
		if (sum > 100)
			problem(v, "bssplit", "%s bssplit percentages add up to %u, more than 100", ddir_name(d), sum);
		if (!(s->rw & dir_bit[d]))
			continue;
		if (s->size && !s->size_pct && s->min_bs[d] > s->size) {
			problem(v, "bs,bsrange,bssplit|size", "%s block size %llu is larger than size %llu",
				ddir_name(d), (unsigned long long)s->min_bs[d], (unsigned long long)s->size);
			return;
		}
		if (s->filesize_max && s->min_bs[d] > s->filesize_max) {
			problem(v, "bs,bsrange,bssplit|filesize", "%s block size %llu is larger than filesize %llu",
				ddir_name(d), (unsigned long long)s->min_bs[d], (unsigned long long)s->filesize_max);
			return;
		}
	}
}

/* Every byte figure is a file position or a length within a file, so none
 * may pass the largest file offset (off_t is signed: 2^63-1), and neither
 * may the sums and products the run forms from them: the last clone's
 * offset (offset + (numjobs-1) * offset_increment), the end of its region
 * (+ the per-file size), and the bytes of all files of all clones
 * (numjobs * nrfiles * that). A wrap-around would make an absurd job look
 * small; 16e is refused by the size parser, 18446744073709551615 here. */
static void check_offsets(struct vstate *v)
{
	const struct job_spec *s = v->s;
	const struct { const char *key; uint64_t val; } one[] = {
		{ "size", s->size_pct ? 0 : s->size },
		{ "io_size", s->io_size },
		{ "filesize", s->filesize_max },
		{ "offset", s->offset_pct ? 0 : s->offset },
		{ "offset_increment", s->offset_increment },
	};
	bool bad = false;
	for (size_t i = 0; i < ARRAY_SIZE(one); i++)
		if (one[i].val > OFFSET_MAX) {
			problem(v, one[i].key, "%s=%llu is beyond the largest file offset, %llu "
				"(2^63-1)", one[i].key, (unsigned long long)one[i].val,
				(unsigned long long)OFFSET_MAX);
			bad = true;
		}
	if (bad)
		return;
	unsigned clones = s->numjobs ? s->numjobs : 1;
	unsigned files = s->nrfiles ? s->nrfiles : 1;
	uint64_t inc, last_off = 0, per_file, end, total;
	if (s->offset_increment && !s->offset_pct &&
	    (!ck_mul(s->offset_increment, clones - 1, &inc) ||
	     !ck_region_end(s->offset, inc, &last_off))) {
		problem(v, "offset_increment|numjobs", "offset_increment=%llu with numjobs=%u puts "
			"the last clone beyond the largest file offset, %llu (offset=%llu + %u * "
			"%llu)", (unsigned long long)s->offset_increment, clones,
			(unsigned long long)OFFSET_MAX, (unsigned long long)s->offset, clones - 1,
			(unsigned long long)s->offset_increment);
		return;
	}
	if (s->offset_pct)
		return; /* the rest depends on the file's size: checked at setup */
	if (!s->offset_increment)
		last_off = s->offset;
	per_file = s->filesize_max ? s->filesize_max : s->size_pct ? 0 : s->size / files;
	if (!ck_region_end(last_off, per_file, &end)) {
		problem(v, "size,filesize|offset,offset_increment", "the %s region (offset %llu, "
			"%llu bytes per file) ends beyond the largest file offset, %llu",
			clones > 1 ? "last clone's" : "job's",
			(unsigned long long)last_off, (unsigned long long)per_file,
			(unsigned long long)OFFSET_MAX);
		return;
	}
	if (!ck_mul(end, files, &total) || !ck_mul(total, clones, &total))
		problem(v, "numjobs,nrfiles|size,filesize", "numjobs=%u times nrfiles=%u files of up to "
			"%llu bytes is more than 2^64 bytes", clones, files, (unsigned long long)end);
}

/* readonly=1 refuses a job that writes: say so when the job is parsed
 * (also under --parse-only), where the option's line is known. */
static void check_readonly(struct vstate *v)
{
	const struct job_spec *s = v->s;
	if (!s->readonly)
		return;
	const char *name = s->name ? s->name : "?";
	if (s->rw & (RW_WRITE | RW_TRIM))
		problem(v, "readonly|rw", "job '%s' writes or trims, but read-only mode (readonly=1) "
			"forbids every write and trim", name);
	else if (s->unlink)
		problem(v, "readonly|unlink", "job '%s' deletes its files (unlink=1), but read-only "
			"mode (readonly=1) forbids every write", name);
}

/* Read-only mode (readonly=1, or --readonly for the whole run) means
 * iobench changes nothing: it runs no program (what a program does cannot
 * be held to read-only) and creates no file. Refused where the option is
 * written, before anything runs. */
static void check_readonly_runs(struct vstate *v)
{
	const struct job_spec *s = v->s;
	const char *by = s->readonly ? "readonly=1" : (v->flags & SPEC_VALIDATE_READONLY) ? "--readonly"
										    : NULL;
	if (!by)
		return;
	const char *name = s->name ? s->name : "?";
	if (s->ioengine && !strcmp(s->ioengine, "exec"))
		problem(v, "ioengine|readonly", "job '%s' runs a program (ioengine=exec), but read-only "
			"mode (%s) runs nothing that could change the system: iobench cannot hold a "
			"program to read-only", name, by);
	if (s->exec_prerun)
		problem(v, "exec_prerun|readonly", "job '%s' runs a command before its I/O "
			"(exec_prerun), but read-only mode (%s) runs nothing that could change the "
			"system: iobench cannot hold a command to read-only", name, by);
	if (s->exec_postrun)
		problem(v, "exec_postrun|readonly", "job '%s' runs a command after its I/O "
			"(exec_postrun), but read-only mode (%s) runs nothing that could change the "
			"system: iobench cannot hold a command to read-only", name, by);
	if (s->ioengine && !strcmp(s->ioengine, "e4defrag"))
		problem(v, "ioengine|readonly", "job '%s' uses ioengine=e4defrag, which creates a donor "
			"file and moves the job's blocks onto it, but read-only mode (%s) creates and "
			"writes nothing", name, by);
	if (s->mem_file)
		problem(v, "mem|readonly", "job '%s' maps its buffers on a file it creates (mem=...:%s), "
			"but read-only mode (%s) creates and writes nothing: leave the file out (mem=mmap "
			"maps anonymous memory)", name, s->mem_file, by);
}

/* fio 3.33: the working set's own blocks are unique, so they cap the share of duplicates */
static void check_dedupe(struct vstate *v)
{
	const struct job_spec *s = v->s;
	if (s->dedupe_working_set && s->dedupe_percentage &&
	    s->dedupe_percentage > 100 - s->dedupe_working_set_percentage)
		problem(v, "dedupe_percentage|dedupe_working_set_percentage",
			"job '%s': dedupe_percentage=%u cannot be reached: dedupe_working_set_percentage=%u "
			"of size is the working set, whose blocks are unique", s->name ? s->name : "?",
			s->dedupe_percentage, s->dedupe_working_set_percentage);
}

static void check_files(struct vstate *v)
{
	const struct job_spec *s = v->s;
	char **list;
	if (s->directory && *s->directory && !(v->flags & SPEC_VALIDATE_NO_FS)) {
		size_t n = str_split_escaped(s->directory, ':', &list);
		for (size_t i = 0; i < n; i++) {
			struct stat st;
			if (!*list[i])
				continue;
			if (stat(list[i], &st))
				problem(v, "directory", "directory '%s' does not exist", list[i]);
			else if (!S_ISDIR(st.st_mode))
				problem(v, "directory", "directory '%s' is not a directory", list[i]);
		}
		str_list_free(list);
	}
	if (s->filename) {
		size_t n = str_split_escaped(s->filename, ':', &list);
		size_t empty = 0;
		for (size_t i = 0; i < n; i++)
			empty += !*list[i];
		str_list_free(list);
		if (empty)
			problem(v, "filename", "filename '%s' has an empty file name", s->filename);
		else if (s->nrfiles > 1 && s->nrfiles != n)
			problem(v, "nrfiles|filename", "nrfiles=%u but filename lists %zu file%s",
				s->nrfiles, n, n == 1 ? "" : "s");
	}
}

static void check_sched(struct vstate *v)
{
	const struct job_spec *s = v->s;
	cpu_set_t set;
	char why[200];
	if (job_spec_cpuset(s, &set, why, sizeof(why)) < 0) {
		const char *key = s->cpus_allowed ? "cpus_allowed" : "cpumask";
		problem(v, key, "invalid CPU %s '%s' for option '%s': %s", s->cpus_allowed ? "list" : "mask",
			s->cpus_allowed ? s->cpus_allowed : s->cpumask, key, why);
	}
	if (s->clocksource == CLOCK_SRC_TSC && !clock_tsc_invariant(why, sizeof(why)))
		problem(v, "clocksource", "clocksource 'cpu' is not usable: %s", why);
}

/* rate_min= and rate_iops_min=: not both (as fio), and no minimum above
 * the cap of its direction. */
static void check_rates(struct vstate *v)
{
	const struct job_spec *s = v->s;
	bool bmin = false, imin = false;
	for (int d = 0; d < DDIR_RWDIR_CNT; d++) {
		bmin |= s->rate_min[d] != 0;
		imin |= s->rate_iops_min[d] != 0;
		if (s->rate[d] && s->rate_min[d] > s->rate[d])
			problem(v, "rate_min|rate", "rate_min=%llu B/s is above rate=%llu B/s for %ss",
				(unsigned long long)s->rate_min[d], (unsigned long long)s->rate[d],
				ddir_name((enum ddir)d));
		if (s->rate_iops[d] && s->rate_iops_min[d] > s->rate_iops[d])
			problem(v, "rate_iops_min|rate_iops", "rate_iops_min=%llu is above rate_iops=%llu for %ss",
				(unsigned long long)s->rate_iops_min[d], (unsigned long long)s->rate_iops[d],
				ddir_name((enum ddir)d));
	}
	if (bmin && imin)
		problem(v, "rate_iops_min,rate_min", "rate_min and rate_iops_min are mutually exclusive (as in fio)");
}

/* fio's two refusals: zonesize without a zone mode, strided without zonesize */
static void check_zones(struct vstate *v)
{
	const struct job_spec *s = v->s;
	if (s->zonemode == ZONEMODE_NONE && s->zonesize)
		problem(v, "zonemode|zonesize", "zonesize=%llu needs zonemode=strided or zbd (as fio: "
			"zonemode=none and zonesize are not compatible)", (unsigned long long)s->zonesize);
	if (s->zonemode == ZONEMODE_STRIDED && !s->zonesize)
		problem(v, "zonemode|zonesize", "zonemode=strided needs zonesize (the bytes of I/O per zone)");
}

int job_spec_validate(const struct job_spec *s, spec_problem_fn report, void *arg)
{
	return job_spec_validate_flags(s, 0, report, arg);
}

int job_spec_validate_flags(const struct job_spec *s, unsigned flags, spec_problem_fn report, void *arg)
{
	struct vstate v = { .report = report, .arg = arg, .s = s, .flags = flags };
	check_counts(&v);
	check_block_sizes(&v);
	check_offsets(&v);
	check_readonly(&v);
	check_readonly_runs(&v);
	check_dedupe(&v);
	check_files(&v);
	check_sched(&v);
	check_rates(&v);
	check_zones(&v);
	return v.problems ? -EINVAL : 0;
}
