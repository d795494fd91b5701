/*
 * iobench-mpi's entry point: MPI up (one rank without mpirun), its own
 * options taken off the command line (--layout, --reorder-read, --fsync,
 * --stonewall, --sync-timeout), and the rest handed to iobench's `run`
 * command with the dist hooks (dist_run.h), so every rank runs the same
 * runner as `iobench run` and only rank 0 writes the report and the store.
 */
#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/commands.h"
#include "dist/dist.h"
#include "dist/dist_bonnie.h"
#include "dist/dist_comm.h"
#include "dist/dist_meta.h"
#include "dist/dist_run.h"
#include "util/error.h"
#include "util/units.h"
#include "util/xmalloc.h"

static const char usage[] =
	"usage: mpirun [MPIRUN OPTIONS] iobench-mpi run [MPI OPTIONS] [RUN OPTIONS] [JOBFILE...]\n"
	"       mpirun [MPIRUN OPTIONS] iobench-mpi meta -d DIR -n ITEMS [MDTEST OPTIONS]\n"
	"       mpirun [MPIRUN OPTIONS] iobench-mpi bonnie -d DIR -n NUM[:MAX:MIN:DIRS] -u USER\n"
	"           [BONNIE OPTIONS] [--sync-timeout=SEC]\n"
	"\n"
	"Every rank runs the jobs as `iobench run` would (the same job files and\n"
	"options: see `iobench help run`); rank 0 writes the report and the store.\n"
	"Without mpirun it runs as one rank. File names may use $rank, $nranks, $host.\n"
	"\n"
	"MPI options:\n"
	"  --layout=file-per-rank|shared-file\n"
	"                        file-per-rank (default): names without $rank get\n"
	"                        .RANK appended; shared-file: one file, rank r's region\n"
	"                        starts at offset + r * size\n"
	"  --interleave          shared-file: each I/O is a block of a segment, as IOR's\n"
	"                        -s with -b = -t: rank r's k-th I/O at offset + (k*N + r) * bs\n"
	"  --reorder-read=K      rank r reads what rank (r+K) mod N wrote (IOR -C -Q K)\n"
	"  --fsync               fsync the written files at the end of each job (IOR -e)\n"
	"  --stonewall=SEC       every rank stops at the deadline (IOR -D); the report\n"
	"                        gives the stonewall and the last-done figures\n"
	"  --sync-timeout=SEC    how long a rank waits for the others at a phase's\n"
	"                        barrier before it names the ones missing (600)\n"
	"  --wearout             with --stonewall: after the deadline every rank goes on\n"
	"                        to the I/O count of the fastest (IOR's stoneWallingWearOut)\n"
	"  --ranks-per-job=N     the jobs of one phase split among the ranks: ranks\n"
	"                        0..N-1 run the first job, N..2N-1 the second, and so on\n"
	"                        (round again when there are more ranks)\n"
	"  --repeat: not implemented yet (refused)\n\n"
	"\n"
	"meta runs mdtest's phases on every rank (iobench-mpi meta --help); bonnie\n"
	"runs iobench bonnie's file tests (-n) on every rank at once, each in its own\n"
	"directory under -d, every phase started together; rank 0 prints and stores\n"
	"the aggregate (see `iobench help bonnie` for its options).\n";

/* --name or --name=VALUE or --name VALUE at argv[*i]: its value (NULL for
 * a bare flag when want_value is false), advancing *i past it. */
static bool take(char **argv, int argc, int *i, const char *name, bool want_value,
		 const char **value)
{
	size_t n = strlen(name);
	const char *a = argv[*i];
	if (strncmp(a, name, n))
		return false;
	if (a[n] == '=') {
		if (!want_value)
			return false; /* --fsync=N is fio's job option */
		*value = a + n + 1;
		return true;
	}
	if (a[n])
		return false;
	if (!want_value) {
		*value = NULL;
		return true;
	}
	if (*i + 1 >= argc)
		return false;
	*value = argv[++*i];
	return true;
}

