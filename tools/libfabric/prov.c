// SPDX-License-Identifier: GPL-2.0
/*
 * The provider: its entry point, parameters, fi_getinfo and the fabric.
 *
 * fi_getinfo lists one fi_info per local address of the namespace (the
 * interface's name is the domain's name, its address the source address),
 * IPv4 before IPv6, loopback only when named or alone, for the families
 * the mrt module takes.  Every limit is read from the transport: max_msg_size is the
 * smaller of net.mrt.max_msg_bytes and the send buffer the endpoint will
 * get, less the provider's header (and an endpoint's, half its receive
 * buffer: ep.c's mfi_rcvbuf_cap()).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/mrt.h>

#include "mrt_fi.h"

struct mfi_params mfi_params = {
	.inject_size	= MFI_DEF_INJECT,
	.sndbuf		= MFI_DEF_BUF,
	.rcvbuf		= MFI_DEF_BUF,
};

int mfi_errno_to_fi(int err)
{
	switch (err) {
	case 0:
		return 0;
	case EAGAIN:
		return FI_EAGAIN;
	case EMSGSIZE:
		return FI_EMSGSIZE;
	case ENOMEM:
	case ENOBUFS:
		return FI_ENOMEM;
	default:
		/* FI_E* equal the errno values below 256 */
		return err;
	}
}

int mfi_no_bind(struct fid *fid, struct fid *bfid, uint64_t flags)
{
	return -FI_ENOSYS;
}

int mfi_no_control(struct fid *fid, int command, void *arg)
{
	return -FI_ENOSYS;
}

int mfi_no_ops_open(struct fid *fid, const char *name, uint64_t flags,
		    void **ops, void *context)
{
	return -FI_ENOSYS;
}

static long mfi_read_sysctl(const char *name, long dflt)
{
	char path[128], buf[32];
	long v = dflt;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/sys/net/mrt/%s", name);
	f = fopen(path, "re");
	if (!f)
		return dflt;
	if (fgets(buf, sizeof(buf), f))
		v = strtol(buf, NULL, 10);
	fclose(f);
	return v > 0 ? v : dflt;
}

/*
 * Can this namespace open an mrt socket of @family?  And the largest
 * message its endpoints can send: the transport's max_msg_bytes and the
 * send buffer (sendmsg refuses a message larger than SO_SNDBUF), less
 * the header.  Also used by the endpoint to size its socket.
 */
int mfi_probe(int family, size_t *max_msg)
{
	long maxb;
	int fd, v;
	socklen_t l = sizeof(v);

	fd = socket(family, SOCK_RDM | SOCK_CLOEXEC, IPPROTO_MRT);
	if (fd < 0)
		return -errno;
	v = (int)mfi_params.sndbuf;
	/* as root the buffer is what we ask, else capped by wmem_max */
	if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &v, sizeof(v)))
		setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &v, sizeof(v));
	if (getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &v, &l))
		v = 0;
	close(fd);
	maxb = mfi_read_sysctl("max_msg_bytes", 16 << 20);
	if ((long)v < maxb)
		maxb = v;
	if (maxb < (long)MFI_HDR)
		return -ENOBUFS;
	*max_msg = (size_t)maxb - MFI_HDR;
	return 0;
}

