/*
 * The monitor's probe (monitor.h): device resolution, the open /proc files
 * and one sample read with pread() into the probe's buffer. Opening costs
 * allocations; taking a sample does not (unless a file outgrows the buffer).
 */
#include "sys/monitor/monitor.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "util/array.h"
#include "util/error.h"
#include "util/timeutil.h"
#include "util/xmalloc.h"

#define PROBE_BUFSIZE (256 * 1024)

int monitor_resolve_device(const char *arg, char name[64])
{
	struct diskstat *all = NULL;
	size_t n = 0;
	struct stat st;
	char path[PATH_MAX];
	bool by_number = false;
	int ret = diskstats_read(NULL, &all, &n);

	if (ret)
		return error_errno(ret, "cannot read '/proc/diskstats'");
	if (!strchr(arg, '/')) {
		for (size_t i = 0; i < n; i++) {
			if (!strcmp(all[i].name, arg)) {
				snprintf(name, 64, "%s", arg);
				free(all);
				return 0;
			}
		}
		snprintf(path, sizeof(path), "/dev/%s", arg);
	} else {
		snprintf(path, sizeof(path), "%s", arg);
	}
	if (stat(path, &st) == 0 && S_ISBLK(st.st_mode))
		by_number = true;
	for (size_t i = 0; by_number && i < n; i++) {
		if (all[i].major == major(st.st_rdev) && all[i].minor == minor(st.st_rdev)) {
			snprintf(name, 64, "%s", all[i].name);
			free(all);
			return 0;
		}
	}
	free(all);
	error("unknown device '%s'", arg);
	return -ENODEV;
}

/* Is name a whole disk (it has a /sys/block entry; '/' becomes '!')? */
static bool is_whole_disk(const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/block/%s", name);
	for (char *c = path + strlen("/sys/block/"); *c; c++)
		if (*c == '/')
			*c = '!';
	return access(path, F_OK) == 0;
}

static int open_ro(const char *path)
{
	return open(path, O_RDONLY | O_CLOEXEC);
}

static void probe_reset(struct monitor_probe *p)
{
	memset(p, 0, sizeof(*p));
	p->fd_diskstats = p->fd_stat = p->fd_loadavg = p->fd_meminfo = p->fd_vmstat = -1;
	p->fd_slab = -1;
	for (unsigned r = 0; r < PSI_NR; r++)
		p->fd_psi[r] = -1;
}

static int pick_devices(struct monitor_probe *p, const char *const *devs, unsigned ndev)
{
	if (ndev > MONITOR_MAX_DEVS)
		return error("too many devices (%u, at most %d)", ndev, MONITOR_MAX_DEVS);
	p->names = xcalloc(ndev ? ndev : MONITOR_MAX_DEVS, sizeof(*p->names));
	if (ndev) {
		for (unsigned i = 0; i < ndev; i++) {
			int ret = monitor_resolve_device(devs[i], p->names[p->ndev]);
			if (ret)
				return ret;
			bool dup = false;
			for (unsigned j = 0; j < p->ndev; j++)
				dup |= !strcmp(p->names[j], p->names[p->ndev]);
			if (!dup)
				p->ndev++;
		}
	} else {
		struct diskstat *all = NULL;
		p->all_disks = true;
		size_t n = 0;
		int ret = diskstats_read(NULL, &all, &n);
		if (ret)
			return error_errno(ret, "cannot read '/proc/diskstats'");
		for (size_t i = 0; i < n && p->ndev < MONITOR_MAX_DEVS; i++)
			if (is_whole_disk(all[i].name))
				snprintf(p->names[p->ndev++], 64, "%s", all[i].name);
		free(all);
	}
	p->last = xcalloc(p->ndev ? p->ndev : 1, sizeof(*p->last));
	for (unsigned d = 0; d < p->ndev; d++)
		snprintf(p->last[d].name, sizeof(p->last[d].name), "%s", p->names[d]);
	return 0;
}

