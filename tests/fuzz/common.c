/*
 * Helpers shared by the fuzz targets (see common.h): silencing stdio,
 * strings and argument vectors from fuzz input, a scratch directory of small
 * job files removed at exit.
 */
#include "common.h"

#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void fuzz_silence(void)
{
	FILE *null = fopen("/dev/null", "w");
	if (!null)
		return;
	fflush(stdout);
	fflush(stderr);
	stdout = null;
	stderr = null;
}

char *fuzz_strndup(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

char **fuzz_split(const uint8_t *data, size_t size, char sep, const char *const *fixed,
		  int nfixed, int *argc)
{
	size_t n = 1;
	for (size_t i = 0; i < size; i++)
		n += data[i] == (uint8_t)sep;
	char **argv = calloc(n + nfixed + 1, sizeof(*argv));
	if (!argv)
		abort();
	int k = 0;
	for (; k < nfixed; k++)
		argv[k] = (char *)fixed[k];
	size_t start = 0;
	for (size_t i = 0; i <= size; i++) {
		if (i < size && data[i] != (uint8_t)sep)
			continue;
		argv[k++] = fuzz_strndup(data + start, i - start);
		start = i + 1;
	}
	argv[k] = NULL;
	*argc = k;
	return argv;
}

void fuzz_argv_free(char **argv, int nfixed)
{
	for (int i = nfixed; argv[i]; i++)
		free(argv[i]);
	free(argv);
}

/* The scratch directory, for the atexit handler that removes it. */
static char scratch[PATH_MAX];

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	remove(path);
	return 0;
}

static void scratch_remove(void)
{
	if (scratch[0] == '/')
		nftw(scratch, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

const char *fuzz_scratch_dir(const char *const *files)
{
	const char *tmp = getenv("TMPDIR");
	snprintf(scratch, sizeof(scratch), "%s/iobench-fuzz.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(scratch) || scratch[0] != '/')
		return NULL;
	atexit(scratch_remove);
	for (size_t i = 0; files && files[i]; i += 2) {
		char path[PATH_MAX];
		snprintf(path, sizeof(path), "%s/%s", scratch, files[i]);
		int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0)
			return NULL;
		size_t len = strlen(files[i + 1]);
		ssize_t w = write(fd, files[i + 1], len);
		close(fd);
		if (w != (ssize_t)len)
			return NULL;
	}
	return scratch;
}

__attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_silence();
	return 0;
}
