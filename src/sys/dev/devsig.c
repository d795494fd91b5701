/*
 * Signature probing for devsig_int.h with libblkid. Safe probing answers "one
 * clear signature" (described with its label and what it is used for) or
 * "several that disagree", in which case every probing function is run one
 * at a time, as wipefs does, so the message can list them all. Damaged
 * superblocks (bad checksums) count: they are still someone's data.
 */
#include "sys/dev/devsig_int.h"

#include <blkid.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct sigtext {
	char *out;
	size_t len, used;
	int count;
};

static void sig_add(struct sigtext *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void sig_add(struct sigtext *t, const char *fmt, ...)
{
	va_list ap;

	if (t->used + 1 >= t->len)
		return;
	if (t->count++) {
		int n = snprintf(t->out + t->used, t->len - t->used, "; ");
		t->used += n > 0 ? (size_t)n : 0;
		if (t->used >= t->len)
			t->used = t->len - 1;
	}
	va_start(ap, fmt);
	int n = vsnprintf(t->out + t->used, t->len - t->used, fmt, ap);
	va_end(ap);
	t->used += n > 0 ? (size_t)n : 0;
	if (t->used >= t->len)
		t->used = t->len - 1;
}

static const char *lookup(blkid_probe pr, const char *name)
{
	const char *v = NULL;

	return blkid_probe_lookup_value(pr, name, &v, NULL) == 0 ? v : NULL;
}

/* Words for libblkid's USAGE, "" for plain filesystems. */
static const char *usage_words(const char *usage, const char *type)
{
	if (!usage || !strcmp(usage, "filesystem"))
		return "";
	if (!strcmp(usage, "raid"))
		return !strncmp(type, "LVM", 3) ? " (LVM physical volume)" : " (RAID member)";
	if (!strcmp(usage, "crypto"))
		return " (encrypted volume)";
	if (!strcmp(type, "swap"))
		return " (swap space)";
	return "";
}

/* Describe the one result the probe holds now. */
static void describe_current(blkid_probe pr, struct sigtext *t)
{
	const char *type = lookup(pr, "TYPE");
	const char *pttype = lookup(pr, "PTTYPE");

	if (type) {
		const char *label = lookup(pr, "LABEL");
		if (label && *label)
			sig_add(t, "%s signature found%s, label '%s'", type,
				usage_words(lookup(pr, "USAGE"), type), label);
		else
			sig_add(t, "%s signature found%s", type, usage_words(lookup(pr, "USAGE"), type));
	}
	if (pttype)
		sig_add(t, "partition table (%s) found", pttype);
}

int devsig_describe(const char *path, char *out, size_t outlen)
{
	struct sigtext t = { .out = out, .len = outlen };
	blkid_probe pr;
	int rc;

	if (outlen)
		out[0] = '\0';
	errno = 0;
	pr = blkid_new_probe_from_filename(path);
	if (!pr)
		return errno ? -errno : -EIO;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_LABEL |
					  BLKID_SUBLKS_USAGE | BLKID_SUBLKS_BADCSUM);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC);
	rc = blkid_do_safeprobe(pr);
	if (rc == 0) {
		describe_current(pr, &t);
	} else if (rc == -2) {
		/* ambivalent: walk every probing function that matches */
		blkid_reset_probe(pr);
		while (blkid_do_probe(pr) == 0)
			describe_current(pr, &t);
		if (!t.count)
			sig_add(&t, "several conflicting signatures found");
	} else if (rc < 0) {
		blkid_free_probe(pr);
		return -EIO;
	}
	blkid_free_probe(pr);
	return t.count;
}
