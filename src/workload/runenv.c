/*
 * The machine-around-a-run record (runenv.h): warnings list and release.
 */
#include "workload/runenv.h"

#include <stdlib.h>
#include <string.h>

#include "util/xmalloc.h"

void run_env_warn(struct run_env *e, const char *id, char *message, char *evidence, char *advice)
{
	e->warnings = xrealloc(e->warnings, (e->nr_warnings + 1) * sizeof(*e->warnings));
	e->warnings[e->nr_warnings++] = (struct run_warning){
		.id = id, .message = message, .evidence = evidence, .advice = advice,
	};
}

const struct monitor_dev_summary *run_env_device(const struct run_env *e, const char *name)
{
	if (!e->have_monitor)
		return NULL;
	for (unsigned i = 0; i < e->summary.ndev; i++)
		if (!strcmp(e->summary.devs[i].name, name))
			return &e->summary.devs[i];
	return NULL;
}

void run_env_release(struct run_env *e)
{
	if (e->have_sysinfo)
		sysinfo_release(&e->si);
	if (e->have_monitor) {
		monitor_summary_release(&e->summary);
		monitor_series_release(&e->series);
	}
	free(e->others);
	for (size_t i = 0; i < e->nr_warnings; i++) {
		free(e->warnings[i].message);
		free(e->warnings[i].evidence);
		free(e->warnings[i].advice);
	}
	free(e->warnings);
	memset(e, 0, sizeof(*e));
}

void run_env_free(struct run_env *e)
{
	if (!e)
		return;
	run_env_release(e);
	free(e);
}
