/*
 * The verify options' side of data verification (verify/verify.h): the
 * verify_pattern syntax (spec/verify_pattern.c: parsed when the option is
 * set, rendered per job by verify_cfg_init), and the callbacks of verify=
 * and verify_pattern= (spec/verify_opts.c). Here, below verify/, so that
 * the option table reaches them without including the layer above it.
 */
#ifndef IOBENCH_SPEC_VERIFY_OPTS_H
#define IOBENCH_SPEC_VERIFY_OPTS_H

#include <stddef.h>
#include <stdint.h>

#include "spec/jobspec.h"

struct opt_ctx;

/* A verify_pattern rendered: its bytes and where each %o goes. */
struct vpattern {
	uint8_t *bytes;        /* the pattern with zeros where %o goes */
	size_t len;
	size_t *slots;         /* byte positions of each %o (8 bytes, little-endian) */
	unsigned nr_slots;
};

/* ---- verify_pattern (verify_pattern.c) ---- */

#define VPATTERN_MAX 512

/* Parse fio's verify_pattern syntax: 0xHEX (bytes as written), decimal
 * (little-endian, 1-4 bytes, negative as 32 bits), "text", and %o (the
 * chunk's offset, 8 bytes little-endian), concatenated. */
int vpattern_parse(const char *text, struct vpattern *p, char *why, size_t whylen);
void vpattern_release(struct vpattern *p);
/* Fill buf[0..len) with the pattern repeated, %o set to `offset`. */
void vpattern_fill(const struct vpattern *p, uint64_t offset, uint8_t *buf, uint64_t len);

/* ---- options (verify_opts.c) ---- */

/* The verify= spelling of a type ("crc32c", "meta", ...; "0" for none). */
const char *verify_type_name(enum verify_type t);
int opt_cb_verify_pattern(void *target, const char *val, struct opt_ctx *c);
int opt_cb_buffer_pattern(void *target, const char *val, struct opt_ctx *c);

#endif
