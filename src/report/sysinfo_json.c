/*
 * A system capture as JSON (sysinfo_report.h): one object with the host,
 * the device chain (nodes with their parent's index), the filesystems with
 * their mount options and geometry, and the block devices with their queue
 * tunables. Keys are the sysfs/procfs names where there is one; sizes are
 * bytes unless the key says otherwise; an unread fact has no key.
 */
#include "report/sysinfo_report.h"

static void num(struct json_writer *w, const char *key, int64_t v)
{
	if (v != SYSINFO_UNSET)
		json_kv_int(w, key, v);
}

static void str(struct json_writer *w, const char *key, const char *s)
{
	if (s)
		json_kv_string(w, key, s);
}

static void write_host(struct json_writer *w, const struct sysinfo_host *h)
{
	json_kv_object_begin(w, "host");
	str(w, "hostname", h->hostname);
	str(w, "kernel_release", h->kernel_release);
	str(w, "kernel_version", h->kernel_version);
	str(w, "machine", h->machine);
	str(w, "distro_id", h->distro_id);
	str(w, "distro_version", h->distro_version);
	str(w, "distro_name", h->distro_name);
	str(w, "cpu_model", h->cpu_model);
	num(w, "cpus_online", h->cpus_online);
	num(w, "cpus_configured", h->cpus_configured);
	str(w, "cpu_governor", h->cpu_governor);
	str(w, "cpu_freq_driver", h->cpu_freq_driver);
	num(w, "cpu_min_khz", h->cpu_min_khz);
	num(w, "cpu_max_khz", h->cpu_max_khz);
	num(w, "mem_total_bytes", h->mem_total_bytes);
	num(w, "mem_available_bytes", h->mem_available_bytes);
	num(w, "swap_total_bytes", h->swap_total_bytes);
	num(w, "swap_free_bytes", h->swap_free_bytes);
	json_kv_array_begin(w, "swaps");
	for (size_t i = 0; i < h->nr_swaps; i++) {
		json_object_begin(w);
		str(w, "name", h->swaps[i].name);
		str(w, "type", h->swaps[i].type);
		num(w, "size_bytes", h->swaps[i].size_bytes);
		num(w, "used_bytes", h->swaps[i].used_bytes);
		num(w, "priority", h->swaps[i].priority);
		json_object_end(w);
	}
	json_array_end(w);
	json_kv_object_begin(w, "vm");
	num(w, "dirty_ratio", h->dirty_ratio);
	num(w, "dirty_background_ratio", h->dirty_background_ratio);
	num(w, "dirty_bytes", h->dirty_bytes);
	num(w, "dirty_background_bytes", h->dirty_background_bytes);
	num(w, "dirty_expire_centisecs", h->dirty_expire_centisecs);
	num(w, "dirty_writeback_centisecs", h->dirty_writeback_centisecs);
	num(w, "swappiness", h->swappiness);
	num(w, "vfs_cache_pressure", h->vfs_cache_pressure);
	num(w, "min_free_kbytes", h->min_free_kbytes);
	str(w, "transparent_hugepage", h->thp_enabled);
	str(w, "transparent_hugepage_defrag", h->thp_defrag);
	json_object_end(w);
	json_object_end(w);
}

static void write_chain(struct json_writer *w, const struct sysinfo *si)
{
	static const char *const kinds[] = { "file", "filesystem", "device" };

	json_kv_array_begin(w, "chain");
	for (size_t i = 0; i < si->nr_nodes; i++) {
		const struct sysinfo_node *n = &si->nodes[i];
		json_object_begin(w);
		json_kv_string(w, "kind", kinds[n->kind]);
		json_kv_int(w, "parent", n->parent);
		str(w, "relation", n->relation);
		if (n->kind == SYSINFO_NODE_FILE) {
			str(w, "path", n->path);
		} else if (n->kind == SYSINFO_NODE_FS) {
			json_kv_uint(w, "filesystem", n->index);
			str(w, "mountpoint", si->fs[n->index].mountpoint);
			str(w, "type", si->fs[n->index].type);
		} else {
			json_kv_uint(w, "device", n->index);
			str(w, "name", si->bdevs[n->index].name);
		}
		if (n->repeated)
			json_kv_bool(w, "repeated", true);
		json_object_end(w);
	}
	json_array_end(w);
}

