/*
 * The command-line parser every command uses: tables of option rows (long
 * name, short letter, whether it takes a value, where the value goes or the
 * callback that takes it, help line) read in one pass over argv, in order.
 * A value follows '=' (--output=F) or comes as the next word (--output F,
 * -s 64, -s64); an optional value only ever follows '=' or is attached
 * (-f4). Letters group as getopt allows (-qb). "--" ends the options.
 *
 * Two modes. Strict (iobench's own commands): only exact long names; an
 * abbreviation or a misspelling is refused with "did you mean". Fio (`run`,
 * as fio parses with getopt_long_only): -minimal is --minimal, unambiguous
 * prefixes are accepted, and a --word or -word that is none of the rows is
 * looked up in a foreign table (the job options) and handed to it in
 * order, with the value its kind takes (--rw read, --numj=2 for numjobs);
 * the foreign names take part in prefix ambiguity and in the suggestion
 * for an unknown flag.
 * The usage printer (cmdopt_print_rows) writes a command's option list from
 * the same rows, so --help cannot drift from the parser.
 */
#ifndef IOBENCH_CLI_CMDOPT_H
#define IOBENCH_CLI_CMDOPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum cmdopt_arg {
	CMDOPT_NOARG,  /* --flag; --flag=X is refused */
	CMDOPT_REQARG, /* --opt=X, --opt X, -oX, -o X */
	CMDOPT_OPTARG, /* --opt or --opt=X; -o or -oX (getopt's "o::") */
	CMDOPT_MAYBEARG, /* foreign only: --opt=X, or the next word unless
			    it begins with '-', else no value (--direct 1,
			    --direct --size=1m) */
};

enum cmdopt_action {
	CMDOPT_TRUE,   /* the bool at off becomes true */
	CMDOPT_FALSE,  /* the bool at off becomes false */
	CMDOPT_STRING, /* the const char * at off gets the value (the last one wins) */
	CMDOPT_APPEND, /* the value is appended to the struct cmdopt_list at off */
	CMDOPT_CALL,   /* fn(dest, row, value) */
	CMDOPT_HELP,   /* the parse stops and returns CMDOPT_HELP_ASKED */
};

struct cmdopt;
/* Take value (NULL: none given to a CMDOPT_OPTARG row) for row o into
 * dest. 0, or -EINVAL with a one-line message naming the value in why. */
typedef int (*cmdopt_fn)(void *dest, const struct cmdopt *o, const char *value, char *why,
			 size_t whylen);

struct cmdopt {
	const char *name;      /* long name without "--", or NULL (a letter only) */
	char letter;           /* short option, or 0 (a long name only) */
	enum cmdopt_arg arg;
	enum cmdopt_action action;
	size_t off;            /* offsetof the field in the set's destination */
	cmdopt_fn fn;          /* CMDOPT_CALL */
	unsigned group;        /* shared rows: the bit a command takes them by; 0 always */
	const char *meta;      /* the value's name in the usage: "FILE" */
	const char *help;      /* the usage line (wrapped when printed), or NULL when
				  the command's hand-written usage describes it */
};
/* A table of rows ends with a row that has neither a name nor a letter. */
#define CMDOPT_END { 0 }

/* Repeated values (CMDOPT_APPEND), pointing into argv. */
struct cmdopt_list {
	const char **v;
	size_t n;
};
void cmdopt_list_add(struct cmdopt_list *l, const char *s);
void cmdopt_list_release(struct cmdopt_list *l);

/* Rows and where their offsets point; a row whose group is not 0 takes
 * part only when it is in mask. */
struct cmdopt_set {
	const struct cmdopt *rows;
	unsigned mask;
	void *dest;
};

/* Fio mode's job-option parser: the names none of the rows claim, as
 * getopt_long_only sees fio's job options: each name (every spelling) is
 * a long option taking a value as its kind says, "--name", "-name" or a
 * unique prefix of it, as for the rows. */
struct cmdopt_foreign {
	/* is key[0..len) one of your names (exactly)? its enum cmdopt_arg
	 * (not CMDOPT_NOARG), or -1 when it is none */
	int (*kind)(void *arg, const char *key, size_t len);
	/* take option name[0..len) (a name kind knows, as the user wrote
	 * it or the one their prefix stands for) with value (NULL: none):
	 * 0, or < 0 with why: refused */
	int (*take)(void *arg, const char *name, size_t len, const char *value, char *why,
		    size_t whylen);
	/* how many of your names (every spelling) begin with key[0..len);
	 * the first max of them into out */
	size_t (*prefixed)(void *arg, const char *key, size_t len, const char **out, size_t max);
	/* your name nearest to key and its cmdopt_suggest_score, or NULL */
	const char *(*nearest)(void *arg, const char *key, size_t *score);
	void *arg;
};

enum cmdopt_mode {
	CMDOPT_STRICT,
	CMDOPT_FIO,
};

#define CMDOPT_MAX_SETS 4

struct cmdopt_parser {
	enum cmdopt_mode mode;
	const char *command;   /* "run": messages say "for 'iobench run'" */
	struct cmdopt_set sets[CMDOPT_MAX_SETS];
	size_t nr_sets;
	/* a word that is no option ("-" is one, and every word after "--"),
	 * in order: 0, or -EINVAL with why; NULL: such a word is refused */
	int (*operand)(void *arg, const char *word, char *why, size_t whylen);
	void *operand_arg;
	const struct cmdopt_foreign *foreign; /* fio mode only; may be NULL */
	/* after a refusal go on with the next word, so that what the other
	 * words say is known (run writes its JSON error document where
	 * --output-format and --output say); the first message is the one */
	bool keep_going;
};

#define CMDOPT_HELP_ASKED 1

/* Parse argv[1..argc) (argv[0] is the command's name). Returns 0,
 * CMDOPT_HELP_ASKED when a CMDOPT_HELP row was met before any refusal
 * (the rest is not read), or -EINVAL with a one-line message in why, e.g.
 * "unknown option '--outptu' for 'iobench run'; did you mean '--output'?". */
int cmdopt_parse(const struct cmdopt_parser *p, int argc, char **argv, char *why, size_t whylen);

/* How near cand is to word for a "did you mean": the edit distance when
 * it is within suggest_nearest's limit, one more for a mere prefix, and
 * (size_t)-1 when suggest_nearest would not propose it. */
size_t cmdopt_suggest_score(const char *word, const char *cand);

/* The usage lines of the rows of set that have help (an entry of
 * overrides, { name, help } pairs ending with a NULL name, replaces a
 * row's help for this command): "  -i, --interval=SEC  help...", the help
 * wrapped at column 79 and indented to column 23. */
struct cmdopt_help {
	const char *name;
	const char *help;
};
void cmdopt_print_rows(FILE *out, const struct cmdopt *rows, unsigned mask,
		       const struct cmdopt_help *overrides);

/* Does row r take part under mask? */
static inline bool cmdopt_row_taken(const struct cmdopt *r, unsigned mask)
{
	return !r->group || (r->group & mask);
}

static inline bool cmdopt_row_end(const struct cmdopt *r)
{
	return !r->name && !r->letter;
}

#endif
