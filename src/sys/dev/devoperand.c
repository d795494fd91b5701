/*
 * The operand check (devoperand.h): splitting the words as the program or
 * the shell will, the shapes a device name hides in, and the comparison
 * by device number with what the caller allows.
 */
#include "sys/dev/devoperand.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "sys/dev/devres.h"
#include "util/xmalloc.h"

static bool same_dev(const char *path, dev_t rdev)
{
	struct stat st;
	return path && stat(path, &st) == 0 && S_ISBLK(st.st_mode) && st.st_rdev == rdev;
}

/* One candidate: 0 when it reaches no block device, or one of the allowed. */
static int check_one(const char *cand, const char *word, const struct devoperand_allow *al,
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
	snprintf(why, whylen, "'%s' names block device %s (%u:%u), which is neither %s"
		 " nor named by --allow-destroy: a program handed it could write it, so it is "
		 "refused", word, real, major(st.st_rdev), minor(st.st_rdev),
		 al->whose ? al->whose : "one of the devices offered");
	return -1;
}

/* The word, what follows its first '=', and each part of a comma list in
 * either (with what follows a part's '='). */
static int check_word(const char *word, const struct devoperand_allow *al, char *why,
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

int devoperand_check(const char *text, bool shell, const struct devoperand_allow *al,
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
