/*
 * Reading job files and `include FILE`: a relative path is taken from the
 * including file's directory; a file already on the include stack (compared
 * by realpath) is an include loop, reported at the include line, and the
 * nesting depth is bounded. Only regular files are read: a FIFO, a
 * device or a directory is refused at once (opened without blocking, so a
 * FIFO with no writer cannot hang the parse).
 */
#include "jobfile/jobfile_int.h"
#include "util/xmalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *jobfile_not_regular(const char *path)
{
	struct stat st;
	if (stat(path, &st) < 0 || S_ISREG(st.st_mode))
		return NULL;
	return S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISDIR(st.st_mode) ? "a directory"
	       : S_ISCHR(st.st_mode) ? "a character device" : S_ISBLK(st.st_mode) ? "a block device"
	       : S_ISSOCK(st.st_mode) ? "a socket" : "not a regular file";
}

int jf_read_file(const char *path, char **text, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	size_t alloc = 4096, n = 0;
	char *buf = xmalloc(alloc);
	for (;;) {
		if (n == alloc) {
			if (alloc >= JF_MAX_FILE_BYTES) {
				free(buf);
				close(fd);
				return -EFBIG;
			}
			alloc *= 2;
			buf = xrealloc(buf, alloc);
		}
		ssize_t r = read(fd, buf + n, alloc - n);
		if (r < 0) {
			int err = errno;
			if (err == EINTR)
				continue;
			free(buf);
			close(fd);
			return -err;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	*text = buf;
	*len = n;
	return 0;
}

/* path relative to the directory of `from` unless it is absolute. */
static char *resolve(const char *from, const char *path)
{
	if (path[0] == '/')
		return xstrdup(path);
	const char *slash = strrchr(from, '/');
	if (!slash)
		return xstrdup(path);
	return xasprintf("%.*s/%s", (int)(slash - from), from, path);
}

void jf_include(struct jf_items *it, const struct jf_loc *loc, unsigned path_col, const char *path,
		const char *const *stack, unsigned depth)
{
	char *full = resolve(loc->file, path);
	char *real = realpath(full, NULL);
	if (!real) {
		jf_error(it, loc, path_col, "cannot open include file '%s': %s", full, strerror(errno));
		free(full);
		return;
	}
	for (unsigned i = 0; i < depth; i++)
		if (stack[i] && !strcmp(stack[i], real)) {
			jf_error(it, loc, path_col, "include loop: '%s' is already being read", full);
			goto out;
		}
	if (depth >= JF_MAX_INCLUDE_DEPTH) {
		jf_error(it, loc, path_col, "includes nested more than %d deep at '%s'",
			 JF_MAX_INCLUDE_DEPTH, full);
		goto out;
	}
	char *text;
	size_t len;
	int ret = jf_read_file(full, &text, &len);
	if (ret == -EINVAL) {
		const char *kind = jobfile_not_regular(full);
		jf_error(it, loc, path_col, "include file '%s' is %s, not a regular file: not read",
			 full, kind ? kind : "not a regular file");
		goto out;
	}
	if (ret) {
		jf_error(it, loc, path_col, "cannot read include file '%s': %s", full, strerror(-ret));
		goto out;
	}
	const char *nstack[JF_MAX_INCLUDE_DEPTH + 1];
	for (unsigned i = 0; i < depth; i++)
		nstack[i] = stack[i];
	nstack[depth] = real;
	/* intern before lexing: loc->file must outlive the nested items */
	const char *name = jf_intern_file(it, full);
	jf_lex_buffer(it, name, text, len, nstack, depth + 1);
	free(text);
out:
	free(real);
	free(full);
}
