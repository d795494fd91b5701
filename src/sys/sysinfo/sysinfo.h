/*
 * System capture: the machine and the storage stack under one path, taken
 * once before a benchmark so its results say what they were measured on.
 * Host facts (kernel, distribution, CPU, memory, swap, VM settings), the
 * device chain from the path down (file -> filesystem -> partition -> disk,
 * loop -> backing file -> its filesystem and device, btrfs -> members,
 * md/dm -> slaves), each block device's sysfs facts and queue tunables, and
 * each filesystem's mount options and geometry (XFS, ext2/3/4, btrfs).
 *
 * Everything is read from /proc, /sys, the filesystems' ioctls and
 * libext2fs; nothing is written, locked or held open. A fact that cannot be
 * read is simply absent: numbers are SYSINFO_UNSET, strings NULL. The struct
 * is plain data (owned strings and arrays), freed by sysinfo_release(), so
 * it can live inside a results struct.
 */
#ifndef IOBENCH_SYS_SYSINFO_SYSINFO_H
#define IOBENCH_SYS_SYSINFO_SYSINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SYSINFO_VERSION 1
#define SYSINFO_UNSET (-1) /* a number that could not be read */

struct sysinfo_swap {
	char *name;     /* /proc/swaps "Filename" */
	char *type;     /* "partition", "file" */
	int64_t size_bytes, used_bytes, priority;
};

struct sysinfo_host {
	char *hostname;
	char *kernel_release, *kernel_version, *machine; /* uname -r, -v, -m */
	char *distro_id, *distro_version, *distro_name;  /* os-release ID, VERSION_ID, PRETTY_NAME */
	char *cpu_model;                                 /* /proc/cpuinfo */
	int64_t cpus_online, cpus_configured;
	char *cpu_governor, *cpu_freq_driver;            /* cpu0's cpufreq */
	int64_t cpu_min_khz, cpu_max_khz;
	int64_t mem_total_bytes, mem_available_bytes;    /* /proc/meminfo */
	int64_t swap_total_bytes, swap_free_bytes;
	struct sysinfo_swap *swaps;
	size_t nr_swaps;
	/* /proc/sys/vm and transparent hugepages */
	int64_t dirty_ratio, dirty_background_ratio, dirty_bytes, dirty_background_bytes;
	int64_t dirty_expire_centisecs, dirty_writeback_centisecs;
	int64_t swappiness, vfs_cache_pressure, min_free_kbytes;
	char *thp_enabled, *thp_defrag; /* the active [choice] */
};

/* XFS geometry, as xfs_info prints it (units noted). */
struct sysinfo_xfs {
	int64_t blocksize, sectsize, agcount, agblocks, datablocks, imaxpct;
	int64_t inodesize;
	int64_t sunit, swidth;          /* fs blocks, as xfs_info's "blks" */
	int64_t dirblocksize, naming_version;
	bool log_internal;
	int64_t logblocks, log_version, logsectsize, logsunit; /* logsunit: fs blocks */
	int64_t rtblocks, rtextents, rtextsize;                /* rtextsize: bytes */
	char *features;                 /* space-separated: crc finobt reflink ... */
};

/* ext2/3/4 superblock facts, as dumpe2fs -h prints them. */
struct sysinfo_ext {
	char *uuid, *label;
	char *features;                 /* dumpe2fs's "Filesystem features" */
	char *state;                    /* "clean", "not clean" */
	int64_t block_size, inode_size, blocks, inodes, reserved_blocks, free_blocks;
	int64_t blocks_per_group, inodes_per_group, flex_bg_size;
	int64_t raid_stride, raid_stripe_width; /* fs blocks */
	bool has_journal;
	int64_t journal_inode;
	char *journal_device;           /* external journal: its UUID */
	int64_t journal_blocks, journal_bytes;
	char *journal_features;         /* from the journal superblock */
};

/* One btrfs member, as `btrfs filesystem show` lists it. */
struct sysinfo_btrfs_dev {
	int64_t devid, size_bytes, used_bytes;
	char *path;
};

/* One line of `btrfs filesystem df`. */
struct sysinfo_btrfs_space {
	char *type;    /* "Data", "Metadata", "System", "GlobalReserve", "Data+Metadata" */
	char *profile; /* "single", "DUP", "RAID0", "RAID1", "RAID1C3", "RAID10", ... */
	int64_t total_bytes, used_bytes;
};

struct sysinfo_btrfs {
	char *uuid, *label;
	int64_t num_devices, nodesize, sectorsize;
	struct sysinfo_btrfs_dev *devs;
	size_t nr_devs;
	struct sysinfo_btrfs_space *spaces;
	size_t nr_spaces;
};

struct sysinfo_fs {
	char *mountpoint, *type, *source;
	char *options;       /* per-mount options (mountinfo field 6) */
	char *super_options; /* filesystem options (mountinfo's last field) */
	char *devno;         /* "MAJ:MIN" as in mountinfo */
	struct sysinfo_xfs *xfs;     /* geometry of the one that applies, else NULL */
	struct sysinfo_ext *ext;
	struct sysinfo_btrfs *btrfs;
	char *geometry_error;        /* why a known type's geometry is missing, or NULL */
};

