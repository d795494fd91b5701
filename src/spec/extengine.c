/*
 * The fio engines iobench does not provide (extengine.h): those fio 3.33 as
 * Debian builds it has, from `fio --enghelp` (the libraries from `ldd
 * /usr/bin/fio`), with the option names `fio --enghelp=NAME` lists for
 * each; and those that build cannot load ("fio: engine http not
 * loadable"), whose options fio refuses too ("Bad option"), so none are
 * listed for them.
 */
#include "spec/extengine.h"
#include "spec/options.h"
#include "util/array.h"

#include <stdio.h>
#include <string.h>

#define OPTS(...) (const char *const[]){ __VA_ARGS__, NULL }
#define NONE (const char *const[]){ NULL }
static const char *const gluster_opts[] = { "volume", "brick", "single-instance", NULL };
static const char *const ceph_rbd_opts[] = { "clustername", "rbdname", "pool", "clientname",
					     "busy_poll", NULL };

static const struct fio_ext_engine ext_engines[] = {
	/* in fio 3.33 as Debian builds it */
	{ "gfapi", "libgfapi, GlusterFS", gluster_opts },
	{ "gfapi_async", "libgfapi, GlusterFS", gluster_opts },
	{ "mtd", "an MTD flash device, /dev/mtdN", OPTS("skip_bad") },
	{ "io_uring_cmd", "NVMe pass-through on a /dev/ngXnY device",
	  OPTS("hipri", "cmdprio_percentage", "cmdprio_class", "cmdprio", "cmdprio_bssplit",
	       "fixedbufs", "registerfiles", "sqthread_poll", "sqthread_poll_cpu", "nonvectored",
	       "uncached", "nowait", "force_async", "cmd_type") },
	{ "nbd", "libnbd", OPTS("uri") },
	{ "rdma", "libibverbs and librdmacm", OPTS("hostname", "bindname", "port", "verb") },
	{ "rados", "librados, Ceph",
	  OPTS("clustername", "pool", "clientname", "conf", "busy_poll", "touch_objects") },
	{ "rbd", "librbd, Ceph", ceph_rbd_opts },
	{ "pmemblk", "libpmemblk, persistent memory", NONE },
	{ "dev-dax", "libpmem, a /dev/daxN.M device", NONE },
	{ "libpmem", "libpmem, persistent memory", NONE },
	/* not in that build of fio */
	{ "xnvme", NULL, NONE },
	{ "http", NULL, NONE },
	{ "nfs", NULL, NONE },
	{ "libiscsi", NULL, NONE },
	{ "libhdfs", NULL, NONE },
	{ "cpp_null", NULL, NONE },
	{ "librpma_apm_client", NULL, NONE },
	{ "librpma_apm_server", NULL, NONE },
	{ "librpma_gpspm_client", NULL, NONE },
	{ "librpma_gpspm_server", NULL, NONE },
	{ "dfs", NULL, NONE },
	{ "libcufile", NULL, NONE },
	{ "ime_psync", NULL, NONE },
	{ "ime_psyncv", NULL, NONE },
	{ "ime_aio", NULL, NONE },
	{ "libzbc", NULL, NONE },
	{ "windowsaio", NULL, NONE },
	{ "solarisaio", NULL, NONE },
	{ "guasi", NULL, NONE },
	{ "binject", NULL, NONE },
	{ "external", NULL, NONE },
};
#define NR_EXT (ARRAY_SIZE(ext_engines))

const struct fio_ext_engine *fio_ext_engine_find(const char *name)
{
	if (!name)
		return NULL;
	if (!strncmp(name, "external:", 9))
		name = "external";
	for (size_t i = 0; i < NR_EXT; i++)
		if (!strcmp(ext_engines[i].name, name))
			return &ext_engines[i];
	return NULL;
}

bool fio_ext_engine_has(const struct fio_ext_engine *e, const char *key)
{
	for (size_t i = 0; e && key && e->options[i]; i++)
		if (!strcmp(e->options[i], key))
			return true;
	return false;
}

const struct fio_ext_engine *fio_ext_engine_having(const char *key)
{
	for (size_t i = 0; i < NR_EXT; i++)
		if (fio_ext_engine_has(&ext_engines[i], key))
			return &ext_engines[i];
	return NULL;
}

bool fio_ext_engine_option(const char *key)
{
	return !option_find_any(key) && fio_ext_engine_having(key);
}

const char *fio_ext_engine_why(const struct fio_ext_engine *e, const char *as_written,
			       char *buf, unsigned long len)
{
	if (!strcmp(e->name, "external"))
		snprintf(buf, len, "ioengine '%s' loads an engine from a shared object, which iobench "
			 "does not do (its engines are built in: 'iobench run --enghelp' lists them)",
			 as_written);
	else if (e->needs)
		snprintf(buf, len, "ioengine '%s' is a fio external engine (%s) that iobench does not "
			 "provide", as_written, e->needs);
	else
		snprintf(buf, len, "ioengine '%s' is not in fio 3.33 as Debian builds it (fio: engine %s "
			 "not loadable) and iobench does not provide it", as_written, as_written);
	return buf;
}

const char *fio_ext_engine_option_why(const char *key, char *buf, unsigned long len)
{
	/* io_uring_cmd's options that fio's io_uring (and libaio) have too and
	 * iobench's do not yet: those keep the "not implemented yet" message */
	static const char *const shared[] = { "cmdprio", "cmdprio_class", "cmdprio_percentage",
					      "cmdprio_bssplit", "force_async" };
	for (size_t i = 0; i < ARRAY_SIZE(shared); i++)
		if (!strcmp(key, shared[i]))
			return NULL;
	const char *who[NR_EXT];
	size_t n = 0;
	for (size_t i = 0; i < NR_EXT; i++)
		if (fio_ext_engine_has(&ext_engines[i], key) &&
		    !(n && ext_engines[i].options == fio_ext_engine_find(who[n - 1])->options))
			who[n++] = ext_engines[i].name;
	if (!n)
		return NULL;
	size_t w = (size_t)snprintf(buf, len, "option '%s' belongs to fio's external engine%s ", key,
				    n > 1 ? "s" : "");
	for (size_t i = 0; i < n && w < len; i++)
		w += (size_t)snprintf(buf + w, len - w, "%s%s", i == 0 ? "" : i + 1 == n ? " and " : ", ",
				      who[i]);
	if (w < len)
		snprintf(buf + w, len - w, ", which iobench does not provide");
	return buf;
}
