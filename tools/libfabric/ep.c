// SPDX-License-Identifier: GPL-2.0
/*
 * The endpoint: one non-blocking mrt socket, MRT_ORDERED (FI_ORDER_SAS)
 * and MRT_CONFIRM, bound to the fi_info's source address.
 *
 * Sending: the header and the application's iovec go to the kernel in
 * one sendmsg(), with an MRT_COOKIE naming the transmit slot; the kernel
 * copies them, so the buffer is free at once.  The slot stays until the
 * error queue reports the message delivered (the completion) or failed
 * (an error completion with the kernel's errno), so at most tx_size
 * (1024) sends are outstanding, and the queue never drops a report.
 *
 * Receiving: the header of the message at the head of the socket's queue
 * is peeked (MSG_PEEK | MSG_TRUNC gives the whole length); the first
 * posted receive of its kind (untagged, or tagged with the tag matching
 * under the receive's ignore mask, and the source under FI_DIRECTED_RECV)
 * takes it straight into the application's iovec; with none, it goes to
 * the unexpected queue in a buffer of its own, which later receives
 * search first, oldest first.  A message longer than the buffer fills
 * the buffer and completes with FI_ETRUNC and olen the rest, as
 * libfabric defines.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>
#include <linux/errqueue.h>
#include <linux/mrt.h>

#include "mrt_fi.h"

#define MFI_OPS_PEEK	(FI_PEEK | FI_CLAIM | FI_DISCARD)

static void mfi_rxq_init(struct mfi_rxq *q)
{
	q->head = NULL;
	q->tail = &q->head;
}

static void mfi_uxq_init(struct mfi_uxq *q)
{
	q->head = NULL;
	q->tail = &q->head;
}

static size_t mfi_iov_len(const struct iovec *iov, size_t n)
{
	size_t l = 0, i;

	for (i = 0; i < n; i++)
		l += iov[i].iov_len;
	return l;
}

/* copy @len bytes of @src into @iov; returns what fitted */
static size_t mfi_copy_to_iov(const struct iovec *iov, size_t n, const uint8_t *src,
			      size_t len)
{
	size_t done = 0, i;

	for (i = 0; i < n && done < len; i++) {
		size_t c = iov[i].iov_len < len - done ? iov[i].iov_len : len - done;

		memcpy(iov[i].iov_base, src + done, c);
		done += c;
	}
	return done;
}

/* a directed receive matches by address, whatever AV entry named it */
static bool mfi_rx_match(const struct mfi_rx *rx, const union mfi_addr *from, uint64_t tag,
			 bool tagged)
{
	if (rx->directed && !mfi_addr_eq(&rx->from, from))
		return false;
	return !tagged || !((rx->tag ^ tag) & ~rx->ignore);
}

/* ---- completions of receives ---- */

static void mfi_rx_complete(struct mfi_ep *ep, struct mfi_rx *rx, const struct mfi_wire *h,
			    size_t plen, fi_addr_t src)
{
	uint64_t flags = FI_RECV | (h->op == MFI_OP_TAGGED ? FI_TAGGED : FI_MSG);
	uint64_t data = 0, tag = h->op == MFI_OP_TAGGED ? be64toh(h->tag) : 0;
	void *buf = rx->iovcnt ? rx->iov[0].iov_base : NULL;

	if (h->flags & MFI_F_DATA) {
		flags |= FI_REMOTE_CQ_DATA;
		data = be64toh(h->data);
	}
	if (plen > rx->len) {
		mfi_cq_write_err(ep->rxcq, rx->ctx, flags, rx->len, buf, data, tag,
				 plen - rx->len, FI_ETRUNC, 0);
		return;
	}
	if (ep->rx_selective && !(rx->flags & FI_COMPLETION))
		return;
	mfi_cq_write(ep->rxcq, rx->ctx, flags, plen, buf, data, tag, src);
}

/* ---- progress: the error queue (sends) and arrived messages ---- */

static void mfi_tx_put(struct mfi_ep *ep, uint32_t idx)
{
	struct mfi_tx *t = &ep->tx[idx];

	t->busy = false;
	t->gen++;
	t->next_free = ep->tx_free;
	ep->tx_free = (int32_t)idx;
	ep->tx_busy--;
}

static void mfi_progress_tx(struct mfi_ep *ep)
{
	for (;;) {
		union {
			struct cmsghdr	c;
			uint8_t		b[CMSG_SPACE(sizeof(struct sock_extended_err)) + 64];
		} cbuf;
		struct sock_extended_err *ee = NULL;
		union mfi_addr peer;
		uint64_t cookie = 0;
		struct iovec iov = { &cookie, sizeof(cookie) };
		struct msghdr mh = {
			.msg_name = &peer, .msg_namelen = sizeof(peer),
			.msg_iov = &iov, .msg_iovlen = 1,
			.msg_control = cbuf.b, .msg_controllen = sizeof(cbuf.b),
		};
		struct cmsghdr *c;
		struct mfi_tx *t;
		uint32_t idx, gen;

		if (recvmsg(ep->fd, &mh, MSG_ERRQUEUE | MSG_DONTWAIT) < 0)
			return;
		for (c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c))
			if ((c->cmsg_level == SOL_IP && c->cmsg_type == IP_RECVERR) ||
			    (c->cmsg_level == SOL_IPV6 && c->cmsg_type == IPV6_RECVERR))
				ee = (struct sock_extended_err *)CMSG_DATA(c);
		idx = (uint32_t)cookie;
		gen = (uint32_t)(cookie >> 32);
		if (!ee || idx >= MFI_TX_SIZE || !ep->tx[idx].busy || ep->tx[idx].gen != gen) {
			ep->bad_msgs++;
			continue;
		}
		ep->tx_reports++;
		t = &ep->tx[idx];
		if (ee->ee_type == MRT_EE_DELIVERED) {
			if (t->complete)
				mfi_cq_write(ep->txcq, t->ctx, t->flags, 0, NULL, 0, 0,
					     FI_ADDR_NOTAVAIL);
		} else {
			int err = ee->ee_errno ? (int)ee->ee_errno : EIO;

			/* failures complete even without FI_COMPLETION; an
			 * inject's has no context
			 */
			mfi_cq_write_err(ep->txcq, t->ctx, t->flags, 0, NULL, 0, 0, 0,
					 mfi_errno_to_fi(err), err);
		}
		mfi_tx_put(ep, idx);
	}
}

