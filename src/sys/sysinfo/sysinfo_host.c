/*
 * Host part of the system capture (sysinfo.h): kernel (uname), distribution
 * (/etc/os-release, else /usr/lib/os-release), CPU model and count, cpu0's
 * frequency governor and range, memory and swap (/proc/meminfo,
 * /proc/swaps), and the VM writeback settings and transparent hugepage mode
 * that change what a benchmark measures. A file that is not there leaves
 * its facts unset.
 */
#include "sys/sysinfo/sysinfo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "sys/dev/devres.h"
#include "util/array.h"
#include "util/xmalloc.h"

/* A number from a one-line /proc or /sys file; SYSINFO_UNSET if absent. */
static int64_t read_num(const char *file)
{
	char buf[64], *end;
	long long v;

	if (devres_read_line(file, buf, sizeof(buf)))
		return SYSINFO_UNSET;
	v = strtoll(buf, &end, 10);
	return end == buf ? SYSINFO_UNSET : (int64_t)v;
}

static char *read_str(const char *file)
{
	char buf[512];

	if (devres_read_line(file, buf, sizeof(buf)) || !buf[0])
		return NULL;
	return xstrdup(buf);
}

static char *read_bracketed(const char *file)
{
	char buf[512];

	if (devres_read_line(file, buf, sizeof(buf)))
		return NULL;
	return sysinfo_bracketed(buf);
}

static void capture_kernel(struct sysinfo_host *h)
{
	struct utsname u;
	char *text;

	if (!uname(&u)) {
		h->hostname = xstrdup(u.nodename);
		h->kernel_release = xstrdup(u.release);
		h->kernel_version = xstrdup(u.version);
		h->machine = xstrdup(u.machine);
	}
	if (sysinfo_read_file("/etc/os-release", &text) && sysinfo_read_file("/usr/lib/os-release", &text))
		return;
	h->distro_id = sysinfo_os_release_value(text, "ID");
	h->distro_version = sysinfo_os_release_value(text, "VERSION_ID");
	h->distro_name = sysinfo_os_release_value(text, "PRETTY_NAME");
	free(text);
}

static void capture_cpu(struct sysinfo_host *h)
{
	const char *freq = "/sys/devices/system/cpu/cpu0/cpufreq";
	char file[128], *text;
	long n;

	if (!sysinfo_read_file("/proc/cpuinfo", &text)) {
		h->cpu_model = sysinfo_cpuinfo_model(text);
		free(text);
	}
	n = sysconf(_SC_NPROCESSORS_ONLN);
	h->cpus_online = n > 0 ? n : SYSINFO_UNSET;
	n = sysconf(_SC_NPROCESSORS_CONF);
	h->cpus_configured = n > 0 ? n : SYSINFO_UNSET;
	snprintf(file, sizeof(file), "%s/scaling_governor", freq);
	h->cpu_governor = read_str(file);
	snprintf(file, sizeof(file), "%s/scaling_driver", freq);
	h->cpu_freq_driver = read_str(file);
	snprintf(file, sizeof(file), "%s/cpuinfo_min_freq", freq);
	h->cpu_min_khz = read_num(file);
	snprintf(file, sizeof(file), "%s/cpuinfo_max_freq", freq);
	h->cpu_max_khz = read_num(file);
}

static void capture_memory(struct sysinfo_host *h)
{
	char *text;

	h->mem_total_bytes = h->mem_available_bytes = SYSINFO_UNSET;
	h->swap_total_bytes = h->swap_free_bytes = SYSINFO_UNSET;
	if (!sysinfo_read_file("/proc/meminfo", &text)) {
		h->mem_total_bytes = sysinfo_meminfo_bytes(text, "MemTotal");
		h->mem_available_bytes = sysinfo_meminfo_bytes(text, "MemAvailable");
		h->swap_total_bytes = sysinfo_meminfo_bytes(text, "SwapTotal");
		h->swap_free_bytes = sysinfo_meminfo_bytes(text, "SwapFree");
		free(text);
	}
	if (!sysinfo_read_file("/proc/swaps", &text)) {
		sysinfo_parse_swaps(text, &h->swaps, &h->nr_swaps);
		free(text);
	}
}

static void capture_vm(struct sysinfo_host *h)
{
	static const struct { const char *name; size_t off; } vm[] = {
#define VM(f) { #f, offsetof(struct sysinfo_host, f) }
		VM(dirty_ratio), VM(dirty_background_ratio), VM(dirty_bytes),
		VM(dirty_background_bytes), VM(dirty_expire_centisecs),
		VM(dirty_writeback_centisecs), VM(swappiness), VM(vfs_cache_pressure),
		VM(min_free_kbytes),
#undef VM
	};
	char file[128];

	for (size_t i = 0; i < ARRAY_SIZE(vm); i++) {
		snprintf(file, sizeof(file), "/proc/sys/vm/%s", vm[i].name);
		*(int64_t *)((char *)h + vm[i].off) = read_num(file);
	}
	h->thp_enabled = read_bracketed("/sys/kernel/mm/transparent_hugepage/enabled");
	h->thp_defrag = read_bracketed("/sys/kernel/mm/transparent_hugepage/defrag");
}

void sysinfo_host_capture(struct sysinfo_host *h)
{
	memset(h, 0, sizeof(*h));
	capture_kernel(h);
	capture_cpu(h);
	capture_memory(h);
	capture_vm(h);
}

void sysinfo_host_release(struct sysinfo_host *h)
{
	char **strs[] = {
		&h->hostname, &h->kernel_release, &h->kernel_version, &h->machine,
		&h->distro_id, &h->distro_version, &h->distro_name, &h->cpu_model,
		&h->cpu_governor, &h->cpu_freq_driver, &h->thp_enabled, &h->thp_defrag,
	};

	for (size_t i = 0; i < ARRAY_SIZE(strs); i++)
		free(*strs[i]);
	for (size_t i = 0; i < h->nr_swaps; i++) {
		free(h->swaps[i].name);
		free(h->swaps[i].type);
	}
	free(h->swaps);
	memset(h, 0, sizeof(*h));
}
