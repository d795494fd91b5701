/*
 * fio's per-I/O priority options of the io_uring and libaio engines:
 * cmdprio_percentage, cmdprio_class, cmdprio (each one value for reads and
 * writes or "R,W") and cmdprio_bssplit ("bs/pct[/class/level]:..." per
 * direction, mutually exclusive with cmdprio_percentage). The options are a
 * plain struct an engine embeds in its own options struct; CMDPRIO_ROWS
 * declares their rows at that member's offset. cmdprio_pick() says, per
 * read or write, which ioprio (class << 13 | level) the request carries, or
 * -1 when it carries none (the job's default applies), drawing from the
 * engine's own seeded generator as fio draws from its prio state.
 */
#ifndef IOBENCH_ENGINES_CMDPRIO_INT_H
#define IOBENCH_ENGINES_CMDPRIO_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engines/engine.h"
#include "util/optdef.h"
#include "util/rand.h"

#define CMDPRIO_MAX_SPLIT 32
#define CMDPRIO_CLASS_RT 1  /* fio's default class: the highest */

/* ioprio as the kernel encodes it (linux/ioprio.h) */
static inline uint16_t cmdprio_value(unsigned cls, unsigned level)
{
	return (uint16_t)(cls << 13 | level);
}

struct cmdprio_split {
	uint64_t bs;
	uint8_t pct;
	bool own;             /* bs/pct/class/level: its own priority */
	uint8_t cls, level;   /* when own */
};

struct cmdprio_opts {
	uint8_t pct[2];             /* cmdprio_percentage, read and write */
	bool pct_set;               /* a percentage is not 0 */
	bool bss_set;
	uint8_t cls[2];             /* cmdprio_class 1..3; 0 = not set: realtime */
	uint8_t level[2];           /* cmdprio 0..7 */
	struct cmdprio_split bss[2][CMDPRIO_MAX_SPLIT];
	uint8_t nr_bss[2];
};

int cmdprio_opt_percentage(void *target, const char *val, struct opt_ctx *c);
int cmdprio_opt_class(void *target, const char *val, struct opt_ctx *c);
int cmdprio_opt_level(void *target, const char *val, struct opt_ctx *c);
int cmdprio_opt_bssplit(void *target, const char *val, struct opt_ctx *c);

/* The four rows, for a struct whose member `m` is a struct cmdprio_opts. */
#define CMDPRIO_ROWS(st, m)                                                                     \
	{ .name = "cmdprio_percentage", .type = OPT_FUNC, .off = offsetof(st, m),               \
	  .parse = cmdprio_opt_percentage, .type_text = "int[,int]", .def = "0",                 \
	  .help = "percentage of reads[,writes] issued with the priority of cmdprio_class and "  \
		  "cmdprio" },                                                                    \
	{ .name = "cmdprio_class", .type = OPT_FUNC, .off = offsetof(st, m),                    \
	  .parse = cmdprio_opt_class, .type_text = "int[,int]",                                 \
	  .help = "priority class (1 realtime, the default; 2 best-effort, 3 idle) of the I/Os "   \
		  "cmdprio_percentage or cmdprio_bssplit picks" },                                                   \
	{ .name = "cmdprio", .type = OPT_FUNC, .off = offsetof(st, m),                          \
	  .parse = cmdprio_opt_level, .type_text = "int[,int]", .def = "0",                      \
	  .help = "priority level (0 highest to 7) of the I/Os cmdprio_percentage or "           \
		  "cmdprio_bssplit picks" },                                                      \
	{ .name = "cmdprio_bssplit", .type = OPT_FUNC, .off = offsetof(st, m),                  \
	  .parse = cmdprio_opt_bssplit, .type_text = "str[,str]",                                 \
	  .help = "per block size, the percentage of I/Os with a priority: bs/pct[/class/level]:..." \
		  "[,writes]; excludes cmdprio_percentage" }

/* The running state: the options and the generator. */
struct cmdprio {
	const struct cmdprio_opts *o;
	bool on;
	struct rng rng;
};

/* Check the options (mutual exclusion) and seed; 0 or -EINVAL with a message. */
int cmdprio_init(struct cmdprio *cp, const struct cmdprio_opts *o, const struct engine_params *p,
		 const char *engine);
/* The ioprio a read or write of buflen bytes carries, or -1 for none. */
int cmdprio_pick(struct cmdprio *cp, enum ddir d, uint64_t buflen);

#endif
