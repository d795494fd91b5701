/*
 * The plan-time check that a sweep's operands name no block device but its
 * own (sweep_operands_int.h): every text of the plan that reaches a program,
 * with its factors' levels, through the device check of sys/dev/devoperand.h.
 */
#include "sweep/sweep_operands_int.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/xmalloc.h"

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
	const struct devoperand_allow *al;
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
		if (devoperand_check(text, x->t->shell, x->al, NULL, why, sizeof(why)) < 0) {
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
	struct devoperand_allow al = { .devs = devs, .ndev = ndev, .allow = allow,
				       .whose = "a target of the sweep" };
	int errors = 0;
	for (size_t i = 0; i < p->nr_texts; i++) {
		const struct sweep_plan_text *t = &p->texts[i];
		char why[1024], where[PATH_MAX + 32];
		size_t off = 0;
		if (devoperand_check(t->text, t->shell, &al, &off, why, sizeof(why)) < 0) {
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