static struct mfi_rx *mfi_rxq_take(struct mfi_rxq *q, const union mfi_addr *from, uint64_t tag,
				   bool tagged)
{
	struct mfi_rx **pp, *rx;

	for (pp = &q->head; (rx = *pp); pp = &rx->next) {
		if (!mfi_rx_match(rx, from, tag, tagged))
			continue;
		*pp = rx->next;
		if (q->tail == &rx->next)
			q->tail = pp;
		return rx;
	}
	return NULL;
}

/* drop the message at the head of the queue */
static void mfi_rx_discard(struct mfi_ep *ep)
{
	uint8_t b;
	struct iovec iov = { &b, 1 };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };

	if (recvmsg(ep->fd, &mh, MSG_DONTWAIT) >= 0)
		ep->bad_msgs++;
}

static void mfi_progress_rx(struct mfi_ep *ep)
{
	for (;;) {
		struct mfi_wire h;
		union mfi_addr from;
		struct iovec iov[MFI_IOV_LIMIT + 1] = { { &h, sizeof(h) } };
		struct msghdr mh = {
			.msg_name = &from, .msg_namelen = sizeof(from),
			.msg_iov = iov, .msg_iovlen = 1,
		};
		bool tagged;
		fi_addr_t src;
		struct mfi_rx *rx;
		size_t plen;
		ssize_t n;

		n = recvmsg(ep->fd, &mh, MSG_PEEK | MSG_TRUNC | MSG_DONTWAIT);
		if (n < 0)
			return;
		if ((size_t)n < MFI_HDR || be16toh(h.magic) != MFI_WIRE_MAGIC ||
		    h.version != MFI_WIRE_VERSION ||
		    (h.op != MFI_OP_MSG && h.op != MFI_OP_TAGGED)) {
			FI_WARN(&mfi_prov, FI_LOG_EP_DATA,
				"dropped a message of %zd bytes without the provider's header\n",
				n);
			mfi_rx_discard(ep);
			continue;
		}
		plen = (size_t)n - MFI_HDR;
		src = mfi_av_find(ep->av, &from);
		tagged = h.op == MFI_OP_TAGGED;
		rx = mfi_rxq_take(tagged ? &ep->rxq_tag : &ep->rxq_msg, &from,
				  be64toh(h.tag), tagged);
		if (rx) {
			size_t i;

			for (i = 0; i < rx->iovcnt; i++)
				iov[i + 1] = rx->iov[i];
			mh.msg_iovlen = rx->iovcnt + 1;
			mh.msg_name = NULL;
			mh.msg_namelen = 0;
			n = recvmsg(ep->fd, &mh, MSG_DONTWAIT);
			ep->rx_posted--;
			if (n < 0) {
				int err = errno;

				mfi_cq_write_err(ep->rxcq, rx->ctx,
						 FI_RECV | (tagged ? FI_TAGGED : FI_MSG), 0,
						 NULL, 0, 0, 0, mfi_errno_to_fi(err), err);
			} else {
				mfi_rx_complete(ep, rx, &h, plen, src);
			}
			free(rx);
			continue;
		} else {
			struct mfi_unexp *u = calloc(1, sizeof(*u));
			uint8_t *buf = malloc(plen ? plen : 1);

			if (!u || !buf) {
				/* leave it queued in the kernel; retried later */
				free(u);
				free(buf);
				return;
			}
			iov[1].iov_base = buf;
			iov[1].iov_len = plen;
			mh.msg_iovlen = 2;
			mh.msg_name = NULL;
			mh.msg_namelen = 0;
			n = recvmsg(ep->fd, &mh, MSG_DONTWAIT);
			if (n < 0) {
				free(u);
				free(buf);
				return;
			}
			u->hdr = h;
			u->from = from;
			u->len = plen;
			u->buf = buf;
			*(tagged ? ep->uxq_tag.tail : ep->uxq_msg.tail) = u;
			if (tagged)
				ep->uxq_tag.tail = &u->next;
			else
				ep->uxq_msg.tail = &u->next;
			ep->unexp_msgs++;
		}
	}
}

/* called with the domain's lock held */
void mfi_ep_progress(struct mfi_ep *ep)
{
	if (!ep->enabled)
		return;
	/* reports come only for sends in slots: none out, no system call */
	if (ep->txcq && ep->tx_busy)
		mfi_progress_tx(ep);
	if (ep->rxcq)
		mfi_progress_rx(ep);
}

/* ---- sending ---- */

