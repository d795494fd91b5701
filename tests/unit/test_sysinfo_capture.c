/*
 * The system capture on this machine and its writers: host facts agree with
 * uname, sysconf and /proc/sys/vm; capturing "/" and a not-yet-existing path below /tmp
 * gives a chain that starts at the path and names each filesystem and
 * device once; a hand-made capture is written as JSON with unread facts
 * left out, as full text, and as a short header of 3 to 6 prefixed lines.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "check.h"
#include "report/sysinfo_report.h"
#include "sys/sysinfo/sysinfo.h"
#include "util/array.h"
#include "util/json.h"
#include "util/xmalloc.h"

/* The number in a /proc file, -2 if it cannot be read (never a match). */
static long long proc_num(const char *path)
{
	long long v = -2;
	FILE *f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%lld", &v) != 1)
			v = -2;
		fclose(f);
	}
	return v;
}

static void test_live(void)
{
	struct sysinfo si;
	struct utsname u;

	CHECK(sysinfo_capture(&si, "/") == 0, "capture /");
	CHECK(si.version == SYSINFO_VERSION && !strcmp(si.path, "/"), "version and path");
	CHECK(!uname(&u) && si.host.kernel_release && !strcmp(si.host.kernel_release, u.release), "kernel release");
	CHECK(si.host.cpus_online == sysconf(_SC_NPROCESSORS_ONLN), "cpus online %lld", (long long)si.host.cpus_online);
	CHECK(si.host.mem_total_bytes > 0, "memory total");
	CHECK(si.host.dirty_ratio == proc_num("/proc/sys/vm/dirty_ratio") &&
	      si.host.swappiness == proc_num("/proc/sys/vm/swappiness"),
	      "vm settings as /proc/sys/vm has them: dirty_ratio %lld, swappiness %lld",
	      (long long)si.host.dirty_ratio, (long long)si.host.swappiness);
	CHECK(si.nr_nodes >= 2 && si.nodes[0].kind == SYSINFO_NODE_FILE && si.nodes[0].parent == -1 &&
	      !strcmp(si.nodes[0].path, "/"), "chain starts at the path");
	CHECK(si.nr_nodes >= 2 && si.nodes[1].kind == SYSINFO_NODE_FS && si.nodes[1].parent == 0 &&
	      si.nr_fs >= 1 && !strcmp(si.fs[si.nodes[1].index].mountpoint, "/"), "then its filesystem");
	for (size_t i = 0; i < si.nr_nodes; i++) {
		const struct sysinfo_node *n = &si.nodes[i];
		CHECK(n->parent < (int)i, "node %zu after its parent", i);
		if (n->kind == SYSINFO_NODE_BDEV)
			CHECK(n->index < si.nr_bdevs, "device index");
	}
	for (size_t i = 0; i < si.nr_bdevs; i++)
		for (size_t j = i + 1; j < si.nr_bdevs; j++)
			CHECK(strcmp(si.bdevs[i].name, si.bdevs[j].name), "device %s kept once", si.bdevs[i].name);
	sysinfo_release(&si);
	CHECK(si.nr_nodes == 0 && !si.path, "release clears");
	sysinfo_release(&si); /* twice is harmless */

	char *missing = xasprintf("/tmp/iobench-sysinfo-missing-%d/a/b", (int)getpid());
	CHECK(sysinfo_capture(&si, missing) == 0, "a missing path resolves through its parent");
	CHECK(si.nr_nodes >= 1 && !strcmp(si.nodes[0].path, "/tmp"), "root is /tmp: '%s'",
	      si.nr_nodes ? si.nodes[0].path : "");
	CHECK(!strcmp(si.path, missing), "path kept as asked");
	sysinfo_release(&si);
	free(missing);
}

