/*
 * What `iobench run` (and iobench invoked as `fio`) reads from its command
 * line: the flags of fio 3.33 (run_flags.c: fio's meaning, fio's letters),
 * the job files, and the job options in fio's command-line job form, each
 * taking its value as fio's getopt table does (run_jobargs.c).
 */
#ifndef IOBENCH_CMD_RUN_RUN_CMDLINE_INT_H
#define IOBENCH_CMD_RUN_RUN_CMDLINE_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "cli/cmdopt.h"
#include "cli/common_opts.h"
#include "workload/run.h"

/* A flag that prints something and exits instead of running (fio acts on
 * the first it meets). */
enum run_info {
	RUN_INFO_NONE,
	RUN_INFO_VERSION,
	RUN_INFO_CMDHELP,
	RUN_INFO_ENGHELP,
	RUN_INFO_CRCTEST,
	RUN_INFO_CPUCLOCK,
	RUN_INFO_INFLATE,
	RUN_INFO_IDLE_CALIBRATE,
	RUN_INFO_MEMCPY,
};

struct run_cmdline {
	struct cmd_common *common;  /* -o, -F, -r, --minimal write here */
	struct cmdopt_list files;   /* job files, in order ("-": standard input) */
	struct cmdopt_list jobargs; /* fio's job form as "--key[=value]", in order
				       (allocated here) */
	struct cmdopt_list sets;    /* --set KEY=VALUE */
	struct cmdopt_list sections; /* --section: run only these */
	bool parse_only;
	bool debug_parse;           /* --debug=parse (or all): the option parser's trace */
	bool merge_blktrace_only; /* --merge-blktrace-only: merge the jobs' blktraces, run nothing */
	bool progress;              /* --eta=auto (the default) or always */
	bool eta_always;            /* --eta=always: even when stderr is no terminal */
	bool append_terse;          /* --append-terse: terse after the other formats */
	bool bandwidth_log;         /* --bandwidth-log */
	bool showcmd;               /* --showcmd */
	unsigned terse_version;     /* --terse-version (3) */
	bool warnings_fatal;        /* --warnings-fatal: time_based without runtime is an error */
	struct run_control ctl;     /* --eta-interval, --eta-newline, --aux-path, --trigger* */
	bool as_fio;                /* invoked as `fio` (cmd_ctx.as_fio): --version is fio's */
	enum run_info info;         /* the first informational flag, and its value */
	const char *info_arg;
};

/* run's own rows (run_flags.c), and the text of the usage that names the
 * short forms of the shared rows. */
extern const struct cmdopt run_rows[];
extern const struct cmdopt_help run_help_for[];
/* The foreign parser of the job options for cl (run_jobargs.c). */
void run_jobargs_foreign(struct cmdopt_foreign *f, struct run_cmdline *cl);
void run_cmdline_release(struct run_cmdline *cl);
/* An informational flag's output (run_info.c): the exit status. */
int run_info(const struct run_cmdline *cl);
/* --memcpytest[=TYPES] (run_memcpy.c): fio's copy-speed table; the exit status. */
int run_memcpytest(const char *types);

#endif
