/*
 * The communicator of iobench-mpi over MPI (dist_comm.h): point-to-point
 * messages to and from the root, each wait polled against a deadline
 * (MPI_Test; OpenMPI 4.1's collectives cannot time out, and
 * MPI_ERRORS_RETURN does not make a barrier return when a rank dies), so
 * a rank that fails or hangs is named instead of waited for.
 */
#include "dist/dist_comm.h"

#include <errno.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/error.h"
#include "util/xmalloc.h"

enum { TAG_SYNC = 101, TAG_VERDICT, TAG_SIZE, TAG_BLOB, TAG_BCAST };

struct sync_rec {
	int32_t rank, error;
	char point[96];
	char host[DIST_HOST_MAX];
	char msg[DIST_MSG_MAX];
};

struct verdict {
	int32_t failed, hung, rank, error;
	char host[DIST_HOST_MAX];
	char msg[DIST_MSG_MAX + 160];
};

double dist_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double mono_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Poll reqs[0..n) (MPI_REQUEST_NULL ones count as done) until all are done
 * or the deadline passes; the unfinished ones are cancelled and freed, and
 * done[i] says which finished. 0 when all did, -1 otherwise: then the
 * buffers of the unfinished ones are never freed (a cancel can fail, and
 * MPI may still write or read them; the job ends soon after). */
static int wait_all(MPI_Request *reqs, bool *done, int n, double deadline)
{
	struct timespec nap = { 0, 500 * 1000 };
	for (;;) {
		int left = 0;
		for (int i = 0; i < n; i++) {
			if (done[i])
				continue;
			if (reqs[i] == MPI_REQUEST_NULL) {
				done[i] = true;
				continue;
			}
			int flag = 0;
			MPI_Test(&reqs[i], &flag, MPI_STATUS_IGNORE);
			if (flag)
				done[i] = true;
			else
				left++;
		}
		if (!left)
			return 0;
		if (mono_now() > deadline)
			break;
		nanosleep(&nap, NULL);
		if (nap.tv_nsec < 4 * 1000 * 1000)
			nap.tv_nsec *= 2; /* 0.5 ms up to 4 ms: a long phase costs no CPU */
	}
	for (int i = 0; i < n; i++)
		if (!done[i] && reqs[i] != MPI_REQUEST_NULL) {
			MPI_Cancel(&reqs[i]);
			MPI_Request_free(&reqs[i]);
		}
	return -1;
}

int dist_init(struct dist_comm *c, int *argc, char ***argv)
{
	memset(c, 0, sizeof(*c));
	int provided = 0;
	if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
		return error("iobench-mpi: MPI_Init failed");
	MPI_Comm_rank(MPI_COMM_WORLD, &c->rank);
	MPI_Comm_size(MPI_COMM_WORLD, &c->size);
	if (gethostname(c->host, sizeof(c->host)) < 0)
		snprintf(c->host, sizeof(c->host), "unknown");
	c->host[sizeof(c->host) - 1] = '\0';
	c->hosts = xcalloc((size_t)c->size, sizeof(*c->hosts));
	c->gone = xcalloc((size_t)c->size, sizeof(*c->gone));
	c->timeout_s = 600;
	/* at start-up every rank is there (mpirun started them): no deadline */
	MPI_Allgather(c->host, DIST_HOST_MAX, MPI_CHAR, c->hosts, DIST_HOST_MAX, MPI_CHAR,
		      MPI_COMM_WORLD);
	return 0;
}

void dist_end(struct dist_comm *c, int status)
{
	/* a rank that does not answer would never finalize: the root ends
	 * them all once it has written what it has (the others wait for it in
	 * MPI_Finalize), or a rank that lost the root does */
	if (c->failed && c->fail.hung && (c->rank == 0 || c->fail.rank == 0)) {
		fflush(stdout);
		fflush(stderr);
		MPI_Abort(MPI_COMM_WORLD, status ? status : 1);
	}
	MPI_Finalize();
	free(c->hosts);
	free(c->gone);
}

static void fail_set(struct dist_comm *c, const struct verdict *v)
{
	c->failed = true;
	c->fail.rank = v->rank;
	c->fail.error = v->error;
	c->fail.hung = v->hung;
	snprintf(c->fail.host, sizeof(c->fail.host), "%s", v->host);
	snprintf(c->fail.msg, sizeof(c->fail.msg), "%s", v->msg);
}

static void fail_hung(struct dist_comm *c, int rank, const char *what)
{
	struct verdict v = { .failed = 1, .hung = 1, .rank = rank, .error = ETIMEDOUT };
	snprintf(v.host, sizeof(v.host), "%s", c->hosts[rank]);
	snprintf(v.msg, sizeof(v.msg), "did not answer %s within %g s", what, c->timeout_s);
	fail_set(c, &v);
}

/* The deadline of a rank other than the root: the root waits up to
 * timeout_s for the last rank, then answers. */
static double peer_deadline(const struct dist_comm *c)
{
	return mono_now() + 2 * c->timeout_s + 1;
}

