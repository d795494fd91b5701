/*
 * The fio-syntax job-file parser end to end: global inheritance and several
 * [global] sections, flags, comments, include and include loops, ${ENV},
 * $ncpus/$mb_memory/$pagesize, arithmetic, name=, several files (stonewall),
 * the command-line form, --set overrides, error collection with line:col,
 * the option table's defaults, the job files of tests/data/seed003, and random bytes
 * (no crash, no partial jobs).
 */
#include "check.h"
#include "jobfile/jobfile.h"
#include "sys/sysmem.h"
#include "util/xmalloc.h"
#include "engines/engine.h"
#include "spec/options.h"
#include "spec/verify_opts.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/iobench-jobfile-XXXXXX";

static char *write_file(const char *name, const char *text)
{
	char *path = xasprintf("%s/%s", tmpdir, name);
	FILE *f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(1);
	}
	fputs(text, f);
	fclose(f);
	return path;
}

/* Run fn with stderr captured into err. */
static int capture(char *err, size_t errlen, int (*fn)(void *), void *arg)
{
	fflush(stderr);
	int saved = dup(2);
	FILE *tmp = tmpfile();
	dup2(fileno(tmp), 2);
	int ret = fn(arg);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	size_t n = fread(err, 1, errlen - 1, tmp);
	err[n] = '\0';
	fclose(tmp);
	return ret;
}

struct pf {
	const char *path;
	unsigned idx;
	struct job_list *l;
	const struct jobfile_ctx *ctx;
	int argc;
	char **argv;
};

static int do_file(void *a)
{
	struct pf *p = a;
	return jobfile_parse_file(p->path, p->idx, p->l, p->ctx);
}

static int do_args(void *a)
{
	struct pf *p = a;
	return jobfile_parse_args(p->argc, p->argv, p->l, p->ctx);
}

static char errbuf[16384];

/* Parse text written to NAME; stderr goes to errbuf. */
static int parse_text(const char *name, const char *text, unsigned idx, struct job_list *l,
		      const struct jobfile_ctx *ctx)
{
	char *path = write_file(name, text);
	struct pf p = { .path = path, .idx = idx, .l = l, .ctx = ctx };
	int ret = capture(errbuf, sizeof(errbuf), do_file, &p);
	free(path);
	return ret;
}

static unsigned count_lines(const char *s)
{
	unsigned n = 0;
	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static const char *opt_value(const struct job_kv *kv, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(kv[i].key, key))
			return kv[i].value ? kv[i].value : "(flag)";
	return NULL;
}

static void test_globals(void)
{
	struct job_list l = { 0 };
	int ret = parse_text("g.fio",
		"; leading comment\n"
		"# another\n"
		"[global]\n"
		"ioengine=null\n"
		"bs=8k   ; inline comment\n"
		"size=1m # inline too\n"
		"[a]\n"
		"rw=write\n"
		"[b]\n"
		"bs=16k\n"
		"group_reporting\n"
		"[global]\n"
		"iodepth=4\n"
		"[c]\n"
		"name=renamed\n", 0, &l, NULL);
	CHECK(ret == 3 && l.nr == 3, "three jobs: ret %d nr %zu err %s", ret, l.nr, errbuf);
	if (l.nr != 3)
		goto out;
	CHECK(!strcmp(l.jobs[0].name, "a") && !strcmp(l.jobs[2].name, "renamed"), "names");
	CHECK(!strcmp(l.jobs[0].ioengine, "null") && !strcmp(l.jobs[2].ioengine, "null"), "global ioengine");
	CHECK(l.jobs[0].bs[DDIR_WRITE] == 8192 && l.jobs[1].bs[DDIR_READ] == 16384, "bs inherited and overridden");
	CHECK(l.jobs[0].rw == RW_WRITE && l.jobs[1].rw == RW_READ, "rw");
	CHECK(l.jobs[0].size == 1048576, "size with comment");
	CHECK(l.jobs[1].group_reporting && !l.jobs[0].group_reporting, "bare flag");
	CHECK(l.jobs[0].iodepth == 1 && l.jobs[2].iodepth == 4, "second global only for jobs after it");
	CHECK(l.jobs[2].iodepth_low == 4 && l.jobs[2].iodepth_batch == 1 &&
	      l.jobs[2].iodepth_batch_complete_max == 1, "finalized depths");
	CHECK(!l.jobs[0].stonewall, "no stonewall in file 0");
	CHECK(l.jobs[0].origin && strstr(l.jobs[0].origin, "g.fio:7"), "origin %s", l.jobs[0].origin);
	CHECK(l.nr_global_opts == 4 && !strcmp(l.global_opts[0].key, "ioengine") &&
	      !strcmp(l.global_opts[1].value, "8k"), "global options echo: %zu", l.nr_global_opts);
	CHECK(l.jobs[1].nr_opts == 2 && !strcmp(opt_value(l.jobs[1].opts, 2, "group_reporting"), "(flag)") &&
	      !strcmp(opt_value(l.jobs[1].opts, 2, "bs"), "16k"), "job options echo");
	CHECK(l.jobs[2].nr_opts == 1 && !strcmp(l.jobs[2].opts[0].key, "name"), "name echoed");
out:
	job_list_release(&l);
}