static bool mfi_hints_ok(const struct fi_info *h)
{
	if (h->caps & ~MFI_CAPS)
		return false;
	if (h->ep_attr) {
		if (h->ep_attr->type != FI_EP_UNSPEC && h->ep_attr->type != FI_EP_RDM)
			return false;
		if (h->ep_attr->protocol != FI_PROTO_UNSPEC)
			return false;
		if (h->ep_attr->tx_ctx_cnt > 1 || h->ep_attr->rx_ctx_cnt > 1)
			return false;
		/* any mem_tag_format fits in the 64 bits a tag has here */
	}
	if (h->fabric_attr && h->fabric_attr->name &&
	    strcmp(h->fabric_attr->name, MFI_FABRIC_NAME))
		return false;
	if (h->domain_attr) {
		const struct fi_domain_attr *d = h->domain_attr;

		if (d->cq_data_size > 8)
			return false;
		if (d->mr_mode & (FI_MR_BASIC | FI_MR_SCALABLE) &&
		    (d->mr_mode & ~(FI_MR_BASIC | FI_MR_SCALABLE)))
			return false;
		if (d->caps & ~(FI_LOCAL_COMM | FI_REMOTE_COMM))
			return false;
	}
	if (h->tx_attr) {
		if (h->tx_attr->caps & ~(MFI_TX_CAPS | FI_MSG | FI_TAGGED))
			return false;
		if (h->tx_attr->msg_order & ~(FI_ORDER_SAS | FI_ORDER_NONE))
			return false;
		if (h->tx_attr->op_flags & ~MFI_OPS_TX)
			return false;	/* FI_DELIVERY_COMPLETE among them */
		if (h->tx_attr->inject_size > mfi_params.inject_size)
			return false;
		if (h->tx_attr->iov_limit > MFI_IOV_LIMIT)
			return false;
	}
	if (h->rx_attr) {
		if (h->rx_attr->caps & ~(MFI_RX_CAPS | FI_MSG | FI_TAGGED))
			return false;
		if (h->rx_attr->msg_order & ~(FI_ORDER_SAS | FI_ORDER_NONE))
			return false;
		if (h->rx_attr->iov_limit > MFI_IOV_LIMIT)
			return false;
		if (h->rx_attr->op_flags & ~MFI_OPS_RX)
			return false;	/* FI_MULTI_RECV */
		if (h->rx_attr->total_buffered_recv > 0 &&
		    h->rx_attr->total_buffered_recv > (size_t)1 << 30)
			return false;
	}
	return true;
}