static int sync_root(struct dist_comm *c, const char *point, int error, const char *msg)
{
	int n = c->size;
	struct sync_rec *recs = xcalloc((size_t)n, sizeof(*recs));
	MPI_Request *reqs = xcalloc((size_t)n, sizeof(*reqs));
	bool *done = xcalloc((size_t)n, sizeof(*done));
	recs[0].error = error;
	snprintf(recs[0].point, sizeof(recs[0].point), "%s", point);
	snprintf(recs[0].msg, sizeof(recs[0].msg), "%s", msg ? msg : "");
	reqs[0] = MPI_REQUEST_NULL;
	for (int r = 1; r < n; r++) {
		reqs[r] = MPI_REQUEST_NULL;
		if (!c->gone[r])
			MPI_Irecv(&recs[r], sizeof(recs[r]), MPI_BYTE, r, TAG_SYNC, MPI_COMM_WORLD,
				  &reqs[r]);
	}
	bool late = wait_all(reqs, done, n, mono_now() + c->timeout_s) < 0;
	struct verdict v = { 0 };
	/* the first rank that said it failed, else the first that did not
	 * come, else one at another point of the run */
	for (int r = 0; r < n && !v.failed; r++)
		if (done[r] && !c->gone[r] && recs[r].error) {
			v = (struct verdict){ .failed = 1, .rank = r, .error = recs[r].error };
			snprintf(v.msg, sizeof(v.msg), "%s", recs[r].msg[0] ? recs[r].msg
									 : strerror(recs[r].error));
		}
	for (int r = 1; r < n && !v.failed; r++)
		if (!done[r] || c->gone[r]) {
			v = (struct verdict){ .failed = 1, .hung = 1, .rank = r, .error = ETIMEDOUT };
			snprintf(v.msg, sizeof(v.msg), "did not reach %s within %g s (--sync-timeout)",
				 point, c->timeout_s);
		}
	for (int r = 1; r < n && !v.failed; r++)
		if (strcmp(recs[r].point, point)) {
			v = (struct verdict){ .failed = 1, .rank = r, .error = EPROTO };
			snprintf(v.msg, sizeof(v.msg), "is at %.96s while rank 0 is at %s",
				 recs[r].point, point);
		}
	if (v.failed)
		snprintf(v.host, sizeof(v.host), "%s", c->hosts[v.rank]);
	for (int r = 1; r < n; r++)
		if (!done[r])
			c->gone[r] = true; /* never listened to again: its late message would mismatch */
	/* the verdict to every rank that came */
	struct verdict *vs = xmalloc(sizeof(*vs));
	*vs = v;
	memset(done, 0, (size_t)(unsigned)n * sizeof(*done));
	reqs[0] = MPI_REQUEST_NULL;
	for (int r = 1; r < n; r++) {
		reqs[r] = MPI_REQUEST_NULL;
		if (!c->gone[r])
			MPI_Isend(vs, sizeof(*vs), MPI_BYTE, r, TAG_VERDICT, MPI_COMM_WORLD, &reqs[r]);
	}
	if (wait_all(reqs, done, n, mono_now() + c->timeout_s) == 0)
		free(vs);
	if (!late)
		free(recs);
	free(reqs);
	free(done);
	if (!v.failed)
		return 0;
	fail_set(c, &v);
	return -1;
}

static int sync_peer(struct dist_comm *c, const char *point, int error, const char *msg)
{
	struct sync_rec *rec = xcalloc(1, sizeof(*rec));
	rec->rank = c->rank;
	rec->error = error;
	snprintf(rec->point, sizeof(rec->point), "%s", point);
	snprintf(rec->host, sizeof(rec->host), "%s", c->host);
	snprintf(rec->msg, sizeof(rec->msg), "%s", msg ? msg : "");
	struct verdict *v = xcalloc(1, sizeof(*v));
	MPI_Request reqs[2];
	bool done[2] = { false, false };
	MPI_Isend(rec, sizeof(*rec), MPI_BYTE, 0, TAG_SYNC, MPI_COMM_WORLD, &reqs[0]);
	MPI_Irecv(v, sizeof(*v), MPI_BYTE, 0, TAG_VERDICT, MPI_COMM_WORLD, &reqs[1]);
	if (wait_all(reqs, done, 2, peer_deadline(c)) < 0) {
		char what[160];
		snprintf(what, sizeof(what), "at %s", point);
		fail_hung(c, 0, what);
		return -1; /* rec and v stay: see wait_all */
	}
	free(rec);
	int rc = 0;
	if (v->failed) {
		fail_set(c, v);
		rc = -1;
	}
	free(v);
	return rc;
}

int dist_sync(struct dist_comm *c, const char *point, int error, const char *msg)
{
	if (c->failed)
		return -1;
	if (c->size == 1) {
		if (!error)
			return 0;
		struct verdict v = { .failed = 1, .rank = 0, .error = error };
		snprintf(v.host, sizeof(v.host), "%s", c->host);
		snprintf(v.msg, sizeof(v.msg), "%s", msg && *msg ? msg : strerror(error));
		fail_set(c, &v);
		return -1;
	}
	return c->rank == 0 ? sync_root(c, point, error, msg) : sync_peer(c, point, error, msg);
}

