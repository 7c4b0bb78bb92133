// SPDX-License-Identifier: GPL-2.0
/*
 * Completion queues and event queues.
 *
 * A CQ is a growable FIFO of entries, successes and errors in the order
 * they happened (so it never overruns: FI_RM_ENABLED).  Reading it first
 * drives the endpoints bound to it: arrived messages are matched to
 * posted receives, the error queue's reports complete sends.  Its wait
 * object (FI_WAIT_FD, also for FI_WAIT_UNSPEC) is an epoll fd over those
 * endpoints' sockets (EPOLLIN: a whole message is queued; EPOLLERR: a
 * report is) and an eventfd for fi_cq_signal(), so the application can
 * poll() it after fi_trywait() says so, and fi_cq_sread() sleeps in it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "mrt_fi.h"

/* ---- the FIFO ---- */

int mfi_ring_push(struct mfi_ring *r, const void *item)
{
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 64, i;
		uint8_t *v = malloc(cap * r->item);

		if (!v)
			return -FI_ENOMEM;
		for (i = 0; i < r->n; i++)
			memcpy(v + i * r->item,
			       (uint8_t *)r->v + ((r->head + i) % r->cap) * r->item, r->item);
		free(r->v);
		r->v = v;
		r->cap = cap;
		r->head = 0;
	}
	memcpy((uint8_t *)r->v + ((r->head + r->n) % r->cap) * r->item, item, r->item);
	r->n++;
	return 0;
}

void *mfi_ring_peek(struct mfi_ring *r)
{
	return r->n ? (uint8_t *)r->v + r->head * r->item : NULL;
}

void mfi_ring_pop(struct mfi_ring *r)
{
	if (!r->n)
		return;
	r->head = (r->head + 1) % r->cap;
	r->n--;
}

void mfi_ring_free(struct mfi_ring *r)
{
	free(r->v);
	r->v = NULL;
	r->n = 0;
	r->cap = 0;
	r->head = 0;
}

static int mfi_ms_left(const struct timespec *end)
{
	struct timespec now;
	long ms;

	clock_gettime(CLOCK_MONOTONIC, &now);
	ms = (end->tv_sec - now.tv_sec) * 1000 + (end->tv_nsec - now.tv_nsec) / 1000000;
	return ms < 0 ? 0 : (int)ms;
}

static void mfi_deadline(struct timespec *end, int timeout_ms)
{
	clock_gettime(CLOCK_MONOTONIC, end);
	end->tv_sec += timeout_ms / 1000;
	end->tv_nsec += (long)(timeout_ms % 1000) * 1000000;
	if (end->tv_nsec >= 1000000000) {
		end->tv_sec++;
		end->tv_nsec -= 1000000000;
	}
}

static void mfi_drain_eventfd(int fd)
{
	uint64_t v;

	if (fd >= 0 && read(fd, &v, sizeof(v)) < 0)
		return;
}

/*
 * The queue's readiness in the wait fd: whoever adds the first entry (a
 * receive posted against an unexpected message, a cancel, the progress
 * of another CQ) wakes a thread asleep in fi_cq_sread() or poll().
 */
static int mfi_cq_push(struct mfi_cq *cq, const struct mfi_cq_entry *e)
{
	uint64_t one = 1;
	int ret = mfi_ring_push(&cq->q, e);

	if (ret) {
		FI_WARN(&mfi_prov, FI_LOG_CQ, "a completion lost: no memory for the CQ\n");
		return ret;
	}
	if (cq->q.n == 1 && cq->qfd >= 0 && write(cq->qfd, &one, sizeof(one)) < 0)
		return -errno;
	return 0;
}

static void mfi_cq_pop(struct mfi_cq *cq)
{
	mfi_ring_pop(&cq->q);
	if (!cq->q.n)
		mfi_drain_eventfd(cq->qfd);
}

/* ---- completion queues ---- */

int mfi_cq_write(struct mfi_cq *cq, void *ctx, uint64_t flags, size_t len,
		 void *buf, uint64_t data, uint64_t tag, fi_addr_t src)
{
	struct mfi_cq_entry e = {
		.e = { .op_context = ctx, .flags = flags, .len = len, .buf = buf,
		       .data = data, .tag = tag },
		.src = src,
	};

	return mfi_cq_push(cq, &e);
}

