// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/net/mrt/pdcs and /proc/net/mrt/dests: one line per PDC and per
 * destination of the netns, with a header line naming the columns, as
 * /proc/net/udp does.  Addresses print as IPv6 (IPv4 v4-mapped: ::ffff:a.b.c.d).
 */
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <net/net_namespace.h>

#include "mrt.h"

#define EM(a, b)	#b,
#define EMe(a, b)	#b,
static const char * const mrt_pdc_state_names[] = { MRT_PDC_STATES };
#undef EM
#undef EMe

static int mrt_pdcs_show(struct seq_file *seq, void *v)
{
	struct mrt_net *mn = mrt_net(seq_file_single_net(seq));
	struct mrt_pdc *pdc;
	unsigned long id;

	seq_puts(seq, "lid rid role state local_ep peer peer_ep ev una nxt cack range inflight_pkts rtx_queued srtt_us rto_us rcvd_bytes ooo\n");
	rcu_read_lock();
	xa_for_each(&mn->pdcs, id, pdc) {
		struct mrt_sock *ms = pdc->ms;

		spin_lock_bh(&ms->lock);
		if (!pdc->linked || pdc->dead) {
			spin_unlock_bh(&ms->lock);
			continue;
		}
		seq_printf(seq, "%u %u %s %s %u %pI6c %u %u ", pdc->lid, pdc->rid,
			   pdc->role == MRT_PDC_TX ? "tx" : "rx",
			   mrt_pdc_state_names[pdc->state], ms->ep, &pdc->peer.a,
			   pdc->peer_ep, pdc->ev);
		if (pdc->role == MRT_PDC_TX)
			seq_printf(seq, "%u %u - %u %u %u %u %u - -\n",
				   pdc->tx.una, pdc->tx.nxt, pdc->range,
				   pdc->tx.nxt - pdc->tx.una, pdc->rtxq_len,
				   pdc->rto.srtt8 / 8,
				   mrt_rto_us(&pdc->rto,
					      mrt_attr(mn, MRT_A_rto_min_us),
					      mrt_attr(mn, MRT_A_rto_max_us),
					      mrt_attr(mn, MRT_A_rto_min_us) * 4));
		else
			seq_printf(seq, "- - %u %u - - - - %llu %u\n",
				   pdc->rx.cack, pdc->range, pdc->rx.rcvd_bytes,
				   pdc->rx.ooo);
		spin_unlock_bh(&ms->lock);
	}
	rcu_read_unlock();
	return 0;
}

static int mrt_dests_show(struct seq_file *seq, void *v)
{
	struct mrt_net *mn = mrt_net(seq_file_single_net(seq));
	struct mrt_dest *d;
	unsigned int i;

	seq_puts(seq, "addr refs cwnd_bytes max_cwnd_bytes inflight_bytes base_rtt_ns avg_delay_ns srtt_us rcv_cwnd_pen qa_count fi_count\n");
	rcu_read_lock();
	for (i = 0; i < ARRAY_SIZE(mn->dests); i++) {
		hlist_for_each_entry_rcu(d, &mn->dests[i], node) {
			spin_lock_bh(&d->lock);
			seq_printf(seq, "%pI6c %u %llu %llu %lld %llu %llu %u %u %llu %llu\n",
				   &d->addr.a, refcount_read(&d->ref), d->cc.cwnd,
				   d->cc.max_wnd, d->cc.inflight, d->cc.base_rtt,
				   nscc_avg_delay(&d->cc), d->srtt_us, d->pen,
				   d->cc.st.qa_count, d->cc.st.fi_count);
			spin_unlock_bh(&d->lock);
		}
	}
	rcu_read_unlock();
	return 0;
}

int mrt_proc_init(struct net *net, struct proc_dir_entry *dir)
{
	if (!proc_create_net_single("pdcs", 0444, dir, mrt_pdcs_show, NULL) ||
	    !proc_create_net_single("dests", 0444, dir, mrt_dests_show, NULL))
		return -ENOMEM;
	return 0;
}
