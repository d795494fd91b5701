/*
 * One point of a sweep (sweep_int.h): its setup (the setup templates with
 * the teardown ones journaled first, mkfs through the device guard, the
 * mount, the scheduler, the queue knobs, the iosched knobs, the sysctls),
 * the page cache dropped, the workload run as this binary in a child with
 * the point's labels (a command = workload: sweep_command.c), and the teardown: the journal undone back to where
 * the point began. In a dry run each step is printed instead.
 */
#include "sweep/sweep_int.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sweep/sweep_exec_int.h"
#include "sweep/sweep_journal_int.h"
#include "sweep/sweep_operands_int.h"
#include "sys/dev/devguard.h"
#include "sys/dropcache.h"
#include "sys/sysknob.h"
#include "util/error.h"
#include "util/xmalloc.h"

/* argv's operands name no block device but the sweep's own (checked
 * again as it runs: the plan's check saw the machine before the loop
 * devices were attached). */
static int operands_ok(struct sweep_ctx *c, char *const *argv, bool shell, char *why,
		       size_t whylen)
{
	if (c->dry)
		return 0;
	struct devoperand_allow al = { .devs = (const char *const *)c->devs, .ndev = c->ndev,
				       .allow = &c->allow, .whose = "a device of the sweep" };
	for (size_t i = 1; argv[i]; i++) {
		bool sh = shell && i == 2 && !strcmp(argv[1], "-c");
		if (devoperand_check(argv[i], sh, &al, NULL, why, whylen) < 0)
			return -1;
	}
	return 0;
}

static int step_exec(struct sweep_ctx *c, char *const *argv, const char *what, bool keep,
		     char *why, size_t whylen)
{
	if (c->dry) {
		char *t = sweep_argv_text(argv);
		fprintf(c->out, "  %s\n", t);
		free(t);
		return 0;
	}
	if (operands_ok(c, argv, !strcmp(argv[0], "/bin/sh"), why, whylen) < 0)
		return -1;
	struct sweep_cmd cmd = { .argv = argv, .what = what, .stop = c->stop, .journal = &c->j,
				 .keep_group = keep };
	return sweep_exec(&cmd, why, whylen);
}

int sweep_step_exec(struct sweep_ctx *c, char *const *argv, const char *what, char *why,
		    size_t whylen)
{
	return step_exec(c, argv, what, false, why, whylen);
}

int sweep_set_knob(struct sweep_ctx *c, const char *file, const char *value, char *why,
		   size_t whylen)
{
	if (c->dry) {
		fprintf(c->out, "  write %s = %s (the old value restored after the point)\n", file,
			value);
		return 0;
	}
	char old[256];
	if (sysknob_read(file, old, sizeof(old), why, whylen) < 0)
		return -1;
	if (sweep_journal_add(&c->j, "knob", file, old, NULL) < 0) {
		snprintf(why, whylen, "cannot journal the knob '%s'", file);
		return -1;
	}
	return sysknob_write_in(c->j.sysfs, file, value, why, whylen) < 0 ? -1 : 0;
}

char *sweep_expand(const struct sweep_ctx *c, size_t i, const char *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return xstrdup(t);
	const struct sweep_plan *p = c->p;
	for (const char *s = t; *s;) {
		const char *close = *s == '{' ? strchr(s, '}') : NULL;
		if (!close) {
			fputc(*s++, m);
			continue;
		}
		size_t n = (size_t)(close - s - 1);
		const char *val = NULL;
		for (size_t f = 0; f < p->nr_factors && !val; f++)
			if (strlen(p->factors[f].name) == n && !strncmp(p->factors[f].name, s + 1, n)) {
				val = sweep_point_level(p, c->pts, i, f);
				if (!val)
					val = "";
			}
		if (!val && n == 3 && !strncmp(s + 1, "dev", 3))
			val = c->ndev ? c->devs[0] : "";
		if (!val && n == 3 && !strncmp(s + 1, "mnt", 3))
			val = c->mnt;
		if (!val && n == 2 && !strncmp(s + 1, "fs", 2))
			val = sweep_point_fs(p, c->pts, i) ? sweep_point_fs(p, c->pts, i) : "";
		if (!val && n == 4 && !strncmp(s + 1, "devs", 4)) {
			for (size_t d = 0; d < c->ndev; d++)
				fprintf(m, "%s%s", d ? " " : "", c->devs[d]);
			s = close + 1;
			continue;
		}
		if (!val) {
			fputc(*s++, m);
			continue;
		}
		fputs(val, m);
		s = close + 1;
	}
	fclose(m);
	return buf;
}

