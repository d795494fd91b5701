/*
 * THE option table: one row per job option iobench implements, in the order
 * `iobench help options` and the man page list them. Generic rows (bool,
 * count, size, time, string) need no code; complex values name a callback in
 * options_io.c, options_misc.c, options_sched.c, options_errors.c,
 * options_engine.c, options_faulty.c or verify_opts.c. A row's default is
 * where that default is written: job_spec_defaults() (jobspec.c) stores
 * every row's def as if it were given (a def_doc row's only says what
 * leaving it unset means), and help and the man page print the same text.
 * The engines' own options (hipri, fixedbufs,
 * faulty_*...) are rows of each engine's ops table, not of this one.
 */
#include "spec/options_cb_int.h"
#include "spec/options_sched.h"
#include "spec/options_sys_int.h"
#include "engines/engine.h"
#include "spec/options_errors_int.h"
#include "spec/options_engine_int.h"
#include "spec/verify_opts.h"
#include "util/array.h"
#include "util/units.h"

#include <fcntl.h> /* SYNC_FILE_RANGE_*: sync_file_range's words */

#include <stddef.h>

#define F(field) offsetof(struct job_spec, field)
#define W(field) ((unsigned)sizeof(((struct job_spec *)0)->field))

#define BOOL(n, field, d, h, ...) { .name = n, .type = OPT_BOOL, .off = F(field), \
	.type_text = "bool", .def = d, .help = h, .is_flag = true, __VA_ARGS__ }
#define UINT(n, field, mn, mx, d, h, ...) { .name = n, .type = OPT_UINT, .off = F(field), \
	.width = W(field), .min = mn, .max = mx, .type_text = "int", .def = d, .help = h, __VA_ARGS__ }
#define SIZE(n, field, d, h, ...) { .name = n, .type = OPT_SIZE, .off = F(field), \
	.width = W(field), .type_text = "size", .def = d, .help = h, __VA_ARGS__ }
#define TIME(n, field, u, d, h, ...) { .name = n, .type = OPT_TIME, .off = F(field), \
	.width = W(field), .unit = u, .type_text = "time", .def = d, .help = h, __VA_ARGS__ }
#define STR(n, field, d, h, ...) { .name = n, .type = OPT_STR, .off = F(field), \
	.type_text = "str", .def = d, .help = h, __VA_ARGS__ }
#define WORD(n, field, pv, d, h, ...) { .name = n, .type = OPT_WORD, .off = F(field), \
	.width = W(field), .posval = pv, .type_text = "str", .def = d, .help = h, __VA_ARGS__ }
#define FUNC(n, cb, tt, d, h, ...) { .name = n, .type = OPT_FUNC, .parse = cb, \
	.type_text = tt, .def = d, .help = h, __VA_ARGS__ }

/* The words of the options that take one of a few (OPT_WORD), in the
 * order help and their messages name them, with what a word means where
 * its name does not say it: the help line is the row's help, then these. */
