/*
 * Labels of a run ("--label K=V"): parsing an argument into a key and a
 * value, and freeing a list of them.
 */
#include "store/store.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/xmalloc.h"

#define LABEL_KEY_MAX 64

static bool key_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '-' || c == '.' || c == ':';
}

int store_label_check(const char *arg, char *why, size_t len)
{
	const char *eq = strchr(arg, '=');
	size_t n = eq ? (size_t)(eq - arg) : 0;
	if (!eq) {
		snprintf(why, len, "label '%s' is not KEY=VALUE", arg);
		return -EINVAL;
	}
	if (n == 0 || n > LABEL_KEY_MAX) {
		snprintf(why, len, "label '%s': the key must have 1 to %d characters", arg,
			 LABEL_KEY_MAX);
		return -EINVAL;
	}
	for (size_t i = 0; i < n; i++)
		if (!key_char(arg[i])) {
			snprintf(why, len, "label '%s': the key may hold only letters, digits, '_', "
				 "'-', '.' and ':' (not '%c')", arg, arg[i]);
			return -EINVAL;
		}
	return 0;
}

int store_label_parse(const char *arg, struct store_label *l)
{
	char why[256];
	l->key = l->value = NULL;
	if (store_label_check(arg, why, sizeof(why)) < 0)
		return error("%s", why);
	size_t n = strcspn(arg, "=");
	l->key = xstrndup(arg, n);
	l->value = xstrdup(arg + n + 1);
	return 0;
}

void store_labels_free(struct store_label *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++) {
		free(v[i].key);
		free(v[i].value);
	}
	free(v);
}
