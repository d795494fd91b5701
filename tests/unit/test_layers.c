/*
 * The layer order of src/README.md, enforced: every `#include "..."` in
 * every .c and .h file under src/ must name a header of its own folder or
 * of one that its row of the layer table lists under "may include" (`*`:
 * every row above it; a folder and a slash-star: it and its sub-folders;
 * a header path: that header only). An include of a folder further down the table is "upward",
 * one of a folder above it that the row does not list is "not listed"; each
 * failure names the file, the line, the include and the table row it breaks
 * (src/README.md:LINE). The table's "Exceptions" list excuses the includes
 * it names, and one that no longer happens is a failure too (remove it).
 * Two rules on headers: an `_int.h` is included only from its own folder
 * (tests/ may include any), and a header's include guard is its path from
 * src/, upper-cased (spec/jobspec.h: IOBENCH_SPEC_JOBSPEC_H).
 * Calls are checked as includes are: `nm` on the build's layer libraries
 * gives each object's defined and undefined symbols, and a file that calls
 * a function of a folder its row may not include fails, as do two folders
 * that call each other (each failure names the two files and the symbol).
 * The checker is tested first on two tiny fixture trees
 * (tests/unit/layers/good: legal, must pass; tests/unit/layers/bad: one
 * fault of each kind, each must be reported exactly; their nm.txt stands
 * in for nm's output), then run on src/ and the build directory (the
 * IOBENCH_BUILD_DIR meson gives, else two folders above this binary);
 * meson.build's list of layer libraries must be the table's, in the same
 * order.
 */
#include <errno.h>
#include <stdarg.h>
#include <ftw.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <unistd.h>

#include "check.h"
#include "util/array.h"

#define MAX_ROWS 64
#define MAX_MAY 32
#define MAX_EXC 32
#define MAX_FILES 2048

struct row {
	char folder[64];   /* "engines", "sys/dev", or a file: "main.c" */
	char lib[32];
	char may[MAX_MAY][96];
	int nr_may;
	int line;          /* in the README */
};

struct exc {
	char file[128], target[128];
	int line;
	bool used;
};

struct table {
	const char *readme;
	struct row rows[MAX_ROWS];
	int nr_rows;
	struct exc exc[MAX_EXC];
	int nr_exc;
};

struct errs {
	char *msg[256];
	int n;
};

