/*
 * `iobench sweep PLAN`: a tuning experiment (sweep/sweep_run.h): the
 * points of a plan's design, each set up on the targets (mkfs, mount,
 * queue knobs, sysctls), measured by run, bonnie or quick with the point's
 * factors as labels, and torn down; everything restored at the end, on a
 * signal, or by `--restore` after a crash. --dry-run lists every step;
 * --resume continues a stored sweep. `sweep report` is the analysis.
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/command.h"
#include "cli/output.h"
#include "cmd/sweep/sweep_report_int.h"
#include "store/store.h"
#include "store/store_sweep.h"
#include "sweep/sweep_run.h"
#include "sys/dev/devguard.h"
#include "util/error.h"
#include "util/xmalloc.h"

static const char sweep_usage[] =
	"usage: iobench sweep PLAN [--dry-run] [--allow-destroy=DEVICE]... [--db=PATH]\n"
	"       iobench sweep --resume=ID [--allow-destroy=DEVICE]... [--db=PATH]\n"
	"       iobench sweep --restore [--db=PATH]\n"
	"       iobench sweep report SWEEP_ID [--goal=G] [--output-format=FMT] (see\n"
	"                            'iobench sweep report --help')\n"
	"\n"
	"Run the tuning experiment PLAN describes: for each point of its design,\n"
	"make the filesystem on the target (mkfs with the point's options), mount\n"
	"it, set the block-queue knobs and vm sysctls, drop the page cache, run\n"
	"the workload (iobench run, bonnie or quick, with --label FACTOR=LEVEL for\n"
	"each factor, or a timed shell command, stored as a point of the sweep),\n"
	"and tear it all down. A\n"
	"point that fails is recorded with its message and the sweep goes on.\n"
	"Every change is written to a restore journal next to the database before\n"
	"it is made; everything is put back at the end, on SIGINT or SIGTERM, and\n"
	"by --restore after a crash (a new sweep restores first by itself). Each\n"
	"target queue is locked per device (/run/iobench) and saved whole first,\n"
	"and put back whole after each point, in the order that makes the values\n"
	"stick (what the kernel reset beside a knob too), then checked. The\n"
	"journal and its folder must be yours and writable by nobody else; it\n"
	"holds no commands (teardowns come from the plan stored in the database)\n"
	"and each entry must prove the sweep made what it undoes, or it is refused.\n"
	"Each command runs in a process group (and cgroup) of its own, which\n"
	"restore ends first. Block devices must be named with --allow-destroy and\n"
	"pass the device guard; image files are created and attached as loop\n"
	"devices by the sweep. No operand the plan hands to a program (mkfs, mount,\n"
	"templates, the command) may name another block device (FILE:LINE:COL).\n"
	"Needs root, except --dry-run.\n"
	"\n"
	"The plan (INI; errors are reported as FILE:LINE:COL):\n"
	"  [target]    image = PATH (repeatable), image_size = SIZE, direct_io = 1\n"
	"              | device = /dev/X (repeatable) | dir = DIR; fs = FS\n"
	"  [factors]   NAME = LEVEL | LEVEL ...: fs, mkfs.FS, mount, mount.FS,\n"
	"              scheduler, read_ahead_kb, nr_requests, max_sectors_kb,\n"
	"              rq_affinity, nomerges, wbt_lat_usec, iosched/NAME, vm.NAME,\n"
	"              md.NAME (stripe_cache_size ... of an md target),\n"
	"              btrfs.data, btrfs.metadata, job.OPTION (a knob's NAME is\n"
	"              one word of a-z, 0-9 and _), or a NAME that a\n"
	"              setup = / teardown = command template uses as {NAME}\n"
	"              (templates also know {dev}, {devs}, {mnt}, {fs})\n"
	"  [workload]  job = FILE (repeatable) | bonnie = ARGS (repeatable) |\n"
	"              quick = [ARGS] | command = SHELL (in the mount directory,\n"
	"              timed); repeat = N | auto[:W%] (a command: N);\n"
	"              drop_caches = all | target | none\n"
	"  [design]    type = full | ofat | lhs:N | race; goal = FIGURE; seed = N;\n"
	"              race: min_repeat = N (default 3), max_repeat = N (default 10)\n"
	"A sweep with a goal ends with its analysis (as 'sweep report' prints it).\n"
	"An md array's chunk size needs it made again: setup = / teardown =\n"
	"templates. Kernel boot parameters are out of scope.\n"
	"\n"
	"options:\n";

struct sweep_cmdline {
	const char *plan;
	const char *resume;
	bool dry_run;
	bool restore;
	int words;
};

static const struct cmdopt sweep_rows[] = {
	{ "dry-run", 0, CMDOPT_NOARG, CMDOPT_TRUE, offsetof(struct sweep_cmdline, dry_run), NULL, 0,
	  NULL, "print the points in order with every command and knob change, changing nothing" },
	{ "restore", 0, CMDOPT_NOARG, CMDOPT_TRUE, offsetof(struct sweep_cmdline, restore), NULL, 0,
	  NULL, "undo what an interrupted sweep left (its restore journal next to the database)" },
	{ "resume", 0, CMDOPT_REQARG, CMDOPT_STRING, offsetof(struct sweep_cmdline, resume), NULL, 0,
	  "ID", "continue sweep ID: run its points that are neither done nor failed" },
	CMDOPT_END,
};

static const struct cmdopt_help sweep_help_for[] = {
	{ "allow-destroy", "let the sweep format block device DEVICE, a [target] device = of the "
			   "plan (repeatable); a device in use is refused even then" },
	{ "db", "the results database the points are stored in, with the sweep's restore "
		"journal next to it (default $IOBENCH_DB, else $XDG_DATA_HOME/iobench/results.db, "
		"else ~/.local/share/iobench/results.db)" },
	{ NULL, NULL },
};

static int add_word(void *arg, const char *word, char *why, size_t len)
{
	struct sweep_cmdline *s = arg;
	if (s->words++ == 0) {
		s->plan = word;
		return 0;
	}
	snprintf(why, len, "sweep takes one plan file, not '%s' and '%s'", s->plan, word);
	return -EINVAL;
}

/* The analysis a sweep prints when it ends (sweep_report_sweep, as text). */
static int analyse(struct store *st, int64_t id, const char *goal, const char *const *factors,
		   size_t nf, FILE *out)
{
	fputc('\n', out);
	return sweep_report_sweep(st, id, goal, factors, nf, false, out);
}

