// SPDX-License-Identifier: GPL-2.0
/*
 * fabsim's TCP endpoints: ns-3's TCP with the kernel's cores as
 * congestion ops (nscc, dcqcn, swift), each mapping TCP's signals onto
 * its core as the kernel module does (net/ipv4/tcp_*.c), beside ns-3's
 * own DCTCP, Cubic and NewReno; the flows' senders and sinks.
 */
#include <iostream>

#include "ns3/applications-module.h"

#include "cores.h"
#include "fabsim.h"

using namespace ns3;

namespace fabsim
{

TraceTarget g_trace;

/* The flow whose sender socket is being created: its congestion ops,
 * built inside CreateSocket(), take it.
 */
static int g_creating_flow = -1;

/*
 * RTT samples.  TcpSocketBase hands congestion ops the estimator's
 * estimate (m_lastRtt), which an ACK without a sample leaves as it was.
 * This estimator is RttMeanDeviation (its estimate, with Alpha 1, is the
 * latest sample) that also notes each sample: an ACK's CongControl, in
 * the same call as its Measurement(), takes it once.
 */
static struct {
    uint64_t at_ps = UINT64_MAX;
    uint64_t rtt_ns = 0;
    bool taken = true;
} g_sample;

class SampleRtt : public RttMeanDeviation
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("fabsim::SampleRtt")
                                .SetParent<RttMeanDeviation>()
                                .SetGroupName("fabsim")
                                .AddConstructor<SampleRtt>();
        return tid;
    }
    SampleRtt() = default;
    SampleRtt(const SampleRtt& o) = default;
    void Measurement(Time m) override
    {
        RttMeanDeviation::Measurement(m);
        g_sample.at_ps = Simulator::Now().GetPicoSeconds();
        g_sample.rtt_ns = m.GetPicoSeconds() / 1000;
        g_sample.taken = false;
    }
    Ptr<RttEstimator> Copy() const override { return CopyObject<SampleRtt>(this); }
};

NS_OBJECT_ENSURE_REGISTERED(SampleRtt);

static uint64_t TakeRtt()
{
    if (g_sample.taken || g_sample.at_ps != (uint64_t)Simulator::Now().GetPicoSeconds())
        return SIM_NO_RTT;
    g_sample.taken = true;
    return g_sample.rtt_ns;
}

/*
 * The kernel cores as ns-3 congestion ops.  TcpDctcp is the base for its
 * receiver side alone: the per-packet CE -> ECE echo lives in its
 * CwndEvent(), and an ACK per segment (DelAckCount 1) carries it.
 */