static void push_words(char ***v, size_t *n, size_t *alloc, const char *line)
{
	char **w = sweep_words(line);
	for (char **p = w; *p; p++) {
		*v = xgrow(*v, alloc, *n + 1, sizeof(**v));
		(*v)[(*n)++] = *p;
	}
	free(w); /* the words now belong to *v */
}

static void push(char ***v, size_t *n, size_t *alloc, char *s)
{
	*v = xgrow(*v, alloc, *n + 1, sizeof(**v));
	(*v)[(*n)++] = s;
}

static void free_argv(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static int make_fs(struct sweep_ctx *c, size_t i, const char *fs, char *why, size_t whylen)
{
	const struct sweep_plan *p = c->p;
	char **argv = NULL;
	size_t n = 0, alloc = 0;
	push(&argv, &n, &alloc, xasprintf("mkfs.%s", fs));
	if (!strncmp(fs, "ext", 3)) {
		push(&argv, &n, &alloc, xstrdup("-F"));
		push(&argv, &n, &alloc, xstrdup("-q"));
	} else if (!strcmp(fs, "xfs") || !strcmp(fs, "btrfs")) {
		push(&argv, &n, &alloc, xstrdup("-f"));
		push(&argv, &n, &alloc, xstrdup("-q"));
	}
	size_t fl = strlen(fs);
	for (size_t k = 0; k < p->nr_fixed_mkfs; k++)
		if (!strncmp(p->fixed_mkfs[k], fs, fl) && p->fixed_mkfs[k][fl] == '\t')
			push_words(&argv, &n, &alloc, p->fixed_mkfs[k] + fl + 1);
	for (size_t f = 0; f < p->nr_factors; f++) {
		const char *l = sweep_point_level(p, c->pts, i, f);
		if (!l)
			continue;
		if (p->factors[f].kind == SWF_MKFS)
			push_words(&argv, &n, &alloc, l);
		else if (p->factors[f].kind == SWF_BTRFS_DATA || p->factors[f].kind == SWF_BTRFS_META) {
			push(&argv, &n, &alloc,
			     xstrdup(p->factors[f].kind == SWF_BTRFS_DATA ? "-d" : "-m"));
			push(&argv, &n, &alloc, xstrdup(l));
		}
	}
	size_t ndev = !strcmp(fs, "btrfs") ? c->ndev : 1; /* btrfs spans them all */
	for (size_t d = 0; d < ndev; d++) {
		if (!c->dry && devguard_check(c->devs[d], DEVGUARD_FORMAT | DEVGUARD_WRITE, &c->allow,
					      why, whylen) < 0) {
			char r[1024];
			snprintf(r, sizeof(r), "%s", why);
			snprintf(why, whylen, "refusing to format '%s': %s", c->devs[d], r);
			free_argv(argv, n);
			return -1;
		}
		push(&argv, &n, &alloc, xstrdup(c->devs[d]));
	}
	push(&argv, &n, &alloc, NULL);
	int rc = sweep_step_exec(c, argv, argv[0], why, whylen);
	free_argv(argv, n);
	return rc;
}

static int mount_fs(struct sweep_ctx *c, size_t i, const char *fs, char *why, size_t whylen)
{
	const struct sweep_plan *p = c->p;
	char *opts = xstrdup(p->fixed_mount ? p->fixed_mount : "");
	for (size_t f = 0; f < p->nr_factors; f++) {
		const char *l = sweep_point_level(p, c->pts, i, f);
		if (l && p->factors[f].kind == SWF_MOUNT) {
			char *o = xasprintf("%s%s%s", opts, *opts ? "," : "", l);
			free(opts);
			opts = o;
		}
	}
	for (size_t d = 1; !strcmp(fs, "btrfs") && d < c->ndev; d++) {
		char *o = xasprintf("%s%sdevice=%s", opts, *opts ? "," : "", c->devs[d]);
		free(opts);
		opts = o;
	}
	char *argv[] = { "mount", "-t", (char *)fs, "-o", opts, c->devs[0], c->mnt, NULL };
	if (!*opts) { /* no -o */
		argv[3] = c->devs[0];
		argv[4] = c->mnt;
		argv[5] = NULL;
	}
	int rc = 0;
	size_t e = 0;
	if (!c->dry && sweep_journal_add(&c->j, "mount", c->mnt, c->devs[0], &e) < 0) {
		snprintf(why, whylen, "cannot journal the mount of '%s'", c->mnt);
		rc = -1;
	}
	if (!rc)
		rc = sweep_step_exec(c, argv, "mount", why, whylen);
	char proof[PATH_MAX + 32];
	if (!rc && !c->dry &&
	    (sweep_mount_proof(c->mnt, proof, sizeof(proof)) < 0 ||
	     sweep_journal_prove(&c->j, e, proof) < 0)) {
		snprintf(why, whylen, "cannot record the mount id of '%s' in the journal", c->mnt);
		rc = -1;
	}
	free(opts);
	return rc;
}

static int set_knobs(struct sweep_ctx *c, size_t i, char *why, size_t whylen)
{
	const struct sweep_plan *p = c->p;
	char file[PATH_MAX];
	/* the scheduler first: the iosched/ knobs are its own; md knobs last */
	for (int pass = 0; pass < 5; pass++)
		for (size_t f = 0; f < p->nr_factors; f++) {
			const struct sweep_factor *x = &p->factors[f];
			const char *l = sweep_point_level(p, c->pts, i, f);
			bool ios = x->kind == SWF_QUEUE && !strncmp(x->knob, "iosched/", 8);
			if (!l || !((pass == 0 && x->kind == SWF_SCHED) ||
				    (pass == 1 && x->kind == SWF_QUEUE && !ios) || (pass == 2 && ios) ||
				    (pass == 3 && x->kind == SWF_VM) || (pass == 4 && x->kind == SWF_MD)))
				continue;
			if (x->kind == SWF_MD) {
				for (size_t d = 0; d < c->ndisk; d++)
					if (sysknob_md_path(c->j.sysfs, c->disks[d], x->knob, file, why,
							    whylen) < 0 ||
					    sweep_set_knob(c, file, l, why, whylen) < 0)
						return -1;
				continue;
			}
			if (x->kind == SWF_VM) {
				if (sysknob_vm_path(x->knob, file, why, whylen) < 0 ||
				    sweep_set_knob(c, file, l, why, whylen) < 0)
					return -1;
				continue;
			}
			for (size_t d = 0; d < c->ndisk; d++)
				if (c->dry && c->disks[d][0] == '<') /* not attached in a dry run */
					fprintf(c->out, "  write /sys/block/%s/queue/%s = %s (the old value "
						"restored after the point)\n", c->disks[d],
						x->kind == SWF_SCHED ? "scheduler" : x->knob, l);
				else if (sysknob_queue_path(c->disks[d],
						       x->kind == SWF_SCHED ? "scheduler" : x->knob,
						       file, why, whylen) < 0 ||
				    sweep_set_knob(c, file, l, why, whylen) < 0)
					return -1;
		}
	return 0;
}

void sweep_drop_caches(struct sweep_ctx *c)
{
	char why[256];
	int rc = 0;
	switch (c->p->drop) {
	case SWDROP_ALL:
		if (c->dry)
			fprintf(c->out, "  sync; echo 3 > /proc/sys/vm/drop_caches\n");
		else
			rc = dropcache_all(why, sizeof(why));
		break;
	case SWDROP_TARGET:
		if (c->dry)
			fprintf(c->out, "  syncfs %s; drop the page cache of its files%s\n", c->mnt,
				c->ndev ? " and its devices' buffers" : "");
		else
			rc = dropcache_under(c->mnt, c->devs, c->ndev, why, sizeof(why));
		break;
	case SWDROP_NONE:
		break;
	}
	if (rc < 0)
		warning("cannot drop the page cache before the workload: %s", why);
}

/* The workload's commands: each an argv (NULL-terminated) in *cmds. */
static size_t workload_argvs(struct sweep_ctx *c, size_t i, char ****cmds)
{
	const struct sweep_plan *p = c->p;
	size_t ncmd = p->workload == SWW_BONNIE ? p->nr_bonnie : 1;
	*cmds = xcalloc(ncmd, sizeof(**cmds));
	for (size_t k = 0; k < ncmd; k++) {
		char **v = NULL;
		size_t n = 0, alloc = 0;
		push(&v, &n, &alloc, xstrdup(c->exe));
		push(&v, &n, &alloc, xstrdup(p->workload == SWW_JOB ? "run"
					     : p->workload == SWW_BONNIE ? "bonnie" : "quick"));
		push(&v, &n, &alloc, xasprintf("--db=%s", c->o->db));
		for (size_t f = 0; f < p->nr_factors; f++) {
			const char *l = sweep_point_level(p, c->pts, i, f);
			if (l)
				push(&v, &n, &alloc, xasprintf("--label=%s=%s", p->factors[f].name, l));
		}
		if (p->repeat)
			push(&v, &n, &alloc, xasprintf("--repeat=%s", p->repeat));
		if (p->workload == SWW_JOB) {
			for (size_t f = 0; f < p->nr_factors; f++) {
				const char *l = sweep_point_level(p, c->pts, i, f);
				if (l && p->factors[f].kind == SWF_JOBOPT)
					push(&v, &n, &alloc, xasprintf("--set=%s=%s", p->factors[f].knob, l));
			}
			for (size_t j = 0; j < p->nr_jobs; j++)
				push(&v, &n, &alloc, xstrdup(p->jobs[j]));
		} else if (p->workload == SWW_BONNIE) {
			push_words(&v, &n, &alloc, p->bonnie[k]);
			bool has_d = false;
			for (size_t w = 2; w < n; w++)
				has_d |= !strcmp(v[w], "-d") || !strncmp(v[w], "-d", 2);
			if (!has_d) {
				push(&v, &n, &alloc, xstrdup("-d"));
				push(&v, &n, &alloc, xstrdup(c->mnt));
			}
		} else {
			push_words(&v, &n, &alloc, p->quick);
			push(&v, &n, &alloc, xstrdup(c->mnt));
		}
		push(&v, &n, &alloc, NULL);
		(*cmds)[k] = v;
	}
	return ncmd;
}

static int workload(struct sweep_ctx *c, size_t i, char *why, size_t whylen)
{
	const struct sweep_plan *p = c->p;
	if (p->workload == SWW_COMMAND)
		return sweep_command_point(c, i, why, whylen);
	char ***cmds;
	size_t ncmd = workload_argvs(c, i, &cmds);
	char *point = sweep_point_text(p, c->pts, i);
	char *env[] = { xasprintf("IOBENCH_SWEEP_ID=%" PRId64, c->sweep_id),
			xasprintf("IOBENCH_SWEEP_POINT=%s", point), NULL };
	int rc = 0;
	for (size_t k = 0; k < ncmd; k++) {
		if (!rc && c->stop && *c->stop)
			rc = -1, snprintf(why, whylen, "stopped by a signal");
		if (!rc)
			sweep_drop_caches(c);
		if (!rc && c->dry) {
			char *t = sweep_argv_text(cmds[k]);
			fprintf(c->out, "  (in %s) IOBENCH_SWEEP_ID=<id> %s %s\n", c->mnt, env[1], t);
			free(t);
		} else if (!rc) {
			const char *what = p->workload == SWW_JOB ? "iobench run"
					   : p->workload == SWW_BONNIE ? "iobench bonnie" : "iobench quick";
			struct sweep_cmd cmd = { .argv = cmds[k], .what = what, .cwd = c->mnt,
						 .env_add = env, .stop = c->stop, .journal = &c->j };
			rc = sweep_exec(&cmd, why, whylen);
		}
		for (char **w = cmds[k]; *w; w++)
			free(*w);
		free(cmds[k]);
	}
	free(cmds);
	free(env[0]);
	free(env[1]);
	free(point);
	return rc;
}

static void dry_teardown(struct sweep_ctx *c, size_t i, size_t mark)
{
	for (size_t t = 0; t < c->p->nr_teardown; t++) {
		char *cmd = sweep_expand(c, i, c->p->teardown[t]);
		fprintf(c->out, "  sh -c '%s'\n", cmd);
		free(cmd);
	}
	for (size_t e = c->j.n; e > mark; e--)
		c->j.v[e - 1].undone = true;
}

static int setup(struct sweep_ctx *c, size_t i, char *why, size_t whylen)
{
	const struct sweep_plan *p = c->p;
	for (size_t t = p->nr_teardown; t > 0 && !c->dry; t--) { /* undone in the order written */
		/* the journal names the template; restore looks it up in the
		 * stored plan */
		char id[32], at[48];
		snprintf(id, sizeof(id), "%" PRId64, c->sweep_id);
		snprintf(at, sizeof(at), "%zu:%zu", i, t - 1);
		int rc = sweep_journal_add(&c->j, "teardown", id, at, NULL);
		if (rc < 0) {
			snprintf(why, whylen, "cannot journal a teardown command");
			return -1;
		}
	}
	for (size_t t = 0; t < p->nr_setup; t++) {
		char *cmd = sweep_expand(c, i, p->setup[t]);
		char *argv[] = { "/bin/sh", "-c", cmd, NULL };
		/* what it starts stays until the point's teardown ends it */
		int rc = step_exec(c, argv, "setup command", true, why, whylen);
		free(cmd);
		if (rc < 0)
			return -1;
	}
	const char *fs = p->target == SWT_DIR ? NULL : sweep_point_fs(p, c->pts, i);
	if (fs && (make_fs(c, i, fs, why, whylen) < 0 || mount_fs(c, i, fs, why, whylen) < 0))
		return -1;
	return set_knobs(c, i, why, whylen);
}

int sweep_point_run(struct sweep_ctx *c, size_t i, char *why, size_t whylen)
{
	size_t mark = c->j.n;
	int rc = setup(c, i, why, whylen);
	if (!rc)
		rc = workload(c, i, why, whylen);
	if (c->dry) {
		if (rc < 0)
			fprintf(c->out, "  this point would fail: %s\n", why);
		if (c->p->target != SWT_DIR)
			fprintf(c->out, "  then: every knob written back, umount %s\n", c->mnt);
		else
			fprintf(c->out, "  then: every knob written back\n");
		dry_teardown(c, i, mark);
		return rc;
	}
	if (sweep_journal_rollback(&c->j, mark) < 0 && !rc) {
		snprintf(why, whylen, "the point's teardown failed (see above; "
			 "'iobench sweep --restore' tries again)");
		rc = -1;
	}
	/* what the point's writes made the kernel change beside them
	 * (read_ahead_kb after max_sectors_kb, the iosched/ knobs after a
	 * scheduler switch): every saved queue put back, said when not */
	sweep_knobs_restore(c, false);
	return rc;
}