/* `sweep report SWEEP_ID`: the goal the sweep's plan names when --goal is
 * not given (from the sweeps table), then sweep_report_main. */
static int report(struct cmd_ctx *ctx, int argc, char **argv)
{
	const char *id = NULL, *db = NULL;
	bool goal = false;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--goal") || !strncmp(argv[i], "--goal=", 7))
			goal = true;
		else if (!strncmp(argv[i], "--db=", 5))
			db = argv[i] + 5;
		else if (!strcmp(argv[i], "--db") && i + 1 < argc)
			db = argv[++i];
		else if (argv[i][0] != '-' && !id)
			id = argv[i];
		else if (!strcmp(argv[i], "--factors") || !strcmp(argv[i], "--output-format") ||
			 !strcmp(argv[i], "--label") || !strcmp(argv[i], "--since") ||
			 !strcmp(argv[i], "--host"))
			i++; /* their value */
	}
	char *end;
	long long sid = id ? strtoll(id, &end, 10) : 0;
	char *path = NULL, *extra = NULL;
	struct store *st = NULL;
	struct store_sweep sw = { 0 };
	if (!goal && id && !*end && sid > 0 && store_path_resolve(db, false, &path) == 0 &&
	    access(path, F_OK) == 0 && store_open(path, &st) == 0 &&
	    store_sweep_get(st, sid, &sw) == 0 && sw.goal)
		extra = xasprintf("--goal=%s", sw.goal);
	store_sweep_release(&sw);
	store_close(st);
	free(path);
	if (!extra)
		return sweep_report_main(ctx, argc, argv);
	char **v = xcalloc((size_t)argc + 2, sizeof(*v));
	memcpy(v, argv, (size_t)argc * sizeof(*v));
	v[argc] = extra;
	int status = sweep_report_main(ctx, argc + 1, v);
	free(v);
	free(extra);
	return status;
}