static ssize_t mfi_send(struct mfi_ep *ep, const struct iovec *uiov, size_t count,
			fi_addr_t dest, void *ctx, uint64_t flags, uint64_t tag,
			uint64_t data, bool tagged, bool inject)
{
	struct mfi_wire h = {
		.magic = htobe16(MFI_WIRE_MAGIC),
		.version = MFI_WIRE_VERSION,
		.op = tagged ? MFI_OP_TAGGED : MFI_OP_MSG,
		.tag = htobe64(tagged ? tag : 0),
	};
	union {
		struct cmsghdr	c;
		uint8_t		b[CMSG_SPACE(sizeof(uint64_t))];
	} cbuf = { .b = { 0 } };
	struct iovec iov[MFI_IOV_LIMIT + 1] = { { &h, sizeof(h) } };
	const union mfi_addr *to;
	struct msghdr mh = {
		.msg_iov = iov, .msg_iovlen = count + 1,
		.msg_control = cbuf.b, .msg_controllen = sizeof(cbuf.b),
	};
	struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
	struct mfi_tx *t;
	uint64_t cookie;
	size_t len, i;
	int32_t idx;
	ssize_t ret = 0;

	if (count > MFI_IOV_LIMIT)
		return -FI_EINVAL;
	if (flags & ~MFI_OPS_TX)
		return -FI_EBADFLAGS;
	len = mfi_iov_len(uiov, count);
	if (len > ep->info->ep_attr->max_msg_size ||
	    ((inject || (flags & FI_INJECT)) && len > ep->info->tx_attr->inject_size))
		return -FI_EMSGSIZE;
	if (flags & FI_REMOTE_CQ_DATA) {
		h.flags |= MFI_F_DATA;
		h.data = htobe64(data);
	}
	for (i = 0; i < count; i++)
		iov[i + 1] = uiov[i];

	mfi_lock(ep->dom);
	if (!ep->enabled || !ep->txcq) {
		ret = -FI_EOPBADSTATE;
		goto out;
	}
	to = mfi_av_get(ep->av, dest);
	if (!to) {
		ret = -FI_EINVAL;
		goto out;
	}
	if (ep->tx_free < 0)
		mfi_progress_tx(ep);
	if (ep->tx_free < 0) {
		ret = -FI_EAGAIN;
		goto out;
	}
	idx = ep->tx_free;
	t = &ep->tx[idx];
	cookie = (uint64_t)t->gen << 32 | (uint32_t)idx;
	c->cmsg_level = SOL_MRT;
	c->cmsg_type = MRT_COOKIE;
	c->cmsg_len = CMSG_LEN(sizeof(cookie));
	memcpy(CMSG_DATA(c), &cookie, sizeof(cookie));
	mh.msg_name = (void *)to;
	mh.msg_namelen = mfi_addr_len(to->sa.sa_family);
	if (sendmsg(ep->fd, &mh, MSG_DONTWAIT | MSG_NOSIGNAL) < 0) {
		int err = errno;

		/* a full send buffer, or no PDC free in the namespace
		 * (max_pdcs: idle ones go on their own): try again later
		 */
		if (err == ENOBUFS || err == ENOMEM)
			err = EAGAIN;
		if (err == EAGAIN)
			mfi_progress_tx(ep);
		ret = -mfi_errno_to_fi(err);
		goto out;
	}
	ep->tx_free = t->next_free;
	ep->tx_busy++;
	t->busy = true;
	t->ctx = inject ? NULL : ctx;
	t->len = len;
	t->flags = FI_SEND | (tagged ? FI_TAGGED : FI_MSG);
	t->complete = !inject && (!ep->tx_selective || (flags & FI_COMPLETION));
out:
	mfi_unlock(ep->dom);
	return ret;
}

static struct mfi_ep *mfi_ep(struct fid_ep *fep)
{
	return container_of(fep, struct mfi_ep, ep);
}

static ssize_t mfi_msg_send(struct fid_ep *ep, const void *buf, size_t len, void *desc,
			    fi_addr_t dest, void *ctx)
{
	struct iovec iov = { (void *)buf, len };

	return mfi_send(mfi_ep(ep), &iov, 1, dest, ctx, mfi_ep(ep)->tx_op_flags, 0, 0,
			false, false);
}

static ssize_t mfi_msg_sendv(struct fid_ep *ep, const struct iovec *iov, void **desc,
			     size_t count, fi_addr_t dest, void *ctx)
{
	return mfi_send(mfi_ep(ep), iov, count, dest, ctx, mfi_ep(ep)->tx_op_flags, 0, 0,
			false, false);
}

static ssize_t mfi_msg_sendmsg(struct fid_ep *ep, const struct fi_msg *m, uint64_t flags)
{
	return mfi_send(mfi_ep(ep), m->msg_iov, m->iov_count, m->addr, m->context, flags, 0,
			m->data, false, false);
}

static ssize_t mfi_msg_inject(struct fid_ep *ep, const void *buf, size_t len, fi_addr_t dest)
{
	struct iovec iov = { (void *)buf, len };

	return mfi_send(mfi_ep(ep), &iov, 1, dest, NULL, 0, 0, 0, false, true);
}

static ssize_t mfi_msg_senddata(struct fid_ep *ep, const void *buf, size_t len, void *desc,
				uint64_t data, fi_addr_t dest, void *ctx)
{
	struct iovec iov = { (void *)buf, len };

	return mfi_send(mfi_ep(ep), &iov, 1, dest, ctx,
			mfi_ep(ep)->tx_op_flags | FI_REMOTE_CQ_DATA, 0, data, false, false);
}

static ssize_t mfi_msg_injectdata(struct fid_ep *ep, const void *buf, size_t len,
				  uint64_t data, fi_addr_t dest)
{
	struct iovec iov = { (void *)buf, len };

	return mfi_send(mfi_ep(ep), &iov, 1, dest, NULL, FI_REMOTE_CQ_DATA, 0, data, false,
			true);
}

static ssize_t mfi_tag_send(struct fid_ep *ep, const void *buf, size_t len, void *desc,
			    fi_addr_t dest, uint64_t tag, void *ctx)
{
	struct iovec iov = { (void *)buf, len };

	return mfi_send(mfi_ep(ep), &iov, 1, dest, ctx, mfi_ep(ep)->tx_op_flags, tag, 0,
			true, false);
}