static void test_values(void)
{
	struct job_list l = { 0 };
	setenv("IOB_TEST_BS", "2k", 1);
	unsetenv("IOB_TEST_UNSET");
	int ret = parse_text("v.fio",
		"[v]\n"
		"size=4KiB\n"
		"bs=4k\n"
		"kb_base=1000\n"
		"rw=read:-8k\n"
		"rwmixwrite=30\n"
		"bssplit=4k/50:1k/:32k/,8k\n"
		"percentile_list=99.5:99.9\n"
		"description=x${IOB_TEST_UNSET}y\n"
		"blocksize_range=${IOB_TEST_BS}-64k\n"
		"numjobs=$ncpus\n"
		"offset=($mb_memory*2)m\n"
		"blockalign=$pagesize\n"
		"iodepth=((2+3)*2)\n"
		"io_size=(2^10)k\n"
		"runtime=(1500000)\n"
		"ramp_time=2m\n"
		"bwavgtime=250\n"
		"startdelay=1-3\n"
		"random_distribution=zipf:1.2\n"
		"rate=1m,500k\n"
		"rate_iops=,100\n"
		"fallocate=keep\n"
		"buffered=0\n"
		"sync=1\n"
		"unified_rw_reporting=mixed\n"
		"randseed=42\n"
		"filesize=1m:2m\n"
		"time_based\n"
		"directory=/tmp\n", 0, &l, NULL);
	CHECK(ret == 1, "values parse: %s", errbuf);
	if (l.nr != 1)
		goto out;
	const struct job_spec *s = &l.jobs[0];
	CHECK(s->size == 4096, "kb_base applies to the whole section: size %llu", (unsigned long long)s->size);
	CHECK(s->rw == RW_READ && s->rw_seq_skip == -8000, "rw modifier %lld", (long long)s->rw_seq_skip);
	CHECK(s->rwmix[0] == 70 && s->rwmix[1] == 30, "rwmix");
	CHECK(!strcmp(s->description, "xy"), "unset env is empty");
	CHECK(s->min_bs[0] == 2000 && s->max_bs[0] == 64000, "env expanded in bsrange: %llu", (unsigned long long)s->min_bs[0]);
	CHECK(s->nr_bssplit[0] == 0, "bsrange after bssplit resets the split");
	CHECK(s->numjobs == sys_ncpus(), "$ncpus");
	CHECK(s->offset == (sys_mem_bytes() >> 20) * 2 * 1000000ULL, "$mb_memory arithmetic: %llu", (unsigned long long)s->offset);
	CHECK(s->blockalign[0] == sys_pagesize() && s->blockalign[2] == sys_pagesize(), "$pagesize");
	CHECK(s->iodepth == 10, "nested arithmetic");
	CHECK(s->io_size == 1024000, "power with suffix: %llu", (unsigned long long)s->io_size);
	CHECK(s->runtime == 1500000000ULL, "time expression is in us: %llu", (unsigned long long)s->runtime);
	CHECK(s->ramp_time == 120000000000ULL, "ramp_time 2m");
	CHECK(s->bw_avg_time == 250000000ULL, "bwavgtime default unit ms");
	CHECK(s->startdelay_min == 1000000000ULL && s->startdelay_max == 3000000000ULL, "startdelay range");
	CHECK(s->random_distribution == DIST_ZIPF && s->dist_param == 1.2, "zipf");
	CHECK(s->rate[0] == 1000000 && s->rate[1] == 500000 && s->rate[2] == 500000, "rate per direction");
	CHECK(s->rate_iops[0] == 0 && s->rate_iops[1] == 100, "rate_iops per direction");
	CHECK(s->fallocate == FALLOC_KEEP && s->direct && s->sync_io && s->unified_rw_reporting, "misc");
	CHECK(s->randseed == 42 && s->randseed_set, "randseed");
	CHECK(s->filesize_min == 1000000 && s->filesize_max == 2000000, "filesize range");
	CHECK(s->nr_percentiles == 2 && s->percentile_list[1] == 99.9, "percentiles");
	job_list_release(&l);

	ret = parse_text("v2.fio", "[s]\nbssplit=4k/50:1k/:32k/,8k\nrw=randrw:8\n", 0, &l, NULL);
	CHECK(ret == 1, "bssplit parse: %s", errbuf);
	if (l.nr == 1) {
		s = &l.jobs[0];
		CHECK(s->nr_bssplit[0] == 3 && s->bssplit[0][0].perc == 50 && s->bssplit[0][1].perc == 0 &&
		      s->min_bs[0] == 1024 && s->max_bs[0] == 32768, "bssplit read");
		CHECK(s->nr_bssplit[1] == 1 && s->bssplit[1][0].bs == 8192 && s->nr_bssplit[2] == 1, "bssplit write/trim");
		CHECK(s->rw == (RW_READ | RW_WRITE | RW_RAND) && s->rw_seq_nr == 8, "randrw:8");
	}
out:
	job_list_release(&l);
}

