/*
 * The growing array of samples of monitor.h: samples and their disk entries
 * in two arrays grown together, so a sample costs no allocation until the
 * array doubles.
 */
#include "sys/monitor/monitor.h"

#include <stdlib.h>
#include <string.h>

#include "util/xmalloc.h"

void monitor_series_init(struct monitor_series *s, const struct monitor_probe *p,
			 uint64_t interval_ns)
{
	memset(s, 0, sizeof(*s));
	s->interval_ns = interval_ns;
	s->ndev = p->ndev;
	s->all_disks = p->all_disks;
	s->names = xcalloc(p->ndev ? p->ndev : 1, sizeof(*s->names));
	memcpy(s->names, p->names, p->ndev * sizeof(*s->names));
}

void monitor_series_add(struct monitor_series *s, const struct monitor_sample *smp,
			const struct diskstat *disks)
{
	if (s->n == s->alloc) {
		size_t alloc = s->alloc ? s->alloc * 2 : 64;
		s->samples = xrealloc(s->samples, alloc * sizeof(*s->samples));
		s->disks = xrealloc(s->disks, alloc * (s->ndev ? s->ndev : 1) * sizeof(*s->disks));
		s->alloc = alloc;
	}
	s->samples[s->n] = *smp;
	memcpy(s->disks + s->n * s->ndev, disks, s->ndev * sizeof(*disks));
	s->n++;
}

void monitor_series_release(struct monitor_series *s)
{
	free(s->names);
	free(s->samples);
	free(s->disks);
	memset(s, 0, sizeof(*s));
}