int mfi_cq_write_err(struct mfi_cq *cq, void *ctx, uint64_t flags, size_t len,
		     void *buf, uint64_t data, uint64_t tag, size_t olen,
		     int err, int prov_errno)
{
	struct mfi_cq_entry e = {
		.err = true,
		.src = FI_ADDR_NOTAVAIL,
		.ee = { .op_context = ctx, .flags = flags, .len = len, .buf = buf,
			.data = data, .tag = tag, .olen = olen, .err = err,
			.prov_errno = prov_errno },
	};

	return mfi_cq_push(cq, &e);
}

static size_t mfi_cq_entry_size(enum fi_cq_format f)
{
	switch (f) {
	case FI_CQ_FORMAT_CONTEXT:
		return sizeof(struct fi_cq_entry);
	case FI_CQ_FORMAT_MSG:
		return sizeof(struct fi_cq_msg_entry);
	case FI_CQ_FORMAT_DATA:
		return sizeof(struct fi_cq_data_entry);
	case FI_CQ_FORMAT_TAGGED:
		return sizeof(struct fi_cq_tagged_entry);
	default:
		return 0;
	}
}

static void mfi_cq_progress(struct mfi_cq *cq)
{
	size_t i;

	for (i = 0; i < cq->neps; i++)
		mfi_ep_progress(cq->eps[i]);
}

static ssize_t mfi_cq_readfrom(struct fid_cq *fcq, void *buf, size_t count,
			       fi_addr_t *src_addr)
{
	struct mfi_cq *cq = container_of(fcq, struct mfi_cq, cq);
	size_t sz = mfi_cq_entry_size(cq->attr.format), n = 0;
	struct mfi_cq_entry *e;
	ssize_t ret;

	mfi_lock(cq->dom);
	mfi_cq_progress(cq);
	while (n < count && (e = mfi_ring_peek(&cq->q)) && !e->err) {
		memcpy((uint8_t *)buf + n * sz, &e->e, sz);
		if (src_addr)
			src_addr[n] = e->src;
		mfi_cq_pop(cq);
		n++;
	}
	if (n)
		ret = (ssize_t)n;
	else
		ret = cq->q.n ? -FI_EAVAIL : -FI_EAGAIN;
	mfi_unlock(cq->dom);
	return ret;
}

static ssize_t mfi_cq_read(struct fid_cq *cq, void *buf, size_t count)
{
	return mfi_cq_readfrom(cq, buf, count, NULL);
}

static ssize_t mfi_cq_readerr(struct fid_cq *fcq, struct fi_cq_err_entry *buf,
			      uint64_t flags)
{
	struct mfi_cq *cq = container_of(fcq, struct mfi_cq, cq);
	uint32_t api = cq->dom->fab->fab.api_version;
	struct mfi_cq_entry *e;
	ssize_t ret = -FI_EAGAIN;

	mfi_lock(cq->dom);
	e = mfi_ring_peek(&cq->q);
	if (e && e->err) {
		buf->op_context = e->ee.op_context;
		buf->flags = e->ee.flags;
		buf->len = e->ee.len;
		buf->buf = e->ee.buf;
		buf->data = e->ee.data;
		buf->tag = e->ee.tag;
		buf->olen = e->ee.olen;
		buf->err = e->ee.err;
		buf->prov_errno = e->ee.prov_errno;
		/* no provider error data; 1.5 added err_data_size, and a
		 * buffer of the application's there stays its own
		 */
		if (FI_VERSION_GE(api, FI_VERSION(1, 5))) {
			if (!buf->err_data_size)
				buf->err_data = NULL;
			buf->err_data_size = 0;
		} else {
			buf->err_data = NULL;
		}
		mfi_cq_pop(cq);
		ret = 1;
	}
	mfi_unlock(cq->dom);
	return ret;
}

