/*
 * The cpu-bound verdict on bonnie++ phases: a phase too
 * short to measure (printed as +++++) is never judged, however busy its
 * few milliseconds were; a long phase is judged by its process CPU and by
 * the scheduler figure (its threads' time running or waiting for a CPU),
 * which the evidence carries filled in; seeks count their seeker threads;
 * the per-char phases are left out; and the advice speaks bonnie's flags.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "watch/anomaly.h"
#include "bonnie/bonnie.h"

#define S 1000000000ull

static void phase(struct bonnie_phase *p, double secs, double cpu_pct, double busy_pct,
		  unsigned threads)
{
	memset(p, 0, sizeof(*p));
	p->ran = true;
	p->work = 1 << 20; /* too little for the page-cache checks */
	p->elapsed_ns = (uint64_t)(secs * S);
	p->cpu_ns = (uint64_t)(secs * S * cpu_pct / 100);
	p->threads = threads;
	p->busy_ns = (uint64_t)(secs * S * busy_pct / 100 * threads);
}

static const struct run_warning *only(const struct run_env *e, const char *id)
{
	for (size_t i = 0; i < e->nr_warnings; i++)
		if (!strcmp(e->warnings[i].id, id))
			return &e->warnings[i];
	return NULL;
}

/* The verdict for one copy's figures f. */
static void judge(const struct bonnie_figures *f, struct anomaly_input *in, struct run_env *e)
{
	struct bonnie_spec s;
	bonnie_spec_init(&s);
	s.file_size = 64 << 20;
	struct bonnie_result r = { .nr_copies = 1 };
	r.copies = (struct bonnie_figures *)f;
	r.total = *f;
	bonnie_anomaly_input(&s, &r, 1, in);
	memset(e, 0, sizeof(*e));
	anomaly_check(in, e);
}

int main(void)
{
	struct bonnie_figures f;
	struct anomaly_input in;
	struct run_env e;

	/* +++++: 80 ms of block input at 100% CPU, busy all the time */
	memset(&f, 0, sizeof(f));
	phase(&f.io[BON_GET_BLOCK], 0.08, 100, 100, 1);
	CHECK(bonnie_phase_too_short(&f.io[BON_GET_BLOCK]), "80 ms is printed as +++++");
	judge(&f, &in, &e);
	CHECK(!only(&e, "cpu-bound") && in.max_job_cpu_pct == 0,
	      "no cpu-bound verdict on a +++++ phase (busiest %f '%s')", in.max_job_cpu_pct,
	      in.max_cpu_job);
	run_env_release(&e);

	/* a 2 s block output that used 20% of a core but was runnable 95% of it:
	 * a crowded CPU; the scheduler figure is in the evidence */
	memset(&f, 0, sizeof(f));
	phase(&f.io[BON_GET_BLOCK], 0.08, 100, 100, 1);
	phase(&f.io[BON_PUT_BLOCK], 2.0, 20, 95, 1);
	CHECK(bonnie_phase_busy_pct(&f.io[BON_PUT_BLOCK]) > 94.9, "busy %f",
	      bonnie_phase_busy_pct(&f.io[BON_PUT_BLOCK]));
	judge(&f, &in, &e);
	const struct run_warning *w = only(&e, "cpu-bound");
	CHECK(w && e.nr_warnings == 1, "a long busy phase is cpu-bound (%zu warnings)", e.nr_warnings);
	CHECK(w && strstr(w->evidence, "phase 'block output' used 20% of a core") &&
	      strstr(w->evidence, "waiting for a CPU 95% of its runtime"),
	      "evidence names the phase and fills the scheduler figure: %s", w ? w->evidence : "");
	CHECK(w && w->scope && !strcmp(w->scope, "phase 'block output'") && w->group_first < 0,
	      "scope is the phase, no group: %s", w && w->scope ? w->scope : "");
	CHECK(w && strstr(w->advice, "-s SIZE:CHUNK"), "bonnie's own flags: %s", w ? w->advice : "");
	run_env_release(&e);

	/* seeks: five seekers, each runnable 92% of a 3 s phase; the process
	 * used 150% of a core, 30% per thread */
	memset(&f, 0, sizeof(f));
	phase(&f.io[BON_SEEKS], 3.0, 150, 92, 5);
	judge(&f, &in, &e);
	w = only(&e, "cpu-bound");
	CHECK(w && strstr(w->evidence, "phase 'random seeks' used 30% of a core") &&
	      strstr(w->evidence, "waiting for a CPU 92%"), "seekers counted: %s",
	      w ? w->evidence : "");
	run_env_release(&e);

	/* per-char output at 100% is what it measures: no verdict; a quiet
	 * long phase: none either */
	memset(&f, 0, sizeof(f));
	phase(&f.io[BON_PUTC], 3.0, 100, 100, 1);
	phase(&f.io[BON_REWRITE], 3.0, 10, 30, 1);
	judge(&f, &in, &e);
	CHECK(e.nr_warnings == 0, "per-char phases and a quiet rewrite raise nothing (%zu)",
	      e.nr_warnings);
	CHECK(!strcmp(in.max_cpu_job, "rewrite") && in.max_job_cpu_busy_pct > 29,
	      "the rewrite was judged: '%s' %f", in.max_cpu_job, in.max_job_cpu_busy_pct);
	run_env_release(&e);
	return check_done("test_bonnie_anomaly");
}
