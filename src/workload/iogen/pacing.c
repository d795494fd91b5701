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
 *
 * Also the rest of fio's rate options: rate_process=poisson (exponential
 * gaps between rated I/Os, same mean), rate_min/rate_iops_min (after 2 s of
 * settling, each rate_cycle window must reach the minimum or the job stops
 * with EIO, as fio), and flow= (jobs of one flow_id issue I/Os in
 * proportion to their weights: a job whose share of the group's I/Os is
 * above its share of the weights waits, flow_sleep at a time, or without
 * flow_sleep until another job of the group lets an I/O through).
 */
#include "workload/job/job.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <math.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "util/checked.h"
#include "util/error.h"
#include "util/xmalloc.h"
#include "workload/io/io.h"
#include "workload/iogen/iogen.h"

/* fio lets a job settle this long before rate_min applies */
#define RATEMIN_SETTLE_NS (2 * NSEC_PER_SEC)

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
	if (!job_inline_sync(j)) {
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

uint64_t job_rate_poisson_due(struct job *j, enum ddir d, uint64_t len)
{
	const struct job_spec *s = j->spec;
	double mean = 0;
	if (s->rate[d])
		mean = (double)len * 1e9 / (double)s->rate[d];
	if (s->rate_iops[d] && 1e9 / (double)s->rate_iops[d] > mean)
		mean = 1e9 / (double)s->rate_iops[d];
	if (!j->rng_rate.s[0] && !j->rng_rate.s[1] && !j->rng_rate.s[2] && !j->rng_rate.s[3])
		rng_seed(&j->rng_rate, j->seed ^ 0x706f6973736f6eULL); /* "poisson" */
	uint64_t due = j->rate_next_ns[d];
	double gap = -log(1.0 - rng_double(&j->rng_rate)) * mean;
	j->rate_next_ns[d] += gap < 1.8e19 ? (uint64_t)gap : UINT64_MAX / 2;
	return due;
}

static bool has_rate_min(const struct job_spec *s)
{
	for (int d = 0; d < DDIR_RWDIR_CNT; d++)
		if (s->rate_min[d] || s->rate_iops_min[d])
			return true;
	return false;
}

void job_rate_min_arm(struct job *j, uint64_t now)
{
	j->ratemin_next_ns = has_rate_min(j->spec) ? now + RATEMIN_SETTLE_NS : 0;
	j->ratemin_from_ns = 0;
}

static void window_start(struct job *j, uint64_t now)
{
	j->ratemin_from_ns = now;
	for (int d = 0; d < DDIR_RWDIR_CNT; d++) {
		j->ratemin_bytes[d] = j->res.dir[d].io_bytes;
		j->ratemin_ios[d] = j->res.dir[d].total_ios;
	}
	j->ratemin_next_ns = now + j->spec->rate_cycle;
}

int job_rate_min_check(struct job *j, uint64_t now)
{
	const struct job_spec *s = j->spec;
	static const unsigned dir_bit[DDIR_RWDIR_CNT] = { RW_READ, RW_WRITE, RW_TRIM };
	if (!j->ratemin_from_ns) { /* settled: the first window starts */
		window_start(j, now);
		return 0;
	}
	uint64_t span = now - j->ratemin_from_ns;
	char *msg = NULL;
	for (int d = 0; d < DDIR_RWDIR_CNT && !msg && span; d++) {
		if (!(s->rw & dir_bit[d]))
			continue; /* as fio: a direction the job does not do */
		uint64_t bytes = j->res.dir[d].io_bytes - j->ratemin_bytes[d];
		uint64_t ios = j->res.dir[d].total_ios - j->ratemin_ios[d];
		uint64_t bps = mul_div(bytes, NSEC_PER_SEC, span);
		uint64_t iops = mul_div(ios, NSEC_PER_SEC, span);
		if (s->rate_min[d] && bps < s->rate_min[d])
			msg = xasprintf("rate_min=%lluB/s not met for %ss, got %lluB/s over %llu ms",
					(unsigned long long)s->rate_min[d], ddir_name((enum ddir)d),
					(unsigned long long)bps, (unsigned long long)(span / NSEC_PER_MSEC));
		else if (s->rate_iops_min[d] && iops < s->rate_iops_min[d])
			msg = xasprintf("rate_iops_min=%llu not met for %ss, got %llu IOPS over %llu ms",
					(unsigned long long)s->rate_iops_min[d], ddir_name((enum ddir)d),
					(unsigned long long)iops, (unsigned long long)(span / NSEC_PER_MSEC));
	}
	if (!msg) {
		window_start(j, now);
		return 0;
	}
	error("job '%s': %s", s->name, msg);
	j->ratemin_next_ns = 0;
	j->res.total_err++;
	if (!j->res.error) {
		j->res.error = EIO; /* as fio */
		j->res.error_msg = msg;
	} else {
		free(msg);
	}
	return -EIO;
}

struct job_flow *job_flows_make(struct job *jobs, size_t nr)
{
	struct job_flow *flows = NULL;
	size_t n = 0;
	for (size_t i = 0; i < nr; i++)
		n += jobs[i].spec->flow != 0;
	if (!n)
		return NULL;
	flows = xcalloc(n, sizeof(*flows));
	n = 0;
	for (size_t i = 0; i < nr; i++) {
		const struct job_spec *s = jobs[i].spec;
		if (!s->flow)
			continue;
		size_t k = 0;
		while (k < n && flows[k].id != s->flow_id)
			k++;
		if (k == n)
			flows[n++].id = s->flow_id;
		jobs[i].flow = &flows[k];
	}
	for (size_t k = 0; k < n; k++) {
		flows[k].nr = (unsigned)n;
		pthread_mutex_init(&flows[k].gate_lock, NULL);
		pthread_cond_init(&flows[k].gate_cond, NULL);
	}
	return flows;
}

void job_flows_free(struct job_flow *flows)
{
	for (unsigned k = 0; flows && k < flows[0].nr; k++) {
		pthread_mutex_destroy(&flows[k].gate_lock);
		pthread_cond_destroy(&flows[k].gate_cond);
	}
	free(flows);
}

/* Does the job start at the gate? Not one that waits for others (wait_for=
 * could wait on a job held there) or sleeps first (startdelay= would hold
 * the rest): those start on their own, as before. */
static bool gate_member(const struct job *j)
{
	return !j->nr_wait && !j->spec->startdelay_min && !j->spec->startdelay_max;
}

/* Open the gate at now: the jobs waiting at it start their clocks then.
 * Under gate_lock. */
static void gate_open(struct job_flow *f, uint64_t now)
{
	f->gate_ns = now;
	f->gate_gen++;
	f->gate_waiting = 0;
	pthread_cond_broadcast(&f->gate_cond);
}

/* fio releases a batch's jobs together; iobench's threads start as they
 * are made and set up, and a job of a flow group whose runtime ends first
 * leaves the group, so the others run unpaced until theirs ends (under
 * load a flow=8 job made 165,765 I/Os to its flow=1 partner's 10,001, not
 * 80,000). The group's jobs therefore start their clocks together. */
uint64_t job_flow_gate(struct job *j, uint64_t now)
{
	struct job_flow *f = j->flow;
	if (!f || j->flow_gated || !gate_member(j))
		return now;
	j->flow_gated = true;
	pthread_mutex_lock(&f->gate_lock);
	unsigned gen = f->gate_gen;
	if (++f->gate_waiting >= f->members)
		gate_open(f, job_now(j));
	while (f->gate_gen == gen && !job_stopping(j)) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 10 * 1000000L; /* to notice a stop */
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&f->gate_cond, &f->gate_lock, &ts);
	}
	uint64_t start = job_now(j);
	if (f->gate_gen != gen)
		start = f->gate_ns;
	else
		f->gate_waiting--; /* the run stops: no longer waiting */
	pthread_mutex_unlock(&f->gate_lock);
	return start;
}

