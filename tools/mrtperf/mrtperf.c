// SPDX-License-Identifier: GPL-2.0
/*
 * mrtperf: goodput, message rate and latency over mrt sockets.
 *
 *   mrtperf -s [-B ADDR] [-p EP] [-w BYTES]
 *   mrtperf -c ADDR [-p EP] [-n MSGS] [-l SIZE] [-t SECS] [--pingpong]
 *           [-w BYTES] [-j]
 *
 * The server receives messages and answers two kinds: a ping (echoed
 * whole) and the client's "done" (answered with what it received).  The
 * client streams messages (as many as -n, for at most -t seconds) and
 * then asks the server, so that goodput and message rate are what
 * arrived, over the server's time from the first message to the last; or
 * with --pingpong sends one message at a time and times each round trip
 * (p50, p99, p99.9).  Every message starts with a 16-byte header: a magic,
 * a kind and a sequence number.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdnoreturn.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#ifndef SOCK_RDM
#define SOCK_RDM	4
#endif
#define IPPROTO_MRT	253

#define MAGIC		0x6d727470U	/* "mrtp" */
enum { K_DATA, K_PING, K_DONE, K_STATS };

struct hdr {
	uint32_t magic;
	uint32_t kind;
	uint64_t seq;
};

struct stats {
	struct hdr h;
	uint64_t msgs;
	uint64_t bytes;
	uint64_t first_ns;
	uint64_t last_ns;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void die(const char *what)
{
	fprintf(stderr, "mrtperf: %s: %s\n", what, strerror(errno));
	exit(1);
}

static int parse_addr(const char *s, unsigned int ep, struct sockaddr_storage *ss,
		      socklen_t *len)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof(*ss));
	if (inet_pton(AF_INET, s, &sin->sin_addr) == 1) {
		sin->sin_family = AF_INET;
		sin->sin_port = htons(ep);
		*len = sizeof(*sin);
		return AF_INET;
	}
	if (inet_pton(AF_INET6, s, &sin6->sin6_addr) == 1) {
		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons(ep);
		*len = sizeof(*sin6);
		return AF_INET6;
	}
	fprintf(stderr, "mrtperf: %s: not an IPv4 or IPv6 address\n", s);
	exit(2);
}

static int mksock(int family, int bufsz)
{
	int fd = socket(family, SOCK_RDM, IPPROTO_MRT);

	if (fd < 0)
		die("socket(SOCK_RDM, 253) (is mrt.ko there?)");
	if (bufsz > 0 &&
	    (setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &bufsz, sizeof(bufsz)) ||
	     setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &bufsz, sizeof(bufsz))))
		die("setsockopt(SO_SNDBUF/SO_RCVBUF)");
	return fd;
}

/* What the server counts for the client being served, and whom it answers
 * once a "done" has come and all it announced are in.
 */
struct served {
	struct stats st;
	struct sockaddr_storage done_peer;
	socklen_t done_len;
	uint64_t want;
	int pending;
};

/* One message the server received: counted, or a ping echoed, or the
 * client's "done", answered with the counts once all it sent are in.
 */
static void serve_one(int fd, const struct mmsghdr *mm, struct served *sv)
{
	const struct sockaddr_storage *peer = mm->msg_hdr.msg_name;
	const char *buf = mm->msg_hdr.msg_iov->iov_base;
	socklen_t plen = mm->msg_hdr.msg_namelen;
	size_t n = mm->msg_len;
	struct hdr h = { 0 };

	if (n >= sizeof(h))
		memcpy(&h, buf, sizeof(h));
	if (h.magic == MAGIC && h.kind == K_PING) {
		if (sendto(fd, buf, n, 0, (const struct sockaddr *)peer, plen) < 0)
			perror("mrtperf: sendto (pong)");
		return;
	}
	if (h.magic == MAGIC && h.kind == K_DONE) {
		/* Delivery is unordered: "done" may overtake data.
		 * It says how many came before it; answer once
		 * they are all in.
		 */
		sv->done_peer = *peer;
		sv->done_len = plen;
		sv->want = h.seq;
		sv->pending = 1;
	} else {
		if (!sv->st.msgs)
			sv->st.first_ns = now_ns();
		sv->st.last_ns = now_ns();
		sv->st.msgs++;
		sv->st.bytes += n;
	}
	if (sv->pending && sv->st.msgs >= sv->want) {
		if (sendto(fd, &sv->st, sizeof(sv->st), 0,
			   (struct sockaddr *)&sv->done_peer, sv->done_len) < 0)
			perror("mrtperf: sendto (stats)");
		memset(&sv->st, 0, sizeof(sv->st));
		sv->st.h = (struct hdr){ MAGIC, K_STATS, 0 };
		sv->pending = 0;
	}
}

