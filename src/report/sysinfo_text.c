/*
 * A system capture as text (sysinfo_report.h): the full form that
 * `iobench sysinfo` prints (host, VM settings, the chain as an indented
 * tree, then each filesystem's geometry and each device's facts and queue
 * tunables) and the short form of a few lines for the header of a
 * benchmark's output. Facts that were not captured are left out.
 */
#include "report/sysinfo_report.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "report/report_int.h"

/* Appends " key=value" for set values to a line buffer. */
struct line {
	char buf[1024];
	size_t len;
};

static void add(struct line *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(struct line *l, const char *fmt, ...)
{
	va_list ap;

	if (l->len >= sizeof(l->buf) - 1)
		return;
	va_start(ap, fmt);
	int n = vsnprintf(l->buf + l->len, sizeof(l->buf) - l->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		l->len += (size_t)n < sizeof(l->buf) - l->len ? (size_t)n : sizeof(l->buf) - 1 - l->len;
}

static void add_num(struct line *l, const char *key, int64_t v)
{
	if (v != SYSINFO_UNSET)
		add(l, "%s%s=%lld", l->len ? " " : "", key, (long long)v);
}

static void add_str(struct line *l, const char *key, const char *s)
{
	if (s)
		add(l, "%s%s=%s", l->len ? " " : "", key, s);
}

static const char *bytes(char buf[NUMFMT_LEN], int64_t v)
{
	return v == SYSINFO_UNSET ? "?" : numfmt(buf, (uint64_t)v, 4, true, NUMFMT_BYTE);
}

/* "host, Linux 6.1.0 x86_64, Debian GNU/Linux 12" */
static void host_line(struct line *l, const struct sysinfo_host *h)
{
	if (h->hostname)
		add(l, "%s, ", h->hostname);
	add(l, "Linux %s %s", h->kernel_release ? h->kernel_release : "?", h->machine ? h->machine : "");
	if (h->distro_name)
		add(l, ", %s", h->distro_name);
}

static void cpu_line(struct line *l, const struct sysinfo_host *h)
{
	add(l, "%s", h->cpu_model ? h->cpu_model : "unknown cpu");
	if (h->cpus_online != SYSINFO_UNSET)
		add(l, ", %lld online", (long long)h->cpus_online);
	if (h->cpus_configured != SYSINFO_UNSET && h->cpus_configured != h->cpus_online)
		add(l, " of %lld", (long long)h->cpus_configured);
	if (h->cpu_governor)
		add(l, ", governor %s", h->cpu_governor);
	if (h->cpu_freq_driver)
		add(l, " (%s)", h->cpu_freq_driver);
	if (h->cpu_min_khz > 0 && h->cpu_max_khz > 0)
		add(l, ", %lld-%lld MHz", (long long)h->cpu_min_khz / 1000, (long long)h->cpu_max_khz / 1000);
}

static void mem_line(struct line *l, const struct sysinfo_host *h)
{
	char a[NUMFMT_LEN], b[NUMFMT_LEN], c[NUMFMT_LEN];

	add(l, "%s total", bytes(a, h->mem_total_bytes));
	if (h->mem_available_bytes != SYSINFO_UNSET)
		add(l, ", %s available", bytes(b, h->mem_available_bytes));
	add(l, ", swap %s", bytes(c, h->swap_total_bytes));
	if (h->swap_free_bytes != SYSINFO_UNSET && h->swap_total_bytes > 0)
		add(l, " (%s free)", bytes(a, h->swap_free_bytes));
	for (size_t i = 0; i < h->nr_swaps; i++)
		add(l, "%s%s", i ? ", " : " on ", h->swaps[i].name);
}

static void vm_line(struct line *l, const struct sysinfo_host *h, bool brief)
{
	add_num(l, "dirty_ratio", h->dirty_ratio);
	add_num(l, "dirty_background_ratio", h->dirty_background_ratio);
	if (h->dirty_bytes > 0)
		add_num(l, "dirty_bytes", h->dirty_bytes);
	if (h->dirty_background_bytes > 0)
		add_num(l, "dirty_background_bytes", h->dirty_background_bytes);
	add_num(l, "dirty_expire_centisecs", h->dirty_expire_centisecs);
	if (!brief)
		add_num(l, "dirty_writeback_centisecs", h->dirty_writeback_centisecs);
	add_num(l, "swappiness", h->swappiness);
	add_num(l, "vfs_cache_pressure", h->vfs_cache_pressure);
	if (!brief)
		add_num(l, "min_free_kbytes", h->min_free_kbytes);
	add_str(l, "thp", h->thp_enabled);
	if (!brief)
		add_str(l, "thp_defrag", h->thp_defrag);
}

/* One node of the chain: "on xfs /mnt (/dev/loop0)", "source loop0 2GiB". */
static void node_line(struct line *l, const struct sysinfo *si, const struct sysinfo_node *n)
{
	char sz[NUMFMT_LEN];

	if (n->relation)
		add(l, "%s ", n->relation);
	if (n->kind == SYSINFO_NODE_FILE) {
		add(l, "%s", n->path);
	} else if (n->kind == SYSINFO_NODE_FS) {
		const struct sysinfo_fs *fs = &si->fs[n->index];
		add(l, "%s %s (%s)", fs->type, fs->mountpoint, fs->source);
	} else {
		const struct sysinfo_bdev *b = &si->bdevs[n->index];
		add(l, "%s", b->name);
		if (b->size_bytes != SYSINFO_UNSET)
			add(l, " %s", bytes(sz, b->size_bytes));
		if (b->model)
			add(l, " %s", b->model);
		if (b->loop_backing_file)
			add(l, " loop");
		if (b->md_level)
			add(l, " md %s", b->md_level);
		if (b->dm_name)
			add(l, " dm %s", b->dm_name);
	}
	if (n->repeated)
		add(l, " (see above)");
}

static int depth_of(const struct sysinfo *si, size_t i)
{
	int d = 0;

	for (int p = si->nodes[i].parent; p >= 0 && d < 64; p = si->nodes[p].parent)
		d++;
	return d;
}

static void print_geometry(const struct sysinfo_fs *fs, FILE *out)
{
	struct line l = { .len = 0 };

	if (fs->geometry_error)
		fprintf(out, "    geometry: not read: %s\n", fs->geometry_error);

	if (fs->xfs) {
		const struct sysinfo_xfs *x = fs->xfs;
		add_num(&l, "isize", x->inodesize);
		add_num(&l, "agcount", x->agcount);
		add_num(&l, "agsize", x->agblocks);
		add_num(&l, "bsize", x->blocksize);
		add_num(&l, "blocks", x->datablocks);
		add_num(&l, "sunit", x->sunit);
		add_num(&l, "swidth", x->swidth);
		add_num(&l, "sectsz", x->sectsize);
		fprintf(out, "    xfs data: %s\n", l.buf);
		l.len = 0;
		l.buf[0] = '\0';
		add(&l, "%s", x->log_internal ? "internal" : "external");
		add_num(&l, "blocks", x->logblocks);
		add_num(&l, "version", x->log_version);
		add_num(&l, "sectsz", x->logsectsize);
		add_num(&l, "sunit", x->logsunit);
		fprintf(out, "    xfs log: %s\n", l.buf);
		if (x->features)
			fprintf(out, "    xfs features: %s\n", x->features);
	}
	if (fs->ext) {
		const struct sysinfo_ext *e = fs->ext;
		add_num(&l, "block_size", e->block_size);
		add_num(&l, "inode_size", e->inode_size);
		add_num(&l, "blocks", e->blocks);
		add_num(&l, "inodes", e->inodes);
		add_num(&l, "stride", e->raid_stride);
		add_num(&l, "stripe_width", e->raid_stripe_width);
		add_num(&l, "flex_bg", e->flex_bg_size);
		add_str(&l, "state", e->state);
		fprintf(out, "    ext: %s\n", l.buf);
		if (e->features)
			fprintf(out, "    ext features: %s\n", e->features);
		if (e->has_journal) {
			l.len = 0;
			l.buf[0] = '\0';
			add_num(&l, "inode", e->journal_inode);
			add_str(&l, "device", e->journal_device);
			add_num(&l, "blocks", e->journal_blocks);
			add_str(&l, "features", e->journal_features);
			fprintf(out, "    ext journal: %s\n", l.buf);
		}
	}
	if (fs->btrfs) {
		const struct sysinfo_btrfs *b = fs->btrfs;
		char s1[NUMFMT_LEN], s2[NUMFMT_LEN];
		fprintf(out, "    btrfs: uuid=%s label=%s devices=%lld nodesize=%lld sectorsize=%lld\n",
			b->uuid, b->label ? b->label : "none", (long long)b->num_devices,
			(long long)b->nodesize, (long long)b->sectorsize);
		for (size_t i = 0; i < b->nr_devs; i++)
			fprintf(out, "    btrfs devid %lld size %s used %s path %s\n", (long long)b->devs[i].devid,
				bytes(s1, b->devs[i].size_bytes), bytes(s2, b->devs[i].used_bytes),
				b->devs[i].path ? b->devs[i].path : "?");
		for (size_t i = 0; i < b->nr_spaces; i++)
			fprintf(out, "    btrfs %s, %s: total=%s, used=%s\n", b->spaces[i].type, b->spaces[i].profile,
				bytes(s1, b->spaces[i].total_bytes), bytes(s2, b->spaces[i].used_bytes));
	}
}

static void print_bdev(const struct sysinfo_bdev *b, FILE *out)
{
	struct line l = { .len = 0 };
	char sz[NUMFMT_LEN];

	add(&l, "%s", b->name);
	if (b->devno)
		add(&l, " (%s)", b->devno);
	if (b->size_bytes != SYSINFO_UNSET)
		add(&l, " %s", bytes(sz, b->size_bytes));
	if (b->partition)
		add(&l, " partition %lld", (long long)b->partition_number);
	add_num(&l, "start", b->start_sector);
	add_str(&l, "vendor", b->vendor);
	add_str(&l, "model", b->model);
	add_str(&l, "serial", b->serial);
	add_num(&l, "rotational", b->rotational);
	add_num(&l, "logical_block_size", b->logical_block_size);
	add_num(&l, "physical_block_size", b->physical_block_size);
	add_num(&l, "minimum_io_size", b->minimum_io_size);
	add_num(&l, "optimal_io_size", b->optimal_io_size);
	if (b->write_cache)
		add(&l, " write_cache=\"%s\"", b->write_cache);
	fprintf(out, "  %s\n", l.buf);
	if (!b->partition) {
		l.len = 0;
		l.buf[0] = '\0';
		add_str(&l, "scheduler", b->scheduler);
		add_num(&l, "read_ahead_kb", b->read_ahead_kb);
		add_num(&l, "nr_requests", b->nr_requests);
		add_num(&l, "max_sectors_kb", b->max_sectors_kb);
		add_num(&l, "max_hw_sectors_kb", b->max_hw_sectors_kb);
		add_num(&l, "rq_affinity", b->rq_affinity);
		add_num(&l, "nomerges", b->nomerges);
		add_num(&l, "wbt_lat_usec", b->wbt_lat_usec);
		add_num(&l, "iostats", b->iostats);
		if (l.len)
			fprintf(out, "    queue: %s\n", l.buf);
	}
	if (b->loop_backing_file)
		fprintf(out, "    loop: backing_file=%s offset=%lld dio=%lld\n", b->loop_backing_file,
			(long long)b->loop_offset, (long long)b->loop_dio);
	if (b->md_level) {
		l.len = 0;
		l.buf[0] = '\0';
		add_str(&l, "level", b->md_level);
		add_num(&l, "chunk_size", b->md_chunk_size);
		add_num(&l, "raid_disks", b->md_raid_disks);
		add_num(&l, "stripe_cache_size", b->md_stripe_cache_size);
		fprintf(out, "    md: %s\n", l.buf);
	}
	if (b->dm_name || b->dm_uuid)
		fprintf(out, "    dm: name=%s uuid=%s\n", b->dm_name ? b->dm_name : "?", b->dm_uuid ? b->dm_uuid : "?");
}

int sysinfo_text_write(const struct sysinfo *si, FILE *out)
{
	struct line l = { .len = 0 };

	host_line(&l, &si->host);
	fprintf(out, "host: %s\n", l.buf);
	l = (struct line){ .len = 0 };
	cpu_line(&l, &si->host);
	fprintf(out, "cpu: %s\n", l.buf);
	l = (struct line){ .len = 0 };
	mem_line(&l, &si->host);
	fprintf(out, "memory: %s\n", l.buf);
	l = (struct line){ .len = 0 };
	vm_line(&l, &si->host, false);
	fprintf(out, "vm: %s\n", l.buf);
	fprintf(out, "chain:\n");
	for (size_t i = 0; i < si->nr_nodes; i++) {
		l = (struct line){ .len = 0 };
		node_line(&l, si, &si->nodes[i]);
		fprintf(out, "%*s%s\n", 2 + 2 * depth_of(si, i), "", l.buf);
	}
	if (si->nr_fs)
		fprintf(out, "filesystems:\n");
	for (size_t i = 0; i < si->nr_fs; i++) {
		const struct sysinfo_fs *fs = &si->fs[i];
		fprintf(out, "  %s %s on %s (%s)\n", fs->type, fs->source, fs->mountpoint, fs->devno);
		fprintf(out, "    options: %s", fs->options ? fs->options : "?");
		if (fs->super_options)
			fprintf(out, " [%s]", fs->super_options);
		fprintf(out, "\n");
		print_geometry(fs, out);
	}
	if (si->nr_bdevs)
		fprintf(out, "devices:\n");
	for (size_t i = 0; i < si->nr_bdevs; i++)
		print_bdev(&si->bdevs[i], out);
	return ferror(out) ? -EIO : 0;
}

/* The first filesystem's type, mount point, options and key geometry. */
static void fs_short(struct line *l, const struct sysinfo_fs *fs)
{
	add(l, "%s on %s (%s)", fs->type, fs->mountpoint, fs->options ? fs->options : "?");
	if (fs->xfs) {
		add_num(l, "agcount", fs->xfs->agcount);
		add_num(l, "sunit", fs->xfs->sunit);
		add_num(l, "swidth", fs->xfs->swidth);
		add_num(l, "isize", fs->xfs->inodesize);
		add_num(l, "log_version", fs->xfs->log_version);
	} else if (fs->ext) {
		add_num(l, "block_size", fs->ext->block_size);
		add_num(l, "stride", fs->ext->raid_stride);
		add_num(l, "stripe_width", fs->ext->raid_stripe_width);
		add(l, " journal=%s", fs->ext->has_journal ? "yes" : "no");
	} else if (fs->btrfs) {
		for (size_t i = 0; i < fs->btrfs->nr_spaces; i++)
			if (strcmp(fs->btrfs->spaces[i].type, "GlobalReserve"))
				add(l, " %s=%s", fs->btrfs->spaces[i].type, fs->btrfs->spaces[i].profile);
		add_num(l, "devices", fs->btrfs->num_devices);
	}
}

int sysinfo_text_short(const struct sysinfo *si, const char *prefix, FILE *out)
{
	struct line l = { .len = 0 };
	char a[NUMFMT_LEN];

	host_line(&l, &si->host);
	if (si->host.cpus_online != SYSINFO_UNSET)
		add(&l, "; %lld cpus", (long long)si->host.cpus_online);
	add(&l, "; %s ram", bytes(a, si->host.mem_total_bytes));
	if (si->host.cpu_governor)
		add(&l, ", governor %s", si->host.cpu_governor);
	fprintf(out, "%shost: %s\n", prefix, l.buf);
	l = (struct line){ .len = 0 };
	vm_line(&l, &si->host, true);
	fprintf(out, "%svm: %s\n", prefix, l.buf);
	/* a file's filesystem; a block device has no filesystem line (any
	 * filesystem below it holds a loop's backing file, not the data): its
	 * chain instead */
	const struct sysinfo_node *top = si->nr_nodes > 1 && si->nodes[1].parent == 0 ?
		&si->nodes[1] : NULL;
	if (top && top->kind == SYSINFO_NODE_FS) {
		l = (struct line){ .len = 0 };
		fs_short(&l, &si->fs[top->index]);
		fprintf(out, "%sfs: %s\n", prefix, l.buf);
	} else if (top && top->kind == SYSINFO_NODE_BDEV) {
		l = (struct line){ .len = 0 };
		for (size_t i = 0; i < si->nr_nodes; i++) {
			if (i)
				add(&l, " > ");
			node_line(&l, si, &si->nodes[i]);
		}
		fprintf(out, "%schain: %s\n", prefix, l.buf);
	}
	/* the devices, chain order, and the queue of the first whole device */
	if (si->nr_bdevs) {
		l = (struct line){ .len = 0 };
		for (size_t i = 0; i < si->nr_bdevs; i++)
			add(&l, "%s%s", i ? " " : "", si->bdevs[i].name);
		fprintf(out, "%sdevices: %s\n", prefix, l.buf);
		for (size_t i = 0; i < si->nr_bdevs; i++) {
			const struct sysinfo_bdev *b = &si->bdevs[i];
			if (b->partition)
				continue;
			l = (struct line){ .len = 0 };
			add(&l, "%s", b->name);
			add_str(&l, "scheduler", b->scheduler);
			add_num(&l, "read_ahead_kb", b->read_ahead_kb);
			add_num(&l, "nr_requests", b->nr_requests);
			add_num(&l, "max_sectors_kb", b->max_sectors_kb);
			add_num(&l, "rotational", b->rotational);
			if (b->write_cache)
				add(&l, " write_cache=\"%s\"", b->write_cache);
			fprintf(out, "%squeue: %s\n", prefix, l.buf);
			break;
		}
	}
	return ferror(out) ? -EIO : 0;
}
