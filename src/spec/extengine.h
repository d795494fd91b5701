/*
 * fio engines iobench does not provide: the external ones that fio 3.33 as
 * Debian builds it loads as modules (rbd, rados, gfapi, libpmem, nbd...),
 * each with its library and its option names, and those that build of fio
 * cannot load either (http, nfs, xnvme, cpp_null, the librpma ones...).
 * ioengine= names one of them: the job is refused with one message about
 * the engine, and the loadable engine's own options are taken by name only
 * (the job never runs), so the message is about the engine and not about
 * each of its options.
 */
#ifndef IOBENCH_SPEC_EXTENGINE_H
#define IOBENCH_SPEC_EXTENGINE_H

#include <stdbool.h>

struct fio_ext_engine {
	const char *name;
	const char *needs;            /* what fio builds it on (librbd...); NULL: not in Debian's fio */
	const char *const *options;   /* its option names, NULL-terminated */
};

/* The engine named name ("external:..." is fio's own loader), or NULL. */
const struct fio_ext_engine *fio_ext_engine_find(const char *name);
/* Does e declare the option key? */
bool fio_ext_engine_has(const struct fio_ext_engine *e, const char *key);
/* The first engine with option key, NULL if none. */
const struct fio_ext_engine *fio_ext_engine_having(const char *key);
/* Is key an option of some engine Debian's fio loads (and of none of
 * iobench's, nor a job option)? For the job-file parser's engine pass. */
bool fio_ext_engine_option(const char *key);
/* The refusal of ioengine=e, into buf: "ioengine 'rbd' is a fio external
 * engine (librbd) that iobench does not provide"; returns buf. */
const char *fio_ext_engine_why(const struct fio_ext_engine *e, const char *as_written,
			       char *buf, unsigned long len);
/* Into buf, for an option key that only such engines declare:
 * "option 'pool' belongs to fio's external engines rbd and rados, which
 * iobench does not provide"; NULL (buf untouched) when none declares it, or
 * when fio's own engines (io_uring, libaio) declare it too (cmdprio...). */
const char *fio_ext_engine_option_why(const char *key, char *buf, unsigned long len);

#endif
