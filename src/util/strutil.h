/*
 * Small string helpers: trimming, Damerau-Levenshtein (optimal string
 * alignment) distance, "did you mean" suggestions, and splitting of
 * ':'-separated lists where '\:' stands for a literal colon (fio's filename
 * syntax).
 */
#ifndef IOBENCH_UTIL_STRUTIL_H
#define IOBENCH_UTIL_STRUTIL_H

#include <stddef.h>

/* Trim blanks in place: returns a pointer into s, end cut with a NUL. */
char *str_trim(char *s);
/* Edit distance counting insertions, deletions, substitutions and
 * transpositions of adjacent characters, case-insensitive. */
size_t str_distance(const char *a, const char *b);
/* The candidate nearest to word, or NULL when none is close enough
 * (distance at most max(1, strlen(word) / 3), or word a prefix of it). */
const char *suggest_nearest(const char *word, const char *const *cands, size_t n);
/*
 * Split s on sep, turning "\<sep>" into a literal sep. Returns the number of
 * fields and stores a NULL-terminated xmalloc'ed array of xmalloc'ed strings
 * in *out (free with str_list_free). Empty fields are kept.
 */
size_t str_split_escaped(const char *s, char sep, char ***out);
void str_list_free(char **list);

#endif
