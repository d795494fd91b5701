/*
 * ext2/3/4 facts for the system capture (sysinfo.h) through libext2fs, the
 * library dumpe2fs is built on: the superblock of the mount's source device
 * (opened read-only, superblock only, never exclusively), its features by
 * e2p's names, the RAID stride and stripe width, and the journal: its inode
 * or external device and, from the journal superblock, its length and
 * features (what `dumpe2fs -h` prints as "Total journal blocks" and
 * "Journal features"). Reading the device needs the right to open it
 * (root, or the disk group); without it the geometry is absent.
 */
#include "sys/sysinfo/sysinfo.h"

#include <e2p/e2p.h>
#include <ext2fs/ext2fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xmalloc.h"

#define JSB_MAGIC 0xC03B3998u

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Names of the set bits of three compat words, with names(type, mask). */
static char *feature_names(const uint32_t words[3], const char *(*names)(int, unsigned))
{
	char buf[1024] = "";
	size_t len = 0;

	for (int t = 0; t < 3; t++)
		for (unsigned bit = 0; bit < 32; bit++)
			if ((words[t] >> bit) & 1 && len < sizeof(buf))
				len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s", len ? " " : "",
							names(t, 1u << bit));
	return buf[0] ? xstrdup(buf) : NULL;
}

static const char *fs_feature(int type, unsigned mask)
{
	return e2p_feature2string(type, mask);
}

static const char *journal_feature(int type, unsigned mask)
{
	return e2p_jrnl_feature2string(type, mask);
}

int sysinfo_ext_journal_sb(const unsigned char *buf, size_t len, int64_t *blocks, int64_t *blocksize,
			   char **features)
{
	uint32_t words[3];

	if (len < 1024 || be32(buf) != JSB_MAGIC)
		return -EINVAL;
	*blocksize = be32(buf + 12);
	*blocks = be32(buf + 16);
	for (int i = 0; i < 3; i++)
		words[i] = be32(buf + 36 + 4 * i);
	/* a v1 journal superblock (blocktype 3) has no feature words */
	if (be32(buf + 4) != 4)
		words[0] = words[1] = words[2] = 0;
	*features = feature_names(words, journal_feature);
	return 0;
}

/* Read the internal journal's superblock (its first block). */
static void read_journal(ext2_filsys fs, struct sysinfo_ext *e)
{
	unsigned char buf[1024];
	unsigned got = 0;
	ext2_file_t file;
	int64_t bs;

	if (ext2fs_file_open(fs, (ext2_ino_t)e->journal_inode, 0, &file))
		return;
	if (!ext2fs_file_read(file, buf, sizeof(buf), &got) && got == sizeof(buf) &&
	    !sysinfo_ext_journal_sb(buf, got, &e->journal_blocks, &bs, &e->journal_features))
		e->journal_bytes = e->journal_blocks * bs;
	ext2fs_file_close(file);
}

static void from_super(struct sysinfo_ext *e, struct ext2_super_block *sb)
{
	char uuid[40], label[EXT2_LABEL_LEN + 1];
	uint32_t words[3] = { sb->s_feature_compat, sb->s_feature_incompat, sb->s_feature_ro_compat };

	e2p_uuid_to_str(sb->s_uuid, uuid);
	e->uuid = xstrdup(uuid);
	memcpy(label, sb->s_volume_name, EXT2_LABEL_LEN);
	label[EXT2_LABEL_LEN] = '\0';
	e->label = label[0] ? xstrdup(label) : NULL;
	e->features = feature_names(words, fs_feature);
	e->state = xasprintf("%s%s", (sb->s_state & EXT2_VALID_FS) ? "clean" : "not clean",
			     (sb->s_state & EXT2_ERROR_FS) ? " with errors" : "");
	e->block_size = (int64_t)EXT2_MIN_BLOCK_SIZE << sb->s_log_block_size;
	e->inode_size = sb->s_rev_level == EXT2_GOOD_OLD_REV ? EXT2_GOOD_OLD_INODE_SIZE : sb->s_inode_size;
	e->blocks = (int64_t)ext2fs_blocks_count(sb);
	e->reserved_blocks = (int64_t)ext2fs_r_blocks_count(sb);
	e->free_blocks = (int64_t)ext2fs_free_blocks_count(sb);
	e->inodes = sb->s_inodes_count;
	e->blocks_per_group = sb->s_blocks_per_group;
	e->inodes_per_group = sb->s_inodes_per_group;
	e->flex_bg_size = ext2fs_has_feature_flex_bg(sb) ? (int64_t)1 << sb->s_log_groups_per_flex : SYSINFO_UNSET;
	e->raid_stride = sb->s_raid_stride;
	e->raid_stripe_width = sb->s_raid_stripe_width;
	e->has_journal = ext2fs_has_feature_journal(sb);
	e->journal_inode = e->has_journal && sb->s_journal_inum ? (int64_t)sb->s_journal_inum : SYSINFO_UNSET;
	e->journal_blocks = e->journal_bytes = SYSINFO_UNSET;
	if (e->has_journal && !sb->s_journal_inum && !e2p_is_null_uuid(sb->s_journal_uuid)) {
		e2p_uuid_to_str(sb->s_journal_uuid, uuid);
		e->journal_device = xstrdup(uuid);
	}
}

void sysinfo_ext_capture(struct sysinfo_fs *fs)
{
	ext2_filsys e2;

	if (!fs->source || fs->source[0] != '/')
		return;
	errcode_t err = ext2fs_open2(fs->source, NULL, EXT2_FLAG_SUPER_ONLY | EXT2_FLAG_64BITS |
				     EXT2_FLAG_IGNORE_CSUM_ERRORS, 0, 0, unix_io_manager, &e2);
	if (err) {
		/* libext2fs passes the open's errno on; its own codes are large */
		fs->geometry_error = err < 4096 ?
			xasprintf("cannot read the superblock of %s: %s", fs->source, strerror((int)err)) :
			xasprintf("cannot read the superblock of %s: libext2fs error %ld", fs->source,
				  (long)err);
		return;
	}
	struct sysinfo_ext *e = xcalloc(1, sizeof(*e));
	from_super(e, e2->super);
	if (e->journal_inode > 0)
		read_journal(e2, e);
	ext2fs_close_free(&e2);
	fs->ext = e;
}