static void err_add(struct errs *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void err_add(struct errs *e, const char *fmt, ...)
{
	va_list ap;
	char *m;
	va_start(ap, fmt);
	if (vasprintf(&m, fmt, ap) < 0)
		m = NULL;
	va_end(ap);
	if (m && e->n < (int)(ARRAY_SIZE(e->msg)))
		e->msg[e->n++] = m;
	else
		free(m);
}

static void errs_release(struct errs *e)
{
	for (int i = 0; i < e->n; i++)
		free(e->msg[i]);
	e->n = 0;
}

/* The next `...` token of s into out; returns the rest, or NULL. */
static const char *next_tick(const char *s, char *out, size_t outlen)
{
	const char *a = strchr(s, '`'), *b;
	if (!a || !(b = strchr(a + 1, '`')))
		return NULL;
	snprintf(out, outlen, "%.*s", (int)(b - a - 1), a + 1);
	return b + 1;
}

static void strip_slash(char *s)
{
	size_t n = strlen(s);
	if (n > 1 && s[n - 1] == '/' && s[n - 2] != '*')
		s[n - 1] = '\0';
}

static int row_index(const struct table *t, const char *folder)
{
	for (int i = 0; i < t->nr_rows; i++)
		if (!strcmp(t->rows[i].folder, folder))
			return i;
	return -1;
}

/* Table rows: "| N | `folder/` | lib | `a`, `b` | text |"; exceptions:
 * "- `file` includes `header`: why". */
static int table_load(struct table *t, const char *readme, struct errs *e)
{
	FILE *f = fopen(readme, "r");
	char line[2048];
	int ln = 0;
	memset(t, 0, sizeof(*t));
	t->readme = readme;
	if (!f) {
		err_add(e, "%s: cannot open: %s", readme, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		ln++;
		char cell[5][1024];
		int nr = 0, num;
		if (!strncmp(line, "- `", 3) && strstr(line, "` includes `")) {
			struct exc *x = &t->exc[t->nr_exc];
			const char *p = next_tick(line, x->file, sizeof(x->file));
			if (p && next_tick(p, x->target, sizeof(x->target)) && t->nr_exc < MAX_EXC) {
				x->line = ln;
				t->nr_exc++;
			}
			continue;
		}
		if (line[0] != '|')
			continue;
		for (char *p = line + 1, *bar; nr < 5 && (bar = strchr(p, '|')); p = bar + 1)
			snprintf(cell[nr++], sizeof(cell[0]), "%.*s", (int)(bar - p), p);
		if (nr < 4 || sscanf(cell[0], "%d", &num) != 1)
			continue;
		struct row *r = &t->rows[t->nr_rows];
		if (t->nr_rows == MAX_ROWS || !next_tick(cell[1], r->folder, sizeof(r->folder))) {
			err_add(e, "%s:%d: a layer row needs its folder in backquotes", readme, ln);
			continue;
		}
		strip_slash(r->folder);
		if (num != t->nr_rows + 1)
			err_add(e, "%s:%d: row %d is numbered %d", readme, ln, t->nr_rows + 1, num);
		if (row_index(t, r->folder) >= 0)
			err_add(e, "%s:%d: %s/ has two rows", readme, ln, r->folder);
		sscanf(cell[2], " %31s", r->lib);
		r->line = ln;
		for (const char *p = cell[3]; r->nr_may < MAX_MAY &&
		     (p = next_tick(p, r->may[r->nr_may], sizeof(r->may[0]))); r->nr_may++)
			strip_slash(r->may[r->nr_may]);
		t->nr_rows++;
	}
	fclose(f);
	if (t->nr_rows == 0)
		err_add(e, "%s: no layer table", readme);
	/* what a row lists must be below it */
	for (int i = 0; i < t->nr_rows; i++) {
		const struct row *r = &t->rows[i];
		for (int k = 0; k < r->nr_may; k++) {
			const char *m = r->may[k];
			char dir[96];
			if (!strcmp(m, "*"))
				continue;
			size_t n = strlen(m);
			if (n > 2 && !strcmp(m + n - 2, "/*"))
				snprintf(dir, sizeof(dir), "%.*s", (int)(n - 2), m);
			else if (strstr(m, ".h"))
				snprintf(dir, sizeof(dir), "%.*s", (int)(strrchr(m, '/') ? strrchr(m, '/') - m : 0), m);
			else
				snprintf(dir, sizeof(dir), "%s", m);
			int j = row_index(t, dir);
			if (j < 0 || j >= i)
				err_add(e, "%s:%d: %s/ may include `%s`, which is not a row below it",
					readme, r->line, r->folder, m);
		}
	}
	return 0;
}

/* The row a file (path under src/) belongs to: the row of its folder, or
 * the row naming the file itself (main.c). -1 when none. */
static int row_of(const struct table *t, const char *path)
{
	const char *slash = strrchr(path, '/');
	char dir[256];
	int i = row_index(t, path);
	if (i >= 0)
		return i;
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) : 0, path);
	return slash ? row_index(t, dir) : -1;
}

static bool may_include(const struct table *t, int from, int to, const char *target)
{
	const struct row *r = &t->rows[from];
	if (from == to)
		return true;
	if (to > from)
		return false;
	for (int k = 0; k < r->nr_may; k++) {
		const char *m = r->may[k];
		size_t n = strlen(m);
		if (!strcmp(m, "*") || !strcmp(m, t->rows[to].folder) || !strcmp(m, target))
			return true;
		if (n > 2 && !strcmp(m + n - 2, "/*") &&
		    !strncmp(t->rows[to].folder, m, n - 2) &&
		    (t->rows[to].folder[n - 2] == '\0' || t->rows[to].folder[n - 2] == '/'))
			return true;
	}
	return false;
}