#define PV(w, v) { .word = w, .value = (int)(v) }
#define PVH(w, v, h) { .word = w, .value = (int)(v), .help = h }
#define PV_UNLISTED(w, v) { .word = w, .value = (int)(v), .unlisted = true }
#define PV_END { .word = NULL }
static const struct opt_posval rw_words[] = {
	PV("read", RW_READ), PV("write", RW_WRITE), PV("trim", RW_TRIM),
	PV("randread", RW_READ | RW_RAND), PV("randwrite", RW_WRITE | RW_RAND),
	PV("randtrim", RW_TRIM | RW_RAND), PV("rw", RW_READ | RW_WRITE),
	PV_UNLISTED("readwrite", RW_READ | RW_WRITE), PV("randrw", RW_READ | RW_WRITE | RW_RAND),
	PV("trimwrite", RW_TRIM | RW_WRITE), PV("randtrimwrite", RW_TRIM | RW_WRITE | RW_RAND),
	PV_END,
};
static const struct opt_posval lockfile_words[] = {
	PV("none", FLOCK_NONE),
	PVH("exclusive", FLOCK_EXCLUSIVE, "one job at a time"),
	PVH("readwrite", FLOCK_READWRITE, "readers together, a writer alone"),
	PV_END,
};
static const struct opt_posval replay_skip_words[] = {
	PV("read", DDIR_READ), PV("write", DDIR_WRITE), PV("trim", DDIR_TRIM), PV("sync", DDIR_SYNC),
	PV_END,
};
static const struct opt_posval fallocate_words[] = {
	PV("none", FALLOC_NONE), PV("native", FALLOC_NATIVE), PV("posix", FALLOC_POSIX),
	PV("keep", FALLOC_KEEP), PV("truncate", FALLOC_TRUNCATE),
	PV_UNLISTED("0", FALLOC_NONE), PV_UNLISTED("1", FALLOC_POSIX), PV_END,
};
static const struct opt_posval random_generator_words[] = {
	PV("tausworthe", RANDGEN_TAUSWORTHE),
	PVH("lfsr", RANDGEN_LFSR, "every block once, even with norandommap"),
	PV("tausworthe64", RANDGEN_TAUSWORTHE64),
	PV_END,
};
static const struct opt_posval rw_sequencer_words[] = {
	PVH("sequential", 0, "N-1 sequential I/Os after each random one"),
	PVH("identical", 1, "the same offset N times"),
	PV_END,
};
static const struct opt_posval zonemode_words[] = {
	PV("none", ZONEMODE_NONE),
	PVH("strided", ZONEMODE_STRIDED,
	    "zonesize bytes of I/O in each zone of zonerange bytes, then on past zoneskip"),
	PVH("zbd", ZONEMODE_ZBD, "a zoned block device; refused where there is none"),
	PV_END,
};
static const struct opt_posval io_submit_mode_words[] = {
	PVH("inline", 0, "the job thread submits and reaps its I/Os"),
	PVH("offload", 1, "it makes them, offsets and rate schedule, and iodepth threads submit and "
			  "complete them, one each at a time, so the submission rate holds whatever the "
			  "completions do; lat counts the wait for a thread"),
	PV_END,
};
static const struct opt_posval write_hint_words[] = { /* RWH_WRITE_LIFE_NONE (1) .. _EXTREME (5) */
	PV("none", 1), PV("short", 2), PV("medium", 3), PV("long", 4), PV("extreme", 5), PV_END,
};
static const struct opt_posval rate_process_words[] = {
	PVH("linear", 0, "even gaps between rated I/Os"),
	PVH("poisson", 1, "exponential gaps with the same mean"),
	PV_END,
};
static const struct opt_posval thinktime_blocks_type_words[] = {
	PVH("complete", 0, "at completion"),
	PVH("issue", 1, "at submission"),
	PV_END,
};
static const struct opt_posval dedupe_mode_words[] = {
	PVH("repeat", 0, "the last unique buffer"),
	PVH("working_set", 1, "one of a set made first"),
	PV_END,
};
static const struct opt_posval continue_on_error_words[] = {
	PV("none", 0),
	PV("read", ERRPOL_READ),
	PV("write", ERRPOL_WRITE),
	PV("io", ERRPOL_READ | ERRPOL_WRITE),
	PV("verify", ERRPOL_VERIFY),
	PV("all", ERRPOL_READ | ERRPOL_WRITE | ERRPOL_VERIFY),
	PVH("0", 0, "none"),
	PVH("1", ERRPOL_READ | ERRPOL_WRITE | ERRPOL_VERIFY, "all"),
	PV_END,
};
static const struct opt_posval verify_words[] = {
	PV("crc32c", VERIFY_CRC32C), PV("crc32c-intel", VERIFY_CRC32C), PV("crc32", VERIFY_CRC32),
	PV("crc64", VERIFY_CRC64), PV("crc16", VERIFY_CRC16), PV("crc7", VERIFY_CRC7),
	PV("md5", VERIFY_MD5), PV("sha1", VERIFY_SHA1), PV("sha256", VERIFY_SHA256),
	PV("sha512", VERIFY_SHA512), PV("sha3-224", VERIFY_SHA3_224),
	PV("sha3-256", VERIFY_SHA3_256), PV("sha3-384", VERIFY_SHA3_384),
	PV("sha3-512", VERIFY_SHA3_512), PV("xxhash", VERIFY_XXHASH), PV("meta", VERIFY_META),
	PV("pattern", VERIFY_PATTERN), PV("null", VERIFY_NULL), PV("0", VERIFY_NONE),
	PV_UNLISTED("none", VERIFY_NONE), PV_END,
};
static const struct opt_posval exit_what_words[] = {
	PVH("group", EXIT_WHAT_GROUP, "the finished job's reporting group"),
	PVH("stonewall", EXIT_WHAT_STONEWALL, "every running job; the next stonewall batch runs"),
	PVH("all", EXIT_WHAT_ALL, "every job, those not started too"),
	PV_END,
};
#define PVA(w, v, a, h) { .word = w, .value = (int)(v), .arg = a, .help = h }
static const struct opt_posval file_service_type_words[] = {
	PVA("roundrobin", FSRV_RR, "[:N]", NULL),
	PVA("sequential", FSRV_SEQ, NULL, "finish a file first"),
	PVA("random", FSRV_RANDOM, "[:N]", "N I/Os per file before switching"),
	PVA("zipf", FSRV_ZIPF, "[:THETA]", "1.1"),
	PVA("pareto", FSRV_PARETO, "[:H]", "0.2"),
	PVA("normal", FSRV_NORMAL, "[:DEV]", "0"),
	PV_UNLISTED("gauss", FSRV_NORMAL),
	PV_END,
};
static const struct opt_posval mem_words[] = {
	/* a word with an arg takes a file */
	PV("malloc", MEM_MALLOC),
	PV("shm", MEM_SHM),
	PV("shmhuge", MEM_SHMHUGE),
	PVA("mmap", MEM_MMAP, "[:FILE]", NULL),
	PVA("mmaphuge", MEM_MMAPHUGE, "[:FILE]", NULL),
	PVA("mmapshared", MEM_MMAPSHARED, "[:FILE]", NULL),
	PV_UNLISTED("cudamalloc", -1), /* fio's, refused: no CUDA here */
	PV_END,
};
static const struct opt_posval random_distribution_words[] = {
	PV("random", DIST_RANDOM),
	PVA("zipf", DIST_ZIPF, "[:THETA[:CENTER]]", "1.1"),
	PVA("pareto", DIST_PARETO, "[:H[:CENTER]]", "0.2"),
	PVA("normal", DIST_NORMAL, "[:DEV]", "0"),
	PVA("zoned", DIST_ZONED, ":P/R[:P/R...]",
	    "P% of the I/O in R% of the range; an R left out shares what the others leave"),
	PVA("zoned_abs", DIST_ZONED_ABS, ":P/SIZE[:P/SIZE...]", NULL),
	PV_END,
};
static const struct opt_posval numa_mem_policy_words[] = {
	/* a word with an arg takes nodes */
	PV("default", NUMA_MEM_DEFAULT),
	PVA("prefer", NUMA_MEM_PREFER, ":NODE", NULL),
	PVA("bind", NUMA_MEM_BIND, ":NODES", NULL),
	PVA("interleave", NUMA_MEM_INTERLEAVE, ":NODES", NULL),
	PV("local", NUMA_MEM_LOCAL),
	PV_END,
};
static const struct opt_posval sync_file_range_words[] = {
	PV("wait_before", SYNC_FILE_RANGE_WAIT_BEFORE),
	PV("write", SYNC_FILE_RANGE_WRITE),
	PV("wait_after", SYNC_FILE_RANGE_WAIT_AFTER),
	PV_END,
};
/* sync= and unified_rw_reporting=: a word of value -1 is fio's, refused as
 * not implemented; other boolean spellings are taken too (parse_bool) */
