/*
 * Zones (fio's zonemode): the checks a job's zone options need once its
 * files are known, and the offsets of zonemode=strided.
 *  - strided, as fio 3.33 issues them (measured with write_iolog): a zone is
 *    zonerange bytes (zonesize when unset) from the file region's start;
 *    I/O lands in the current zone (sequential I/O from the zone's start,
 *    wrapping inside it; random I/O anywhere in it) until zonesize bytes
 *    were done there, then the next zone starts zonerange + zoneskip bytes
 *    further on, and a zone that starts past the region's end starts over
 *    from the first. An I/O that would cross the region's end ends the pass.
 *  - zbd needs a zoned block device (sysfs queue/zoned not "none"): it is
 *    refused on anything else, with the reason (fio emulates zones on regular
 *    files; iobench does not), and on a zoned device it is not implemented
 *    yet (none was at hand to build it on).
 *  - options of a mode the job does not use are accepted, as fio does, with
 *    a warning that they do nothing.
 */
#include "workload/job/job.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "sys/dev/devres.h"
#include "util/error.h"
#include "util/strutil.h"
#include "workload/iogen/iogen.h"
#include "workload/iogen/iogen_int.h"

/* "none", "host-aware", "host-managed", or NULL when sysfs does not say */
static const char *queue_zoned(dev_t rdev, char *buf, size_t len, char *dir)
{
	char file[PATH_MAX + 32];
	if (devres_sysdir_of_dev(rdev, dir) < 0)
		return NULL;
	/* a partition's queue is its disk's, one level up */
	snprintf(file, sizeof(file), "%s/queue/zoned", dir);
	if (devres_read_line(file, buf, len) == 0)
		return str_trim(buf);
	snprintf(file, sizeof(file), "%s/../queue/zoned", dir);
	return devres_read_line(file, buf, len) == 0 ? str_trim(buf) : NULL;
}

static int check_zbd(const struct job *j)
{
	const struct job_spec *s = j->spec;
	for (unsigned i = 0; i < j->nr_files; i++) {
		const struct job_file *f = &j->files[i];
		if (!f->is_bdev)
			return error("job '%s': zonemode=zbd needs a zoned block device, and '%s' is "
				     "not a block device (fio emulates zones on regular files; iobench "
				     "does not: use zonemode=strided, or a zoned device such as a "
				     "zoned null_blk or an SMR/ZNS drive)", s->name, f->path);
		char buf[64], dir[PATH_MAX];
		const char *z = queue_zoned(j->plans[i].seen.rdev, buf, sizeof(buf), dir);
		if (!z)
			return error("job '%s': zonemode=zbd: cannot tell whether '%s' is zoned (no "
				     "queue/zoned in sysfs)", s->name, f->path);
		if (!strcmp(z, "none"))
			return error("job '%s': zonemode=zbd needs a zoned block device, and '%s' is "
				     "not zoned (%s/queue/zoned says none): use zonemode=strided, or a "
				     "zoned device such as a zoned null_blk or an SMR/ZNS drive",
				     s->name, f->path, dir);
		return error("job '%s': zonemode=zbd on the %s zoned device '%s' is not implemented "
			     "yet (no zoned device was at hand to build and test it on)", s->name, z,
			     f->path);
	}
	return 0;
}

int job_zones_check(struct job *j)
{
	const struct job_spec *s = j->spec;
	bool zbd_only = s->zonecapacity || s->read_beyond_wp || s->max_open_zones ||
			s->job_max_open_zones || s->ignore_zone_limits || s->zone_reset_threshold > 0 ||
			s->zone_reset_frequency > 0;
	if (s->zonemode != ZONEMODE_ZBD && zbd_only)
		warning("job '%s': zonecapacity, read_beyond_wp, max_open_zones, job_max_open_zones, "
			"ignore_zone_limits and zone_reset_* only matter with zonemode=zbd: ignored, as "
			"fio does", s->name);
	if (s->zonemode == ZONEMODE_NONE && (s->zonerange || s->zoneskip))
		warning("job '%s': zonerange and zoneskip only matter with zonemode=strided or zbd: "
			"ignored, as fio does", s->name);
	if (s->zonemode == ZONEMODE_ZBD)
		return check_zbd(j);
	if (s->zonemode != ZONEMODE_STRIDED)
		return 0;
	if ((s->rw & (RW_TRIM | RW_WRITE)) == (RW_TRIM | RW_WRITE))
		return error("job '%s': zonemode=strided with rw=%strimwrite is not implemented yet "
			     "(fio keeps the trims' and the writes' positions apart in each zone)",
			     s->name, spec_is_rand(s) ? "rand" : "");
	for (unsigned i = 0; i < j->nr_files; i++) {
		uint64_t range = s->zonerange ? s->zonerange : s->zonesize;
		if (j->files[i].io_size < range && j->files[i].io_size < s->zonesize)
			warning("job '%s': '%s' has %llu bytes to use, less than one zone of %llu",
				s->name, j->files[i].path, (unsigned long long)j->files[i].io_size,
				(unsigned long long)range);
	}
	return 0;
}

void zone_strided_reset(struct file_gen *g)
{
	g->zone_start = g->zone_pos = g->zone_bytes = 0;
}

int zone_strided_next(struct job *j, struct job_file *f, struct file_gen *g, bool rnd,
		      uint64_t len, uint64_t *off)
{
	const struct job_spec *s = j->spec;
	uint64_t range = s->zonerange ? s->zonerange : s->zonesize;
	uint64_t skip = s->zoneskip_zones ? s->zoneskip * s->zonesize : s->zoneskip;
	uint64_t rel;
	if (rnd) {
		uint64_t room = f->io_size > g->zone_start ? f->io_size - g->zone_start : 0;
		if (room > range)
			room = range;
		uint64_t blocks = room >= len ? (room - len) / g->block + 1 : 0;
		if (!blocks)
			return 0;
		bool map = (!s->norandommap || s->random_generator == RANDGEN_LFSR) &&
			   s->random_distribution == DIST_RANDOM;
		if (map && (g->zperm_n != blocks || g->zperm_i >= blocks)) {
			/* a new pass over the zone's blocks, as fio's random map */
			if (randperm_init(&g->zperm, blocks, rng_next(&j->rng_off)) == 0) {
				g->zperm_n = blocks;
				g->zperm_i = 0;
			} else {
				g->zperm_n = 0;
			}
		}
		if (map && g->zperm_n == blocks)
			rel = g->zone_start + randperm_at(&g->zperm, g->zperm_i++) * g->block;
		else
			rel = g->zone_start + rng_below(&j->rng_off, blocks) * g->block;
	} else {
		if (g->zone_pos + len > range && g->zone_pos)
			g->zone_pos = 0; /* wrap inside the zone */
		rel = g->zone_start + g->zone_pos;
		g->zone_pos += len;
	}
	if (rel + len > f->io_size)
		return 0;
	*off = f->io_offset + rel;
	g->zone_bytes += len;
	if (g->zone_bytes >= s->zonesize) {
		g->zone_bytes = 0;
		g->zone_pos = 0;
		g->zone_start += range + skip;
		g->zperm_n = 0; /* the next zone's blocks, in an order of their own */
		if (g->zone_start >= f->io_size)
			g->zone_start = 0;
	}
	return 1;
}
