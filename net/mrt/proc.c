// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/net/mrt/pdcs and /proc/net/mrt/dests: one line per PDC and per
 * destination of the netns, with a header line naming the columns, as
 * /proc/net/udp does.  Addresses print as IPv6 (IPv4 v4-mapped: ::ffff:a.b.c.d).
 *
 * Both files are readable by all, but a PDC's ids (lid, rid), its PSNs
 * (una, nxt, cack) and its keys (key, rkey) are what a packet forged into
 * it needs, so, as TCP keeps its sequence numbers from other users, they
 * print only for a reader with CAP_NET_ADMIN over the netns's user
 * namespace; anyone else reads "-" in those columns, the header and the
 * column count unchanged.  The reader is the opener: file->f_cred, the
 * credentials of open(), asked once per open file (at its first read), so
 * an fd passed to a privileged process shows no more than its opener saw.
 */
#include <linux/capability.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <net/net_namespace.h>

#include "mrt.h"

#define EM(a, b)	#b,
#define EMe(a, b)	#b,
static const char * const mrt_pdc_state_names[] = { MRT_PDC_STATES };
#undef EM
#undef EMe

/* What an open /proc/net/mrt/pdcs may print: decided at its first read. */
enum mrt_pdcs_view {
	MRT_PDCS_UNDECIDED,		/* zeroed at open */
	MRT_PDCS_ROWS,			/* no ids, PSNs or keys */
	MRT_PDCS_ALL,			/* CAP_NET_ADMIN */
};

struct mrt_pdcs_iter {
	struct seq_net_private p;	/* first: seq_file_net() reads it */
	enum mrt_pdcs_view view;
};

/* An iterator over the PDC ids, so that a read of many PDCs goes page by
 * page, each under its own RCU section: position 0 is the header, then
 * position n + 1 is the PDC with local id n.
 */
static struct mrt_pdc *mrt_pdcs_from(struct seq_file *seq, loff_t *pos)
{
	struct mrt_net *mn = mrt_net(seq_file_net(seq));
	unsigned long id = *pos - 1;
	struct mrt_pdc *pdc;

	pdc = xa_find(&mn->pdcs, &id, U16_MAX, XA_PRESENT);
	*pos = pdc ? (loff_t)id + 1 : U16_MAX + 2;
	return pdc;
}

static void *mrt_pdcs_start(struct seq_file *seq, loff_t *pos)
	__acquires(RCU)
{
	struct mrt_pdcs_iter *it = seq->private;

	if (it->view == MRT_PDCS_UNDECIDED)
		it->view = file_ns_capable(seq->file,
					   seq_file_net(seq)->user_ns,
					   CAP_NET_ADMIN) ?
			   MRT_PDCS_ALL : MRT_PDCS_ROWS;
	rcu_read_lock();
	if (!*pos)
		return SEQ_START_TOKEN;
	if (*pos > U16_MAX + 1)
		return NULL;
	return mrt_pdcs_from(seq, pos);
}

static void *mrt_pdcs_next(struct seq_file *seq, void *v, loff_t *pos)
{
	++*pos;
	if (*pos > U16_MAX + 1)
		return NULL;
	return mrt_pdcs_from(seq, pos);
}

static void mrt_pdcs_stop(struct seq_file *seq, void *v)
	__releases(RCU)
{
	rcu_read_unlock();
}

/* An id or PSN column: its value for a reader who sees all, else "-". */
static void mrt_pdcs_put(struct seq_file *seq, bool all, u32 v)
{
	if (all)
		seq_printf(seq, "%u ", v);
	else
		seq_puts(seq, "- ");
}

