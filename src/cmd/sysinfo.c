/*
 * `iobench sysinfo [PATH] [--json]`: what a benchmark of PATH (default .)
 * would run on: the host, memory and VM settings, and the whole device
 * chain under PATH with each filesystem's geometry and each block device's
 * queue tunables, as text or as one JSON object.
 */
#include "cli/command.h"
#include "cli/output.h"

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "report/sysinfo_report.h"
#include "sys/sysinfo/sysinfo.h"
#include "util/error.h"
#include "util/json.h"

static const char sysinfo_usage[] =
	"usage: iobench sysinfo [PATH] [--json]\n"
	"\n"
	"Print the kernel and distribution, CPU, memory, swap and VM settings,\n"
	"and the device chain under PATH (default .): its filesystem with mount\n"
	"options and geometry (XFS, ext2/3/4, btrfs), the partitions and disks\n"
	"below it, loop devices' backing files, btrfs members, md and dm slaves,\n"
	"and each block device's facts and queue tunables.\n"
	"\n"
	"options:\n";

struct sysinfo_opts {
	const char *path;
	bool json;
};

static const struct cmdopt sysinfo_rows[] = {
	{ "json", 0, CMDOPT_NOARG, CMDOPT_TRUE, offsetof(struct sysinfo_opts, json), NULL, 0, NULL,
	  "print the same as one JSON object (the one run, quick and bonnie store)" },
	CMDOPT_END,
};

static int one_path(void *arg, const char *word, char *why, size_t len)
{
	struct sysinfo_opts *o = arg;
	if (o->path) {
		snprintf(why, len, "sysinfo: one path only, not '%s' and '%s'", o->path, word);
		return -EINVAL;
	}
	o->path = word;
	return 0;
}

static int run_sysinfo(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct sysinfo_opts o = { NULL, false };
	struct sysinfo si;
	struct stat st;
	int ret;

	struct cmdopt_parser p;
	command_parser(&p, ctx->cmd, &o, NULL);
	p.operand = one_path;
	p.operand_arg = &o;
	ret = command_parse(ctx, &p, argc, argv, NULL);
	if (ret)
		return ret > 0 ? 0 : 1;
	const char *path = o.path;
	bool json = o.json;
	if (!path)
		path = ".";
	if (stat(path, &st)) {
		error_errno(-errno, "sysinfo: cannot examine '%s'", path);
		return 1;
	}
	ret = sysinfo_capture(&si, path);
	if (ret) {
		sysinfo_release(&si);
		error_errno(ret, "sysinfo: cannot examine '%s'", path);
		return 1;
	}
	if (json) {
		struct json_writer w;
		json_init(&w, stdout);
		sysinfo_json_write(&w, &si);
		ret = json_finish(&w);
	} else {
		ret = sysinfo_text_write(&si, stdout);
	}
	sysinfo_release(&si);
	if (output_check(stdout, NULL, NULL) < 0)
		return 1;
	if (ret) {
		error_errno(ret, "sysinfo: cannot write the output");
		return 1;
	}
	return 0;
}

const struct command cmd_sysinfo = {
	.name = "sysinfo",
	.summary = "show the host and the device chain, tunables and geometry under a path",
	.usage = sysinfo_usage,
	.opts = sysinfo_rows,
	.common = COMMON_HELP,
	.run = run_sysinfo,
};
