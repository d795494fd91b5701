/*
 * JSON in the store: reading a document with json-c (a parse error names
 * the line and column). (util/json.h, iobench's JSON writer, and json-c
 * both name a json_bool: they never meet in one file.)
 */
#include "store/store_int.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/error.h"
#include "util/xmalloc.h"

/* Line and column (1-based) of byte offset off in text. */
static void where(const char *text, size_t off, unsigned *line, unsigned *col)
{
	*line = 1;
	*col = 1;
	for (size_t i = 0; i < off; i++) {
		if (text[i] == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

int store_json_parse(const char *name, const char *text, size_t len, struct json_object **out)
{
	struct json_tokener *tok = json_tokener_new_ex(JSON_TOKENER_DEFAULT_DEPTH);
	unsigned line, col;

	*out = NULL;
	if (!tok)
		return -ENOMEM;
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	struct json_object *obj = json_tokener_parse_ex(tok, text, (int)len);
	enum json_tokener_error jerr = json_tokener_get_error(tok);
	size_t end = json_tokener_get_parse_end(tok);
	if (!obj && jerr == json_tokener_continue) {
		where(text, len, &line, &col);
		json_tokener_free(tok);
		error_at(name, "line %u: the JSON document ends before it is complete", line);
		return -EINVAL;
	}
	if (!obj) {
		where(text, end, &line, &col);
		json_tokener_free(tok);
		error_at(name, "%u:%u: not valid JSON: %s", line, col, json_tokener_error_desc(jerr));
		return -EINVAL;
	}
	json_tokener_free(tok);
	/* only blanks may follow the document */
	for (size_t i = end; i < len; i++) {
		if (text[i] != ' ' && text[i] != '\n' && text[i] != '\t' && text[i] != '\r') {
			where(text, i, &line, &col);
			json_object_put(obj);
			error_at(name, "%u:%u: text after the end of the JSON document", line, col);
			return -EINVAL;
		}
	}
	*out = obj;
	return 0;
}