static void test_include(void)
{
	struct job_list l = { 0 };
	char *p = write_file("inc-common.fio", "ioengine=null\nbs=64k\n");
	free(p);
	int ret = parse_text("inc.fio", "[global]\ninclude inc-common.fio\n[a]\nrw=write\n", 0, &l, NULL);
	CHECK(ret == 1 && l.nr == 1 && l.jobs[0].bs[0] == 65536 && !strcmp(l.jobs[0].ioengine, "null"),
	      "include pulls options in: %s", errbuf);
	job_list_release(&l);

	p = write_file("loop-b.fio", "include loop-a.fio\n");
	free(p);
	ret = parse_text("loop-a.fio", "[a]\nrw=read\ninclude loop-b.fio\n", 0, &l, NULL);
	CHECK(ret == -EINVAL && l.nr == 0, "include loop fails");
	CHECK(count_lines(errbuf) == 1 && strstr(errbuf, "loop-b.fio:1:9: error: include loop"), "loop message: %s", errbuf);

	ret = parse_text("inc-missing.fio", "[a]\ninclude nothere.fio\n", 0, &l, NULL);
	CHECK(ret == -EINVAL && strstr(errbuf, "inc-missing.fio:2:9: error: cannot open include file"), "missing include: %s", errbuf);
	job_list_release(&l);
}

/* Only regular files are read: a FIFO (no writer: it would block forever),
 * a directory and /dev/zero (endless) are refused at once, with the
 * include's file:line:col, or naming the job file given. */
static void test_not_regular(void)
{
	struct job_list l = { 0 };
	char *fifo = xasprintf("%s/inc.fifo", tmpdir), *dir = xasprintf("%s/inc.dir", tmpdir);
	CHECK(mkfifo(fifo, 0600) == 0 && mkdir(dir, 0700) == 0, "a FIFO and a directory");
	alarm(10); /* a hang fails the test instead of blocking it */
	static const char *const inc[][2] = { { "include inc.fifo", "is a FIFO" },
					       { "include inc.dir", "is a directory" },
					       { "include /dev/zero", "is a character device" } };
	for (size_t i = 0; i < 3; i++) {
		char *text = xasprintf("[a]\nrw=read\n%s\n", inc[i][0]);
		int ret = parse_text("nreg.fio", text, 0, &l, NULL);
		CHECK(ret == -EINVAL && strstr(errbuf, "nreg.fio:3:9: error: include file") &&
		      strstr(errbuf, inc[i][1]) && strstr(errbuf, "not a regular file"),
		      "'%s' is refused at 3:9: %s", inc[i][0], errbuf);
		job_list_release(&l);
		free(text);
	}
	const char *given[][2] = { { fifo, "is a FIFO" }, { dir, "is a directory" },
				   { "/dev/zero", "is a character device" } };
	for (size_t i = 0; i < 3; i++) {
		struct pf a = { .path = given[i][0], .l = &l };
		int ret = capture(errbuf, sizeof(errbuf), do_file, &a);
		CHECK(ret == -EINVAL && strstr(errbuf, given[i][0]) && strstr(errbuf, given[i][1]),
		      "the job file %s is refused: %s", given[i][0], errbuf);
		job_list_release(&l);
	}
	alarm(0);
	unlink(fifo);
	rmdir(dir);
	free(fifo);
	free(dir);
}

