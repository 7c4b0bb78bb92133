// SPDX-License-Identifier: GPL-2.0
/*
 * fabsim's network: sch_fabric as an ns-3 queue disc, O(1) routing with
 * per-flow ECMP, the star and leaf-spine topologies, link failure.
 */
#include <iostream>

#include "ns3/point-to-point-module.h"

#include "fabsim.h"

using namespace ns3;

namespace fabsim
{

Topology g_topo;

/* Backlog histogram buckets: below 8 bytes one per byte, then 8 per
 * power of two (each at most 1/8 of its lower bound wide).
 */
static unsigned int Bucket(uint64_t v)
{
    unsigned int g;

    if (v < 8)
        return v;
    g = 63 - __builtin_clzll(v) - 2;
    return 8 * g + ((v >> (g - 1)) & 7);
}

static uint64_t BucketTop(unsigned int b)
{
    unsigned int g = b / 8, s = b % 8;

    if (b < 8)
        return b;
    return (1ULL << (g + 2)) + (uint64_t)(s + 1) * (1ULL << (g - 1)) - 1;
}

void PortStats::Arrival(uint64_t now, uint64_t backlog, uint64_t sample_ns)
{
    unsigned int b = Bucket(backlog);

    if (hist.size() <= b)
        hist.resize(b + 1);
    hist[b]++;
    samples++;
    if (watch && (series.empty() || now - last_sample >= sample_ns)) {
        series.emplace_back(now, backlog);
        last_sample = now;
    }
}

uint64_t PortStats::Percentile(double p) const
{
    uint64_t want = (uint64_t)(p * samples), seen = 0;

    for (unsigned int b = 0; b < hist.size(); b++) {
        seen += hist[b];
        if (seen > want || (seen == samples && seen))
            return BucketTop(b);
    }
    return 0;
}

NS_OBJECT_ENSURE_REGISTERED(FabricQueueDisc);

TypeId FabricQueueDisc::GetTypeId()
{
    static TypeId tid = TypeId("fabsim::FabricQueueDisc")
                            .SetParent<QueueDisc>()
                            .SetGroupName("fabsim")
                            .AddConstructor<FabricQueueDisc>();
    return tid;
}

FabricQueueDisc::FabricQueueDisc()
    : QueueDisc(QueueDiscSizePolicy::MULTIPLE_QUEUES, QueueSizeUnit::BYTES)
{
    m_rand = CreateObject<UniformRandomVariable>();
}

void FabricQueueDisc::Setup(const PortConfig& cfg, PortStats* st, bool host,
                            uint64_t sample_ns)
{
    m_cfg = cfg;
    m_st = st;
    m_host = host;
    m_sample_ns = sample_ns;
}

void FabricQueueDisc::Final()
{
    m_st->queued = GetInternalQueue(0)->GetNPackets() + GetInternalQueue(1)->GetNPackets();
}

bool FabricQueueDisc::CheckConfig()
{
    if (GetNInternalQueues() == 0) {
        /* 0: data, 1: headers (host: control packets).  The byte limits
         * are ours; the queues only hold.
         */
        for (int i = 0; i < 2; i++) {
            auto q = CreateObject<DropTailQueue<QueueDiscItem>>();
            q->SetMaxSize(QueueSize(QueueSizeUnit::PACKETS, UINT32_MAX));
            AddInternalQueue(q);
        }
    }
    return GetNQueueDiscClasses() == 0 && GetNPacketFilters() == 0;
}

void FabricQueueDisc::InitializeParams()
{
}

/* sch_fabric's fab_should_mark(): none below ecn_min, ecn_prob % at
 * ecn_max rising linearly, every packet above ecn_max; a step when the two
 * are equal.
 */
bool FabricQueueDisc::ShouldMark()
{
    const PortConfig& c = m_cfg;

    if (!c.ecn_max || m_data_bytes < c.ecn_min)
        return false;
    if (m_data_bytes > c.ecn_max || c.ecn_min == c.ecn_max)
        return true;
    return m_rand->GetValue() * 100.0 * (c.ecn_max - c.ecn_min) <
           (double)c.ecn_prob * (m_data_bytes - c.ecn_min);
}

/* sch_fabric_trim.c: a plain UDP datagram cut to trim_size bytes of IP
 * datagram, with the DSCP of trimmed packets (the ECN bits kept).  NULL:
 * not one this model trims.
 */
Ptr<QueueDiscItem> FabricQueueDisc::Trim(Ptr<QueueDiscItem> item)
{
    auto ip = DynamicCast<Ipv4QueueDiscItem>(item);

    if (!ip || ip->GetHeader().GetProtocol() != 17 ||
        ip->GetSize() <= m_cfg.trim_size || ip->GetHeader().IsLastFragment() == false)
        return nullptr;
    Ipv4Header h = ip->GetHeader();
    uint32_t keep = m_cfg.trim_size - h.GetSerializedSize();
    Ptr<Packet> p = ip->GetPacket()->CreateFragment(0, keep);

    h.SetPayloadSize(keep);
    h.SetDscp((Ipv4Header::DscpType)m_cfg.trim_dscp);
    return Create<Ipv4QueueDiscItem>(p, ip->GetAddress(), ip->GetProtocol(), h);
}

/* sch_fabric_trim.c's fab_trimmed_header(): a plain UDP datagram exactly
 * as long as Trim() leaves one (its DSCP, trim_dscp, is the caller's to
 * check).
 */
bool FabricQueueDisc::TrimmedHeader(Ptr<QueueDiscItem> item)
{
    auto ip = DynamicCast<Ipv4QueueDiscItem>(item);

    return ip && ip->GetHeader().GetProtocol() == 17 && ip->GetHeader().IsLastFragment() &&
           ip->GetHeader().GetFragmentOffset() == 0 && ip->GetSize() == m_cfg.trim_size;
}

static uint8_t Dscp(Ptr<QueueDiscItem> item)
{
    auto ip = DynamicCast<Ipv4QueueDiscItem>(item);

    return ip ? ip->GetHeader().GetDscp() : 0xff;
}

bool FabricQueueDisc::DoEnqueue(Ptr<QueueDiscItem> item)
{
    uint32_t len = item->GetSize();
    uint64_t now = NowNs();

    m_st->Arrival(now, m_data_bytes + m_hdr_bytes, m_sample_ns);
    if (m_host) {
        bool ctl = len <= m_ctl_bytes;

        if (m_data_bytes + m_hdr_bytes + len > m_cfg.limit) {
            m_st->dropped++;
            DropBeforeEnqueue(item, "limit");
            return false;
        }
        GetInternalQueue(ctl ? 1 : 0)->Enqueue(item);
        (ctl ? m_hdr_bytes : m_data_bytes) += len;
    } else {
        uint8_t d = Dscp(item);
        Ptr<QueueDiscItem> t;

        /* as sch_fabric: a header a port upstream trimmed (trim_dscp,
         * not 0, not trimmable here) joins the header queue above
         * trim_at, as one trimmed here does
         */
        if (m_cfg.trim_at && m_data_bytes + len > m_cfg.trim_at && m_cfg.trim_dscp &&
            !(m_cfg.trim_dscp_mask >> m_cfg.trim_dscp & 1) && d == m_cfg.trim_dscp &&
            TrimmedHeader(item)) {
            t = item;
        } else if (m_cfg.trim_at && m_data_bytes + len > m_cfg.trim_at && d < 64 &&
                   (m_cfg.trim_dscp_mask >> d & 1)) {
            t = Trim(item);
            if (t)
                m_st->trimmed++;
        }
        if (t) {
            if (m_hdr_bytes + t->GetSize() > m_cfg.trim_limit) {
                m_st->trim_dropped++;
                DropBeforeEnqueue(item, "trim_limit");
                return false;
            }
            m_hdr_bytes += t->GetSize();
            GetInternalQueue(1)->Enqueue(t);
            goto queued;
        }
        if (m_data_bytes + len > m_cfg.limit) {
            m_st->dropped++;
            DropBeforeEnqueue(item, "limit");
            return false;
        }
        if (ShouldMark() && Mark(item, "ecn"))
            m_st->marked++;
        m_data_bytes += len;
        GetInternalQueue(0)->Enqueue(item);
    }
queued:
    m_st->peak = std::max(m_st->peak, m_data_bytes + m_hdr_bytes);
    return true;
}

Ptr<QueueDiscItem> FabricQueueDisc::DoDequeue()
{
    Ptr<QueueDiscItem> item;
    Time now = Simulator::Now();

    if (m_cfg.rate && now < m_next) {
        if (!m_wake.IsRunning())
            m_wake = Simulator::Schedule(m_next - now, &QueueDisc::Run, this);
        return nullptr;
    }
    item = GetInternalQueue(1)->Dequeue();
    if (item) {
        m_hdr_bytes -= item->GetSize();
    } else {
        item = GetInternalQueue(0)->Dequeue();
        if (!item)
            return nullptr;
        m_data_bytes -= item->GetSize();
    }
    m_st->pkts++;
    m_st->bytes += item->GetSize();
    if (m_cfg.rate) {
        /* the wire's bytes: the PPP header the device adds */
        m_next = std::max(m_next, now) +
                 PicoSeconds(TxPs(item->GetSize() + 2, m_cfg.rate));
    }
    return item;
}

Ptr<const QueueDiscItem> FabricQueueDisc::DoPeek()
{
    Ptr<const QueueDiscItem> item = GetInternalQueue(1)->Peek();

    return item ? item : GetInternalQueue(0)->Peek();
}

/* Routing */

NS_OBJECT_ENSURE_REGISTERED(FabricRouting);

TypeId FabricRouting::GetTypeId()
{
    static TypeId tid = TypeId("fabsim::FabricRouting")
                            .SetParent<Ipv4RoutingProtocol>()
                            .SetGroupName("fabsim")
                            .AddConstructor<FabricRouting>();
    return tid;
}

void FabricRouting::SetIpv4(Ptr<Ipv4> ipv4)
{
    m_ipv4 = ipv4;
}

void FabricRouting::Setup(int role, uint32_t id, uint32_t seed)
{
    m_role = role;
    m_id = id;
    m_seed = seed;
    m_routes.resize(m_ipv4->GetNInterfaces());
}

void FabricRouting::PrintRoutingTable(Ptr<OutputStreamWrapper> stream, Time::Unit) const
{
    *stream->GetStream() << "fabsim routing, role " << m_role << " id " << m_id << "\n";
}

Ptr<Ipv4Route> FabricRouting::Route(uint32_t iface, Ipv4Address dst)
{
    Ptr<Ipv4Route>& r = m_routes[iface];

    if (!r) {
        r = Create<Ipv4Route>();
        r->SetOutputDevice(m_ipv4->GetNetDevice(iface));
        r->SetSource(m_ipv4->GetAddress(iface, 0).GetLocal());
        r->SetGateway(Ipv4Address::GetAny());
    }
    r->SetDestination(dst);
    return r;
}

/* A 64-bit mix (splitmix64's finaliser) of the 5-tuple and the seed. */
static uint64_t Mix(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* Host h's address is the first of the h-th /30 of 198.18.0.0 (its link
 * to its leaf): O(1) both ways.
 */
int Topology::Host(Ipv4Address a) const
{
    uint32_t off = a.Get() - kHostBase;

    if ((off & 3) != 1 || off / 4 >= hosts)
        return -1;
    return off / 4;
}

uint64_t Topology::PathBps(uint32_t src, uint32_t dst) const
{
    uint64_t r = link_bps;

    if (kind != STAR && LeafOf(src) != LeafOf(dst))
        r = std::min(r, uplink_bps);
    return port_bps ? std::min(r, port_bps) : r;
}

/* The interface for h's packet at this switch, ECMP over the usable
 * uplinks at a leaf; -1 if none.
 */
int FabricRouting::Pick(Ptr<const Packet> p, const Ipv4Header& h)
{
    const Topology& t = g_topo;
    int dst = t.Host(h.GetDestination());
    uint32_t dl;

    if (dst < 0)
        return -1;
    dl = t.LeafOf(dst);
    if (m_role == 2)
        return t.usable[dl][m_id] ? (int)t.spine_down[m_id][dl] : -1;
    if (t.kind == Topology::STAR || dl == m_id)
        return t.leaf_down[dst];

    uint8_t ports[4] = {0, 0, 0, 0};
    uint32_t n = 0, k;

    if (p->GetSize() >= 4)
        p->CopyData(ports, 4);
    uint64_t key = (uint64_t)h.GetSource().Get() << 32 | h.GetDestination().Get();
    uint64_t x = Mix(key ^ Mix((uint64_t)m_seed << 40 | (uint64_t)h.GetProtocol() << 32 |
                               (uint32_t)ports[0] << 24 | (uint32_t)ports[1] << 16 |
                               (uint32_t)ports[2] << 8 | ports[3]));
    /* the spines usable from here and on to the destination's leaf */
    const std::vector<bool>& a = t.usable[m_id];
    const std::vector<bool>& b = t.usable[dl];

    for (uint32_t s = 0; s < t.spines; s++)
        n += a[s] && b[s];
    if (!n)
        return -1;
    k = x % n;
    for (uint32_t s = 0; s < t.spines; s++)
        if (a[s] && b[s] && !k--)
            return t.leaf_up[m_id][s];
    return -1;
}

Ptr<Ipv4Route> FabricRouting::RouteOutput(Ptr<Packet> p, const Ipv4Header& header,
                                          Ptr<NetDevice> oif, Socket::SocketErrno& sockerr)
{
    if (m_role != 0) {
        sockerr = Socket::ERROR_NOROUTETOHOST;
        return nullptr;
    }
    sockerr = Socket::ERROR_NOTERROR;
    return Route(1, header.GetDestination());
}

bool FabricRouting::RouteInput(Ptr<const Packet> p, const Ipv4Header& header,
                               Ptr<const NetDevice> idev, UnicastForwardCallback ucb,
                               MulticastForwardCallback mcb, LocalDeliverCallback lcb,
                               ErrorCallback ecb)
{
    int oif;

    if (m_role == 0) {
        if (header.GetDestination() == g_topo.addr[m_id]) {
            lcb(p, header, m_ipv4->GetInterfaceForDevice(idev));
            return true;
        }
        return false;
    }
    oif = Pick(p, header);
    if (oif < 0) {
        ecb(p, header, Socket::ERROR_NOROUTETOHOST);
        return true;
    }
    ucb(Route(oif, header.GetDestination()), p, header);
    return true;
}

class FabricRoutingHelper : public Ipv4RoutingHelper
{
  public:
    Ipv4RoutingHelper* Copy() const override { return new FabricRoutingHelper(*this); }
    Ptr<Ipv4RoutingProtocol> Create(Ptr<Node>) const override
    {
        return CreateObject<FabricRouting>();
    }
};

static PortConfig ReadPort(const Scenario& c, const std::string& s, uint64_t link_bps)
{
    PortConfig p;

    p.rate = c.U64(s + ".rate", 0, 0, link_bps);
    p.limit = c.U64(s + ".limit", p.limit, 1, 1 << 30);
    p.ecn_min = c.U64(s + ".ecn_min", 0, 0, 1 << 30);
    p.ecn_max = c.U64(s + ".ecn_max", 0, 0, 1 << 30);
    p.ecn_prob = c.U64(s + ".ecn_prob", 100, 0, 100);
    p.trim_at = c.U64(s + ".trim_at", 0, 0, 1 << 30);
    p.trim_size = c.U64(s + ".trim_size", 128, 64, 65535);
    p.trim_dscp = c.U64(s + ".trim_dscp", 0, 0, 63);
    p.trim_dscp_mask = c.U64(s + ".trim_dscp_mask", 0);
    p.trim_limit = c.U64(s + ".trim_limit", p.trim_limit, 1, 1 << 30);
    if (p.ecn_max && p.ecn_min > p.ecn_max)
        c.Fail(s + ".ecn_min", "above ecn_max");
    return p;
}

/* The port qdisc first: Ipv4AddressHelper::Assign installs fq_codel on
 * every device that has none yet.
 */
static void InstallPort(Ptr<NetDevice> dev, const PortConfig& cfg, bool host,
                        const std::string& name, uint64_t sample_ns, bool watch)
{
    Ptr<TrafficControlLayer> tc = dev->GetNode()->GetObject<TrafficControlLayer>();
    Ptr<FabricQueueDisc> q = CreateObject<FabricQueueDisc>();
    PortStats& st = g_topo.ports.emplace_back();

    st.name = name;
    st.watch = watch;
    q->Setup(cfg, &st, host, sample_ns);
    q->SetNetDeviceQueueInterface(dev->GetObject<NetDeviceQueueInterface>());
    tc->SetRootQueueDiscOnDevice(dev, q);
    g_topo.qdiscs.push_back(q);
}

void BuildTopology(const Scenario& c)
{
    Topology& t = g_topo;
    std::string kind = c.Str("topology.kind", "leafspine");
    uint64_t sample_ns = c.U64("output.sample_ns", 1000, 1);
    std::vector<std::string> watch = c.List("output.watch");
    uint32_t seed = c.U64("topology.seed", 1, 0, UINT32_MAX);

    if (kind == "star") {
        t.kind = Topology::STAR;
        t.hosts = c.U64("topology.hosts", 8, 2, 16384);
        t.leaves = 1;
        t.per_leaf = t.hosts;
        t.spines = 0;
        t.hops = 2;
    } else if (kind == "leafspine") {
        t.kind = Topology::LEAFSPINE;
        t.leaves = c.U64("topology.leaves", 4, 1, 4096);
        t.per_leaf = c.U64("topology.hosts_per_leaf", 8, 1, 4096);
        t.spines = c.U64("topology.spines", 4, 1, 4096);
        t.hosts = t.leaves * t.per_leaf;
        t.hops = 4;
        if (t.hosts > 16384)
            c.Fail("topology.leaves", "more than 16384 hosts (198.18.0.0/16, a /30 each)");
    } else {
        c.Fail("topology.kind", "star or leafspine");
    }
    t.link_bps = c.U64("topology.link_gbps", 400, 1, 1600) * 1000000000ULL;
    t.uplink_bps = c.U64("topology.uplink_gbps", t.link_bps / 1000000000ULL, 1, 1600) *
                   1000000000ULL;
    t.base_rtt_ps = c.U64("topology.base_rtt_ns", 6000, 10, 100000000) * 1000;
    t.mtu = c.U64("topology.mtu", 4096, 256, 9000);
    /* An empty path's RTT for a small packet: 2 x hops links, each with
     * its propagation and a 64-byte frame's serialisation.
     */
    uint64_t ser = TxPs(64, t.link_bps);
    if (t.base_rtt_ps <= 2 * t.hops * ser)
        c.Fail("topology.base_rtt_ns", "shorter than the serialisation it contains");
    t.link_delay_ps = t.base_rtt_ps / (2 * t.hops) - ser;

    PortConfig sw = ReadPort(c, "switch", t.link_bps);
    t.port_bps = sw.rate;
    PortConfig hostp;
    hostp.limit = c.U64("host.limit", 64 << 20, 1, 1ULL << 32);

    t.host_nodes.Create(t.hosts);
    t.leaf_nodes.Create(t.leaves);
    if (t.spines)
        t.spine_nodes.Create(t.spines);

    InternetStackHelper stack;
    FabricRoutingHelper routing;
    stack.SetRoutingHelper(routing);
    stack.SetIpv6StackInstall(false);
    stack.Install(t.host_nodes);
    stack.Install(t.leaf_nodes);
    if (t.spines)
        stack.Install(t.spine_nodes);

    PointToPointHelper down, up;
    uint32_t dev_mtu = t.mtu + 200;
    down.SetDeviceAttribute("DataRate", DataRateValue(DataRate(t.link_bps)));
    down.SetDeviceAttribute("Mtu", UintegerValue(dev_mtu));
    down.SetChannelAttribute("Delay", TimeValue(PicoSeconds(t.link_delay_ps)));
    down.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", StringValue("1p"));
    up = down;
    up.SetDeviceAttribute("DataRate", DataRateValue(DataRate(t.uplink_bps)));

    auto watched = [&](const std::string& n) {
        return std::find(watch.begin(), watch.end(), n) != watch.end();
    };
    Ipv4AddressHelper ah;
    ah.SetBase("198.18.0.0", "255.255.255.252");
    t.addr.resize(t.hosts);
    t.leaf_down.resize(t.hosts);
    std::vector<std::pair<Ptr<NetDevice>, Ptr<NetDevice>>> hostdev(t.hosts);
    for (uint32_t h = 0; h < t.hosts; h++) {
        uint32_t l = t.LeafOf(h);
        NetDeviceContainer d = down.Install(t.host_nodes.Get(h), t.leaf_nodes.Get(l));
        std::string hn = "host" + std::to_string(h);
        std::string ln = "leaf" + std::to_string(l) + ">host" + std::to_string(h);

        InstallPort(d.Get(0), hostp, true, hn, sample_ns, watched(hn));
        InstallPort(d.Get(1), sw, false, ln, sample_ns, watched(ln));
        Ipv4InterfaceContainer ic = ah.Assign(d);
        ah.NewNetwork();
        t.addr[h] = ic.GetAddress(0);
        if (t.Host(t.addr[h]) != (int)h)
            c.Fail("topology.kind", "host addresses out of order (a fabsim bug)");
        t.leaf_down[h] = ic.Get(1).second;
    }
    t.leaf_up.assign(t.leaves, std::vector<uint32_t>(t.spines));
    t.spine_down.assign(t.spines, std::vector<uint32_t>(t.leaves));
    t.usable.assign(t.leaves, std::vector<bool>(t.spines, true));
    t.updev.assign(t.leaves, std::vector<std::pair<Ptr<NetDevice>, Ptr<NetDevice>>>(t.spines));
    ah.SetBase("198.19.0.0", "255.255.255.252");
    for (uint32_t l = 0; l < t.leaves; l++) {
        for (uint32_t s = 0; s < t.spines; s++) {
            NetDeviceContainer d = up.Install(t.leaf_nodes.Get(l), t.spine_nodes.Get(s));
            std::string un = "leaf" + std::to_string(l) + ">spine" + std::to_string(s);
            std::string dn = "spine" + std::to_string(s) + ">leaf" + std::to_string(l);

            InstallPort(d.Get(0), sw, false, un, sample_ns, watched(un));
            InstallPort(d.Get(1), sw, false, dn, sample_ns, watched(dn));
            Ipv4InterfaceContainer ic = ah.Assign(d);
            ah.NewNetwork();
            t.leaf_up[l][s] = ic.Get(0).second;
            t.spine_down[s][l] = ic.Get(1).second;
            t.updev[l][s] = {d.Get(0), d.Get(1)};
        }
    }
    for (uint32_t h = 0; h < t.hosts; h++)
        DynamicCast<FabricRouting>(t.host_nodes.Get(h)->GetObject<Ipv4>()->GetRoutingProtocol())
            ->Setup(0, h, seed);
    for (uint32_t l = 0; l < t.leaves; l++)
        DynamicCast<FabricRouting>(t.leaf_nodes.Get(l)->GetObject<Ipv4>()->GetRoutingProtocol())
            ->Setup(1, l, Mix(seed * 1000003ULL + l));
    for (uint32_t s = 0; s < t.spines; s++)
        DynamicCast<FabricRouting>(t.spine_nodes.Get(s)->GetObject<Ipv4>()->GetRoutingProtocol())
            ->Setup(2, s, Mix(seed * 1000033ULL + 7777 + s));
}

uint64_t g_failure_drops;

static void FailureDrop(Ptr<const Packet>)
{
    g_failure_drops++;
}

/* A blackhole: every packet the device receives from now on is lost
 * (counted in g_failure_drops).
 */
static void Fail(Ptr<NetDevice> d)
{
    Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();

    em->SetAttribute("ErrorRate", DoubleValue(1.0));
    em->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
    d->SetAttribute("ReceiveErrorModel", PointerValue(em));
    d->TraceConnectWithoutContext("PhyRxDrop", MakeCallback(&FailureDrop));
}

void ScheduleLinkFailure(uint32_t leaf, uint32_t spine, uint64_t at_ns, uint64_t reroute_ns)
{
    auto [a, b] = g_topo.updev[leaf][spine];

    Simulator::Schedule(NanoSeconds(at_ns), [a, b]() {
        Fail(a);
        Fail(b);
    });
    if (reroute_ns)
        Simulator::Schedule(NanoSeconds(at_ns + reroute_ns),
                            [leaf, spine]() { g_topo.usable[leaf][spine] = false; });
}

} // namespace fabsim
