/*
 * Engines own their options: every engine's rows are found through the
 * registry (and are not job options), each row's documented default is what
 * the engine's defaults struct holds, and a job that sets none runs with
 * those defaults. An option of another engine is handled as fio 3.33
 * handles it: refused naming the engines that have it; in a job file a
 * section's engine options meet the section's final ioengine, [global]'s
 * reach a job only while it keeps that engine; on the command line they
 * apply in order. Help and the man page list each engine with its options.
 */
#include "engines/engine.h"
#include "engines/faulty_int.h"
#include "jobfile/jobfile.h"
#include "spec/options.h"

#include "check.h"
#include "util/array.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char errbuf[4096];

/* Parse a job file text (or, with argv, a command line), stderr into errbuf. */
static int parse(struct job_list *l, const char *text, int argc, char **argv)
{
	struct jobfile_ctx ctx = { 0 };
	FILE *tmp = tmpfile();
	int saved = dup(2), ret;
	fflush(stderr);
	dup2(fileno(tmp), 2);
	if (argv)
		ret = jobfile_parse_args(argc, argv, l, &ctx);
	else
		ret = jobfile_parse_buffer("e.fio", text, strlen(text), 0, l, &ctx);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	size_t n = fread(errbuf, 1, sizeof(errbuf) - 1, tmp);
	errbuf[n] = '\0';
	fclose(tmp);
	return ret;
}

/* The bool option key of the engine job s runs with, as that engine sees it. */
static bool engine_flag(const struct job_spec *s, const char *key)
{
	struct engine_ctx ctx = { .ops = job_spec_engine(s) };
	const struct option_def *o = engine_option_find(ctx.ops, key);
	if (!o)
		return false;
	engine_ctx_setup(&ctx, s);
	return *(const bool *)((const char *)engine_options(&ctx) + o->off);
}

static const struct job_spec *job(const struct job_list *l, const char *name)
{
	for (size_t i = 0; i < l->nr; i++)
		if (!strcmp(l->jobs[i].name, name))
			return &l->jobs[i];
	return NULL;
}

