/*
 * Every engine's ops table, one extern per engine file. registry.c lists them
 * in its one array; nothing else should need this header except tests that
 * want a table without a name lookup.
 */
#ifndef IOBENCH_ENGINES_ENGINES_LIST_INT_H
#define IOBENCH_ENGINES_ENGINES_LIST_INT_H

#include "engines/engine.h"

extern const struct engine_ops engine_sync;
extern const struct engine_ops engine_psync;
extern const struct engine_ops engine_vsync;
extern const struct engine_ops engine_pvsync;
extern const struct engine_ops engine_pvsync2;
extern const struct engine_ops engine_null;
extern const struct engine_ops engine_io_uring;
extern const struct engine_ops engine_libaio;
extern const struct engine_ops engine_posixaio;
extern const struct engine_ops engine_mmap;
extern const struct engine_ops engine_faulty;
extern const struct engine_ops engine_filecreate;
extern const struct engine_ops engine_filestat;
extern const struct engine_ops engine_filedelete;
extern const struct engine_ops engine_ftruncate;
extern const struct engine_ops engine_falloc;
extern const struct engine_ops engine_cpuio;
extern const struct engine_ops engine_exec;
extern const struct engine_ops engine_sg;
extern const struct engine_ops engine_splice;
extern const struct engine_ops engine_net;
extern const struct engine_ops engine_netsplice;
extern const struct engine_ops engine_e4defrag;

#endif
