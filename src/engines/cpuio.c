/*
 * The "cpuio" engine, fio's: no file and no I/O; each unit burns the CPU
 * for cpuchunks microseconds (cpumode=noop spins on the clock, qsort sorts
 * pseudo-random arrays over and over, which draws more power), and the job
 * then stalls cpuchunks * (100 - cpuload) / cpuload microseconds (the
 * think time job_hints() gives the spec, as fio's engine sets thinktime),
 * so one job loads one CPU at cpuload percent. Units count as reads of no
 * bytes, with the burst's clat, as fio counts them. cpuload= is required
 * (above 100 it is 100, as fio). exit_on_io_done=1 ends the job once no
 * job of the run that does I/O is left running or pending.
 */
#include "engines/engine.h"
#include "util/array.h"
#include "util/error.h"
#include "util/timeutil.h"

#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define QSORT_N 1024 /* the array cpumode=qsort sorts, as many ints */

enum cpu_mode { CPU_NOOP, CPU_QSORT };

struct cpuio_opts {
	unsigned cpuload;     /* percent of one CPU, 1..100; 0 = not given */
	unsigned cpuchunks;   /* microseconds of each burst */
	int cpumode;          /* enum cpu_mode */
	bool exit_on_io_done;
};

static const struct opt_posval cpumode_words[] = {
	{ .word = "noop", .value = CPU_NOOP, .help = "spin" },
	{ .word = "qsort", .value = CPU_QSORT, .help = "sort arrays, more power" },
	{ .word = NULL },
};

#define O(field) offsetof(struct cpuio_opts, field)
static const struct option_def cpuio_options[] = {
	{ .name = "cpuload", .type = OPT_UINT, .off = O(cpuload), .width = sizeof(unsigned), .type_text = "int", .help = "percentage of one CPU to use (required; above 100 is 100)" },
	{ .name = "cpuchunks", .type = OPT_UINT, .off = O(cpuchunks), .width = sizeof(unsigned), .min = 1, .type_text = "int", .def = "50000", .help = "length of each CPU burst, in microseconds" },
	{ .name = "cpumode", .type = OPT_WORD, .off = O(cpumode), .width = sizeof(int), .posval = cpumode_words, .word_case = true, .word_what = "cpu mode", .word_use = "one of", .word_commas = true, .type_text = "str", .def = "noop", .help = "how to burn" },
	{ .name = "exit_on_io_done", .type = OPT_BOOL, .off = O(exit_on_io_done), .type_text = "bool", .def = "0", .help = "end the job once the run's jobs that do I/O are done" },
};
#undef O

struct cpuio_priv {
	int a[QSORT_N];
	uint64_t rnd;
};

static void cpuio_hints(const void *opts, struct engine_job_hints *h)
{
	const struct cpuio_opts *o = opts;
	unsigned load = o->cpuload > 100 ? 100 : o->cpuload;
	if (!load)
		return; /* init() refuses the job */
	h->thinktime_set = true;
	h->thinktime_ns = (uint64_t)o->cpuchunks * (100 - load) / load * 1000;
}

static int cpuio_init(struct engine_ctx *ctx)
{
	const struct cpuio_opts *o = engine_options(ctx);
	struct cpuio_priv *p = ctx->priv;
	if (!o->cpuload)
		return error("the cpuio engine needs cpuload= (the percentage of a CPU to use), as fio's");
	p->rnd = (ctx->params.seed_set ? ctx->params.seed : 0x9e3779b97f4a7c15ull) + ctx->params.clone;
	return 0;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

static void burn_qsort(struct cpuio_priv *p, uint64_t until)
{
	do {
		for (int i = 0; i < QSORT_N; i++) { /* xorshift64 */
			p->rnd ^= p->rnd << 13;
			p->rnd ^= p->rnd >> 7;
			p->rnd ^= p->rnd << 17;
			p->a[i] = (int)(p->rnd >> 33);
		}
		qsort(p->a, QSORT_N, sizeof(p->a[0]), cmp_int);
	} while (now_ns() < until);
}

static int cpuio_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	const struct cpuio_opts *o = engine_options(ctx);
	if (o->exit_on_io_done && ctx->params.io_jobs_left &&
	    atomic_load_explicit(ctx->params.io_jobs_left, memory_order_relaxed) == 0)
		return ENGINE_Q_DONE;
	uint64_t until = now_ns() + (uint64_t)o->cpuchunks * 1000;
	if (o->cpumode == CPU_QSORT)
		burn_qsort(ctx->priv, until);
	else
		while (now_ns() < until)
			__asm__ volatile("" ::: "memory");
	u->result = (int64_t)u->buflen; /* no bytes are counted (ENGINE_NO_IO) */
	return ENGINE_Q_COMPLETED;
}

static int cpuio_open(struct engine_ctx *ctx, struct job_file *f)
{
	(void)ctx;
	(void)f;
	return 0;
}

const struct engine_ops engine_cpuio = {
	.name = "cpuio",
	.summary = "fio's: no I/O; burns cpuload percent of one CPU in cpuchunks-microsecond bursts",
	.flags = ENGINE_SYNC | ENGINE_NO_FILE | ENGINE_NO_IO,
	.priv_size = sizeof(struct cpuio_priv),
	.options = cpuio_options,
	.nr_options = ARRAY_SIZE(cpuio_options),
	.options_size = sizeof(struct cpuio_opts),
	.init = cpuio_init,
	.open_file = cpuio_open,
	.close_file = cpuio_open,
	.queue = cpuio_queue,
	.job_hints = cpuio_hints,
};
