// SPDX-License-Identifier: GPL-2.0
/*
 * The domain, memory registration (a no-op: the kernel copies, so
 * mr_mode is 0 and a registration only hands out a key) and the address
 * vector: sockaddr_in or sockaddr_in6 entries, FI_AV_MAP and FI_AV_TABLE
 * alike giving indices, with a hash for the receive side's FI_SOURCE
 * lookups.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mrt_fi.h"

socklen_t mfi_addr_len(int family)
{
	return family == AF_INET6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
}

/* ---- the address vector ---- */

static uint64_t mfi_addr_hash(const union mfi_addr *a)
{
	uint64_t h = 1469598103934665603ULL;
	const uint8_t *p;
	size_t n, i;

	if (a->sa.sa_family == AF_INET) {
		p = (const uint8_t *)&a->in.sin_addr;
		n = sizeof(a->in.sin_addr);
		h ^= a->in.sin_port;
	} else {
		p = (const uint8_t *)&a->in6.sin6_addr;
		n = sizeof(a->in6.sin6_addr);
		h ^= a->in6.sin6_port;
	}
	for (i = 0; i < n; i++)
		h = (h ^ p[i]) * 1099511628211ULL;
	return h ^ (h >> 29);
}

/* the same host and endpoint */
bool mfi_addr_eq(const union mfi_addr *a, const union mfi_addr *b)
{
	if (a->sa.sa_family != b->sa.sa_family)
		return false;
	if (a->sa.sa_family == AF_INET)
		return a->in.sin_port == b->in.sin_port &&
		       a->in.sin_addr.s_addr == b->in.sin_addr.s_addr;
	return a->in6.sin6_port == b->in6.sin6_port &&
	       !memcmp(&a->in6.sin6_addr, &b->in6.sin6_addr, sizeof(b->in6.sin6_addr));
}

static int mfi_av_rehash(struct mfi_av *av, size_t nb)
{
	int64_t *b = malloc(nb * sizeof(*b));
	size_t i;

	if (!b)
		return -FI_ENOMEM;
	for (i = 0; i < nb; i++)
		b[i] = -1;
	free(av->bucket);
	av->bucket = b;
	av->nbuckets = nb;
	for (i = 0; i < av->n; i++) {
		size_t k;

		if (!av->used[i])
			continue;
		k = mfi_addr_hash(&av->addrs[i]) & (nb - 1);
		av->next[i] = b[k];
		b[k] = (int64_t)i;
	}
	return 0;
}

static int mfi_av_grow(struct mfi_av *av)
{
	size_t cap = av->cap ? av->cap * 2 : 64;
	union mfi_addr *a = realloc(av->addrs, cap * sizeof(*a));
	bool *u;
	int64_t *nx;

	if (!a)
		return -FI_ENOMEM;
	av->addrs = a;
	u = realloc(av->used, cap * sizeof(*u));
	if (!u)
		return -FI_ENOMEM;
	av->used = u;
	nx = realloc(av->next, cap * sizeof(*nx));
	if (!nx)
		return -FI_ENOMEM;
	av->next = nx;
	av->cap = cap;
	return mfi_av_rehash(av, cap * 2);
}

fi_addr_t mfi_av_find(struct mfi_av *av, const union mfi_addr *a)
{
	int64_t i;

	if (!av || !av->nbuckets)
		return FI_ADDR_NOTAVAIL;
	for (i = av->bucket[mfi_addr_hash(a) & (av->nbuckets - 1)]; i >= 0; i = av->next[i])
		if (mfi_addr_eq(&av->addrs[i], a))
			return (fi_addr_t)i;
	return FI_ADDR_NOTAVAIL;
}

const union mfi_addr *mfi_av_get(struct mfi_av *av, fi_addr_t fa)
{
	if (!av || fa >= av->n || !av->used[fa])
		return NULL;
	return &av->addrs[fa];
}

static int mfi_av_add(struct mfi_av *av, const union mfi_addr *a, fi_addr_t *out)
{
	size_t k;
	int ret;

	if (av->n == av->cap) {
		ret = mfi_av_grow(av);
		if (ret)
			return ret;
	}
	av->addrs[av->n] = *a;
	av->used[av->n] = true;
	k = mfi_addr_hash(a) & (av->nbuckets - 1);
	av->next[av->n] = av->bucket[k];
	av->bucket[k] = (int64_t)av->n;
	*out = av->n++;
	return 0;
}

