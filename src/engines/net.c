/*
 * The "net" and "netsplice" engines, fio's: a job's I/O is a stream over a
 * socket instead of a file. protocol= is tcp (the default), tcpv6, udp,
 * udpv6 or unix (hostname= is then the socket's path). A job either reads
 * or writes, sequentially. The reading side is the listener: listen=1 for
 * TCP (and unix), any reader for UDP; it binds in init(), before any job
 * starts, so a writer started at the same time finds it, and accepts in
 * open_file (UDP: waits for the writer's "open" datagram). The writing side
 * connects to hostname:port. Clones (numjobs) use port + clone number, as
 * fio uses a range of ports. A UDP writer ends with a "close" datagram and
 * a TCP writer by closing: the reader's job ends there (ENGINE_Q_DONE), so
 * its size= is an upper bound, as with fio. pingpong=1 sends each block
 * back: the writer waits for the reader's echo, so clat is a round trip.
 * nodelay sets TCP_NODELAY, window_size SO_SNDBUF and SO_RCVBUF, mss
 * TCP_MAXSEG; hostname= a multicast group (224.0.0.0/4) makes a UDP reader
 * join it and a writer send to it with ttl= hops through interface=.
 * Without verify=, a UDP writer puts a sequence number in the last 24 bytes
 * of each datagram of 24 bytes or more and the reader counts the ones that
 * never came as drop_ios, as fio does (verify's headers need those bytes).
 * netsplice moves TCP data through a pipe (vmsplice and splice) instead of
 * send and recv, as fio's; its UDP and unix sockets use send and recv.
 */
#include "engines/engine.h"
#include "util/array.h"
#include "util/error.h"

#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>

#define NET_STR 256
#define NET_MAGIC 0x696f626eu /* "iobn": the UDP open and close datagrams */
enum { NET_OPEN = 1, NET_CLOSE = 2 };
enum net_proto { P_TCP, P_TCPV6, P_UDP, P_UDPV6, P_UNIX };

struct net_opts {
	char hostname[NET_STR];
	char interface[NET_STR];
	unsigned port;
	int proto;            /* enum net_proto */
	bool nodelay, listen, pingpong;
	unsigned ttl;
	unsigned window_size; /* bytes, 0 = the kernel's */
	unsigned mss;         /* bytes, 0 = the kernel's */
};

static int opt_string(char *dst, const char *val, struct opt_ctx *c)
{
	if (strlen(val) >= NET_STR)
		return opt_failf(c, -ENAMETOOLONG, "value of option '%s' is longer than %d bytes",
				 c->key, NET_STR - 1);
	strcpy(dst, val);
	return 0;
}

static int opt_hostname(void *t, const char *val, struct opt_ctx *c)
{
	return opt_string(((struct net_opts *)t)->hostname, val, c);
}

static int opt_interface(void *t, const char *val, struct opt_ctx *c)
{
	return opt_string(((struct net_opts *)t)->interface, val, c);
}

static const struct opt_posval protocol_words[] = {
	{ .word = "tcp", .value = P_TCP }, { .word = "tcpv6", .value = P_TCPV6 },
	{ .word = "udp", .value = P_UDP }, { .word = "udpv6", .value = P_UDPV6 },
	{ .word = "unix", .value = P_UNIX }, { .word = NULL },
};

#define O(field) offsetof(struct net_opts, field)
#define NUM(n, h, d, mx) { .name = #n, .type = OPT_UINT, .off = O(n), .width = sizeof(unsigned), \
	.max = mx, .type_text = "int", .def = d, .help = h }
#define FLAG(n, h) { .name = #n, .type = OPT_BOOL, .off = O(n), .type_text = "bool", .def = "0", \
	.is_flag = true, .help = h }