static ssize_t mfi_tag_sendv(struct fid_ep *ep, const struct iovec *iov, void **desc,
			     size_t count, fi_addr_t dest, uint64_t tag, void *ctx)
{
	return mfi_send(mfi_ep(ep), iov, count, dest, ctx, mfi_ep(ep)->tx_op_flags, tag, 0,
			true, false);
}

static ssize_t mfi_tag_sendmsg(struct fid_ep *ep, const struct fi_msg_tagged *m,
			       uint64_t flags)
{
	return mfi_send(mfi_ep(ep), m->msg_iov, m->iov_count, m->addr, m->context, flags,
			m->tag, m->data, true, false);
}

static ssize_t mfi_tag_inject(struct fid_ep *ep, const void *buf, size_t len,
			      fi_addr_t dest, uint64_t tag)
{
	struct iovec iov = { (void *)buf, len };

	return mfi_send(mfi_ep(ep), &iov, 1, dest, NULL, 0, tag, 0, true, true);
}

static ssize_t mfi_tag_senddata(struct fid_ep *ep, const void *buf, size_t len, void *desc,
				uint64_t data, fi_addr_t dest, uint64_t tag, void *ctx)
{
	struct iovec iov = { (void *)buf, len };

	return mfi_send(mfi_ep(ep), &iov, 1, dest, ctx,
			mfi_ep(ep)->tx_op_flags | FI_REMOTE_CQ_DATA, tag, data, true, false);
}

static ssize_t mfi_tag_injectdata(struct fid_ep *ep, const void *buf, size_t len,
				  uint64_t data, fi_addr_t dest, uint64_t tag)
{
	struct iovec iov = { (void *)buf, len };

	return mfi_send(mfi_ep(ep), &iov, 1, dest, NULL, FI_REMOTE_CQ_DATA, tag, data, true,
			true);
}

/* ---- receiving ---- */

static void mfi_unclaim(struct mfi_ep *ep, struct mfi_unexp *u)
{
	struct mfi_unexp **pp;

	for (pp = &ep->claimed; *pp; pp = &(*pp)->cnext)
		if (*pp == u) {
			*pp = u->cnext;
			return;
		}
}

static bool mfi_is_claimed(struct mfi_ep *ep, struct mfi_unexp *u)
{
	struct mfi_unexp *c;

	for (c = ep->claimed; c; c = c->cnext)
		if (c == u)
			return true;
	return false;
}

/* tagged receives with FI_PEEK, FI_CLAIM, FI_DISCARD (fi_tagged(3)) */
static ssize_t mfi_peek(struct mfi_ep *ep, struct mfi_rx *rx, uint64_t flags)
{
	struct fi_context *fctx = rx->ctx;
	struct mfi_unexp **pp, *u = NULL;
	uint64_t cflags = FI_RECV | FI_TAGGED;

	if (!(flags & FI_PEEK)) {
		/* FI_CLAIM: the message an earlier FI_PEEK | FI_CLAIM set aside */
		if (!fctx || !fctx->internal[0] || !mfi_is_claimed(ep, fctx->internal[0]))
			return -FI_EINVAL;
		u = fctx->internal[0];
		fctx->internal[0] = NULL;
		mfi_unclaim(ep, u);
		if (flags & FI_DISCARD) {
			mfi_cq_write(ep->rxcq, rx->ctx, cflags, 0, NULL, 0, be64toh(u->hdr.tag),
				     mfi_av_find(ep->av, &u->from));
		} else {
			mfi_copy_to_iov(rx->iov, rx->iovcnt, u->buf, u->len);
			mfi_rx_complete(ep, rx, &u->hdr, u->len, mfi_av_find(ep->av, &u->from));
		}
		free(u->buf);
		free(u);
		return 0;
	}
	if ((flags & FI_CLAIM) && !fctx)
		return -FI_EINVAL;
	mfi_progress_rx(ep);
	for (pp = &ep->uxq_tag.head; (u = *pp); pp = &u->next)
		if (mfi_rx_match(rx, &u->from, be64toh(u->hdr.tag), true))
			break;
	if (!u) {
		mfi_cq_write_err(ep->rxcq, rx->ctx, cflags, 0, NULL, 0, rx->tag, 0, FI_ENOMSG,
				 FI_ENOMSG);
		return 0;
	}
	if (u->hdr.flags & MFI_F_DATA)
		cflags |= FI_REMOTE_CQ_DATA;
	mfi_cq_write(ep->rxcq, rx->ctx, cflags, u->len, NULL, be64toh(u->hdr.data),
		     be64toh(u->hdr.tag), mfi_av_find(ep->av, &u->from));
	if (flags & (FI_CLAIM | FI_DISCARD)) {
		*pp = u->next;
		if (ep->uxq_tag.tail == &u->next)
			ep->uxq_tag.tail = pp;
		if (flags & FI_CLAIM) {
			fctx->internal[0] = u;
			u->cnext = ep->claimed;
			ep->claimed = u;
		} else {
			free(u->buf);
			free(u);
		}
	}
	return 0;
}

