/*
 * From items to jobs: [global] sections accumulate into a template spec;
 * each job section starts from a copy of it, applies its own options
 * (kb_base first, since fio applies it to the whole section, and the
 * engine's own options last, against the engine the section ends up with,
 * as fio parses them), then the --set overrides, and is checked with
 * job_spec_validate(). Every option keeps where it was written so a problem
 * found late still points at file:line:col.
 * On any error the jobs added by this call are removed again.
 */
#include "jobfile/jobfile_int.h"
#include "spec/options.h"
#include "spec/extengine.h"
#include "engines/engine.h"
#include "util/xmalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct optloc {
	const char *canon; /* option_def name */
	struct jf_loc loc;
	unsigned value_col;
};

struct locs {
	struct optloc *v;
	size_t nr, alloc;
};

struct builder {
	struct jf_items *it;
	struct job_list *list;
	struct job_spec global;
	struct locs gl;
	struct jf_items sets;
	bool record_globals;
	unsigned file_index;
	unsigned jobs_here;
	bool dry; /* jobfile_ctx.parse_only */
	bool readonly; /* jobfile_ctx.readonly */
	bool debug; /* jobfile_ctx.debug_parse */
};

static void locs_add(struct locs *l, const char *canon, const struct jf_item *item)
{
	l->v = xgrow(l->v, &l->alloc, l->nr, sizeof(*l->v));
	l->v[l->nr++] = (struct optloc){ .canon = canon, .loc = item->loc, .value_col = item->value_col };
}

static void locs_copy(struct locs *dst, const struct locs *src)
{
	memset(dst, 0, sizeof(*dst));
	for (size_t i = 0; i < src->nr; i++) {
		dst->v = xgrow(dst->v, &dst->alloc, dst->nr, sizeof(*dst->v));
		dst->v[dst->nr++] = src->v[i];
	}
}

/* --debug=parse: the lines of fio's trace for an option handled, and for
 * the steady-state criterion the value it set (fio's wording, which its own
 * tests read). */
static void debug_option(const struct job_spec *s, const struct option_def *o, const char *value)
{
	unsigned pid = (unsigned)getpid();
	printf("%-8s %-5u handle_option=%s, ptr=%s\n", "parse", pid, o->name, value ? value : "(null)");
	if (!strcmp(o->name, "steadystate")) {
		if (s->ss_pct)
			printf("%-8s %-5u set steady state threshold to %f%%\n", "parse", pid, s->ss_limit);
		else if (s->ss_bw)
			printf("%-8s %-5u set steady state BW threshold to %llu\n", "parse", pid,
			       (unsigned long long)s->ss_limit);
		else
			printf("%-8s %-5u set steady state IOPS threshold to %f\n", "parse", pid, s->ss_limit);
	}
}

/* Apply one option item; report problems unless quiet. */
static void apply_item(struct builder *b, struct job_spec *s, const struct jf_item *item,
		       struct locs *l, bool quiet)
{
	const struct option_def *o = option_find_any(item->name);
	/* unknown, or an engine option the job's engine lacks: the key is wrong */
	bool bad_key = !o || (!option_find(item->name) &&
			      !engine_option_find(job_spec_engine(s), item->name));
	char why[512];
	char *value = item->value ? xstrdup(item->value) : NULL;
	if (o && value && o->type != OPT_STR) {
		bool bare = false;
		const char *ewhy = NULL;
		char *v = jf_expand_arith(value, &bare, &ewhy);
		if (!v) {
			if (!quiet)
				jf_error(b->it, &item->loc, item->value_col,
					 "invalid arithmetic expression '%s' for option '%s': %s",
					 value, item->name, ewhy);
			free(value);
			return;
		}
		if (bare && o->type == OPT_TIME) { /* fio: times in expressions are in us */
			char *t = xasprintf("%sus", v);
			free(v);
			v = t;
		}
		free(value);
		value = v;
	}
	int ret = option_set(s, item->name, value, why, sizeof(why));
	if (ret && !quiet)
		jf_error(b->it, &item->loc, !bad_key && item->value ? item->value_col : item->loc.col, "%s", why);
	if (!ret && o && l)
		locs_add(l, o->name, item);
	if (!ret && o && b->debug && !quiet)
		debug_option(s, o, value);
	free(value);
}

static bool is_kb_base(const struct jf_item *item)
{
	const struct option_def *o = option_find(item->name);
	return o && !strcmp(o->name, "kb_base");
}

/* An option some engine declares (hipri, faulty_fail...), not a job option. */
static bool is_engine_option(const struct jf_item *item)
{
	return !option_find(item->name) &&
	       (option_find_engine(item->name) || fio_ext_engine_option(item->name));
}

/* 0: kb_base, 1: the job options, 2: the engine's options */
static int item_pass(const struct jf_item *item)
{
	return is_kb_base(item) ? 0 : is_engine_option(item) ? 2 : 1;
}