static int mrt_pdcs_show(struct seq_file *seq, void *v)
{
	const struct mrt_pdcs_iter *it = seq->private;
	bool all = it->view == MRT_PDCS_ALL;
	struct mrt_pdc *pdc = v;
	struct mrt_sock *ms;

	if (v == SEQ_START_TOKEN) {
		/* key and rkey came last: columns are only added at the end */
		seq_puts(seq, "lid rid role state local_ep peer peer_ep ev una nxt cack range inflight_pkts rtx_queued srtt_us rto_us rcvd_bytes ooo key rkey\n");
		return 0;
	}
	ms = pdc->ms;
	spin_lock_bh(&ms->lock);
	if (!pdc->linked || pdc->dead) {
		spin_unlock_bh(&ms->lock);
		return 0;
	}
	mrt_pdcs_put(seq, all, pdc->lid);
	mrt_pdcs_put(seq, all, pdc->rid);
	seq_printf(seq, "%s %s %u %pI6c %u %u ",
		   pdc->role == MRT_PDC_TX ? "tx" : "rx",
		   mrt_pdc_state_names[pdc->state], ms->ep, &pdc->peer.a,
		   pdc->peer_ep, pdc->ev);
	if (pdc->role == MRT_PDC_TX) {
		mrt_pdcs_put(seq, all, pdc->snd.tx.una);
		mrt_pdcs_put(seq, all, pdc->snd.tx.nxt);
		seq_printf(seq, "- %u %u %u %u %u - - ", pdc->range,
			   pdc->snd.tx.nxt - pdc->snd.tx.una, pdc->snd.rtxq_len,
			   pdc->snd.rto.srtt8 / 8, mrt_rto_now_us(pdc));
	} else {
		seq_puts(seq, "- - ");
		mrt_pdcs_put(seq, all, pdc->rx.cack);
		seq_printf(seq, "%u - - - - %llu %u ", pdc->range,
			   pdc->rx.rcvd_bytes, pdc->rx.ooo);
	}
	if (all)
		seq_printf(seq, "%08x %08x\n", pdc->key, pdc->rkey);
	else
		seq_puts(seq, "- -\n");
	spin_unlock_bh(&ms->lock);
	return 0;
}

static const struct seq_operations mrt_pdcs_ops = {
	.start	= mrt_pdcs_start,
	.next	= mrt_pdcs_next,
	.stop	= mrt_pdcs_stop,
	.show	= mrt_pdcs_show,
};

static void mrt_dests_list(struct seq_file *seq, struct hlist_head *h)
{
	struct mrt_dest *d;

	hlist_for_each_entry_rcu(d, h, node) {
		spin_lock_bh(&d->lock);
		seq_printf(seq, "%pI6c %u %llu %llu %lld %llu %llu %u %u %llu %llu %u %u\n",
			   &d->addr.a, refcount_read(&d->ref), d->cc.cwnd,
			   d->cc.max_wnd, d->cc.inflight, d->cc.base_rtt,
			   nscc_avg_delay(&d->cc), d->srtt_us, d->pen,
			   d->cc.st.qa_count, d->cc.st.fi_count, d->grouped,
			   d->cc.cfg.rate_mbps);
		spin_unlock_bh(&d->lock);
	}
}

/* Every destination: the grouped ones (one window per address), then the
 * ungrouped (qp_groups_enabled 0: one per PDC, or a socket's own EVs).
 */
static int mrt_dests_show(struct seq_file *seq, void *v)
{
	struct mrt_net *mn = mrt_net(seq_file_single_net(seq));
	unsigned int i;

	seq_puts(seq, "addr refs cwnd_bytes max_cwnd_bytes inflight_bytes base_rtt_ns avg_delay_ns srtt_us rcv_cwnd_pen qa_count fi_count grouped data_rate_mbps\n");
	rcu_read_lock();
	for (i = 0; i < ARRAY_SIZE(mn->dests); i++)
		mrt_dests_list(seq, &mn->dests[i]);
	mrt_dests_list(seq, &mn->solo);
	rcu_read_unlock();
	return 0;
}

int mrt_proc_init(struct net *net, struct proc_dir_entry *dir)
{
	if (!proc_create_net("pdcs", 0444, dir, &mrt_pdcs_ops,
			     sizeof(struct mrt_pdcs_iter)) ||
	    !proc_create_net_single("dests", 0444, dir, mrt_dests_show, NULL))
		return -ENOMEM;
	return 0;
}