/* argv without iobench-mpi's options into *out (argv[0] "run" first). */
static int parse_mpi_opts(int argc, char **argv, struct dist_opts *o, double *timeout,
			  char ***out, int *outc)
{
	char **v = xcalloc((size_t)argc + 2, sizeof(*v));
	int n = 0;
	v[n++] = argv[0];
	for (int i = 1; i < argc; i++) {
		const char *val, *why = NULL;
		uint64_t u;
		double x;
		if (take(argv, argc, &i, "--layout", true, &val)) {
			if (!strcmp(val, "file-per-rank"))
				o->layout = DIST_FILE_PER_RANK;
			else if (!strcmp(val, "shared-file"))
				o->layout = DIST_SHARED_FILE;
			else
				goto bad;
		} else if (take(argv, argc, &i, "--reorder-read", true, &val)) {
			if (parse_uint(val, 1024, &u, &why) < 0 || u > 1u << 30)
				goto bad;
			o->reorder = (unsigned)u;
		} else if (take(argv, argc, &i, "--interleave", false, &val)) {
			o->interleave = true;
		} else if (take(argv, argc, &i, "--fsync", false, &val)) {
			o->fsync = true;
		} else if (!strncmp(argv[i], "--stonewall", 11) &&
			   (argv[i][11] == '=' || (!argv[i][11] && i + 1 < argc &&
						   parse_double(argv[i + 1], &x, &why) == 0)) &&
			   take(argv, argc, &i, "--stonewall", true, &val)) {
			if (parse_double(val, &x, &why) < 0 || !(x > 0))
				goto bad;
			o->stonewall_s = x;
		} else if (take(argv, argc, &i, "--sync-timeout", true, &val)) {
			if (parse_double(val, &x, &why) < 0 || !(x > 0))
				goto bad;
			*timeout = x;
		} else if (take(argv, argc, &i, "--wearout", false, &val)) {
			o->wearout = true;
		} else if (take(argv, argc, &i, "--ranks-per-job", true, &val)) {
			if (parse_uint(val, 1024, &u, &why) < 0 || u < 1 || u > 1u << 30)
				goto bad;
			o->ranks_per_job = (unsigned)u;
		} else {
			v[n++] = argv[i];
		}
		continue;
bad:
		free(v);
		return error("iobench-mpi: bad value '%s' for %s%s%s", val, argv[i][0] == '-' &&
			     strchr(argv[i], '=') ? "" : argv[i - 1], why ? ": " : "", why ? why : "");
	}
	v[n] = NULL;
	if (o->wearout && !(o->stonewall_s > 0)) {
		free(v);
		return error("iobench-mpi: --wearout goes on after the deadline of --stonewall=SEC: "
			     "give one");
	}
	if (o->interleave && o->layout != DIST_SHARED_FILE) {
		free(v);
		return error("iobench-mpi: --interleave lays out blocks of a shared file: it needs "
			     "--layout=shared-file");
	}
	*out = v;
	*outc = n;
	return 0;
}

/* iobench-mpi meta: mdtest's phases on every rank (dist_meta.h). */
static int meta_main(int argc, char **argv)
{
	struct dist_comm c;
	if (dist_init(&c, &argc, &argv) < 0)
		return 1;
	int status = dist_meta_main(&c, argc - 1, argv + 1);
	dist_end(&c, status);
	return status;
}

/* iobench-mpi bonnie: iobench's bonnie command on every rank with the
 * bonnie hooks (dist_bonnie.h); --sync-timeout is iobench-mpi's. */
static int bonnie_main(int argc, char **argv)
{
	struct dist_comm c;
	if (dist_init(&c, &argc, &argv) < 0)
		return 1;
	char **v = xcalloc((size_t)argc + 2, sizeof(*v));
	int n = 0;
	for (int i = 1; i < argc; i++) {
		const char *val, *why = NULL;
		if (take(argv, argc, &i, "--sync-timeout", true, &val)) {
			if (parse_double(val, &c.timeout_s, &why) < 0 || !(c.timeout_s > 0)) {
				if (c.rank == 0)
					error("iobench-mpi: bad value '%s' for --sync-timeout", val);
				free(v);
				dist_end(&c, 1);
				return 1;
			}
		} else {
			v[n++] = argv[i];
		}
	}
	if (c.rank != 0)
		v[n++] = (char *)"--no-store"; /* the root stores the cluster's run */
	v[n] = NULL;
	struct dist_bonnie *b = dist_bonnie_new(&c);
	struct dist_hooks h;
	dist_bonnie_hooks(b, &h);
	int status = command_run_dist(command_find("bonnie"), n, v, &h);
	status = dist_bonnie_finish(b, status);
	dist_bonnie_free(b);
	free(v);
	dist_end(&c, status);
	return status;
}

int main(int argc, char **argv)
{
	mallopt(M_ARENA_MAX, 1); /* as iobench's main */
	if (argc < 2 || !strcmp(argv[1], "help") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "-h")) {
		fputs(usage, argc < 2 ? stderr : stdout);
		return argc < 2 ? 1 : 0;
	}
	if (!strcmp(argv[1], "version") || !strcmp(argv[1], "--version") || !strcmp(argv[1], "-V"))
		return command_run(command_find("version"), argc - 1, argv + 1);
	if (!strcmp(argv[1], "meta"))
		return meta_main(argc, argv);
	if (!strcmp(argv[1], "bonnie"))
		return bonnie_main(argc, argv);
	if (strcmp(argv[1], "run")) {
		error("iobench-mpi: '%s' is not implemented yet (iobench-mpi runs: run, meta, bonnie)",
		      argv[1]);
		return 1;
	}
	struct dist_comm c;
	if (dist_init(&c, &argc, &argv) < 0)
		return 1;
	struct dist_opts o = { .layout = DIST_FILE_PER_RANK };
	char **v = NULL;
	int n = 0, status;
	if (parse_mpi_opts(argc - 1, argv + 1, &o, &c.timeout_s, &v, &n) < 0) {
		dist_end(&c, 1); /* every rank has the same command line: all stop here */
		return 1;
	}
	if (c.rank != 0)
		v[n++] = (char *)"--no-store"; /* the root stores the cluster's run */
	v[n] = NULL;
	struct dist_run *d = dist_run_new(&c, &o);
	struct dist_hooks h;
	dist_run_hooks(d, &h);
	status = command_run_dist(command_find("run"), n, v, &h);
	status = dist_run_finish(d, status);
	dist_run_free(d);
	free(v);
	dist_end(&c, status);
	return status;
}