static int mfi_av_check(struct mfi_av *av, const void *p, union mfi_addr *a)
{
	const struct sockaddr *sa = p;

	if (sa->sa_family != av->family)
		return -FI_EINVAL;
	memset(a, 0, sizeof(*a));
	memcpy(a, p, mfi_addr_len(av->family));
	if (av->family == AF_INET6)
		a->in6.sin6_flowinfo = 0;
	return 0;
}

static int mfi_av_insert(struct fid_av *fav, const void *addr, size_t count,
			 fi_addr_t *fi_addr, uint64_t flags, void *context)
{
	struct mfi_av *av = container_of(fav, struct mfi_av, av);
	size_t step = mfi_addr_len(av->family), i;
	int done = 0, ret;

	if (flags & ~FI_MORE)
		return -FI_EBADFLAGS;	/* no async inserts */
	mfi_lock(av->dom);
	for (i = 0; i < count; i++) {
		union mfi_addr a;
		fi_addr_t fa = FI_ADDR_NOTAVAIL;

		ret = mfi_av_check(av, (const uint8_t *)addr + i * step, &a);
		if (!ret)
			ret = mfi_av_add(av, &a, &fa);
		if (fi_addr)
			fi_addr[i] = ret ? FI_ADDR_NOTAVAIL : fa;
		if (!ret)
			done++;
		else if (ret == -FI_ENOMEM)
			break;
	}
	mfi_unlock(av->dom);
	return done;
}

static int mfi_av_insertsvc(struct fid_av *fav, const char *node, const char *service,
			    fi_addr_t *fi_addr, uint64_t flags, void *context)
{
	struct mfi_av *av = container_of(fav, struct mfi_av, av);
	struct addrinfo ai = { .ai_family = av->family, .ai_socktype = SOCK_DGRAM };
	struct addrinfo *res;
	int ret;

	if (flags & ~FI_MORE)
		return -FI_EBADFLAGS;
	if (getaddrinfo(node, service, &ai, &res))
		return -FI_EADDRNOTAVAIL;
	ret = mfi_av_insert(fav, res->ai_addr, 1, fi_addr, 0, context);
	freeaddrinfo(res);
	return ret;
}

static int mfi_av_insertsym(struct fid_av *av, const char *node, size_t nodecnt,
			    const char *service, size_t svccnt, fi_addr_t *fi_addr,
			    uint64_t flags, void *context)
{
	return -FI_ENOSYS;
}

static int mfi_av_remove(struct fid_av *fav, fi_addr_t *fi_addr, size_t count,
			 uint64_t flags)
{
	struct mfi_av *av = container_of(fav, struct mfi_av, av);
	size_t i;
	int ret = 0;

	mfi_lock(av->dom);
	for (i = 0; i < count; i++) {
		if (fi_addr[i] >= av->n || !av->used[fi_addr[i]]) {
			ret = -FI_EINVAL;
			continue;
		}
		av->used[fi_addr[i]] = false;
	}
	mfi_av_rehash(av, av->nbuckets);
	mfi_unlock(av->dom);
	return ret;
}

static int mfi_av_lookup(struct fid_av *fav, fi_addr_t fi_addr, void *addr,
			 size_t *addrlen)
{
	struct mfi_av *av = container_of(fav, struct mfi_av, av);
	const union mfi_addr *a;
	size_t len = mfi_addr_len(av->family);

	mfi_lock(av->dom);
	a = mfi_av_get(av, fi_addr);
	if (a)
		memcpy(addr, a, *addrlen < len ? *addrlen : len);
	mfi_unlock(av->dom);
	if (!a)
		return -FI_EINVAL;
	*addrlen = len;
	return 0;
}

static const char *mfi_av_straddr(struct fid_av *fav, const void *addr, char *buf,
				  size_t *len)
{
	const struct sockaddr *sa = addr;
	char host[INET6_ADDRSTRLEN] = "?", out[96];
	unsigned int port = 0;

	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *in = addr;

		inet_ntop(AF_INET, &in->sin_addr, host, sizeof(host));
		port = ntohs(in->sin_port);
		snprintf(out, sizeof(out), "fi_sockaddr_in://%s:%u", host, port);
	} else if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *in6 = addr;

		inet_ntop(AF_INET6, &in6->sin6_addr, host, sizeof(host));
		port = ntohs(in6->sin6_port);
		snprintf(out, sizeof(out), "fi_sockaddr_in6://[%s]:%u", host, port);
	} else {
		snprintf(out, sizeof(out), "fi_addr_format_unknown");
	}
	if (*len)
		snprintf(buf, *len, "%s", out);
	*len = strlen(out) + 1;
	return buf;
}

