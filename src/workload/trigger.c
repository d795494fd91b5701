/*
 * The local trigger (trigger.h): a stat of the trigger file or a look at
 * the clock on every pass of the main thread's wait loop, and system(3)
 * for the command, as fio runs its own. The trigger file is removed when
 * it fires, as fio does, only when it is an empty regular file.
 */
#include "workload/trigger_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/error.h"
#include "workload/run.h"

void trigger_init(struct trigger *t, const struct run_control *ctl, uint64_t start_ns)
{
	*t = (struct trigger){
		.file = ctl->trigger_file,
		.cmd = ctl->trigger_cmd,
		.deadline_ns = ctl->trigger_timeout_ns ? start_ns + ctl->trigger_timeout_ns : 0,
	};
}

bool trigger_check(struct trigger *t, uint64_t now_ns)
{
	if (t->fired)
		return false;
	struct stat st;
	if (t->file && lstat(t->file, &st) == 0) {
		/* consumed as fio consumes it, but only an empty regular file
		 * (what `touch` makes): one with data is somebody's, left */
		if (!S_ISREG(st.st_mode) || st.st_size)
			warning("the trigger file '%s' is there, but it is %s: it is left alone",
				t->file, S_ISREG(st.st_mode) ? "not empty" : "not a regular file");
		else if (unlink(t->file) < 0)
			warning("cannot remove the trigger file '%s': %s", t->file, strerror(errno));
		t->fired = true;
	} else if (t->deadline_ns && now_ns >= t->deadline_ns) {
		t->fired = true;
	}
	return t->fired;
}

void trigger_run(const struct trigger *t)
{
	if (!t->cmd || !*t->cmd)
		return;
	int st = system(t->cmd);
	if (st == -1)
		warning("cannot run the trigger command '%s': %s", t->cmd, strerror(errno));
	else if (!WIFEXITED(st) || WEXITSTATUS(st))
		warning("the trigger command '%s' failed (status %d)", t->cmd,
			WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
}