static const struct option_def net_options[] = {
	{ .name = "hostname", .type = OPT_FUNC, .parse = opt_hostname, .type_text = "str",
	  .help = "host to connect to, a UDP multicast group, or the unix socket's path" },
	NUM(port, "TCP or UDP port (clones use the ports after it)", NULL, 65535),
	{ .name = "protocol", .alias = { "proto" }, .type = OPT_WORD, .off = O(proto),
	  .width = sizeof(int), .posval = protocol_words, .word_case = true, .word_what = "protocol",
	  .word_use = "one of", .word_commas = true, .type_text = "str", .def = "tcp",
	  .help = "the socket's kind" },
	FLAG(nodelay, "set TCP_NODELAY on TCP connections"),
	FLAG(listen, "accept a TCP connection instead of connecting (the reading side)"),
	FLAG(pingpong, "the reader sends every block back; the writer waits for it"),
	{ .name = "interface", .type = OPT_FUNC, .parse = opt_interface, .type_text = "str",
	  .help = "IP address of the interface for UDP multicast" },
	NUM(ttl, "time-to-live of outgoing UDP multicast packets", "1", 255),
	NUM(window_size, "socket buffer size (SO_SNDBUF and SO_RCVBUF)", NULL, 0),
	NUM(mss, "TCP maximum segment size (TCP_MAXSEG)", NULL, 0),
};
#undef NUM
#undef FLAG
#undef O

struct net_priv {
	int listenfd, fd;       /* -1 when closed */
	int pipe[2];            /* netsplice */
	bool splice, reader, done;
	struct sockaddr_storage peer;
	socklen_t peerlen;
	uint64_t send_seq, recv_seq; /* UDP sequence numbers (drop_ios) */
	bool seq_off;                /* the datagrams carry none: stop looking */
};

#define SEQ_MAGIC 0x696f62656e636873ull /* the tail of a sequenced UDP datagram */
struct udp_seq {
	uint64_t magic, bs, seq; /* little-endian */
};

static void store_seq(struct net_priv *p, struct io_unit *u)
{
	struct udp_seq q = { htole64(SEQ_MAGIC), htole64(u->buflen), htole64(p->send_seq++) };
	memcpy((char *)u->buf + u->buflen - sizeof(q), &q, sizeof(q));
}

/* u->dropped: datagrams between the last one seen and this one */
static void check_seq(struct net_priv *p, struct io_unit *u, size_t got)
{
	struct udp_seq q;
	if (p->seq_off || got != u->buflen || got < sizeof(q))
		return;
	memcpy(&q, (char *)u->buf + got - sizeof(q), sizeof(q));
	if (le64toh(q.magic) != SEQ_MAGIC)
		return;
	if (le64toh(q.bs) != got) {
		p->seq_off = true;
		return;
	}
	uint64_t seq = le64toh(q.seq);
	if (seq > p->recv_seq)
		u->dropped = (uint32_t)(seq - p->recv_seq);
	p->recv_seq = seq + 1;
}

static bool is_udp(const struct net_opts *o) { return o->proto == P_UDP || o->proto == P_UDPV6; }
static bool is_v6(const struct net_opts *o) { return o->proto == P_TCPV6 || o->proto == P_UDPV6; }
static bool is_multicast(const struct net_opts *o)
{
	struct in_addr a;
	return !is_v6(o) && inet_pton(AF_INET, o->hostname, &a) == 1 && IN_MULTICAST(ntohl(a.s_addr));
}