/* A capture made by hand: one file on an xfs on a partition of sdz. */
static void make_fake(struct sysinfo *si)
{
	memset(si, 0, sizeof(*si));
	si->version = SYSINFO_VERSION;
	si->path = xstrdup("/data/f");
	struct sysinfo_host *h = &si->host;
	h->hostname = xstrdup("box");
	h->kernel_release = xstrdup("6.1.0-test");
	h->machine = xstrdup("x86_64");
	h->distro_name = xstrdup("Debian GNU/Linux 12 (bookworm)");
	h->cpu_model = xstrdup("Test CPU");
	h->cpus_online = h->cpus_configured = 4;
	h->cpu_governor = xstrdup("performance");
	h->cpu_min_khz = h->cpu_max_khz = SYSINFO_UNSET;
	h->mem_total_bytes = 8LL << 30;
	h->mem_available_bytes = SYSINFO_UNSET;
	h->swap_total_bytes = h->swap_free_bytes = 0;
	h->dirty_ratio = 20;
	h->dirty_background_ratio = 10;
	h->dirty_bytes = h->dirty_background_bytes = 0;
	h->dirty_expire_centisecs = 3000;
	h->dirty_writeback_centisecs = 500;
	h->swappiness = 60;
	h->vfs_cache_pressure = SYSINFO_UNSET;
	h->min_free_kbytes = 1024;
	h->thp_enabled = xstrdup("never");

	si->nr_fs = 1;
	si->fs = xcalloc(1, sizeof(*si->fs));
	si->fs[0].mountpoint = xstrdup("/data");
	si->fs[0].type = xstrdup("xfs");
	si->fs[0].source = xstrdup("/dev/sdz1");
	si->fs[0].options = xstrdup("rw,noatime");
	si->fs[0].devno = xstrdup("8:1");
	struct sysinfo_xfs *x = si->fs[0].xfs = xcalloc(1, sizeof(*x));
	x->blocksize = 4096;
	x->agcount = 32;
	x->sunit = 16;
	x->swidth = 112;
	x->inodesize = 512;
	x->log_version = 2;
	x->logblocks = 16384;
	x->log_internal = true;
	x->sectsize = x->agblocks = x->datablocks = x->imaxpct = x->dirblocksize = SYSINFO_UNSET;
	x->naming_version = x->logsectsize = x->logsunit = x->rtblocks = x->rtextents = x->rtextsize = SYSINFO_UNSET;

	si->nr_bdevs = 2;
	si->bdevs = xcalloc(2, sizeof(*si->bdevs));
	for (int i = 0; i < 2; i++) {
		struct sysinfo_bdev *b = &si->bdevs[i];
		int64_t *nums[] = { &b->partition_number, &b->start_sector, &b->size_bytes, &b->rotational,
				    &b->logical_block_size, &b->physical_block_size, &b->minimum_io_size,
				    &b->optimal_io_size, &b->read_ahead_kb, &b->nr_requests, &b->max_sectors_kb,
				    &b->max_hw_sectors_kb, &b->rq_affinity, &b->nomerges, &b->wbt_lat_usec,
				    &b->iostats, &b->loop_offset, &b->loop_dio, &b->md_chunk_size,
				    &b->md_raid_disks, &b->md_stripe_cache_size };
		for (size_t k = 0; k < ARRAY_SIZE(nums); k++)
			*nums[k] = SYSINFO_UNSET;
	}
	si->bdevs[0].name = xstrdup("sdz1");
	si->bdevs[0].partition = true;
	si->bdevs[0].partition_number = 1;
	si->bdevs[1].name = xstrdup("sdz");
	si->bdevs[1].model = xstrdup("TESTDISK");
	si->bdevs[1].rotational = 1;
	si->bdevs[1].scheduler = xstrdup("mq-deadline");
	si->bdevs[1].read_ahead_kb = 4096;
	si->bdevs[1].nr_requests = 256;

	static const struct { enum sysinfo_node_kind k; int parent; const char *rel; size_t index; } nodes[] = {
		{ SYSINFO_NODE_FILE, -1, NULL, 0 },
		{ SYSINFO_NODE_FS, 0, "on", 0 },
		{ SYSINFO_NODE_BDEV, 1, "source", 0 },
		{ SYSINFO_NODE_BDEV, 2, "disk", 1 },
	};
	si->nr_nodes = 4;
	si->nodes = xcalloc(4, sizeof(*si->nodes));
	for (int i = 0; i < 4; i++) {
		si->nodes[i].kind = nodes[i].k;
		si->nodes[i].parent = nodes[i].parent;
		si->nodes[i].relation = nodes[i].rel;
		si->nodes[i].index = nodes[i].index;
	}
	si->nodes[0].path = xstrdup("/data/f");
}

static char *capture_output(int which, const struct sysinfo *si)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json_writer w;

	if (which == 0) {
		json_init(&w, f);
		json_object_begin(&w);
		json_key(&w, "sysinfo");
		sysinfo_json_write(&w, si);
		json_object_end(&w);
		CHECK(json_finish(&w) == 0, "json complete");
	} else if (which == 1) {
		CHECK(sysinfo_text_write(si, f) == 0, "text written");
	} else {
		CHECK(sysinfo_text_short(si, "# ", f) == 0, "short written");
	}
	fclose(f);
	return buf;
}

static void test_writers(void)
{
	struct sysinfo si;
	char *s;

	make_fake(&si);
	s = capture_output(0, &si);
	CHECK(strstr(s, "\"sysinfo\" : {"), "nested under a key");
	CHECK(strstr(s, "\"sunit\" : 16") && strstr(s, "\"swidth\" : 112") && strstr(s, "\"agcount\" : 32"),
	      "xfs geometry");
	CHECK(strstr(s, "\"scheduler\" : \"mq-deadline\"") && strstr(s, "\"read_ahead_kb\" : 4096"), "queue");
	CHECK(!strstr(s, "vfs_cache_pressure") && !strstr(s, "mem_available_bytes") && !strstr(s, "\"imaxpct\""),
	      "unread facts left out");
	CHECK(strstr(s, "\"relation\" : \"disk\"") && strstr(s, "\"name\" : \"sdz\""), "chain");
	CHECK(strstr(s, "\"options\" : \"rw,noatime\""), "mount options");
	free(s);

	s = capture_output(1, &si);
	CHECK(strstr(s, "host: box, Linux 6.1.0-test x86_64, Debian GNU/Linux 12 (bookworm)"), "host line:\n%s", s);
	CHECK(strstr(s, "\n        disk sdz TESTDISK\n"), "chain indented by depth:\n%s", s);
	CHECK(strstr(s, "sunit=16 swidth=112"), "geometry");
	CHECK(strstr(s, "queue: scheduler=mq-deadline read_ahead_kb=4096 nr_requests=256"), "queue line");
	free(s);

	s = capture_output(2, &si);
	int lines = 0;
	bool prefixed = true;
	for (char *l = s; *l; l = strchr(l, '\n') + 1) {
		lines++;
		prefixed &= !strncmp(l, "# ", 2);
		if (!strchr(l, '\n'))
			break;
	}
	CHECK(lines >= 3 && lines <= 6, "short form has %d lines:\n%s", lines, s);
	CHECK(prefixed, "every line prefixed");
	CHECK(strstr(s, "xfs on /data (rw,noatime)") && strstr(s, "sunit=16 swidth=112"), "fs line:\n%s", s);
	CHECK(strstr(s, "devices: sdz1 sdz") && strstr(s, "queue: sdz scheduler=mq-deadline"), "devices:\n%s", s);
	free(s);
	sysinfo_release(&si);
}

int main(void)
{
	test_live();
	test_writers();
	return check_done("test_sysinfo_capture");
}