/* Up to batch messages at once: recvmmsg() (batch 1: recvfrom()). */
static int recv_batch(int fd, struct mmsghdr *mv, unsigned int batch)
{
	unsigned int i;
	ssize_t n;

	for (i = 0; i < batch; i++) {
		mv[i].msg_hdr.msg_namelen = sizeof(struct sockaddr_storage);
		mv[i].msg_hdr.msg_flags = 0;
	}
	if (batch > 1)
		return recvmmsg(fd, mv, batch, MSG_WAITFORONE, NULL);
	n = recvmsg(fd, &mv[0].msg_hdr, 0);
	if (n < 0)
		return -1;
	mv[0].msg_len = (unsigned int)n;
	return 1;
}

static noreturn void server(const char *bind_addr, unsigned int ep, int bufsz,
			    size_t maxlen, unsigned int batch)
{
	struct served sv = { .st.h = { MAGIC, K_STATS, 0 } };
	struct sockaddr_storage me, *peers;
	struct mmsghdr *mv;
	struct iovec *iov;
	unsigned int i;
	socklen_t len;
	int fd;

	mv = calloc(batch, sizeof(*mv));
	iov = calloc(batch, sizeof(*iov));
	peers = calloc(batch, sizeof(*peers));
	if (!mv || !iov || !peers)
		die("calloc");
	for (i = 0; i < batch; i++) {
		/* untouched, the pages cost nothing */
		iov[i].iov_base = malloc(maxlen);
		iov[i].iov_len = maxlen;
		if (!iov[i].iov_base)
			die("malloc");
		mv[i].msg_hdr.msg_iov = &iov[i];
		mv[i].msg_hdr.msg_iovlen = 1;
		mv[i].msg_hdr.msg_name = &peers[i];
	}
	fd = mksock(parse_addr(bind_addr, ep, &me, &len), bufsz);
	if (bind(fd, (struct sockaddr *)&me, len))
		die("bind");
	printf("mrtperf: listening on %s endpoint %u\n", bind_addr, ep);
	fflush(stdout);
	for (;;) {
		int got = recv_batch(fd, mv, batch);

		if (got < 0) {
			if (errno == EINTR)
				continue;
			die("recvmmsg");
		}
		for (i = 0; i < (unsigned int)got; i++)
			serve_one(fd, &mv[i], &sv);
	}
}

/* --tcp: the same request-response over TCP (TCP_NODELAY), the yardstick
 * for mrt's ping-pong: the server echoes every byte it reads, one
 * connection at a time.
 */
static noreturn void tcp_server(const char *bind_addr, unsigned int ep)
{
	struct sockaddr_storage me;
	static char buf[1 << 16];
	int fd, c, one = 1;
	socklen_t len;
	ssize_t n;

	fd = socket(parse_addr(bind_addr, ep, &me, &len), SOCK_STREAM, 0);
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)))
		die("socket(SOCK_STREAM)");
	if (bind(fd, (struct sockaddr *)&me, len) || listen(fd, 4))
		die("bind/listen");
	printf("mrtperf: listening on %s TCP port %u\n", bind_addr, ep);
	fflush(stdout);
	for (;;) {
		c = accept(fd, NULL, NULL);
		if (c < 0) {
			if (errno == EINTR)
				continue;
			die("accept");
		}
		setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		while ((n = read(c, buf, sizeof(buf))) > 0)
			if (write(c, buf, (size_t)n) != n)
				break;
		close(c);
	}
}