static ssize_t mfi_cq_sreadfrom(struct fid_cq *fcq, void *buf, size_t count,
				fi_addr_t *src_addr, const void *cond, int timeout)
{
	struct mfi_cq *cq = container_of(fcq, struct mfi_cq, cq);
	struct timespec end;
	ssize_t ret;

	if (cq->epfd < 0)
		return -FI_ENOSYS;	/* FI_WAIT_NONE */
	if (timeout >= 0)
		mfi_deadline(&end, timeout);
	for (;;) {
		struct pollfd p = { .fd = cq->epfd, .events = POLLIN };
		int ms = timeout < 0 ? -1 : mfi_ms_left(&end);
		int r;

		ret = mfi_cq_readfrom(fcq, buf, count, src_addr);
		if (ret != -FI_EAGAIN)
			return ret;
		if (timeout >= 0 && !ms)
			return -FI_EAGAIN;
		r = poll(&p, 1, ms);
		if (r < 0 && errno != EINTR)
			return -errno;
		/* fi_cq_signal() ends the wait */
		if (r > 0) {
			struct pollfd s = { .fd = cq->sigfd, .events = POLLIN };

			if (poll(&s, 1, 0) > 0) {
				mfi_drain_eventfd(cq->sigfd);
				return mfi_cq_readfrom(fcq, buf, count, src_addr);
			}
		}
	}
}

static ssize_t mfi_cq_sread(struct fid_cq *cq, void *buf, size_t count,
			    const void *cond, int timeout)
{
	return mfi_cq_sreadfrom(cq, buf, count, NULL, cond, timeout);
}

static int mfi_cq_signal(struct fid_cq *fcq)
{
	struct mfi_cq *cq = container_of(fcq, struct mfi_cq, cq);
	uint64_t one = 1;

	if (cq->sigfd < 0)
		return -FI_ENOSYS;
	if (write(cq->sigfd, &one, sizeof(one)) != sizeof(one))
		return -errno;
	return 0;
}

static const char *mfi_cq_strerror(struct fid_cq *cq, int prov_errno,
				   const void *err_data, char *buf, size_t len)
{
	/* the kernel's errno, or the provider's FI_E* (truncation, cancel) */
	const char *s = fi_strerror(prov_errno);

	if (buf && len) {
		strncpy(buf, s, len - 1);
		buf[len - 1] = 0;
		return buf;
	}
	return s;
}

/* FI_GETWAIT, FI_GETWAITOBJ of a CQ or an EQ whose wait object is @fd */
static int mfi_wait_control(int fd, int command, void *arg)
{
	switch (command) {
	case FI_GETWAIT:
		if (fd < 0)
			return -FI_ENODATA;
		*(int *)arg = fd;
		return 0;
	case FI_GETWAITOBJ:
		*(enum fi_wait_obj *)arg = fd < 0 ? FI_WAIT_NONE : FI_WAIT_FD;
		return 0;
	default:
		return -FI_ENOSYS;
	}
}

static int mfi_cq_control(struct fid *fid, int command, void *arg)
{
	return mfi_wait_control(container_of(fid, struct mfi_cq, cq.fid)->epfd, command, arg);
}

static int mfi_cq_close(struct fid *fid)
{
	struct mfi_cq *cq = container_of(fid, struct mfi_cq, cq.fid);

	if (cq->ref)
		return -FI_EBUSY;
	mfi_dom_ref(cq->dom, -1);
	if (cq->epfd >= 0)
		close(cq->epfd);
	if (cq->sigfd >= 0)
		close(cq->sigfd);
	if (cq->qfd >= 0)
		close(cq->qfd);
	mfi_ring_free(&cq->q);
	free(cq->eps);
	free(cq);
	return 0;
}

static struct fi_ops mfi_cq_fi_ops = {
	.size = sizeof(struct fi_ops),
	.close = mfi_cq_close,
	.bind = mfi_no_bind,
	.control = mfi_cq_control,
	.ops_open = mfi_no_ops_open,
};

static struct fi_ops_cq mfi_cq_ops = {
	.size = sizeof(struct fi_ops_cq),
	.read = mfi_cq_read,
	.readfrom = mfi_cq_readfrom,
	.readerr = mfi_cq_readerr,
	.sread = mfi_cq_sread,
	.sreadfrom = mfi_cq_sreadfrom,
	.signal = mfi_cq_signal,
	.strerror = mfi_cq_strerror,
};

