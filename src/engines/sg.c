/*
 * The "sg" engine, fio's SCSI generic engine, as far as this machine lets
 * it be checked: its options parse as fio's (hipri, readfua, writefua,
 * sg_write_mode with fio's values and deprecated spellings, stream_id),
 * and a job is refused with a message saying what it would need. A file
 * that is not a block or character device is refused as fio refuses it;
 * a device that does not answer SG_GET_VERSION_NUM is not a SCSI generic
 * device; and SCSI commands themselves (READ/WRITE(16), WRITE SAME, VERIFY
 * through SG_IO) are not issued yet, since no /dev/sg device exists where
 * iobench is tested: the refusal says so rather than doing plain I/O that
 * would measure something else. Nothing is laid out (fio's sg lays out
 * nothing either: it works on devices).
 */
#include "engines/engine.h"
#include "util/array.h"
#include "util/error.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <scsi/sg.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

enum sg_write_mode {
	SG_WRITE, SG_WRITE_VERIFY, SG_WRITE_SAME, SG_WRITE_SAME_NDOB, SG_VERIFY_BYTCHK_00,
	SG_VERIFY_BYTCHK_01, SG_VERIFY_BYTCHK_11, SG_WRITE_STREAM,
};

struct sg_opts {
	bool hipri, readfua, writefua;
	int write_mode;     /* enum sg_write_mode */
	unsigned stream_id; /* WRITE STREAM(16)'s stream */
};

#define WM(w, v, h) { .word = w, .value = v, .help = h }
static const struct opt_posval write_mode_words[] = {
	WM("write", SG_WRITE, NULL),
	WM("write_and_verify", SG_WRITE_VERIFY, NULL),
	WM("verify", SG_WRITE_VERIFY, "fio's deprecated spelling of write_and_verify"),
	WM("write_same", SG_WRITE_SAME, NULL),
	WM("same", SG_WRITE_SAME, "fio's deprecated spelling of write_same"),
	WM("write_same_ndob", SG_WRITE_SAME_NDOB, NULL),
	WM("verify_bytchk_00", SG_VERIFY_BYTCHK_00, NULL),
	WM("verify_bytchk_01", SG_VERIFY_BYTCHK_01, NULL),
	WM("verify_bytchk_11", SG_VERIFY_BYTCHK_11, NULL),
	WM("write_stream", SG_WRITE_STREAM, NULL),
	{ .word = NULL },
};
#undef WM

#define O(field) offsetof(struct sg_opts, field)
static const struct option_def sg_options[] = {
	{ .name = "hipri", .type = OPT_BOOL, .off = O(hipri), .type_text = "bool", .def = "0", .is_flag = true, .help = "polled completions (SGV4_FLAG_HIPRI)" },
	{ .name = "readfua", .type = OPT_BOOL, .off = O(readfua), .type_text = "bool", .def = "0", .is_flag = true, .help = "set FUA (force unit access) on every read" },
	{ .name = "writefua", .type = OPT_BOOL, .off = O(writefua), .type_text = "bool", .def = "0", .is_flag = true, .help = "set FUA (force unit access) on every write" },
	{ .name = "sg_write_mode", .type = OPT_WORD, .off = O(write_mode), .width = sizeof(int), .posval = write_mode_words, .word_case = true, .word_what = "SCSI write mode", .word_use = "one of", .word_commas = true, .type_text = "str", .def = "write", .help = "SCSI command of writes" },
	{ .name = "stream_id", .type = OPT_UINT, .off = O(stream_id), .width = sizeof(unsigned), .max = 65535, .type_text = "int", .def = "0", .help = "stream of WRITE STREAM(16) commands" },
};
#undef O

static bool have_sg_devices(void)
{
	glob_t g;
	bool any = glob("/dev/sg[0-9]*", 0, NULL, &g) == 0 && g.gl_pathc > 0;
	globfree(&g);
	return any;
}

static int sg_open(struct engine_ctx *ctx, struct job_file *f)
{
	(void)ctx;
	struct stat st;
	if (stat(f->path, &st) < 0)
		return error_errno(-errno, "sg: cannot use '%s'%s", f->path,
				   have_sg_devices() ? "" : " (and this machine has no /dev/sg device: "
				   "the sg engine needs a SCSI disk and the sg kernel module)");
	if (!S_ISBLK(st.st_mode) && !S_ISCHR(st.st_mode))
		return error("sg: '%s' is not a block or character device: the sg engine works only on "
			     "SCSI devices (/dev/sgN or a SCSI disk), as fio's%s", f->path,
			     have_sg_devices() ? "" : "; this machine has no /dev/sg device");
	int fd = open(f->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return error_errno(-errno, "sg: cannot open '%s'", f->path);
	int version = 0;
	int rc = ioctl(fd, SG_GET_VERSION_NUM, &version);
	close(fd);
	if (rc < 0)
		return error("sg: '%s' does not answer SG_GET_VERSION_NUM: it is not a SCSI generic "
			     "device (use /dev/sgN or a SCSI disk)", f->path);
	return error("sg: '%s' is a SCSI generic device (sg driver %d), but iobench does not issue "
		     "SCSI commands yet; to measure it, run psync or io_uring on its block device",
		     f->path, version);
}

static int sg_close(struct engine_ctx *ctx, struct job_file *f)
{
	(void)ctx;
	(void)f;
	return 0;
}

static int sg_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	(void)ctx;
	u->result = -EOPNOTSUPP; /* sg_open() lets no file through */
	return ENGINE_Q_COMPLETED;
}

const struct engine_ops engine_sg = {
	.name = "sg",
	.summary = "fio's SCSI generic engine: its options parse; a job is refused, saying what it needs",
	.flags = ENGINE_SYNC | ENGINE_NO_LAYOUT,
	.options = sg_options,
	.nr_options = ARRAY_SIZE(sg_options),
	.options_size = sizeof(struct sg_opts),
	.open_file = sg_open,
	.close_file = sg_close,
	.queue = sg_queue,
};
