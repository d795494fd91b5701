/*
 * fio's command-line job form: "--name=X" starts job X ("--name=global" a
 * global section), later "--key=value" or "--flag" belong to it, and options
 * before the first --name form a global section. Each argument becomes an
 * item located at "<command line>:ARGNO:COL" and goes through the same
 * builder as a job file, except that an engine's options apply in order
 * (fio's getopt knows them only after --ioengine). Also the public entry
 * points for files and buffers.
 */
#include "jobfile/jobfile_int.h"
#include "util/xmalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CMDLINE "<command line>"

int jobfile_parse_args(int argc, char **argv, struct job_list *list, const struct jobfile_ctx *ctx)
{
	struct jf_items it = { .cmdline = true };
	struct jf_loc loc = { .file = jf_intern_file(&it, CMDLINE), .line = 1, .col = 1 };
	bool record = list->nr == 0 && list->nr_global_opts == 0;
	if (argc <= 0)
		return 0;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		loc.line = (unsigned)i + 1;
		loc.col = 3;
		if (strncmp(a, "--", 2) || !a[2] || a[2] == '=') {
			loc.col = 1;
			jf_error(&it, &loc, 0, "expected --option=value, not '%s'", a);
			continue;
		}
		const char *key = a + 2;
		const char *eq = strchr(key, '=');
		size_t klen = eq ? (size_t)(eq - key) : strlen(key);
		if (klen == 4 && !strncmp(key, "name", 4)) {
			if (!eq || !eq[1]) {
				jf_error(&it, &loc, 0, "option 'name' needs a value");
				continue;
			}
			loc.col = 8;
			jf_add(&it, JF_SECTION, eq + 1, strlen(eq + 1), &loc);
			/* fio echoes --name in the job's "job options" */
			if (strcmp(eq + 1, "global")) {
				struct jf_item *n = jf_add(&it, JF_OPTION, key, klen, &loc);
				n->value = xstrdup(eq + 1);
				n->value_col = 8;
			}
			continue;
		}
		if (it.nr == 0) {
			struct jf_loc g = loc;
			g.col = 1;
			jf_add(&it, JF_SECTION, "global", 6, &g);
		}
		struct jf_item *item = jf_add(&it, JF_OPTION, key, klen, &loc);
		if (eq) {
			/* the same ${VAR}, $ncpus, $mb_memory, $pagesize as in files */
			const char *why = NULL;
			item->value_col = 3 + (unsigned)klen + 1;
			item->value = jf_expand_vars(eq + 1, &why);
			if (!item->value) {
				jf_error(&it, &loc, item->value_col, "%s in value '%s' of option '%.*s'",
					 why, eq + 1, (int)klen, key);
				free(item->name);
				it.nr--;
			}
		}
	}
	int ret = jf_build_jobs(&it, 0, record, list, ctx);
	jf_items_release(&it);
	return ret;
}

int jobfile_parse_buffer(const char *name, const char *text, size_t len, unsigned file_index,
			 struct job_list *list, const struct jobfile_ctx *ctx)
{
	struct jf_items it = { 0 };
	char *real = realpath(name, NULL);
	const char *stack[1] = { real ? real : name };
	jf_lex_buffer(&it, name, text, len, stack, 1);
	int ret = jf_build_jobs(&it, file_index, file_index == 0 && list->nr_global_opts == 0,
				list, ctx);
	jf_items_release(&it);
	free(real);
	return ret;
}

int jobfile_read_text(const char *path, char **text, size_t *len)
{
	return jf_read_file(path, text, len);
}

int jobfile_parse_file(const char *path, unsigned file_index, struct job_list *list,
		       const struct jobfile_ctx *ctx)
{
	char *text;
	size_t len;
	int ret = jf_read_file(path, &text, &len);
	if (ret == -EINVAL) {
		const char *kind = jobfile_not_regular(path);
		fprintf(stderr, "%s: error: the job file is %s, not a regular file: not read\n", path,
			kind ? kind : "not a regular file");
		return -EINVAL;
	}
	if (ret) {
		fprintf(stderr, "%s: error: cannot open: %s\n", path, strerror(-ret));
		return -EINVAL;
	}
	ret = jobfile_parse_buffer(path, text, len, file_index, list, ctx);
	free(text);
	return ret;
}
