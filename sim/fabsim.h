/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fabsim: the fabric-scale simulator (Documentation/simulation.rst).
 * ns-3 3.37 runs the network; the endpoints run the kernel's pure cores
 * through sim/cores.h.  This header holds what the parts share: the
 * scenario's configuration, the flows, the counters, and the classes of
 * the network model.
 */
#ifndef FABSIM_H
#define FABSIM_H

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/traffic-control-module.h"

namespace fabsim
{

/* A scenario file: "[section]" lines and "key = value" lines, '#'
 * comments.  Every key is checked against the known ones; a value is
 * checked when it is read.
 */
struct Scenario
{
    std::string path;
    /* section.key -> value, and the line it came from */
    std::map<std::string, std::string> kv;
    std::map<std::string, int> line;
    /* section.key of every value read, to refuse unknown keys */
    mutable std::map<std::string, bool> used;

    void Load(const std::string& file);
    /* "name=value" overrides from the command line (section.key=value) */
    void Set(const std::string& assignment);
    bool Has(const std::string& key) const;
    std::string Str(const std::string& key, const std::string& def) const;
    uint64_t U64(const std::string& key, uint64_t def, uint64_t lo = 0,
                 uint64_t hi = UINT64_MAX) const;
    std::vector<std::string> List(const std::string& key) const;
    /* Every key of a section (for the attribute lists of the cores). */
    std::vector<std::string> Keys(const std::string& section) const;
    /* A section another endpoint kind reads: its keys are that run's to
     * check.
     */
    void Touch(const std::string& section) const;
    /* Exits naming the first key that nothing read. */
    void CheckAllUsed() const;
    [[noreturn]] void Fail(const std::string& key, const std::string& why) const;
};

/* sch_fabric's options, tc's names, in bytes, percent and bits/s. */
struct PortConfig
{
    uint64_t rate = 0;      /* bits/s; 0: the link's rate */
    uint32_t limit = 1 << 20;
    uint32_t ecn_min = 0;
    uint32_t ecn_max = 0;   /* 0: no marking */
    uint32_t ecn_prob = 100;
    uint32_t trim_at = 0;   /* 0: no trimming */
    uint32_t trim_size = 128;
    uint32_t trim_dscp = 0;
    uint64_t trim_dscp_mask = 0;
    uint32_t trim_limit = 256 << 10;
};

/* One egress port's counters and its backlog as arrivals saw it. */
struct PortStats
{
    std::string name;
    uint64_t pkts = 0, bytes = 0;
    uint64_t marked = 0, trimmed = 0, trim_dropped = 0, dropped = 0;
    uint64_t peak = 0;              /* bytes, data and header queues */
    uint64_t queued = 0;            /* packets left in the queues at the end */
    /* log-linear histogram of the backlog each arrival found, bytes:
     * 8 buckets per power of two, as sch_fabric's fine delay histogram
     */
    std::vector<uint64_t> hist;
    uint64_t samples = 0;
    /* (time ns, backlog bytes), for a watched port */
    bool watch = false;
    std::vector<std::pair<uint64_t, uint32_t>> series;
    uint64_t last_sample = 0;

    void Arrival(uint64_t now, uint64_t backlog, uint64_t sample_ns);
    uint64_t Percentile(double p) const;
};

/* sch_fabric as an ns-3 queue disc: rate, a data queue of limit bytes,
 * ECN marking on its instantaneous backlog, trimming of trimmable UDP
 * datagrams into a strict-priority header queue, which headers trimmed
 * upstream join too.  Host NICs use the
 * same class in host mode: packets of at most ctl_bytes (ACKs, NACKs,
 * trimmed headers) go ahead of data, and nothing is marked or trimmed.
 */
class FabricQueueDisc : public ns3::QueueDisc
{
  public:
    static ns3::TypeId GetTypeId();
    FabricQueueDisc();
    void Setup(const PortConfig& cfg, PortStats* st, bool host, uint64_t sample_ns);
    /* At the end: what is still queued, by the queues' own count. */
    void Final();

  private:
    bool DoEnqueue(ns3::Ptr<ns3::QueueDiscItem> item) override;
    ns3::Ptr<ns3::QueueDiscItem> DoDequeue() override;
    ns3::Ptr<const ns3::QueueDiscItem> DoPeek() override;
    bool CheckConfig() override;
    void InitializeParams() override;
    bool ShouldMark();
    ns3::Ptr<ns3::QueueDiscItem> Trim(ns3::Ptr<ns3::QueueDiscItem> item);
    bool TrimmedHeader(ns3::Ptr<ns3::QueueDiscItem> item);