int monitor_probe_open(struct monitor_probe *p, const char *const *devs, unsigned ndev)
{
	static const struct { const char *path; size_t off; } files[] = {
		{ "/proc/diskstats", offsetof(struct monitor_probe, fd_diskstats) },
		{ "/proc/stat", offsetof(struct monitor_probe, fd_stat) },
		{ "/proc/loadavg", offsetof(struct monitor_probe, fd_loadavg) },
		{ "/proc/meminfo", offsetof(struct monitor_probe, fd_meminfo) },
		{ "/proc/vmstat", offsetof(struct monitor_probe, fd_vmstat) },
	};
	int ret;

	probe_reset(p);
	ret = pick_devices(p, devs, ndev);
	if (ret) {
		monitor_probe_close(p);
		return ret;
	}
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		int fd = open_ro(files[i].path);
		if (fd < 0) {
			ret = -errno;
			monitor_probe_close(p);
			return error_errno(ret, "cannot open '%s'", files[i].path);
		}
		*(int *)((char *)p + files[i].off) = fd;
	}
	for (unsigned r = 0; r < PSI_NR; r++) {
		char path[64];
		snprintf(path, sizeof(path), "/proc/pressure/%s", psi_resource_name(r));
		p->fd_psi[r] = open_ro(path); /* absent without CONFIG_PSI */
	}
	p->fd_slab = open_ro("/proc/slabinfo"); /* root only */
	p->bufsize = PROBE_BUFSIZE;
	p->buf = xmalloc(p->bufsize);
	return 0;
}

void monitor_probe_close(struct monitor_probe *p)
{
	int *fds[] = { &p->fd_diskstats, &p->fd_stat, &p->fd_loadavg, &p->fd_meminfo,
		       &p->fd_vmstat, &p->fd_slab, &p->fd_psi[0], &p->fd_psi[1], &p->fd_psi[2] };

	for (size_t i = 0; i < ARRAY_SIZE(fds); i++)
		if (*fds[i] >= 0)
			close(*fds[i]);
	free(p->names);
	free(p->last);
	free(p->buf);
	probe_reset(p);
}

/* Read fd into the probe's buffer, growing it when the file outgrew it. */
static int load(struct monitor_probe *p, int fd)
{
	for (;;) {
		long len = procfile_pread(fd, p->buf, p->bufsize);
		if (len != -EFBIG)
			return len < 0 ? (int)len : 0;
		p->bufsize *= 2;
		p->buf = xrealloc(p->buf, p->bufsize);
	}
}

static int take_disks(struct monitor_probe *p, struct diskstat *disks)
{
	int ret = load(p, p->fd_diskstats);

	if (ret)
		return ret;
	for (unsigned d = 0; d < p->ndev; d++)
		disks[d] = p->last[d];
	for (const char *line = p->buf; *line;) {
		const char *eol = strchr(line, '\n');
		struct diskstat s;
		const char *first = line + strspn(line, " \t");
		if (*first && *first != '\n' && diskstat_parse_line(line, &s) == 0) {
			for (unsigned d = 0; d < p->ndev; d++) {
				if (!strcmp(s.name, p->names[d])) {
					disks[d] = p->last[d] = s;
					break;
				}
			}
		}
		if (!eol)
			break;
		line = eol + 1;
	}
	return 0;
}

int monitor_probe_take(struct monitor_probe *p, struct monitor_sample *s, struct diskstat *disks)
{
	int ret;

	memset(s, 0, sizeof(*s));
	s->t_ns = now_ns();
	if ((ret = take_disks(p, disks)))
		return ret;
	if ((ret = load(p, p->fd_stat)) || (ret = procstat_parse_stat(p->buf, &s->stat)))
		return ret;
	if ((ret = load(p, p->fd_loadavg)) || (ret = procstat_parse_loadavg(p->buf, &s->load)))
		return ret;
	if ((ret = load(p, p->fd_meminfo)) || (ret = procstat_parse_meminfo(p->buf, &s->mem)))
		return ret;
	if ((ret = load(p, p->fd_vmstat)) || (ret = procstat_parse_vmstat(p->buf, &s->vm)))
		return ret;
	for (unsigned r = 0; r < PSI_NR; r++)
		if (p->fd_psi[r] >= 0 && load(p, p->fd_psi[r]) == 0)
			procstat_parse_psi(p->buf, &s->psi[r]);
	if (p->fd_slab >= 0 && load(p, p->fd_slab) == 0)
		procstat_parse_slabinfo(p->buf, &s->slab);
	return 0;
}
