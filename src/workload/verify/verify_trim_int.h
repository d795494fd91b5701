/*
 * Trimming verified blocks (fio's trim_percentage, trim_backlog,
 * trim_backlog_batch, trim_verify_zero): of a verify job's writes, a seeded
 * hash of the write's sequence number picks trim_percentage percent, so the
 * read-back (and a later verify_only run of the same job) knows which
 * blocks were trimmed without remembering them. The picked writes wait in a
 * list until they are trimmed through the job's own engine: after every
 * trim_backlog writes (trim_backlog_batch of them, oldest first; 0: all),
 * and in any case before a read-back and at the end of the write pass. The
 * read-back then expects zeros where a block was trimmed (trim_verify_zero)
 * or skips it. A job may write a block more than once in a pass (zones that
 * wrap, norandommap): a pick whose block is written again before its trim is
 * not trimmed (the newer data stays, as fio drops the older write from its
 * log), the blocks trimmed are remembered by offset with the newest picked
 * write's number, so a read that expects an older write and finds zeros
 * knows a later write was trimmed there, and a picked write's read that
 * finds a newer write's header accepts it, as verify does.
 */
#ifndef IOBENCH_WORKLOAD_VERIFY_VERIFY_TRIM_INT_H
#define IOBENCH_WORKLOAD_VERIFY_VERIFY_TRIM_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct job;
struct job_file;

struct vtrim_rec {
	struct job_file *f;
	uint64_t off, len, seq;
};

/* A block (file, offset) and a write number; in an open-addressed map. */
struct vtrim_done {
	struct job_file *f;
	uint64_t off, seq;
};
struct vtrim_map {
	struct vtrim_done *slot; /* cap slots, a power of two; seq 0: empty */
	size_t n, cap;
};

struct vtrim {
	unsigned percent;        /* trim_percentage; 0: off */
	uint64_t seed;
	struct vtrim_rec *pending; /* picked writes not trimmed yet, oldest first */
	size_t n, cap;
	uint64_t since;          /* writes since the last trim_backlog turn */
	struct vtrim_map done;   /* the blocks trimmed: the newest picked write trimmed */
	struct vtrim_map last;   /* blocks picked: the newest write (a newer one cancels the trim) */
};

void vtrim_init(struct vtrim *t, unsigned percent, uint64_t seed);
void vtrim_release(struct vtrim *t);
/* Whether the write with this sequence number is (to be) trimmed. */
bool vtrim_picked(const struct vtrim *t, uint64_t seq);
/* A write being filled: remember it when it is picked. 0 or -ENOMEM. */
int vtrim_note_write(struct vtrim *t, struct job_file *f, uint64_t off, uint64_t len, uint64_t seq);
/* After a write was issued: a trim_backlog turn when one is due. */
int vtrim_after_write(struct job *j, struct vtrim *t);
/* Trim every pending block (before a read-back, at the end of a pass). */
int vtrim_flush(struct job *j, struct vtrim *t);
/* Whether a write newer than seq was trimmed at (f, off). */
bool vtrim_trimmed_after(const struct vtrim *t, const struct job_file *f, uint64_t off, uint64_t seq);

#endif
