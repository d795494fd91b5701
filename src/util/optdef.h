/*
 * Option rows: tables of named, typed key=value options whose values are
 * stored at an offset into a target struct, and the generic parse that
 * stores them. The table says what the target is: the job option table
 * (workload/options.h) has struct job_spec as its target, each engine's
 * table (engines/engine.h) the engine's own options struct, and a row's
 * `off` is relative to the target of the table it is in. Bool, count,
 * size, time and string rows need no code; other values name a callback
 * that gets the target. An option that takes one of a few words lists
 * them in its row (posval, as fio's table does): the parse, its message
 * naming the words and the words' names come from that list. Help, the
 * man page and lookups read the same rows.
 */
#ifndef IOBENCH_UTIL_OPTDEF_H
#define IOBENCH_UTIL_OPTDEF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum opt_type {
	OPT_BOOL,  /* bool field; a bare key means true */
	OPT_UINT,  /* unsigned or uint64_t field (width), plain count */
	OPT_SIZE,  /* uint64_t bytes with unit suffixes, honours kb_base */
	OPT_TIME,  /* uint64_t ns; a bare number is in `unit` ns */
	OPT_STR,   /* char * field, xstrdup'ed (the previous value freed) */
	OPT_FUNC,  /* parsed by the callback only */
	OPT_WORD,  /* one of the row's posval words: its value stored (width 1: bool,
		      4: an enum or unsigned) */
};

/* A word an OPT_WORD row takes and the value it stores. */
struct opt_posval {
	const char *word;
	int value;
	bool unlisted;    /* taken, but named neither in help nor in the message (another spelling) */
	const char *arg;  /* what may follow the word, as help and the message show it ("[:N]"), or NULL */
	const char *help; /* what the word means, after it in parentheses in the help line, or NULL */
};

struct option_def;

/* What a parse callback gets besides the target and the value. */
struct opt_ctx {
	const struct option_def *opt;
	const char *key;  /* as the user wrote it, for messages */
	unsigned kb_base; /* 1024 or 1000: what 'k' means in sizes (fio's kb_base) */
	char *why;        /* message buffer */
	size_t whylen;
};
/* Parse val into the table's target; 0, or -errno with c->why set. */
typedef int (*option_parse_fn)(void *target, const char *val, struct opt_ctx *c);

struct option_def {
	const char *name;
	const char *alias[2];   /* other spellings, NULL when unused */
	enum opt_type type;
	size_t off;             /* offsetof(target struct, field) */
	unsigned width;         /* sizeof the field for OPT_UINT (4 or 8) */
	uint64_t min, max;      /* numeric range; max 0 = no upper bound */
	uint64_t unit;          /* OPT_TIME: ns per unit of a bare number */
	const char *type_text;  /* value syntax for help: "int", "size", ... */
	const char *def;        /* default as text, NULL = none: the value optdef_defaults
				   stores, so the table is where defaults are written */
	bool def_doc;           /* def only says what leaving the option unset means
				   (the field stays zero or NULL): not stored */
	const char *help;       /* one line, lowercase */
	option_parse_fn parse;  /* OPT_FUNC: parses the value */
	bool is_flag;           /* the key alone is valid (bool-like) */
	/* Optional: the values the option takes, NULL-terminated, appended to
	 * the help line (ioengine's come from the engine registry). */
	const char *const *(*choices)(void);
	/* OPT_WORD (or an OPT_FUNC row that looks its word up with
	 * optdef_word_n): its words, ended by { NULL }; the message for another is
	 * "invalid WORD_WHAT 'x' for option 'k': WORD_USE a, b or c" (or "a, b,
 * c" with word_commas), the
	 * listed words in order (word_what NULL: "value", word_use NULL: "use") */
	const struct opt_posval *posval;
	const char *word_what;
	const char *word_use;
	const char *word_tail;  /* after the list (", with an optional :N"), or NULL */
	bool word_case;         /* OPT_WORD: a word matches only in the case written */
	bool word_commas;       /* OPT_WORD: the message joins the last word with ", " too */
};

/* The row of rows[0..n) named key (name or alias); NULL when there is none. */
const struct option_def *optdef_find(const struct option_def *rows, size_t n, const char *key);

/*
 * Store `val` (NULL for a bare key) for row o into target: refuses a
 * missing value unless the row is a flag, and an empty one unless it is a
 * string, then parses by the row's type and range-checks. Returns 0,
 * -EINVAL or -ERANGE with c->why holding the whole message, e.g.
 * "invalid size 'abc' for option 'size': not a number".
 */
int optdef_set(const struct option_def *o, void *target, const char *val, struct opt_ctx *c);

/*
 * Store every row's default (def, unless def_doc) into target, in table
 * order, as if the user had given it: target starts zeroed, and what else
 * it needs (a sentinel no row's default sets) is the caller's to add
 * after. Sizes read kb_base. 0, or the first row's -errno with why set
 * (a default the row refuses: the table is wrong).
 */
int optdef_defaults(const struct option_def *rows, size_t n, void *target, unsigned kb_base,
		    char *why, size_t whylen);

/* Format "invalid WHAT 'VAL' for option 'KEY'[: REASON]" into c->why; returns err. */
int opt_fail(struct opt_ctx *c, int err, const char *what, const char *val, const char *reason);
/* Format an arbitrary message into c->why; returns err. */
int opt_failf(struct opt_ctx *c, int err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The posval entry of o whose word is val; NULL when none is. */
const struct opt_posval *optdef_word(const struct option_def *o, const char *val);
/* The same for the n bytes at val (a word before its ":N"), for an
 * OPT_FUNC row that takes a word and more. */
const struct opt_posval *optdef_word_n(const struct option_def *o, const char *val, size_t n);
/* The message for val, none of o's words, into c->why: -EINVAL. */
int optdef_word_fail(const struct option_def *o, const char *val, struct opt_ctx *c);
/* o's listed words joined as its messages name them ("a, b or c"; with
 * word_commas "a, b, c"), each with its arg, into buf; returns buf. */
const char *optdef_words(const struct option_def *o, char *buf, size_t len);
/* The first listed word of o that stores value; NULL when none does. */
const char *optdef_word_name(const struct option_def *o, int value);

/* The help line of o, into buf; returns buf. A row with words has them
 * after its help, "HELP: a, b (what b means) or c[:N]", so no help text
 * spells a row's words itself; a row with choices() has those after it. */
const char *optdef_help(const struct option_def *o, char *buf, size_t len);

#endif