/* Options of one section: items [from, to), kb_base first, engine options
 * last in a file (so they meet the section's final ioengine, as fio parses
 * a file) and in order on the command line (as fio's getopt takes them). */
static void apply_section(struct builder *b, struct job_spec *s, size_t from, size_t to,
			  struct locs *l)
{
	for (int pass = 0; pass < 3; pass++)
		for (size_t i = from; i < to; i++) {
			int p = item_pass(&b->it->v[i]);
			if ((b->it->cmdline && p == 2 ? 1 : p) == pass)
				apply_item(b, s, &b->it->v[i], l, false);
		}
}

/* Echo an option as fio does: under its own name, not the alias written
 * (timeout=60 is "runtime" : "60"), with arithmetic already evaluated. */
static void kv_append(struct job_kv **kv, size_t *nr, const struct jf_item *item)
{
	*kv = xrealloc(*kv, (*nr + 1) * sizeof(**kv));
	const struct option_def *o = option_find_any(item->name);
	(*kv)[*nr].key = xstrdup(o ? o->name : item->name);
	char *v = NULL;
	if (item->value && o && o->type != OPT_STR && strchr(item->value, '(')) {
		bool bare = false;
		const char *ewhy = NULL;
		v = jf_expand_arith(item->value, &bare, &ewhy);
	}
	(*kv)[*nr].value = v ? v : item->value ? xstrdup(item->value) : NULL;
	(*nr)++;
}

struct vctx {
	struct builder *b;
	const struct locs *l;
	const struct jf_loc *section;
};

/* keys: tiers separated by '|', alternatives by ','; in the first tier
 * with a match, the alternative written last is blamed. */
static void report_problem(void *arg, const char *keys, const char *msg)
{
	struct vctx *v = arg;
	const char *tier = keys;
	while (*tier) {
		size_t tlen = strcspn(tier, "|");
		for (size_t i = v->l->nr; i-- > 0;) {
			const char *canon = v->l->v[i].canon;
			size_t cl = strlen(canon);
			for (const char *p = tier; p < tier + tlen;) {
				size_t n = strcspn(p, ",|");
				if (n == cl && !strncmp(p, canon, n)) {
					jf_error(v->b->it, &v->l->v[i].loc, v->l->v[i].value_col, "%s", msg);
					return;
				}
				p += n + (p[n] == ',');
			}
		}
		tier += tlen + (tier[tlen] == '|');
	}
	jf_error(v->b->it, v->section, 0, "%s", msg);
}

static void build_job(struct builder *b, size_t sec, size_t to)
{
	const struct jf_item *hdr = &b->it->v[sec];
	struct job_spec js;
	struct locs l;
	job_spec_copy(&js, &b->global);
	locs_copy(&l, &b->gl);
	free(js.name);
	js.name = xstrdup(hdr->name);
	free(js.section);
	js.section = xstrdup(hdr->name);
	free(js.origin);
	js.origin = xasprintf("%s:%u", hdr->loc.file, hdr->loc.line);
	apply_section(b, &js, sec + 1, to, &l);
	for (size_t i = sec + 1; i < to; i++)
		kv_append(&js.opts, &js.nr_opts, &b->it->v[i]);
	/* checked once by read_sets(), so quiet; but only this job's engine
	 * tells whether it has an engine option */
	for (int pass = 1; pass < 3; pass++)
		for (size_t i = 0; i < b->sets.nr; i++) {
			const struct jf_item *set = &b->sets.v[i];
			if ((item_pass(set) == 2) != (pass == 2))
				continue;
			bool lacks = pass == 2 && !engine_option_find(job_spec_engine(&js), set->name);
			apply_item(b, &js, set, &l, !lacks);
		}
	for (size_t i = 0; i < b->sets.nr; i++)
		kv_append(&js.opts, &js.nr_opts, &b->sets.v[i]);
	if (b->file_index > 0 && b->jobs_here == 0)
		js.stonewall = true;
	job_spec_finalize(&js);
	struct vctx v = { .b = b, .l = &l, .section = &hdr->loc };
	job_spec_validate_flags(&js, (b->dry ? SPEC_VALIDATE_NO_FS : 0) |
					     (b->readonly ? SPEC_VALIDATE_READONLY : 0),
				report_problem, &v);
	free(l.v);
	struct job_spec *dst = job_list_add(b->list);
	job_spec_release(dst);
	*dst = js;
	b->jobs_here++;
}

static void build_global(struct builder *b, size_t sec, size_t to)
{
	apply_section(b, &b->global, sec + 1, to, &b->gl);
	if (b->record_globals)
		for (size_t i = sec + 1; i < to; i++)
			kv_append(&b->list->global_opts, &b->list->nr_global_opts, &b->it->v[i]);
}