static ssize_t mfi_recv(struct mfi_ep *ep, const struct iovec *iov, size_t count,
			fi_addr_t src, void *ctx, uint64_t flags, uint64_t tag,
			uint64_t ignore, bool tagged)
{
	struct mfi_uxq *uq = tagged ? &ep->uxq_tag : &ep->uxq_msg;
	struct mfi_unexp **pp, *u;
	struct mfi_rx *rx;
	ssize_t ret = 0;

	if (count > MFI_IOV_LIMIT)
		return -FI_EINVAL;
	if (flags & ~(MFI_OPS_RX | (tagged ? MFI_OPS_PEEK : 0)))
		return -FI_EBADFLAGS;	/* no FI_MULTI_RECV */
	if ((flags & FI_DISCARD) && !(flags & (FI_PEEK | FI_CLAIM)))
		return -FI_EBADFLAGS;
	rx = calloc(1, sizeof(*rx));
	if (!rx)
		return -FI_ENOMEM;
	rx->ctx = ctx;
	rx->flags = flags;
	rx->tag = tag;
	rx->ignore = ignore;
	rx->iovcnt = count;
	memcpy(rx->iov, iov, count * sizeof(*iov));
	rx->len = mfi_iov_len(iov, count);

	mfi_lock(ep->dom);
	if (!ep->enabled || !ep->rxcq) {
		ret = -FI_EOPBADSTATE;
		goto out;
	}
	/* a claim names its message by the context alone */
	if ((flags & FI_CLAIM) && !(flags & FI_PEEK)) {
		ret = mfi_peek(ep, rx, flags);
		goto out;
	}
	if ((ep->info->caps & FI_DIRECTED_RECV) && src != FI_ADDR_UNSPEC) {
		const union mfi_addr *a = mfi_av_get(ep->av, src);

		if (!a) {
			ret = -FI_EINVAL;
			goto out;
		}
		rx->directed = true;
		rx->from = *a;
	}
	if (flags & MFI_OPS_PEEK) {
		ret = mfi_peek(ep, rx, flags);
		goto out;
	}
	/* what arrived first is matched first */
	for (pp = &uq->head; (u = *pp); pp = &u->next) {
		if (!mfi_rx_match(rx, &u->from, be64toh(u->hdr.tag), tagged))
			continue;
		*pp = u->next;
		if (uq->tail == &u->next)
			uq->tail = pp;
		mfi_copy_to_iov(rx->iov, rx->iovcnt, u->buf, u->len);
		mfi_rx_complete(ep, rx, &u->hdr, u->len, mfi_av_find(ep->av, &u->from));
		free(u->buf);
		free(u);
		goto out;
	}
	*(tagged ? ep->rxq_tag.tail : ep->rxq_msg.tail) = rx;
	if (tagged)
		ep->rxq_tag.tail = &rx->next;
	else
		ep->rxq_msg.tail = &rx->next;
	ep->rx_posted++;
	rx = NULL;
out:
	mfi_unlock(ep->dom);
	free(rx);
	return ret;
}

static ssize_t mfi_msg_recv(struct fid_ep *ep, void *buf, size_t len, void *desc,
			    fi_addr_t src, void *ctx)
{
	struct iovec iov = { buf, len };

	return mfi_recv(mfi_ep(ep), &iov, 1, src, ctx, mfi_ep(ep)->rx_op_flags, 0, 0, false);
}

static ssize_t mfi_msg_recvv(struct fid_ep *ep, const struct iovec *iov, void **desc,
			     size_t count, fi_addr_t src, void *ctx)
{
	return mfi_recv(mfi_ep(ep), iov, count, src, ctx, mfi_ep(ep)->rx_op_flags, 0, 0,
			false);
}

static ssize_t mfi_msg_recvmsg(struct fid_ep *ep, const struct fi_msg *m, uint64_t flags)
{
	return mfi_recv(mfi_ep(ep), m->msg_iov, m->iov_count, m->addr, m->context, flags, 0,
			0, false);
}

static ssize_t mfi_tag_recv(struct fid_ep *ep, void *buf, size_t len, void *desc,
			    fi_addr_t src, uint64_t tag, uint64_t ignore, void *ctx)
{
	struct iovec iov = { buf, len };

	return mfi_recv(mfi_ep(ep), &iov, 1, src, ctx, mfi_ep(ep)->rx_op_flags, tag, ignore,
			true);
}

static ssize_t mfi_tag_recvv(struct fid_ep *ep, const struct iovec *iov, void **desc,
			     size_t count, fi_addr_t src, uint64_t tag, uint64_t ignore,
			     void *ctx)
{
	return mfi_recv(mfi_ep(ep), iov, count, src, ctx, mfi_ep(ep)->rx_op_flags, tag,
			ignore, true);
}

static ssize_t mfi_tag_recvmsg(struct fid_ep *ep, const struct fi_msg_tagged *m,
			       uint64_t flags)
{
	return mfi_recv(mfi_ep(ep), m->msg_iov, m->iov_count, m->addr, m->context, flags,
			m->tag, m->ignore, true);
}

/* ---- endpoint control ---- */

static ssize_t mfi_ep_cancel(fid_t fid, void *ctx)
{
	struct mfi_ep *ep = container_of(fid, struct mfi_ep, ep.fid);
	struct mfi_rxq *qs[2] = { &ep->rxq_msg, &ep->rxq_tag };
	ssize_t ret = -FI_ENOENT;
	int i;

	mfi_lock(ep->dom);
	for (i = 0; i < 2 && ret; i++) {
		struct mfi_rx **pp, *rx;

		for (pp = &qs[i]->head; (rx = *pp); pp = &rx->next) {
			if (rx->ctx != ctx)
				continue;
			*pp = rx->next;
			if (qs[i]->tail == &rx->next)
				qs[i]->tail = pp;
			ep->rx_posted--;
			mfi_cq_write_err(ep->rxcq, ctx, FI_RECV | (i ? FI_TAGGED : FI_MSG), 0,
					 rx->iovcnt ? rx->iov[0].iov_base : NULL, 0, rx->tag, 0,
					 FI_ECANCELED, 0);
			free(rx);
			ret = 0;
			break;
		}
	}
	mfi_unlock(ep->dom);
	return ret;	/* a send cannot be taken back from the kernel */
}

