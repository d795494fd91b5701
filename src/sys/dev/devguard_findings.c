/*
 * The device guard's message (devguard_int.h): findings appended one after
 * another ("; " between them) into the caller's buffer, truncated rather
 * than overflowed, the kinds of use counted with the remedy each calls for,
 * and dg_say for a whole message.
 */
#include "sys/dev/devguard_int.h"
#include "util/array.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void vappend(struct findings *f, const char *sep, const char *fmt, va_list ap)
{
	if (!f->len || f->used + 1 >= f->len)
		return;
	int n = snprintf(f->buf + f->used, f->len - f->used, "%s", f->used ? sep : "");
	f->used += n > 0 ? (size_t)n : 0;
	if (f->used < f->len) {
		n = vsnprintf(f->buf + f->used, f->len - f->used, fmt, ap);
		f->used += n > 0 ? (size_t)n : 0;
	}
	if (f->used >= f->len)
		f->used = f->len - 1;
}

void dg_add(struct findings *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vappend(f, "; ", fmt, ap);
	va_end(ap);
}

/* Continue the last finding (no separator). */
void dg_cont(struct findings *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vappend(f, "", fmt, ap);
	va_end(ap);
}

void dg_say(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	if (!whylen)
		return;
	va_start(ap, fmt);
	vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
}

static const char *const remedies[] = {
	"unmount it",
	"swapoff it",
	"stop what holds it",
	"detach the loop devices backed by files on it",
	"swapoff its backing file",
	"unmount the filesystems mounted from files on it",
	"unmount its backing file",
	"stop using the devices that share its storage",
	"release it",
};

void dg_used(struct findings *f, bool related, unsigned kind)
{
	f->in_use++;
	f->uses |= related ? USE_SHARED : kind;
}

void dg_remedies(unsigned uses, char *out, size_t len)
{
	size_t used_len = 0;

	if (len)
		out[0] = '\0';
	for (size_t k = 0; k < ARRAY_SIZE(remedies); k++)
		if (uses & (1u << k)) {
			int w = snprintf(out + used_len, len - used_len, "%s%s",
					 used_len ? ", " : "", remedies[k]);
			if (w > 0 && (size_t)w < len - used_len)
				used_len += (size_t)w;
		}
}