static void test_multi_and_set(void)
{
	struct job_list l = { 0 };
	const char *sets[] = { "bs=64k", "ioengine=null" };
	struct jobfile_ctx ctx = { .set_opts = sets, .nr_set = 2 };
	int ret = parse_text("m0.fio", "[global]\nsize=1m\n[a]\nbs=4k\n", 0, &l, &ctx);
	CHECK(ret == 1, "file 0: %s", errbuf);
	ret = parse_text("m1.fio", "[global]\nsize=2m\n[b]\n[c]\n", 1, &l, &ctx);
	CHECK(ret == 2 && l.nr == 3, "file 1: %s", errbuf);
	if (l.nr == 3) {
		CHECK(!l.jobs[0].stonewall && l.jobs[1].stonewall && !l.jobs[2].stonewall, "stonewall between files");
		CHECK(l.jobs[0].bs[0] == 65536 && l.jobs[2].bs[1] == 65536, "--set wins over the job");
		CHECK(!strcmp(l.jobs[1].ioengine, "null"), "--set ioengine");
		CHECK(l.jobs[1].size == 2097152 && l.jobs[0].size == 1048576, "globals stay per file");
		CHECK(l.nr_global_opts == 1 && !strcmp(l.global_opts[0].value, "1m"), "only file 0 globals echoed");
	}
	/* a failing file adds nothing */
	size_t before = l.nr;
	ret = parse_text("m2.fio", "[d]\nbs=1k\n[e]\nbs=zz\n", 2, &l, &ctx);
	CHECK(ret == -EINVAL && l.nr == before, "failed file adds no job");
	job_list_release(&l);

	const char *badset[] = { "blocksiz=4k" };
	struct jobfile_ctx bctx = { .set_opts = badset, .nr_set = 1 };
	ret = parse_text("m3.fio", "[a]\n[b]\n", 0, &l, &bctx);
	CHECK(ret == -EINVAL && count_lines(errbuf) == 1 && strstr(errbuf, "<--set>:1:1: error: unknown option 'blocksiz' (did you mean 'bs'?)"),
	      "bad --set reported once: %s", errbuf);
	job_list_release(&l);
}

static void test_cmdline(void)
{
	struct job_list l = { 0 };
	char *argv[] = { "--ioengine=null", "--name=a", "--rw=randread", "--bs=8k", "--name=b",
			 "--group_reporting", "--size=(1+1)m" };
	struct pf p = { .l = &l, .argc = 7, .argv = argv };
	int ret = capture(errbuf, sizeof(errbuf), do_args, &p);
	CHECK(ret == 2 && l.nr == 2, "cmdline jobs: %s", errbuf);
	if (l.nr == 2) {
		CHECK(!strcmp(l.jobs[0].name, "a") && !strcmp(l.jobs[1].ioengine, "null"), "cmdline global");
		CHECK(l.jobs[0].rw == (RW_READ | RW_RAND) && l.jobs[0].bs[0] == 8192, "cmdline options");
		CHECK(l.jobs[1].group_reporting && l.jobs[1].size == 2097152, "cmdline flag and arithmetic");
		CHECK(l.nr_global_opts == 1, "cmdline globals echoed");
	}
	job_list_release(&l);

	/* the job-file variables work on the command line too */
	char *vars[] = { "--name=v", "--number_ios=($ncpus*3+1)", "--size=${IOBENCH_TEST_UNSET_VAR}1m" };
	p = (struct pf){ .l = &l, .argc = 3, .argv = vars };
	ret = capture(errbuf, sizeof(errbuf), do_args, &p);
	CHECK(ret == 1 && l.nr == 1 && l.jobs[0].number_ios == sys_ncpus() * 3 + 1 &&
	      l.jobs[0].size == 1048576, "cmdline $ncpus and ${VAR}: %s", errbuf);
	job_list_release(&l);

	char *bad[] = { "--name=a", "--bs=abc", "rw=read", "--blocksiz=4k" };
	p = (struct pf){ .l = &l, .argc = 4, .argv = bad };
	ret = capture(errbuf, sizeof(errbuf), do_args, &p);
	CHECK(ret == -EINVAL && l.nr == 0 && count_lines(errbuf) == 3, "cmdline errors: %s", errbuf);
	CHECK(strstr(errbuf, "<command line>:2:6: error: invalid block size 'abc' for option 'bs'") &&
	      strstr(errbuf, "<command line>:3:1: error: expected --option=value") &&
	      strstr(errbuf, "<command line>:4:3: error: unknown option 'blocksiz' (did you mean 'bs'?)"),
	      "cmdline locations: %s", errbuf);
	job_list_release(&l);
}

