// SPDX-License-Identifier: GPL-2.0
/*
 * fi_mrt_test: the libfabric provider "mrt" through libfabric's API, as an
 * application sees it, with two hosts: network namespaces NS_A and NS_B.
 * One process opens endpoints in both (setns() before each socket), so
 * every case is a sequence of calls with no race between two programs.
 *
 *   fi_mrt_test NS_A NS_B 4|6 UNREACHABLE_ADDR
 *
 * Prints "PASS: ..." or "FAIL: ..." per check and "# ..." notes; exits 1
 * if any check failed.  Every wait is fi_cq_sread() with a timeout (times
 * WAIT_SCALE), so a lost completion fails, never hangs.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rdma/fabric.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_eq.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_tagged.h>

static int failed, wait_scale = 1;

static void check(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s: ", ok ? "PASS" : "FAIL");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (!ok)
		failed = 1;
}

static void die(const char *what, int ret)
{
	printf("FAIL: %s: %d (%s)\n", what, ret, fi_strerror(ret < 0 ? -ret : ret));
	exit(1);
}

struct host {
	const char		*ns;
	struct fi_info		*info;
	struct fid_fabric	*fab;
	struct fid_domain	*dom;
	struct fid_av		*av;
	struct fid_cq		*cq;	/* transmit and receive */
	struct fid_ep		*ep;
	char			name[64];
	size_t			namelen;
};

static int family;

static void enter_ns(const char *ns)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), "/var/run/netns/%s", ns);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || setns(fd, CLONE_NEWNET))
		die("setns", -errno);
	close(fd);
}

static void host_open(struct host *h, const char *ns)
{
	struct fi_info *hints = fi_allocinfo();
	struct fi_cq_attr cqa = {
		.format = FI_CQ_FORMAT_TAGGED, .wait_obj = FI_WAIT_FD, .size = 4096,
	};
	struct fi_av_attr ava = { .type = FI_AV_TABLE };
	int ret;

	h->ns = ns;
	enter_ns(ns);
	hints->ep_attr->type = FI_EP_RDM;
	hints->caps = FI_MSG | FI_TAGGED | FI_SOURCE | FI_DIRECTED_RECV;
	hints->addr_format = family == 6 ? FI_SOCKADDR_IN6 : FI_SOCKADDR_IN;
	hints->fabric_attr->prov_name = strdup("mrt");
	ret = fi_getinfo(FI_VERSION(1, 17), NULL, NULL, 0, hints, &h->info);
	fi_freeinfo(hints);
	if (ret)
		die("fi_getinfo", ret);
	ret = fi_fabric(h->info->fabric_attr, &h->fab, NULL);
	if (ret)
		die("fi_fabric", ret);
	ret = fi_domain(h->fab, h->info, &h->dom, NULL);
	if (ret)
		die("fi_domain", ret);
	ret = fi_av_open(h->dom, &ava, &h->av, NULL);
	if (ret)
		die("fi_av_open", ret);
	ret = fi_cq_open(h->dom, &cqa, &h->cq, NULL);
	if (ret)
		die("fi_cq_open", ret);
	ret = fi_endpoint(h->dom, h->info, &h->ep, NULL);
	if (ret)
		die("fi_endpoint", ret);
	ret = fi_ep_bind(h->ep, &h->av->fid, 0);
	if (!ret)
		ret = fi_ep_bind(h->ep, &h->cq->fid, FI_TRANSMIT | FI_RECV);
	if (ret)
		die("fi_ep_bind", ret);
	ret = fi_enable(h->ep);
	if (ret)
		die("fi_enable", ret);
	h->namelen = sizeof(h->name);
	ret = fi_getname(&h->ep->fid, h->name, &h->namelen);
	if (ret)
		die("fi_getname", ret);
}

static void host_close(struct host *h)
{
	fi_close(&h->ep->fid);
	fi_close(&h->cq->fid);
	fi_close(&h->av->fid);
	fi_close(&h->dom->fid);
	fi_close(&h->fab->fid);
	fi_freeinfo(h->info);
}

static fi_addr_t av_add(struct host *h, const void *name)
{
	fi_addr_t fa;

	if (fi_av_insert(h->av, name, 1, &fa, 0, NULL) != 1)
		die("fi_av_insert", -FI_EINVAL);
	return fa;
}