static int mfi_ep_getopt(fid_t fid, int level, int optname, void *optval, size_t *optlen)
{
	return -FI_ENOPROTOOPT;
}

static int mfi_ep_setopt(fid_t fid, int level, int optname, const void *optval,
			 size_t optlen)
{
	return -FI_ENOPROTOOPT;
}

static int mfi_no_ctx(struct fid_ep *sep, int index, void *attr, struct fid_ep **ep,
		      void *context)
{
	return -FI_ENOSYS;
}

static ssize_t mfi_rx_size_left(struct fid_ep *fep)
{
	struct mfi_ep *ep = mfi_ep(fep);
	ssize_t n;

	mfi_lock(ep->dom);
	n = ep->rx_posted < ep->info->rx_attr->size ?
	    (ssize_t)(ep->info->rx_attr->size - ep->rx_posted) : 0;
	mfi_unlock(ep->dom);
	return n;
}

static ssize_t mfi_tx_size_left(struct fid_ep *fep)
{
	struct mfi_ep *ep = mfi_ep(fep);
	ssize_t n;

	mfi_lock(ep->dom);
	mfi_progress_tx(ep);
	n = (ssize_t)(MFI_TX_SIZE - ep->tx_busy);
	mfi_unlock(ep->dom);
	return n;
}

static int mfi_ep_getname(fid_t fid, void *addr, size_t *addrlen)
{
	struct mfi_ep *ep = container_of(fid, struct mfi_ep, ep.fid);
	union mfi_addr a;
	socklen_t l = sizeof(a);
	size_t need;

	if (getsockname(ep->fd, &a.sa, &l))
		return -errno;
	need = mfi_addr_len(ep->family);
	memcpy(addr, &a, *addrlen < need ? *addrlen : need);
	if (*addrlen < need) {
		*addrlen = need;
		return -FI_ETOOSMALL;
	}
	*addrlen = need;
	return 0;
}

static int mfi_no_setname(fid_t fid, void *addr, size_t addrlen)
{
	return -FI_ENOSYS;
}

static int mfi_no_getpeer(struct fid_ep *ep, void *addr, size_t *addrlen)
{
	return -FI_ENOSYS;
}

static int mfi_no_connect(struct fid_ep *ep, const void *addr, const void *param,
			  size_t paramlen)
{
	return -FI_ENOSYS;
}

static int mfi_no_listen(struct fid_pep *pep)
{
	return -FI_ENOSYS;
}

static int mfi_no_accept(struct fid_ep *ep, const void *param, size_t paramlen)
{
	return -FI_ENOSYS;
}

static int mfi_no_reject(struct fid_pep *pep, fid_t handle, const void *param,
			 size_t paramlen)
{
	return -FI_ENOSYS;
}

static int mfi_no_shutdown(struct fid_ep *ep, uint64_t flags)
{
	return -FI_ENOSYS;
}

static int mfi_no_join(struct fid_ep *ep, const void *addr, uint64_t flags,
		       struct fid_mc **mc, void *context)
{
	return -FI_ENOSYS;
}

static int mfi_ep_bind(struct fid *fid, struct fid *bfid, uint64_t flags)
{
	struct mfi_ep *ep = container_of(fid, struct mfi_ep, ep.fid);
	int ret = 0;

	mfi_lock(ep->dom);
	if (ep->enabled) {
		ret = -FI_EOPBADSTATE;
		goto out;
	}
	switch (bfid->fclass) {
	case FI_CLASS_AV: {
		struct mfi_av *av = container_of(bfid, struct mfi_av, av.fid);

		if (ep->av || av->dom != ep->dom || av->family != ep->family) {
			ret = -FI_EINVAL;
			break;
		}
		ep->av = av;
		av->ref++;
		break;
	}
	case FI_CLASS_CQ: {
		struct mfi_cq *cq = container_of(bfid, struct mfi_cq, cq.fid);

		if (cq->dom != ep->dom || !(flags & (FI_TRANSMIT | FI_RECV)) ||
		    (flags & ~(FI_TRANSMIT | FI_RECV | FI_SELECTIVE_COMPLETION)) ||
		    ((flags & FI_TRANSMIT) && ep->txcq) || ((flags & FI_RECV) && ep->rxcq)) {
			ret = -FI_EINVAL;
			break;
		}
		ret = mfi_cq_add_ep(cq, ep);
		if (ret)
			break;
		if (flags & FI_TRANSMIT) {
			ep->txcq = cq;
			ep->tx_selective = !!(flags & FI_SELECTIVE_COMPLETION);
		}
		if (flags & FI_RECV) {
			ep->rxcq = cq;
			ep->rx_selective = !!(flags & FI_SELECTIVE_COMPLETION);
		}
		break;
	}
	case FI_CLASS_EQ:
		/* nothing asynchronous to report on an RDM endpoint */
		break;
	default:
		ret = -FI_ENOSYS;	/* counters */
	}
out:
	mfi_unlock(ep->dom);
	return ret;
}

