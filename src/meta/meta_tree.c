/*
 * The metadata workload's arithmetic (meta/meta.h): checking a spec,
 * the tree's size and items (mdtest 4.1's counting: directories
 * (b^(z+1) − 1)/(b − 1), z + 1 for b = 1; items per directory -n / that,
 * -n rounded down; -L counts only the b^z leaves), and the names of the
 * tree's directories and items. Pure: no file is touched here.
 */
#include "meta/meta.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define META_MAX_DIRS (1ULL << 32) /* one tree; more is a typo, not a test */

static const struct {
	const char *title, *key;
} phase_names[META_NR_PHASES] = {
	[META_TREE_CREATE] = { "Tree creation", "tree_create" },
	[META_DIR_CREATE] = { "Directory creation", "dir_create" },
	[META_DIR_STAT] = { "Directory stat", "dir_stat" },
	[META_DIR_REMOVE] = { "Directory removal", "dir_remove" },
	[META_FILE_CREATE] = { "File creation", "file_create" },
	[META_FILE_STAT] = { "File stat", "file_stat" },
	[META_FILE_READ] = { "File read", "file_read" },
	[META_FILE_REMOVE] = { "File removal", "file_remove" },
	[META_TREE_REMOVE] = { "Tree removal", "tree_remove" },
};

const char *meta_phase_title(enum meta_phase p)
{
	return p < META_NR_PHASES ? phase_names[p].title : "?";
}

const char *meta_phase_key(enum meta_phase p)
{
	return p < META_NR_PHASES ? phase_names[p].key : "?";
}

/* b^e, or 0 when it passes META_MAX_DIRS. */
static uint64_t power(unsigned b, unsigned e)
{
	uint64_t r = 1;
	for (unsigned i = 0; i < e; i++) {
		r *= b;
		if (r > META_MAX_DIRS)
			return 0;
	}
	return r;
}

int meta_spec_check(struct meta_spec *s, struct meta_tree *t, char *err, size_t errlen)
{
	memset(t, 0, sizeof(*t));
	err[0] = 0;
	if (!s->files && !s->dirs)
		s->files = s->dirs = true;
	if (!s->ops)
		s->ops = META_OP_ALL;
	if (!s->iterations)
		s->iterations = 1;
	if (!s->dir || !*s->dir) {
		snprintf(err, errlen, "no directory given (-d DIR)");
		return -EINVAL;
	}
	if (s->items && s->items_per_dir) {
		snprintf(err, errlen, "-n %llu and -I %llu together: give the items per rank (-n) "
			 "or per directory (-I), not both", (unsigned long long)s->items,
			 (unsigned long long)s->items_per_dir);
		return -EINVAL;
	}
	if (!s->items && !s->items_per_dir) {
		snprintf(err, errlen, "no items: give -n ITEMS (per rank) or -I ITEMS (per directory)");
		return -EINVAL;
	}
	if (s->depth && !s->branch) {
		snprintf(err, errlen, "-z %u with -b 0: a tree deeper than its root needs a branching "
			 "factor of at least 1", s->depth);
		return -EINVAL;
	}
	if ((s->read_bytes || s->write_bytes) && !s->files) {
		snprintf(err, errlen, "-%c %llu with -D only: directories have no data to %s",
			 s->write_bytes ? 'w' : 'e',
			 (unsigned long long)(s->write_bytes ? s->write_bytes : s->read_bytes),
			 s->write_bytes ? "write" : "read");
		return -EINVAL;
	}
	t->depth = s->depth;
	t->branch = s->depth ? s->branch : 1;
	uint64_t leaves = power(t->branch, t->depth);
	if (t->branch == 1)
		t->num_dirs = (uint64_t)t->depth + 1;
	else if (leaves && leaves <= (META_MAX_DIRS - 1) / t->branch)
		t->num_dirs = (leaves * t->branch - 1) / (t->branch - 1);
	if (!leaves || !t->num_dirs || t->num_dirs > META_MAX_DIRS) {
		snprintf(err, errlen, "-z %u -b %u makes a tree of more than %llu directories",
			 s->depth, s->branch, META_MAX_DIRS);
		return -EINVAL;
	}
	uint64_t with_items = s->leaf_only ? leaves : t->num_dirs;
	t->first_dir = t->num_dirs - with_items;
	if (s->items_per_dir) {
		t->per_dir = s->items_per_dir;
		if (t->per_dir > UINT64_MAX / with_items) {
			snprintf(err, errlen, "-I %llu in %llu directories is too many items",
				 (unsigned long long)t->per_dir, (unsigned long long)with_items);
			return -EINVAL;
		}
	} else {
		t->per_dir = s->items / with_items;
		if (!t->per_dir) {
			snprintf(err, errlen, "-n %llu is fewer items than the %llu directories that hold "
				 "them (-z %u -b %u%s): each would get none", (unsigned long long)s->items,
				 (unsigned long long)with_items, s->depth, s->branch,
				 s->leaf_only ? " -L" : "");
			return -EINVAL;
		}
	}
	t->items = t->per_dir * with_items;
	return 0;
}

void meta_tree_names(const struct meta_spec *s, int rank, char *root, size_t rlen, char *base,
		     size_t blen)
{
	if (s->unique_dir) {
		snprintf(base, blen, "mdtest_tree.%d", rank);
		snprintf(root, rlen, "mdtest_tree.%d.0", rank);
	} else {
		snprintf(base, blen, "mdtest_tree");
		snprintf(root, rlen, "mdtest_tree.0");
	}
}

int meta_dir_path(const struct meta_tree *t, const char *base, uint64_t n, char *buf, size_t len)
{
	/* the chain from n up to the root, then written top down */
	uint64_t chain[64];
	unsigned k = 0;
	for (uint64_t d = n; d > 0 && k < 64; d = (d - 1) / t->branch)
		chain[k++] = d;
	size_t used = 0;
	if (len)
		buf[0] = 0;
	while (k--) {
		int w = snprintf(buf + used, used < len ? len - used : 0, "%s%s.%llu", used ? "/" : "",
				 base, (unsigned long long)chain[k]);
		if (w < 0 || used + (size_t)w >= len)
			return -ENAMETOOLONG;
		used += (size_t)w;
	}
	return (int)used;
}

uint64_t meta_item_dir(const struct meta_tree *t, uint64_t i)
{
	return t->first_dir + i / t->per_dir;
}

bool meta_dir_items(const struct meta_tree *t, uint64_t n, uint64_t *first)
{
	if (n < t->first_dir || n >= t->num_dirs)
		return false;
	*first = (n - t->first_dir) * t->per_dir;
	return true;
}

void meta_item_name(const struct meta_tree *t, const char *kind, int rank, uint64_t i, char *buf,
		    size_t len)
{
	snprintf(buf, len, "%s.mdtest.%d.%llu", kind, rank,
		 (unsigned long long)(t->first_dir * t->per_dir + i));
}