/* hostname:port (+ clone) of o into *ss. */
static int net_addr(struct engine_ctx *ctx, const struct net_opts *o, bool any,
		    struct sockaddr_storage *ss, socklen_t *len)
{
	memset(ss, 0, sizeof(*ss));
	unsigned port = o->port + ctx->params.clone;
	if (o->proto == P_UNIX) {
		struct sockaddr_un *un = (struct sockaddr_un *)ss;
		if (!o->hostname[0] || strlen(o->hostname) >= sizeof(un->sun_path))
			return error("net: protocol=unix needs hostname= the socket's path (below %zu bytes)",
				     sizeof(un->sun_path));
		un->sun_family = AF_UNIX;
		strcpy(un->sun_path, o->hostname);
		*len = sizeof(*un);
		return 0;
	}
	if (!o->port || port > 65535)
		return error("net: protocol=%s needs port= (1 to 65535%s)", is_udp(o) ? "udp" : "tcp",
			     ctx->params.clone ? ", after adding the clone number" : "");
	int af = is_v6(o) ? AF_INET6 : AF_INET;
	if (any && !is_multicast(o)) {
		if (af == AF_INET6) {
			struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)ss;
			s6->sin6_family = AF_INET6;
			s6->sin6_addr = in6addr_any;
			s6->sin6_port = htons((uint16_t)port);
			*len = sizeof(*s6);
		} else {
			struct sockaddr_in *s4 = (struct sockaddr_in *)ss;
			s4->sin_family = AF_INET;
			s4->sin_addr.s_addr = htonl(INADDR_ANY);
			s4->sin_port = htons((uint16_t)port);
			*len = sizeof(*s4);
		}
		return 0;
	}
	if (!o->hostname[0])
		return error("net: a job that %s needs hostname=%s", ctx->params.writes ? "writes" : "connects",
			     ctx->params.reads ? " (or listen=1, to accept a connection)" : "");
	struct addrinfo hints = { .ai_family = af, .ai_socktype = is_udp(o) ? SOCK_DGRAM : SOCK_STREAM };
	struct addrinfo *res = NULL;
	char portstr[8];
	snprintf(portstr, sizeof(portstr), "%u", port);
	int rc = getaddrinfo(o->hostname, portstr, &hints, &res);
	if (rc || !res)
		return error("net: cannot resolve hostname '%s': %s", o->hostname, gai_strerror(rc));
	memcpy(ss, res->ai_addr, res->ai_addrlen);
	*len = res->ai_addrlen;
	freeaddrinfo(res);
	return 0;
}

static int sock_type(const struct net_opts *o)
{
	return is_udp(o) ? SOCK_DGRAM : SOCK_STREAM;
}

static int tune(const struct net_opts *o, int fd)
{
	int one = 1, v;
	if (o->nodelay && !is_udp(o) && o->proto != P_UNIX &&
	    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) < 0)
		return error_errno(-errno, "net: cannot set TCP_NODELAY (disable with nodelay=0)");
	if (o->window_size) {
		v = (int)o->window_size;
		if (setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, sizeof(v)) < 0 ||
		    setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &v, sizeof(v)) < 0)
			return error_errno(-errno, "net: cannot set window_size=%u", o->window_size);
	}
	if (o->mss && !is_udp(o) && o->proto != P_UNIX) {
		v = (int)o->mss;
		if (setsockopt(fd, IPPROTO_TCP, TCP_MAXSEG, &v, sizeof(v)) < 0)
			return error_errno(-errno, "net: cannot set mss=%u (TCP_MAXSEG)", o->mss);
	}
	return 0;
}

static int join_group(const struct net_opts *o, int fd)
{
	struct ip_mreq m = { 0 };
	inet_pton(AF_INET, o->hostname, &m.imr_multiaddr);
	m.imr_interface.s_addr = htonl(INADDR_ANY);
	if (o->interface[0] && inet_pton(AF_INET, o->interface, &m.imr_interface) != 1)
		return error("net: interface='%s' is not an IPv4 address", o->interface);
	if (setsockopt(fd, IPPROTO_IP, IP_ADD_MEMBERSHIP, &m, sizeof(m)) < 0)
		return error_errno(-errno, "net: cannot join multicast group %s", o->hostname);
	return 0;
}

/* A unix socket's path is removed (before bind, as fio does, and after)
 * only when it is a socket: a file that has the name is somebody's. */
static void unlink_socket(const char *path)
{
	struct stat st;
	if (lstat(path, &st) == 0 && S_ISSOCK(st.st_mode))
		unlink(path);
}