static int mfi_ep_control(struct fid *fid, int command, void *arg)
{
	struct mfi_ep *ep = container_of(fid, struct mfi_ep, ep.fid);
	uint64_t *flags = arg;
	int ret = 0;

	mfi_lock(ep->dom);
	switch (command) {
	case FI_ENABLE:
		if (ep->enabled)
			break;
		if (!ep->av) {
			ret = -FI_ENOAV;
			break;
		}
		if (!ep->txcq && !ep->rxcq) {
			ret = -FI_ENOCQ;
			break;
		}
		ret = ep->txcq ? mfi_cq_watch(ep->txcq, ep) : 0;
		if (!ret && ep->rxcq && ep->rxcq != ep->txcq)
			ret = mfi_cq_watch(ep->rxcq, ep);
		if (ret) {
			/* undo: the endpoint stays disabled */
			if (ep->txcq && ep->txcq->epfd >= 0)
				epoll_ctl(ep->txcq->epfd, EPOLL_CTL_DEL, ep->fd, NULL);
			break;
		}
		ep->enabled = true;
		break;
	case FI_GETOPSFLAG:
		if (*flags & FI_TRANSMIT)
			*flags = ep->tx_op_flags;
		else if (*flags & FI_RECV)
			*flags = ep->rx_op_flags;
		else
			ret = -FI_EINVAL;
		break;
	case FI_SETOPSFLAG:
		if ((*flags & FI_TRANSMIT) && !(*flags & ~(FI_TRANSMIT | MFI_OPS_TX)))
			ep->tx_op_flags = *flags & ~FI_TRANSMIT;
		else if ((*flags & FI_RECV) && !(*flags & ~(FI_RECV | MFI_OPS_RX)))
			ep->rx_op_flags = *flags & ~FI_RECV;
		else
			ret = -FI_EINVAL;
		break;
	default:
		ret = -FI_ENOSYS;
	}
	mfi_unlock(ep->dom);
	return ret;
}

static void mfi_free_queues(struct mfi_ep *ep)
{
	struct mfi_rxq *qs[2] = { &ep->rxq_msg, &ep->rxq_tag };
	struct mfi_uxq *us[2] = { &ep->uxq_msg, &ep->uxq_tag };
	int i;

	while (ep->claimed) {
		struct mfi_unexp *u = ep->claimed;

		ep->claimed = u->cnext;
		free(u->buf);
		free(u);
	}
	for (i = 0; i < 2; i++) {
		while (qs[i]->head) {
			struct mfi_rx *rx = qs[i]->head;

			qs[i]->head = rx->next;
			free(rx);
		}
		while (us[i]->head) {
			struct mfi_unexp *u = us[i]->head;

			us[i]->head = u->next;
			free(u->buf);
			free(u);
		}
	}
}

static int mfi_ep_close(struct fid *fid)
{
	struct mfi_ep *ep = container_of(fid, struct mfi_ep, ep.fid);
	struct mfi_domain *d = ep->dom;

	mfi_lock(d);
	if (ep->txcq)
		mfi_cq_del_ep(ep->txcq, ep);
	if (ep->rxcq && ep->rxcq != ep->txcq)
		mfi_cq_del_ep(ep->rxcq, ep);
	if (ep->av)
		ep->av->ref--;
	d->ref--;
	mfi_unlock(d);
	if (ep->bad_msgs)
		FI_INFO(&mfi_prov, FI_LOG_EP_DATA, "endpoint closed: %llu bad messages dropped\n",
			(unsigned long long)ep->bad_msgs);
	/* sends still outstanding finish in the kernel, unreported */
	close(ep->fd);
	mfi_free_queues(ep);
	fi_freeinfo(ep->info);
	free(ep->tx);
	free(ep);
	return 0;
}

static struct fi_ops mfi_ep_fi_ops = {
	.size = sizeof(struct fi_ops),
	.close = mfi_ep_close,
	.bind = mfi_ep_bind,
	.control = mfi_ep_control,
	.ops_open = mfi_no_ops_open,
};

static struct fi_ops_ep mfi_ep_ops = {
	.size = sizeof(struct fi_ops_ep),
	.cancel = mfi_ep_cancel,
	.getopt = mfi_ep_getopt,
	.setopt = mfi_ep_setopt,
	.tx_ctx = (void *)mfi_no_ctx,
	.rx_ctx = (void *)mfi_no_ctx,
	.rx_size_left = mfi_rx_size_left,
	.tx_size_left = mfi_tx_size_left,
};

static struct fi_ops_cm mfi_cm_ops = {
	.size = sizeof(struct fi_ops_cm),
	.setname = mfi_no_setname,
	.getname = mfi_ep_getname,
	.getpeer = mfi_no_getpeer,
	.connect = mfi_no_connect,
	.listen = mfi_no_listen,
	.accept = mfi_no_accept,
	.reject = mfi_no_reject,
	.shutdown = mfi_no_shutdown,
	.join = mfi_no_join,
};

static struct fi_ops_msg mfi_msg_ops = {
	.size = sizeof(struct fi_ops_msg),
	.recv = mfi_msg_recv,
	.recvv = mfi_msg_recvv,
	.recvmsg = mfi_msg_recvmsg,
	.send = mfi_msg_send,
	.sendv = mfi_msg_sendv,
	.sendmsg = mfi_msg_sendmsg,
	.inject = mfi_msg_inject,
	.senddata = mfi_msg_senddata,
	.injectdata = mfi_msg_injectdata,
};

static struct fi_ops_tagged mfi_tag_ops = {
	.size = sizeof(struct fi_ops_tagged),
	.recv = mfi_tag_recv,
	.recvv = mfi_tag_recvv,
	.recvmsg = mfi_tag_recvmsg,
	.send = mfi_tag_send,
	.sendv = mfi_tag_sendv,
	.sendmsg = mfi_tag_sendmsg,
	.inject = mfi_tag_inject,
	.senddata = mfi_tag_senddata,
	.injectdata = mfi_tag_injectdata,
};

static void mfi_setbuf(int fd, int opt_force, int opt, size_t bytes)
{
	int v = (int)bytes;

	if (setsockopt(fd, SOL_SOCKET, opt_force, &v, sizeof(v)))
		setsockopt(fd, SOL_SOCKET, opt, &v, sizeof(v));
}

