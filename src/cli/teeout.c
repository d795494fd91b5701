/*
 * teeout.h: fopencookie with a write that forwards and copies.
 */
#include "cli/teeout.h"

#include <stdlib.h>
#include <string.h>

#include "util/xmalloc.h"

struct teeout {
	FILE *to;
	char *buf;
	size_t len, alloc;
};

static ssize_t tee_write(void *cookie, const char *data, size_t n)
{
	struct teeout *t = cookie;
	if (t->len + n + 1 > t->alloc) {
		size_t want = t->alloc ? t->alloc : 4096;
		while (want < t->len + n + 1)
			want *= 2;
		t->buf = xrealloc(t->buf, want);
		t->alloc = want;
	}
	memcpy(t->buf + t->len, data, n);
	t->len += n;
	t->buf[t->len] = '\0';
	if (fwrite(data, 1, n, t->to) != n || fflush(t->to) != 0)
		return -1;
	return (ssize_t)n;
}

static int tee_close(void *cookie)
{
	return 0;
}

FILE *teeout_open(FILE *to, struct teeout **t)
{
	*t = xcalloc(1, sizeof(**t));
	(*t)->to = to;
	cookie_io_functions_t io = { .write = tee_write, .close = tee_close };
	FILE *f = fopencookie(*t, "w", io);
	if (!f) {
		free(*t);
		*t = NULL;
	}
	return f;
}

const char *teeout_peek(const struct teeout *t, size_t *len)
{
	*len = t->len;
	return t->buf ? t->buf : "";
}

char *teeout_take(struct teeout *t, size_t *len)
{
	char *buf = t->buf ? t->buf : xstrdup("");
	*len = t->len;
	free(t);
	return buf;
}