static const struct opt_posval sync_words[] = {
	PV("none", 0),
	PV("sync", 1),
	PV("0", 0),
	PV("1", 1),
	PV_UNLISTED("dsync", -1),
	PV_END,
};
static const struct opt_posval unified_rw_reporting_words[] = {
	PV("none", 0),
	PVH("mixed", 1, "all directions reported as one"),
	PV("0", 0),
	PV("1", 1),
	PV_UNLISTED("both", -1),
	PV_UNLISTED("2", -1),
	PV_END,
};
static const struct opt_posval steadystate_words[] = {
	/* bit 1: bw, bit 0: slope */
	PVA("iops", 0, ":N", "every sample within N, or N%, of the mean"),
	PVA("iops_slope", 1, ":N", "least-squares slope below N per second, or N% of the mean"),
	PVA("bw", 2, ":N", "as iops"),
	PVA("bw_slope", 3, ":N", "as iops_slope"),
	PV_END,
};
static const struct opt_posval cpus_allowed_policy_words[] = {
	PVH("shared", 0, "each job may use all those CPUs"),
	PVH("split", 1, "one CPU per job, round robin"),
	PV_END,
};

const struct option_def option_table[] = {
	/* identity */
	FUNC("name", opt_cb_name, "str", NULL, "job name (defaults to the section name)"),
	STR("description", description, NULL, "free text describing the job"),
	/* files */
	STR("filename", filename, NULL, "file(s) or device(s) to use; ':' separates several, '\\:' escapes"),
	STR("directory", directory, NULL, "directory to create the files in; ':' separates several"),
	UINT("nrfiles", nrfiles, 1, 0, "1", "number of files per job", .alias = { "nr_files" }),
	FUNC("size", opt_cb_size, "size|N%", NULL, "total size of the files, or N% of the device"),
	SIZE("io_size", io_size, NULL, "bytes of I/O to do (default: size)", .alias = { "io_limit" }),
	FUNC("filesize", opt_cb_filesize, "irange", NULL, "size of each file; a range picks at random"),
	FUNC("offset", opt_cb_offset, "size|N%", "0", "start I/O at this offset in each file", .alias = { "fileoffset" }),
	SIZE("offset_increment", offset_increment, "0", "added to offset for each clone (numjobs)"),
	BOOL("create_on_open", create_on_open, "0", "create files when the job opens them, not before"),
	BOOL("allow_file_create", allow_file_create, "1", "allow creating files that do not exist"),
	BOOL("overwrite", overwrite, "0", "lay out the whole file before writing to it"),
	WORD("fallocate", fallocate, fallocate_words, "native", "pre-allocation"),
	BOOL("unlink", unlink, "0", "delete the files when the job is done"),
	BOOL("invalidate", invalidate, "1", "drop the page cache of the files and devices at the start of every pass"),
	BOOL("fadvise_hint", fadvise_hint, "1", "tell the kernel the access pattern (random: no readahead)"),
	BOOL("readonly", readonly, "0", "refuse the job if it writes, trims or lays out files, runs a program or creates a file (fio's --readonly, per job)"),
	STR("filename_format", filename_format, "$jobname.$jobnum.$filenum", "names of the files when filename= is not given: $jobname (the section), $jobnum (the clone), $filenum, $clientuid (empty: no client mode); a '/' in it makes the directories", .def_doc = true),
	BOOL("unique_filename", unique_filename, "1", "accepted as fio: fio prefixes generated names with the client's address in client/server mode, which iobench does not have, so names are never prefixed"),
	STR("opendir", opendir, NULL, "add every regular file under this directory tree to the job's files"),
	UINT("openfiles", openfiles, 0, 0, NULL, "keep at most this many files open at once: as fio, a file is closed when its I/O is done and the next one opened (default: nrfiles)"),
	FUNC("file_service_type", opt_cb_file_service_type, "str[:N]", "roundrobin", "which file the next I/O goes to (gauss is normal)", .posval = file_service_type_words, .word_what = "file service type", .word_tail = " (gauss)"),
	BOOL("create_only", create_only, "0", "only lay out the files: the job does no I/O"),
	BOOL("create_serialize", create_serialize, "1", "lay out the jobs' files one job after the other; 0: each job lays out its own when it starts, in parallel with the others"),
	BOOL("create_fsync", create_fsync, "1", "fsync a file after laying it out"),
	BOOL("file_append", file_append, "0", "do the I/O after the end of each regular file (offset= its size)"),
	FUNC("lockfile", opt_cb_lockfile, "str[:N]", "none", "lock each file around every I/O (around N I/Os with :N), shared by the run's jobs using it", .posval = lockfile_words, .word_what = "lock mode", .word_tail = ", with an optional :N"),
	BOOL("pre_read", pre_read, "0", "read the files into the page cache before the I/O starts (turns invalidate off)"),
	BOOL("unlink_each_loop", unlink_each_loop, "0", "delete the files after every loop (the next loop lays them out again)"),
	BOOL("allow_mounted_write", allow_mounted_write, "0", "accepted as fio, but it cannot unlock anything: iobench's device guard still refuses to write to a mounted or otherwise in-use device (a mounted filesystem, a holder, an active swap), whatever this option says"),
	/* what I/O */
	FUNC("rw", opt_cb_rw, "str[:N]", "read", "I/O pattern; with :N, a new offset every N I/Os (rw_sequencer)", .alias = { "readwrite" }, .posval = rw_words),
	FUNC("rwmixread", opt_cb_rwmixread, "int", "50", "percent of reads in a mixed workload"),
	FUNC("rwmixwrite", opt_cb_rwmixwrite, "int", "50", "percent of writes in a mixed workload"),
	FUNC("bs", opt_cb_bs, "size[,size][,size]", "4k", "block size per direction (read,write,trim)", .alias = { "blocksize" }),
	FUNC("bsrange", opt_cb_bsrange, "irange[,irange][,irange]", NULL, "block size range per direction", .alias = { "blocksize_range" }),
	FUNC("bssplit", opt_cb_bssplit, "str[,str][,str]", NULL, "weighted block sizes: bs/percent:bs/percent..."),
	BOOL("bs_unaligned", bs_unaligned, "0", "allow any size in bsrange, not only multiples of the minimum", .alias = { "blocksize_unaligned" }),
	FUNC("blockalign", opt_cb_blockalign, "size[,size][,size]", NULL, "alignment of offsets (default: minimum block size)", .alias = { "ba" }),
	SIZE("iomem_align", iomem_align, "0", "align I/O buffers to this many bytes (0 = a page)", .alias = { "mem_align" }),
	FUNC("mem", opt_cb_mem, "str[:file]", "malloc", "I/O buffer memory", .alias = { "iomem" }, .posval = mem_words, .word_what = "memory kind"),
	SIZE("hugepage-size", hugepage_size, "2097152", "huge page size: shmhuge and mmaphuge buffers are rounded up to it"),
	SIZE("lockmem", lockmem, "0", "mlock(2) this much memory per job while it runs, to leave less RAM to the rest"),
	BOOL("direct", direct, "0", "use O_DIRECT"),
	FUNC("buffered", opt_cb_buffered, "bool", "1", "use buffered I/O (the opposite of direct)", .is_flag = true),
	FUNC("sync", opt_cb_sync, "str", "none", "open files with O_SYNC", .is_flag = true, .posval = sync_words),
	BOOL("norandommap", norandommap, "0", "do not track which blocks random I/O has touched"),
	BOOL("randrepeat", randrepeat, "1", "same random sequence on every run"),
	FUNC("randseed", opt_cb_randseed, "int", NULL, "seed of the random generators"),
	FUNC("random_distribution", opt_cb_random_distribution, "str[:float][:float]", "random", "how random offsets spread (a parameter left out is the one in parentheses)", .posval = random_distribution_words, .word_what = "distribution"),
	WORD("random_generator", random_generator, random_generator_words, "tausworthe", "random offsets", .word_what = "generator"),
	BOOL("allrandrepeat", allrandrepeat, "0", "seed every random generator the same way on every run, even with randrepeat=0 (randseed is ignored)"),
	FUNC("percentage_random", opt_cb_percentage_random, "int[,int][,int]", "100", "percent of random I/Os per direction (read,write,trim) in a random job; the rest continue sequentially"),
	WORD("rw_sequencer", rw_seq_identical, rw_sequencer_words, "sequential", "what rw=randMODE:N does", .word_what = "sequencer"),
	SIZE("offset_align", offset_align, "0", "round offset=N% up to a multiple of this (0: the minimum block size)"),
	/* zones */
	WORD("zonemode", zonemode, zonemode_words, "none", "the zones I/O goes to", .word_what = "zone mode"),
	SIZE("zonesize", zonesize, "0", "strided: bytes of I/O per zone before moving on; zbd: the zone size"),
	SIZE("zonerange", zonerange, "0", "strided: the size of a zone, where its I/O lands (0: zonesize)"),
	FUNC("zoneskip", opt_cb_zoneskip, "size[z]", "0", "strided: bytes skipped after each zone (Nz: N zones of zonesize)"),
	SIZE("zonecapacity", zonecapacity, "0", "zbd: usable bytes from each zone's start (0: zonesize)"),
	BOOL("read_beyond_wp", read_beyond_wp, "0", "zbd: let reads go past a zone's write pointer"),
	UINT("max_open_zones", max_open_zones, 0, 4096, "0", "zbd: at most this many sequential zones open for writing (0: the device's limit)"),
	UINT("job_max_open_zones", job_max_open_zones, 0, 4096, "0", "zbd: the same limit per job"),
	BOOL("ignore_zone_limits", ignore_zone_limits, "0", "zbd: ignore the device's open and active zone limits"),
	FUNC("zone_reset_threshold", opt_cb_zone_fraction, "float", "0", "zbd: reset zones once this fraction of the zoned capacity holds data", .off = F(zone_reset_threshold)),
	FUNC("zone_reset_frequency", opt_cb_zone_fraction, "float", "0", "zbd: the fraction of zone_reset_threshold checks that reset a zone", .off = F(zone_reset_frequency)),
	BOOL("fill_device", fill_device, "0", "write until the device or file system is full (without size=); a job that only reads fills it first, then reads it", .alias = { "fill_fs" }),
	/* engine */
	FUNC("ioengine", opt_cb_ioengine, "str", "psync", "I/O engine:", .choices = engine_names),
	UINT("iodepth", iodepth, 1, 65535, "1", "I/Os to keep in flight (async engines)"),
	UINT("iodepth_batch", iodepth_batch, 0, 65535, "1", "I/Os to submit at once", .alias = { "iodepth_batch_submit" }),
	UINT("iodepth_batch_complete_min", iodepth_batch_complete_min, 0, 65535, "1", "minimum completions to reap at once", .alias = { "iodepth_batch_complete" }),
	UINT("iodepth_batch_complete_max", iodepth_batch_complete_max, 0, 65535, NULL, "maximum completions to reap at once (default: the minimum)"),
	WORD("io_submit_mode", io_submit_offload, io_submit_mode_words, "inline", "who submits", .word_what = "submit mode"),
	UINT("iodepth_low", iodepth_low, 0, 65535, NULL, "refill the queue when it drains to this depth (default: iodepth)"),
	/* how long */
	TIME("runtime", runtime, NS_PER_SEC, "0", "stop after this time (default unit: s)", .alias = { "timeout" }),
	BOOL("time_based", time_based, "0", "keep going until runtime even when the I/O is done"),
	TIME("ramp_time", ramp_time, NS_PER_SEC, "0", "run this long before recording (default unit: s)"),
	FUNC("startdelay", opt_cb_startdelay, "irange(time)", "0", "wait this long before starting; a range picks at random"),
	UINT("loops", loops, 1, 0, "1", "repeat the job this many times"),
	UINT("number_ios", number_ios, 0, 0, "0", "stop after this many I/Os a loop (0: no limit; ignored by a time_based job, as fio)"),
	/* sync points */
	UINT("fsync", fsync_blocks, 0, 0, "0", "fsync before the I/O that follows every Nth write (none after the last: end_fsync)"),
	UINT("fdatasync", fdatasync_blocks, 0, 0, "0", "fdatasync before the I/O that follows every Nth write, as fsync="),
	BOOL("end_fsync", end_fsync, "0", "fsync the files when the job ends"),
	BOOL("fsync_on_close", fsync_on_close, "0", "fsync each file before closing it"),
	FUNC("sync_file_range", opt_cb_sync_file_range, "str[:int]", NULL, "sync_file_range(2) with these flags (',' between several) over what was written, before the write that follows every N writes (FLAGS:N; default N: 1)", .posval = sync_file_range_words, .word_what = "sync_file_range flag", .word_tail = ", comma separated"),
	BOOL("serialize_overlap", serialize_overlap, "0", "with iodepth > 1: wait for an I/O in flight that overlaps the next one before issuing it"),
	FUNC("atomic", opt_cb_atomic, "bool", "0", "torn-write protection (RWF_ATOMIC) on O_DIRECT writes; implies direct=1; refused where the device cannot write atomically", .is_flag = true),
	UINT("write_barrier", write_barrier, 0, 0, "0", "make every Nth write a barrier: only fio's sg engine has them, so it changes nothing here (a warning says so)"),
	WORD("write_hint", write_hint, write_hint_words, NULL, "tell the kernel the written data's expected lifetime (fcntl F_SET_RW_HINT)", .word_what = "write hint"),
	/* pacing */
	FUNC("rate", opt_cb_rate, "size[,size][,size]", "0", "bandwidth cap in bytes/s per direction"),
	FUNC("rate_iops", opt_cb_rate_iops, "int[,int][,int]", "0", "IOPS cap per direction"),
	FUNC("rate_min", opt_cb_rate_min, "size[,size][,size]", "0", "bandwidth in bytes/s per direction the job must keep over rate_cycle, else it stops with EIO (checked after the first 2 s)", .alias = { "ratemin" }),
	FUNC("rate_iops_min", opt_cb_rate_iops_min, "int[,int][,int]", "0", "IOPS per direction the job must keep over rate_cycle, else it stops with EIO"),
	TIME("rate_cycle", rate_cycle, NS_PER_MS, "1000", "window over which rate_min and rate_iops_min are averaged (default unit: ms)", .alias = { "ratecycle" }),
	WORD("rate_process", rate_poisson, rate_process_words, "linear", "the gaps between rated I/Os", .word_case = true),
	BOOL("rate_ignore_thinktime", rate_ignore_thinktime, "0", "after a thinktime stall go on at the rate, do not catch up on the I/Os the stall missed"),
	TIME("thinktime", thinktime, NS_PER_US, "0", "stall this long after every thinktime_blocks I/Os (default unit: us)"),
	TIME("thinktime_spin", thinktime_spin, NS_PER_US, "0", "spend this much of each stall busy on the CPU, sleep the rest (default unit: us)"),
	FUNC("thinktime_blocks", opt_cb_thinktime_blocks, "int", "1", "I/Os between thinktime stalls; also caps iodepth"),
	WORD("thinktime_blocks_type", thinktime_blocks_issue, thinktime_blocks_type_words, "complete", "where thinktime_blocks are counted", .word_case = true),
	TIME("thinktime_iotime", thinktime_iotime, NS_PER_SEC, "0", "stall after this much time of I/O too, whichever of it and thinktime_blocks comes first (default unit: s)"),
	UINT("flow_id", flow_id, 0, 0, "0", "flow group of the job for flow= (0: the global group)"),
	UINT("flow", flow, 0, 1000, "0", "weight of the job in its flow group: the jobs of a group issue I/Os in proportion to their weights (0: no flow control)"),
	TIME("flow_sleep", flow_sleep, NS_PER_US, "0", "sleep this long when the flow holds the job back (default unit: us; 0: retry at once)"),
	FUNC("max_latency", opt_cb_max_latency, "time[,time][,time]", NULL, "stop the job with ETIMEDOUT when an I/O of that direction takes longer (default unit: us)"),
	TIME("latency_target", latency_target, NS_PER_US, NULL, "find the highest queue depth (up to iodepth) at which latency_percentile of the I/Os take at most this long, then run one latency_window at it and stop (default unit: us)"),
	TIME("latency_window", latency_window, NS_PER_US, NULL, "time of I/O judged at each queue depth by latency_target (default unit: us)"),
	FUNC("latency_percentile", opt_cb_latency_percentile, "float", "100", "percent of the I/Os of a window that must meet latency_target"),
	BOOL("latency_run", latency_run, "0", "with latency_target: keep adjusting the queue depth to the target instead of stopping"),
	/* buffer contents */
	BOOL("zero_buffers", zero_buffers, "0", "fill I/O buffers with zeroes"),
	BOOL("refill_buffers", refill_buffers, "0", "refill buffers with random data before every write"),
	BOOL("scramble_buffers", scramble_buffers, "1", "lightly scramble buffers so they do not dedupe"),
	UINT("buffer_compress_percentage", buffer_compress_percentage, 0, 100, "0", "make buffers this compressible (percent)"),
	SIZE("buffer_compress_chunk", buffer_compress_chunk, "512", "size of the compressible regions"),
	FUNC("buffer_pattern", opt_cb_buffer_pattern, "str", NULL, "fill write buffers with this pattern from each buffer's start: 0xHEX, decimal and \"text\", concatenated (the compressible part with buffer_compress_percentage)"),
	UINT("dedupe_percentage", dedupe_percentage, 0, 100, "0", "percent of writes that repeat an earlier buffer's contents (turns refill_buffers on)"),
	WORD("dedupe_mode", dedupe_working_set, dedupe_mode_words, "repeat", "where duplicates come from", .word_what = "dedupe mode"),
	UINT("dedupe_working_set_percentage", dedupe_working_set_percentage, 0, 100, "5", "with dedupe_mode=working_set: the set's size, percent of size"),
	BOOL("dedupe_global", dedupe_global, "0", "with dedupe_mode=working_set: one set for every job that sets this"),
	/* errors */
	WORD("continue_on_error", continue_on_error, continue_on_error_words, "none", "go on after errors of these kinds (only EIO and EILSEQ unless ignore_error lists others; the exit status stays non-zero)"),
	FUNC("ignore_error", opt_cb_ignore_error, "str", NULL, "errors to go on after, per kind: READ,WRITE,VERIFY lists of errno names or numbers separated by ':' (e.g. EIO,ENOSPC:EDQUOT)"),
	BOOL("error_dump", error_dump, "0", "print every error a job goes on after, not only the first"),
	/* verification */
	WORD("verify", verify, verify_words, "0", "check written data", .word_what = "verify type", .word_use = "expected"),
	FUNC("verify_pattern", opt_cb_verify_pattern, "str", NULL, "write and check this pattern: 0xHEX, decimal, \"text\" and %o (the offset), concatenated"),
	BOOL("do_verify", do_verify, "1", "read back and check after the write phase (with verify=)"),
	BOOL("verify_only", verify_only, "0", "do not write: check what an earlier run of the same job wrote"),
	UINT("verify_backlog", verify_backlog, 0, 0, "0", "check the written blocks after every N writes (0: after the write phase)"),
	UINT("verify_backlog_batch", verify_backlog_batch, 0, 0, NULL, "with verify_backlog: blocks read back each time, oldest first (default: verify_backlog; larger goes on with the next writes)"),
	SIZE("verify_interval", verify_interval, NULL, "bytes covered by each verify header (default: the minimum block size)"),
	SIZE("verify_offset", verify_offset, "0", "put the verify header this far into each interval"),
	BOOL("verify_fatal", verify_fatal, "0", "stop at the first failing block even with continue_on_error=verify (which otherwise counts them all)"),
	BOOL("experimental_verify", experimental_verify, "0", "fio's verify by replaying the write offsets instead of logging them: what iobench's verify always does, so either value verifies the same way"),
	BOOL("verify_dump", verify_dump, "0", "write each failing chunk as read and as expected to BASENAME.OFFSET.received and .expected in the current directory (or --aux-path)"),
	BOOL("verify_state_save", verify_state_save, "1", "save how far the write phase got in local-NAME-N-verify.state"),
	BOOL("verify_state_load", verify_state_load, "0", "with verify_only: check only what the saved state says was written"),
	FUNC("verify_async_cpus", opt_cb_verify_async_cpus, "str", NULL, "CPUs the verify_async threads may run on, in cpus_allowed's format"),
	UINT("verify_async", verify_async, 0, 256, "0", "check the blocks read back in this many threads while the job goes on reading (0: in the job thread); the results are the same"),
	UINT("trim_percentage", trim_percentage, 0, 100, "0", "with verify=: trim (discard) this percent of the written blocks, picked at random, after writing them; the read-back expects them zero"),
	UINT("trim_backlog", trim_backlog, 0, 0, "0", "with trim_percentage: trim the picked blocks after every N writes (0: before the read-back; fio 3.33 then trims none)"),
	UINT("trim_backlog_batch", trim_backlog_batch, 0, 0, "0", "with trim_backlog: blocks trimmed each turn, oldest first (0: all that wait)"),
	BOOL("trim_verify_zero", trim_verify_zero, "1", "trimmed blocks must read back as zeros; 0: the read-back skips them"),
	/* grouping */
	UINT("numjobs", numjobs, 1, 0, "1", "number of clones of this job (a run has at most 4096 threads in all)"),
	BOOL("thread", thread, "0", "run jobs as threads (iobench always does)"),
	BOOL("group_reporting", group_reporting, "0", "report a group's jobs as one"),
	BOOL("new_group", new_group, "0", "start a new reporting group"),
	BOOL("stonewall", stonewall, "0", "wait for the jobs before this one to finish", .alias = { "wait_for_previous" }),
	STR("wait_for", wait_for, NULL, "start after every job of that name (defined earlier) has finished"),
	/* job control */
	BOOL("exitall", exitall, "0", "when a job finishes, stop the others (which ones: the finished job's exit_what); one job's exitall applies to every job, as in fio"),
	BOOL("exitall_on_error", exitall_on_error, "0", "when this job finishes in error, stop the others (which ones: its exit_what)"),
	WORD("exit_what", exit_what, exit_what_words, "group", "what exitall stops", .word_case = true),
	STR("ioscheduler", ioscheduler, NULL, "switch the I/O scheduler of the queue of the job's (first) file's device to this while its stonewall batch runs, holding the device's knob lock, and put the whole queue back after (the scheduler, then nr_requests and the iosched/ knobs the switch reset; fio leaves it switched); refused when the file is not on a block device with a settable scheduler, or while another iobench holds the device's knobs"),
	STR("exec_prerun", exec_prerun, NULL, "run this /bin/sh command before the job's I/O, output in JOBNAME.prerun.txt; if it fails the job does no I/O (as fio: no error)"),
	STR("exec_postrun", exec_postrun, NULL, "run this /bin/sh command after the job, output in JOBNAME.postrun.txt"),
	/* steady state */
	FUNC("steadystate", opt_cb_steadystate, "str:float[%]", "iops_slope:0.01%", "with steadystate_duration: stop once the last window of per-second samples is steady (bw's N is bytes/s)", .alias = { "ss" }, .posval = steadystate_words, .word_case = true, .word_what = "criterion", .word_tail = " (N may end in %)"),
	FUNC("steadystate_duration", opt_cb_ss_dur, "time", "0", "the steady-state window, one sample a second (default unit: s; 0: no steady-state detection)", .alias = { "ss_dur" }),
	TIME("steadystate_ramp_time", ss_ramp, NS_PER_SEC, "0", "I/O time before the first steady-state sample (default unit: s)", .alias = { "ss_ramp" }),
	/* fio's profile options, accepted everywhere as fio does */
	FUNC("threads", opt_cb_profile_int, "int", NULL, "an option of fio's tiobench profile: fio takes it in any job and without profile=tiobench does nothing, nor does iobench (it is not thread)"),
	FUNC("numruns", opt_cb_profile_int, "int", NULL, "an option of fio's tiobench profile: fio takes it in any job and without profile=tiobench does nothing, nor does iobench"),
	FUNC("block", opt_cb_profile_size, "size", NULL, "an option of fio's tiobench profile: fio takes it in any job and without profile=tiobench does nothing, nor does iobench"),
	FUNC("dir", opt_cb_profile_str, "str", NULL, "an option of fio's tiobench profile: fio takes it in any job and without profile=tiobench does nothing, nor does iobench"),
	FUNC("device-names", opt_cb_profile_str, "str", NULL, "an option of fio's act profile: fio takes it in any job and without profile=act does nothing, nor does iobench"),
	FUNC("load", opt_cb_profile_int, "int", NULL, "an option of fio's act profile: fio takes it in any job and without profile=act does nothing, nor does iobench"),
	FUNC("test-duration", opt_cb_profile_int, "int", NULL, "an option of fio's act profile: fio takes it in any job and without profile=act does nothing, nor does iobench"),
	FUNC("threads-per-queue", opt_cb_profile_int, "int", NULL, "an option of fio's act profile: fio takes it in any job and without profile=act does nothing, nor does iobench"),
	FUNC("read-req-num-512-blocks", opt_cb_profile_int, "int", NULL, "an option of fio's act profile: fio takes it in any job and without profile=act does nothing, nor does iobench"),
	FUNC("large-block-op-kbytes", opt_cb_profile_int, "int", NULL, "an option of fio's act profile: fio takes it in any job and without profile=act does nothing, nor does iobench"),
	FUNC("prep", opt_cb_profile_int, "int", NULL, "an option of fio's act profile: fio takes it in any job and without profile=act does nothing, nor does iobench"),
	/* statistics */
	FUNC("percentile_list", opt_cb_percentile_list, "float_list", "1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:99.95:99.99", "latency percentiles to report, ':' separated"),
	BOOL("clat_percentiles", clat_percentiles, "1", "report completion latency percentiles"),
	BOOL("block_error_percentiles", block_error_hist, "0", "record each trim-block's state (written, trimmed, failed) and trims, for one file; report percentiles of the trims blocks took, errors last, and the states' counts"),
	BOOL("lat_percentiles", lat_percentiles, "0", "report total latency percentiles"),
	BOOL("slat_percentiles", slat_percentiles, "0", "report submission latency percentiles"),
	FUNC("bwavgtime", opt_cb_avgtime, "time", "500", "bandwidth sampling interval (default unit: ms)", .off = F(bw_avg_time)),
	FUNC("iopsavgtime", opt_cb_avgtime, "time", "500", "IOPS sampling interval (default unit: ms)", .off = F(iops_avg_time)),
	FUNC("kb_base", opt_cb_kb_base, "int", "1024", "1024: k means 1024 and KiB 1000 (fio's default); 1000: the reverse"),
	BOOL("stats", stats, "1", "report the job; 0 leaves it out of every report and of its group's totals (fio 3.33 prints an empty group, and a job entry with no name in JSON)"),
	UINT("significant_figures", sig_figs, 1, 10, "4", "digits of IOPS, bandwidths and sizes in the normal report (1 to 10)"),
	FUNC("unit_base", opt_cb_unit_base, "int", "0", "bandwidths of the normal report in bytes (0: auto, 8) or bits (1) per second"),
	BOOL("disk_util", disk_util, "1", "report the disk statistics of the job's devices (fio's disk_util section and \"Disk stats\"); 0 leaves them out unless another job reports the same device"),
	FUNC("unified_rw_reporting", opt_cb_unified_rw_reporting, "str", "none", "one report for all directions", .is_flag = true, .posval = unified_rw_reporting_words),
	/* time-series logs (fio's file names and formats) */
	STR("write_bw_log", bw_log, NULL, "write bandwidth to PREFIX_bw.N.log (no prefix: the job name)", .is_flag = true),
	STR("write_iops_log", iops_log, NULL, "write IOPS to PREFIX_iops.N.log (no prefix: the job name)", .is_flag = true),
	STR("write_lat_log", lat_log, NULL, "write latencies to PREFIX_lat.N.log, _clat and _slat (no prefix: the job name)", .is_flag = true),
	STR("write_hist_log", hist_log, NULL, "write clat histograms to PREFIX_clat_hist.N.log every log_hist_msec", .is_flag = true),
	UINT("log_avg_msec", log_avg_msec, 0, 0, "0", "average log values over windows of this many ms (0: one line per I/O)"),
	BOOL("log_max_value", log_max_value, "0", "windowed latency logs record the window's maximum instead of its mean"),
	UINT("log_hist_msec", log_hist_msec, 0, 0, "0", "histogram log interval in ms (0: no histogram lines)"),
	UINT("log_hist_coarseness", log_hist_coarseness, 0, 6, "0", "merge 2^N adjacent histogram bins (1856 >> N bins per line)"),
	BOOL("per_job_logs", per_job_logs, "1", "one log per job (.N in the name); 0: jobs with the same prefix share one file"),
	BOOL("log_offset", log_offset, "0", "add the I/O's offset to each log line"),
	BOOL("log_prio", log_prio, "0", "log the full I/O priority (0x%04x) instead of 1 for realtime, 0 otherwise"),
	BOOL("log_unix_epoch", log_unix_epoch, "0", "log times as ms since the Unix epoch"),
	BOOL("log_alternate_epoch", log_alternate_epoch, "0", "log times as ms of clock log_alternate_epoch_clock_id"),
	UINT("log_alternate_epoch_clock_id", log_alternate_epoch_clock_id, 0, 0, "0", "clock_gettime clock id for log_unix_epoch and log_alternate_epoch"),
	FUNC("log_compression_cpus", opt_cb_log_compression_cpus, "str", NULL, "CPUs the log writer thread (which also zlib-compresses the logs with log_compression) may run on, in cpus_allowed's format, as fio's compression workers"),
	SIZE("log_compression", log_compression, NULL, "zlib-compress logs in chunks of this many bytes of samples (text unless log_store_compressed)", .min = 1024, .max = 536870912),
	BOOL("log_store_compressed", log_store_compressed, "0", "store logs as fio's compressed .log.fz (iobench --inflate-log reads them)"),
	UINT("log_entries", log_entries, 1, 0, "1024", "accepted for fio (iobench writes logs through a fixed ring)"),
	/* I/O logs and their replay (fio's iolog versions 2 and 3, blktrace) */
	STR("write_iolog", write_iolog, NULL, "append the job's I/O to this file as fio's iolog version 3 (with read_iolog too: the I/O the replay did, which fio does not write)"),
	STR("read_iolog", read_iolog, NULL, "replay this fio iolog (version 2 or 3) or blktrace binary file; ':' separates one per clone (numjobs)"),
	BOOL("read_iolog_chunked", read_iolog_chunked, "0", "read the log as the replay goes instead of all of it first (a log iobench can read twice: the device guard checks every file it names before the run)"),
	BOOL("replay_no_stall", replay_no_stall, "0", "replay as fast as possible, in order, ignoring the log's timing"),
	STR("replay_redirect", replay_redirect, NULL, "replay every I/O of the log onto this file or device, whatever the log names"),
	FUNC("replay_align", opt_cb_replay_align, "int", NULL, "round the log's offsets down to this power of 2"),
	UINT("replay_scale", replay_scale, 0, 0, "1", "divide the log's offsets by this"),
	UINT("replay_time_scale", replay_time_scale, 1, 0, "100", "replay at this percent of the log's I/O rate (50: half as fast, 200: twice)"),
	FUNC("replay_skip", opt_cb_replay_skip, "str", NULL, "leave these I/O kinds out of the replay, ',' between several", .posval = replay_skip_words, .word_what = "I/O kind", .word_tail = ", ',' between several"),
	STR("merge_blktrace_file", merge_blktrace_file, NULL, "merge read_iolog's blktraces by time into this file, then replay it"),
	FUNC("merge_blktrace_scalars", opt_cb_merge_list, "float_list", NULL, "percent of each blktrace's time when merging (50: twice as fast), ':' between them, one per file of read_iolog", .off = F(merge_blktrace_scalars)),
	FUNC("merge_blktrace_iters", opt_cb_merge_list, "float_list", NULL, "passes over each blktrace when merging, ':' between them, one per file of read_iolog", .off = F(merge_blktrace_iters)),
	/* scheduling and clock */
	FUNC("cpus_allowed", opt_cb_cpus_allowed, "str", NULL, "CPUs the job may run on, e.g. 0-3,6"),
	WORD("cpus_allowed_policy", cpus_allowed_split, cpus_allowed_policy_words, "shared", "how the jobs share cpus_allowed", .word_what = "policy"),
	FUNC("cpumask", opt_cb_cpumask, "int", NULL, "CPUs the job may run on as a bit mask (34 = CPUs 1 and 5; 0x... for any number)"),
	FUNC("nice", opt_cb_nice, "int", "0", "add this to the job thread's nice value (-20 to 19)"),
	FUNC("prio", opt_cb_prio, "int", NULL, "I/O priority from 0 (highest) to 7 within prioclass (default class: best-effort)"),
	FUNC("prioclass", opt_cb_prioclass, "int", NULL, "I/O priority class: 1 realtime (needs root), 2 best-effort, 3 idle"),
	/* identity and placement of the job's thread (workload/jobsys.c) */
	FUNC("uid", opt_cb_uid, "int", NULL, "switch the job's thread to this user id before its I/O (files are laid out first, as root if iobench runs as root)"),
	FUNC("gid", opt_cb_gid, "int", NULL, "switch the job's thread to this group id before its I/O (before uid)"),
	STR("cgroup", cgroup, NULL, "put the job's thread in this cgroup v2 group under the cgroup iobench runs in on the cgroup2 mount (created threaded if missing, removed at the end)"),
	UINT("cgroup_weight", cgroup_weight, 100, 1000, NULL, "io weight of the job's cgroup: refused with the reason, since cgroup v2 weighs processes and each job is a thread (fio 3.33 refuses it on cgroup v2 too)"),
	BOOL("cgroup_nodelete", cgroup_nodelete, "0", "keep the cgroups the run created"),
	FUNC("numa_cpu_nodes", opt_cb_numa_cpu_nodes, "str", NULL, "run the job's thread on the CPUs of these NUMA nodes, e.g. 0 or 0-1"),
	FUNC("numa_mem_policy", opt_cb_numa_mem_policy, "str", "default", "memory policy of the job's thread and buffers", .posval = numa_mem_policy_words, .word_case = true, .word_what = "memory policy"),
	FUNC("clocksource", opt_cb_clocksource, "str", "auto", "clock for timing: cpu (TSC), clock_gettime or gettimeofday (auto: cpu where the TSC is invariant)"),
	UINT("gtod_cpu", gtod_cpu, 0, 0, "0", "take this CPU out of the job's cpus_allowed/cpumask, as fio does for its time-keeping thread (iobench needs none: its clock is the TSC or the vDSO, no system call); 0 and a job without a CPU set: nothing, as in fio"),
	FUNC("gtod_reduce", opt_cb_gtod_reduce, "bool", "0", "skip latency and bandwidth measurement (sets every disable_* option)", .is_flag = true),
	BOOL("disable_lat", disable_lat, "0", "do not measure total latency"),
	BOOL("disable_clat", disable_clat, "0", "do not measure completion latency"),
	BOOL("disable_slat", disable_slat, "0", "do not measure submission latency"),
	BOOL("disable_bw_measurement", disable_bw, "0", "do not sample bandwidth and IOPS", .alias = { "disable_bw" }),
};

const size_t option_table_len = ARRAY_SIZE(option_table);
