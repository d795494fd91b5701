/*
 * A small streaming JSON writer to a FILE*, laid out the way fio prints its
 * JSON: two spaces of indent per level, `"key" : value`, one member per
 * line, floats with six decimals ("%f"). The caller opens and closes objects
 * and arrays in order; the writer keeps the nesting on a small stack inside
 * the struct (no global state) and remembers the first error (misuse or a
 * failed write), which json_finish() returns. Strings are escaped in full
 * (quote, backslash and every control character); other bytes pass through,
 * so UTF-8 input stays UTF-8.
 */
#ifndef IOBENCH_UTIL_JSON_H
#define IOBENCH_UTIL_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 32

struct json_writer {
	FILE *out;
	unsigned depth;               /* open containers */
	bool is_array[JSON_MAX_DEPTH];
	bool has_items[JSON_MAX_DEPTH];
	bool have_key;                /* a key was written, its value is due */
	bool done;                    /* the root value is complete */
	int error;                    /* first error, 0 or -errno */
};

void json_init(struct json_writer *w, FILE *out);
/* Check that everything was closed, end the document with a newline and
 * return 0, -EINVAL for misuse or -EIO when a write failed. */
int json_finish(struct json_writer *w);

void json_object_begin(struct json_writer *w);
void json_object_end(struct json_writer *w);
void json_array_begin(struct json_writer *w);
void json_array_end(struct json_writer *w);
/* The key of the next member; only inside an object. */
void json_key(struct json_writer *w, const char *key);

void json_string(struct json_writer *w, const char *s); /* NULL writes null */
void json_int(struct json_writer *w, int64_t v);
void json_uint(struct json_writer *w, uint64_t v);
void json_double(struct json_writer *w, double v);     /* non-finite: null */
void json_bool(struct json_writer *w, bool v);
void json_null(struct json_writer *w);
/* A value that is JSON already (another writer's whole document, as
 * iobench-mpi's ranks send theirs), written as it is. */
void json_raw(struct json_writer *w, const char *text);

/* Key plus value in one call. */
void json_kv_string(struct json_writer *w, const char *key, const char *s);
void json_kv_int(struct json_writer *w, const char *key, int64_t v);
void json_kv_uint(struct json_writer *w, const char *key, uint64_t v);
void json_kv_double(struct json_writer *w, const char *key, double v);
void json_kv_bool(struct json_writer *w, const char *key, bool v);
void json_kv_object_begin(struct json_writer *w, const char *key);
void json_kv_array_begin(struct json_writer *w, const char *key);

/* Write s as a quoted, escaped JSON string (no layout, no state). */
void json_write_escaped(FILE *out, const char *s);

#endif