class CoreOps : public TcpDctcp
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("fabsim::CoreOps")
                                .SetParent<TcpDctcp>()
                                .SetGroupName("fabsim")
                                .AddConstructor<CoreOps>();
        return tid;
    }
    static std::string s_algo, s_flavour;
    static std::vector<std::string> s_sets;

    CoreOps() : m_flow(g_creating_flow) {}
    CoreOps(const CoreOps& o) : TcpDctcp(o), m_flow(-1) {}
    ~CoreOps() override
    {
        if (m_core)
            sim_cc_free(m_core);
    }
    std::string GetName() const override { return "fabsim-" + s_algo; }
    Ptr<TcpCongestionOps> Fork() override { return CopyObject<CoreOps>(this); }
    bool HasCongControl() const override { return true; }
    void IncreaseWindow(Ptr<TcpSocketState>, uint32_t) override {}
    void PktsAcked(Ptr<TcpSocketState>, uint32_t, const Time&) override {}

    void Init(Ptr<TcpSocketState> tcb) override
    {
        /* ECN as the kernel module negotiates it: nscc uet and dcqcn */
        if (!(s_algo == "nscc" && s_flavour == "mrc"))
            TcpDctcp::Init(tcb);
        m_mss = tcb->m_segmentSize;
        m_pkt = m_mss + 40;
        m_t0 = NowNs();
        std::vector<const char*> sets;
        for (auto& s : s_sets)
            sets.push_back(s.c_str());
        char err[256];
        enum sim_cc_algo a = s_algo == "nscc" ? SIM_CC_NSCC :
                             s_algo == "dcqcn" ? SIM_CC_DCQCN : SIM_CC_SWIFT;
        m_core = sim_cc_new(a, s_flavour.c_str(), sets.data(), sets.size(), m_pkt,
                            10000, err, sizeof(err));
        if (!m_core) {
            std::cerr << "fabsim: [" << s_algo << "] " << err << std::endl;
            exit(2);
        }
        if (m_flow >= 0 && m_flow == g_trace.flow)
            sim_cc_trace(m_core, g_trace.trace, g_trace.rows);
        /* the kernel modules pace: nscc at 1.2 x its window per srtt,
         * dcqcn at its rate, swift below its floor of 2 packets
         */
        tcb->m_pacing = s_algo != "swift";
        tcb->m_pacingRate = DataRate(g_topo.link_bps);
        Apply(tcb);
    }

    uint32_t GetSsThresh(Ptr<const TcpSocketState> tcb, uint32_t) override
    {
        return m_core ? Window(tcb) : 2 * tcb->m_segmentSize;
    }

    void CwndEvent(Ptr<TcpSocketState> tcb, const TcpSocketState::TcpCAEvent_t ev) override
    {
        switch (ev) {
        case TcpSocketState::CA_EVENT_TX_START:
            if (!m_core)
                break;
            /* tcp_dcqcn: the loop catches up and counts what was sent */
            if (s_algo == "dcqcn")
                DcqcnUpdate(false);
            Apply(tcb);
            break;
        case TcpSocketState::CA_EVENT_LOSS:
            if (!m_core)
                break;
            if (s_algo == "nscc")
                sim_nscc_loss(m_core, T(), m_pkt);
            else if (s_algo == "swift")
                sim_swift_rto(m_core, T(), m_srtt);
            Apply(tcb);
            break;
        default:
            TcpDctcp::CwndEvent(tcb, ev);
        }
    }

    void CongestionStateSet(Ptr<TcpSocketState> tcb,
                            const TcpSocketState::TcpCongState_t st) override
    {
        if (m_core && s_algo == "swift" && st == TcpSocketState::CA_RECOVERY)
            sim_swift_recovery(m_core, T(), m_srtt);
    }

    void CongControl(Ptr<TcpSocketState> tcb, const TcpRateOps::TcpRateConnection&,
                     const TcpRateOps::TcpRateSample& rs) override
    {
        uint64_t rtt = TakeRtt(), t;
        bool ce = tcb->m_ecnState == TcpSocketState::ECN_ECE_RCVD;

        if (!m_core)
            return;
        t = T();
        if (s_algo == "nscc") {
            /* tcp_nscc_cong_control() */
            sim_nscc_inflight(m_core, t, (uint64_t)rs.m_priorInFlight * m_pkt / m_mss);
            if (rs.m_ackedSacked || rtt != SIM_NO_RTT)
                sim_nscc_ack(m_core, t, (uint64_t)rs.m_ackedSacked * m_pkt / m_mss, rtt, 0,
                             ce, 0, false);
            if (sim_nscc_is_mrc(m_core)) {
                if (m_ce_round && tcb->m_lastAckedSeq > m_ce_round_end)
                    m_ce_round = false;
                if (ce && !m_ce_round) {
                    m_ce_round = true;
                    m_ce_round_end = tcb->m_highTxMark;
                    sim_nscc_loss(m_core, t, m_pkt);
                }
                if (rs.m_bytesLoss)
                    sim_nscc_loss(m_core, t, (uint64_t)rs.m_bytesLoss * m_pkt / m_mss);
            }
        } else if (s_algo == "dcqcn") {
            DcqcnUpdate(ce);
        } else if (rtt != SIM_NO_RTT) {
            /* tcp_swift_cong_control(): srtt as TCP keeps it */
            m_srtt = m_srtt ? (7 * m_srtt + rtt) / 8 : rtt;
            sim_swift_ack(m_core, t, rtt, std::max<uint32_t>(1, rs.m_ackedSacked / m_mss),
                          m_srtt, true);
        }
        if (rtt != SIM_NO_RTT && s_algo != "swift")
            m_srtt = m_srtt ? (7 * m_srtt + rtt) / 8 : rtt;
        Apply(tcb);
        if (m_flow >= 0 && s_algo == "nscc")
            g_flows[m_flow].qa = sim_nscc_qa_count(m_core);
    }

  private:
    uint64_t T() const { return NowNs() - m_t0; }

    /* tcp_dcqcn_update(): catch up, the data segments sent since the
     * last event (retransmissions too), then the CNP if any
     */
    void DcqcnUpdate(bool ce)
    {
        uint64_t t = T(), segs = m_flow >= 0 ? g_flows[m_flow].segs_out : 0;
        uint32_t sent = segs - m_segs;

        m_segs = segs;
        if (sent)
            sim_dcqcn_tx(m_core, t, sent);
        if (ce)
            sim_dcqcn_cnp(m_core, t, 1);
        if (!sent && !ce)
            sim_dcqcn_tick(m_core, t);
    }

    /* The core's window in bytes of TCP payload. */
    uint32_t Window(Ptr<const TcpSocketState> tcb) const
    {
        uint64_t segs;

        if (s_algo == "nscc") {
            /* tcp_nscc_set_cwnd(): at least 2 segments */
            segs = std::max<uint64_t>(sim_nscc_cwnd(m_core) / m_pkt, 2);
        } else if (s_algo == "dcqcn") {
            /* tcp_dcqcn_apply(): twice the rate's BDP over srtt, plus one,
             * 4 to 65535; before an RTT sample TCP's own
             */
            if (!m_srtt)
                return tcb->m_cWnd;
            segs = (unsigned __int128)2 * sim_dcqcn_rate_bps(m_core) / 8 * m_srtt /
                       (1000000000ULL * m_mss) + 1;
            segs = std::min<uint64_t>(std::max<uint64_t>(segs, 4), 65535);
        } else {
            /* tcp_swift_apply(): at least 2 segments */
            segs = std::max<uint64_t>(sim_swift_cwnd_milli(m_core) / 1000, 2);
        }
        return std::min<uint64_t>(segs * tcb->m_segmentSize, 1U << 30);
    }

    void Apply(Ptr<TcpSocketState> tcb)
    {
        tcb->m_cWnd = Window(tcb);
        if (s_algo == "dcqcn") {
            tcb->m_pacingRate = DataRate(std::max<uint64_t>(sim_dcqcn_rate_bps(m_core), 1000000));
        } else if (s_algo == "nscc" && m_srtt) {
            /* tcp_nscc_set_pacing(): 1.2 x the window (or the flight) per
             * srtt, at most the line rate
             */
            uint64_t w = std::max<uint64_t>(tcb->m_cWnd, tcb->m_bytesInFlight);
            uint64_t bps = (unsigned __int128)w * 8 * 12 * 1000000000ULL / (10 * m_srtt);

            tcb->m_pacingRate = DataRate(std::min<uint64_t>(std::max<uint64_t>(bps, 1000000),
                                                            g_topo.link_bps));
        } else if (s_algo == "swift") {
            /* tcp_swift_rate(): below the floor, the window per srtt */
            uint64_t milli = sim_swift_cwnd_milli(m_core);

            tcb->m_pacing = milli < 2000 && m_srtt;
            if (tcb->m_pacing)
                tcb->m_pacingRate = DataRate(std::max<uint64_t>(
                    (unsigned __int128)m_mss * milli * 8 * 1000000ULL / m_srtt, 1000));
        }
    }

    int m_flow;
    struct sim_cc* m_core = nullptr;
    uint32_t m_mss = 0, m_pkt = 0;
    uint64_t m_t0 = 0, m_srtt = 0;
    bool m_ce_round = false;
    SequenceNumber32 m_ce_round_end;
    uint64_t m_segs = 0;
};

