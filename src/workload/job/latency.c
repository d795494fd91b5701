/*
 * fio's latency targets for one job: max_latency= (an I/O slower than the
 * limit of its direction stops the job with ETIMEDOUT) and latency_target=
 * with latency_window, latency_percentile and latency_run: a search for the
 * highest queue depth at which the I/Os keep to the target. The search
 * starts at depth 1 and doubles the depth after each window that met the
 * target, until one misses; from then on it bisects between the highest
 * depth that met it and the lowest that missed. Once the depth no longer
 * changes, one more window runs there with fresh statistics (what the
 * report shows, as fio) and the job stops, unless latency_run keeps it
 * adjusting. The depth is enforced by async_get_unit() (asyncio.c), which
 * hands out no unit while lat_qd I/Os are in flight; a sync engine stays at
 * depth 1, where only the target itself is judged.
 */
#include "workload/job/job.h"

#include <errno.h>
#include <stdlib.h>

#include "util/error.h"
#include "util/xmalloc.h"

void job_latency_init(struct job *j)
{
	const struct job_spec *s = j->spec;
	if (!s->latency_target)
		return;
	j->lat_qd = 1;
	j->lat_qd_low = 1;
	j->lat_qd_high = s->iodepth ? s->iodepth : 1;
	j->res.latency_depth = 1;
	j->lat_win_start = 0;
}

/* Stop the job with ETIMEDOUT: u took lat, above limit (option `what`). */
static void too_slow(struct job *j, const struct io_unit *u, uint64_t lat, uint64_t limit,
		     const char *what)
{
	char *msg = xasprintf("latency of %llu ns exceeds %s=%llu ns: %s of %llu bytes at offset "
			      "%llu of '%s'", (unsigned long long)lat, what,
			      (unsigned long long)limit, ddir_name(u->ddir),
			      (unsigned long long)u->buflen, (unsigned long long)u->offset,
			      u->file ? u->file->path : "?");
	error("job '%s': %s", j->spec->name, msg);
	j->lat_stop = -ETIMEDOUT;
	j->res.total_err++;
	if (!j->res.error) {
		j->res.error = ETIMEDOUT;
		j->res.error_offset = u->offset;
		j->res.error_msg = msg;
	} else {
		free(msg);
	}
}

static void new_window(struct job *j, uint64_t now, unsigned qd)
{
	j->lat_qd = qd;
	j->res.latency_depth = qd;
	j->lat_win_start = now;
	j->lat_win_ios = j->lat_win_over = 0;
}

static void window_met(struct job *j, uint64_t now)
{
	const struct job_spec *s = j->spec;
	unsigned qd = j->lat_qd, next;
	if (j->lat_final) {
		j->lat_stop = 1; /* the depth found held for a whole window */
		return;
	}
	j->lat_qd_low = qd;
	if (j->lat_failed_once)
		next = (qd + j->lat_qd_high + 1) / 2;
	else
		next = qd * 2 < j->lat_qd_high ? qd * 2 : j->lat_qd_high;
	if (next == qd && !s->latency_run) {
		j->lat_final = true;
		j->lat_reset = true;
	}
	new_window(j, now, next);
}

static void window_missed(struct job *j, uint64_t now)
{
	unsigned qd = j->lat_qd;
	j->lat_final = false;
	j->lat_failed_once = true;
	j->lat_qd_high = qd > 1 ? qd - 1 : 1;
	if (j->lat_qd_low > j->lat_qd_high)
		j->lat_qd_low = j->lat_qd_high;
	new_window(j, now, (j->lat_qd_low + j->lat_qd_high + 1) / 2);
}

void job_latency_io(struct job *j, const struct io_unit *u, uint64_t lat, uint64_t now)
{
	const struct job_spec *s = j->spec;
	if (j->lat_stop)
		return;
	if (s->max_latency[u->ddir] && lat > s->max_latency[u->ddir]) {
		too_slow(j, u, lat, s->max_latency[u->ddir], "max_latency");
		return;
	}
	if (!s->latency_target)
		return;
	if (!j->lat_win_start)
		j->lat_win_start = now;
	bool over = lat > s->latency_target;
	j->lat_win_ios++;
	j->lat_win_over += over;
	if (over && s->latency_percentile >= 100.0) {
		/* every I/O must meet it: this one decides the window */
		if (j->lat_qd <= 1)
			too_slow(j, u, lat, s->latency_target, "latency_target");
		else
			window_missed(j, now);
		return;
	}
	if (now - j->lat_win_start < s->latency_window)
		return;
	if ((double)j->lat_win_over * 100.0 <= (100.0 - s->latency_percentile) * (double)j->lat_win_ios)
		window_met(j, now);
	else
		window_missed(j, now);
}