static void test_registry_rows(void)
{
	const struct engine_ops *e;
	size_t with = 0;
	CHECK(engines_validate() == 0, "engine tables valid");
	for (size_t i = 0; (e = engine_at(i)); i++) {
		with += e->nr_options > 0;
		for (size_t k = 0; k < e->nr_options; k++) {
			const struct option_def *o = &e->options[k];
			CHECK(engine_option_find(e, o->name) == o, "%s: finds its '%s'", e->name, o->name);
			CHECK(option_find(o->name) == NULL, "'%s' is %s's, not a job option", o->name, e->name);
			CHECK(option_find_engine(o->name) != NULL && option_find_any(o->name) != NULL,
			      "'%s' found through the registry", o->name);
		}
		/* the defaults are the rows' defs: each stored once, in table order */
		if (!e->nr_options)
			continue;
		unsigned char *buf = malloc(e->options_size), *again = malloc(e->options_size);
		char why[256];
		CHECK(engine_options_init(e, buf, 1024, why, sizeof(why)) == 0, "%s's defaults: %s",
		      e->name, why);
		memcpy(again, buf, e->options_size);
		for (size_t k = 0; k < e->nr_options; k++) {
			const struct option_def *o = &e->options[k];
			struct opt_ctx c = { .opt = o, .key = o->name, .kb_base = 1024, .why = why,
					     .whylen = sizeof(why) };
			if (o->def)
				CHECK(optdef_set(o, again, o->def, &c) == 0, "%s %s=%s: %s", e->name, o->name,
				      o->def, why);
		}
		CHECK(!memcmp(buf, again, e->options_size), "%s: giving each row's default again "
							    "changes nothing",
		      e->name);
		free(again);
		free(buf);
	}
	/* defaults that are not zero, as fio's: read at their rows' offsets */
	static const struct {
		const char *engine, *opt;
		uint64_t want;
	} nonzero[] = {
		{ "pvsync2", "hipri_percentage", 100 },
		{ "net", "ttl", 1 },
		{ "exec", "grace_time", 1 },
		{ "exec", "std_redirect", 1 },
		{ "cpuio", "cpuchunks", 50000 },
	};
	for (size_t k = 0; k < ARRAY_SIZE(nonzero); k++) {
		const struct engine_ops *ne = engine_find(nonzero[k].engine);
		const struct option_def *o = ne ? engine_option_find(ne, nonzero[k].opt) : NULL;
		CHECK(o != NULL, "%s has %s", nonzero[k].engine, nonzero[k].opt);
		if (!o)
			continue;
		unsigned char *buf = malloc(ne->options_size);
		char why[256];
		uint64_t got = 0;
		CHECK(engine_options_init(ne, buf, 1024, why, sizeof(why)) == 0, "%s", why);
		if (o->type == OPT_BOOL)
			got = *(bool *)(buf + o->off);
		else if (o->width == 8)
			memcpy(&got, buf + o->off, 8);
		else
			got = *(unsigned *)(buf + o->off);
		CHECK(got == nonzero[k].want, "%s's %s defaults to %llu (got %llu)", ne->name, o->name,
		      (unsigned long long)nonzero[k].want, (unsigned long long)got);
		free(buf);
	}
	CHECK(with == 12, "io_uring, libaio, pvsync2, mmap, faulty, filestat, cpuio, exec, sg, net, "
	      "netsplice and e4defrag have options (%zu engines do)", with);
	/* which engines take which fio option, as fio 3.33 accepts them */
	static const struct { const char *opt, *engines; } fio[] = {
		{ "hipri", " pvsync2 io_uring sg " },
		{ "readfua", " sg " },
		{ "sg_write_mode", " sg " },
		{ "cpuload", " cpuio " },
		{ "exit_on_io_done", " cpuio " },
		{ "program", " exec " },
		{ "grace_time", " exec " },
		{ "hostname", " net netsplice " },
		{ "pingpong", " net netsplice " },
		{ "donorname", " e4defrag " },
		{ "inplace", " e4defrag " },
		{ "nowait", " pvsync2 io_uring libaio " },
		{ "uncached", " pvsync2 io_uring " },
		{ "fixedbufs", " io_uring " },
		{ "registerfiles", " io_uring " },
		{ "sqthread_poll", " io_uring " },
		{ "sqthread_poll_cpu", " io_uring " },
		{ "nonvectored", " io_uring " },
		{ "userspace_reap", " libaio " },
		{ "stat_type", " filestat " },
		{ "hipri_percentage", " pvsync2 " },
		{ "thp", " mmap " },
		{ "force_async", " io_uring " },
	};
	for (size_t k = 0; k < ARRAY_SIZE(fio); k++)
		for (size_t i = 0; (e = engine_at(i)); i++) {
			char word[32];
			snprintf(word, sizeof(word), " %s ", e->name);
			bool want = strstr(fio[k].engines, word) != NULL;
			CHECK(!engine_option_find(e, fio[k].opt) == !want, "%s %s '%s', as in fio", e->name,
			      want ? "takes" : "refuses", fio[k].opt);
		}
	CHECK(engine_option_find(NULL, "hipri") == NULL && option_find_engine("bs") == NULL,
	      "no engine, no job option");
}

