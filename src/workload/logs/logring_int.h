/*
 * A bounded single-producer single-consumer ring of fixed-size records: a
 * job thread puts log samples in, the log writer thread (joblog_writer.c)
 * takes them out. Lock-free; head and tail live on their own cache lines
 * and the producer keeps its own copy of the tail, so the I/O path reads
 * the consumer's line only when its copy says the ring is full. The memory
 * is fixed when the ring is made: cap records of esize bytes.
 */
#ifndef IOBENCH_WORKLOAD_LOGS_LOGRING_INT_H
#define IOBENCH_WORKLOAD_LOGS_LOGRING_INT_H

#include <stdalign.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

struct logring {
	unsigned char *buf;
	size_t esize;
	uint32_t cap, mask;          /* cap is a power of two */
	alignas(64) _Atomic uint64_t head; /* next record to write (producer) */
	uint64_t tail_seen;          /* producer's copy of tail */
	alignas(64) _Atomic uint64_t tail; /* next record to read (consumer) */
};

/* cap is rounded up to a power of two; memory is zeroed. */
void logring_init(struct logring *r, size_t esize, uint32_t cap);
void logring_release(struct logring *r);

/* Producer: the slot to fill next, or NULL when the ring is full. */
static inline void *logring_slot(struct logring *r)
{
	uint64_t h = atomic_load_explicit(&r->head, memory_order_relaxed);
	if (h - r->tail_seen >= r->cap) {
		r->tail_seen = atomic_load_explicit(&r->tail, memory_order_acquire);
		if (h - r->tail_seen >= r->cap)
			return NULL;
	}
	return r->buf + (size_t)(h & r->mask) * r->esize;
}

/* Producer: make the filled slot visible; returns the records now queued
 * as the producer last saw them (at least 1). */
static inline uint64_t logring_publish(struct logring *r)
{
	uint64_t h = atomic_load_explicit(&r->head, memory_order_relaxed) + 1;
	atomic_store_explicit(&r->head, h, memory_order_release);
	return h - r->tail_seen;
}

/* Consumer: the oldest record, or NULL when the ring is empty. */
static inline const void *logring_peek(struct logring *r)
{
	uint64_t t = atomic_load_explicit(&r->tail, memory_order_relaxed);
	if (t == atomic_load_explicit(&r->head, memory_order_acquire))
		return NULL;
	return r->buf + (size_t)(t & r->mask) * r->esize;
}

/* Consumer: done with the record logring_peek gave. */
static inline void logring_pop(struct logring *r)
{
	uint64_t t = atomic_load_explicit(&r->tail, memory_order_relaxed);
	atomic_store_explicit(&r->tail, t + 1, memory_order_release);
}

#endif
