/*
 * What both readers of a log (replay_src.c's text iologs, blktrace.c's
 * traces) share, calling nothing back: the list of files a log names, and
 * the replay options applied to an entry (replay_time_scale on a delay,
 * replay_scale and replay_align on an offset).
 */
#include <stdlib.h>
#include <string.h>

#include "spec/jobspec.h"
#include "util/xmalloc.h"
#include "workload/replay/replay_int.h"

unsigned replay_file_index(struct replay_files *files, const char *name)
{
	for (unsigned i = files->n; i-- > 0;)
		if (!strcmp(files->names[i], name))
			return i;
	return ~0u;
}

unsigned replay_file_add(struct replay_files *files, const char *name)
{
	unsigned i = replay_file_index(files, name);
	if (i != ~0u)
		return i;
	files->names = xrealloc(files->names, (files->n + 1) * sizeof(*files->names));
	files->end = xrealloc(files->end, (files->n + 1) * sizeof(*files->end));
	files->what = xrealloc(files->what, (files->n + 1) * sizeof(*files->what));
	files->names[files->n] = xstrdup(name);
	files->end[files->n] = 0;
	files->what[files->n] = 0;
	return files->n++;
}

void replay_files_free(struct replay_files *files)
{
	for (unsigned i = 0; i < files->n; i++)
		free(files->names[i]);
	free(files->names);
	free(files->end);
	free(files->what);
	memset(files, 0, sizeof(*files));
}

uint64_t replay_scaled_delay(uint64_t ns, unsigned time_scale)
{
	if (time_scale == 100)
		return ns;
	double scaled = (double)ns * 100.0 / (double)time_scale;
	return scaled >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)scaled;
}

/* replay_scale, then replay_align (as fio, in that order) */
uint64_t replay_place(const struct job_spec *s, uint64_t off)
{
	if (s->replay_scale > 1)
		off /= s->replay_scale;
	if (s->replay_align)
		off &= ~(s->replay_align - 1);
	return off;
}