static const char *list_may(const struct row *r, char *out, size_t outlen)
{
	size_t used = 0;
	out[0] = '\0';
	for (int k = 0; k < r->nr_may && used < outlen; k++)
		used += snprintf(out + used, outlen - used, "%s%s", k ? ", " : "", r->may[k]);
	if (!r->nr_may)
		snprintf(out, outlen, "nothing");
	return out;
}

static void check_file(struct table *t, const char *srcdir, const char *path, struct errs *e)
{
	char full[512], line[1024], target[256];
	snprintf(full, sizeof(full), "%s/%s", srcdir, path);
	int from = row_of(t, path);
	if (from < 0) {
		err_add(e, "%s: its folder is in no row of the layer table (%s)", full, t->readme);
		return;
	}
	FILE *f = fopen(full, "r");
	if (!f) {
		err_add(e, "%s: cannot open: %s", full, strerror(errno));
		return;
	}
	for (int ln = 1; fgets(line, sizeof(line), f); ln++) {
		const char *p = line + strspn(line, " \t");
		if (*p++ != '#')
			continue;
		p += strspn(p, " \t");
		if (strncmp(p, "include", 7))
			continue;
		p += 7 + strspn(p + 7, " \t");
		const char *q;
		if (*p != '"' || !(q = strchr(p + 1, '"')))
			continue;
		snprintf(target, sizeof(target), "%.*s", (int)(q - p - 1), p + 1);
		char resolved[512];
		const char *slash = strrchr(path, '/');
		if (!strchr(target, '/') && slash) /* "x.h": the including file's folder */
			snprintf(resolved, sizeof(resolved), "%.*s/%s", (int)(slash - path), path, target);
		else
			snprintf(resolved, sizeof(resolved), "%s", target);
		int to = row_of(t, resolved);
		size_t rn = strlen(resolved);
		const char *rslash = strrchr(resolved, '/');
		int rdir = rslash ? (int)(rslash - resolved) : 0;
		if (rn > 6 && !strcmp(resolved + rn - 6, "_int.h") &&
		    (rdir != (slash ? (int)(slash - path) : 0) || strncmp(resolved, path, (size_t)rdir)))
			err_add(e, "%s:%d: includes \"%s\": an _int.h is for its own folder (%.*s/) only",
				full, ln, target, rdir, resolved);
		bool excused = false;
		for (int x = 0; x < t->nr_exc; x++)
			if (!strcmp(t->exc[x].file, path) && !strcmp(t->exc[x].target, resolved))
				excused = t->exc[x].used = true;
		if (excused)
			continue;
		const struct row *r = &t->rows[from];
		char may[1024];
		if (to < 0)
			err_add(e, "%s:%d: includes \"%s\": its folder is in no row of the layer table (%s)",
				full, ln, target, t->readme);
		else if (to > from)
			err_add(e, "%s:%d: includes \"%s\": upward: %s/ (row %d) may not include %s/ (row %d, above it) (%s:%d)",
				full, ln, target, r->folder, from + 1, t->rows[to].folder, to + 1,
				t->readme, r->line);
		else if (!may_include(t, from, to, resolved))
			err_add(e, "%s:%d: includes \"%s\": not listed: %s/ (row %d) may include %s, not %s/ (%s:%d)",
				full, ln, target, r->folder, from + 1, list_may(r, may, sizeof(may)),
				t->rows[to].folder, t->readme, r->line);
	}
	fclose(f);
}

/* A header's include guard, "#ifndef G" then "#define G" as its first
 * directives, must be IOBENCH_ and its path from src/ upper-cased, with
 * '/' and '.' as '_'. */
