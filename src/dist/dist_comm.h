/*
 * The communicator of iobench-mpi: this rank, the number of ranks, every
 * rank's host, and the few exchanges a run needs, each with a deadline so
 * that no rank waits forever for one that failed or hangs:
 *
 * - dist_sync: the agreement at a point of the run (before and after each
 *   phase, before the results). Every rank sends the root its status (0,
 *   or a positive errno and a message); the root answers every rank with
 *   the verdict: all well, or the first rank that failed (its rank, host
 *   and message), or the ranks that did not arrive before the deadline.
 *   It is a barrier too: no rank leaves before the root has heard all.
 * - dist_gather: every rank's blob to the root (the results), with the
 *   same deadline.
 * - dist_bcast_u64: the root's values to every rank.
 *
 * Once a verdict says a rank failed, later syncs return it at once without
 * talking (the ranks may no longer be at the same point); a gather then
 * collects from the ranks that answered. MPI itself is only here and in
 * dist_comm.c: the rest of src/dist/ sees plain C.
 */
#ifndef IOBENCH_DIST_DIST_COMM_H
#define IOBENCH_DIST_DIST_COMM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DIST_HOST_MAX 64
#define DIST_MSG_MAX 480

/* Why a run stops: the first rank that failed, or one that did not answer. */
struct dist_failure {
	int rank;
	char host[DIST_HOST_MAX];
	int error;                 /* positive errno; ETIMEDOUT when it did not answer */
	bool hung;                 /* it did not answer: it may still be running */
	char msg[DIST_MSG_MAX + 160];
};

struct dist_comm {
	int rank, size;
	char host[DIST_HOST_MAX];
	char (*hosts)[DIST_HOST_MAX]; /* every rank's, indexed by rank */
	double timeout_s;             /* each wait's deadline */
	bool failed;                  /* a verdict said so: fail holds it */
	struct dist_failure fail;
	bool *gone;                   /* root: ranks that did not answer */
};

/* MPI_Init (a singleton without mpirun is one rank), rank, size and the
 * hosts. 0, or -1 after printing why. */
int dist_init(struct dist_comm *c, int *argc, char ***argv);
/* MPI_Finalize, or MPI_Abort with status when a rank hangs (it would
 * never finalize); frees c. */
void dist_end(struct dist_comm *c, int status);

/* The agreement at point (a name for the messages: "the start of phase
 * 2"); error and msg are this rank's status. 0 when every rank is well;
 * -1 when one failed or did not answer (c->fail says which: the same on
 * every rank that heard the verdict). */
int dist_sync(struct dist_comm *c, const char *point, int error, const char *msg);

/* Every rank's blob to the root: on the root, blobs[r] and lens[r] for each
 * rank that sent one (its own included; NULL for one that did not answer),
 * each freed by the caller. 0, or -1 when a rank did not answer. */
int dist_gather(struct dist_comm *c, const void *blob, size_t len, void ***blobs,
		size_t **lens);

/* The root's n values into every rank's v. 0, or -1 when the root did not
 * answer. */
int dist_bcast_u64(struct dist_comm *c, uint64_t *v, size_t n);

/* The clock the phases are timed with: wall-clock seconds (IOR's
 * gettimeofday; comparable between nodes only as far as NTP keeps them). */
double dist_now(void);

#endif