/*
 * A message must fit whole in its receiver's buffer, which mrt counts by
 * truesize (about one and a half to twice the payload at mss 1400) and
 * lets a message outgrow by 64 KiB: a larger one fails MRT_EE_FAILED with
 * EMSGSIZE.  The peers' buffers are taken to be as this endpoint's (the
 * same FI_MRT_RCVBUF), so max_msg_size is at most half of it and 32 KiB.
 */
static void mfi_rcvbuf_cap(struct mfi_ep *ep)
{
	size_t cap;
	int v = 0;
	socklen_t len = sizeof(v);

	if (getsockopt(ep->fd, SOL_SOCKET, SO_RCVBUF, &v, &len) || v <= 0)
		return;
	cap = ((size_t)v + 65536) / 2;
	if (ep->info->ep_attr->max_msg_size > cap)
		ep->info->ep_attr->max_msg_size = cap;
	if (ep->info->tx_attr->inject_size > cap)
		ep->info->tx_attr->inject_size = cap;
}

int mfi_ep_open(struct fid_domain *domain, struct fi_info *info, struct fid_ep **fep,
		void *context)
{
	struct mfi_domain *d = container_of(domain, struct mfi_domain, dom);
	const struct fi_info *src = info && info->ep_attr && info->tx_attr && info->rx_attr ?
				    info : d->info;
	struct mfi_ep *ep;
	size_t max_msg;
	int one = 1, ret, i;

	if (src->ep_attr && src->ep_attr->type != FI_EP_RDM &&
	    src->ep_attr->type != FI_EP_UNSPEC)
		return -FI_EINVAL;
	if (src->addr_format != d->info->addr_format)
		return -FI_EINVAL;
	ep = calloc(1, sizeof(*ep));
	if (!ep)
		return -FI_ENOMEM;
	ep->fd = -1;
	ep->info = fi_dupinfo(src);
	ep->tx = calloc(MFI_TX_SIZE, sizeof(*ep->tx));
	if (!ep->info || !ep->tx) {
		ret = -FI_ENOMEM;
		goto err;
	}
	ep->family = src->addr_format == FI_SOCKADDR_IN6 ? AF_INET6 : AF_INET;
	ret = mfi_probe(ep->family, &max_msg);
	if (ret)
		goto err;
	if (ep->info->ep_attr->max_msg_size > max_msg || !ep->info->ep_attr->max_msg_size)
		ep->info->ep_attr->max_msg_size = max_msg;
	if (ep->info->tx_attr->inject_size > mfi_params.inject_size ||
	    !ep->info->tx_attr->inject_size)
		ep->info->tx_attr->inject_size = mfi_params.inject_size;
	if (ep->info->tx_attr->inject_size > max_msg)
		ep->info->tx_attr->inject_size = max_msg;
	if (!ep->info->rx_attr->size || ep->info->rx_attr->size > MFI_RX_SIZE)
		ep->info->rx_attr->size = MFI_RX_SIZE;
	ep->fd = socket(ep->family, SOCK_RDM | SOCK_NONBLOCK | SOCK_CLOEXEC, IPPROTO_MRT);
	if (ep->fd < 0) {
		ret = -errno;
		goto err;
	}
	mfi_setbuf(ep->fd, SO_SNDBUFFORCE, SO_SNDBUF, mfi_params.sndbuf);
	mfi_setbuf(ep->fd, SO_RCVBUFFORCE, SO_RCVBUF, mfi_params.rcvbuf);
	mfi_rcvbuf_cap(ep);
	if (setsockopt(ep->fd, SOL_MRT, MRT_ORDERED, &one, sizeof(one)) ||
	    setsockopt(ep->fd, SOL_MRT, MRT_CONFIRM, &one, sizeof(one))) {
		ret = -errno;
		goto err;
	}
	if (src->src_addr) {
		if (bind(ep->fd, src->src_addr, (socklen_t)src->src_addrlen)) {
			ret = -errno;
			FI_WARN(&mfi_prov, FI_LOG_EP_CTRL, "bind: %s\n", strerror(errno));
			goto err;
		}
	} else {
		union mfi_addr any = { .sa.sa_family = (sa_family_t)ep->family };

		if (bind(ep->fd, &any.sa, mfi_addr_len(ep->family))) {
			ret = -errno;
			goto err;
		}
	}
	for (i = 0; i < MFI_TX_SIZE; i++)
		ep->tx[i].next_free = i + 1 < MFI_TX_SIZE ? i + 1 : -1;
	ep->tx_free = 0;
	mfi_rxq_init(&ep->rxq_msg);
	mfi_rxq_init(&ep->rxq_tag);
	mfi_uxq_init(&ep->uxq_msg);
	mfi_uxq_init(&ep->uxq_tag);
	ep->tx_op_flags = ep->info->tx_attr->op_flags;
	ep->rx_op_flags = ep->info->rx_attr->op_flags;
	if ((ep->tx_op_flags & ~MFI_OPS_TX) || (ep->rx_op_flags & ~MFI_OPS_RX)) {
		ret = -FI_EINVAL;	/* FI_DELIVERY_COMPLETE, FI_MULTI_RECV */
		goto err;
	}
	ep->dom = d;
	ep->ep.fid.fclass = FI_CLASS_EP;
	ep->ep.fid.context = context;
	ep->ep.fid.ops = &mfi_ep_fi_ops;
	ep->ep.ops = &mfi_ep_ops;
	ep->ep.cm = &mfi_cm_ops;
	ep->ep.msg = &mfi_msg_ops;
	ep->ep.tagged = &mfi_tag_ops;
	mfi_dom_ref(d, 1);
	*fep = &ep->ep;
	return 0;
err:
	if (ep->fd >= 0)
		close(ep->fd);
	fi_freeinfo(ep->info);
	free(ep->tx);
	free(ep);
	return ret;
}