/* One TCP request of size bytes and its whole echo. */
static void tcp_rr(int fd, char *buf, size_t size)
{
	size_t got = 0;
	ssize_t n;

	if (write(fd, buf, size) != (ssize_t)size)
		die("write (ping)");
	while (got < size) {
		n = read(fd, buf + got, size - got);
		if (n <= 0)
			die("read (pong)");
		got += (size_t)n;
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t pct(const uint64_t *v, size_t n, double p)
{
	size_t i = (size_t)(p * (double)(n - 1) + 0.5);

	return n ? v[i < n ? i : n - 1] : 0;
}

/* Messages sent..sent+k-1 of size bytes from buf, each with its header:
 * one sendmmsg() (k 1: send()).  Returns how many went.
 */
static int send_batch(int fd, char *buf, size_t size, long sent, unsigned int k,
		      struct mmsghdr *mv, struct iovec *iov)
{
	unsigned int i;
	int n;

	for (i = 0; i < k; i++) {
		struct hdr h = { MAGIC, K_DATA, (uint64_t)(sent + i) };
		char *b = buf + (size_t)i * size;

		if (size >= sizeof(h))
			memcpy(b, &h, sizeof(h));
		iov[i].iov_base = b;
		iov[i].iov_len = size;
		memset(&mv[i], 0, sizeof(mv[i]));
		mv[i].msg_hdr.msg_iov = &iov[i];
		mv[i].msg_hdr.msg_iovlen = 1;
	}
	if (k > 1)
		return sendmmsg(fd, mv, k, 0);
	n = (int)send(fd, buf, size, 0);
	return n < 0 ? -1 : 1;
}

static int client(const char *addr, unsigned int ep, long msgs, size_t size,
		  double secs, int pingpong, int bufsz, int json, unsigned int batch,
		  int tcp)
{
	struct sockaddr_storage peer;
	size_t blen = size < sizeof(struct stats) ? sizeof(struct stats) : size;
	uint64_t t0, end, *lat = NULL;
	struct stats st = { 0 };
	char *buf = calloc(1, blen + 1);
	struct timeval tv = { 0 };
	struct mmsghdr *mv = calloc(batch, sizeof(*mv));
	struct iovec *iov = calloc(batch, sizeof(*iov));
	char *bbuf = NULL;
	long sent = 0;
	socklen_t len;
	int fd;

	if (!buf)
		die("calloc");
	if (tcp) {
		int one = 1;

		fd = socket(parse_addr(addr, ep, &peer, &len), SOCK_STREAM, 0);
		if (fd < 0)
			die("socket(SOCK_STREAM)");
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	} else {
		fd = mksock(parse_addr(addr, ep, &peer, &len), bufsz);
	}
	if (connect(fd, (struct sockaddr *)&peer, len))
		die("connect");
	/* an answer lost for good (no server) ends the run, not hangs it */
	tv.tv_sec = (time_t)secs + 30;
	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)))
		die("setsockopt(SO_RCVTIMEO)");
	if (pingpong && size < sizeof(struct hdr))
		size = sizeof(struct hdr);
	if (pingpong) {
		lat = calloc(msgs, sizeof(*lat));
		if (!lat)
			die("calloc");
	}
	if (!mv || !iov)
		die("calloc");
	if (batch > 1 && !pingpong) {
		bbuf = calloc(batch, size ? size : 1);
		if (!bbuf)
			die("calloc");
	}
	t0 = now_ns();
	end = t0 + (uint64_t)(secs * 1e9);
	while (bbuf && sent < msgs && now_ns() < end) {
		unsigned int k = msgs - sent < (long)batch ?
				 (unsigned int)(msgs - sent) : batch;
		int n = send_batch(fd, bbuf, size, sent, k, mv, iov);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			die("sendmmsg");
		}
		sent += n;
	}
	while (!bbuf && sent < msgs && now_ns() < end) {
		struct hdr h = { MAGIC, pingpong ? K_PING : K_DATA, (uint64_t)sent };
		uint64_t t = now_ns();

		if (size >= sizeof(h))
			memcpy(buf, &h, sizeof(h));
		if (tcp) {
			tcp_rr(fd, buf, size);
			lat[sent++] = now_ns() - t;
			continue;
		}
		if (send(fd, buf, size, 0) < 0) {
			if (errno == EINTR)
				continue;
			die("send");
		}
		if (pingpong) {
			if (recv(fd, buf, blen, 0) < 0)
				die("recv (pong)");
			lat[sent] = now_ns() - t;
		}
		sent++;
	}
	if (!pingpong) {
		struct hdr h = { MAGIC, K_DONE, (uint64_t)sent };

		if (send(fd, &h, sizeof(h), 0) < 0)
			die("send (done)");
		if (recv(fd, &st, sizeof(st), 0) < (ssize_t)sizeof(st) ||
		    st.h.magic != MAGIC || st.h.kind != K_STATS) {
			fprintf(stderr, "mrtperf: no statistics from the server\n");
			return 1;
		}
	}
	if (pingpong) {
		uint64_t p50, p99, p999;

		qsort(lat, sent, sizeof(*lat), cmp_u64);
		p50 = pct(lat, sent, 0.5);
		p99 = pct(lat, sent, 0.99);
		p999 = pct(lat, sent, 0.999);
		if (json) {
			printf("{\"mode\":\"pingpong\",\"size\":%zu,\"msgs\":%ld,", size, sent);
			printf("\"p50_us\":%.1f,\"p99_us\":%.1f,\"p999_us\":%.1f}\n",
			       p50 / 1e3, p99 / 1e3, p999 / 1e3);
		} else {
			printf("pingpong %zu B x %ld: ", size, sent);
			printf("p50 %.1f us, p99 %.1f us, p99.9 %.1f us\n",
			       p50 / 1e3, p99 / 1e3, p999 / 1e3);
		}
	} else {
		double dt = st.last_ns > st.first_ns ?
			    (st.last_ns - st.first_ns) / 1e9 : 0;
		double gbps = dt ? st.bytes * 8 / dt / 1e9 : 0;
		double rate = dt ? st.msgs / dt : 0;

		if (json) {
			printf("{\"mode\":\"stream\",\"size\":%zu,\"sent\":%ld,", size, sent);
			printf("\"received\":%llu,\"bytes\":%llu,\"secs\":%.3f,",
			       (unsigned long long)st.msgs,
			       (unsigned long long)st.bytes, dt);
			printf("\"goodput_gbps\":%.3f,\"msgs_per_sec\":%.0f}\n", gbps, rate);
		} else {
			printf("stream %zu B: %ld sent, %llu received in %.3f s: ",
			       size, sent, (unsigned long long)st.msgs, dt);
			printf("%.3f Gbit/s, %.0f msgs/s\n", gbps, rate);
		}
		if ((long)st.msgs != sent) {
			fprintf(stderr, "mrtperf: the server received %llu of %ld\n",
				(unsigned long long)st.msgs, sent);
			return 1;
		}
	}
	return 0;
}