/* called with the domain's lock held */
int mfi_cq_add_ep(struct mfi_cq *cq, struct mfi_ep *ep)
{
	struct mfi_ep **eps;
	size_t i;

	for (i = 0; i < cq->neps; i++)
		if (cq->eps[i] == ep)
			return 0;
	eps = realloc(cq->eps, (cq->neps + 1) * sizeof(*eps));
	if (!eps)
		return -FI_ENOMEM;
	cq->eps = eps;
	cq->eps[cq->neps++] = ep;
	cq->ref++;
	return 0;
}

/*
 * At fi_enable(): the socket joins the CQ's wait set, for what its
 * progress will take: a whole message queued (EPOLLIN) if the endpoint
 * receives into this CQ, a report (EPOLLERR, which epoll always gives).
 * Not before: a socket whose data nothing drains would keep the fd
 * readable and a waiter spinning.
 */
int mfi_cq_watch(struct mfi_cq *cq, struct mfi_ep *ep)
{
	struct epoll_event ev = {
		.events = (ep->rxcq == cq ? EPOLLIN : 0) | EPOLLERR, .data.ptr = ep,
	};

	if (cq->epfd < 0 || !epoll_ctl(cq->epfd, EPOLL_CTL_ADD, ep->fd, &ev))
		return 0;
	return -errno;
}

void mfi_cq_del_ep(struct mfi_cq *cq, struct mfi_ep *ep)
{
	size_t i;

	for (i = 0; i < cq->neps; i++) {
		if (cq->eps[i] != ep)
			continue;
		if (cq->epfd >= 0 && ep->enabled)
			epoll_ctl(cq->epfd, EPOLL_CTL_DEL, ep->fd, NULL);
		cq->eps[i] = cq->eps[--cq->neps];
		cq->ref--;
		return;
	}
}

int mfi_cq_open(struct fid_domain *domain, struct fi_cq_attr *attr,
		struct fid_cq **fcq, void *context)
{
	struct mfi_domain *d = container_of(domain, struct mfi_domain, dom);
	struct epoll_event ev = { .events = EPOLLIN };
	struct mfi_cq *cq;

	if (attr->flags & ~FI_AFFINITY)
		return -FI_EBADFLAGS;
	if (attr->wait_obj != FI_WAIT_NONE && attr->wait_obj != FI_WAIT_UNSPEC &&
	    attr->wait_obj != FI_WAIT_FD)
		return -FI_ENOSYS;
	if (attr->wait_cond != FI_CQ_COND_NONE)
		return -FI_ENOSYS;
	cq = calloc(1, sizeof(*cq));
	if (!cq)
		return -FI_ENOMEM;
	cq->attr = *attr;
	if (cq->attr.format == FI_CQ_FORMAT_UNSPEC)
		cq->attr.format = FI_CQ_FORMAT_CONTEXT;
	if (!mfi_cq_entry_size(cq->attr.format)) {
		free(cq);
		return -FI_ENOSYS;
	}
	if (!cq->attr.size)
		cq->attr.size = MFI_CQ_SIZE;
	cq->q.item = sizeof(struct mfi_cq_entry);
	cq->epfd = -1;
	cq->sigfd = -1;
	cq->qfd = -1;
	if (attr->wait_obj != FI_WAIT_NONE) {
		cq->attr.wait_obj = FI_WAIT_FD;
		cq->epfd = epoll_create1(EPOLL_CLOEXEC);
		cq->sigfd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		cq->qfd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		ev.data.ptr = NULL;
		if (cq->epfd < 0 || cq->sigfd < 0 || cq->qfd < 0 ||
		    epoll_ctl(cq->epfd, EPOLL_CTL_ADD, cq->sigfd, &ev) ||
		    epoll_ctl(cq->epfd, EPOLL_CTL_ADD, cq->qfd, &ev)) {
			int err = -errno;

			if (cq->epfd >= 0)
				close(cq->epfd);
			if (cq->sigfd >= 0)
				close(cq->sigfd);
			if (cq->qfd >= 0)
				close(cq->qfd);
			free(cq);
			return err;
		}
	}
	cq->dom = d;
	cq->cq.fid.fclass = FI_CLASS_CQ;
	cq->cq.fid.context = context;
	cq->cq.fid.ops = &mfi_cq_fi_ops;
	cq->cq.ops = &mfi_cq_ops;
	mfi_dom_ref(d, 1);
	*fcq = &cq->cq;
	return 0;
}

