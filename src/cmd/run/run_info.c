/*
 * run's informational flags, which print and exit instead of running, as
 * fio's do: --version (fio's string, naming iobench; invoked as `fio`,
 * exactly fio's, which harnesses parse), --cmdhelp (the job
 * options, or one), --enghelp (the engines, or an engine's options),
 * --crctest (the speed of iobench's own checksum code, util/csum.h, in
 * fio's line format), --cpuclock-test (the cross-CPU check of the clock
 * iobench measures with, util/clock.h), --memcpytest (run_memcpy.c) and
 * --inflate-log.
 */
#include "cmd/run/run_cmdline_int.h"
#include "sys/cpuidle.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/engine.h"
#include "util/clock.h"
#include "util/csum.h"
#include "util/error.h"
#include "util/timeutil.h"
#include "util/xmalloc.h"
#include "workload/logs/fiolog.h"
#include "spec/options.h"
#include "spec/extengine.h"

/* The fio version iobench's job files, command line and reports follow. */
#define FIO_VERSION "fio-3.33"

static int print_version(bool as_fio)
{
	if (as_fio)
		printf("%s\n", FIO_VERSION); /* ezfio: float(split('-')[1]) */
	else
		printf("%s (iobench %s)\n", FIO_VERSION, IOBENCH_VERSION);
	return 0;
}

/* "bs" alone, or every option as fio lists them ("name : help") */
static int cmdhelp(const char *what)
{
	if (what && *what && strcmp(what, "all"))
		return options_print_one(stdout, what) < 0 ? 1 : 0;
	for (size_t i = 0; i < option_table_len; i++)
		printf("%-24s: %s\n", option_table[i].name, option_table[i].help);
	return 0;
}

static int enghelp(const char *what)
{
	if (!what || !*what) {
		printf("Available IO engines:\n");
		for (const char *const *e = engine_names(); *e; e++)
			printf("\t%s\n", *e);
		return 0;
	}
	char *engine = xstrndup(what, strcspn(what, ","));
	const char *opt = what[strlen(engine)] ? what + strlen(engine) + 1 : NULL;
	int status = 0;
	const struct engine_ops *e = engine_find(engine);
	const struct fio_ext_engine *ext = e ? NULL : fio_ext_engine_find(engine);
	if (ext) {
		char why[256];
		error("%s", fio_ext_engine_why(ext, engine, why, sizeof(why)));
		status = 1;
	} else if (!e) {
		error("IO engine '%s' not found; 'iobench run --enghelp' lists them", engine);
		status = 1;
	} else if (opt) {
		const struct option_def *o = NULL;
		for (size_t i = 0; !o && i < e->nr_options; i++)
			if (!strcmp(e->options[i].name, opt))
				o = &e->options[i];
		if (!o) {
			error("engine '%s' has no option '%s'", engine, opt);
			status = 1;
		} else {
			options_print_one(stdout, opt);
		}
	} else {
		/* the engine's own rows (engines/engine.h), as its ops table has them */
		for (size_t i = 0; i < e->nr_options; i++)
			printf("%-24s: %s\n", e->options[i].name, e->options[i].help);
		if (!e->nr_options)
			printf("engine %s has no options of its own\n", engine);
	}
	free(engine);
	return status;
}

/* Each checksum over a 1 MiB buffer for about 100 ms: "md5:\t\t  159.37 MiB/sec" */
static int crctest(const char *what)
{
	enum { BUF = 1 << 20 };
	bool want[CSUM_NR] = { false };
	bool all = !what || !*what;
	if (!all) {
		char *list = xstrdup(what), *save = NULL;
		int bad = 0;
		for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
			bool found = false;
			for (int k = CSUM_NONE + 1; k < CSUM_NR; k++)
				if (!strcmp(t, csum_name((enum csum_type)k))) {
					want[k] = true;
					found = true;
				}
			if (!found)
				bad = error("--crctest: no checksum '%s'; iobench has crc32c, crc32, crc64, crc16, crc7, md5, sha1, "
					    "sha256, sha512, sha3-224, sha3-256, sha3-384, sha3-512 and xxhash", t);
		}
		free(list);
		if (bad)
			return 1;
	}
	uint8_t *buf = xmalloc(BUF), out[CSUM_MAX_LEN];
	for (size_t i = 0; i < BUF; i++)
		buf[i] = (uint8_t)(i * 2654435761u >> 13);
	for (int k = CSUM_NONE + 1; k < CSUM_NR; k++) {
		if (!all && !want[k])
			continue;
		uint64_t t0 = now_ns(), t, bytes = 0;
		do {
			csum((enum csum_type)k, buf, BUF, out);
			bytes += BUF;
			t = now_ns();
		} while (t - t0 < 100000000ull);
		double mib_s = (double)bytes / (1 << 20) / ((double)(t - t0) / 1e9);
		printf("%s:\t\t%8.2f MiB/sec\n", csum_name((enum csum_type)k), mib_s);
	}
	free(buf);
	return 0;
}

/* fio's "cs:" lines for the clock iobench would use */
static int cpuclock_test(void)
{
	struct clock c;
	char why[160];
	if (!clock_tsc_invariant(why, sizeof(why))) {
		printf("cs: reliable_tsc: no (%s)\n", why);
		printf("cs: iobench measures with clock_gettime(CLOCK_MONOTONIC)\n");
		return 1;
	}
	printf("cs: reliable_tsc: yes\n");
	int rc = clock_init(&c, CLOCK_SRC_TSC);
	printf("cs: Testing %u CPUs\n", c.tsc_cpus);
	if (rc < 0) {
		printf("cs: Failed: %s\n", c.why);
		return 1;
	}
	printf("cs: TSC at %.0f Hz, largest offset between two CPUs %lld ns\n", c.tsc_hz,
	       (long long)c.tsc_skew_ns);
	printf("cs: Pass!\n");
	return 0;
}

int run_info(const struct run_cmdline *cl)
{
	switch (cl->info) {
	case RUN_INFO_NONE:
		return 0;
	case RUN_INFO_VERSION:
		return print_version(cl->as_fio);
	case RUN_INFO_CMDHELP:
		return cmdhelp(cl->info_arg);
	case RUN_INFO_ENGHELP:
		return enghelp(cl->info_arg);
	case RUN_INFO_CRCTEST:
		return crctest(cl->info_arg);
	case RUN_INFO_CPUCLOCK:
		return cpuclock_test();
	case RUN_INFO_MEMCPY:
		return run_memcpytest(cl->info_arg);
	case RUN_INFO_INFLATE:
		return fiolog_inflate(cl->info_arg, stdout) < 0 ? 1 : 0;
	case RUN_INFO_IDLE_CALIBRATE: {
		/* fio's --idle-prof=calibrate: the unit work figures, nothing run */
		double mean, dev;
		cpuidle_unit_work(&mean, &dev);
		printf("CPU idleness:\n  unit work: mean=%3.2fus, stddev=%3.2f\n", mean, dev);
		return fflush(stdout) ? 1 : 0;
	}
	}
	return 1;
}
