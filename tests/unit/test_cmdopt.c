/*
 * The command-line parser (cli/cmdopt.h) on a table of its own: values
 * after '=' and as the next word, missing values, abbreviations refused in
 * strict mode and taken in fio mode when unambiguous, ambiguous prefixes
 * named with their candidates, -long in fio mode, "did you mean", letters
 * grouped and with attached, next-word and optional values (-f, -f4),
 * foreign job options in order (each taking its value by its kind, and
 * by a unique prefix), "--", the help row, masks, going on after
 * a refusal; the usage printer; and the command table's own check and the
 * root flag.
 */
#include "check.h"
#include "cli/cmdopt.h"
#include "cmd/commands.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/strutil.h"
#include "util/xmalloc.h"

struct opts {
	const char *out, *fmt, *sval, *fval;
	bool parse_only, readonly, quiet, b, grouped, f_seen;
	struct cmdopt_list sets;
	struct cmdopt_list seq; /* operands and foreign words, in order */
};

static int f_cb(void *dest, const struct cmdopt *o, const char *v, char *why, size_t len)
{
	struct opts *t = dest;
	t->f_seen = true;
	t->fval = v;
	return 0;
}

static int check_cb(void *dest, const struct cmdopt *o, const char *v, char *why, size_t len)
{
	if (!strcmp(v, "bad")) {
		snprintf(why, len, "bad --check '%s': not good", v);
		return -EINVAL;
	}
	return 0;
}

#define OFF(f) offsetof(struct opts, f)
static const struct cmdopt rows[] = {
	{ "output", 0, CMDOPT_REQARG, CMDOPT_STRING, OFF(out), NULL, 0, "FILE", "write it to FILE" },
	{ "output-format", 0, CMDOPT_REQARG, CMDOPT_STRING, OFF(fmt), NULL, 0, "FMT", "its format" },
	{ "parse-only", 0, CMDOPT_NOARG, CMDOPT_TRUE, OFF(parse_only), NULL, 0, NULL, "parse" },
	{ "readonly", 0, CMDOPT_NOARG, CMDOPT_TRUE, OFF(readonly), NULL, 0, NULL, "no writes" },
	{ "set", 0, CMDOPT_REQARG, CMDOPT_APPEND, OFF(sets), NULL, 0, "KEY=VALUE", "override" },
	{ "check", 0, CMDOPT_REQARG, CMDOPT_CALL, 0, check_cb, 0, "X", NULL },
	{ "grouped", 0, CMDOPT_NOARG, CMDOPT_TRUE, OFF(grouped), NULL, 2, NULL, "only in group 2" },
	{ NULL, 'q', CMDOPT_NOARG, CMDOPT_TRUE, OFF(quiet), NULL, 0, NULL, NULL },
	{ NULL, 'b', CMDOPT_NOARG, CMDOPT_TRUE, OFF(b), NULL, 0, NULL, NULL },
	{ NULL, 'f', CMDOPT_OPTARG, CMDOPT_CALL, 0, f_cb, 0, "N", NULL },
	{ NULL, 's', CMDOPT_REQARG, CMDOPT_STRING, OFF(sval), NULL, 0, "SIZE", NULL },
	{ "help", 'h', CMDOPT_NOARG, CMDOPT_HELP, 0, NULL, 0, NULL, "this text" },
	CMDOPT_END,
};

/* the foreign job options: a few names of fio's */
static const char *const jobnames[] = { "name", "rw", "readwrite", "bs", "blocksize", "numjobs",
					"readonly", "group_reporting", "direct", NULL };

/* group_reporting is a fio "set" option (a value only after '='), direct
 * bool-like (the next word unless it is a flag), the others take one */
static int kind(void *arg, const char *key, size_t klen)
{
	for (const char *const *n = jobnames; *n; n++)
		if (strlen(*n) == klen && !strncmp(*n, key, klen))
			return !strcmp(*n, "group_reporting") ? CMDOPT_OPTARG
			       : !strcmp(*n, "direct")        ? CMDOPT_MAYBEARG
							      : CMDOPT_REQARG;
	return -1;
}

/* each job option as "--name[=value]", owned by words */
static struct cmdopt_list words;