static int mfi_av_close(struct fid *fid)
{
	struct mfi_av *av = container_of(fid, struct mfi_av, av.fid);

	if (av->ref)
		return -FI_EBUSY;
	mfi_dom_ref(av->dom, -1);
	free(av->addrs);
	free(av->used);
	free(av->next);
	free(av->bucket);
	free(av);
	return 0;
}

static struct fi_ops mfi_av_fi_ops = {
	.size = sizeof(struct fi_ops),
	.close = mfi_av_close,
	.bind = mfi_no_bind,
	.control = mfi_no_control,
	.ops_open = mfi_no_ops_open,
};

static struct fi_ops_av mfi_av_ops = {
	.size = sizeof(struct fi_ops_av),
	.insert = mfi_av_insert,
	.insertsvc = mfi_av_insertsvc,
	.insertsym = mfi_av_insertsym,
	.remove = mfi_av_remove,
	.lookup = mfi_av_lookup,
	.straddr = mfi_av_straddr,
};

static int mfi_av_open(struct fid_domain *domain, struct fi_av_attr *attr,
		       struct fid_av **fav, void *context)
{
	struct mfi_domain *d = container_of(domain, struct mfi_domain, dom);
	struct mfi_av *av;

	if (attr->flags & (FI_EVENT | FI_READ | FI_SYMMETRIC))
		return -FI_ENOSYS;
	if (attr->name || attr->rx_ctx_bits)
		return -FI_ENOSYS;	/* no shared AVs, no scalable endpoints */
	av = calloc(1, sizeof(*av));
	if (!av)
		return -FI_ENOMEM;
	av->dom = d;
	av->type = attr->type == FI_AV_UNSPEC ? FI_AV_TABLE : attr->type;
	av->family = d->info->addr_format == FI_SOCKADDR_IN6 ? AF_INET6 : AF_INET;
	if (mfi_av_grow(av)) {
		free(av->addrs);
		free(av->used);
		free(av->next);
		free(av->bucket);
		free(av);
		return -FI_ENOMEM;
	}
	av->av.fid.fclass = FI_CLASS_AV;
	av->av.fid.context = context;
	av->av.fid.ops = &mfi_av_fi_ops;
	av->av.ops = &mfi_av_ops;
	mfi_dom_ref(d, 1);
	*fav = &av->av;
	return 0;
}

/* ---- memory registration ---- */

static int mfi_mr_close(struct fid *fid)
{
	struct fid_mr *mr = container_of(fid, struct fid_mr, fid);

	free(mr);
	return 0;
}

static struct fi_ops mfi_mr_fi_ops = {
	.size = sizeof(struct fi_ops),
	.close = mfi_mr_close,
	.bind = mfi_no_bind,
	.control = mfi_no_control,
	.ops_open = mfi_no_ops_open,
};

static int mfi_mr_regattr(struct fid *fid, const struct fi_mr_attr *attr,
			  uint64_t flags, struct fid_mr **mr)
{
	struct mfi_domain *d = container_of(fid, struct mfi_domain, dom.fid);
	struct fid_mr *m;

	if (attr->access & ~(FI_SEND | FI_RECV | FI_READ | FI_WRITE |
			     FI_REMOTE_READ | FI_REMOTE_WRITE))
		return -FI_EINVAL;
	/* iface came with 1.9 */
	if (FI_VERSION_GE(d->fab->fab.api_version, FI_VERSION(1, 9)) &&
	    attr->iface != FI_HMEM_SYSTEM)
		return -FI_ENOSYS;
	m = calloc(1, sizeof(*m));
	if (!m)
		return -FI_ENOMEM;
	m->fid.fclass = FI_CLASS_MR;
	m->fid.context = attr->context;
	m->fid.ops = &mfi_mr_fi_ops;
	m->mem_desc = NULL;
	mfi_lock(d);
	m->key = attr->requested_key ? attr->requested_key : ++d->next_key;
	mfi_unlock(d);
	*mr = m;
	return 0;
}

static int mfi_mr_regv(struct fid *fid, const struct iovec *iov, size_t count,
		       uint64_t access, uint64_t offset, uint64_t requested_key,
		       uint64_t flags, struct fid_mr **mr, void *context)
{
	struct fi_mr_attr a = {
		.mr_iov = iov, .iov_count = count, .access = access,
		.offset = offset, .requested_key = requested_key,
		.context = context, .iface = FI_HMEM_SYSTEM,
	};

	return mfi_mr_regattr(fid, &a, flags, mr);
}

