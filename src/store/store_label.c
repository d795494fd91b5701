/*
 * Labels of a run ("--label K=V"): parsing an argument into a key and a
 * value, and freeing a list of them.
 */
#include "store/store.h"

#include <errno.h>
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

int store_label_parse(const char *arg, struct store_label *l)
{
	const char *eq = strchr(arg, '=');
	l->key = l->value = NULL;
	if (!eq)
		return error("label '%s' is not KEY=VALUE", arg);
	size_t n = (size_t)(eq - arg);
	if (n == 0 || n > LABEL_KEY_MAX)
		return error("label '%s': the key must have 1 to %d characters", arg, LABEL_KEY_MAX);
	for (size_t i = 0; i < n; i++)
		if (!key_char(arg[i]))
			return error("label '%s': the key may hold only letters, digits, '_', '-', "
				     "'.' and ':' (not '%c')", arg, arg[i]);
	l->key = xstrndup(arg, n);
	l->value = xstrdup(eq + 1);
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