static int take(void *arg, const char *name, size_t nlen, const char *value, char *why,
		size_t len)
{
	struct opts *t = arg;
	char *w = value ? xasprintf("--%.*s=%s", (int)nlen, name, value)
			: xasprintf("--%.*s", (int)nlen, name);
	cmdopt_list_add(&words, w);
	cmdopt_list_add(&t->seq, w);
	return 0;
}

static size_t prefixed(void *arg, const char *key, size_t klen, const char **out, size_t max)
{
	size_t n = 0;
	for (const char *const *j = jobnames; *j; j++)
		if (!strncmp(*j, key, klen)) {
			if (n < max)
				out[n] = *j;
			n++;
		}
	return n;
}

static const char *nearest(void *arg, const char *key, size_t *score)
{
	const char *best = suggest_nearest(key, (const char *const *)jobnames, 7);
	*score = best ? cmdopt_suggest_score(key, best) : (size_t)-1;
	return best;
}

static int operand(void *arg, const char *word, char *why, size_t len)
{
	struct opts *t = arg;
	cmdopt_list_add(&t->seq, word);
	return 0;
}

static const struct cmdopt_foreign foreign_jobs = { kind, take, prefixed, nearest, NULL };

static struct opts o;
static char why[512];
static bool keep_going;

/* Parse the NULL-terminated words after "test" into o, in mode, with the
 * rows under mask. */
static int parse_mask(enum cmdopt_mode mode, unsigned mask, ...)
{
	char *argv[32] = { (char *)"test" };
	int argc = 1;
	va_list ap;
	va_start(ap, mask);
	for (char *w; (w = va_arg(ap, char *)) != NULL && argc < 31;)
		argv[argc++] = w;
	va_end(ap);
	cmdopt_list_release(&o.sets);
	cmdopt_list_release(&o.seq);
	memset(&o, 0, sizeof(o));
	struct cmdopt_foreign fj = foreign_jobs;
	fj.arg = &o;
	struct cmdopt_parser p = {
		.mode = mode,
		.command = "test",
		.sets = { { rows, mask, &o } },
		.nr_sets = 1,
		.operand = operand,
		.operand_arg = &o,
		.foreign = mode == CMDOPT_FIO ? &fj : NULL,
		.keep_going = keep_going,
	};
	return cmdopt_parse(&p, argc, argv, why, sizeof(why));
}
#define strict(...) parse_mask(CMDOPT_STRICT, 1, __VA_ARGS__, NULL)
#define fio(...) parse_mask(CMDOPT_FIO, 1, __VA_ARGS__, NULL)

static bool said(const char *needle)
{
	return strstr(why, needle) != NULL && !strchr(why, '\n');
}