static int mfi_mr_reg(struct fid *fid, const void *buf, size_t len, uint64_t access,
		      uint64_t offset, uint64_t requested_key, uint64_t flags,
		      struct fid_mr **mr, void *context)
{
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };

	return mfi_mr_regv(fid, &iov, 1, access, offset, requested_key, flags, mr,
			   context);
}

static struct fi_ops_mr mfi_mr_ops = {
	.size = sizeof(struct fi_ops_mr),
	.reg = mfi_mr_reg,
	.regv = mfi_mr_regv,
	.regattr = mfi_mr_regattr,
};

/* ---- the domain ---- */

static int mfi_dom_close(struct fid *fid)
{
	struct mfi_domain *d = container_of(fid, struct mfi_domain, dom.fid);

	if (d->ref)
		return -FI_EBUSY;
	mfi_fab_ref(d->fab, -1);
	fi_freeinfo(d->info);
	pthread_mutex_destroy(&d->lock);
	free(d);
	return 0;
}

static struct fi_ops mfi_dom_fi_ops = {
	.size = sizeof(struct fi_ops),
	.close = mfi_dom_close,
	.bind = mfi_no_bind,
	.control = mfi_no_control,
	.ops_open = mfi_no_ops_open,
};

static int mfi_no_sep(struct fid_domain *domain, struct fi_info *info,
		      struct fid_ep **sep, void *context)
{
	return -FI_ENOSYS;
}

static int mfi_no_cntr(struct fid_domain *domain, struct fi_cntr_attr *attr,
		       struct fid_cntr **cntr, void *context)
{
	return -FI_ENOSYS;
}

static int mfi_no_poll(struct fid_domain *domain, struct fi_poll_attr *attr,
		       struct fid_poll **pollset)
{
	return -FI_ENOSYS;
}

static int mfi_no_stx(struct fid_domain *domain, struct fi_tx_attr *attr,
		      struct fid_stx **stx, void *context)
{
	return -FI_ENOSYS;
}

static int mfi_no_srx(struct fid_domain *domain, struct fi_rx_attr *attr,
		      struct fid_ep **rx_ep, void *context)
{
	return -FI_ENOSYS;
}

static int mfi_no_atomic(struct fid_domain *domain, enum fi_datatype datatype,
			 enum fi_op op, struct fi_atomic_attr *attr, uint64_t flags)
{
	return -FI_ENOSYS;
}

static int mfi_no_coll(struct fid_domain *domain, enum fi_collective_op coll,
		       struct fi_collective_attr *attr, uint64_t flags)
{
	return -FI_ENOSYS;
}

static struct fi_ops_domain mfi_dom_ops = {
	.size = sizeof(struct fi_ops_domain),
	.av_open = mfi_av_open,
	.cq_open = mfi_cq_open,
	.endpoint = mfi_ep_open,
	.scalable_ep = mfi_no_sep,
	.cntr_open = mfi_no_cntr,
	.poll_open = mfi_no_poll,
	.stx_ctx = mfi_no_stx,
	.srx_ctx = mfi_no_srx,
	.query_atomic = mfi_no_atomic,
	.query_collective = mfi_no_coll,
};

int mfi_domain_open(struct fid_fabric *fabric, struct fi_info *info,
		    struct fid_domain **dom, void *context)
{
	struct mfi_fabric *f = container_of(fabric, struct mfi_fabric, fab);
	struct mfi_domain *d;

	if (!info || (info->addr_format != FI_SOCKADDR_IN &&
		      info->addr_format != FI_SOCKADDR_IN6))
		return -FI_EINVAL;
	d = calloc(1, sizeof(*d));
	if (!d)
		return -FI_ENOMEM;
	d->info = fi_dupinfo(info);
	if (!d->info) {
		free(d);
		return -FI_ENOMEM;
	}
	pthread_mutex_init(&d->lock, NULL);
	d->fab = f;
	d->dom.fid.fclass = FI_CLASS_DOMAIN;
	d->dom.fid.context = context;
	d->dom.fid.ops = &mfi_dom_fi_ops;
	d->dom.ops = &mfi_dom_ops;
	d->dom.mr = &mfi_mr_ops;
	mfi_fab_ref(f, 1);
	*dom = &d->dom;
	return 0;
}
