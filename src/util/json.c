/*
 * The streaming JSON writer declared in json.h. Every value goes through
 * begin_value(), which writes the separator, newline and indent that fio's
 * layout puts before a member or array element, and checks that a value is
 * allowed here (after a key inside an object, anywhere inside an array, or
 * once at the root).
 */
#include "util/json.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>

static void set_error(struct json_writer *w, int err)
{
	if (!w->error)
		w->error = err;
}

static void indent(struct json_writer *w, unsigned level)
{
	for (unsigned i = 0; i < level; i++)
		fputs("  ", w->out);
}

void json_init(struct json_writer *w, FILE *out)
{
	w->out = out;
	w->depth = 0;
	w->have_key = false;
	w->done = false;
	w->error = 0;
}

/* Separator and indent before a value; returns false if no value may go here. */
static bool begin_value(struct json_writer *w)
{
	if (w->error)
		return false;
	if (w->depth == 0) {
		if (w->done) {
			set_error(w, -EINVAL);
			return false;
		}
		return true;
	}
	if (w->is_array[w->depth - 1]) {
		fputs(w->has_items[w->depth - 1] ? ",\n" : "\n", w->out);
		w->has_items[w->depth - 1] = true;
		indent(w, w->depth);
		return true;
	}
	if (!w->have_key) {
		set_error(w, -EINVAL);
		return false;
	}
	w->have_key = false;
	return true;
}

static void end_value(struct json_writer *w)
{
	if (w->depth == 0)
		w->done = true;
}

void json_key(struct json_writer *w, const char *key)
{
	if (w->error)
		return;
	if (w->depth == 0 || w->is_array[w->depth - 1] || w->have_key || !key) {
		set_error(w, -EINVAL);
		return;
	}
	fputs(w->has_items[w->depth - 1] ? ",\n" : "\n", w->out);
	w->has_items[w->depth - 1] = true;
	indent(w, w->depth);
	json_write_escaped(w->out, key);
	fputs(" : ", w->out);
	w->have_key = true;
}

static void open_container(struct json_writer *w, bool array)
{
	if (!begin_value(w))
		return;
	if (w->depth >= JSON_MAX_DEPTH) {
		set_error(w, -EINVAL);
		return;
	}
	fputc(array ? '[' : '{', w->out);
	w->is_array[w->depth] = array;
	w->has_items[w->depth] = false;
	w->depth++;
}

static void close_container(struct json_writer *w, bool array)
{
	if (w->error)
		return;
	if (w->depth == 0 || w->is_array[w->depth - 1] != array || w->have_key) {
		set_error(w, -EINVAL);
		return;
	}
	w->depth--;
	if (w->has_items[w->depth]) {
		fputc('\n', w->out);
		indent(w, w->depth);
	}
	fputc(array ? ']' : '}', w->out);
	end_value(w);
}

void json_object_begin(struct json_writer *w) { open_container(w, false); }
void json_object_end(struct json_writer *w) { close_container(w, false); }
void json_array_begin(struct json_writer *w) { open_container(w, true); }
void json_array_end(struct json_writer *w) { close_container(w, true); }

void json_raw(struct json_writer *w, const char *text)
{
	if (!begin_value(w))
		return;
	fputs(text, w->out);
	end_value(w);
}

void json_write_escaped(FILE *out, const char *s)
{
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"': fputs("\\\"", out); break;
		case '\\': fputs("\\\\", out); break;
		case '\b': fputs("\\b", out); break;
		case '\f': fputs("\\f", out); break;
		case '\n': fputs("\\n", out); break;
		case '\r': fputs("\\r", out); break;
		case '\t': fputs("\\t", out); break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				fprintf(out, "\\u%04x", *p);
			else
				fputc(*p, out);
		}
	}
	fputc('"', out);
}

void json_string(struct json_writer *w, const char *s)
{
	if (!s) {
		json_null(w);
		return;
	}
	if (!begin_value(w))
		return;
	json_write_escaped(w->out, s);
	end_value(w);
}

void json_int(struct json_writer *w, int64_t v)
{
	if (!begin_value(w))
		return;
	fprintf(w->out, "%" PRId64, v);
	end_value(w);
}

void json_uint(struct json_writer *w, uint64_t v)
{
	if (!begin_value(w))
		return;
	fprintf(w->out, "%" PRIu64, v);
	end_value(w);
}

void json_double(struct json_writer *w, double v)
{
	if (!isfinite(v)) {
		json_null(w);
		return;
	}
	if (!begin_value(w))
		return;
	fprintf(w->out, "%f", v);
	end_value(w);
}

void json_bool(struct json_writer *w, bool v)
{
	if (!begin_value(w))
		return;
	fputs(v ? "true" : "false", w->out);
	end_value(w);
}

void json_null(struct json_writer *w)
{
	if (!begin_value(w))
		return;
	fputs("null", w->out);
	end_value(w);
}

void json_kv_string(struct json_writer *w, const char *key, const char *s)
{
	json_key(w, key);
	json_string(w, s);
}

void json_kv_int(struct json_writer *w, const char *key, int64_t v)
{
	json_key(w, key);
	json_int(w, v);
}

void json_kv_uint(struct json_writer *w, const char *key, uint64_t v)
{
	json_key(w, key);
	json_uint(w, v);
}

void json_kv_double(struct json_writer *w, const char *key, double v)
{
	json_key(w, key);
	json_double(w, v);
}

void json_kv_bool(struct json_writer *w, const char *key, bool v)
{
	json_key(w, key);
	json_bool(w, v);
}

void json_kv_object_begin(struct json_writer *w, const char *key)
{
	json_key(w, key);
	json_object_begin(w);
}

void json_kv_array_begin(struct json_writer *w, const char *key)
{
	json_key(w, key);
	json_array_begin(w);
}

int json_finish(struct json_writer *w)
{
	if (!w->error && (w->depth != 0 || !w->done))
		set_error(w, -EINVAL);
	if (!w->error)
		fputc('\n', w->out);
	if (!w->error && ferror(w->out))
		set_error(w, -EIO);
	return w->error;
}
