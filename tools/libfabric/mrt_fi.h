/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libmrt-fi.so: a libfabric provider named "mrt" over the kernel's mrt
 * sockets (socket(AF_INET{,6}, SOCK_RDM, IPPROTO_MRT)).
 *
 * The kernel does the transport: an endpoint is one mrt socket, a
 * libfabric message one mrt message, reliable and whole.  What libfabric
 * has and mrt has not lives here, in a 24-byte header in front of every
 * message (tagged or not, the tag, the remote CQ data) and in the
 * matching of arriving messages to posted receives, done when the
 * application reads a CQ or posts a receive.  Send completions come from
 * the socket's error queue: every message is sent with MRT_CONFIRM and a
 * cookie naming its transmit slot, so a send completes when the peer's
 * transport has it (FI_TRANSMIT_COMPLETE) and fails with the kernel's
 * reason when it cannot get there.
 *
 * Locking: one mutex per domain, taken by every entry point of the
 * domain's objects (FI_THREAD_SAFE); the blocking reads drop it while
 * they sleep in poll().
 */
#ifndef MRT_FI_H
#define MRT_FI_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>
#include <netinet/in.h>

#include <rdma/fabric.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_eq.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_tagged.h>
#include <rdma/providers/fi_log.h>
#include <rdma/providers/fi_prov.h>

#define MFI_NAME		"mrt"
#define MFI_FABRIC_NAME		"mrt"
#define MFI_VERSION		FI_VERSION(1, 0)

/* The header in front of every message, on the wire, big-endian. */
#define MFI_WIRE_MAGIC		0x6d66	/* "mf" */
#define MFI_WIRE_VERSION	1
#define MFI_OP_MSG		1
#define MFI_OP_TAGGED		2
#define MFI_F_DATA		0x01	/* data carries remote CQ data */

struct mfi_wire {
	uint16_t	magic;
	uint8_t		version;
	uint8_t		op;
	uint8_t		flags;
	uint8_t		reserved[3];
	uint64_t	tag;
	uint64_t	data;
};

#define MFI_HDR			sizeof(struct mfi_wire)
#define MFI_IOV_LIMIT		8
/*
 * Sends outstanding per endpoint: the kernel keeps 1024 error-queue
 * entries beyond a full receive buffer, so no delivery report (and so
 * no send completion) is ever dropped.
 */
#define MFI_TX_SIZE		1024
/*
 * Posted receives: a list, bounded by memory only, since an MPI that posts
 * more than any bound before it sends would wait for ever on -FI_EAGAIN;
 * rx_attr->size is what fi_rx_size_left counts down from.
 */
#define MFI_RX_SIZE		65536
#define MFI_CQ_SIZE		1024
#define MFI_TAG_FORMAT		0xaaaaaaaaaaaaaaaaULL	/* all 64 bits */
#define MFI_DEF_INJECT		8192
#define MFI_DEF_BUF		(16 << 20)

#define MFI_CAPS	(FI_MSG | FI_TAGGED | FI_SEND | FI_RECV | FI_SOURCE | \
			 FI_DIRECTED_RECV | FI_LOCAL_COMM | FI_REMOTE_COMM)
#define MFI_TX_CAPS	(FI_MSG | FI_TAGGED | FI_SEND)
#define MFI_RX_CAPS	(FI_MSG | FI_TAGGED | FI_RECV | FI_SOURCE | FI_DIRECTED_RECV)
/* operation flags taken by sends and receives (and as default op_flags) */
#define MFI_OPS_TX	(FI_COMPLETION | FI_INJECT | FI_INJECT_COMPLETE | \
			 FI_TRANSMIT_COMPLETE | FI_REMOTE_CQ_DATA | FI_MORE)
#define MFI_OPS_RX	(FI_COMPLETION | FI_MORE)

extern struct fi_provider mfi_prov;

/* Provider parameters (FI_MRT_*), read once at load. */
struct mfi_params {
	size_t	inject_size;
	size_t	sndbuf;
	size_t	rcvbuf;
	char	*iface;
	char	*addr_format;	/* "inet", "inet6" or NULL: both */
};

extern struct mfi_params mfi_params;

union mfi_addr {
	struct sockaddr		sa;
	struct sockaddr_in	in;
	struct sockaddr_in6	in6;
};

/* A growable FIFO of fixed-size items. */
struct mfi_ring {
	void	*v;
	size_t	item, cap, head, n;
};

int mfi_ring_push(struct mfi_ring *r, const void *item);
void *mfi_ring_peek(struct mfi_ring *r);
void mfi_ring_pop(struct mfi_ring *r);
void mfi_ring_free(struct mfi_ring *r);

struct mfi_fabric {
	struct fid_fabric	fab;
	int			ref;
	pthread_mutex_t		lock;	/* its EQs' */
};

struct mfi_domain {
	struct fid_domain	dom;
	struct mfi_fabric	*fab;
	struct fi_info		*info;
	pthread_mutex_t		lock;
	int			ref;
	uint64_t		next_key;
};

struct mfi_av {
	struct fid_av		av;
	struct mfi_domain	*dom;
	enum fi_av_type		type;
	int			family;
	int			ref;
	union mfi_addr		*addrs;
	bool			*used;
	size_t			n, cap;
	/* open hashing over the live entries: head per bucket, next per entry */
	int64_t			*bucket, *next;
	size_t			nbuckets;
};

struct mfi_ep;

struct mfi_cq_entry {
	struct fi_cq_tagged_entry	e;
	fi_addr_t			src;
	bool				err;
	struct fi_cq_err_entry		ee;
};

