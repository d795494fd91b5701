/*
 * A job's pacing besides the rate cap: thinktime=, the stall an application
 * makes between bursts of I/O (fio's thinktime, thinktime_spin,
 * thinktime_blocks, thinktime_blocks_type, thinktime_iotime). After every
 * issued I/O the job counts I/Os (issued or completed, as
 * thinktime_blocks_type says) and time since its last stall; when
 * thinktime_blocks of them, or thinktime_iotime of time, went by, it lets
 * the queue drain (as fio: nothing is in flight while the application
 * "thinks"), burns thinktime_spin on the CPU, and sleeps the rest of
 * thinktime in job_wait_until(), so a stop or the end of the runtime cuts
 * the stall short. With rate_ignore_thinktime the rate schedule moves on by
 * the stall, so the job does not catch up afterwards.
 */
#include "workload/job.h"

/* Busy until deadline (or a stop): the CPU time thinktime_spin asks for. */
static void spin_until(struct job *j, uint64_t deadline)
{
	while (!job_stopping(j) && job_now(j) < deadline)
		__asm__ __volatile__("" ::: "memory");
}

int job_think(struct job *j)
{
	const struct job_spec *s = j->spec;
	uint64_t now = job_now(j);
	bool stall = false;

	j->think_issued++;
	if (!j->think_last_ns)
		j->think_last_ns = now; /* the first I/O starts the first interval */
	if (s->thinktime_iotime) {
		if (now - j->think_last_ns >= s->thinktime_iotime)
			stall = true;
		else if (!s->thinktime_blocks_set)
			return 0; /* as fio: the default of 1 block does not apply then */
	}
	uint64_t n = s->thinktime_blocks_issue ? j->think_issued : j->ios_completed;
	if (!stall && n - j->think_count < s->thinktime_blocks)
		return 0;
	if (!(j->eng.ops->flags & ENGINE_SYNC)) {
		int rc = async_drain(j);
		if (rc < 0)
			return rc;
	}
	uint64_t t0 = job_now(j);
	uint64_t spin = s->thinktime_spin < s->thinktime ? s->thinktime_spin : s->thinktime;
	uint64_t end = t0 + s->thinktime;
	if (j->end_ns && end > j->end_ns)
		end = j->end_ns;
	if (spin)
		spin_until(j, t0 + spin < end ? t0 + spin : end);
	if (job_now(j) < end)
		job_wait_until(j, end);
	uint64_t t1 = job_now(j);
	if (s->rate_ignore_thinktime)
		j->rate_start_ns += t1 - t0;
	j->think_count = s->thinktime_blocks_issue ? j->think_issued : j->ios_completed;
	j->think_last_ns = t1;
	return 0;
}