static void test_defaults_applied(void)
{
	char why[256];
	struct job_spec s;
	const struct engine_ops *e;
	for (size_t i = 0; (e = engine_at(i)); i++) {
		job_spec_defaults(&s);
		CHECK(option_set(&s, "ioengine", e->name, why, sizeof(why)) == 0, "%s", why);
		job_spec_finalize(&s);
		struct engine_ctx ctx = { .ops = e };
		CHECK(engine_ctx_setup(&ctx, &s) == 0, "%s: set up", e->name);
		bool same = !e->nr_options;
		if (e->nr_options && ctx.opts) {
			unsigned char *d = malloc(e->options_size);
			same = engine_options_init(e, d, 1024, why, sizeof(why)) == 0 &&
			       !memcmp(d, engine_options(&ctx), e->options_size);
			free(d);
		}
		CHECK(!ctx.opts == !e->nr_options && same, "%s: no option given, its defaults", e->name);
		job_spec_release(&s);
	}
	/* one faulty option given: the others keep their defaults */
	job_spec_defaults(&s);
	s.iodepth = 4;
	CHECK(option_set(&s, "ioengine", "faulty", why, sizeof(why)) == 0, "%s", why);
	CHECK(option_set(&s, "faulty_dir", "write", why, sizeof(why)) == 0, "%s", why);
	job_spec_finalize(&s);
	struct engine_ctx ctx = { .ops = engine_find("faulty") };
	engine_ctx_setup(&ctx, &s);
	const struct faulty_opts *o = engine_options(&ctx);
	CHECK(ctx.opts && o->dir == RW_WRITE && !strcmp(o->engine, "psync") && o->err == EIO &&
	      o->delay_select.kind == FAULTY_SEL_EVERY && o->delay_select.every == 1 &&
	      o->fail.kind == FAULTY_SEL_NONE && o->delay == 0, "faulty_dir=write over the defaults");
	CHECK(ctx.params.iodepth == 4, "engine_params carry iodepth");
	/* a copy owns its own engine options */
	struct job_spec t;
	job_spec_copy(&t, &s);
	CHECK(t.engine_opts && t.engine_opts != s.engine_opts &&
	      !memcmp(t.engine_opts, s.engine_opts, sizeof(struct faulty_opts)), "deep copy");
	job_spec_release(&t);
	job_spec_release(&s);
}

static void test_other_engine(void)
{
	char why[256];
	struct job_spec s;
	job_spec_defaults(&s);
	CHECK(option_set(&s, "hipri", NULL, why, sizeof(why)) == -EINVAL &&
	      !strcmp(why, "'hipri' is not an option of engine 'psync' (pvsync2, io_uring and sg have it)"),
	      "hipri with psync: %s", why);
	CHECK(option_set(&s, "nowait", NULL, why, sizeof(why)) == -EINVAL &&
	      !strcmp(why, "'nowait' is not an option of engine 'psync' (pvsync2, io_uring and libaio have it)"),
	      "nowait with psync: %s", why);
	CHECK(option_set(&s, "userspace_reap", NULL, why, sizeof(why)) == -EINVAL &&
	      !strcmp(why, "'userspace_reap' is not an option of engine 'psync' (libaio has it)"),
	      "userspace_reap with psync: %s", why);
	job_spec_release(&s);

	struct job_list l = { 0 };
	/* fio: within a section the engine options meet its final ioengine */
	CHECK(parse(&l, "[x]\nhipri\nioengine=pvsync2\nsize=1m\n", 0, NULL) == 1 && l.nr == 1 &&
	      engine_flag(&l.jobs[0], "hipri"), "hipri before ioengine=pvsync2 in a section: %s", errbuf);
	job_list_release(&l);
	/* fio: "Bad option <hipri>", the job dropped */
	CHECK(parse(&l, "[x]\nioengine=psync\nhipri\n", 0, NULL) < 0 &&
	      strstr(errbuf, "e.fio:3:1: error: 'hipri' is not an option of engine 'psync' "
			     "(pvsync2, io_uring and sg have it)"), "hipri with psync in a file: %s", errbuf);
	job_list_release(&l);
	/* fio: [global] hipri with the default engine drops [global] */
	CHECK(parse(&l, "[global]\nhipri\n[x]\nioengine=pvsync2\n", 0, NULL) < 0 &&
	      strstr(errbuf, "e.fio:2:1: error: 'hipri' is not an option of engine 'psync'"),
	      "hipri in [global] before any ioengine: %s", errbuf);
	job_list_release(&l);
	/* fio: [global]'s engine options reach the jobs that keep its engine */
	CHECK(parse(&l, "[global]\nioengine=io_uring\nsqthread_poll=1\nsize=1m\n"
		    "[x]\n[y]\nioengine=io_uring\n[z]\nioengine=pvsync2\n", 0, NULL) == 3 && l.nr == 3,
	      "[global] io_uring options: %s", errbuf);
	CHECK(job(&l, "x") && engine_flag(job(&l, "x"), "sqthread_poll"), "x inherits sqthread_poll");
	CHECK(job(&l, "y") && engine_flag(job(&l, "y"), "sqthread_poll"), "y keeps io_uring: inherits it");
	CHECK(job(&l, "z") && job(&l, "z")->engine_opts_of == engine_find("pvsync2") &&
		      !engine_flag(job(&l, "z"), "hipri"),
	      "z switches to pvsync2: its defaults");
	job_list_release(&l);
	/* fio's command line: an engine option is known only after --ioengine */
	char *bad[] = { "--name=x", "--hipri", "--ioengine=pvsync2", "--size=1m" };
	CHECK(parse(&l, NULL, 4, bad) < 0 && strstr(errbuf, "'hipri' is not an option of engine 'psync'"),
	      "--hipri before --ioengine refused: %s", errbuf);
	job_list_release(&l);
	char *good[] = { "--ioengine=pvsync2", "--hipri", "--name=x", "--size=1m" };
	CHECK(parse(&l, NULL, 4, good) == 1 && l.nr == 1 && engine_flag(&l.jobs[0], "hipri"),
	      "--ioengine=pvsync2 --hipri accepted: %s", errbuf);
	job_list_release(&l);
}