struct mfi_cq {
	struct fid_cq		cq;
	struct mfi_domain	*dom;
	struct fi_cq_attr	attr;
	struct mfi_ring		q;
	struct mfi_ep		**eps;
	size_t			neps;
	int			ref;
	int			epfd;	/* FI_WAIT_FD: epoll over the sockets, */
	int			sigfd;	/* an eventfd for fi_cq_signal() */
	int			qfd;	/* and one readable while q is not empty */
	uint64_t		overruns;
};

struct mfi_eq_entry {
	uint32_t	event;
	bool		err;
	size_t		len;
	uint8_t		buf[sizeof(struct fi_eq_err_entry) + 64];
};

struct mfi_eq {
	struct fid_eq		eq;
	struct mfi_fabric	*fab;
	struct mfi_ring		q;
	int			evfd;	/* FI_WAIT_FD, readable while q is not empty */
};

/* A posted receive. */
struct mfi_rx {
	struct mfi_rx	*next;
	void		*ctx;
	uint64_t	flags;		/* FI_MSG or FI_TAGGED, op flags */
	bool		directed;	/* only from: FI_DIRECTED_RECV */
	union mfi_addr	from;
	uint64_t	tag, ignore;
	struct iovec	iov[MFI_IOV_LIMIT];
	size_t		iovcnt, len;
};

/* A message that arrived before a receive matched it. */
struct mfi_unexp {
	struct mfi_unexp	*next;
	struct mfi_unexp	*cnext;	/* on the endpoint's claimed list */
	struct mfi_wire		hdr;
	union mfi_addr		from;	/* looked up in the AV when matched */
	size_t			len;	/* payload */
	uint8_t			*buf;
};

/* A send waiting for the kernel's report. */
struct mfi_tx {
	void		*ctx;
	uint64_t	flags;		/* completion flags */
	size_t		len;
	uint32_t	gen;
	bool		busy, complete;	/* complete: write a completion */
	int32_t		next_free;
};

struct mfi_rxq {
	struct mfi_rx	*head, **tail;
};

struct mfi_uxq {
	struct mfi_unexp	*head, **tail;
};

struct mfi_ep {
	struct fid_ep		ep;
	struct mfi_domain	*dom;
	struct fi_info		*info;
	int			fd;
	int			family;
	bool			enabled;
	struct mfi_av		*av;
	struct mfi_cq		*txcq, *rxcq;
	uint64_t		tx_op_flags, rx_op_flags;
	bool			tx_selective, rx_selective;
	struct mfi_rxq		rxq_msg, rxq_tag;
	struct mfi_uxq		uxq_msg, uxq_tag;
	struct mfi_unexp	*claimed;	/* set aside by FI_CLAIM */
	size_t			rx_posted;
	struct mfi_tx		*tx;
	int32_t			tx_free;
	size_t			tx_busy;
	/* counted for the log at close */
	uint64_t		bad_msgs, unexp_msgs, tx_reports;
};

static inline void mfi_lock(struct mfi_domain *d)
{
	pthread_mutex_lock(&d->lock);
}

static inline void mfi_unlock(struct mfi_domain *d)
{
	pthread_mutex_unlock(&d->lock);
}

/* the objects opened on a domain (AVs, CQs, endpoints) and on a fabric
 * (domains, EQs): a close of the parent is -FI_EBUSY while any is open
 */
static inline void mfi_dom_ref(struct mfi_domain *d, int delta)
{
	mfi_lock(d);
	d->ref += delta;
	mfi_unlock(d);
}

static inline void mfi_fab_ref(struct mfi_fabric *f, int delta)
{
	pthread_mutex_lock(&f->lock);
	f->ref += delta;
	pthread_mutex_unlock(&f->lock);
}

/* prov.c */
int mfi_no_bind(struct fid *fid, struct fid *bfid, uint64_t flags);
int mfi_no_control(struct fid *fid, int command, void *arg);
int mfi_no_ops_open(struct fid *fid, const char *name, uint64_t flags,
		    void **ops, void *context);
int mfi_probe(int family, size_t *max_msg);
int mfi_errno_to_fi(int err);

/* domain.c */
int mfi_domain_open(struct fid_fabric *fabric, struct fi_info *info,
		    struct fid_domain **dom, void *context);
bool mfi_addr_eq(const union mfi_addr *a, const union mfi_addr *b);
fi_addr_t mfi_av_find(struct mfi_av *av, const union mfi_addr *a);
const union mfi_addr *mfi_av_get(struct mfi_av *av, fi_addr_t fa);
socklen_t mfi_addr_len(int family);

/* cq.c */
int mfi_cq_open(struct fid_domain *domain, struct fi_cq_attr *attr,
		struct fid_cq **cq, void *context);
int mfi_cq_add_ep(struct mfi_cq *cq, struct mfi_ep *ep);
int mfi_cq_watch(struct mfi_cq *cq, struct mfi_ep *ep);
void mfi_cq_del_ep(struct mfi_cq *cq, struct mfi_ep *ep);
int mfi_cq_write(struct mfi_cq *cq, void *ctx, uint64_t flags, size_t len,
		 void *buf, uint64_t data, uint64_t tag, fi_addr_t src);
int mfi_cq_write_err(struct mfi_cq *cq, void *ctx, uint64_t flags, size_t len,
		     void *buf, uint64_t data, uint64_t tag, size_t olen,
		     int err, int prov_errno);
int mfi_eq_open(struct fid_fabric *fabric, struct fi_eq_attr *attr,
		struct fid_eq **eq, void *context);
int mfi_trywait(struct fid_fabric *fabric, struct fid **fids, int count);

/* ep.c */
int mfi_ep_open(struct fid_domain *domain, struct fi_info *info,
		struct fid_ep **ep, void *context);
void mfi_ep_progress(struct mfi_ep *ep);

#endif /* MRT_FI_H */