    PortConfig m_cfg;
    PortStats* m_st = nullptr;
    bool m_host = false;
    uint64_t m_sample_ns = 0;
    uint32_t m_ctl_bytes = 160;
    uint64_t m_data_bytes = 0, m_hdr_bytes = 0;
    std::deque<ns3::Ptr<ns3::QueueDiscItem>> m_data, m_hdr;
    ns3::Time m_next;       /* rate: the next departure */
    ns3::EventId m_wake;
    ns3::Ptr<ns3::UniformRandomVariable> m_rand;
};

/* The topology: hosts 0..H-1, switches; host h's address is
 * HostAddress(h).  Routing is by arithmetic on the host index (O(1)), with
 * per-flow ECMP: a hash of the 5-tuple and the switch's seed picks the
 * uplink, so distinct UDP source ports (EVs) take distinct paths.
 */
/* 198.18.0.0: hosts' links, a /30 each */
static const uint32_t kHostBase = 0xc6120000;

struct Topology
{
    enum Kind { STAR, LEAFSPINE } kind = STAR;
    uint32_t hosts = 0, leaves = 1, per_leaf = 0, spines = 0;
    uint64_t link_bps = 400000000000ULL, uplink_bps = 400000000000ULL;
    uint64_t port_bps = 0;            /* switch.rate: every switch port's; 0: the link's */
    uint64_t base_rtt_ps = 6000000;   /* an empty path's RTT, small packets */
    uint64_t link_delay_ps = 0;       /* propagation per link */
    uint32_t mtu = 4096;              /* payload bytes per packet */
    uint32_t hops = 2;                /* links host to host */

    ns3::NodeContainer host_nodes, leaf_nodes, spine_nodes;
    /* ip interface index: at a leaf, of host h's downlink and of each
     * spine's uplink; at a spine, of each leaf's downlink
     */
    std::vector<uint32_t> leaf_down;                 /* [host] */
    std::vector<std::vector<uint32_t>> leaf_up;       /* [leaf][spine] */
    std::vector<std::vector<uint32_t>> spine_down;    /* [spine][leaf] */
    /* usable[leaf][spine]: leaf <-> spine link in the ECMP groups */
    std::vector<std::vector<bool>> usable;
    std::vector<ns3::Ipv4Address> addr;               /* [host] */
    std::deque<PortStats> ports;      /* stable: the queue discs point in */
    std::vector<ns3::Ptr<FabricQueueDisc>> qdiscs;
    /* the devices of each leaf-spine link [leaf][spine] (leaf's, spine's) */
    std::vector<std::vector<std::pair<ns3::Ptr<ns3::NetDevice>, ns3::Ptr<ns3::NetDevice>>>> updev;

    uint32_t LeafOf(uint32_t h) const { return kind == STAR ? 0 : h / per_leaf; }
    uint64_t PathBps(uint32_t src, uint32_t dst) const;
    int Host(ns3::Ipv4Address a) const;
};

extern Topology g_topo;

/* Routing for every node of the topology (see Topology). */
class FabricRouting : public ns3::Ipv4RoutingProtocol
{
  public:
    static ns3::TypeId GetTypeId();
    /* role: 0 host (its index in id), 1 leaf, 2 spine */
    void Setup(int role, uint32_t id, uint32_t seed);

    ns3::Ptr<ns3::Ipv4Route> RouteOutput(ns3::Ptr<ns3::Packet> p,
                                         const ns3::Ipv4Header& header,
                                         ns3::Ptr<ns3::NetDevice> oif,
                                         ns3::Socket::SocketErrno& sockerr) override;
    bool RouteInput(ns3::Ptr<const ns3::Packet> p,
                    const ns3::Ipv4Header& header,
                    ns3::Ptr<const ns3::NetDevice> idev,
                    UnicastForwardCallback ucb,
                    MulticastForwardCallback mcb,
                    LocalDeliverCallback lcb,
                    ErrorCallback ecb) override;
    void NotifyInterfaceUp(uint32_t) override {}
    void NotifyInterfaceDown(uint32_t) override {}
    void NotifyAddAddress(uint32_t, ns3::Ipv4InterfaceAddress) override {}
    void NotifyRemoveAddress(uint32_t, ns3::Ipv4InterfaceAddress) override {}
    void SetIpv4(ns3::Ptr<ns3::Ipv4> ipv4) override;
    void PrintRoutingTable(ns3::Ptr<ns3::OutputStreamWrapper> stream,
                           ns3::Time::Unit unit) const override;