static void check_guard(const char *srcdir, const char *path, struct errs *e)
{
	char full[512], line[1024], want[256], got[256] = "", def[256] = "";
	size_t n = strlen(path);
	if (n < 2 || strcmp(path + n - 2, ".h"))
		return;
	snprintf(full, sizeof(full), "%s/%s", srcdir, path);
	int k = snprintf(want, sizeof(want), "IOBENCH_");
	for (const char *p = path; *p && k < (int)sizeof(want) - 1; p++)
		want[k++] = (*p == '/' || *p == '.') ? '_' : (char)(*p >= 'a' && *p <= 'z' ? *p - 32 : *p);
	want[k] = '\0';
	FILE *f = fopen(full, "r");
	if (!f)
		return; /* check_file said so */
	int at = 0;
	for (int ln = 1; fgets(line, sizeof(line), f); ln++) {
		const char *p = line + strspn(line, " \t");
		if (*p != '#')
			continue;
		if (!got[0]) {
			if (sscanf(p, "#ifndef %255s", got) != 1)
				break; /* the first directive is no guard */
			at = ln;
			continue;
		}
		sscanf(p, "#define %255s", def);
		break;
	}
	fclose(f);
	if (!got[0] || strcmp(got, def))
		err_add(e, "%s: no include guard (#ifndef %s, #define %s as its first directives)",
			full, want, want);
	else if (strcmp(got, want))
		err_add(e, "%s:%d: include guard %s, its path says %s", full, at, got, want);
}

/* nftw has no user argument: the walk's state, for one walk at a time. */
static struct {
	const char *root;
	char *files[MAX_FILES];
	int n;
} walk;