static struct fi_info *mfi_info_new(const struct fi_info *hints, const char *ifname,
				    const union mfi_addr *src, const union mfi_addr *dst,
				    size_t max_msg)
{
	struct fi_info *fi = fi_allocinfo();
	socklen_t alen = mfi_addr_len(src->sa.sa_family);

	if (!fi)
		return NULL;
	fi->caps = hints && hints->caps ? hints->caps : MFI_CAPS;
	if (fi->caps & (FI_MSG | FI_TAGGED) && !(fi->caps & (FI_SEND | FI_RECV)))
		fi->caps |= FI_SEND | FI_RECV;
	fi->mode = 0;
	fi->addr_format = src->sa.sa_family == AF_INET ? FI_SOCKADDR_IN : FI_SOCKADDR_IN6;
	fi->src_addr = malloc(alen);
	if (!fi->src_addr)
		goto err;
	memcpy(fi->src_addr, src, alen);
	fi->src_addrlen = alen;
	if (dst) {
		fi->dest_addr = malloc(alen);
		if (!fi->dest_addr)
			goto err;
		memcpy(fi->dest_addr, dst, alen);
		fi->dest_addrlen = alen;
	}

	fi->tx_attr->caps = fi->caps & MFI_TX_CAPS;
	fi->tx_attr->mode = 0;
	/* the application's default flags (FI_COMPLETION with selective
	 * completions, as Open MPI's ofi MTL binds its CQ)
	 */
	fi->tx_attr->op_flags = FI_TRANSMIT_COMPLETE;
	if (hints && hints->tx_attr && hints->tx_attr->op_flags)
		fi->tx_attr->op_flags = hints->tx_attr->op_flags;
	fi->tx_attr->msg_order = FI_ORDER_SAS;
	fi->tx_attr->comp_order = FI_ORDER_NONE;
	fi->tx_attr->inject_size = mfi_params.inject_size < max_msg ? mfi_params.inject_size
								    : max_msg;
	fi->tx_attr->size = MFI_TX_SIZE;
	fi->tx_attr->iov_limit = MFI_IOV_LIMIT;
	fi->tx_attr->rma_iov_limit = 0;

	fi->rx_attr->caps = fi->caps & MFI_RX_CAPS;
	fi->rx_attr->mode = 0;
	fi->rx_attr->op_flags = 0;
	if (hints && hints->rx_attr)
		fi->rx_attr->op_flags = hints->rx_attr->op_flags;
	fi->rx_attr->msg_order = FI_ORDER_SAS;
	fi->rx_attr->comp_order = FI_ORDER_NONE;
	fi->rx_attr->total_buffered_recv = 0;
	fi->rx_attr->size = MFI_RX_SIZE;
	fi->rx_attr->iov_limit = MFI_IOV_LIMIT;

	fi->ep_attr->type = FI_EP_RDM;
	fi->ep_attr->protocol = FI_PROTO_UNSPEC;
	fi->ep_attr->protocol_version = MRT_WIRE_VERSION;
	fi->ep_attr->max_msg_size = max_msg;
	fi->ep_attr->msg_prefix_size = 0;
	fi->ep_attr->max_order_raw_size = 0;
	fi->ep_attr->max_order_war_size = 0;
	fi->ep_attr->max_order_waw_size = 0;
	fi->ep_attr->mem_tag_format = MFI_TAG_FORMAT;
	if (hints && hints->ep_attr && hints->ep_attr->mem_tag_format)
		fi->ep_attr->mem_tag_format = hints->ep_attr->mem_tag_format;
	fi->ep_attr->tx_ctx_cnt = 1;
	fi->ep_attr->rx_ctx_cnt = 1;

	fi->domain_attr->name = strdup(ifname);
	fi->domain_attr->threading = FI_THREAD_SAFE;
	if (hints && hints->domain_attr &&
	    hints->domain_attr->threading != FI_THREAD_UNSPEC)
		fi->domain_attr->threading = hints->domain_attr->threading;
	fi->domain_attr->control_progress = FI_PROGRESS_AUTO;
	fi->domain_attr->data_progress = FI_PROGRESS_AUTO;
	fi->domain_attr->resource_mgmt = FI_RM_ENABLED;
	fi->domain_attr->av_type = FI_AV_UNSPEC;
	if (hints && hints->domain_attr)
		fi->domain_attr->av_type = hints->domain_attr->av_type;
	fi->domain_attr->mr_mode = 0;
	if (hints && hints->domain_attr &&
	    hints->domain_attr->mr_mode & (FI_MR_BASIC | FI_MR_SCALABLE))
		fi->domain_attr->mr_mode = hints->domain_attr->mr_mode;
	fi->domain_attr->mr_key_size = sizeof(uint64_t);
	fi->domain_attr->cq_data_size = sizeof(uint64_t);
	fi->domain_attr->cq_cnt = 256;
	fi->domain_attr->ep_cnt = 256;
	fi->domain_attr->tx_ctx_cnt = 256;
	fi->domain_attr->rx_ctx_cnt = 256;
	fi->domain_attr->max_ep_tx_ctx = 1;
	fi->domain_attr->max_ep_rx_ctx = 1;
	fi->domain_attr->max_ep_stx_ctx = 0;
	fi->domain_attr->max_ep_srx_ctx = 0;
	fi->domain_attr->cntr_cnt = 0;
	fi->domain_attr->mr_iov_limit = 1;
	fi->domain_attr->caps = FI_LOCAL_COMM | FI_REMOTE_COMM;
	fi->domain_attr->mode = 0;
	fi->domain_attr->max_err_data = 0;
	fi->domain_attr->mr_cnt = 1 << 16;

	fi->fabric_attr->name = strdup(MFI_FABRIC_NAME);
	fi->fabric_attr->prov_version = MFI_VERSION;
	if (!fi->domain_attr->name || !fi->fabric_attr->name)
		goto err;
	return fi;
err:
	fi_freeinfo(fi);
	return NULL;
}

static int mfi_family_of(uint32_t fmt)
{
	switch (fmt) {
	case FI_FORMAT_UNSPEC:
	case FI_SOCKADDR:
		return AF_UNSPEC;
	case FI_SOCKADDR_IN:
		return AF_INET;
	case FI_SOCKADDR_IN6:
		return AF_INET6;
	default:
		return -1;
	}
}

static int mfi_copy_addr(union mfi_addr *to, const void *from, size_t len)
{
	const struct sockaddr *sa = from;

	if (!from || len < sizeof(sa->sa_family))
		return -FI_EINVAL;
	if (sa->sa_family != AF_INET && sa->sa_family != AF_INET6)
		return -FI_ENODATA;
	if (len < mfi_addr_len(sa->sa_family))
		return -FI_EINVAL;
	memset(to, 0, sizeof(*to));
	memcpy(to, from, mfi_addr_len(sa->sa_family));
	return 0;
}