static int net_init(struct engine_ctx *ctx)
{
	const struct net_opts *o = engine_options(ctx);
	struct net_priv *p = ctx->priv;
	p->listenfd = p->fd = p->pipe[0] = p->pipe[1] = -1;
	if (ctx->params.reads == ctx->params.writes)
		return error("net: a network job reads or writes, not both (rw=read or rw=write)");
	if (ctx->params.random)
		return error("net: network I/O cannot be random (rw=read or rw=write)");
	p->reader = ctx->params.reads;
	if (!strcmp(ctx->ops->name, "netsplice")) {
		if (pipe2(p->pipe, O_CLOEXEC) < 0)
			return error_errno(-errno, "netsplice: cannot make its pipe");
		p->splice = true;
	}
	bool listener = is_udp(o) ? p->reader : o->listen;
	if (!is_udp(o) && o->listen && !p->reader)
		return error("net: listen=1 is the reading side (rw=read); a writer connects to hostname=");
	if (!listener)
		return 0;
	struct sockaddr_storage ss;
	socklen_t len;
	int rc = net_addr(ctx, o, true, &ss, &len);
	if (rc)
		return -EINVAL;
	int fd = socket(ss.ss_family, sock_type(o) | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return error_errno(-errno, "net: cannot make a socket");
	int one = 1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof(one));
	if (o->proto == P_UNIX)
		unlink_socket(o->hostname);
	if (tune(o, fd) < 0 || bind(fd, (struct sockaddr *)&ss, len) < 0) {
		rc = errno ? -errno : -EINVAL;
		close(fd);
		return error_errno(rc, "net: cannot bind %s%s%u", o->proto == P_UNIX ? o->hostname : "port",
				   o->proto == P_UNIX ? "" : " ", o->proto == P_UNIX ? 0 : o->port + ctx->params.clone);
	}
	if (is_udp(o) && is_multicast(o) && join_group(o, fd) < 0) {
		close(fd);
		return -EINVAL;
	}
	if (!is_udp(o) && listen(fd, 1) < 0) {
		rc = -errno;
		close(fd);
		return error_errno(rc, "net: cannot listen");
	}
	p->listenfd = fd;
	return 0;
}

/* Wait until fd is ready for events, the run stopping ends the wait:
 * 0, -EINTR (stopped) or -errno. */
static int wait_fd(struct engine_ctx *ctx, int fd, short events)
{
	struct pollfd pfd = { .fd = fd, .events = events };
	for (;;) {
		if (ctx->params.stop && *ctx->params.stop)
			return -EINTR;
		int r = poll(&pfd, 1, 200);
		if (r > 0)
			return 0;
		if (r < 0 && errno != EINTR)
			return -errno;
	}
}

static int udp_msg(int fd, unsigned cmd, const struct sockaddr_storage *to, socklen_t len)
{
	uint32_t m[2] = { htonl(NET_MAGIC), htonl(cmd) };
	return sendto(fd, m, sizeof(m), 0, (const struct sockaddr *)to, len) < 0 ? -errno : 0;
}

static bool is_close_msg(const void *buf, ssize_t n)
{
	uint32_t m[2];
	if (n != (ssize_t)sizeof(m))
		return false;
	memcpy(m, buf, sizeof(m));
	return ntohl(m[0]) == NET_MAGIC && ntohl(m[1]) == NET_CLOSE;
}