static int walk_one(const char *fpath, const struct stat *sb, int type, struct FTW *ftw)
{
	size_t n = strlen(fpath);
	if (type != FTW_F || n < 2 || fpath[n - 2] != '.' || (fpath[n - 1] != 'c' && fpath[n - 1] != 'h'))
		return 0;
	if (walk.n == MAX_FILES)
		return 1;
	walk.files[walk.n++] = strdup(fpath + strlen(walk.root) + 1);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Check every .c and .h under srcdir against the table in readme. */
static void layer_check(const char *srcdir, const char *readme, struct errs *e)
{
	struct table *t = calloc(1, sizeof(*t));
	if (!t || table_load(t, readme, e) < 0) {
		free(t);
		return;
	}
	walk.root = srcdir;
	walk.n = 0;
	if (nftw(srcdir, walk_one, 16, FTW_PHYS) != 0)
		err_add(e, "%s: cannot walk the tree", srcdir);
	qsort(walk.files, walk.n, sizeof(walk.files[0]), cmp_str);
	for (int i = 0; i < walk.n; i++) {
		check_file(t, srcdir, walk.files[i], e);
		check_guard(srcdir, walk.files[i], e);
		free(walk.files[i]);
	}
	for (int x = 0; x < t->nr_exc; x++)
		if (!t->exc[x].used)
			err_add(e, "%s:%d: exception \"%s includes %s\" no longer happens: remove it",
				readme, t->exc[x].line, t->exc[x].file, t->exc[x].target);
	free(t);
}

/* ---- calls between folders, from nm's symbols ---- */

struct sym {
	char *name;
	int file; /* index into calls.files */
};

struct calls {
	char *files[MAX_FILES]; /* the .c files under src/, as paths from it */
	char *objs[MAX_FILES];  /* their objects' names: "src_" + path, '/' as '_', + ".o" */
	int nfiles;
	struct sym *defs, *uses;
	size_t ndefs, nuses, adefs, auses;
};

struct edge {
	int from_file, to_file;
	const char *sym;
};

static void sym_push(struct sym **v, size_t *n, size_t *a, const char *name, int file)
{
	if (*n == *a) {
		*a = *a ? *a * 2 : 1024;
		*v = realloc(*v, *a * sizeof(**v));
		if (!*v)
			abort();
	}
	(*v)[*n].name = strdup(name);
	(*v)[(*n)++].file = file;
}

static int cmp_sym(const void *a, const void *b)
{
	return strcmp(((const struct sym *)a)->name, ((const struct sym *)b)->name);
}

/* One line of `nm -A -g` on an archive: "LIB.a:MEMBER.o:ADDR T name" or
 * "LIB.a:MEMBER.o:                 U name". */
static void nm_line(struct calls *c, const char *line)
{
	const char *m = strstr(line, ".a:"), *end;
	char obj[512], f1[512], f2[512], f3[512];
	if (!m || !(end = strchr(m + 3, ':')))
		return;
	snprintf(obj, sizeof(obj), "%.*s", (int)(end - m - 3), m + 3);
	char *base = strrchr(obj, '/'); /* a thin archive's member is a path */
	if (base)
		memmove(obj, base + 1, strlen(base));
	int file = -1;
	for (int i = 0; i < c->nfiles && file < 0; i++)
		if (!strcmp(c->objs[i], obj))
			file = i;
	if (file < 0)
		return; /* not one of src/'s files */
	int nr = sscanf(end + 1, "%511s %511s %511s", f1, f2, f3);
	if (nr == 2 && !strcmp(f1, "U"))
		sym_push(&c->uses, &c->nuses, &c->auses, f2, file);
	else if (nr == 3 && !f2[1] && f2[0] >= 'A' && f2[0] <= 'Z' && f2[0] != 'U')
		sym_push(&c->defs, &c->ndefs, &c->adefs, f3, file);
}

/* Calling into folder `to` is allowed where including it is, or where the
 * row lists one of its headers (`store/store.h`: the functions it declares). */
static bool may_call(const struct table *t, int from, int to)
{
	if (may_include(t, from, to, ""))
		return true;
	if (to > from)
		return false;
	const char *dir = t->rows[to].folder;
	size_t n = strlen(dir);
	for (int k = 0; k < t->rows[from].nr_may; k++) {
		const char *m = t->rows[from].may[k];
		const char *slash = strrchr(m, '/');
		if (strstr(m, ".h") && slash && (size_t)(slash - m) == n && !strncmp(m, dir, n))
			return true;
	}
	return false;
}

static int walk_c(const char *fpath, const struct stat *sb, int type, struct FTW *ftw)
{
	size_t n = strlen(fpath);
	if (type == FTW_F && n > 2 && !strcmp(fpath + n - 2, ".c") && walk.n < MAX_FILES)
		walk.files[walk.n++] = strdup(fpath + strlen(walk.root) + 1);
	return 0;
}

/* Check the calls nm (its output read from `nm`) shows between the folders
 * of srcdir against the table in readme. */
static void calls_check(const char *srcdir, const char *readme, FILE *nm, struct errs *e)
{
	struct table *t = calloc(1, sizeof(*t));
	struct calls *c = calloc(1, sizeof(*c));
	struct edge *edges = NULL;
	char line[2048];
	if (!t || !c || table_load(t, readme, e) < 0)
		goto out;
	walk.root = srcdir;
	walk.n = 0;
	if (nftw(srcdir, walk_c, 16, FTW_PHYS) != 0)
		err_add(e, "%s: cannot walk the tree", srcdir);
	for (int i = 0; i < walk.n; i++) {
		char obj[512];
		int k = snprintf(obj, sizeof(obj), "src_");
		for (const char *p = walk.files[i]; *p && k < (int)sizeof(obj) - 3; p++)
			obj[k++] = *p == '/' ? '_' : *p;
		snprintf(obj + k, sizeof(obj) - k, ".o");
		c->files[i] = walk.files[i];
		c->objs[i] = strdup(obj);
	}
	c->nfiles = walk.n;
	while (fgets(line, sizeof(line), nm))
		nm_line(c, line);
	if (!c->ndefs) {
		err_add(e, "%s: nm gave no symbols of its files", srcdir);
		goto out;
	}
	qsort(c->defs, c->ndefs, sizeof(c->defs[0]), cmp_sym);
	/* edges[from * nr_rows + to]: the first call seen from row from to row to */
	edges = calloc((size_t)t->nr_rows * t->nr_rows, sizeof(*edges));
	if (!edges)
		goto out;
	for (size_t u = 0; u < c->nuses; u++) {
		struct sym *d = bsearch(&c->uses[u], c->defs, c->ndefs, sizeof(c->defs[0]), cmp_sym);
		if (!d)
			continue; /* a library's, not src/'s */
		int ff = c->uses[u].file, tf = d->file;
		int from = row_of(t, c->files[ff]), to = row_of(t, c->files[tf]);
		if (from < 0 || to < 0 || from == to)
			continue;
		struct edge *x = &edges[from * t->nr_rows + to];
		if (!x->sym)
			*x = (struct edge){ ff, tf, d->name };
		if (may_call(t, from, to))
			continue;
		const struct row *r = &t->rows[from];
		char may[1024];
		if (to > from)
			err_add(e, "%s/%s calls %s (%s/%s): upward: %s/ (row %d) may not call %s/ (row %d, above it) (%s:%d)",
				srcdir, c->files[ff], d->name, srcdir, c->files[tf], r->folder, from + 1,
				t->rows[to].folder, to + 1, t->readme, r->line);
		else
			err_add(e, "%s/%s calls %s (%s/%s): not listed: %s/ (row %d) may include %s, not %s/ (%s:%d)",
				srcdir, c->files[ff], d->name, srcdir, c->files[tf], r->folder, from + 1,
				list_may(r, may, sizeof(may)), t->rows[to].folder, t->readme, r->line);
	}
	for (int a = 0; a < t->nr_rows; a++)
		for (int b = a + 1; b < t->nr_rows; b++) {
			const struct edge *x = &edges[a * t->nr_rows + b], *y = &edges[b * t->nr_rows + a];
			if (x->sym && y->sym)
				err_add(e, "%s/ and %s/ call each other: %s/%s calls %s (%s/%s); %s/%s calls %s (%s/%s)",
					t->rows[a].folder, t->rows[b].folder,
					srcdir, c->files[x->from_file], x->sym, srcdir, c->files[x->to_file],
					srcdir, c->files[y->from_file], y->sym, srcdir, c->files[y->to_file]);
		}
out:
	if (c) {
		for (int i = 0; i < c->nfiles; i++) {
			free(c->files[i]);
			free(c->objs[i]);
		}
		for (size_t i = 0; i < c->ndefs; i++)
			free(c->defs[i].name);
		for (size_t i = 0; i < c->nuses; i++)
			free(c->uses[i].name);
		free(c->defs);
		free(c->uses);
	}
	free(edges);
	free(c);
	free(t);
}

/* The build directory: IOBENCH_BUILD_DIR (meson's), else two folders above
 * this binary (BUILD/tests/unit/test_layers). */
static void build_dir(char *out, size_t outlen)
{
	const char *env = getenv("IOBENCH_BUILD_DIR");
	char self[PATH_MAX];
	ssize_t n;
	if (env && *env) {
		snprintf(out, outlen, "%s", env);
		return;
	}
	if ((n = readlink("/proc/self/exe", self, sizeof(self) - 1)) <= 0) {
		snprintf(out, outlen, "build");
		return;
	}
	self[n] = '\0';
	for (int up = 0; up < 3; up++) {
		char *s = strrchr(self, '/');
		if (s)
			*s = '\0';
	}
	snprintf(out, outlen, "%s", self);
}

/* meson.build's `layers` list, "  ['lib', ['dir', 'dir']]," lines, must
 * give the table's folders in the table's order and libraries. */
static void meson_check(const char *meson, const char *readme, struct errs *e)
{
	struct table *t = calloc(1, sizeof(*t));
	FILE *f = fopen(meson, "r");
	char line[1024];
	int next = 0; /* the table row the next folder must be */
	bool in = false;
	if (!t || !f || table_load(t, readme, e) < 0) {
		err_add(e, "%s: cannot read it or %s", meson, readme);
		goto out;
	}
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "layers = [", 10)) {
			in = true;
			continue;
		}
		if (!in)
			continue;
		if (line[0] == ']')
			break;
		char lib[64];
		const char *p = strchr(line, '[');
		if (!p || sscanf(p, "['%63[^']'", lib) != 1)
			continue;
		for (p = strchr(p + 1, '['); p && (p = strchr(p, '\'')); p++) {
			const char *q = strchr(p + 1, '\'');
			if (!q)
				break;
			char dir[96];
			snprintf(dir, sizeof(dir), "%.*s", (int)(q - p - 1), p + 1);
			p = q;
			while (next < t->nr_rows && strchr(t->rows[next].folder, '.')) /* main.c */
				next++;
			if (next >= t->nr_rows || strcmp(t->rows[next].folder, dir))
				err_add(e, "%s: layer folder '%s' where %s has %s/", meson, dir, readme,
					next < t->nr_rows ? t->rows[next].folder : "no more rows");
			else if (strcmp(t->rows[next].lib, lib))
				err_add(e, "%s: '%s' in library '%s', %s says '%s'", meson, dir, lib, readme,
					t->rows[next].lib);
			next++;
		}
	}
	while (next < t->nr_rows && strchr(t->rows[next].folder, '.'))
		next++;
	if (!in || next != t->nr_rows)
		err_add(e, "%s: the layers list does not give all of %s's rows", meson, readme);