  private:
    ns3::Ptr<ns3::Ipv4Route> Route(uint32_t iface, ns3::Ipv4Address dst);
    int Pick(ns3::Ptr<const ns3::Packet> p, const ns3::Ipv4Header& h);

    ns3::Ptr<ns3::Ipv4> m_ipv4;
    int m_role = 0;
    uint32_t m_id = 0, m_seed = 0;
    std::vector<ns3::Ptr<ns3::Ipv4Route>> m_routes;   /* [iface] */
};

/* Builds g_topo from [topology] and the switch and host ports. */
void BuildTopology(const Scenario& c);
/* The leaf-spine link leaf-spine fails (drops everything both ways) at
 * at_ns; rerouting takes it out of the ECMP groups reroute_ns later
 * (0: never).
 */
void ScheduleLinkFailure(uint32_t leaf, uint32_t spine, uint64_t at_ns,
                         uint64_t reroute_ns);
/* Packets the failed link lost. */
extern uint64_t g_failure_drops;

/* One transfer of the workload. */
struct Flow
{
    uint32_t id = 0, src = 0, dst = 0;
    uint64_t bytes = 0;
    uint64_t start_ns = 0;
    uint64_t done_ns = 0;        /* 0: not complete */
    uint64_t rcvd = 0;           /* bytes delivered to the application */
    uint64_t last_rx_ns = 0;     /* the latest delivery */
    uint64_t max_gap_ns = 0;     /* the longest wait for the next delivery */
    uint64_t dup_deliveries = 0; /* bytes delivered twice (must stay 0) */
    uint64_t rtos = 0, retx = 0, trims = 0, qa = 0;
    int failed = 0;              /* mrt: the PDC gave up (an errno) */
    uint64_t segs_out = 0;       /* TCP: data segments sent, again too */
    uint64_t ideal_ns = 0;       /* alone on the path at line rate */
    std::vector<uint64_t> ev_bytes;   /* mrt: per EV */
};

extern std::vector<Flow> g_flows;
/* The workload's completion at line rate (a lower bound). */
extern uint64_t g_ideal_last_ns;

/* bytes of flow id reached its application (in order for TCP; a whole
 * message for mrt).
 */
void Delivered(uint32_t id, uint64_t bytes);

/* Workloads: [workload] kind = incast | permutation | alltoall | trace. */
void MakeFlows(const Scenario& c);

/* The endpoint kinds, "tcp-<cc>" and "mrt-nscc[-trim]". */
struct Endpoint
{
    std::string name;
    bool tcp = true;
    std::string cc;          /* nscc, dcqcn, swift, dctcp, cubic, newreno */
    std::string flavour;     /* nscc: uet or mrc */
    bool trim = false;       /* mrt: trimmable DSCP */
    uint32_t hdr_bytes = 40; /* per packet on the wire above the payload */
};

Endpoint ParseEndpoint(const std::string& name);

/* TCP: the defaults for a fabric, the congestion controls, the flows. */
void SetupTcp(const Scenario& c, const Endpoint& ep);
void StartTcpFlows(const Scenario& c, const Endpoint& ep);

/* The core trace of one flow (ccreplay's format): the flow's id, -1 for
 * none, and the two files.
 */
struct TraceTarget
{
    int flow = -1;
    FILE* trace = nullptr;
    FILE* rows = nullptr;
};

extern TraceTarget g_trace;

/* The "sets" of a core from [nscc], [dcqcn], [swift]: name=value. */
std::vector<std::string> CoreSets(const Scenario& c, const std::string& algo);

uint64_t NowNs();

/* Picoseconds bytes take at bps (128-bit: 4 MiB x 8 x 10^12 overflows
 * 64 bits).
 */
static inline uint64_t TxPs(uint64_t bytes, uint64_t bps)
{
    return (uint64_t)((unsigned __int128)bytes * 8 * 1000000000000ULL / bps);
}

} // namespace fabsim

#endif /* FABSIM_H */
