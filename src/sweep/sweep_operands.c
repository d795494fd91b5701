/*
 * The check that a sweep's operands name no block device but its own
 * (sweep_operands.h): splitting words the way the program or the shell
 * will, the shapes a device hides in (--opt=X, opt=X, a,b,c), and the
 * plan-time pass over every text of the plan with its factors' levels.
 */
#include "sweep/sweep_operands.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "sys/dev/devres.h"
#include "util/error.h"
#include "util/xmalloc.h"

static bool same_dev(const char *path, dev_t rdev)
{
	struct stat st;
	return path && stat(path, &st) == 0 && S_ISBLK(st.st_mode) && st.st_rdev == rdev;
}

/* One candidate: 0 when it reaches no block device, or one of the allowed. */
static int check_one(const char *cand, const char *word, const struct sweep_operand_allow *al,
		     char *why, size_t whylen)
{
	if (!*cand || devres_is_block_device(cand) != 1)
		return 0;
	struct stat st;
	if (stat(cand, &st) < 0 || !S_ISBLK(st.st_mode))
		return 0;
	for (size_t i = 0; i < al->ndev; i++)
		if (same_dev(al->devs[i], st.st_rdev))
			return 0;
	for (size_t i = 0; al->allow && i < al->allow->nr_devices; i++)
		if (same_dev(al->allow->devices[i], st.st_rdev))
			return 0;
	char real[PATH_MAX];
	if (!realpath(cand, real))
		snprintf(real, sizeof(real), "%s", cand);
	snprintf(why, whylen, "'%s' names block device %s (%u:%u), which is neither a target of "
		 "the sweep nor named by --allow-destroy: a program handed it could write it, so "
		 "it is refused", word, real, major(st.st_rdev), minor(st.st_rdev));
	return -1;
}

/* The word, what follows its first '=', and each part of a comma list in
 * either (with what follows a part's '='). */
static int check_word(const char *word, const struct sweep_operand_allow *al, char *why,
		      size_t whylen)
{
	if (check_one(word, word, al, why, whylen) < 0)
		return -1;
	const char *eq = strchr(word, '=');
	const char *v = eq ? eq + 1 : word;
	if (eq && check_one(v, word, al, why, whylen) < 0)
		return -1;
	if (!strchr(v, ','))
		return 0;
	char *copy = xstrdup(v), *save = NULL;
	int rc = 0;
	for (char *t = strtok_r(copy, ",", &save); t && !rc; t = strtok_r(NULL, ",", &save)) {
		char *e = strchr(t, '=');
		if (check_one(t, word, al, why, whylen) < 0 ||
		    (e && check_one(e + 1, word, al, why, whylen) < 0))
			rc = -1;
	}
	free(copy);
	return rc;
}

static bool shell_break(char ch)
{
	return strchr(";&|<>()`", ch) != NULL;
}

int sweep_operands_word_check(const char *text, bool shell, const struct sweep_operand_allow *al,
			      size_t *off, char *why, size_t whylen)
{
	size_t len = strlen(text);
	char *word = xmalloc(len + 1);
	int rc = 0;
	for (size_t i = 0; i < len && !rc;) {
		while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' ||
				   (shell && shell_break(text[i]))))
			i++;
		if (i >= len)
			break;
		size_t start = i, k = 0;
		char q = 0;
		for (; i < len; i++) {
			char ch = text[i];
			if (q) {
				if (ch == q)
					q = 0;
				else if (shell && q == '"' && ch == '\\' && i + 1 < len)
					word[k++] = text[++i];
				else
					word[k++] = ch;
				continue;
			}
			if (ch == ' ' || ch == '\t' || ch == '\n' || (shell && shell_break(ch)))
				break;
			if (ch == '\'' || ch == '"')
				q = ch;
			else if (shell && ch == '\\' && i + 1 < len)
				word[k++] = text[++i];
			else
				word[k++] = ch;
		}
		word[k] = '\0';
		if (check_word(word, al, why, whylen) < 0) {
			rc = -1;
			if (off)
				*off = start;
		}
	}
	free(word);
	return rc;
}