out:
	if (f)
		fclose(f);
	free(t);
}

static void print_errs(const struct errs *e)
{
	for (int i = 0; i < e->n; i++)
		printf("    %s\n", e->msg[i]);
}

/* calls_check on a fixture tree, its nm.txt standing in for nm's output */
static void fixture_calls(const char *dir, struct errs *e)
{
	char src[256], readme[256], nm[256];
	snprintf(src, sizeof(src), "%s/src", dir);
	snprintf(readme, sizeof(readme), "%s/src/README.md", dir);
	snprintf(nm, sizeof(nm), "%s/nm.txt", dir);
	FILE *f = fopen(nm, "r");
	if (!f) {
		err_add(e, "%s: cannot open: %s", nm, strerror(errno));
		return;
	}
	calls_check(src, readme, f, e);
	fclose(f);
}

static void test_good_fixture(void)
{
	struct errs e = { 0 };
	layer_check("tests/unit/layers/good/src", "tests/unit/layers/good/src/README.md", &e);
	fixture_calls("tests/unit/layers/good", &e);
	CHECK(e.n == 0, "the legal fixture tree is accepted (%d errors)", e.n);
	print_errs(&e);
	errs_release(&e);
}

static void test_bad_fixture(void)
{
	static const char *const want[] = {
		"tests/unit/layers/bad/src/low/up.c:5: includes \"mid/b.h\": upward: low/ (row 1) "
		"may not include mid/ (row 2, above it) (tests/unit/layers/bad/src/README.md:12)",
		"tests/unit/layers/bad/src/top/c.c:3: includes \"low/a.h\": not listed: top/ (row 3) "
		"may include mid, not low/ (tests/unit/layers/bad/src/README.md:14)",
		"tests/unit/layers/bad/src/top/c.c:4: includes \"nowhere/x.h\": its folder is in no "
		"row of the layer table (tests/unit/layers/bad/src/README.md)",
		"tests/unit/layers/bad/src/README.md:18: exception \"top/c.c includes mid/gone.h\" "
		"no longer happens: remove it",
		"tests/unit/layers/bad/src/top/c.c:5: includes \"mid/m_int.h\": an _int.h is for its "
		"own folder (mid/) only",
		"tests/unit/layers/bad/src/low/a.h:2: include guard A_H, its path says IOBENCH_LOW_A_H",
		"tests/unit/layers/bad/src/mid/b.h: no include guard (#ifndef IOBENCH_MID_B_H, "
		"#define IOBENCH_MID_B_H as its first directives)",
		"tests/unit/layers/bad/src/low/up.c calls mid_m (tests/unit/layers/bad/src/mid/m.c): "
		"upward: low/ (row 1) may not call mid/ (row 2, above it) (tests/unit/layers/bad/src/README.md:12)",
		"tests/unit/layers/bad/src/top/c.c calls low_up (tests/unit/layers/bad/src/low/up.c): "
		"not listed: top/ (row 3) may include mid, not low/ (tests/unit/layers/bad/src/README.md:14)",
		"low/ and mid/ call each other: tests/unit/layers/bad/src/low/up.c calls mid_m "
		"(tests/unit/layers/bad/src/mid/m.c); tests/unit/layers/bad/src/mid/m.c calls low_up "
		"(tests/unit/layers/bad/src/low/up.c)",
	};
	const size_t nr = ARRAY_SIZE(want);
	struct errs e = { 0 };
	layer_check("tests/unit/layers/bad/src", "tests/unit/layers/bad/src/README.md", &e);
	fixture_calls("tests/unit/layers/bad", &e);
	CHECK(e.n == (int)nr, "the bad fixture gives %zu errors, not %d", nr, e.n);
	for (size_t i = 0; i < nr; i++) {
		bool found = false;
		for (int k = 0; k < e.n; k++)
			found |= !strcmp(e.msg[k], want[i]);
		CHECK(found, "reported: %s", want[i]);
	}
	if (e.n != (int)nr)
		print_errs(&e);
	errs_release(&e);
}