/* --set KEY=VALUE strings as items, each checked once. */
static void read_sets(struct builder *b, const struct jobfile_ctx *ctx)
{
	struct jf_loc loc = { .file = jf_intern_file(&b->sets, "<--set>"), .col = 1 };
	for (size_t i = 0; ctx && i < ctx->nr_set; i++) {
		const char *kv = ctx->set_opts[i];
		const char *eq = strchr(kv, '=');
		size_t klen = eq ? (size_t)(eq - kv) : strlen(kv);
		loc.line = (unsigned)i + 1;
		struct jf_item *item = jf_add(&b->sets, JF_OPTION, kv, klen, &loc);
		if (eq) {
			item->value = xstrdup(eq + 1);
			item->value_col = (unsigned)klen + 2;
		}
	}
	/* the job options in order, then the engine options: against the
	 * --set ioengine, or else against the first engine that has each (the
	 * jobs' engines are not known yet; build_job() checks that each has it) */
	struct job_spec scratch;
	job_spec_defaults(&scratch);
	bool engine_set = false;
	for (size_t i = 0; i < b->sets.nr; i++)
		if (item_pass(&b->sets.v[i]) != 2) {
			const struct option_def *o = option_find(b->sets.v[i].name);
			engine_set |= o && !strcmp(o->name, "ioengine");
			apply_item(b, &scratch, &b->sets.v[i], NULL, false);
		}
	for (size_t i = 0; i < b->sets.nr; i++)
		if (item_pass(&b->sets.v[i]) == 2) {
			const struct engine_ops *e = job_spec_engine(&scratch);
			if (!option_find_engine(b->sets.v[i].name)) {
				/* a fio external engine's: checked as the first one with it */
				struct job_spec one;
				job_spec_copy(&one, &scratch);
				if (!engine_set)
					one.ext_engine = fio_ext_engine_having(b->sets.v[i].name);
				apply_item(b, &one, &b->sets.v[i], NULL, false);
				job_spec_release(&one);
				continue;
			}
			for (size_t k = 0; !engine_set && !engine_option_find(e, b->sets.v[i].name); k++)
				e = engine_at(k);
			struct job_spec one;
			job_spec_copy(&one, &scratch);
			free(one.ioengine);
			one.ioengine = xstrdup(e->name);
			apply_item(b, &one, &b->sets.v[i], NULL, false);
			job_spec_release(&one);
		}
	job_spec_release(&scratch);
}

int jobfile_check_sets(const struct jobfile_ctx *ctx)
{
	struct jf_items it = { 0 };
	struct job_list none = { 0 };
	struct builder b = { .it = &it, .list = &none };
	read_sets(&b, ctx);
	int errors = it.errors;
	jf_items_release(&b.sets);
	jf_items_release(&it);
	return errors ? -EINVAL : 0;
}

int jf_build_jobs(struct jf_items *it, unsigned file_index, bool record_globals,
		  struct job_list *list, const struct jobfile_ctx *ctx)
{
	struct builder b = { .it = it, .list = list, .record_globals = record_globals,
			     .file_index = file_index, .dry = ctx && ctx->parse_only,
			     .readonly = ctx && ctx->readonly,
			     .debug = ctx && ctx->debug_parse };
	size_t first_job = list->nr, first_global = list->nr_global_opts;
	job_spec_defaults(&b.global);
	read_sets(&b, ctx);
	size_t i = 0;
	for (; i < it->nr && it->v[i].kind != JF_SECTION; i++)
		jf_error(it, &it->v[i].loc, 0, "option '%s' is outside a section (start a job with [name])",
			 it->v[i].name);
	while (i < it->nr) {
		size_t end = i + 1;
		while (end < it->nr && it->v[end].kind != JF_SECTION)
			end++;
		if (it->v[i].broken)
			; /* already reported; its options would only cascade */
		else if (!strcmp(it->v[i].name, "global"))
			build_global(&b, i, end);
		else
			build_job(&b, i, end);
		i = end;
	}
	/* fio: --parse-only with global options alone checks them */
	if (!b.jobs_here && !it->errors && !b.dry) {
		struct jf_loc loc = { .file = it->nr_files ? it->files[0] : "<input>", .line = 1, .col = 1 };
		jf_error(it, &loc, 0, "no jobs defined (a job starts with a [name] section header)");
	}
	job_spec_release(&b.global);
	free(b.gl.v);
	jf_items_release(&b.sets);
	if (it->errors) {
		for (size_t j = first_job; j < list->nr; j++)
			job_spec_release(&list->jobs[j]);
		list->nr = first_job;
		for (size_t j = first_global; j < list->nr_global_opts; j++) {
			free(list->global_opts[j].key);
			free(list->global_opts[j].value);
		}
		list->nr_global_opts = first_global;
		if (!list->nr_global_opts) {
			free(list->global_opts);
			list->global_opts = NULL;
		}
		return -EINVAL;
	}
	return (int)b.jobs_here;
}