static void test_errors(void)
{
	struct job_list l = { 0 };
	int ret = parse_text("x.fio",
		"rw=read\n"                 /* 1: outside a section */
		"[a]\n"
		"   blocksiz=4k\n"          /* 3:4 */
		"[b]\n"
		"size=abc\n"                /* 5:6 */
		"profile=tiobench\n"         /* 6:1 */
		"[c\n"                      /* 7:1 */
		"[d]\n"
		"size=4k\n"
		"bs=8k\n"                   /* 10:4 bs > size */
		"ioengine=rdma\n"           /* 11:10 */
		"numjobs=0\n", 0, &l, NULL); /* 12:9 */
	CHECK(ret == -EINVAL && l.nr == 0, "errors fail the file");
	CHECK(count_lines(errbuf) == 8, "all errors reported: %s", errbuf);
	CHECK(strstr(errbuf, "x.fio:1:1: error: option 'rw' is outside a section"), "outside");
	CHECK(strstr(errbuf, "x.fio:3:4: error: unknown option 'blocksiz' (did you mean 'bs'?)\n"), "suggestion");
	CHECK(strstr(errbuf, "x.fio:5:6: error: invalid size 'abc' for option 'size'"), "bad size");
	CHECK(strstr(errbuf, "x.fio:6:1: error: option 'profile' is a fio option that iobench does not implement yet\n"), "fio option");
	CHECK(strstr(errbuf, "x.fio:7:1: error: unterminated section header"), "header");
	CHECK(strstr(errbuf, "x.fio:10:4: error: read block size 8192 is larger than size 4096"), "bs > size at bs");
	CHECK(strstr(errbuf, "x.fio:11:10: error: ioengine 'rdma' is a fio external engine (libibverbs and librdmacm) that iobench does not provide"), "engine");
	CHECK(strstr(errbuf, "x.fio:12:9: error: invalid number '0' for option 'numjobs'"), "numjobs 0");

	ret = parse_text("empty.fio", "; nothing\n[global]\nbs=4k\n", 0, &l, NULL);
	CHECK(ret == -EINVAL && strstr(errbuf, "empty.fio:1:1: error: no jobs defined"), "no jobs: %s", errbuf);
	ret = parse_text("bad2.fio", "[a]\nbssplit=4k/60:8k/50\n", 0, &l, NULL);
	CHECK(ret == -EINVAL && strstr(errbuf, "bad2.fio:2:9: error: invalid block size split") &&
	      strstr(errbuf, "more than 100"), "bssplit over 100: %s", errbuf);
	ret = parse_text("bad3.fio", "[a]\nfilename=a:b\nnrfiles=3\n", 0, &l, NULL);
	CHECK(ret == -EINVAL && strstr(errbuf, "bad3.fio:3:9: error: nrfiles=3 but filename lists 2 files"), "nrfiles: %s", errbuf);
	ret = parse_text("bad4.fio", "[a]\ndirect=maybe\n", 0, &l, NULL);
	CHECK(ret == -EINVAL && strstr(errbuf, "bad4.fio:2:8: error: invalid boolean 'maybe' for option 'direct'"), "bool: %s", errbuf);
	ret = parse_text("bad5.fio", "[a]\nruntime=10x\niodepth=(1/0)\n", 0, &l, NULL);
	CHECK(ret == -EINVAL && strstr(errbuf, "bad5.fio:2:9: error: invalid time '10x'") &&
	      strstr(errbuf, "bad5.fio:3:9: error: invalid arithmetic expression '(1/0)'"), "time/arith: %s", errbuf);
	CHECK(parse_text("bad6.fio", "[a]\nsize=-1m\n", 0, &l, NULL) == -EINVAL &&
	      strstr(errbuf, "negative"), "negative size: %s", errbuf);
	CHECK(parse_text("bad7.fio", "[a]\nioengine=psnyc\n", 0, &l, NULL) == -EINVAL &&
	      strstr(errbuf, "(did you mean 'psync'?)"), "engine suggestion: %s", errbuf);
	CHECK(l.nr == 0, "nothing kept");
	/* as fio: time_based without a runtime is dropped (a warning at setup), not an error */
	CHECK(parse_text("tb.fio", "[a]\ntime_based\n", 0, &l, NULL) == 1 && l.nr == 1 &&
	      !l.jobs[0].time_based && l.jobs[0].time_based_dropped, "time_based without runtime: %s", errbuf);
	job_list_release(&l);

	struct pf p = { .path = "/nonexistent/job.fio", .l = &l };
	CHECK(capture(errbuf, sizeof(errbuf), do_file, &p) == -EINVAL &&
	      !strcmp(errbuf, "/nonexistent/job.fio: error: cannot open: No such file or directory\n"), "missing file: %s", errbuf);
	job_list_release(&l);
}