static void write_xfs(struct json_writer *w, const struct sysinfo_xfs *x)
{
	json_kv_object_begin(w, "xfs");
	num(w, "blocksize", x->blocksize);
	num(w, "sectsz", x->sectsize);
	num(w, "agcount", x->agcount);
	num(w, "agsize", x->agblocks);
	num(w, "blocks", x->datablocks);
	num(w, "imaxpct", x->imaxpct);
	num(w, "isize", x->inodesize);
	num(w, "sunit", x->sunit);
	num(w, "swidth", x->swidth);
	num(w, "naming_version", x->naming_version);
	num(w, "naming_bsize", x->dirblocksize);
	json_kv_bool(w, "log_internal", x->log_internal);
	num(w, "log_blocks", x->logblocks);
	num(w, "log_version", x->log_version);
	num(w, "log_sectsz", x->logsectsize);
	num(w, "log_sunit", x->logsunit);
	num(w, "rt_blocks", x->rtblocks);
	num(w, "rt_extents", x->rtextents);
	num(w, "rt_extsz", x->rtextsize);
	str(w, "features", x->features);
	json_object_end(w);
}

static void write_ext(struct json_writer *w, const struct sysinfo_ext *e)
{
	json_kv_object_begin(w, "ext");
	str(w, "uuid", e->uuid);
	str(w, "label", e->label);
	str(w, "features", e->features);
	str(w, "state", e->state);
	num(w, "block_size", e->block_size);
	num(w, "inode_size", e->inode_size);
	num(w, "blocks", e->blocks);
	num(w, "inodes", e->inodes);
	num(w, "reserved_blocks", e->reserved_blocks);
	num(w, "free_blocks", e->free_blocks);
	num(w, "blocks_per_group", e->blocks_per_group);
	num(w, "inodes_per_group", e->inodes_per_group);
	num(w, "flex_bg_size", e->flex_bg_size);
	num(w, "raid_stride", e->raid_stride);
	num(w, "raid_stripe_width", e->raid_stripe_width);
	json_kv_bool(w, "has_journal", e->has_journal);
	num(w, "journal_inode", e->journal_inode);
	str(w, "journal_device", e->journal_device);
	num(w, "journal_blocks", e->journal_blocks);
	num(w, "journal_bytes", e->journal_bytes);
	str(w, "journal_features", e->journal_features);
	json_object_end(w);
}

static void write_btrfs(struct json_writer *w, const struct sysinfo_btrfs *b)
{
	json_kv_object_begin(w, "btrfs");
	str(w, "uuid", b->uuid);
	str(w, "label", b->label);
	num(w, "num_devices", b->num_devices);
	num(w, "nodesize", b->nodesize);
	num(w, "sectorsize", b->sectorsize);
	json_kv_array_begin(w, "devices");
	for (size_t i = 0; i < b->nr_devs; i++) {
		json_object_begin(w);
		num(w, "devid", b->devs[i].devid);
		num(w, "size_bytes", b->devs[i].size_bytes);
		num(w, "used_bytes", b->devs[i].used_bytes);
		str(w, "path", b->devs[i].path);
		json_object_end(w);
	}
	json_array_end(w);
	json_kv_array_begin(w, "spaces");
	for (size_t i = 0; i < b->nr_spaces; i++) {
		json_object_begin(w);
		str(w, "type", b->spaces[i].type);
		str(w, "profile", b->spaces[i].profile);
		num(w, "total_bytes", b->spaces[i].total_bytes);
		num(w, "used_bytes", b->spaces[i].used_bytes);
		json_object_end(w);
	}
	json_array_end(w);
	json_object_end(w);
}