std::string CoreOps::s_algo, CoreOps::s_flavour;
std::vector<std::string> CoreOps::s_sets;

NS_OBJECT_ENSURE_REGISTERED(CoreOps);

/* Flows */

static const uint16_t kPort = 9000;
/* (source address, source port) -> flow */
static std::map<std::pair<uint32_t, uint16_t>, uint32_t> g_flow_of;

static void SinkRead(uint32_t id, Ptr<Socket> s)
{
    Ptr<Packet> p;

    while ((p = s->Recv()))
        Delivered(id, p->GetSize());
}

static void SinkAccept(Ptr<Socket> s, const Address& from)
{
    InetSocketAddress a = InetSocketAddress::ConvertFrom(from);
    auto it = g_flow_of.find({a.GetIpv4().Get(), a.GetPort()});

    if (it == g_flow_of.end()) {
        std::cerr << "fabsim: a connection from no flow's address" << std::endl;
        exit(3);
    }
    s->SetRecvCallback(MakeBoundCallback(&SinkRead, it->second));
}

struct Sender
{
    Ptr<Socket> s;
    uint64_t queued = 0;
};

static std::vector<Sender> g_senders;

static void Push(uint32_t id)
{
    Sender& x = g_senders[id];
    Flow& f = g_flows[id];

    while (x.queued < f.bytes) {
        uint32_t room = x.s->GetTxAvailable();
        uint64_t n = std::min<uint64_t>({f.bytes - x.queued, room, 1 << 20});

        if (!n)
            return;
        int r = x.s->Send(Create<Packet>(n));
        if (r <= 0)
            return;
        x.queued += r;
    }
}