int dist_gather(struct dist_comm *c, const void *blob, size_t len, void ***blobs,
		size_t **lens)
{
	int n = c->size;
	if (c->rank != 0) {
		if (c->failed && c->fail.hung && c->fail.rank == 0)
			return -1; /* the root is gone */
		uint64_t *sz = xmalloc(sizeof(*sz));
		*sz = len;
		void *copy = xmalloc(len ? len : 1); /* outlives the caller's, see wait_all */
		memcpy(copy, blob, len);
		MPI_Request reqs[2];
		bool done[2] = { false, false };
		MPI_Isend(sz, 1, MPI_UINT64_T, 0, TAG_SIZE, MPI_COMM_WORLD, &reqs[0]);
		MPI_Isend(copy, (int)len, MPI_BYTE, 0, TAG_BLOB, MPI_COMM_WORLD, &reqs[1]);
		if (wait_all(reqs, done, 2, peer_deadline(c)) < 0) {
			if (!c->failed)
				fail_hung(c, 0, "when the results were gathered");
			return -1;
		}
		free(sz);
		free(copy);
		return 0;
	}
	void **b = xcalloc((size_t)n, sizeof(*b));
	size_t *l = xcalloc((size_t)n, sizeof(*l));
	uint64_t *sz = xcalloc((size_t)n, sizeof(*sz));
	MPI_Request *reqs = xcalloc((size_t)n, sizeof(*reqs));
	bool *done = xcalloc((size_t)n, sizeof(*done));
	b[0] = xmalloc(len ? len : 1);
	memcpy(b[0], blob, len);
	l[0] = len;
	reqs[0] = MPI_REQUEST_NULL;
	for (int r = 1; r < n; r++) {
		reqs[r] = MPI_REQUEST_NULL;
		if (!c->gone[r])
			MPI_Irecv(&sz[r], 1, MPI_UINT64_T, r, TAG_SIZE, MPI_COMM_WORLD, &reqs[r]);
	}
	int rc = wait_all(reqs, done, n, mono_now() + c->timeout_s);
	bool sz_late = rc < 0;
	for (int r = 1; r < n; r++) {
		reqs[r] = MPI_REQUEST_NULL;
		if (!done[r] || c->gone[r]) {
			c->gone[r] = true;
			continue;
		}
		b[r] = xmalloc(sz[r] ? sz[r] : 1);
		l[r] = sz[r];
		MPI_Irecv(b[r], (int)sz[r], MPI_BYTE, r, TAG_BLOB, MPI_COMM_WORLD, &reqs[r]);
	}
	memset(done, 0, (size_t)(unsigned)n * sizeof(*done));
	if (wait_all(reqs, done, n, mono_now() + c->timeout_s) < 0)
		rc = -1;
	for (int r = 1; r < n; r++)
		if (!done[r] || c->gone[r]) {
			if (!c->failed)
				fail_hung(c, r, "when the results were gathered");
			b[r] = NULL; /* an unfinished receive's buffer stays: see wait_all */
			c->gone[r] = true;
			rc = -1;
		}
	if (!sz_late)
		free(sz);
	free(reqs);
	free(done);
	*blobs = b;
	*lens = l;
	return rc;
}

int dist_bcast_u64(struct dist_comm *c, uint64_t *v, size_t nv)
{
	int n = c->size;
	if (n == 1)
		return 0;
	if (c->rank != 0) {
		MPI_Request req;
		bool done = false;
		uint64_t *tmp = xcalloc(nv ? nv : 1, sizeof(*tmp)); /* see wait_all */
		MPI_Irecv(tmp, (int)nv, MPI_UINT64_T, 0, TAG_BCAST, MPI_COMM_WORLD, &req);
		if (wait_all(&req, &done, 1, peer_deadline(c)) < 0) {
			if (!c->failed)
				fail_hung(c, 0, "with the counts of the ranks");
			return -1;
		}
		memcpy(v, tmp, nv * sizeof(*v));
		free(tmp);
		return 0;
	}
	uint64_t *vs = xmalloc((nv ? nv : 1) * sizeof(*vs));
	memcpy(vs, v, nv * sizeof(*vs));
	MPI_Request *reqs = xcalloc((size_t)n, sizeof(*reqs));
	bool *done = xcalloc((size_t)n, sizeof(*done));
	reqs[0] = MPI_REQUEST_NULL;
	for (int r = 1; r < n; r++) {
		reqs[r] = MPI_REQUEST_NULL;
		if (!c->gone[r])
			MPI_Isend(vs, (int)nv, MPI_UINT64_T, r, TAG_BCAST, MPI_COMM_WORLD, &reqs[r]);
	}
	int rc = wait_all(reqs, done, n, mono_now() + c->timeout_s);
	if (rc == 0)
		free(vs);
	free(reqs);
	free(done);
	return rc;
}
