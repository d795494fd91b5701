/*
 * Internal to the faulty engine (faulty.c) and its option rows
 * (faulty_opts.c), and for tests that look inside: the engine's options
 * struct and its I/O selectors. Nothing else includes this; jobs set these
 * options through the engine's rows.
 */
#ifndef IOBENCH_ENGINES_FAULTY_INT_H
#define IOBENCH_ENGINES_FAULTY_INT_H

#include <stdint.h>

#include "util/optdef.h"

/* Which I/Os a selector picks (faulty_fail=, faulty_corrupt=,
 * faulty_delay_select=): none, every Nth, those covering given offsets, or
 * a seeded random share. */
enum faulty_sel_kind {
	FAULTY_SEL_NONE = 0,
	FAULTY_SEL_EVERY,
	FAULTY_SEL_OFFSET,
	FAULTY_SEL_RANDOM,
};
#define FAULTY_MAX_OFFSETS 16
struct faulty_sel {
	enum faulty_sel_kind kind;
	uint64_t every;   /* every:N */
	double pct;       /* random:PCT, 0..100 */
	unsigned nr_offsets;
	uint64_t offsets[FAULTY_MAX_OFFSETS]; /* offset:OFF[,OFF...] */
};

/* The engine's options; its rows' defaults (faulty_options) are what a
 * job gets unless it says otherwise: inject nothing, over psync. */
struct faulty_opts {
	char engine[32];             /* faulty_engine: the wrapped engine */
	struct faulty_sel fail, corrupt, delay_select;
	int err;                     /* faulty_errno: positive errno of failed I/Os */
	unsigned dir;                /* faulty_dir: RW_READ/RW_WRITE bits it acts on; 0 = both */
	uint64_t delay;              /* faulty_delay: ns added to delayed I/Os */
};

#define FAULTY_NR_OPTIONS 7
extern const struct option_def faulty_options[FAULTY_NR_OPTIONS];

#endif