/* Is word in text as a word of its own (not inside a longer one)? */
static bool names_word(const char *text, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = text; (p = strstr(p, word)); p++) {
		char before = p == text ? ' ' : p[-1], after = p[n];
		bool in_b = isalnum((unsigned char)before) || before == '_' || before == '-';
		bool in_a = isalnum((unsigned char)after) || after == '_' || after == '-';
		if (!in_b && !in_a)
			return true;
	}
	return false;
}

/* The words of the OPT_WORD rows (the job table's and the engines'): each
 * once, each listed one named by the row's help as printed and the row's
 * own help text spelling at most one of them (the words come from the
 * list, not from a help text that can drift from it), a bool field's
 * values 0 and 1, the default one of them; a bad word's message names them all. */
static void check_word_rows(const struct option_def *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct option_def *o = &rows[i];
		if (o->type != OPT_WORD && !o->posval)
			continue;
		CHECK(o->posval && o->posval[0].word, "'%s' has words", o->name);
		CHECK(o->type != OPT_WORD || o->width == 1 || o->width == 4, "'%s': width %u", o->name,
		      o->width);
		char help[2048];
		optdef_help(o, help, sizeof(help));
		unsigned spelt = 0;
		for (const struct opt_posval *p = o->posval; p && p->word; p++) {
			spelt += !p->unlisted && strlen(p->word) > 1 && names_word(o->help, p->word);
			for (const struct opt_posval *q = o->posval; q != p; q++)
				CHECK(strcasecmp(q->word, p->word), "'%s': '%s' twice", o->name, p->word);
			CHECK(p->unlisted || names_word(help, p->word), "'%s': help does not name '%s'",
			      o->name, p->word);
			CHECK(o->width != 1 || p->value == 0 || p->value == 1, "'%s=%s': %d in a bool",
			      o->name, p->word, p->value);
		}
		CHECK(spelt <= 1, "'%s': its help spells %u of its words by hand: \"%s\"", o->name,
		      spelt, o->help);
		CHECK(!o->def || optdef_word_n(o, o->def, strcspn(o->def, ":")),
		      "'%s': default '%s' is no word of it (before any ':')", o->name,
		      o->def);
	}
}

static void test_table_words(void)
{
	check_word_rows(option_table, option_table_len);
	const struct engine_ops *e;
	for (size_t i = 0; (e = engine_at(i)); i++)
		check_word_rows(e->options, e->nr_options);
	struct job_spec t;
	char why[256];
	job_spec_defaults(&t);
	CHECK(option_set(&t, "fallocate", "bogus", why, sizeof(why)) == -EINVAL &&
	      !strcmp(why, "invalid value 'bogus' for option 'fallocate': use none, native, posix, "
		      "keep or truncate"), "fallocate's message: %s", why);
	CHECK(option_set(&t, "fallocate", "1", why, sizeof(why)) == 0 && t.fallocate == FALLOC_POSIX,
	      "an unlisted spelling is taken");
	CHECK(option_set(&t, "verify", "x", why, sizeof(why)) == -EINVAL &&
	      !strncmp(why, "invalid verify type 'x' for option 'verify': expected crc32c, ", 61),
	      "verify's message: %s", why);
	CHECK(option_set(&t, "verify", "MD5", why, sizeof(why)) == 0 && t.verify == VERIFY_MD5,
	      "words match in any case");
	CHECK(option_set(&t, "exit_what", "ALL", why, sizeof(why)) == -EINVAL &&
	      option_set(&t, "exit_what", "all", why, sizeof(why)) == 0 &&
	      t.exit_what == EXIT_WHAT_ALL, "exit_what's only as written, as fio's");
	CHECK(option_set(&t, "io_submit_mode", "offload", why, sizeof(why)) == 0 &&
	      t.io_submit_offload, "a word into a bool");
	CHECK(!strcmp(verify_type_name(VERIFY_NONE), "0") &&
	      !strcmp(verify_type_name(VERIFY_CRC32C), "crc32c") &&
	      !strcmp(verify_type_name((enum verify_type)99), "?"), "verify type names");
	job_spec_release(&t);
}

