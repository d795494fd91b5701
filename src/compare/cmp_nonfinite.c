/*
 * Non-finite numbers in result files (cmp_import.h): fio prints its floats
 * with printf's %f, so a figure it could not compute is written "nan",
 * "-nan", "inf" or "-inf", which is not JSON; other writers use NaN and
 * Infinity. Before a file is parsed, each such bare token (outside
 * strings) becomes a marked string, so the file parses, the figure is left
 * out (strings are not figures), and the reader says which field it was,
 * by its JSON path, with its value.
 */
#include "compare/cmp_import.h"

#include <ctype.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/array.h"
#include "util/error.h"
#include "util/xmalloc.h"

#define MARK "\\u001fnon-finite:"
#define MARK_DECODED "\x1fnon-finite:"

/* The length of a non-finite token at p (0: none): [+-]nan, [+-]inf,
 * [+-]infinity in any case, followed by a delimiter. */
static size_t token_at(const char *p, const char *end)
{
	static const char *const words[] = { "infinity", "nan", "inf" };
	size_t sign = p < end && (*p == '-' || *p == '+');
	for (size_t w = 0; w < ARRAY_SIZE(words); w++) {
		size_t n = strlen(words[w]);
		if ((size_t)(end - p) < sign + n || strncasecmp(p + sign, words[w], n))
			continue;
		const char *q = p + sign + n;
		if (q == end || isspace((unsigned char)*q) || *q == ',' || *q == ']' || *q == '}')
			return sign + n;
	}
	return 0;
}

char *cmp_json_mark_nonfinite(const char *text, size_t len, size_t *out_len)
{
	char *buf = NULL;
	size_t blen = 0;
	FILE *f = NULL;
	const char *end = text + len, *copied = text;
	bool in_str = false;
	for (const char *p = text; p < end; p++) {
		if (in_str) {
			if (*p == '\\')
				p++;
			else if (*p == '"')
				in_str = false;
			continue;
		}
		if (*p == '"') {
			in_str = true;
			continue;
		}
		/* a value starts after ':', '[', ',' (and blanks) */
		if (!(*p == '-' || *p == '+' || *p == 'n' || *p == 'N' || *p == 'i' || *p == 'I'))
			continue;
		const char *b = p;
		while (b > text && isspace((unsigned char)b[-1]))
			b--;
		if (b > text && b[-1] != ':' && b[-1] != '[' && b[-1] != ',')
			continue;
		size_t n = token_at(p, end);
		if (!n)
			continue;
		if (!f && !(f = open_memstream(&buf, &blen)))
			return NULL;
		fwrite(copied, 1, (size_t)(p - copied), f);
		fprintf(f, "\"" MARK "%.*s\"", (int)n, p);
		copied = p + n;
		p += n - 1;
	}
	if (!f)
		return NULL;
	fwrite(copied, 1, (size_t)(end - copied), f);
	fclose(f);
	*out_len = blen;
	return buf;
}

static int walk(const char *file, struct json_object *o, char *path, size_t at, size_t cap)
{
	int n = 0;
	if (json_object_is_type(o, json_type_string)) {
		const char *s = json_object_get_string(o);
		if (!strncmp(s, MARK_DECODED, strlen(MARK_DECODED))) {
			warning("%s: %s is %s, not a finite number: the figure is left out", file,
				at ? path : "(the document)", s + strlen(MARK_DECODED));
			n++;
		}
	} else if (json_object_is_type(o, json_type_object)) {
		json_object_object_foreach(o, key, v) {
			snprintf(path + at, cap - at, "%s%s", at ? "." : "", key);
			size_t len = strlen(path);
			n += walk(file, v, path, len < cap ? len : cap - 1, cap);
			path[at] = '\0';
		}
	} else if (json_object_is_type(o, json_type_array)) {
		size_t k = json_object_array_length(o);
		for (size_t i = 0; i < k; i++) {
			snprintf(path + at, cap - at, "[%zu]", i);
			size_t len = strlen(path);
			n += walk(file, json_object_array_get_idx(o, i), path, len < cap ? len : cap - 1,
				  cap);
			path[at] = '\0';
		}
	}
	return n;
}

int cmp_json_warn_nonfinite(const char *file, struct json_object *root)
{
	char path[1024] = "";
	return walk(file, root, path, 0, sizeof(path));
}
