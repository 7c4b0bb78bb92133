// SPDX-License-Identifier: GPL-2.0
/*
 * fabsim's mrt endpoints: the kernel's protocol engine (sim/mrtsim.c over
 * net/mrt/engine.c) on ns-3's UDP.  Every host has one socket on mrt's
 * port for what arrives (with its TOS: DSCP and ECN); packets leave
 * through UDP directly, from the EV as the source port, as mrt.ko sends
 * them.  A flow is one message on its own sending PDC; NSCC is per
 * destination (a source-destination pair), as mrt.ko groups it.
 */
#include <iostream>

#include "fabsim.h"
#include "mrtsim.h"

using namespace ns3;

namespace fabsim
{

uint32_t MrtHeaderBytes();
void SetupMrt(const Scenario& c, const Endpoint& ep);
void StartMrtFlows(const Scenario& c, const Endpoint& ep);
void FinishMrtFlows();

static struct sim_mrt_net* g_net;
static uint16_t g_port;
static uint64_t g_rcvbuf, g_app_bps;

/* Where a PDC's packets go. */
struct Emit
{
    uint32_t host;
    Ipv4Address dst;
};

struct MrtSender
{
    struct sim_mrt_snd* s = nullptr;
    uint32_t flow = 0;
    uint32_t host = 0;
    Emit e;
    EventId timer;
    uint64_t timer_at = 0;
};

struct MrtHost
{
    Ptr<Socket> rx;
    struct sim_mrt_sock* sock = nullptr;   /* its receive buffer */
    Ptr<UdpL4Protocol> udp;
    Ptr<Ipv4RoutingProtocol> routing;
    uint16_t next_lid = 1;
    std::map<uint16_t, MrtSender*> snds;     /* by our PDC id */
    std::map<uint16_t, struct sim_mrt_rcv*> rcvs;    /* by our PDC id */
    /* (peer host, peer's PDC id) -> our receiving PDC's id */
    std::map<std::pair<uint32_t, uint16_t>, uint16_t> rcv_of;
    /* our receiving PDC's id -> the flow */
    std::map<uint16_t, uint32_t> flow_of;
};

static std::vector<MrtHost> g_hosts;
static std::vector<MrtSender> g_msnd;
static std::map<std::pair<uint32_t, uint32_t>, struct sim_mrt_dest*> g_dests;

static void EmitPacket(void* ctx, const uint8_t* hdr, unsigned int hlen, unsigned int payload,
                       uint16_t sport, uint8_t tos)
{
    Emit* e = static_cast<Emit*>(ctx);
    MrtHost& h = g_hosts[e->host];
    Ptr<Packet> p = Create<Packet>(hdr, hlen);
    SocketIpTosTag tag;
    Ipv4Header ih;
    Socket::SocketErrno err;

    if (payload)
        p->AddPaddingAtEnd(payload);
    tag.SetTos(tos);
    p->AddPacketTag(tag);
    ih.SetDestination(e->dst);
    Ptr<Ipv4Route> route = h.routing->RouteOutput(p, ih, nullptr, err);
    h.udp->Send(p, g_topo.addr[e->host], e->dst, sport, g_port, route);
}

static void Fire(MrtSender* m)
{
    m->timer_at = 0;
    sim_mrt_snd_timer(m->s, NowNs());
}

/* The PDC's timer: the earliest deadline it asked for (sim_mrt_arm_fn). */
static void Arm(void* user, uint64_t at)
{
    MrtSender& m = *static_cast<MrtSender*>(user);
    uint64_t now = NowNs();

    if (!at || (m.timer_at && m.timer_at <= at && m.timer.IsRunning()))
        return;
    m.timer.Cancel();
    m.timer_at = at;
    m.timer = Simulator::Schedule(NanoSeconds(at > now ? at - now : 0), &Fire, &m);
}

static void Recv(uint32_t host, Ptr<Socket> sock)
{
    MrtHost& h = g_hosts[host];
    Address from;
    Ptr<Packet> p;

    while ((p = sock->RecvFrom(from))) {
        InetSocketAddress a = InetSocketAddress::ConvertFrom(from);
        int peer = g_topo.Host(a.GetIpv4());
        uint8_t hdr[SIM_MRT_HDR_MAX];
        unsigned int len = p->GetSize();
        SocketIpTosTag tag;
        uint16_t id;
        uint8_t tos = 0;
        int type;

        if (peer < 0)
            continue;
        if (p->RemovePacketTag(tag))
            tos = tag.GetTos();
        p->CopyData(hdr, std::min<unsigned int>(len, sizeof(hdr)));
        type = sim_mrt_peek(hdr, len, &id);
        Emit e = {host, a.GetIpv4()};
        uint64_t now = NowNs();

        if (type == SIM_MRT_TO_RCV_DATA) {
            auto k = std::make_pair((uint32_t)peer, id);
            auto it = h.rcv_of.find(k);
            uint64_t got, dup;

            if (it == h.rcv_of.end()) {
                /* a new sender: its flow was registered at its start */
                if (h.next_lid == 0) {
                    std::cerr << "fabsim: host " << host << ": more than 65535 mrt PDCs"
                              << std::endl;
                    exit(2);
                }
                uint16_t lid = h.next_lid++;
                it = h.rcv_of.emplace(k, lid).first;
                h.rcvs[lid] = sim_mrt_rcv_new(g_net, h.sock, lid, id);
                h.flow_of[lid] = g_hosts[peer].snds.at(id)->flow;
            }
            sim_mrt_rcv_data(h.rcvs[it->second], hdr, len, tos, a.GetPort(), now, EmitPacket,
                             &e, &got, &dup);
            Flow& f = g_flows[h.flow_of[it->second]];
            f.dup_deliveries += dup;
            if (got)
                Delivered(f.id, got);
        } else if (type == SIM_MRT_TO_SND) {
            auto s = h.snds.find(id);

            if (s != h.snds.end())
                sim_mrt_snd_rx(s->second->s, hdr, len, now);
        } else if (type == SIM_MRT_TO_RCV && h.rcvs.count(id)) {
            sim_mrt_rcv_probe(h.rcvs[id], hdr, len, EmitPacket, &e);
        }
    }
}

uint32_t MrtHeaderBytes()
{
    return sim_mrt_data_overhead();
}

void SetupMrt(const Scenario& c, const Endpoint& ep)
{
    std::vector<std::string> ms = CoreSets(c, "mrt"), ns = CoreSets(c, "nscc");
    std::vector<const char*> mp, np;
    char err[256];

    for (auto& s : ms)
        mp.push_back(s.c_str());
    for (auto& s : ns)
        np.push_back(s.c_str());
    g_net = sim_mrt_net_new(mp.data(), mp.size(), np.data(), np.size(), ep.flavour.c_str(),
                            ep.trim, c.U64("topology.mtu", 4096, 256, 9000), err,
                            sizeof(err));
    if (!g_net) {
        std::cerr << "fabsim: [mrt]/[nscc] " << err << std::endl;
        exit(2);
    }
    g_port = sim_mrt_udp_port(g_net);
    /* the receiving application: its buffer and how fast it reads */
    g_rcvbuf = c.U64("receiver.rcvbuf_bytes", 32 << 20, 4096, 1ULL << 32);
    g_app_bps = c.U64("receiver.app_gbps", 0, 0, 1600) * 1000000000ULL;
}

static void Start(uint32_t id)
{
    Flow& f = g_flows[id];
    MrtHost& h = g_hosts[f.src];
    MrtSender& m = g_msnd[id];
    auto key = std::make_pair(f.src, f.dst);
    auto d = g_dests.find(key);
    uint64_t now = NowNs();

    if (d == g_dests.end()) {
        /* the traced flow's core is its destination's, from its start */
        bool traced = g_trace.flow >= 0 && g_flows[g_trace.flow].src == f.src &&
                      g_flows[g_trace.flow].dst == f.dst;

        d = g_dests
                .emplace(key, sim_mrt_dest_new(g_net, id * 2654435761U + 1, now,
                                               traced ? g_trace.trace : nullptr,
                                               traced ? g_trace.rows : nullptr))
                .first;
    }
    m.flow = id;
    m.host = f.src;
    m.e = {f.src, g_topo.addr[f.dst]};
    if (h.next_lid == 0) {
        std::cerr << "fabsim: host " << f.src << ": more than 65535 mrt PDCs" << std::endl;
        exit(2);
    }
    m.s = sim_mrt_snd_new(g_net, d->second, h.next_lid, 1, 1,
                          (uint32_t)(id * 2246822519U + 12345), f.bytes, EmitPacket, &m.e, Arm,
                          &m);
    h.snds[h.next_lid++] = &m;
    sim_mrt_snd_push(m.s, now);
}

/* The host's link finished serializing p: a DATA packet's departure, from
 * which its RTT sample and timer run (pdc.c stamps a packet as it leaves
 * the host; the engine's push stamps it when it is built).
 */
static void TxEnd(uint32_t host, Ptr<const Packet> p)
{
    uint8_t b[2 + 60 + 8 + SIM_MRT_DATA_HDR_LEN];
    uint32_t n = p->CopyData(b, sizeof(b)), ip, psn;
    uint16_t lid;

    /* PPP (2 bytes), IPv4 (its IHL), UDP (8) to our port */
    if (n < 2 + 20 + 8 || (b[2] >> 4) != 4)
        return;
    ip = (b[2] & 15) * 4;
    if (n < 2 + ip + 8 || ((b[2 + ip + 2] << 8) | b[2 + ip + 3]) != g_port ||
        sim_mrt_data_ids(b + 2 + ip + 8, n - 2 - ip - 8, &lid, &psn))
        return;
    auto it = g_hosts[host].snds.find(lid);
    if (it != g_hosts[host].snds.end())
        sim_mrt_snd_departed(it->second->s, psn, NowNs());
}

void StartMrtFlows(const Scenario& c, const Endpoint& ep)
{
    /* a trim must leave the receiver mrt's header to NACK: IPv4 (20), UDP
     * (8) and the DATA header
     */
    if (c.U64("switch.trim_at", 0, 0, 1 << 30) &&
        c.U64("switch.trim_size", 128, 64, 65535) < 28 + SIM_MRT_DATA_HDR_LEN)
        c.Fail("switch.trim_size", "below " + std::to_string(28 + SIM_MRT_DATA_HDR_LEN) +
                                       ": a trimmed mrt packet keeps IPv4, UDP and mrt's "
                                       "DATA header, or no trim can be NACKed");
    g_hosts.resize(g_topo.hosts);
    for (uint32_t i = 0; i < g_topo.hosts; i++) {
        Ptr<Node> n = g_topo.host_nodes.Get(i);
        MrtHost& h = g_hosts[i];

        h.sock = sim_mrt_sock_new(g_rcvbuf, g_app_bps);
        h.udp = n->GetObject<UdpL4Protocol>();
        h.routing = n->GetObject<Ipv4>()->GetRoutingProtocol();
        h.rx = Socket::CreateSocket(n, UdpSocketFactory::GetTypeId());
        h.rx->SetIpRecvTos(true);
        if (h.rx->Bind(InetSocketAddress(Ipv4Address::GetAny(), g_port))) {
            std::cerr << "fabsim: mrt: cannot bind UDP port " << g_port << std::endl;
            exit(2);
        }
        h.rx->SetRecvCallback(MakeBoundCallback(&Recv, i));
        /* the host's link: its one point-to-point device */
        bool hooked = false;
        for (uint32_t k = 0; k < n->GetNDevices() && !hooked; k++)
            hooked = n->GetDevice(k)->TraceConnectWithoutContext(
                "PhyTxEnd", MakeBoundCallback(&TxEnd, i));
        if (!hooked) {
            std::cerr << "fabsim: mrt: host " << i << " has no link to stamp departures on"
                      << std::endl;
            exit(2);
        }
    }
    g_msnd.resize(g_flows.size());
    for (auto& f : g_flows) {
        if (f.bytes > 0xffffffffULL) {
            std::cerr << "fabsim: flow " << f.id << ": " << f.bytes
                      << " bytes: an mrt message is at most 2^32 - 1" << std::endl;
            exit(2);
        }
        f.ev_bytes.assign(sim_mrt_ev_count(g_net), 0);
        Simulator::Schedule(NanoSeconds(f.start_ns), &Start, f.id);
    }
}

/* The receivers' counters, summed over the hosts. */
uint64_t g_pen_acks, g_no_resource, g_rcvbuf_peak;

/* The senders' counters into the flows. */
void FinishMrtFlows()
{
    for (auto& h : g_hosts) {
        struct sim_mrt_sock_stats st;

        sim_mrt_sock_stats(h.sock, &st);
        g_pen_acks += st.pen_acks;
        g_no_resource += st.no_resource;
        g_rcvbuf_peak = std::max(g_rcvbuf_peak, st.peak);
    }
    for (auto& m : g_msnd) {
        struct sim_mrt_snd_stats st;
        Flow& f = g_flows[m.flow];

        if (!m.s)
            continue;
        sim_mrt_snd_stats(m.s, &st);
        f.rtos = st.rto_events;
        f.retx = st.retx;
        f.trims = st.trims;
        f.qa = st.qa;
        f.failed = sim_mrt_snd_failed(m.s);
        for (unsigned int i = 0; i < f.ev_bytes.size(); i++)
            f.ev_bytes[i] = sim_mrt_snd_ev_bytes(m.s, i);
    }
}

} // namespace fabsim