static bool mfi_addr_any(const union mfi_addr *a)
{
	if (a->sa.sa_family == AF_INET)
		return a->in.sin_addr.s_addr == htonl(INADDR_ANY);
	return IN6_IS_ADDR_UNSPECIFIED(&a->in6.sin6_addr);
}

static bool mfi_addr_eq_host(const union mfi_addr *a, const struct sockaddr *b)
{
	if (a->sa.sa_family != b->sa_family)
		return false;
	if (b->sa_family == AF_INET)
		return a->in.sin_addr.s_addr == ((const struct sockaddr_in *)b)->sin_addr.s_addr;
	return !memcmp(&a->in6.sin6_addr, &((const struct sockaddr_in6 *)b)->sin6_addr,
		       sizeof(struct in6_addr));
}

static uint16_t mfi_port(const union mfi_addr *a)
{
	return a->sa.sa_family == AF_INET ? a->in.sin_port : a->in6.sin6_port;
}

/* the source address of the route to @dst, port 0 (a UDP connect) */
static int mfi_route_src(const union mfi_addr *dst, union mfi_addr *src)
{
	socklen_t l = sizeof(*src);
	union mfi_addr d = *dst;
	int fd, ret = -1;

	fd = socket(dst->sa.sa_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (d.sa.sa_family == AF_INET && !d.in.sin_port)
		d.in.sin_port = htons(9);
	if (d.sa.sa_family == AF_INET6 && !d.in6.sin6_port)
		d.in6.sin6_port = htons(9);
	if (!connect(fd, &d.sa, mfi_addr_len(d.sa.sa_family)) &&
	    !getsockname(fd, &src->sa, &l)) {
		if (src->sa.sa_family == AF_INET)
			src->in.sin_port = 0;
		else
			src->in6.sin6_port = 0;
		ret = 0;
	}
	close(fd);
	return ret;
}

static int mfi_getinfo(uint32_t version, const char *node, const char *service,
		       uint64_t flags, const struct fi_info *hints, struct fi_info **info)
{
	union mfi_addr src, dst;
	bool have_src = false, have_dst = false;
	struct fi_info *head = NULL, **tail = &head;
	size_t max_msg[2] = { 0, 0 };
	bool fam_ok[2] = { false, false };
	struct ifaddrs *ifa0 = NULL, *ifa;
	const char *dom_name = NULL;
	int fam = AF_UNSPEC, ret, pass, i;
	bool explicit_lo;

	if (hints && !mfi_hints_ok(hints))
		return -FI_ENODATA;
	if (hints) {
		fam = mfi_family_of(hints->addr_format);
		if (fam < 0)
			return -FI_ENODATA;
		if (hints->domain_attr)
			dom_name = hints->domain_attr->name;
	}
	if (fam == AF_UNSPEC && mfi_params.addr_format)
		fam = strcmp(mfi_params.addr_format, "inet6") ? AF_INET : AF_INET6;

	if (node || service) {
		struct addrinfo ai = { .ai_family = fam, .ai_socktype = SOCK_DGRAM };
		struct addrinfo *res;

		if (flags & FI_NUMERICHOST)
			ai.ai_flags |= AI_NUMERICHOST;
		if ((flags & FI_SOURCE) && !node)
			ai.ai_flags |= AI_PASSIVE;
		if (getaddrinfo(node, service, &ai, &res)) {
			FI_INFO(&mfi_prov, FI_LOG_CORE, "cannot resolve %s:%s\n",
				node ? node : "", service ? service : "");
			return -FI_ENODATA;
		}
		ret = mfi_copy_addr(flags & FI_SOURCE ? &src : &dst, res->ai_addr,
				    res->ai_addrlen);
		freeaddrinfo(res);
		if (ret)
			return -FI_ENODATA;
		if (flags & FI_SOURCE)
			have_src = true;
		else
			have_dst = true;
	}
	if (hints && hints->src_addr && !have_src) {
		if (mfi_copy_addr(&src, hints->src_addr, hints->src_addrlen))
			return -FI_ENODATA;
		have_src = true;
	}
	if (hints && hints->dest_addr && !have_dst) {
		if (mfi_copy_addr(&dst, hints->dest_addr, hints->dest_addrlen))
			return -FI_ENODATA;
		have_dst = true;
	}
	if (have_dst) {
		if (fam != AF_UNSPEC && fam != dst.sa.sa_family)
			return -FI_ENODATA;
		fam = dst.sa.sa_family;
	}
	if (have_src) {
		if (fam != AF_UNSPEC && fam != src.sa.sa_family)
			return -FI_ENODATA;
		fam = src.sa.sa_family;
	} else if (have_dst && !dom_name && !mfi_params.iface &&
		   mfi_route_src(&dst, &src) == 0) {
		/* the address the route to the peer leaves from, which the
		 * peer's answers can reach: not any interface's
		 */
		have_src = true;
	}

	for (i = 0; i < 2; i++) {
		int f = i ? AF_INET6 : AF_INET;

		if (fam != AF_UNSPEC && fam != f)
			continue;
		ret = mfi_probe(f, &max_msg[i]);
		if (ret) {
			FI_INFO(&mfi_prov, FI_LOG_CORE,
				"no mrt socket of family %d: %s (is mrt.ko loaded?)\n",
				f, strerror(-ret));
			continue;
		}
		if (hints && hints->ep_attr && hints->ep_attr->max_msg_size > max_msg[i])
			continue;
		fam_ok[i] = true;
	}
	if (!fam_ok[0] && !fam_ok[1])
		return -FI_ENODATA;
	if (getifaddrs(&ifa0))
		return -FI_ENODATA;

	/*
	 * IPv4 then IPv6; loopback only when asked for (by name or address)
	 * or when the namespace has nothing else: an endpoint on 127.0.0.1
	 * reaches no other host, and applications that pick among the entries
	 * (Open MPI's ofi MTL spreads ranks over them) would pick it.
	 */
	explicit_lo = dom_name || mfi_params.iface || (have_src && !mfi_addr_any(&src));
	for (i = 0; i < 2; i++) {
		int f = i ? AF_INET6 : AF_INET;
		struct fi_info **fam_start = tail;

		if (!fam_ok[i])
			continue;
		for (pass = 0; pass < 2; pass++) {
			if (pass && !explicit_lo && *fam_start)
				break;
			for (ifa = ifa0; ifa; ifa = ifa->ifa_next) {
				union mfi_addr a;
				struct fi_info *fi;

				if (!ifa->ifa_addr || ifa->ifa_addr->sa_family != f ||
				    !(ifa->ifa_flags & IFF_UP))
					continue;
				if (!!(ifa->ifa_flags & IFF_LOOPBACK) != pass)
					continue;
				if (f == AF_INET6 &&
				    IN6_IS_ADDR_LINKLOCAL(&((struct sockaddr_in6 *)
							    ifa->ifa_addr)->sin6_addr))
					continue;
				if (mfi_params.iface && strcmp(mfi_params.iface, ifa->ifa_name))
					continue;
				if (dom_name && strcmp(dom_name, ifa->ifa_name))
					continue;
				if (have_src && !mfi_addr_any(&src) &&
				    !mfi_addr_eq_host(&src, ifa->ifa_addr))
					continue;
				mfi_copy_addr(&a, ifa->ifa_addr, mfi_addr_len(f));
				if (f == AF_INET)
					a.in.sin_port = have_src ? mfi_port(&src) : 0;
				else
					a.in6.sin6_port = have_src ? mfi_port(&src) : 0;
				fi = mfi_info_new(hints, ifa->ifa_name, &a,
						  have_dst ? &dst : NULL, max_msg[i]);
				if (!fi) {
					freeifaddrs(ifa0);
					fi_freeinfo(head);
					return -FI_ENOMEM;
				}
				*tail = fi;
				tail = &fi->next;
			}
		}
	}
	freeifaddrs(ifa0);
	if (!head)
		return -FI_ENODATA;
	*info = head;
	return 0;
}

static int mfi_fabric_close(struct fid *fid)
{
	struct mfi_fabric *f = container_of(fid, struct mfi_fabric, fab.fid);

	if (f->ref)
		return -FI_EBUSY;
	pthread_mutex_destroy(&f->lock);
	free(f);
	return 0;
}

static struct fi_ops mfi_fabric_fi_ops = {
	.size = sizeof(struct fi_ops),
	.close = mfi_fabric_close,
	.bind = mfi_no_bind,
	.control = mfi_no_control,
	.ops_open = mfi_no_ops_open,
};

static int mfi_no_pep(struct fid_fabric *fabric, struct fi_info *info,
		      struct fid_pep **pep, void *context)
{
	return -FI_ENOSYS;	/* RDM only: no passive endpoints */
}

static int mfi_no_wait(struct fid_fabric *fabric, struct fi_wait_attr *attr,
		       struct fid_wait **waitset)
{
	return -FI_ENOSYS;
}

static struct fi_ops_fabric mfi_fabric_ops = {
	.size = sizeof(struct fi_ops_fabric),
	.domain = mfi_domain_open,
	.passive_ep = mfi_no_pep,
	.eq_open = mfi_eq_open,
	.wait_open = mfi_no_wait,
	.trywait = mfi_trywait,
};

static int mfi_fabric(struct fi_fabric_attr *attr, struct fid_fabric **fabric,
		      void *context)
{
	struct mfi_fabric *f;

	if (attr->name && strcmp(attr->name, MFI_FABRIC_NAME))
		return -FI_EINVAL;
	f = calloc(1, sizeof(*f));
	if (!f)
		return -FI_ENOMEM;
	pthread_mutex_init(&f->lock, NULL);
	f->fab.fid.fclass = FI_CLASS_FABRIC;
	f->fab.fid.context = context;
	f->fab.fid.ops = &mfi_fabric_fi_ops;
	f->fab.ops = &mfi_fabric_ops;
	*fabric = &f->fab;
	return 0;
}

static void mfi_cleanup(void)
{
}

struct fi_provider mfi_prov = {
	.name = MFI_NAME,
	.version = MFI_VERSION,
	.fi_version = FI_VERSION(FI_MAJOR_VERSION, FI_MINOR_VERSION),
	.getinfo = mfi_getinfo,
	.fabric = mfi_fabric,
	.cleanup = mfi_cleanup,
};

FI_EXT_INI
{
	fi_param_define(&mfi_prov, "inject_size", FI_PARAM_SIZE_T,
			"Largest fi_inject message (default %d)", MFI_DEF_INJECT);
	fi_param_define(&mfi_prov, "sndbuf", FI_PARAM_SIZE_T,
			"An endpoint's socket send buffer; with the transport's max_msg_bytes it sets max_msg_size (default %d)",
			MFI_DEF_BUF);
	fi_param_define(&mfi_prov, "rcvbuf", FI_PARAM_SIZE_T,
			"An endpoint's socket receive buffer (default %d)", MFI_DEF_BUF);
	fi_param_define(&mfi_prov, "iface", FI_PARAM_STRING,
			"List only this interface's addresses (default: all)");
	fi_param_define(&mfi_prov, "addr_format", FI_PARAM_STRING,
			"inet or inet6: list only that family when the hints do not say (default: both, inet first)");
	fi_param_get_size_t(&mfi_prov, "inject_size", &mfi_params.inject_size);
	fi_param_get_size_t(&mfi_prov, "sndbuf", &mfi_params.sndbuf);
	fi_param_get_size_t(&mfi_prov, "rcvbuf", &mfi_params.rcvbuf);
	fi_param_get_str(&mfi_prov, "iface", &mfi_params.iface);
	fi_param_get_str(&mfi_prov, "addr_format", &mfi_params.addr_format);
	if (mfi_params.sndbuf > INT32_MAX / 2)
		mfi_params.sndbuf = INT32_MAX / 2;
	if (mfi_params.rcvbuf > INT32_MAX / 2)
		mfi_params.rcvbuf = INT32_MAX / 2;
	return &mfi_prov;
}