/* Something a waiting job decides on changed: wake the group's sleepers. */
static void flow_changed(struct job_flow *f)
{
	atomic_fetch_add_explicit(&f->seq, 1, memory_order_seq_cst);
	if (atomic_load_explicit(&f->waiters, memory_order_seq_cst))
		syscall(SYS_futex, &f->seq, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

/* Sleep until the group changes from `seen`, or 1 ms passes (the caller
 * checks the run's stop and the job's end in between). */
static void flow_sleep_change(struct job_flow *f, uint32_t seen)
{
	struct timespec ts = { 0, 1000000 };
	syscall(SYS_futex, &f->seq, FUTEX_WAIT_PRIVATE, seen, &ts, NULL, 0);
}

void job_flow_join(struct job *j)
{
	if (j->flow && !j->flow_joined) {
		atomic_fetch_add_explicit(&j->flow->weight, j->spec->flow, memory_order_relaxed);
		j->flow_joined = true;
		j->flow_gated = !gate_member(j);
		if (!j->flow_gated) {
			pthread_mutex_lock(&j->flow->gate_lock);
			j->flow->members++;
			pthread_mutex_unlock(&j->flow->gate_lock);
		}
		flow_changed(j->flow);
	}
}

void job_flow_leave(struct job *j)
{
	if (j->flow && j->flow_joined) {
		atomic_fetch_sub_explicit(&j->flow->weight, j->spec->flow, memory_order_relaxed);
		j->flow_joined = false;
		struct job_flow *f = j->flow;
		if (gate_member(j)) {
			pthread_mutex_lock(&f->gate_lock);
			f->members--;
			/* one that ends before the gate (a failed setup) holds no one */
			if (f->gate_waiting && f->gate_waiting >= f->members)
				gate_open(f, job_now(j));
			pthread_mutex_unlock(&f->gate_lock);
		}
		j->flow_gated = true;
		flow_changed(j->flow);
	}
}

/* Is the job's share of the group's I/Os above its share of the weights? */
static bool flow_ahead(const struct job *j)
{
	uint64_t all = atomic_load_explicit(&j->flow->count, memory_order_relaxed);
	uint64_t w = atomic_load_explicit(&j->flow->weight, memory_order_relaxed);
	if (!all || !w)
		return false;
	/* mine/all > flow/w, in integers */
	return (unsigned __int128)j->flow_count * w > (unsigned __int128)all * j->spec->flow;
}

/* A job ahead of its share waits, as fio does, until the others catch up.
 * fio spins; a spin or a sched_yield() hands the CPU to any other runnable
 * task (two busy loops made a flow=1/flow=8 pair run at a seventh of its
 * rate_iops=1000), so without flow_sleep the job sleeps on the group's
 * futex and the I/O it waits for wakes it. */
bool job_flow_admit(struct job *j)
{
	const struct job_spec *s = j->spec;
	struct job_flow *f = j->flow;
	for (;;) {
		uint32_t seen = atomic_load_explicit(&f->seq, memory_order_seq_cst);
		if (!flow_ahead(j))
			break;
		if (job_stopping(j) || (j->end_ns && job_now(j) >= j->end_ns))
			return false;
		if (s->flow_sleep) {
			/* as fio: nothing stays in flight while the job waits */
			if (!job_inline_sync(j) && async_drain(j) < 0)
				return false;
			uint64_t until = job_now(j) + s->flow_sleep;
			if (j->end_ns && until > j->end_ns)
				until = j->end_ns;
			if (!job_wait_until(j, until))
				return false;
		} else {
			atomic_fetch_add_explicit(&f->waiters, 1, memory_order_seq_cst);
			if (atomic_load_explicit(&f->seq, memory_order_seq_cst) == seen)
				flow_sleep_change(f, seen);
			atomic_fetch_sub_explicit(&f->waiters, 1, memory_order_seq_cst);
		}
	}
	atomic_fetch_add_explicit(&f->count, 1, memory_order_relaxed);
	j->flow_count++;
	flow_changed(f);
	return true;
}