static noreturn void help(int code)
{
	fputs("usage: mrtperf -s [-B ADDR] [-p EP] [-w BYTES] [-b N] [--tcp]\n"
	      "       mrtperf -c ADDR [-p EP] [-n MSGS] [-l SIZE] [-t SECS] [--pingpong]\n"
	      "               [-w BYTES] [-b N] [--tcp] [-j]\n"
	      "  -s          server: count messages, echo pings\n"
	      "  -B ADDR     server: address to bind (default 0.0.0.0; :: for IPv6)\n"
	      "  -c ADDR     client: the server's address\n"
	      "  -p EP       mrt endpoint (default 5201)\n"
	      "  -n MSGS     messages to send (default 1000)\n"
	      "  -l SIZE     message size in bytes (default 1048576)\n"
	      "  -t SECS     at most this long (default 10)\n"
	      "  --pingpong  one message at a time; latency percentiles\n"
	      "  -w BYTES    SO_SNDBUF and SO_RCVBUF (default: the system's)\n"
	      "  -b N        up to N messages a system call: the client's stream\n"
	      "              sends with sendmmsg(), the server receives with\n"
	      "              recvmmsg() (default 1: send() and recvfrom())\n"
	      "  --tcp       the same over TCP (TCP_NODELAY): a server that\n"
	      "              echoes, a client that pings (--pingpong only)\n"
	      "  -j          JSON output\n", code ? stderr : stdout);
	exit(code);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "pingpong", no_argument, NULL, 'P' },
		{ "json", no_argument, NULL, 'j' },
		{ "batch", required_argument, NULL, 'b' },
		{ "tcp", no_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *addr = NULL, *bind_addr = NULL;
	int c, srv = 0, pingpong = 0, json = 0, bufsz = 0, tcp = 0;
	unsigned int ep = 5201;
	long msgs = 1000, batch = 1;
	size_t size = 1048576;
	double secs = 10;

	while ((c = getopt_long(argc, argv, "sB:c:p:n:l:t:w:b:jh", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			srv = 1;
			break;
		case 'B':
			bind_addr = optarg;
			break;
		case 'c':
			addr = optarg;
			break;
		case 'p':
			ep = strtoul(optarg, NULL, 0);
			break;
		case 'n':
			msgs = strtol(optarg, NULL, 0);
			break;
		case 'l':
			size = strtoul(optarg, NULL, 0);
			break;
		case 't':
			secs = strtod(optarg, NULL);
			break;
		case 'w':
			bufsz = strtol(optarg, NULL, 0);
			break;
		case 'b':
			batch = strtol(optarg, NULL, 0);
			break;
		case 'T':
			tcp = 1;
			break;
		case 'P':
			pingpong = 1;
			break;
		case 'j':
			json = 1;
			break;
		case 'h':
			help(0);
		default:
			help(2);
		}
	}
	if (srv == !!addr || !ep || ep > 65535 || msgs <= 0 || secs <= 0 ||
	    batch < 1 || batch > 1024)
		help(2);
	if (tcp && !srv && !pingpong)
		help(2);
	if (srv && tcp)
		tcp_server(bind_addr ? bind_addr : "0.0.0.0", ep);
	if (srv)
		server(bind_addr ? bind_addr : "0.0.0.0", ep, bufsz,
		       size > (1U << 24) ? size : (1U << 24), (unsigned int)batch);
	return client(addr, ep, msgs, size, secs, pingpong, bufsz, json,
		      (unsigned int)batch, tcp);
}