/* one completion or error from @h's CQ within @ms; 1, 0 (error entry) or -1 */
static int wait_comp(struct host *h, struct fi_cq_tagged_entry *e, fi_addr_t *src,
		     struct fi_cq_err_entry *ee, int ms)
{
	ssize_t r = fi_cq_sreadfrom(h->cq, e, 1, src, NULL, ms * wait_scale);

	if (r == 1)
		return 1;
	if (r == -FI_EAVAIL) {
		memset(ee, 0, sizeof(*ee));
		if (fi_cq_readerr(h->cq, ee, 0) == 1)
			return 0;
	}
	printf("# %s: no completion within %d ms (%zd %s)\n", h->ns, ms * wait_scale, r,
	       fi_strerror((int)-r));
	return -1;
}

/* the send completions of @n sends on @h */
static int wait_sends(struct host *h, int n)
{
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry ee;
	int got = 0;

	while (got < n) {
		int r = wait_comp(h, &e, NULL, &ee, 10000);

		if (r < 0)
			break;
		if (r == 0) {
			printf("# send error: %s\n", fi_strerror(ee.err));
			break;
		}
		if (e.flags & FI_SEND)
			got++;
	}
	return got;
}

static ssize_t post_retry(ssize_t (*fn)(void *), void *arg, struct host *h)
{
	ssize_t r;
	int i;

	for (i = 0; i < 100000; i++) {
		r = fn(arg);
		if (r != -FI_EAGAIN)
			return r;
		fi_cq_read(h->cq, NULL, 0);	/* progress */
		usleep(100);
	}
	return r;
}

struct tsend_arg {
	struct host	*h;
	const void	*buf;
	size_t		len;
	fi_addr_t	to;
	uint64_t	tag;
	void		*ctx;
};

static ssize_t do_send(void *p)
{
	struct tsend_arg *a = p;

	return fi_send(a->h->ep, a->buf, a->len, NULL, a->to, a->ctx);
}

struct sleeper {
	struct host	*h;
	ssize_t		r;
	long		secs;
	pid_t		tid;	/* __atomic: set by the thread */
};

/* is thread @tid asleep (state S)? */
static int asleep(pid_t tid)
{
	char path[64], st[512], *p;
	FILE *f;
	int ok = 0;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	if (fgets(st, sizeof(st), f)) {
		p = strrchr(st, ')');
		ok = p && p[1] == ' ' && p[2] == 'S';
	}
	fclose(f);
	return ok;
}

static void *sleeper(void *p)
{
	struct sleeper *s = p;
	struct fi_cq_tagged_entry e;
	struct timespec t0, t1;

	__atomic_store_n(&s->tid, gettid(), __ATOMIC_RELEASE);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	s->r = fi_cq_sread(s->h->cq, &e, 1, NULL, 60000);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	s->secs = t1.tv_sec - t0.tv_sec;
	return NULL;
}