/* job_spec_defaults() is the table's defaults: each row's def, given
 * again, parses and leaves its field as it is; a def_doc row's field is
 * left zero (its def says what that means). */
static void test_table_defaults(void)
{
	struct job_spec d, t;
	char why[256];
	job_spec_defaults(&d);
	CHECK(d.kb_base == 1024 && d.iodepth == 1 && d.bs[0] == 4096 && d.rw == RW_READ &&
	      d.ioengine && !strcmp(d.ioengine, "psync") && d.nr_percentiles == 17 &&
	      d.ioprio == -1 && !d.iodepth_set && !d.bw_avg_time_set && !d.filename_format,
	      "fio's defaults");
	for (size_t i = 0; i < option_table_len; i++) {
		const struct option_def *o = &option_table[i];
		if (o->def_doc) {
			CHECK(o->type == OPT_STR && !*(char **)((char *)&d + o->off),
			      "'%s': a default that is only documented leaves its field NULL", o->name);
			continue;
		}
		if (!o->def)
			continue;
		job_spec_defaults(&t);
		int ret = option_set(&t, o->name, o->def, why, sizeof(why));
		CHECK(ret == 0, "default of '%s' (%s) parses: %s", o->name, o->def, why);
		if (o->type == OPT_STR) {
			const char *a = *(char **)((char *)&t + o->off), *b = *(char **)((char *)&d + o->off);
			CHECK(a && b && !strcmp(a, b), "default of '%s' (%s) stored", o->name, o->def);
		} else if (o->type != OPT_FUNC) {
			size_t w = o->type == OPT_BOOL ? sizeof(bool) : o->type == OPT_UINT ? o->width : 8;
			CHECK(!memcmp((char *)&t + o->off, (char *)&d + o->off, w),
			      "default of '%s' (%s) stored", o->name, o->def);
		}
		job_spec_release(&t);
		CHECK(option_find(o->name) == o, "find '%s'", o->name);
		/* the faulty engine's options are iobench's own */
		bool own = !strncmp(o->name, "faulty_", 7);
		CHECK(option_is_fio(o->name) != own, "'%s' is %s", o->name,
		      own ? "not a fio option name" : "a fio option name too");
	}
	job_spec_release(&d);
	CHECK(option_find("blocksize") == option_find("bs") && option_find("readwrite") == option_find("rw"), "aliases");
	CHECK(option_is_fio("verify") && option_is_fio("bs") && !option_is_fio("blocksiz"), "fio names");
	CHECK(option_suggest("iodpeth") && !strcmp(option_suggest("iodpeth"), "iodepth"), "suggest");
	CHECK(option_suggest("readwrit") && !strcmp(option_suggest("readwrite"), "rw"), "suggest alias to canonical");
	/* help and man output mention every option */
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	options_print_help(f);
	options_print_man(f);
	fclose(f);
	CHECK(strstr(buf, "percentile_list") && strstr(buf, ".TP\n\\fBbs\\fR, \\fBblocksize\\fR"), "help/man");
	free(buf);
}

static const char *data_dir(void)
{
	static char dir[4096];
	const char *src = __FILE__;
	const char *slash = strrchr(src, '/');
	snprintf(dir, sizeof(dir), "%.*s/../data/seed003", slash ? (int)(slash - src) : 1, slash ? src : ".");
	if (access(dir, R_OK) == 0)
		return dir;
	const char *env = getenv("MESON_SOURCE_ROOT");
	if (env) {
		snprintf(dir, sizeof(dir), "%s/tests/data/seed003", env);
		if (access(dir, R_OK) == 0)
			return dir;
	}
	return NULL;
}