/* Every data segment the sender transmits, retransmissions too (what
 * tcp_dcqcn counts in data_segs_out).
 */
static void TxSeg(uint32_t id, Ptr<const Packet> p, const TcpHeader&, Ptr<const TcpSocketBase>)
{
    if (p->GetSize())
        g_flows[id].segs_out++;
}

static void CongState(uint32_t id, TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t to)
{
    if (to == TcpSocketState::CA_LOSS)
        g_flows[id].rtos++;
}

static void Connected(uint32_t id, Ptr<Socket>)
{
    Push(id);
}

static void ConnectFailed(uint32_t id, Ptr<Socket>)
{
    std::cerr << "fabsim: flow " << id << ": connection failed" << std::endl;
}

static void Room(uint32_t id, Ptr<Socket>, uint32_t)
{
    Push(id);
}

static void Start(uint32_t id)
{
    Flow& f = g_flows[id];
    Sender& x = g_senders[id];
    Address local;

    g_creating_flow = id;
    x.s = Socket::CreateSocket(g_topo.host_nodes.Get(f.src), TcpSocketFactory::GetTypeId());
    g_creating_flow = -1;
    x.s->Bind();
    x.s->GetSockName(local);
    g_flow_of[{g_topo.addr[f.src].Get(), InetSocketAddress::ConvertFrom(local).GetPort()}] = id;
    x.s->TraceConnectWithoutContext("CongState", MakeBoundCallback(&CongState, id));
    x.s->TraceConnectWithoutContext("Tx", MakeBoundCallback(&TxSeg, id));
    x.s->SetConnectCallback(MakeBoundCallback(&Connected, id),
                            MakeBoundCallback(&ConnectFailed, id));
    x.s->SetSendCallback(MakeBoundCallback(&Room, id));
    x.s->Connect(InetSocketAddress(g_topo.addr[f.dst], kPort));
}

