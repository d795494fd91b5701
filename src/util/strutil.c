/*
 * String helpers for strutil.h. The distance is the optimal-string-alignment
 * form of Damerau-Levenshtein, computed with three rolling rows.
 */
#include "util/strutil.h"
#include "util/xmalloc.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

char *str_trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	size_t n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

static size_t min3(size_t a, size_t b, size_t c)
{
	size_t m = a < b ? a : b;
	return m < c ? m : c;
}

size_t str_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t *prev2 = xcalloc(lb + 1, sizeof(size_t));
	size_t *prev = xcalloc(lb + 1, sizeof(size_t));
	size_t *cur = xcalloc(lb + 1, sizeof(size_t));
	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			int ca = tolower((unsigned char)a[i - 1]), cb = tolower((unsigned char)b[j - 1]);
			size_t cost = ca != cb;
			cur[j] = min3(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
			if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == cb && prev2[j - 2] + 1 < cur[j])
				cur[j] = prev2[j - 2] + 1;
		}
		size_t *t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	size_t d = prev[lb];
	free(prev2);
	free(prev);
	free(cur);
	return d;
}

const char *suggest_nearest(const char *word, const char *const *cands, size_t n)
{
	size_t wl = strlen(word);
	size_t limit = wl / 3 > 1 ? wl / 3 : 1;
	const char *best = NULL;
	size_t best_d = (size_t)-1;
	if (!wl)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		if (!cands[i])
			continue;
		/* the distance is at least the length difference: skip the
		 * hopeless ones (a long word would cost len * len each) */
		size_t cl = strlen(cands[i]);
		if ((wl > cl ? wl - cl : cl - wl) > limit)
			continue;
		size_t d = str_distance(word, cands[i]);
		if (d < best_d) {
			best_d = d;
			best = cands[i];
		}
	}
	if (best && best_d <= limit)
		return best;
	/* a prefix of a longer name ("iodepth_batch_comp") */
	if (wl >= 3)
		for (size_t i = 0; i < n; i++)
			if (cands[i] && !strncasecmp(word, cands[i], wl))
				return cands[i];
	return NULL;
}

size_t str_split_escaped(const char *s, char sep, char ***out)
{
	size_t nr = 0, alloc = 0;
	char **list = NULL;
	size_t len = strlen(s);
	char *field = xmalloc(len + 1);
	size_t fl = 0;
	for (size_t i = 0;; i++) {
		if (s[i] == '\\' && s[i + 1] == sep) {
			field[fl++] = sep;
			i++;
			continue;
		}
		if (s[i] == sep || s[i] == '\0') {
			list = xgrow(list, &alloc, nr + 1, sizeof(*list));
			list[nr++] = xstrndup(field, fl);
			fl = 0;
			if (s[i] == '\0')
				break;
			continue;
		}
		field[fl++] = s[i];
	}
	free(field);
	list = xgrow(list, &alloc, nr + 1, sizeof(*list));
	list[nr] = NULL;
	*out = list;
	return nr;
}

void str_list_free(char **list)
{
	if (!list)
		return;
	for (char **p = list; *p; p++)
		free(*p);
	free(list);
}
