/*
 * The plan parser (sweep_plan_int.h): the job-file lexer splits the file into
 * sections and key = value items with their file:line:col; this file gives
 * them the plan's meaning and checks each: known sections and keys, the
 * factors' names and levels, the workload's files, the design. It reports
 * every problem before failing, as the job-file parser does.
 */
#include "sweep/sweep_plan_int.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jobfile/jobfile.h"
#include "jobfile/items.h"
#include "sweep/sweep_goal.h"
#include "sys/sysknob.h"
#include "util/array.h"
#include "util/error.h"
#include "util/units.h"
#include "util/xmalloc.h"

static const char *const queue_knobs[] = {
	"read_ahead_kb", "nr_requests", "max_sectors_kb", "rq_affinity",
	"nomerges", "wbt_lat_usec", "add_random", "iostats",
};

static const char *const known_factors =
	"fs, mkfs.FS, mount, mount.FS, scheduler, read_ahead_kb, nr_requests, max_sectors_kb, "
	"md.NAME, "
	"rq_affinity, nomerges, wbt_lat_usec, iosched/NAME, vm.NAME, btrfs.data, "
	"btrfs.metadata, job.OPTION";

static void add_str(char ***v, size_t *n, const char *s)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = xstrdup(s);
}

static void free_strs(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* mkfs.NAME on PATH (or in the sbin directories)? */
static bool have_mkfs(const char *fs)
{
	const char *path = getenv("PATH");
	char *dirs = xasprintf("%s:/usr/sbin:/sbin", path ? path : "/usr/bin:/bin");
	bool found = false;
	for (char *save, *d = strtok_r(dirs, ":", &save); d && !found;
	     d = strtok_r(NULL, ":", &save)) {
		char *f = xasprintf("%s/mkfs.%s", d, fs);
		found = access(f, X_OK) == 0;
		free(f);
	}
	free(dirs);
	return found;
}

/* An absolute path for name, relative ones to the plan's directory. */
static char *plan_relative(const char *plan, const char *name)
{
	if (name[0] == '/')
		return xstrdup(name);
	const char *slash = strrchr(plan, '/');
	char *dir = slash ? xstrndup(plan, (size_t)(slash - plan)) : NULL;
	char cwd[PATH_MAX];
	/* the plan's folder resolved, so a plan named through a symlink or
	 * '..' gives the same paths as the stored plan (its real path) does:
	 * restore compares the journal's paths with the stored plan's */
	char *real = realpath(dir ? (*dir ? dir : "/") : ".", NULL);
	char *base = real ? real
		     : dir && dir[0] == '/' ? xstrdup(dir)
		     : xasprintf("%s%s%s", getcwd(cwd, sizeof(cwd)) ? cwd : ".", dir ? "/" : "",
				 dir ? dir : "");
	char *out = xasprintf("%s%s%s", base, strcmp(base, "/") ? "/" : "", name);
	free(base);
	free(dir);
	return out;
}

/* Keep a text that reaches a program, with where it starts. */
static void add_text(struct sweep_plan *p, const char *text, const char *what, unsigned line,
		     unsigned col, bool shell)
{
	p->texts = xrealloc(p->texts, (p->nr_texts + 1) * sizeof(*p->texts));
	p->texts[p->nr_texts++] = (struct sweep_plan_text){ .text = xstrdup(text),
							    .what = xstrdup(what),
							    .line = line, .col = col, .shell = shell };
}

struct parse {
	struct jf_items *it;
	struct sweep_plan *p;
	const char *name;
};

static void plan_error(struct parse *ps, const struct jf_item *item, unsigned col,
		       const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void plan_error(struct parse *ps, const struct jf_item *item, unsigned col,
		       const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	jf_error(ps->it, &item->loc, col, "%s", msg);
}

static bool is_queue_knob(const char *k)
{
	for (size_t i = 0; i < ARRAY_SIZE(queue_knobs); i++)
		if (!strcmp(k, queue_knobs[i]))
			return true;
	return false;
}

/* A knob's word: [a-z0-9_]+ (sysctl and sysfs names; no '.', '/', blank). */
static bool knob_word(const char *s, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return false;
	return true;
}

/* The column of the first byte of k that breaks a knob word (k at col). */
static unsigned bad_col(const struct jf_item *item, const char *k)
{
	size_t i = 0;
	while (k[i] && knob_word(k + i, 1))
		i++;
	return item->loc.col + (unsigned)(k - item->name) + (unsigned)i;
}

static void known_queue(char *out, size_t len)
{
	out[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(queue_knobs); i++)
		snprintf(out + strlen(out), len - strlen(out), "%s%s", i ? ", " : "", queue_knobs[i]);
}

/* The kind of factor key, or -1 after reporting why it cannot be one
 * (md, the kernel's boot line). *param: it may be a template's {NAME}. */
static int classify(struct parse *ps, const struct jf_item *item, struct sweep_factor *f,
		    bool *param)
{
	const char *k = item->name;
	*param = false;
	f->knob = xstrdup(k);
	f->name = xstrdup(k);
	if (!strcmp(k, "fs"))
		return SWF_FS;
	if (!strncmp(k, "mkfs.", 5) && k[5]) {
		f->fsname = xstrdup(k + 5);
		return SWF_MKFS;
	}
	if (!strcmp(k, "mount"))
		return SWF_MOUNT;
	if (!strncmp(k, "mount.", 6) && k[6]) {
		f->fsname = xstrdup(k + 6);
		return SWF_MOUNT;
	}
	if (!strcmp(k, "scheduler"))
		return SWF_SCHED;
	if (is_queue_knob(k))
		return SWF_QUEUE;
	if (!strncmp(k, "queue/", 6) || !strncmp(k, "queue.", 6)) {
		char known[256];
		known_queue(known, sizeof(known));
		if (is_queue_knob(k + 6))
			plan_error(ps, item, 0, "'%s': name the queue knob without its folder: %s",
				   k, k + 6);
		else
			plan_error(ps, item, 0, "'%s' is not a queue knob a sweep changes (%s, "
				   "iosched.NAME, scheduler)", k, known);
		return -1;
	}
	if (!strncmp(k, "iosched/", 8) || !strncmp(k, "iosched.", 8)) {
		if (!knob_word(k + 8, strlen(k + 8))) {
			plan_error(ps, item, bad_col(item, k + 8), "'%s' is not an I/O scheduler "
				   "knob: iosched.NAME, NAME made of a-z, 0-9 and _ (a file of the "
				   "queue's iosched/ folder)", k);
			return -1;
		}
		free(f->knob);
		free(f->name);
		f->knob = xasprintf("iosched/%s", k + 8);
		f->name = xasprintf("iosched.%s", k + 8);
		return SWF_QUEUE;
	}
	if (!strncmp(k, "vm.", 3) || !strncmp(k, "vm/", 3)) {
		char file[PATH_MAX], why[256];
		if (k[2] != '.' || !knob_word(k + 3, strlen(k + 3)) ||
		    sysknob_vm_path(k, file, why, sizeof(why)) < 0) {
			plan_error(ps, item, k[2] == '.' ? bad_col(item, k + 3) : item->loc.col + 2,
				   "'%s' is not a vm sysctl: vm.NAME, NAME one word of a-z, 0-9 and _ "
				   "(a file of /proc/sys/vm: no '.', '..' or '/' in it)", k);
			return -1;
		}
		return SWF_VM;
	}
	if (!strcmp(k, "btrfs.data") || !strcmp(k, "btrfs.metadata")) {
		f->fsname = xstrdup("btrfs");
		return k[6] == 'd' ? SWF_BTRFS_DATA : SWF_BTRFS_META;
	}
	if (!strncmp(k, "job.", 4) && k[4]) {
		free(f->knob);
		f->knob = xstrdup(k + 4);
		return SWF_JOBOPT;
	}
	if (!strncmp(k, "md.", 3) && (!strncmp(k + 3, "chunk", 5) || !strcmp(k + 3, "level") ||
				      !strcmp(k + 3, "layout") || !strcmp(k + 3, "raid_disks"))) {
		plan_error(ps, item, 0, "'%s': an md array's chunk size (level, layout, disks) "
			   "cannot change while it runs: the array must be made again at each "
			   "point; make it a factor of a setup = template (mdadm --create ... "
			   "--chunk={chunk}) with a teardown = template that stops it (mdadm "
			   "--stop), as examples/sweep-dd-sync.plan shows", k);
		return -1;
	}
	if (!strncmp(k, "md.", 3)) {
		char file[PATH_MAX], why[256];
		if (sysknob_md_path(NULL, "md0", k + 3, file, why, sizeof(why)) < 0) {
			char known[512] = "";
			for (size_t i = 0; sysknob_md_knobs[i]; i++)
				snprintf(known + strlen(known), sizeof(known) - strlen(known), "%s%s",
					 i ? ", " : "", sysknob_md_knobs[i]);
			plan_error(ps, item, 0, "'%s' is not an md knob that changes at run time "
				   "(md.NAME: %s)", k, known);
			return -1;
		}
		free(f->knob);
		f->knob = xstrdup(k + 3);
		return SWF_MD;
	}
	if (!strcmp(k, "stripe_cache_size")) {
		plan_error(ps, item, 0, "'%s' is an md knob: name it md.%s", k, k);
		return -1;
	}
	if (!strncmp(k, "kernel", 6) || !strncmp(k, "boot", 4) || !strcmp(k, "cmdline") ||
	    !strcmp(k, "grub")) {
		plan_error(ps, item, 0, "'%s': kernel boot parameters are out of scope for a "
			   "sweep (it cannot reboot the machine between points); sweep the knobs "
			   "that change at run time", k);
		return -1;
	}
	*param = true;
	return SWF_PARAM;
}

static void add_factor(struct parse *ps, const struct jf_item *item)
{
	struct sweep_plan *p = ps->p;
	struct sweep_factor f = { .line = item->loc.line, .col = item->loc.col };
	bool param;
	int kind = classify(ps, item, &f, &param);
	if (kind < 0)
		goto drop;
	f.kind = (enum sweep_fkind)kind;
	for (size_t i = 0; i < p->nr_factors; i++)
		if (!strcmp(p->factors[i].name, f.name)) {
			plan_error(ps, item, 0, "factor '%s' is given twice (first at line %u)",
				   f.name, p->factors[i].line);
			goto drop;
		}
	if (!item->value || !*item->value) {
		plan_error(ps, item, 0, "factor '%s' needs levels: %s = LEVEL | LEVEL ...",
			   item->name, item->name);
		goto drop;
	}
	const char *v = item->value;
	unsigned col = item->value_col;
	for (;;) {
		const char *bar = strchr(v, '|');
		size_t n = bar ? (size_t)(bar - v) : strlen(v);
		char *raw = xstrndup(v, n);
		char *lvl = raw;
		unsigned lcol = col;
		while (*lvl == ' ' || *lvl == '\t') {
			lvl++;
			lcol++;
		}
		size_t ll = strlen(lvl);
		while (ll && (lvl[ll - 1] == ' ' || lvl[ll - 1] == '\t'))
			lvl[--ll] = '\0';
		if (!*lvl) {
			plan_error(ps, item, lcol, "empty level of factor '%s'", f.name);
		} else {
			bool dup = false;
			for (size_t i = 0; i < f.nr_levels && !dup; i++)
				dup = !strcmp(f.levels[i], lvl);
			if (dup)
				plan_error(ps, item, lcol, "level '%s' of factor '%s' is given twice", lvl,
					   f.name);
			else if (f.kind == SWF_FS && !have_mkfs(lvl))
				plan_error(ps, item, lcol, "filesystem '%s': there is no mkfs.%s on this "
					   "machine", lvl, lvl);
			else {
				add_str(&f.levels, &f.nr_levels, lvl);
				char *what = xasprintf("factor '%s', level '%s'", f.name, lvl);
				add_text(p, lvl, what, item->loc.line, lcol, false);
				free(what);
			}
		}
		free(raw);
		if (!bar)
			break;
		col += (unsigned)n + 1;
		v = bar + 1;
	}
	if (f.kind == SWF_MKFS && !have_mkfs(f.fsname))
		plan_error(ps, item, 0, "factor '%s': there is no mkfs.%s on this machine", f.name,
			   f.fsname);
	p->factors = xrealloc(p->factors, (p->nr_factors + 1) * sizeof(*p->factors));
	p->factors[p->nr_factors++] = f;
	return;
drop:
	free(f.name);
	free(f.knob);
	free(f.fsname);
	free_strs(f.levels, f.nr_levels);
}

static void target_item(struct parse *ps, const struct jf_item *item)
{
	struct sweep_plan *p = ps->p;
	const char *k = item->name, *v = item->value ? item->value : "";
	enum sweep_target_kind kind = SWT_NONE;
	if (!strcmp(k, "image"))
		kind = SWT_IMAGE;
	else if (!strcmp(k, "device"))
		kind = SWT_DEVICE;
	else if (!strcmp(k, "dir"))
		kind = SWT_DIR;
	if (kind != SWT_NONE) {
		if (!*v) {
			plan_error(ps, item, 0, "%s = needs a path", k);
			return;
		}
		if (p->target != SWT_NONE && p->target != kind) {
			plan_error(ps, item, 0, "a target is images, devices or one directory, not "
				   "several kinds (%s = after another kind)", k);
			return;
		}
		if (kind == SWT_DIR && p->nr_paths) {
			plan_error(ps, item, 0, "dir = is given twice");
			return;
		}
		p->target = kind;
		char *abs = kind == SWT_DEVICE ? xstrdup(v) : plan_relative(ps->name, v);
		add_str(&p->paths, &p->nr_paths, abs);
		free(abs);
	} else if (!strcmp(k, "image_size")) {
		const char *why = NULL;
		if (parse_size(v, 1024, &p->image_size, &why) < 0 || p->image_size < (1u << 20))
			plan_error(ps, item, item->value_col, "bad image_size '%s': %s", v,
				   why ? why : "give at least 1m");
	} else if (!strcmp(k, "direct_io")) {
		if (!strcmp(v, "1") || !strcmp(v, "on") || !strcmp(v, "true"))
			p->direct_io = true;
		else if (!strcmp(v, "0") || !strcmp(v, "off") || !strcmp(v, "false"))
			p->direct_io = false;
		else
			plan_error(ps, item, item->value_col, "bad direct_io '%s': give 1 or 0", v);
	} else if (!strcmp(k, "fs")) {
		if (!*v || !have_mkfs(v))
			plan_error(ps, item, item->value_col, "filesystem '%s': there is no mkfs.%s on "
				   "this machine", v, v);
		else {
			free(p->fs);
			p->fs = xstrdup(v);
		}
	} else if (!strncmp(k, "mkfs.", 5) && k[5]) {
		if (!have_mkfs(k + 5)) {
			plan_error(ps, item, 0, "'%s': there is no %s on this machine", k, k);
		} else {
			char *e = xasprintf("%s\t%s", k + 5, v);
			add_str(&p->fixed_mkfs, &p->nr_fixed_mkfs, e);
			add_text(p, v, "the mkfs options", item->loc.line, item->value_col, false);
			free(e);
		}
	} else if (!strcmp(k, "mount")) {
		free(p->fixed_mount);
		p->fixed_mount = xstrdup(v);
		add_text(p, v, "the mount options", item->loc.line, item->value_col, false);
	} else {
		plan_error(ps, item, 0, "unknown key '%s' in [target] (image, image_size, "
			   "direct_io, device, dir, fs, mkfs.FS, mount)", k);
	}
}

static bool repeat_ok(const char *v)
{
	if (!strncmp(v, "auto", 4)) {
		if (!v[4])
			return true;
		if (v[4] != ':')
			return false;
		char *end;
		double w = strtod(v + 5, &end);
		return end != v + 5 && (!strcmp(end, "%") || !*end) && w > 0 && w < 100;
	}
	char *end;
	unsigned long n = strtoul(v, &end, 10);
	return end != v && !*end && n >= 1 && n <= 10000;
}

/* The value of item as its line has it, from the value's column to the
 * end of the line: a shell command's ';' and '#' are the shell's, not the
 * lexer's comments (xmalloc'ed). */
static char *raw_value(const struct sweep_plan *p, const struct jf_item *item)
{
	const char *s = p->text, *end = p->text + p->text_len;
	for (unsigned l = 1; l < item->loc.line && s < end; l++) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		s = nl ? nl + 1 : end;
	}
	const char *e = memchr(s, '\n', (size_t)(end - s));
	if (!e)
		e = end;
	if (item->value_col && (size_t)(e - s) >= item->value_col - 1)
		s += item->value_col - 1;
	else
		return xstrdup(item->value ? item->value : "");
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		e--;
	return xstrndup(s, (size_t)(e - s));
}

static void workload_item(struct parse *ps, const struct jf_item *item)
{
	struct sweep_plan *p = ps->p;
	const char *k = item->name, *v = item->value ? item->value : "";
	enum sweep_workload_kind kind = SWW_NONE;
	if (!strcmp(k, "job"))
		kind = SWW_JOB;
	else if (!strcmp(k, "bonnie"))
		kind = SWW_BONNIE;
	else if (!strcmp(k, "quick"))
		kind = SWW_QUICK;
	else if (!strcmp(k, "command"))
		kind = SWW_COMMAND;
	if (!strcmp(k, "drop_caches")) {
		if (!strcmp(v, "all"))
			p->drop = SWDROP_ALL;
		else if (!strcmp(v, "target"))
			p->drop = SWDROP_TARGET;
		else if (!strcmp(v, "none"))
			p->drop = SWDROP_NONE;
		else
			plan_error(ps, item, item->value_col, "drop_caches = '%s': give all (the "
				   "machine's page cache), target (the target filesystem's files and "
				   "devices only) or none", v);
		return;
	}
	if (!strcmp(k, "repeat")) {
		if (!repeat_ok(v))
			plan_error(ps, item, item->value_col, "bad repeat '%s': give N or auto[:W%%], "
				   "as run --repeat takes it", v);
		else {
			free(p->repeat);
			p->repeat = xstrdup(v);
		}
		return;
	}
	if (kind == SWW_NONE) {
		plan_error(ps, item, 0, "unknown key '%s' in [workload] (job, bonnie, quick, "
			   "command, repeat, drop_caches)", k);
		return;
	}
	if (p->workload != SWW_NONE && p->workload != kind) {
		plan_error(ps, item, 0, "a workload is job files, bonnie lines, quick or a command, "
			   "not a mix "
			   "(%s = after another kind)", k);
		return;
	}
	p->workload = kind;
	if (kind == SWW_JOB) {
		if (!*v) {
			plan_error(ps, item, 0, "job = needs a job file");
			return;
		}
		char *abs = plan_relative(ps->name, v);
		const char *what = NULL;
		if (access(abs, R_OK) < 0)
			plan_error(ps, item, item->value_col, "job file '%s' cannot be read: %s", abs,
				   strerror(errno));
		else if ((what = jobfile_not_regular(abs)))
			plan_error(ps, item, item->value_col, "job file '%s' is %s, not a regular "
				   "file", abs, what);
		else
			add_str(&p->jobs, &p->nr_jobs, abs);
		free(abs);
	} else if (kind == SWW_BONNIE) {
		add_str(&p->bonnie, &p->nr_bonnie, v);
		add_text(p, v, "bonnie's arguments", item->loc.line, item->value_col, false);
	} else if (kind == SWW_COMMAND) {
		if (!*v)
			plan_error(ps, item, 0, "command = needs a shell command, e.g. command = dd "
				   "if=/dev/zero of={mnt}/f bs=1M count=64; sync");
		else if (p->command)
			plan_error(ps, item, 0, "command = is given twice (one command a plan: time "
				   "another in a plan of its own)");
		else {
			p->command = raw_value(p, item);
			add_text(p, p->command, "the command", item->loc.line, item->value_col, true);
		}
	} else {
		if (p->quick) {
			plan_error(ps, item, 0, "quick = is given twice");
			return;
		}
		p->quick = xstrdup(v);
		add_text(p, v, "quick's arguments", item->loc.line, item->value_col, false);
	}
}

static void design_item(struct parse *ps, const struct jf_item *item)
{
	struct sweep_plan *p = ps->p;
	const char *k = item->name, *v = item->value ? item->value : "";
	if (!strcmp(k, "type")) {
		char *end;
		if (!strcmp(v, "full")) {
			p->design = SWD_FULL;
		} else if (!strcmp(v, "ofat")) {
			p->design = SWD_OFAT;
		} else if (!strncmp(v, "lhs:", 4) && (p->lhs_n = (unsigned)strtoul(v + 4, &end, 10)) >= 2 &&
			   !*end && p->lhs_n <= 100000) {
			p->design = SWD_LHS;
		} else if (!strcmp(v, "race")) {
			p->design = SWD_RACE;
		} else {
			plan_error(ps, item, item->value_col, "bad design type '%s': give full, ofat, "
				   "lhs:N (N >= 2 points) or race", v);
			return;
		}
		free(p->design_text);
		p->design_text = xstrdup(v);
	} else if (!strcmp(k, "goal")) {
		struct sweep_goal g;
		char why[256];
		if (!*v) {
			plan_error(ps, item, 0, "goal = needs a figure, e.g. 'write bw'");
			return;
		}
		if (sweep_goal_parse(v, &g, why, sizeof(why)) < 0) {
			plan_error(ps, item, item->value_col, "%s", why);
			return;
		}
		free(p->goal);
		p->goal = xstrdup(v);
	} else if (!strcmp(k, "min_repeat") || !strcmp(k, "max_repeat")) {
		char *end;
		unsigned long n = strtoul(v, &end, 10);
		if (end == v || *end || n < 1 || n > 1000) {
			plan_error(ps, item, item->value_col, "bad %s '%s': give 1 to 1000 runs", k, v);
			return;
		}
		if (k[1] == 'i')
			p->race_min = (unsigned)n;
		else
			p->race_max = (unsigned)n;
	} else if (!strcmp(k, "seed")) {
		char *end;
		errno = 0;
		unsigned long long s = strtoull(v, &end, 0);
		if (errno || end == v || *end || *v == '-' || s > INT64_MAX)
			plan_error(ps, item, item->value_col, "bad seed '%s': give a number below "
				   "2^63", v);
		else {
			p->seed = s;
			p->seed_given = true;
		}
	} else {
		plan_error(ps, item, 0, "unknown key '%s' in [design] (type, goal, seed, min_repeat, "
			   "max_repeat)", k);
	}
}

enum section { SEC_NONE, SEC_TARGET, SEC_FACTORS, SEC_WORKLOAD, SEC_DESIGN, SEC_BAD };

static void item(struct parse *ps, enum section sec, const struct jf_item *it)
{
	switch (sec) {
	case SEC_TARGET:
		target_item(ps, it);
		break;
	case SEC_FACTORS:
		if (!strcmp(it->name, "setup") || !strcmp(it->name, "teardown")) {
			if (!it->value || !*it->value)
				plan_error(ps, it, 0, "%s = needs a command", it->name);
			else if (it->name[0] == 's')
				add_str(&ps->p->setup, &ps->p->nr_setup, it->value);
			else
				add_str(&ps->p->teardown, &ps->p->nr_teardown, it->value);
			if (it->value && *it->value)
				add_text(ps->p, it->value, it->name[0] == 's' ? "a setup template"
					 : "a teardown template", it->loc.line, it->value_col, true);
		} else {
			add_factor(ps, it);
		}
		break;
	case SEC_WORKLOAD:
		workload_item(ps, it);
		break;
	case SEC_DESIGN:
		design_item(ps, it);
		break;
	case SEC_NONE:
		plan_error(ps, it, 0, "'%s' is outside a section: a plan has [target], [factors], "
			   "[workload] and [design]", it->name);
		break;
	case SEC_BAD:
		break;
	}
}

static bool template_uses(const struct sweep_plan *p, const char *name)
{
	char *ph = xasprintf("{%s}", name);
	bool used = false;
	for (size_t i = 0; i < p->nr_setup && !used; i++)
		used = strstr(p->setup[i], ph) != NULL;
	for (size_t i = 0; i < p->nr_teardown && !used; i++)
		used = strstr(p->teardown[i], ph) != NULL;
	free(ph);
	return used;
}

/* What can only be checked once the whole file is read. */
static void check_whole(struct parse *ps, const struct jf_item *first)
{
	struct sweep_plan *p = ps->p;
	struct jf_item at = { .loc = { .file = first ? first->loc.file : ps->name, .line = 1,
				       .col = 1 } };
	const struct jf_item *where = first ? first : &at;
	for (size_t i = 0; i < p->nr_factors; i++) {
		struct sweep_factor *f = &p->factors[i];
		struct jf_item fi = { .loc = { .file = where->loc.file, .line = f->line,
					       .col = f->col } };
		if (f->kind == SWF_PARAM && !template_uses(p, f->name))
			plan_error(ps, &fi, 0, "unknown factor '%s' (known: %s; any other name must "
				   "appear as {%s} in a setup or teardown template)", f->name,
				   known_factors, f->name);
		if (f->kind == SWF_MD && p->target == SWT_IMAGE)
			plan_error(ps, &fi, 0, "factor '%s': the targets are image files attached "
				   "as loop devices, not an md array; an md knob needs [target] device "
				   "= /dev/mdN (or dir = on one)", f->name);
		if (f->kind == SWF_JOBOPT && p->workload != SWW_JOB)
			plan_error(ps, &fi, 0, "factor '%s' sets a fio job option: it needs job = "
				   "files in [workload]", f->name);
		if (p->target == SWT_DIR && (f->kind == SWF_FS || f->kind == SWF_MKFS ||
					     f->kind == SWF_MOUNT || f->kind == SWF_BTRFS_DATA ||
					     f->kind == SWF_BTRFS_META))
			plan_error(ps, &fi, 0, "factor '%s' remakes or remounts the filesystem: it "
				   "needs image = or device = targets, not dir = (remounting a "
				   "directory is not implemented yet)", f->name);
		if ((f->kind == SWF_BTRFS_DATA || f->kind == SWF_BTRFS_META) && p->nr_paths < 2) {
			bool single = true;
			for (size_t l = 0; l < f->nr_levels; l++)
				single &= !strcmp(f->levels[l], "single") || !strcmp(f->levels[l], "dup");
			if (!single)
				plan_error(ps, &fi, 0, "factor '%s': a btrfs profile over several devices "
					   "needs several image = or device = targets", f->name);
		}
	}
	if (p->target == SWT_NONE)
		plan_error(ps, where, 0, "the plan names no target: give [target] image = PATH, "
			   "device = /dev/X or dir = DIR");
	if (p->target == SWT_IMAGE && !p->image_size)
		plan_error(ps, where, 0, "[target] image = needs image_size =");
	if (p->target != SWT_IMAGE && p->image_size)
		plan_error(ps, where, 0, "image_size = is for image = targets");
	if (p->target != SWT_DIR && p->target != SWT_NONE && sweep_plan_find(p, SWF_FS) < 0 &&
	    !p->fs) {
		/* the filesystem of mkfs.FS / mount.FS when there is one */
		for (size_t i = 0; i < p->nr_factors && !p->fs; i++)
			if (p->factors[i].fsname)
				p->fs = xstrdup(p->factors[i].fsname);
		if (!p->fs)
			plan_error(ps, where, 0, "image and device targets are formatted at each "
				   "point: give a filesystem (fs = in [factors] or [target])");
	}
	if (p->workload == SWW_NONE)
		plan_error(ps, where, 0, "the plan names no workload: give [workload] job = FILE, "
			   "bonnie = ARGS, quick = or command = SHELL");
	if (p->workload == SWW_COMMAND && p->repeat && !strncmp(p->repeat, "auto", 4))
		plan_error(ps, where, 0, "repeat = %s with command = is not implemented yet: give "
			   "repeat = N", p->repeat);
	if (!p->nr_factors)
		plan_error(ps, where, 0, "the plan has no factors: give [factors] NAME = A | B");
	if (!p->design_text)
		p->design_text = xstrdup("full");
	if (p->design == SWD_RACE) {
		if (!p->goal)
			plan_error(ps, where, 0, "a race needs the figure it races on: give goal = in "
				   "[design], e.g. goal = write bw");
		if (p->repeat)
			plan_error(ps, where, 0, "a race decides the repetitions itself: give "
				   "min_repeat = and max_repeat = in [design] instead of repeat =");
		if (!p->race_min)
			p->race_min = 3;
		if (!p->race_max)
			p->race_max = 10;
		if (p->race_max < p->race_min)
			plan_error(ps, where, 0, "max_repeat = %u is below min_repeat = %u",
				   p->race_max, p->race_min);
	} else if (p->race_min || p->race_max) {
		plan_error(ps, where, 0, "min_repeat = and max_repeat = are the race's (type = "
			   "race); give repeat = in [workload]");
	}
}

int sweep_plan_parse(const char *name, const char *text, size_t len, struct sweep_plan *p)
{
	memset(p, 0, sizeof(*p));
	p->path = xstrdup(name);
	p->text = xstrndup(text, len);
	p->text_len = len;
	p->direct_io = true;
	struct jf_items it = { 0 };
	const char *stack[1] = { name };
	jf_lex_buffer(&it, jf_intern_file(&it, name), text, len, stack, 1);
	struct parse ps = { .it = &it, .p = p, .name = name };
	enum section sec = SEC_NONE;
	bool seen[SEC_BAD] = { 0 };
	for (size_t i = 0; i < it.nr; i++) {
		struct jf_item *x = &it.v[i];
		if (x->kind == JF_OPTION) {
			item(&ps, sec, x);
			continue;
		}
		if (x->broken) {
			sec = SEC_BAD;
			continue;
		}
		static const char *const names[] = { "", "target", "factors", "workload", "design" };
		sec = SEC_BAD;
		for (int s = SEC_TARGET; s < SEC_BAD; s++)
			if (!strcmp(x->name, names[s]))
				sec = (enum section)s;
		if (sec == SEC_BAD)
			plan_error(&ps, x, 0, "unknown section [%s]: a plan has [target], [factors], "
				   "[workload] and [design]", x->name);
		else if (seen[sec])
			plan_error(&ps, x, 0, "section [%s] is given twice", x->name);
		else
			seen[sec] = true;
	}
	if (!it.errors)
		check_whole(&ps, it.nr ? &it.v[0] : NULL);
	int errors = it.errors;
	jf_items_release(&it);
	if (errors) {
		sweep_plan_release(p);
		return -EINVAL;
	}
	return 0;
}

int sweep_plan_load(const char *path, struct sweep_plan *p)
{
	char *text;
	size_t len;
	memset(p, 0, sizeof(*p));
	int rc = jobfile_read_text(path, &text, &len);
	const char *kind = rc == -EINVAL ? jobfile_not_regular(path) : NULL;
	if (rc < 0)
		return error("%s: cannot read the plan: %s%s", path,
			     rc == -EINVAL ? (kind ? kind : "not a regular file") : strerror(-rc),
			     rc == -EINVAL ? ", not a regular file" : "");
	rc = sweep_plan_parse(path, text, len, p);
	free(text);
	return rc;
}

void sweep_plan_release(struct sweep_plan *p)
{
	free(p->path);
	free(p->text);
	free_strs(p->paths, p->nr_paths);
	free(p->fs);
	free_strs(p->fixed_mkfs, p->nr_fixed_mkfs);
	free(p->fixed_mount);
	for (size_t i = 0; i < p->nr_factors; i++) {
		free(p->factors[i].name);
		free(p->factors[i].knob);
		free(p->factors[i].fsname);
		free_strs(p->factors[i].levels, p->factors[i].nr_levels);
	}
	free(p->factors);
	free_strs(p->setup, p->nr_setup);
	free_strs(p->teardown, p->nr_teardown);
	free_strs(p->jobs, p->nr_jobs);
	free_strs(p->bonnie, p->nr_bonnie);
	free(p->quick);
	free(p->command);
	free(p->repeat);
	free(p->design_text);
	free(p->goal);
	for (size_t i = 0; i < p->nr_texts; i++) {
		free(p->texts[i].text);
		free(p->texts[i].what);
	}
	free(p->texts);
	memset(p, 0, sizeof(*p));
}

int sweep_plan_find(const struct sweep_plan *p, enum sweep_fkind k)
{
	for (size_t i = 0; i < p->nr_factors; i++)
		if (p->factors[i].kind == k)
			return (int)i;
	return -1;
}