int main(int argc, char **argv)
{
	struct host A = { 0 }, B = { 0 }, C = { 0 };
	fi_addr_t a_on_b, b_on_a, c_on_b, b_on_c, dead_on_a;
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry ee;
	fi_addr_t src;
	char buf[4][256];
	int ctx[8], r, i;
	const char *ws = getenv("WAIT_SCALE");

	if (argc != 5) {
		fprintf(stderr, "usage: %s NS_A NS_B 4|6 UNREACHABLE_ADDR\n", argv[0]);
		return 2;
	}
	if (ws && atoi(ws) > 0)
		wait_scale = atoi(ws);
	family = atoi(argv[3]);
	host_open(&A, argv[1]);
	host_open(&C, argv[1]);
	host_open(&B, argv[2]);
	printf("# A %s, B %s, C (A's namespace), IPv%d, domain %s\n", A.ns, B.ns, family,
	       A.info->domain_attr->name);
	enter_ns(A.ns);
	b_on_a = av_add(&A, B.name);
	b_on_c = av_add(&C, B.name);
	a_on_b = av_add(&B, A.name);
	c_on_b = av_add(&B, C.name);

	/* 1. a message, its completions and its source */
	r = fi_recv(B.ep, buf[0], sizeof(buf[0]), NULL, FI_ADDR_UNSPEC, &ctx[0]);
	check(r == 0, "fi_recv posts a receive (%d)", r);
	r = fi_send(A.ep, "hello mrt", 10, NULL, b_on_a, &ctx[1]);
	check(r == 0, "fi_send (%d)", r);
	r = wait_comp(&B, &e, &src, &ee, 10000);
	check(r == 1 && e.op_context == &ctx[0] && e.len == 10 &&
	      e.flags == (FI_RECV | FI_MSG) && !strcmp(buf[0], "hello mrt"),
	      "the receive completes with its context, FI_RECV|FI_MSG, 10 bytes, the data");
	check(r == 1 && src == a_on_b, "FI_SOURCE: the completion names the sender's AV entry");
	r = wait_comp(&A, &e, NULL, &ee, 10000);
	check(r == 1 && e.op_context == &ctx[1] && e.flags == (FI_SEND | FI_MSG),
	      "the send completes (the peer's transport has it) with FI_SEND|FI_MSG");

	/* 2. tagged matching under ignore masks */
	r = fi_trecv(B.ep, buf[0], sizeof(buf[0]), NULL, FI_ADDR_UNSPEC, 0x1200, 0xff, &ctx[0]);
	r |= fi_trecv(B.ep, buf[1], sizeof(buf[1]), NULL, FI_ADDR_UNSPEC, 0x5, 0, &ctx[1]);
	check(r == 0, "two tagged receives: tag 0x1200 ignore 0xff, tag 0x5 exact");
	r = fi_tsend(A.ep, "five", 5, NULL, b_on_a, 0x5, &ctx[2]);
	r |= fi_tsend(A.ep, "twelve-ab", 10, NULL, b_on_a, 0x12ab, &ctx[3]);
	check(r == 0, "fi_tsend of tags 0x5 then 0x12ab");
	{
		int seen = 0;

		for (i = 0; i < 2; i++) {
			if (wait_comp(&B, &e, NULL, &ee, 10000) != 1)
				break;
			if (e.op_context == &ctx[0] && e.tag == 0x12ab && e.len == 10 &&
			    e.flags == (FI_RECV | FI_TAGGED) && !strcmp(buf[0], "twelve-ab"))
				seen |= 1;
			if (e.op_context == &ctx[1] && e.tag == 0x5 && !strcmp(buf[1], "five"))
				seen |= 2;
		}
		check(seen == 3, "0x12ab lands in the masked receive, 0x5 in the exact one");
	}
	check(wait_sends(&A, 2) == 2, "both tagged sends complete");

	/* 3. unexpected messages, matched later and out of their order */
	for (i = 1; i <= 3; i++) {
		char m[16];

		snprintf(m, sizeof(m), "tag %d", i);
		r = fi_tsend(A.ep, m, strlen(m) + 1, NULL, b_on_a, (uint64_t)i, NULL);
		if (r)
			break;
	}
	check(r == 0 && wait_sends(&A, 3) == 3,
	      "three tagged messages sent and delivered before any receive is posted");
	{
		int ok = 1;

		for (i = 3; i >= 1; i--) {
			char want[16];

			memset(buf[0], 0, sizeof(buf[0]));
			r = fi_trecv(B.ep, buf[0], sizeof(buf[0]), NULL, FI_ADDR_UNSPEC,
				     (uint64_t)i, 0, &ctx[i]);
			snprintf(want, sizeof(want), "tag %d", i);
			if (r || wait_comp(&B, &e, NULL, &ee, 10000) != 1 ||
			    e.op_context != &ctx[i] || e.tag != (uint64_t)i || strcmp(buf[0], want))
				ok = 0;
		}
		check(ok, "unexpected messages: receives for tags 3, 2, 1 each get theirs");
	}

	/* 4. FI_ORDER_SAS: 200 messages complete in the order they were sent */
	{
		static uint32_t seq[200];
		int in_order = 1, n = 0;

		for (i = 0; i < 200; i++)
			fi_recv(B.ep, &seq[i], sizeof(seq[i]), NULL, FI_ADDR_UNSPEC, &seq[i]);
		for (i = 0; i < 200; i++) {
			uint32_t v = (uint32_t)i;
			struct tsend_arg a = { &A, &v, sizeof(v), b_on_a, 0, NULL };

			if (post_retry(do_send, &a, &A))
				break;
		}
		for (i = 0; i < 200; i++) {
			if (wait_comp(&B, &e, NULL, &ee, 10000) != 1)
				break;
			if (e.op_context != &seq[i] || seq[i] != (uint32_t)i)
				in_order = 0;
			n++;
		}
		check(n == 200 && in_order,
		      "200 messages arrive in order, each in its own receive (%d)", n);
		check(wait_sends(&A, 200) == 200, "and all 200 sends complete");
	}

	/* 5. truncation */
	{
		char big[100], small[16];

		memset(big, 'x', sizeof(big));
		memset(small, 0, sizeof(small));
		fi_recv(B.ep, small, sizeof(small), NULL, FI_ADDR_UNSPEC, &ctx[5]);
		fi_send(A.ep, big, sizeof(big), NULL, b_on_a, NULL);
		r = wait_comp(&B, &e, NULL, &ee, 10000);
		check(r == 0 && ee.err == FI_ETRUNC && ee.olen == 84 && ee.len == 16 &&
		      ee.op_context == &ctx[5] && small[15] == 'x',
		      "100 bytes into a 16-byte receive: FI_ETRUNC, len 16, olen 84, the buffer filled (err %d olen %zu)",
		      ee.err, ee.olen);
		check(wait_sends(&A, 1) == 1, "and the send itself completes");
	}

	/* 6. many outstanding sends: 3000 of 4 KiB, tx_size is 1024 */
	{
		static char payload[4096], rb[64][4096];
		int sent = 0, recvd = 0, txc = 0, eagain = 0, errs = 0, idle = 0;
		int fda = -1, fdb = -1;

		fi_control(&A.cq->fid, FI_GETWAIT, &fda);
		fi_control(&B.cq->fid, FI_GETWAIT, &fdb);
		for (i = 0; i < 64; i++)
			fi_recv(B.ep, rb[i], sizeof(rb[i]), NULL, FI_ADDR_UNSPEC, rb[i]);
		while ((sent < 3000 || recvd < 3000 || txc < 3000) && idle < 100) {
			struct fi_cq_tagged_entry es[64];
			ssize_t n;
			int moved = 0;

			if (sent < 3000) {
				r = fi_send(A.ep, payload, sizeof(payload), NULL, b_on_a, NULL);
				if (r == 0)
					sent++, moved = 1;
				else if (r == -FI_EAGAIN)
					eagain++;
				else
					break;
			}
			n = fi_cq_read(A.cq, es, 64);
			if (n > 0)
				txc += (int)n, moved = 1;
			else if (n == -FI_EAVAIL)
				errs++, fi_cq_readerr(A.cq, &ee, 0);
			n = fi_cq_read(B.cq, es, 64);
			if (n == -FI_EAVAIL)
				errs++, fi_cq_readerr(B.cq, &ee, 0);
			for (i = 0; i < n; i++) {
				recvd++, moved = 1;
				fi_recv(B.ep, es[i].op_context, sizeof(rb[0]), NULL, FI_ADDR_UNSPEC,
					es[i].op_context);
			}
			if (moved) {
				idle = 0;
			} else if (sent == 3000 || r == -FI_EAGAIN) {
				struct pollfd p[2] = { { fda, POLLIN, 0 }, { fdb, POLLIN, 0 } };

				/* 100 waits of 100 ms without any progress: stuck */
				if (poll(p, 2, 100 * wait_scale) == 0)
					idle++;
			}
		}
		printf("# 3000 sends: %d -FI_EAGAIN from fi_send\n", eagain);
		check(sent == 3000 && txc == 3000 && errs == 0,
		      "3000 sends of 4 KiB with at most 1024 outstanding: 3000 completions (%d)",
		      txc);
		check(recvd == 3000, "the receiver has all 3000 (%d)", recvd);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
		check(fi_tx_size_left(A.ep) == 1024, "tx_size_left is 1024 again");
#pragma GCC diagnostic pop
		for (i = 0; i < 64; i++)
			fi_cancel(&B.ep->fid, rb[i]);
		while (fi_cq_read(B.cq, &e, 1) == -FI_EAVAIL)
			fi_cq_readerr(B.cq, &ee, 0);
	}

	/* 7. cancel */
	r = fi_trecv(B.ep, buf[0], sizeof(buf[0]), NULL, FI_ADDR_UNSPEC, 0x77, 0, &ctx[7]);
	check(r == 0 && fi_cancel(&B.ep->fid, &ctx[7]) == 0, "fi_cancel of a posted receive");
	r = wait_comp(&B, &e, NULL, &ee, 1000);
	check(r == 0 && ee.err == FI_ECANCELED && ee.op_context == &ctx[7] &&
	      (ee.flags & (FI_RECV | FI_TAGGED)) == (FI_RECV | FI_TAGGED),
	      "its completion is an FI_ECANCELED error with its context");
	check(fi_cancel(&B.ep->fid, &ctx[7]) == -FI_ENOENT, "a second fi_cancel: -FI_ENOENT");

	/* 8. the CQ's fd wakes poll() */
	{
		int fd = -1;
		struct fid *f = &B.cq->fid;
		struct pollfd p;

		check(fi_control(&B.cq->fid, FI_GETWAIT, &fd) == 0 && fd >= 0,
		      "FI_GETWAIT gives the CQ's fd");
		fi_recv(B.ep, buf[0], sizeof(buf[0]), NULL, FI_ADDR_UNSPEC, &ctx[0]);
		check(fi_trywait(B.fab, &f, 1) == 0, "fi_trywait: nothing pending, safe to wait");
		p = (struct pollfd){ .fd = fd, .events = POLLIN };
		check(poll(&p, 1, 0) == 0, "the fd is not readable with nothing pending");
		fi_send(A.ep, "wake", 5, NULL, b_on_a, NULL);
		p = (struct pollfd){ .fd = fd, .events = POLLIN };
		r = poll(&p, 1, 10000 * wait_scale);
		check(r == 1 && (p.revents & POLLIN), "a message arriving wakes poll() on it");
		check(fi_trywait(B.fab, &f, 1) == -FI_EAGAIN, "fi_trywait then says -FI_EAGAIN");
		r = wait_comp(&B, &e, NULL, &ee, 1000);
		check(r == 1 && e.op_context == &ctx[0] && !strcmp(buf[0], "wake"),
		      "and fi_cq_read has the completion");
		wait_sends(&A, 1);
		check(fi_cq_sread(B.cq, &e, 1, NULL, 50) == -FI_EAGAIN,
		      "fi_cq_sread with nothing to come times out with -FI_EAGAIN");
		{
			struct timespec t0, t1;

			fi_cq_signal(B.cq);
			clock_gettime(CLOCK_MONOTONIC, &t0);
			r = (int)fi_cq_sread(B.cq, &e, 1, NULL, 60000);
			clock_gettime(CLOCK_MONOTONIC, &t1);
			check(r == -FI_EAGAIN && t1.tv_sec - t0.tv_sec < 60,
			      "fi_cq_signal ends a wait before its timeout");
		}
	}

	/* 9. FI_DIRECTED_RECV: a receive for A's messages leaves C's alone */
	{
		fi_recv(B.ep, buf[0], sizeof(buf[0]), NULL, a_on_b, &ctx[0]);
		fi_send(C.ep, "from C", 7, NULL, b_on_c, NULL);
		check(wait_sends(&C, 1) == 1, "C's message delivered");
		fi_send(A.ep, "from A", 7, NULL, b_on_a, NULL);
		r = wait_comp(&B, &e, &src, &ee, 10000);
		check(r == 1 && e.op_context == &ctx[0] && src == a_on_b &&
		      !strcmp(buf[0], "from A"),
		      "a directed receive takes A's message, not C's that came first");
		fi_recv(B.ep, buf[1], sizeof(buf[1]), NULL, FI_ADDR_UNSPEC, &ctx[1]);
		r = wait_comp(&B, &e, &src, &ee, 10000);
		check(r == 1 && e.op_context == &ctx[1] && src == c_on_b &&
		      !strcmp(buf[1], "from C"),
		      "an undirected one then gets C's, with C as its source");
		wait_sends(&A, 1);
	}

	/* 10. remote CQ data, inject, iovecs */
	{
		struct iovec siov[3] = { { "ab", 2 }, { "cde", 3 }, { "f", 2 } };
		char r1[3] = { 0 }, r2[8] = { 0 };
		struct iovec riov[2] = { { r1, 3 }, { r2, 8 } };

		fi_recv(B.ep, buf[0], sizeof(buf[0]), NULL, FI_ADDR_UNSPEC, &ctx[0]);
		fi_senddata(A.ep, "d", 2, NULL, 0xfeedULL, b_on_a, NULL);
		r = wait_comp(&B, &e, NULL, &ee, 10000);
		check(r == 1 && (e.flags & FI_REMOTE_CQ_DATA) && e.data == 0xfeed,
		      "fi_senddata: the receive has FI_REMOTE_CQ_DATA and the data");
		wait_sends(&A, 1);
		fi_recv(B.ep, buf[0], sizeof(buf[0]), NULL, FI_ADDR_UNSPEC, &ctx[0]);
		r = fi_inject(A.ep, "inj", 4, b_on_a);
		check(r == 0, "fi_inject");
		r = wait_comp(&B, &e, NULL, &ee, 10000);
		check(r == 1 && !strcmp(buf[0], "inj"), "the injected message arrives");
		/* the inject's report comes before a later send's */
		fi_send(A.ep, "after", 6, NULL, b_on_a, &ctx[4]);
		r = wait_comp(&A, &e, NULL, &ee, 10000);
		check(r == 1 && e.op_context == &ctx[4],
		      "an inject has no send completion: the next is the later send's");
		fi_recv(B.ep, buf[0], sizeof(buf[0]), NULL, FI_ADDR_UNSPEC, &ctx[0]);
		wait_comp(&B, &e, NULL, &ee, 10000);
		fi_recvv(B.ep, riov, NULL, 2, FI_ADDR_UNSPEC, &ctx[0]);
		fi_sendv(A.ep, siov, NULL, 3, b_on_a, NULL);
		r = wait_comp(&B, &e, NULL, &ee, 10000);
		check(r == 1 && e.len == 7 && !memcmp(r1, "abc", 3) && !strcmp(r2, "def"),
		      "fi_sendv of 3 pieces into fi_recvv of 2");
		wait_sends(&A, 1);
	}

	/* 11. no one at the address: an error completion, never a hang */
	{
		char dead[64];

		memcpy(dead, B.name, B.namelen);
		if (family == 6)
			((struct sockaddr_in6 *)dead)->sin6_port = htons(9);
		else
			((struct sockaddr_in *)dead)->sin_port = htons(9);
		dead_on_a = av_add(&A, dead);
		fi_send(A.ep, "anyone?", 8, NULL, dead_on_a, &ctx[6]);
		r = wait_comp(&A, &e, NULL, &ee, 20000);
		check(r == 0 && ee.err == FI_ECONNREFUSED && ee.op_context == &ctx[6] &&
		      ee.prov_errno == ECONNREFUSED,
		      "no endpoint bound at the peer: an FI_ECONNREFUSED error completion (%s)",
		      r == 0 ? fi_strerror(ee.err) : "none");
		if (family == 6)
			inet_pton(AF_INET6, argv[4], &((struct sockaddr_in6 *)dead)->sin6_addr);
		else
			inet_pton(AF_INET, argv[4], &((struct sockaddr_in *)dead)->sin_addr);
		dead_on_a = av_add(&A, dead);
		fi_send(A.ep, "anyone?", 8, NULL, dead_on_a, &ctx[6]);
		r = wait_comp(&A, &e, NULL, &ee, 60000);
		check(r == 0 && (ee.err == FI_ETIMEDOUT || ee.err == FI_EHOSTUNREACH) &&
		      ee.op_context == &ctx[6],
		      "a host that does not answer: FI_ETIMEDOUT or FI_EHOSTUNREACH (%s)",
		      r == 0 ? fi_strerror(ee.err) : "none");
		r = fi_send(A.ep, "still", 6, NULL, b_on_a, NULL);
		fi_recv(B.ep, buf[0], sizeof(buf[0]), NULL, FI_ADDR_UNSPEC, &ctx[0]);
		check(r == 0 && wait_comp(&B, &e, NULL, &ee, 10000) == 1 &&
		      !strcmp(buf[0], "still"),
		      "the endpoint still serves its other peers");
	}

	/* 12. FI_PEEK, FI_CLAIM, FI_DISCARD */
	{
		struct fi_context fctx = { { 0 } };
		char pb[32] = { 0 };
		struct iovec iov = { pb, sizeof(pb) };
		struct fi_msg_tagged m = { .msg_iov = &iov, .iov_count = 1,
					   .addr = FI_ADDR_UNSPEC, .tag = 0x99, .context = &fctx };

		fi_tsend(A.ep, "peeked", 7, NULL, b_on_a, 0x99, NULL);
		fi_tsend(A.ep, "dropped", 8, NULL, b_on_a, 0x98, NULL);
		check(wait_sends(&A, 2) == 2, "two tagged messages delivered, no receive posted");
		r = (int)fi_trecvmsg(B.ep, &m, FI_PEEK);
		check(r == 0 && wait_comp(&B, &e, &src, &ee, 10000) == 1 && e.len == 7 &&
		      e.tag == 0x99 && src == a_on_b && e.op_context == &fctx,
		      "FI_PEEK finds the message: its length, tag and source");
		r = (int)fi_trecvmsg(B.ep, &m, FI_PEEK | FI_CLAIM);
		check(r == 0 && wait_comp(&B, &e, NULL, &ee, 10000) == 1 && e.len == 7,
		      "FI_PEEK | FI_CLAIM claims it");
		r = (int)fi_trecv(B.ep, buf[0], sizeof(buf[0]), NULL, FI_ADDR_UNSPEC, 0x99, 0,
				  &ctx[0]);
		fi_cancel(&B.ep->fid, &ctx[0]);
		r = wait_comp(&B, &e, NULL, &ee, 10000);
		check(r == 0 && ee.err == FI_ECANCELED,
		      "a claimed message is no longer there for an ordinary receive");
		m.addr = 9999;	/* a claim names its message by the context alone */
		r = (int)fi_trecvmsg(B.ep, &m, FI_CLAIM);
		check(r == 0 && wait_comp(&B, &e, NULL, &ee, 10000) == 1 && e.len == 7 &&
		      !strcmp(pb, "peeked"), "FI_CLAIM receives the claimed message");
		m.addr = FI_ADDR_UNSPEC;
		check(fi_trecvmsg(B.ep, &m, FI_DISCARD) == -FI_EBADFLAGS,
		      "FI_DISCARD alone: -FI_EBADFLAGS");
		m.tag = 0x98;
		r = (int)fi_trecvmsg(B.ep, &m, FI_PEEK | FI_DISCARD);
		check(r == 0 && wait_comp(&B, &e, NULL, &ee, 10000) == 1 && e.len == 8,
		      "FI_PEEK | FI_DISCARD drops the other");
		r = (int)fi_trecvmsg(B.ep, &m, FI_PEEK);
		check(r == 0 && wait_comp(&B, &e, NULL, &ee, 10000) == 0 && ee.err == FI_ENOMSG,
		      "and FI_PEEK then finds nothing: FI_ENOMSG");
	}

	/* 13. a message from an address the AV does not have yet */
	{
		struct host D = { 0 };
		fi_addr_t b_on_d, d_on_b;

		host_open(&D, A.ns);
		enter_ns(A.ns);
		b_on_d = av_add(&D, B.name);
		fi_send(D.ep, "from D", 7, NULL, b_on_d, NULL);
		check(wait_sends(&D, 1) == 1, "D's message delivered before B knows D");
		fi_recv(B.ep, buf[3], sizeof(buf[3]), NULL, a_on_b, &ctx[3]);
		d_on_b = av_add(&B, D.name);
		fi_recv(B.ep, buf[2], sizeof(buf[2]), NULL, d_on_b, &ctx[2]);
		r = wait_comp(&B, &e, &src, &ee, 10000);
		check(r == 1 && e.op_context == &ctx[2] && src == d_on_b &&
		      !strcmp(buf[2], "from D"),
		      "inserted later, D matches a receive directed at it, and is its source");
		fi_cancel(&B.ep->fid, &ctx[3]);
		wait_comp(&B, &e, NULL, &ee, 1000);
		host_close(&D);
	}

	/* 14. a thread asleep in fi_cq_sread wakes for a completion made by another */
	{
		struct sleeper sl = { .h = &B };
		pthread_t t;

		fi_recv(B.ep, buf[0], sizeof(buf[0]), NULL, FI_ADDR_UNSPEC, &ctx[0]);
		pthread_create(&t, NULL, sleeper, &sl);
		/* cancel once it sleeps in the CQ's wait (10 s at most) */
		for (i = 0; i < 10000; i++) {
			pid_t tid = __atomic_load_n(&sl.tid, __ATOMIC_ACQUIRE);

			if (tid && asleep(tid))
				break;
			usleep(1000);
		}
		check(i < 10000, "a thread sleeps in fi_cq_sread");
		fi_cancel(&B.ep->fid, &ctx[0]);
		pthread_join(t, NULL);
		check(sl.r == -FI_EAVAIL && sl.secs < 60,
		      "fi_cancel from another thread ends a fi_cq_sread (%zd after %ld s)", sl.r,
		      sl.secs);
		wait_comp(&B, &e, NULL, &ee, 1000);
	}

	host_close(&A);
	host_close(&B);
	host_close(&C);
	return failed;
}