static void test_src(void)
{
	struct errs e = { 0 };
	layer_check("src", "src/README.md", &e);
	CHECK(e.n == 0, "every #include in src/ keeps src/README.md's order (%d errors)", e.n);
	print_errs(&e);
	errs_release(&e);
	/* the calls: nm on the build's layer libraries */
	char dir[PATH_MAX], cmd[PATH_MAX + 64];
	build_dir(dir, sizeof(dir));
	snprintf(cmd, sizeof(cmd), "nm -A -g '%s'/libiobench_*.a 2>&1", dir);
	FILE *nm = popen(cmd, "r");
	if (nm) {
		calls_check("src", "src/README.md", nm, &e);
		int st = pclose(nm);
		if (st != 0)
			err_add(&e, "%s: exit status %d (the layer libraries are built in %s?)", cmd, st, dir);
	} else {
		err_add(&e, "%s: cannot run: %s", cmd, strerror(errno));
	}
	CHECK(e.n == 0, "no folder of src/ calls one its row may not include, nor two each other (%d errors)", e.n);
	print_errs(&e);
	errs_release(&e);
	meson_check("meson.build", "src/README.md", &e);
	CHECK(e.n == 0, "meson.build's layer libraries are src/README.md's, in order (%d errors)", e.n);
	print_errs(&e);
	errs_release(&e);
}

int main(void)
{
	/* from the top of the tree (tests/run_all.sh) or the build directory
	 * (meson test: __FILE__ is relative to it) */
	if (access("src/README.md", R_OK) != 0) {
		char dir[4096];
		const char *slash = strrchr(__FILE__, '/');
		snprintf(dir, sizeof(dir), "%.*s/../..", slash ? (int)(slash - __FILE__) : 1,
			 slash ? __FILE__ : ".");
		if (chdir(dir) != 0 || access("src/README.md", R_OK) != 0) {
			printf("not ok cannot find the source tree from %s\n", dir);
			return 1;
		}
	}
	test_good_fixture();
	test_bad_fixture();
	test_src();
	return check_done("layers");
}