static void test_help_lists_engines(void)
{
	char *buf = NULL;
	size_t len = 0;
	const struct engine_ops *e;
	FILE *f = open_memstream(&buf, &len);
	options_print_help(f);
	fclose(f);
	for (size_t i = 0; (e = engine_at(i)); i++) {
		char line[256];
		snprintf(line, sizeof(line), "\n%-28s %s\n", e->name, e->summary);
		CHECK(strstr(buf, line), "help lists engine '%s' with its summary", e->name);
		if (!e->nr_options)
			continue;
		snprintf(line, sizeof(line), "\noptions of ioengine=%s ", e->name);
		const char *sec = strstr(buf, line);
		CHECK(sec, "help has a section for %s's options", e->name);
		for (size_t k = 0; sec && k < e->nr_options; k++) {
			/* "name " or, with aliases, "name, alias" */
			snprintf(line, sizeof(line), "\n%s%s", e->options[k].name,
				 e->options[k].alias[0] ? "," : " ");
			const char *at = strstr(sec, line), *next = strstr(sec + 1, "\noptions of ioengine=");
			CHECK(at && (!next || at < next), "'%s' listed under %s", e->options[k].name, e->name);
		}
	}
	const struct option_def *io = option_find("ioengine");
	char help[512];
	optdef_help(io, help, sizeof(help));
	CHECK(strstr(help, "psync") && strstr(help, "faulty") && strstr(help, "io_uring"),
	      "ioengine's help names the registry's engines: %s", help);
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	options_print_man_engines(f);
	fclose(f);
	CHECK(!strncmp(buf, ".SH ENGINES\n", 12) && strstr(buf, ".B io_uring\n") &&
	      strstr(buf, "\\fBsqthread_poll\\fR") && strstr(buf, "\\fBfaulty_fail\\fR"),
	      "the man page's ENGINES section");
	free(buf);
}

int main(void)
{
	test_registry_rows();
	test_defaults_applied();
	test_other_engine();
	test_help_lists_engines();
	return check_done("test_engine_options");
}