static int run_sweep(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct sweep_cmdline s = { 0 };
	struct cmd_common common;
	cmd_common_init(&common);
	int status = 1;
	if (argc >= 2 && !strcmp(argv[1], "report"))
		return report(ctx, argc - 1, argv + 1);
	struct cmdopt_parser p;
	command_parser(&p, ctx->cmd, &s, &common);
	p.operand = add_word;
	p.operand_arg = &s;
	int rc = command_parse(ctx, &p, argc, argv, &common);
	if (rc) {
		cmd_common_release(&common);
		return rc > 0 ? 0 : 1;
	}
	int64_t resume = 0;
	if (s.resume) {
		char *end;
		long long v = strtoll(s.resume, &end, 10);
		if (*end || end == s.resume || v <= 0) {
			error("bad --resume '%s': give a sweep's id", s.resume);
			goto out;
		}
		resume = v;
	}
	if (s.restore + !!s.resume + !!s.plan != 1) {
		error(s.restore || s.resume || s.plan ? "give one of PLAN, --resume=ID and --restore"
						     : "sweep needs a plan file (see 'iobench help sweep')");
		goto out;
	}
	if (s.dry_run && !s.plan) {
		error("--dry-run goes with a PLAN");
		goto out;
	}
	struct devguard_allow allow = { .devices = common.allow_destroy.v,
					.nr_devices = common.allow_destroy.n };
	char why[512];
	if (devguard_allow_validate(&allow, why, sizeof(why)) < 0) {
		error("%s", why);
		goto out;
	}
	char *db;
	if (store_path_resolve(common.db, !s.dry_run && !s.restore, &db) < 0)
		goto out;
	if (db[0] != '/') {
		/* the points run in their mount directories: a relative --db
		 * must still name this database, and its journal beside it */
		char *cwd = getcwd(NULL, 0);
		if (!cwd) {
			error_errno(-errno, "cannot resolve the database path '%s'", db);
			free(db);
			goto out;
		}
		char *abs = xasprintf("%s/%s", cwd, db);
		free(cwd);
		free(db);
		db = abs;
	}
	if (s.restore) {
		status = sweep_restore(db, stdout);
		free(db);
		goto out;
	}
	struct store *st = NULL;
	if (!s.dry_run && store_open(db, &st) < 0) {
		free(db);
		goto out;
	}
	struct sweep_opts o = { .plan_path = s.plan, .db = db, .store = st, .allow = &allow,
				.dry_run = s.dry_run, .resume_id = resume, .out = stdout,
				.analyse = analyse };
	status = sweep_run(&o);
	if (output_check(stdout, NULL, NULL) < 0)
		status = 1;
	store_close(st);
	free(db);
out:
	cmd_common_release(&common);
	return status;
}

static const char *sub_at(size_t i)
{
	return i == 0 ? "report" : NULL;
}

const struct command cmd_sweep = {
	.name = "sweep",
	.summary = "run a tuning experiment over filesystems, mkfs and mount options and knobs",
	.usage = sweep_usage,
	.opts = sweep_rows,
	.common = COMMON_ALLOW_DESTROY | COMMON_DB | COMMON_HELP,
	.help_for = sweep_help_for,
	.subcommand_at = sub_at,
	.run = run_sweep,
};