static void test_seed(void)
{
	static const struct { const char *file, *name; unsigned rw; bool direct; } seeds[] = {
		{ "random-write-test.fio", "random-write-direct", RW_WRITE | RW_RAND, true },
		{ "random-write-test-buf.fio", "random-write-buf", RW_WRITE | RW_RAND, false },
		{ "sequential-write-test.fio", "sequential-write-direct", RW_WRITE, true },
		{ "sequential-write-test-buf.fio", "sequential-write-buffered", RW_WRITE, false },
	};
	const char *dir = data_dir();
	CHECK(dir != NULL, "tests/data/seed003 found");
	if (!dir)
		return;
	struct job_list l = { 0 };
	const char *sets[] = { "directory=/tmp" };
	struct jobfile_ctx ctx = { .set_opts = sets, .nr_set = 1 };
	for (unsigned i = 0; i < 4; i++) {
		char *path = xasprintf("%s/%s", dir, seeds[i].file);
		struct pf p = { .path = path, .idx = i, .l = &l, .ctx = &ctx };
		int ret = capture(errbuf, sizeof(errbuf), do_file, &p);
		CHECK(ret == 1, "%s parses: %s", seeds[i].file, errbuf);
		free(path);
	}
	CHECK(l.nr == 4, "four seed jobs");
	for (unsigned i = 0; i < l.nr && i < 4; i++) {
		const struct job_spec *s = &l.jobs[i];
		CHECK(!strcmp(s->name, seeds[i].name), "name %s", s->name);
		CHECK(s->rw == seeds[i].rw && s->direct == seeds[i].direct, "rw/direct of %s", s->name);
		CHECK(s->size == 5ULL << 30 && s->numjobs == 5 && s->group_reporting, "size/numjobs/group of %s", s->name);
		CHECK(s->bs[DDIR_WRITE] == 8192 && s->runtime == 10ULL * 1000000000ULL, "bs/runtime of %s", s->name);
		CHECK(s->stonewall == (i > 0), "stonewall of %s", s->name);
		CHECK(!strcmp(s->ioengine, "psync") && s->iodepth == 1, "engine defaults of %s", s->name);
		CHECK(s->nr_opts == 10 && !strcmp(s->opts[0].key, "rw") && !strcmp(s->opts[8].value, "10"), "opts of %s", s->name);
	}
	job_list_release(&l);
	/* without the override, the author's directory does not exist here */
	char *path = xasprintf("%s/random-write-test.fio", dir);
	struct pf p = { .path = path, .l = &l };
	if (access("/msa70/fio/data", F_OK) != 0) {
		int ret = capture(errbuf, sizeof(errbuf), do_file, &p);
		CHECK(ret == -EINVAL && strstr(errbuf, "random-write-test.fio:5:11: error: directory '/msa70/fio/data/' does not exist"),
		      "seed directory: %s", errbuf);
	}
	free(path);
	job_list_release(&l);
}

/* Arbitrary bytes and mutated job files: no crash, no leak, all or nothing. */
static void test_random_input(void)
{
	static const char base[] = "[global]\nioengine=null\nsize=($mb_memory)m\n[a]\nrw=randrw:4\nbs=4k,8k\n"
				   "bssplit=4k/50:8k/\ninclude x.fio\n${HOME}\npercentile_list=1:2\n";
	unsigned seed = 12345;
	int crashes = 0;
	for (int round = 0; round < 400; round++) {
		char buf[512];
		size_t n;
		if (round % 2) {
			n = (size_t)(rand_r(&seed) % sizeof(buf));
			for (size_t i = 0; i < n; i++)
				buf[i] = (char)(rand_r(&seed) % 256);
		} else {
			n = sizeof(base) - 1;
			memcpy(buf, base, n);
			for (int k = 0; k < 6; k++)
				buf[rand_r(&seed) % n] = "[]=;#$(){}:,-/\n\\x0 "[rand_r(&seed) % 20];
		}
		struct job_list l = { 0 };
		fflush(stderr);
		int saved = dup(2);
		FILE *null = fopen("/dev/null", "w");
		dup2(fileno(null), 2);
		int ret = jobfile_parse_buffer("fuzz.fio", buf, n, 0, &l, NULL);
		fflush(stderr);
		dup2(saved, 2);
		close(saved);
		fclose(null);
		if (ret < 0 && l.nr != 0)
			crashes++;
		if (ret >= 0 && l.nr != (size_t)ret)
			crashes++;
		job_list_release(&l);
	}
	CHECK(crashes == 0, "random inputs are all-or-nothing");
}

int main(void)
{
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	test_globals();
	test_values();
	test_include();
	test_not_regular();
	test_multi_and_set();
	test_cmdline();
	test_errors();
	test_table_defaults();
	test_table_words();
	test_seed();
	test_random_input();
	char *cmd = xasprintf("rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", tmpdir);
	free(cmd);
	return check_done("test_jobfile");
}