static bool seq_is(const char *const *want, size_t n)
{
	if (o.seq.n != n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (strcmp(o.seq.v[i], want[i]))
			return false;
	return true;
}

static void test_values(void)
{
	CHECK(strict("--output=F") == 0 && !strcmp(o.out, "F"), "=VALUE: %s", why);
	CHECK(strict("--output", "F") == 0 && !strcmp(o.out, "F") && !o.seq.n, "space VALUE: %s", why);
	CHECK(strict("--output=") == 0 && !strcmp(o.out, ""), "an empty =VALUE is a value");
	CHECK(strict("--output", "--parse-only") == 0 && !strcmp(o.out, "--parse-only") &&
	      !o.parse_only, "the next word is the value even when it looks like a flag");
	CHECK(strict("--output") == -EINVAL && said("option '--output' needs a value"),
	      "missing value: %s", why);
	CHECK(strict("--output-format", "json") == 0 && !strcmp(o.fmt, "json") && !o.out,
	      "an exact name beats being a prefix of another");
	CHECK(strict("--parse-only=1") == -EINVAL && said("option '--parse-only' takes no value"),
	      "a flag given a value: %s", why);
	CHECK(strict("--set", "a=1", "--set=b=2") == 0 && o.sets.n == 2 &&
	      !strcmp(o.sets.v[0], "a=1") && !strcmp(o.sets.v[1], "b=2"), "repeated values kept");
	CHECK(strict("--check", "bad") == -EINVAL && said("bad --check 'bad': not good"),
	      "a callback's refusal is the message: %s", why);
	CHECK(strict("--check=good") == 0, "a callback's value");
}

static void test_strict(void)
{
	CHECK(strict("--outp=F") == -EINVAL && !o.out &&
	      said("unknown option '--outp' for 'iobench test'; did you mean '--output'?"),
	      "abbreviation refused in strict mode: %s", why);
	CHECK(strict("--parse") == -EINVAL && !o.parse_only &&
	      said("did you mean '--parse-only'?"), "a unique prefix is refused too: %s", why);
	CHECK(strict("--outptu=x") == -EINVAL &&
	      said("unknown option '--outptu' for 'iobench test'; did you mean '--output'?"),
	      "did you mean: %s", why);
	CHECK(strict("--zzzzzzzz") == -EINVAL &&
	      said("unknown option '--zzzzzzzz' for 'iobench test'; see 'iobench help test'"),
	      "nothing near: %s", why);
	CHECK(strict("-parse-only") == -EINVAL && said("unknown option '-parse-only'") &&
	      said("did you mean '--parse-only'?"), "no single-dash long options: %s", why);
	CHECK(strict("--rw=read") == -EINVAL && said("unknown option '--rw'"),
	      "no foreign parser in strict mode: %s", why);
	CHECK(strict("-k") == -EINVAL && said("unknown option '-k' for 'iobench test'"),
	      "unknown letter: %s", why);
	CHECK(strict("-qk") == -EINVAL && o.quiet && said("unknown option '-k'"),
	      "unknown letter in a group: %s", why);
}

static void test_fio(void)
{
	CHECK(fio("--parse") == 0 && o.parse_only, "a unique prefix in fio mode: %s", why);
	CHECK(fio("--output-f", "json") == 0 && !strcmp(o.fmt, "json"), "prefix with a value: %s", why);
	CHECK(fio("--out=x") == -EINVAL && !o.out && !o.fmt &&
	      said("option '--out' is ambiguous for 'iobench test'; possibilities:") &&
	      said("'--output'") && said("'--output-format'"), "ambiguous prefix: %s", why);
	CHECK(fio("--rea") == -EINVAL && !o.readonly && said("'--readonly'") && said("'--readwrite'"),
	      "a prefix shared with a job option is ambiguous: %s", why);
	CHECK(fio("--output", "F") == 0 && !strcmp(o.out, "F"), "exact name, next word");
	CHECK(fio("-parse-only") == 0 && o.parse_only, "-long is --long: %s", why);
	CHECK(fio("-output", "F") == 0 && !strcmp(o.out, "F"), "-long with the next word");
	CHECK(fio("-output=F") == 0 && !strcmp(o.out, "F"), "-long=VALUE");
	CHECK(fio("-pars") == 0 && o.parse_only, "-prefix");
	CHECK(fio("-q") == 0 && o.quiet, "a lone letter is the letter");
	CHECK(fio("-qb") == 0 && o.quiet && o.b, "no long name: the letters");
	CHECK(fio("-h", "--zzz") == CMDOPT_HELP_ASKED, "-h is help, what follows unread");
	CHECK(fio("--outptu=x") == -EINVAL &&
	      said("unknown option '--outptu' for 'iobench test'; did you mean '--output'?"),
	      "did you mean a flag: %s", why);
	CHECK(fio("--blocksze=4k") == -EINVAL && said("did you mean '--blocksize'?"),
	      "did you mean a job option: %s", why);
	const char *numj[] = { "--numjobs=2" };
	CHECK(fio("--numj=2") == 0 && seq_is(numj, 1), "a job option's unique prefix: %s", why);
	CHECK(fio("-numj", "2") == 0 && seq_is(numj, 1), "-prefix, the next word: %s", why);
	const char *rw[] = { "--rw=read", "--bs=8k" };
	CHECK(fio("--rw", "read", "--bs", "8k") == 0 && seq_is(rw, 2),
	      "a job option takes the next word: %s", why);
	CHECK(fio("--rw") == -EINVAL && said("option '--rw' needs a value"), "at the end: %s", why);
	const char *gr[] = { "--group_reporting", "x.fio", "--group_reporting=1" };
	CHECK(fio("--group_reporting", "x.fio", "--group_reporting=1") == 0 && seq_is(gr, 3),
	      "a set option takes a value only after '=': %s", why);
	const char *di[] = { "--direct=1", "--direct", "--bs=4k", "--direct" };
	CHECK(fio("--direct", "1", "--direct", "--bs=4k", "--direct") == 0 && seq_is(di, 4),
	      "a bool-like option takes the next word unless it is a flag: %s", why);
	const char *gro[] = { "--group_reporting" };
	CHECK(fio("--group_rep") == 0 && seq_is(gro, 1), "a set option's prefix: %s", why);
	const char *want[] = { "a.fio", "--name=x", "b.fio", "--rw=read", "--readonly=1", "--bs=4k" };
	CHECK(fio("a.fio", "--name=x", "b.fio", "--rw=read", "--readonly=1", "--parse-only",
		  "--bs=4k") == 0 && seq_is(want, 6) && o.parse_only && !o.readonly,
	      "files and job options in order; --readonly=1 is the job option: %s", why);
	CHECK(fio("--readonly") == 0 && o.readonly && !o.seq.n, "--readonly alone is the flag");
	CHECK(fio("--output", "--rw") == 0 && !strcmp(o.out, "--rw") && !o.seq.n,
	      "a row's value is the next word whatever it is");
}

static void test_letters(void)
{
	CHECK(strict("-s64") == 0 && !strcmp(o.sval, "64"), "attached value");
	CHECK(strict("-s", "64") == 0 && !strcmp(o.sval, "64"), "next-word value");
	CHECK(strict("-s", "-1") == 0 && !strcmp(o.sval, "-1"), "a value that starts with '-'");
	CHECK(strict("-s") == -EINVAL && said("option '-s' needs a value"), "missing: %s", why);
	CHECK(strict("-qbs", "8") == 0 && o.quiet && o.b && !strcmp(o.sval, "8"), "grouped");
	CHECK(strict("-f") == 0 && o.f_seen && !o.fval, "-f alone: no value");
	CHECK(strict("-f4") == 0 && o.f_seen && o.fval && !strcmp(o.fval, "4"), "-f4");
	const char *four[] = { "4" };
	CHECK(strict("-f", "4") == 0 && o.f_seen && !o.fval && seq_is(four, 1),
	      "-f 4: the 4 is no value of -f (getopt's f::)");
	CHECK(strict("-qf4") == 0 && o.quiet && !strcmp(o.fval, "4"), "-qf4");
	CHECK(strict("-fq") == 0 && !strcmp(o.fval, "q") && !o.quiet, "-fq: q is -f's value");
}

static void test_rest(void)
{
	const char *ops[] = { "--output", "-q", "-" };
	CHECK(strict("--", "--output", "-q", "-") == 0 && seq_is(ops, 3) && !o.out && !o.quiet,
	      "after --, operands");
	const char *dash[] = { "-" };
	CHECK(strict("-") == 0 && seq_is(dash, 1), "- is an operand");
	CHECK(strict("--help", "--zzz") == CMDOPT_HELP_ASKED, "--help stops the parse");
	CHECK(strict("--zzz", "--help") == -EINVAL, "an error before --help is the error");
	CHECK(strict("--grouped") == -EINVAL, "a row outside the mask is unknown");
	CHECK(parse_mask(CMDOPT_STRICT, 2, "--grouped", NULL) == 0 && o.grouped, "inside it");
	CHECK(cmdopt_suggest_score("outptu", "output") == 1, "a transposition is one edit");
	CHECK(cmdopt_suggest_score("numj", "numjobs") == 2, "a prefix scores past the limit");
	CHECK(cmdopt_suggest_score("zzz", "output") == (size_t)-1, "too far");
}

static void test_keep_going(void)
{
	keep_going = true;
	CHECK(fio("--zzz", "--output", "F", "--yyy=1", "--readonly") == -EINVAL &&
	      said("unknown option '--zzz'") && !said("yyy") && !strcmp(o.out, "F") && o.readonly,
	      "keep_going: the first refusal, and every other word read: %s", why);
	CHECK(fio("--zzz", "--help") == -EINVAL && said("'--zzz'"),
	      "keep_going: --help after a refusal is the refusal");
	CHECK(fio("--output", "F", "--parse-only") == 0 && o.parse_only, "keep_going: no refusal");
	keep_going = false;
	CHECK(fio("--zzz", "--output", "F") == -EINVAL && !o.out, "without it the parse stops");
}

static void test_print(void)
{
	static const struct cmdopt_help over[] = { { "readonly", "refuse every write, a help "
				"text long enough to be wrapped onto a second line at column 79 or "
				"before it" }, { NULL, NULL } };
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	cmdopt_print_rows(m, rows, 1, over);
	fclose(m);
	CHECK(strstr(buf, "  --output=FILE        write it to FILE\n") != NULL, "a row: %s", buf);
	CHECK(strstr(buf, "  --set KEY=VALUE      override\n") != NULL, "KEY=VALUE after a space");
	CHECK(strstr(buf, "  -h, --help           this text\n") != NULL, "letter and name");
	CHECK(!strstr(buf, "--check") && !strstr(buf, "-s SIZE"), "rows without help not listed");
	CHECK(!strstr(buf, "--grouped"), "rows outside the mask not listed");
	CHECK(strstr(buf, "refuse every write") && !strstr(buf, "no writes"), "help override");
	CHECK(strstr(buf, "be\n                       wrapped onto a second line at column 79 or before "
		      "it\n") != NULL, "wrapped at a word, indented to column 23");
	bool short_lines = true;
	for (char *l = buf; *l; l += strcspn(l, "\n") + 1)
		short_lines &= strcspn(l, "\n") <= 79;
	CHECK(short_lines, "no line past column 79");
	free(buf);
}

static int noop(struct cmd_ctx *ctx, int argc, char **argv)
{
	return 0;
}

static void test_table(void)
{
	CHECK(commands_validate() == 0, "the command table is sound");
	const struct command *c;
	for (size_t i = 0; (c = command_at(i)); i++) {
		char *buf = NULL, want[64];
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);
		command_print_usage(c, m);
		fclose(m);
		snprintf(want, sizeof(want), "usage: iobench %s", c->name);
		CHECK(!strncmp(buf, want, strlen(want)), "%s: its usage first", c->name);
		CHECK(strstr(buf, "  -h, --help ") != NULL, "%s: lists -h, --help", c->name);
		free(buf);
	}
	const struct command root = { .name = "rooted", .summary = "x", .usage = "usage: x\n",
				      .flags = CMD_NEEDS_ROOT, .run = noop };
	const struct command any = { .name = "any", .summary = "x", .usage = "usage: x\n",
				     .run = noop };
	fflush(stdout);
	CHECK(command_check_root(&root, 1000) == -EPERM, "CMD_NEEDS_ROOT refuses a user");
	CHECK(command_check_root(&root, 0) == 0, "and lets root in");
	CHECK(command_check_root(&any, 1000) == 0, "no flag, no check");
	const struct command *run = command_find("run"), *bonnie = command_find("bonnie");
	CHECK(run && (run->flags & CMD_FIO_ARGS) && (run->flags & CMD_WATCHES_ENV),
	      "run: fio rules, watches the machine");
	CHECK(bonnie && !(bonnie->flags & CMD_FIO_ARGS) &&
	      (command_common_mask(bonnie) & COMMON_ENVWATCH), "bonnie: strict, the envwatch rows");
	CHECK(!(command_common_mask(command_find("sysinfo")) & COMMON_ENVWATCH),
	      "sysinfo takes no envwatch rows");
}

int main(void)
{
	test_values();
	test_strict();
	test_fio();
	test_letters();
	test_rest();
	test_keep_going();
	test_print();
	test_table();
	cmdopt_list_release(&o.sets);
	cmdopt_list_release(&o.seq);
	for (size_t i = 0; i < words.n; i++)
		free((char *)words.v[i]);
	cmdopt_list_release(&words);
	return check_done("test_cmdopt");
}