static void write_fs(struct json_writer *w, const struct sysinfo_fs *fs)
{
	json_object_begin(w);
	str(w, "mountpoint", fs->mountpoint);
	str(w, "type", fs->type);
	str(w, "source", fs->source);
	str(w, "devno", fs->devno);
	str(w, "options", fs->options);
	str(w, "super_options", fs->super_options);
	if (fs->xfs)
		write_xfs(w, fs->xfs);
	if (fs->ext)
		write_ext(w, fs->ext);
	if (fs->btrfs)
		write_btrfs(w, fs->btrfs);
	if (fs->geometry_error)
		json_kv_string(w, "geometry_error", fs->geometry_error);
	json_object_end(w);
}

static void write_bdev(struct json_writer *w, const struct sysinfo_bdev *b)
{
	json_object_begin(w);
	str(w, "name", b->name);
	str(w, "devno", b->devno);
	json_kv_bool(w, "partition", b->partition);
	num(w, "partition_number", b->partition_number);
	num(w, "start_sector", b->start_sector);
	str(w, "vendor", b->vendor);
	str(w, "model", b->model);
	str(w, "serial", b->serial);
	num(w, "size_bytes", b->size_bytes);
	num(w, "rotational", b->rotational);
	num(w, "logical_block_size", b->logical_block_size);
	num(w, "physical_block_size", b->physical_block_size);
	num(w, "minimum_io_size", b->minimum_io_size);
	num(w, "optimal_io_size", b->optimal_io_size);
	str(w, "write_cache", b->write_cache);
	if (!b->partition) {
		json_kv_object_begin(w, "queue");
		str(w, "scheduler", b->scheduler);
		str(w, "schedulers", b->schedulers);
		num(w, "read_ahead_kb", b->read_ahead_kb);
		num(w, "nr_requests", b->nr_requests);
		num(w, "max_sectors_kb", b->max_sectors_kb);
		num(w, "max_hw_sectors_kb", b->max_hw_sectors_kb);
		num(w, "rq_affinity", b->rq_affinity);
		num(w, "nomerges", b->nomerges);
		num(w, "wbt_lat_usec", b->wbt_lat_usec);
		num(w, "iostats", b->iostats);
		json_object_end(w);
	}
	if (b->loop_backing_file) {
		json_kv_object_begin(w, "loop");
		str(w, "backing_file", b->loop_backing_file);
		num(w, "offset", b->loop_offset);
		num(w, "dio", b->loop_dio);
		json_object_end(w);
	}
	if (b->md_level) {
		json_kv_object_begin(w, "md");
		str(w, "level", b->md_level);
		num(w, "chunk_size", b->md_chunk_size);
		num(w, "raid_disks", b->md_raid_disks);
		num(w, "stripe_cache_size", b->md_stripe_cache_size);
		json_object_end(w);
	}
	if (b->dm_name || b->dm_uuid) {
		json_kv_object_begin(w, "dm");
		str(w, "name", b->dm_name);
		str(w, "uuid", b->dm_uuid);
		json_object_end(w);
	}
	json_object_end(w);
}

void sysinfo_json_write(struct json_writer *w, const struct sysinfo *si)
{
	json_object_begin(w);
	json_kv_int(w, "version", si->version);
	str(w, "path", si->path);
	write_host(w, &si->host);
	write_chain(w, si);
	json_kv_array_begin(w, "filesystems");
	for (size_t i = 0; i < si->nr_fs; i++)
		write_fs(w, &si->fs[i]);
	json_array_end(w);
	json_kv_array_begin(w, "devices");
	for (size_t i = 0; i < si->nr_bdevs; i++)
		write_bdev(w, &si->bdevs[i]);
	json_array_end(w);
	json_object_end(w);
}