/* One block device: sysfs facts and queue tunables. Partitions have no
 * queue of their own; their disk (the next device in the chain) does. */
struct sysinfo_bdev {
	char *name;          /* "sda", "sda1", "loop0", "md0", "dm-0" */
	char *devno;         /* "MAJ:MIN" */
	bool partition;
	int64_t partition_number, start_sector;
	char *vendor, *model, *serial;
	int64_t size_bytes, rotational;
	int64_t logical_block_size, physical_block_size, minimum_io_size, optimal_io_size;
	char *write_cache;   /* "write back", "write through" */
	char *scheduler;     /* the active one, e.g. "mq-deadline" */
	char *schedulers;    /* all offered, as sysfs lists them */
	int64_t read_ahead_kb, nr_requests, max_sectors_kb, max_hw_sectors_kb;
	int64_t rq_affinity, nomerges, wbt_lat_usec, iostats;
	char *loop_backing_file; /* loop devices */
	int64_t loop_offset, loop_dio;
	char *md_level;          /* md devices (untested here: no md in CI) */
	int64_t md_chunk_size, md_raid_disks, md_stripe_cache_size;
	char *dm_name, *dm_uuid; /* dm devices (untested here) */
};

enum sysinfo_node_kind {
	SYSINFO_NODE_FILE,   /* the path asked about, or a loop backing file */
	SYSINFO_NODE_FS,     /* a mounted filesystem: index into fs[] */
	SYSINFO_NODE_BDEV,   /* a block device: index into bdevs[] */
};

/* One step of the device chain, a tree flattened parent-first. */
struct sysinfo_node {
	enum sysinfo_node_kind kind;
	int parent;          /* index in nodes[], -1 for the root */
	const char *relation;/* static: how it sits under its parent ("on",
	                        "source", "disk", "backing file", "member", "slave") */
	char *path;          /* SYSINFO_NODE_FILE */
	size_t index;        /* into fs[] or bdevs[] */
	bool repeated;       /* already expanded earlier in the tree */
};

struct sysinfo {
	int version;         /* SYSINFO_VERSION */
	char *path;          /* as asked */
	struct sysinfo_host host;
	struct sysinfo_node *nodes;
	size_t nr_nodes;
	struct sysinfo_fs *fs;
	size_t nr_fs;
	struct sysinfo_bdev *bdevs;
	size_t nr_bdevs;
};

/* Capture the host and the chain under path (a path that does not exist yet
 * resolves through its nearest existing parent). Returns 0, or -errno when
 * path cannot be examined at all; missing facts never fail it. Release the
 * result with sysinfo_release() even after an error. */
int sysinfo_capture(struct sysinfo *si, const char *path);
void sysinfo_release(struct sysinfo *si);

/* The parts, for the capture and for tests. */
void sysinfo_host_capture(struct sysinfo_host *h);
void sysinfo_host_release(struct sysinfo_host *h);
int sysinfo_chain_capture(struct sysinfo *si, const char *path);
/* sysfs facts of block device `name` (as in /sys/class/block). */
void sysinfo_bdev_capture(struct sysinfo_bdev *b, const char *name);
void sysinfo_bdev_release(struct sysinfo_bdev *b);
/* Geometry of the filesystem mounted at fs->mountpoint (by fs->type). */
void sysinfo_fs_geometry(struct sysinfo_fs *fs);
void sysinfo_fs_release(struct sysinfo_fs *fs);
void sysinfo_xfs_capture(struct sysinfo_fs *fs);
void sysinfo_ext_capture(struct sysinfo_fs *fs);
void sysinfo_btrfs_capture(struct sysinfo_fs *fs);

/* Text parsers (sysinfo_parse.c), pure so tests can feed sample texts. */
/* The value of KEY in os-release text, unquoted; NULL if absent. */
char *sysinfo_os_release_value(const char *text, const char *key);
/* The value in kB of "Key:  N kB" in /proc/meminfo text, as bytes. */
int64_t sysinfo_meminfo_bytes(const char *text, const char *key);
/* The first "key : value" of /proc/cpuinfo text (model name, or what ARM
 * and others print instead); NULL if none. */
char *sysinfo_cpuinfo_model(const char *text);
/* The bracketed choice of "a [b] c" (scheduler, THP); NULL if none. */
char *sysinfo_bracketed(const char *text);
/* Parse /proc/swaps text into an array. */
void sysinfo_parse_swaps(const char *text, struct sysinfo_swap **out, size_t *n);
/* The profile name of btrfs block-group flags ("single" when none). */
const char *sysinfo_btrfs_profile(uint64_t flags);
/* The type name of btrfs space-info flags (Data, Metadata, ...). */
const char *sysinfo_btrfs_space_type(uint64_t flags);
/* Journal blocks, block size and feature names (e2p's) from the first
 * 1024 bytes of an ext3/4 journal; -EINVAL if it is not one. */
int sysinfo_ext_journal_sb(const unsigned char *buf, size_t len, int64_t *blocks, int64_t *blocksize,
			   char **features);
/* Read a whole small file into a NUL-terminated xmalloc'ed string. */
int sysinfo_read_file(const char *path, char **out);

#endif