int sweep_operands_text(const char *text, bool shell, const struct sweep_operand_allow *al,
			char *why, size_t whylen)
{
	return sweep_operands_word_check(text, shell, al, NULL, why, whylen);
}

/* text with {NAME} of factor f replaced by level (xmalloc'ed). */
static char *replace(const char *text, const char *name, const char *level)
{
	char *ph = xasprintf("{%s}", name);
	size_t pl = strlen(ph), ll = strlen(level);
	size_t cap = strlen(text) + 1, n = 0;
	for (const char *s = text; (s = strstr(s, ph)); s += pl)
		cap += ll;
	char *out = xmalloc(cap);
	for (const char *s = text; *s;) {
		if (!strncmp(s, ph, pl)) {
			memcpy(out + n, level, ll);
			n += ll;
			s += pl;
		} else {
			out[n++] = *s++;
		}
	}
	out[n] = '\0';
	free(ph);
	return out;
}

struct expand_ctx {
	const struct sweep_plan *p;
	const struct sweep_plan_text *t;
	const struct sweep_operand_allow *al;
	size_t *used;        /* the factors the text names */
	size_t nused;
	size_t combos;
	int errors;
};

#define MAX_COMBOS 4096

/* Every combination of the used factors' levels, from factor k on. */
static void expand(struct expand_ctx *x, size_t k, const char *text, char *chosen, size_t clen)
{
	if (x->errors || x->combos >= MAX_COMBOS)
		return;
	if (k == x->nused) {
		x->combos++;
		char why[1024], where[PATH_MAX + 32];
		if (sweep_operands_word_check(text, x->t->shell, x->al, NULL, why, sizeof(why)) < 0) {
			snprintf(where, sizeof(where), "%s:%u:%u", x->p->path, x->t->line, x->t->col);
			error_at(where, "%s, expanded with %s: %s", x->t->what, chosen, why);
			x->errors++;
		}
		return;
	}
	const struct sweep_factor *f = &x->p->factors[x->used[k]];
	for (size_t l = 0; l < f->nr_levels && !x->errors; l++) {
		char *next = replace(text, f->name, f->levels[l]);
		size_t n = strlen(chosen);
		snprintf(chosen + n, clen - n, "%s{%s}=%s", n ? " " : "", f->name, f->levels[l]);
		expand(x, k + 1, next, chosen, clen);
		chosen[n] = '\0';
		free(next);
	}
}

int sweep_operands_check(const struct sweep_plan *p, const struct devguard_allow *allow)
{
	const char **devs = xcalloc(p->nr_paths + 1, sizeof(*devs));
	size_t ndev = 0;
	for (size_t i = 0; p->target == SWT_DEVICE && i < p->nr_paths; i++)
		devs[ndev++] = p->paths[i];
	struct sweep_operand_allow al = { .devs = devs, .ndev = ndev, .allow = allow };
	int errors = 0;
	for (size_t i = 0; i < p->nr_texts; i++) {
		const struct sweep_plan_text *t = &p->texts[i];
		char why[1024], where[PATH_MAX + 32];
		size_t off = 0;
		if (sweep_operands_word_check(t->text, t->shell, &al, &off, why, sizeof(why)) < 0) {
			snprintf(where, sizeof(where), "%s:%u:%u", p->path, t->line,
				 t->col + (unsigned)off);
			error_at(where, "%s: %s", t->what, why);
			errors++;
			continue;
		}
		if (!t->shell || !strchr(t->text, '{'))
			continue;
		struct expand_ctx x = { .p = p, .t = t, .al = &al };
		x.used = xcalloc(p->nr_factors + 1, sizeof(*x.used));
		for (size_t f = 0; f < p->nr_factors; f++) {
			char *ph = xasprintf("{%s}", p->factors[f].name);
			if (strstr(t->text, ph))
				x.used[x.nused++] = f;
			free(ph);
		}
		char chosen[2048] = "";
		if (x.nused)
			expand(&x, 0, t->text, chosen, sizeof(chosen));
		errors += x.errors;
		free(x.used);
	}
	free(devs);
	return errors ? -EINVAL : 0;
}
