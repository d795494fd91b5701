/*
 * `iobench sysinfo [PATH] [--json]`: what a benchmark of PATH (default .)
 * would run on: the host, memory and VM settings, and the whole device
 * chain under PATH with each filesystem's geometry and each block device's
 * queue tunables, as text or as one JSON object.
 */
#include "cmd/command.h"
#include "cmd/output.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "report/sysinfo_report.h"
#include "sys/sysinfo.h"
#include "util/error.h"
#include "util/json.h"

static const char sysinfo_usage[] =
	"usage: iobench sysinfo [PATH] [--json]\n"
	"\n"
	"Print the kernel and distribution, CPU, memory, swap and VM settings,\n"
	"and the device chain under PATH (default .): its filesystem with mount\n"
	"options and geometry (XFS, ext2/3/4, btrfs), the partitions and disks\n"
	"below it, loop devices' backing files, btrfs members, md and dm slaves,\n"
	"and each block device's facts and queue tunables. --json prints the\n"
	"same as one JSON object (the one run, quick and bonnie store).\n";

static int run_sysinfo(int argc, char **argv)
{
	const char *path = NULL;
	bool json = false;
	struct sysinfo si;
	struct stat st;
	int ret;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(sysinfo_usage, stdout);
			return 0;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			error("sysinfo: unknown option '%s'", argv[i]);
			fputs(sysinfo_usage, stderr);
			return 1;
		} else if (path) {
			error("sysinfo: one path only, not '%s' and '%s'", path, argv[i]);
			return 1;
		} else {
			path = argv[i];
		}
	}
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
	.run = run_sysinfo,
};