void SetupTcp(const Scenario& c, const Endpoint& ep)
{
    const std::string d = "ns3::TcpSocket::";
    uint32_t mss = c.U64("topology.mtu", 4096, 256, 9000);

    ns3::Config::SetDefault("ns3::TcpL4Protocol::RttEstimatorType",
                       TypeIdValue(SampleRtt::GetTypeId()));
    ns3::Config::SetDefault("ns3::RttMeanDeviation::Alpha", DoubleValue(1.0));
    ns3::Config::SetDefault(d + "SegmentSize", UintegerValue(mss));
    ns3::Config::SetDefault(d + "SndBufSize", UintegerValue(c.U64("tcp.buffer_bytes", 32 << 20)));
    ns3::Config::SetDefault(d + "RcvBufSize", UintegerValue(c.U64("tcp.buffer_bytes", 32 << 20)));
    ns3::Config::SetDefault(d + "InitialCwnd", UintegerValue(c.U64("tcp.initial_cwnd_pkts", 10, 1)));
    ns3::Config::SetDefault(d + "DelAckCount", UintegerValue(1));
    ns3::Config::SetDefault(d + "ConnTimeout",
                       TimeValue(MicroSeconds(c.U64("tcp.syn_rto_us", 1000, 1))));
    ns3::Config::SetDefault("ns3::TcpSocketBase::MinRto",
                       TimeValue(MicroSeconds(c.U64("tcp.min_rto_us", 1000, 1))));
    ns3::Config::SetDefault("ns3::TcpSocketBase::ClockGranularity", TimeValue(NanoSeconds(1)));
    ns3::Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(false));
    ns3::Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(true));
    /* ns-3's pacing starts at (and is capped by) 4 Gbit/s */
    ns3::Config::SetDefault("ns3::TcpSocketState::MaxPacingRate",
                            DataRateValue(DataRate(c.U64("topology.link_gbps", 400, 1, 1600) *
                                                   1000000000ULL)));
    ns3::Config::SetDefault("ns3::RttEstimator::InitialEstimation",
                       TimeValue(MicroSeconds(c.U64("tcp.initial_rtt_us", 100, 1))));

    std::string type;
    if (ep.cc == "dctcp")
        type = "ns3::TcpDctcp";
    else if (ep.cc == "cubic")
        type = "ns3::TcpCubic";
    else if (ep.cc == "newreno")
        type = "ns3::TcpNewReno";
    else {
        CoreOps::s_algo = ep.cc;
        CoreOps::s_flavour = ep.flavour;
        CoreOps::s_sets = CoreSets(c, ep.cc);
        type = "fabsim::CoreOps";
    }
    ns3::Config::SetDefault("ns3::TcpL4Protocol::SocketType", TypeIdValue(TypeId::LookupByName(type)));
    if (ep.cc == "dctcp" || ep.cc == "dcqcn" || (ep.cc == "nscc" && ep.flavour == "uet"))
        ns3::Config::SetDefault("ns3::TcpSocketBase::UseEcn", StringValue("On"));
}

void StartTcpFlows(const Scenario& c, const Endpoint& ep)
{
    std::vector<bool> listening(g_topo.hosts);

    g_senders.resize(g_flows.size());
    for (auto& f : g_flows) {
        if (!listening[f.dst]) {
            Ptr<Socket> l = Socket::CreateSocket(g_topo.host_nodes.Get(f.dst),
                                                 TcpSocketFactory::GetTypeId());
            l->Bind(InetSocketAddress(Ipv4Address::GetAny(), kPort));
            l->Listen();
            l->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                 MakeCallback(&SinkAccept));
            listening[f.dst] = true;
            /* kept alive by the node's socket list */
        }
        Simulator::Schedule(NanoSeconds(f.start_ns), &Start, f.id);
    }
}

} // namespace fabsim