/* ---- event queues: what the application writes, and nothing else ---- */

static ssize_t mfi_eq_read_common(struct mfi_eq *eq, uint32_t *event, void *buf,
				  size_t len, uint64_t flags, bool err)
{
	struct mfi_eq_entry *e;
	ssize_t ret;

	pthread_mutex_lock(&eq->fab->lock);
	e = mfi_ring_peek(&eq->q);
	if (!e) {
		ret = -FI_EAGAIN;
	} else if (e->err != err) {
		ret = err ? -FI_EAGAIN : -FI_EAVAIL;
	} else if (len < e->len) {
		ret = -FI_ETOOSMALL;
	} else {
		if (event)
			*event = e->event;
		memcpy(buf, e->buf, e->len);
		ret = (ssize_t)e->len;
		if (!(flags & FI_PEEK)) {
			mfi_ring_pop(&eq->q);
			/* the fd is readable while entries wait, no longer */
			if (!eq->q.n)
				mfi_drain_eventfd(eq->evfd);
		}
	}
	pthread_mutex_unlock(&eq->fab->lock);
	return ret;
}

static ssize_t mfi_eq_read(struct fid_eq *feq, uint32_t *event, void *buf, size_t len,
			   uint64_t flags)
{
	return mfi_eq_read_common(container_of(feq, struct mfi_eq, eq), event, buf, len,
				  flags, false);
}

static ssize_t mfi_eq_readerr(struct fid_eq *feq, struct fi_eq_err_entry *buf,
			      uint64_t flags)
{
	ssize_t r = mfi_eq_read_common(container_of(feq, struct mfi_eq, eq), NULL, buf,
				       sizeof(*buf), flags, true);

	return r > 0 ? 1 : r;
}

static ssize_t mfi_eq_write(struct fid_eq *feq, uint32_t event, const void *buf,
			    size_t len, uint64_t flags)
{
	struct mfi_eq *eq = container_of(feq, struct mfi_eq, eq);
	struct mfi_eq_entry e = { .event = event, .len = len };
	uint64_t one = 1;
	int ret;

	if (flags)
		return -FI_EBADFLAGS;
	if (len > sizeof(e.buf))
		return -FI_EINVAL;
	if (len)
		memcpy(e.buf, buf, len);
	pthread_mutex_lock(&eq->fab->lock);
	ret = mfi_ring_push(&eq->q, &e);
	if (!ret && eq->q.n == 1 && eq->evfd >= 0 && write(eq->evfd, &one, sizeof(one)) < 0)
		ret = -errno;
	pthread_mutex_unlock(&eq->fab->lock);
	if (ret)
		return ret;
	return (ssize_t)len;
}

static ssize_t mfi_eq_sread(struct fid_eq *feq, uint32_t *event, void *buf, size_t len,
			    int timeout, uint64_t flags)
{
	struct mfi_eq *eq = container_of(feq, struct mfi_eq, eq);
	struct timespec end;
	ssize_t ret;

	if (eq->evfd < 0)
		return -FI_ENOSYS;
	if (timeout >= 0)
		mfi_deadline(&end, timeout);
	for (;;) {
		struct pollfd p = { .fd = eq->evfd, .events = POLLIN };
		int ms = timeout < 0 ? -1 : mfi_ms_left(&end);

		ret = mfi_eq_read(feq, event, buf, len, flags);
		if (ret != -FI_EAGAIN)
			return ret;
		if (timeout >= 0 && !ms)
			return -FI_EAGAIN;
		if (poll(&p, 1, ms) < 0 && errno != EINTR)
			return -errno;
	}
}