static int net_open(struct engine_ctx *ctx, struct job_file *f)
{
	const struct net_opts *o = engine_options(ctx);
	struct net_priv *p = ctx->priv;
	(void)f;
	if (p->listenfd >= 0 && is_udp(o)) { /* wait for the writer's "open" */
		uint32_t m[2];
		p->peerlen = sizeof(p->peer);
		ssize_t n;
		if ((n = wait_fd(ctx, p->listenfd, POLLIN)) < 0)
			return error_errno((int)n, "net: waiting for a writer on port %u", o->port + ctx->params.clone);
		do
			n = recvfrom(p->listenfd, m, sizeof(m), 0, (struct sockaddr *)&p->peer, &p->peerlen);
		while (n < 0 && errno == EINTR);
		if (n != (ssize_t)sizeof(m) || ntohl(m[0]) != NET_MAGIC || ntohl(m[1]) != NET_OPEN)
			return error("net: the first datagram on port %u is not a writer's open message",
				     o->port + ctx->params.clone);
		p->fd = p->listenfd;
		return 0;
	}
	if (p->listenfd >= 0) {
		int fd = wait_fd(ctx, p->listenfd, POLLIN);
		if (fd < 0)
			return error_errno(fd, "net: waiting for a connection");
		do
			fd = accept4(p->listenfd, NULL, NULL, SOCK_CLOEXEC);
		while (fd < 0 && errno == EINTR);
		if (fd < 0)
			return error_errno(-errno, "net: cannot accept a connection");
		if (tune(o, fd) < 0) {
			close(fd);
			return -EINVAL;
		}
		p->fd = fd;
		return 0;
	}
	int rc = net_addr(ctx, o, false, &p->peer, &p->peerlen);
	if (rc)
		return -EINVAL;
	int fd = socket(p->peer.ss_family, sock_type(o) | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return error_errno(-errno, "net: cannot make a socket");
	if (tune(o, fd) < 0) {
		close(fd);
		return -EINVAL;
	}
	if (is_udp(o)) {
		if (is_multicast(o)) {
			unsigned char ttl = (unsigned char)o->ttl;
			struct in_addr ifa;
			if (o->interface[0] && (inet_pton(AF_INET, o->interface, &ifa) != 1 ||
			    setsockopt(fd, IPPROTO_IP, IP_MULTICAST_IF, &ifa, sizeof(ifa)) < 0)) {
				close(fd);
				return error("net: cannot send multicast through interface='%s'", o->interface);
			}
			setsockopt(fd, IPPROTO_IP, IP_MULTICAST_TTL, &ttl, sizeof(ttl));
		}
		if ((rc = udp_msg(fd, NET_OPEN, &p->peer, p->peerlen)) < 0) {
			close(fd);
			return error_errno(rc, "net: cannot send the open message to %s", o->hostname);
		}
	} else if (connect(fd, (struct sockaddr *)&p->peer, p->peerlen) < 0) {
		rc = -errno;
		close(fd);
		return error_errno(rc, "net: cannot connect to %s%s%u", o->hostname,
				   o->proto == P_UNIX ? "" : " port ", o->proto == P_UNIX ? 0 : o->port + ctx->params.clone);
	}
	p->fd = fd;
	return 0;
}

static int net_close(struct engine_ctx *ctx, struct job_file *f)
{
	const struct net_opts *o = engine_options(ctx);
	struct net_priv *p = ctx->priv;
	(void)f;
	if (p->fd < 0)
		return 0;
	if (is_udp(o) && !p->reader)
		udp_msg(p->fd, NET_CLOSE, &p->peer, p->peerlen);
	if (p->fd != p->listenfd)
		close(p->fd);
	p->fd = -1;
	return 0;
}

/* splice n bytes between a descriptor and the pipe; bytes moved or -errno */
static ssize_t pipe_move(int in, int out, size_t n)
{
	ssize_t r;
	do
		r = splice(in, NULL, out, NULL, n, SPLICE_F_MOVE);
	while (r < 0 && errno == EINTR);
	return r < 0 ? -errno : r;
}

static ssize_t vm_move(int pipefd, void *buf, size_t n)
{
	struct iovec iov = { .iov_base = buf, .iov_len = n };
	size_t done = 0;
	while (iov.iov_len) {
		ssize_t r = vmsplice(pipefd, &iov, 1, 0);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r < 0 ? -errno : (ssize_t)done;
		iov.iov_base = (char *)iov.iov_base + r;
		iov.iov_len -= (size_t)r;
		done += (size_t)r;
	}
	return (ssize_t)done;
}

/* One send of up to n bytes; bytes sent or -errno. */
static ssize_t net_send(struct net_priv *p, const struct net_opts *o, void *buf, size_t n)
{
	ssize_t r;
	if (p->splice && !is_udp(o) && o->proto != P_UNIX) {
		r = vm_move(p->pipe[1], buf, n);
		if (r <= 0)
			return r;
		size_t left = (size_t)r;
		while (left) {
			ssize_t s = pipe_move(p->pipe[0], p->fd, left);
			if (s <= 0)
				return s < 0 ? s : -EPIPE;
			left -= (size_t)s;
		}
		return r;
	}
	do
		r = is_udp(o) && p->reader ? sendto(p->fd, buf, n, MSG_NOSIGNAL, (struct sockaddr *)&p->peer, p->peerlen)
		    : is_udp(o) ? sendto(p->fd, buf, n, MSG_NOSIGNAL, (struct sockaddr *)&p->peer, p->peerlen)
				: send(p->fd, buf, n, MSG_NOSIGNAL);
	while (r < 0 && errno == EINTR);
	return r < 0 ? -errno : r;
}

/* One receive of up to n bytes; bytes, 0 at the end of the stream, or -errno. */
static ssize_t net_recv(struct engine_ctx *ctx, struct net_priv *p, const struct net_opts *o,
			void *buf, size_t n)
{
	ssize_t r = wait_fd(ctx, p->fd, POLLIN);
	if (r < 0)
		return r;
	if (p->splice && !is_udp(o) && o->proto != P_UNIX) {
		r = pipe_move(p->fd, p->pipe[1], n);
		return r <= 0 ? r : vm_move(p->pipe[0], buf, (size_t)r);
	}
	do {
		if (is_udp(o) && p->reader) {
			p->peerlen = sizeof(p->peer);
			r = recvfrom(p->fd, buf, n, 0, (struct sockaddr *)&p->peer, &p->peerlen);
		} else {
			r = recv(p->fd, buf, n, 0);
		}
	} while (r < 0 && errno == EINTR);
	if (r > 0 && is_udp(o) && is_close_msg(buf, r))
		return 0;
	return r < 0 ? -errno : r;
}

static int net_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	const struct net_opts *o = engine_options(ctx);
	struct net_priv *p = ctx->priv;
	if (u->ddir != DDIR_READ && u->ddir != DDIR_WRITE) {
		u->result = u->ddir == DDIR_TRIM ? -EINVAL : 0; /* nothing to sync on a socket */
		return ENGINE_Q_COMPLETED;
	}
	if (p->done)
		return ENGINE_Q_DONE;
	u->dropped = 0;
	bool seq = is_udp(o) && !ctx->params.verify && u->buflen >= sizeof(struct udp_seq);
	if (seq && u->ddir == DDIR_WRITE)
		store_seq(p, u);
	ssize_t r = u->ddir == DDIR_WRITE ? net_send(p, o, u->buf, u->buflen)
					  : net_recv(ctx, p, o, u->buf, u->buflen);
	if (r == 0 && u->ddir == DDIR_READ) {
		p->done = true; /* the writer is done: so is this job */
		return ENGINE_Q_DONE;
	}
	if (r > 0 && seq && u->ddir == DDIR_READ)
		check_seq(p, u, (size_t)r);
	if (r > 0 && o->pingpong) {
		/* the other way: the reader echoes what came, the writer waits for it */
		ssize_t e = 0;
		if (u->ddir == DDIR_READ)
			e = net_send(p, o, u->buf, (size_t)r);
		else /* all of it back (a datagram comes whole) */
			for (ssize_t got = 0; got < r && e >= 0; got += e)
				if ((e = net_recv(ctx, p, o, (char *)u->buf + got, (size_t)(r - got))) == 0)
					e = -ECONNRESET;
		if (e < 0)
			r = e;
	}
	u->result = r;
	return ENGINE_Q_COMPLETED;
}

