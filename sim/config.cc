// SPDX-License-Identifier: GPL-2.0
/*
 * fabsim: the scenario file, the workloads and the endpoint names.
 */
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>

#include "fabsim.h"

namespace fabsim
{

std::vector<Flow> g_flows;

static std::string Trim(const std::string& s)
{
    size_t a = s.find_first_not_of(" \t\r");
    size_t b = s.find_last_not_of(" \t\r");

    return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

void Scenario::Load(const std::string& file)
{
    std::ifstream in(file);
    std::string l, section;
    int n = 0;

    path = file;
    if (!in) {
        std::cerr << "fabsim: " << file << ": cannot open" << std::endl;
        exit(2);
    }
    while (std::getline(in, l)) {
        n++;
        l = Trim(l.substr(0, l.find('#')));
        if (l.empty())
            continue;
        if (l.front() == '[') {
            if (l.back() != ']') {
                std::cerr << "fabsim: " << file << ":" << n
                          << ": expected [section]" << std::endl;
                exit(2);
            }
            section = Trim(l.substr(1, l.size() - 2));
            continue;
        }
        size_t eq = l.find('=');
        if (eq == std::string::npos || section.empty()) {
            std::cerr << "fabsim: " << file << ":" << n
                      << ": expected key = value in a [section]" << std::endl;
            exit(2);
        }
        std::string k = section + "." + Trim(l.substr(0, eq));
        kv[k] = Trim(l.substr(eq + 1));
        line[k] = n;
    }
}

void Scenario::Set(const std::string& a)
{
    size_t eq = a.find('=');
    size_t dot = a.find('.');

    if (eq == std::string::npos || dot == std::string::npos || dot > eq) {
        std::cerr << "fabsim: --set " << a << ": expected section.key=value"
                  << std::endl;
        exit(2);
    }
    kv[Trim(a.substr(0, eq))] = Trim(a.substr(eq + 1));
    line[Trim(a.substr(0, eq))] = 0;
}

bool Scenario::Has(const std::string& key) const
{
    return kv.count(key);
}

void Scenario::Fail(const std::string& key, const std::string& why) const
{
    auto it = line.find(key);

    std::cerr << "fabsim: " << path;
    if (it != line.end() && it->second)
        std::cerr << ":" << it->second;
    else if (it != line.end())
        std::cerr << " (--set)";
    std::cerr << ": " << key << ": " << why << std::endl;
    exit(2);
}

std::string Scenario::Str(const std::string& key, const std::string& def) const
{
    auto it = kv.find(key);

    used[key] = true;
    return it == kv.end() ? def : it->second;
}

uint64_t Scenario::U64(const std::string& key, uint64_t def, uint64_t lo,
                     uint64_t hi) const
{
    auto it = kv.find(key);
    uint64_t v;
    char* end;

    used[key] = true;
    if (it == kv.end())
        return def;
    errno = 0;
    v = strtoull(it->second.c_str(), &end, 0);
    if (it->second.empty() || *end || errno || it->second[0] == '-')
        Fail(key, "'" + it->second + "' is not a number");
    if (v < lo || v > hi)
        Fail(key, std::to_string(v) + " is outside " + std::to_string(lo) +
                      ".." + std::to_string(hi));
    return v;
}

std::vector<std::string> Scenario::List(const std::string& key) const
{
    std::istringstream s(Str(key, ""));
    std::vector<std::string> v;
    std::string w;

    while (s >> w)
        v.push_back(w);
    return v;
}

std::vector<std::string> Scenario::Keys(const std::string& section) const
{
    std::vector<std::string> v;

    for (auto& [k, val] : kv)
        if (k.compare(0, section.size() + 1, section + ".") == 0)
            v.push_back(k);
    return v;
}

void Scenario::Touch(const std::string& section) const
{
    for (auto& k : Keys(section))
        used[k] = true;
}

void Scenario::CheckAllUsed() const
{
    for (auto& [k, v] : kv)
        if (!used.count(k))
            Fail(k, "no such key");
}

std::vector<std::string> CoreSets(const Scenario& c, const std::string& algo)
{
    std::vector<std::string> sets;

    for (auto& k : c.Keys(algo))
        sets.push_back(k.substr(algo.size() + 1) + "=" + c.Str(k, ""));
    return sets;
}

Endpoint ParseEndpoint(const std::string& name)
{
    Endpoint e;

    e.name = name;
    if (name.compare(0, 4, "tcp-") == 0) {
        e.cc = name.substr(4);
        e.flavour = "uet";
        if (e.cc == "nscc-mrc") {
            e.cc = "nscc";
            e.flavour = "mrc";
        }
        static const char* known[] = {"nscc", "dcqcn", "swift", "dctcp", "cubic",
                                      "newreno"};
        if (std::find(std::begin(known), std::end(known), e.cc) == std::end(known)) {
            std::cerr << "fabsim: endpoint " << name
                      << ": tcp-nscc, tcp-nscc-mrc, tcp-dcqcn, tcp-swift, tcp-dctcp, "
                         "tcp-cubic or tcp-newreno"
                      << std::endl;
            exit(2);
        }
        e.hdr_bytes = 20 + 20;
        return e;
    }
    if (name == "mrt-nscc" || name == "mrt-nscc-trim" || name == "mrt-nscc-mrc" ||
        name == "mrt-nscc-mrc-trim") {
        e.tcp = false;
        e.cc = "nscc";
        e.flavour = name.find("mrc") != std::string::npos ? "mrc" : "uet";
        e.trim = name.size() > 5 && name.compare(name.size() - 5, 5, "-trim") == 0;
        return e;
    }
    std::cerr << "fabsim: endpoint " << name
              << ": tcp-<cc> or mrt-nscc, mrt-nscc-trim, mrt-nscc-mrc, mrt-nscc-mrc-trim"
              << std::endl;
    exit(2);
}

/* A flow alone on its path: the last payload byte arrives after the
 * wire bytes of every packet at the path's slowest rate, plus one
 * packet's serialisation on each further hop and the propagation.
 */
static uint64_t Ideal(const Scenario& c, uint32_t src, uint32_t dst, uint64_t bytes,
                      uint32_t hdr)
{
    const Topology& t = g_topo;
    uint64_t pkts = (bytes + t.mtu - 1) / t.mtu;
    uint64_t wire = bytes + pkts * (hdr + 2);
    uint64_t bps = t.PathBps(src, dst);
    uint32_t hops = t.LeafOf(src) == t.LeafOf(dst) ? 2 : t.hops;
    uint64_t first = std::min<uint64_t>(bytes, t.mtu) + hdr + 2;
    uint64_t ps = TxPs(wire, bps) + (hops - 1) * TxPs(first, bps) + hops * t.link_delay_ps;

    return ps / 1000;
}

void MakeFlows(const Scenario& c)
{
    std::string kind = c.Str("workload.kind", "incast");
    uint64_t bytes = c.U64("workload.bytes", 1 << 20, 1, 1ULL << 40);
    uint64_t start = c.U64("workload.start_ns", 0);
    uint32_t seed = c.U64("workload.seed", 1, 0, UINT32_MAX);
    uint32_t h = g_topo.hosts;
    std::mt19937 rng(seed);
    Flow f;

    auto add = [&](uint32_t s, uint32_t d, uint64_t b, uint64_t t) {
        f.id = g_flows.size();
        f.src = s;
        f.dst = d;
        f.bytes = b;
        f.start_ns = t;
        g_flows.push_back(f);
    };
    if (kind == "incast") {
        uint32_t n = c.U64("workload.senders", 8, 1, h - 1);
        uint32_t r = c.U64("workload.receiver", 0, 0, h - 1);
        /* the senders spread over the leaves: host r+1, r+1+stride, ... */
        uint32_t stride = c.U64("workload.stride", 1, 1, h - 1);
        std::vector<bool> taken(h);

        taken[r] = true;
        for (uint32_t i = 0, s = r; i < n; i++) {
            uint32_t steps = 0;

            do
                s = (s + stride) % h;
            while (taken[s] && ++steps < h);
            if (taken[s])
                c.Fail("workload.stride", "does not reach enough distinct senders "
                                          "(make it coprime with the host count)");
            taken[s] = true;
            add(s, r, bytes, start);
        }
    } else if (kind == "permutation") {
        /* a random derangement: every host sends to one and receives
         * from one, never itself
         */
        std::vector<uint32_t> p(h);
        bool ok;

        do {
            for (uint32_t i = 0; i < h; i++)
                p[i] = i;
            std::shuffle(p.begin(), p.end(), rng);
            ok = true;
            for (uint32_t i = 0; i < h && ok; i++)
                ok = p[i] != i;
        } while (!ok);
        for (uint32_t i = 0; i < h; i++)
            add(i, p[i], bytes, start);
    } else if (kind == "alltoall") {
        for (uint32_t i = 0; i < h; i++)
            for (uint32_t j = 0; j < h; j++)
                if (i != j)
                    add(i, j, bytes, start);
    } else if (kind == "trace") {
        std::string file = c.Str("workload.file", "");
        std::string dir = c.path.substr(0, c.path.find_last_of('/') + 1);
        std::ifstream in(file.empty() || file[0] == '/' ? file : dir + file);
        std::string l;
        int n = 0;

        if (!in)
            c.Fail("workload.file", "cannot open '" + file + "'");
        while (std::getline(in, l)) {
            std::istringstream s(l.substr(0, l.find('#')));
            uint64_t t, src, dst, b;

            n++;
            if (Trim(l.substr(0, l.find('#'))).empty())
                continue;
            if (!(s >> t >> src >> dst >> b) || src >= h || dst >= h || src == dst ||
                !b) {
                std::cerr << "fabsim: " << file << ":" << n
                          << ": expected TIME_NS SRC DST BYTES, hosts below " << h
                          << ", SRC != DST, BYTES > 0" << std::endl;
                exit(2);
            }
            add(src, dst, b, t);
        }
        if (g_flows.empty())
            c.Fail("workload.file", "no flows");
    } else {
        c.Fail("workload.kind", "incast, permutation, alltoall or trace");
    }
}

void SetIdeal(const Scenario& c, uint32_t hdr);
uint64_t g_ideal_last_ns;

/* Each flow's ideal alone; and the whole workload's at line rate: no
 * host can send or receive its wire bytes faster than its link, nor the
 * last byte arrive before the longest path's latency (a lower bound; the
 * incast's is exact: its receiver's link).
 */
void SetIdeal(const Scenario& c, uint32_t hdr)
{
    const Topology& t = g_topo;
    std::vector<uint64_t> in(t.hosts), out(t.hosts);
    uint64_t lat = 0, bps = t.port_bps ? std::min(t.link_bps, t.port_bps) : t.link_bps;

    for (auto& f : g_flows) {
        uint64_t pkts = (f.bytes + t.mtu - 1) / t.mtu;
        uint64_t wire = f.bytes + pkts * (hdr + 2);
        uint32_t hops = t.LeafOf(f.src) == t.LeafOf(f.dst) ? 2 : t.hops;

        f.ideal_ns = Ideal(c, f.src, f.dst, f.bytes, hdr);
        in[f.dst] += wire;
        out[f.src] += wire;
        /* after the busiest link, a last packet still crosses the rest */
        lat = std::max<uint64_t>(lat, hops * t.link_delay_ps +
                                          (hops - 1) * TxPs(std::min<uint64_t>(f.bytes, t.mtu) +
                                                                hdr + 2,
                                                            t.link_bps));
    }
    uint64_t most = 0;
    for (uint32_t h = 0; h < t.hosts; h++)
        most = std::max({most, in[h], out[h]});
    g_ideal_last_ns = (TxPs(most, bps) + lat) / 1000;
}

void Delivered(uint32_t id, uint64_t bytes)
{
    Flow& f = g_flows[id];
    uint64_t now = NowNs();

    f.max_gap_ns = std::max(f.max_gap_ns, now - (f.last_rx_ns ? f.last_rx_ns : f.start_ns));
    f.last_rx_ns = now;
    f.rcvd += bytes;
    if (f.rcvd >= f.bytes && !f.done_ns)
        f.done_ns = now;
}

uint64_t NowNs()
{
    return ns3::Simulator::Now().GetPicoSeconds() / 1000;
}

} // namespace fabsim