static const char *mfi_eq_strerror(struct fid_eq *eq, int prov_errno, const void *err_data,
				   char *buf, size_t len)
{
	return mfi_cq_strerror(NULL, prov_errno, err_data, buf, len);
}

static int mfi_eq_control(struct fid *fid, int command, void *arg)
{
	return mfi_wait_control(container_of(fid, struct mfi_eq, eq.fid)->evfd, command, arg);
}

static int mfi_eq_close(struct fid *fid)
{
	struct mfi_eq *eq = container_of(fid, struct mfi_eq, eq.fid);

	mfi_fab_ref(eq->fab, -1);
	if (eq->evfd >= 0)
		close(eq->evfd);
	mfi_ring_free(&eq->q);
	free(eq);
	return 0;
}

static struct fi_ops mfi_eq_fi_ops = {
	.size = sizeof(struct fi_ops),
	.close = mfi_eq_close,
	.bind = mfi_no_bind,
	.control = mfi_eq_control,
	.ops_open = mfi_no_ops_open,
};

static struct fi_ops_eq mfi_eq_ops = {
	.size = sizeof(struct fi_ops_eq),
	.read = mfi_eq_read,
	.readerr = mfi_eq_readerr,
	.write = mfi_eq_write,
	.sread = mfi_eq_sread,
	.strerror = mfi_eq_strerror,
};

int mfi_eq_open(struct fid_fabric *fabric, struct fi_eq_attr *attr,
		struct fid_eq **feq, void *context)
{
	struct mfi_fabric *f = container_of(fabric, struct mfi_fabric, fab);
	struct mfi_eq *eq;

	if (attr->flags & ~FI_WRITE)
		return -FI_EBADFLAGS;
	if (attr->wait_obj != FI_WAIT_NONE && attr->wait_obj != FI_WAIT_UNSPEC &&
	    attr->wait_obj != FI_WAIT_FD)
		return -FI_ENOSYS;
	eq = calloc(1, sizeof(*eq));
	if (!eq)
		return -FI_ENOMEM;
	eq->q.item = sizeof(struct mfi_eq_entry);
	eq->evfd = -1;
	if (attr->wait_obj != FI_WAIT_NONE) {
		eq->evfd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		if (eq->evfd < 0) {
			free(eq);
			return -errno;
		}
	}
	eq->fab = f;
	eq->eq.fid.fclass = FI_CLASS_EQ;
	eq->eq.fid.context = context;
	eq->eq.fid.ops = &mfi_eq_fi_ops;
	eq->eq.ops = &mfi_eq_ops;
	mfi_fab_ref(f, 1);
	*feq = &eq->eq;
	return 0;
}

int mfi_trywait(struct fid_fabric *fabric, struct fid **fids, int count)
{
	int i;

	for (i = 0; i < count; i++) {
		if (fids[i]->fclass == FI_CLASS_CQ) {
			struct mfi_cq *cq = container_of(fids[i], struct mfi_cq, cq.fid);
			struct pollfd p = { .fd = cq->epfd, .events = POLLIN };
			bool busy;

			if (cq->epfd < 0)
				return -FI_EINVAL;
			mfi_lock(cq->dom);
			mfi_cq_progress(cq);
			busy = cq->q.n > 0;
			mfi_unlock(cq->dom);
			if (busy)
				return -FI_EAGAIN;
			/*
			 * what arrived since, or a signal: fi_cq_signal() has
			 * woken this waiter, which need not sleep; taken, so
			 * that the next fi_trywait() does not spin on it
			 */
			if (poll(&p, 1, 0) > 0) {
				mfi_drain_eventfd(cq->sigfd);
				return -FI_EAGAIN;
			}
		} else if (fids[i]->fclass == FI_CLASS_EQ) {
			struct mfi_eq *eq = container_of(fids[i], struct mfi_eq, eq.fid);
			bool busy;

			pthread_mutex_lock(&eq->fab->lock);
			busy = eq->q.n > 0;
			pthread_mutex_unlock(&eq->fab->lock);
			if (busy)
				return -FI_EAGAIN;
		} else {
			return -FI_EINVAL;
		}
	}
	return 0;
}