static void net_cleanup(struct engine_ctx *ctx)
{
	const struct net_opts *o = engine_options(ctx);
	struct net_priv *p = ctx->priv;
	if (p->fd >= 0 && p->fd != p->listenfd)
		close(p->fd);
	if (p->listenfd >= 0) {
		close(p->listenfd);
		if (o->proto == P_UNIX)
			unlink_socket(o->hostname);
	}
	if (p->pipe[0] >= 0) {
		close(p->pipe[0]);
		close(p->pipe[1]);
	}
	p->fd = p->listenfd = p->pipe[0] = p->pipe[1] = -1;
}

#define NET_OPS(n, sum) { \
	.name = n, .summary = sum, \
	.flags = ENGINE_SYNC | ENGINE_NO_FILE, \
	.priv_size = sizeof(struct net_priv), \
	.options = net_options, \
	.nr_options = ARRAY_SIZE(net_options), \
	.options_size = sizeof(struct net_opts), \
	.init = net_init, .open_file = net_open, .close_file = net_close, \
	.queue = net_queue, .cleanup = net_cleanup, }

const struct engine_ops engine_net =
	NET_OPS("net", "fio's: the job reads or writes a TCP, UDP or unix socket stream (listen, hostname, port)");
const struct engine_ops engine_netsplice =
	NET_OPS("netsplice", "fio's net engine moving TCP data through a pipe with splice(2) and vmsplice(2)");
