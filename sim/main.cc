// SPDX-License-Identifier: GPL-2.0
/*
 * fabsim: one scenario, one endpoint kind, one run.
 *
 *   fabsim SCENARIO --endpoint NAME --out DIR [--set SECTION.KEY=VALUE ...]
 *          [--trace-flow N]
 *
 * Writes DIR/flows.csv, DIR/ports.csv, DIR/queue.csv (watched ports),
 * DIR/ev.csv (mrt), DIR/summary.json, and with --trace-flow the flow's
 * core trace (DIR/core.trace, ccreplay's input; for mrt its destination's
 * core, which the flows between the same two hosts share) and the rows
 * its core went through (DIR/core.rows, ccreplay's output).
 * Documentation/simulation.rst.
 */
#include <chrono>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sys/resource.h>
#include <sys/stat.h>

#include "fabsim.h"

using namespace ns3;

namespace fabsim
{
void SetIdeal(const Scenario& c, uint32_t hdr);
uint32_t MrtHeaderBytes();
void SetupMrt(const Scenario& c, const Endpoint& ep);
void StartMrtFlows(const Scenario& c, const Endpoint& ep);
void FinishMrtFlows();
extern uint64_t g_pen_acks, g_no_resource, g_rcvbuf_peak;
} // namespace fabsim

using namespace fabsim;

static void Usage(int rc)
{
    (rc ? std::cerr : std::cout)
        << "usage: fabsim SCENARIO --endpoint NAME --out DIR [--set SECTION.KEY=VALUE ...]\n"
           "              [--trace-flow N]\n"
           "endpoints: tcp-nscc, tcp-nscc-mrc, tcp-dcqcn, tcp-swift, tcp-dctcp, tcp-cubic,\n"
           "           tcp-newreno, mrt-nscc, mrt-nscc-trim, mrt-nscc-mrc, mrt-nscc-mrc-trim\n"
           "Documentation/simulation.rst describes the scenario file and the outputs.\n";
    exit(rc);
}

static uint64_t g_stop_ns;

static void CheckDone()
{
    bool all = true;

    for (auto& f : g_flows)
        if (!f.done_ns) {
            all = false;
            break;
        }
    if (all || NowNs() >= g_stop_ns)
        Simulator::Stop();
    else
        Simulator::Schedule(MicroSeconds(5), &CheckDone);
}

static double Pct(std::vector<double> v, double p)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    size_t i = std::min(v.size() - 1, (size_t)(p * v.size()));
    return v[i];
}

int main(int argc, char** argv)
{
    /* before any Time exists: 1 ns would round an 82.76 ns frame */
    Time::SetResolution(Time::PS);

    std::string scenario, endpoint, out;
    std::vector<std::string> sets;
    int trace_flow = -1;

    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        auto next = [&]() -> std::string {
            if (i + 1 >= argc)
                Usage(2);
            return argv[++i];
        };
        if (a == "--endpoint")
            endpoint = next();
        else if (a == "--out")
            out = next();
        else if (a == "--set")
            sets.push_back(next());
        else if (a == "--trace-flow")
            trace_flow = std::stoi(next());
        else if (a == "-h" || a == "--help")
            Usage(0);
        else if (a[0] != '-' && scenario.empty())
            scenario = a;
        else
            Usage(2);
    }
    if (scenario.empty() || endpoint.empty() || out.empty())
        Usage(2);

    fabsim::Scenario c;
    c.Load(scenario);
    for (auto& s : sets)
        c.Set(s);
    Endpoint ep = ParseEndpoint(endpoint);
    mkdir(out.c_str(), 0755);

    /* the event queue: the map (a red-black tree) measured fastest over
     * mrt's spraying, where the calendar queue spent 15 % of a run
     * scanning; the calendar queue is 5 % faster on TCP runs
     */
    std::string sk = c.Str("run.scheduler", "map");
    ObjectFactory sched;
    if (sk != "heap" && sk != "calendar" && sk != "map")
        c.Fail("run.scheduler", "heap, calendar or map");
    sched.SetTypeId(sk == "heap" ? "ns3::HeapScheduler" :
                    sk == "map" ? "ns3::MapScheduler" : "ns3::CalendarScheduler");
    Simulator::SetScheduler(sched);
    RngSeedManager::SetSeed(c.U64("run.seed", 1, 1, UINT32_MAX));

    auto wall0 = std::chrono::steady_clock::now();
    /* the defaults first: the stack's objects take them when created */
    if (ep.tcp)
        SetupTcp(c, ep);
    else
        SetupMrt(c, ep);
    BuildTopology(c);
    MakeFlows(c);
    if (trace_flow >= (int)g_flows.size()) {
        std::cerr << "fabsim: --trace-flow " << trace_flow << ": there are " << g_flows.size()
                  << " flows" << std::endl;
        return 2;
    }
    if (trace_flow >= 0) {
        g_trace.flow = trace_flow;
        g_trace.trace = fopen((out + "/core.trace").c_str(), "w");
        g_trace.rows = fopen((out + "/core.rows").c_str(), "w");
    }
    if (ep.tcp) {
        SetIdeal(c, ep.hdr_bytes);
        StartTcpFlows(c, ep);
    } else {
        ep.hdr_bytes = MrtHeaderBytes();
        SetIdeal(c, ep.hdr_bytes);
        StartMrtFlows(c, ep);
    }
    /* the fail section: a leaf-spine link, when, and rerouting's delay */
    if (c.Has("fail.leaf") || c.Has("fail.spine")) {
        uint32_t l = c.U64("fail.leaf", 0, 0, g_topo.leaves - 1);
        uint32_t s = c.U64("fail.spine", 0, 0, g_topo.spines ? g_topo.spines - 1 : 0);

        if (!g_topo.spines)
            c.Fail("fail.spine", "a star has no spine links");
        ScheduleLinkFailure(l, s, c.U64("fail.at_ns", 0), c.U64("fail.reroute_ns", 0));
    }
    g_stop_ns = c.U64("run.stop_us", 1000000, 1) * 1000;
    /* what make sim runs this scenario with (scripts/sim) */
    for (auto& e : c.List("run.endpoints"))
        ParseEndpoint(e);
    /* the sections of the other endpoint kinds, checked by their runs */
    for (const char* sec : {"tcp", "mrt", "receiver", "nscc", "dcqcn", "swift"})
        if (!(ep.tcp ? std::string(sec) == "tcp" || sec == ep.cc
                     : std::string(sec) == "mrt" || std::string(sec) == "receiver" ||
                           std::string(sec) == "nscc"))
            c.Touch(sec);
    c.CheckAllUsed();
    Simulator::Schedule(MicroSeconds(5), &CheckDone);
    auto wall1 = std::chrono::steady_clock::now();
    Simulator::Run();
    auto wall2 = std::chrono::steady_clock::now();
    uint64_t events = Simulator::GetEventCount();
    if (!ep.tcp)
        FinishMrtFlows();
    uint64_t end_ns = NowNs();
    for (auto& q : g_topo.qdiscs)
        q->Final();
    g_topo.qdiscs.clear();
    Simulator::Destroy();
    if (g_trace.trace) {
        fclose(g_trace.trace);
        fclose(g_trace.rows);
    }

    /* flows */
    std::ofstream fc(out + "/flows.csv");
    std::vector<double> fct, slow;
    uint64_t incomplete = 0, rtos = 0, qa = 0, trims = 0, retx = 0, over = 0, dup = 0;
    uint64_t last = 0, first_start = UINT64_MAX, total = 0, gap = 0, failed = 0;
    fc << "id,src,dst,bytes,start_ns,fct_ns,ideal_ns,slowdown,rcvd,rtos,retx,trims,qa,max_gap_ns,"
          "failed\n";
    for (auto& f : g_flows) {
        uint64_t t = f.done_ns ? f.done_ns - f.start_ns : 0;
        double sd = f.done_ns ? (double)t / f.ideal_ns : 0;

        fc << f.id << "," << f.src << "," << f.dst << "," << f.bytes << "," << f.start_ns << ","
           << t << "," << f.ideal_ns << "," << std::fixed << std::setprecision(3) << sd << ","
           << f.rcvd << "," << f.rtos << "," << f.retx << "," << f.trims << "," << f.qa << ","
           << f.max_gap_ns << "," << f.failed << "\n";
        if (f.done_ns) {
            fct.push_back(t);
            slow.push_back(sd);
            last = std::max(last, f.done_ns);
        } else {
            incomplete++;
        }
        first_start = std::min(first_start, f.start_ns);
        total += f.bytes;
        rtos += f.rtos;
        qa += f.qa;
        trims += f.trims;
        retx += f.retx;
        over += f.rcvd > f.bytes;
        dup += f.dup_deliveries;
        gap = std::max(gap, f.max_gap_ns);
        failed += f.failed != 0;
    }

    /* per-EV bytes (mrt): flow, EV index, payload bytes sent on it */
    if (!ep.tcp) {
        std::ofstream ec(out + "/ev.csv");
        ec << "flow,ev,bytes\n";
        for (auto& f : g_flows)
            for (unsigned int i = 0; i < f.ev_bytes.size(); i++)
                ec << f.id << "," << i << "," << f.ev_bytes[i] << "\n";
    }

    /* ports: every arrival is sent, dropped or still queued */
    std::ofstream pc(out + "/ports.csv");
    std::ofstream qc(out + "/queue.csv");
    uint64_t peak = 0, drops = 0, ptrims = 0, marks = 0, hops = 0, imbalance = 0;
    std::string peak_port;
    pc << "port,pkts,bytes,peak_bytes,p99_bytes,marked,trimmed,trim_dropped,dropped\n";
    qc << "port,t_ns,backlog_bytes\n";
    for (auto& p : g_topo.ports) {
        uint64_t p99 = p.Percentile(0.99);

        if (p.samples)
            pc << p.name << "," << p.pkts << "," << p.bytes << "," << p.peak << "," << p99 << ","
               << p.marked << "," << p.trimmed << "," << p.trim_dropped << "," << p.dropped
               << "\n";
        for (auto& [t, b] : p.series)
            qc << p.name << "," << t << "," << b << "\n";
        /* hosts' NICs are not switch ports */
        if (p.name.compare(0, 4, "host") != 0) {
            if (p.peak > peak) {
                peak = p.peak;
                peak_port = p.name;
            }
            drops += p.dropped + p.trim_dropped;
            ptrims += p.trimmed;
            marks += p.marked;
        }
        hops += p.pkts;
        imbalance += p.samples != p.pkts + p.dropped + p.trim_dropped + p.queued;
    }

    /* the incast's (or any one receiver's) ideal: all its bytes at its
     * link's rate after the first flow starts
     */
    double wall = std::chrono::duration<double>(wall2 - wall1).count();
    double setup = std::chrono::duration<double>(wall1 - wall0).count();
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    std::ofstream js(out + "/summary.json");
    js << std::fixed << std::setprecision(3);
    js << "{\n"
       << "  \"scenario\": \"" << scenario << "\",\n"
       << "  \"endpoint\": \"" << endpoint << "\",\n"
       << "  \"hosts\": " << g_topo.hosts << ",\n"
       << "  \"flows\": " << g_flows.size() << ",\n"
       << "  \"incomplete\": " << incomplete << ",\n"
       << "  \"failed\": " << failed << ",\n"
       << "  \"bytes\": " << total << ",\n"
       << "  \"over_delivered_flows\": " << over << ",\n"
       << "  \"duplicate_bytes\": " << dup << ",\n"
       << "  \"fct_p50_us\": " << Pct(fct, 0.5) / 1000 << ",\n"
       << "  \"fct_p99_us\": " << Pct(fct, 0.99) / 1000 << ",\n"
       << "  \"fct_max_us\": " << Pct(fct, 1.0) / 1000 << ",\n"
       << "  \"slowdown_p50\": " << Pct(slow, 0.5) << ",\n"
       << "  \"slowdown_p99\": " << Pct(slow, 0.99) << ",\n"
       << "  \"slowdown_max\": " << Pct(slow, 1.0) << ",\n"
       << "  \"last_done_us\": " << (last ? (last - first_start) / 1000.0 : 0) << ",\n"
       << "  \"ideal_last_us\": " << g_ideal_last_ns / 1000.0 << ",\n"
       << "  \"max_gap_us\": " << gap / 1000.0 << ",\n"
       << "  \"peak_queue_bytes\": " << peak << ",\n"
       << "  \"peak_queue_port\": \"" << peak_port << "\",\n"
       << "  \"drops\": " << drops << ",\n"
       << "  \"link_failure_drops\": " << g_failure_drops << ",\n"
       << "  \"trims\": " << ptrims << ",\n"
       << "  \"ecn_marks\": " << marks << ",\n"
       << "  \"rtos\": " << rtos << ",\n"
       << "  \"retransmits\": " << retx << ",\n"
       << "  \"trim_nacks\": " << trims << ",\n"
       << "  \"quick_adapts\": " << qa << ",\n"
       << "  \"penalty_acks\": " << g_pen_acks << ",\n"
       << "  \"no_resource_nacks\": " << g_no_resource << ",\n"
       << "  \"rcvbuf_peak_bytes\": " << g_rcvbuf_peak << ",\n"
       << "  \"port_imbalance\": " << imbalance << ",\n"
       << "  \"sim_end_us\": " << end_ns / 1000.0 << ",\n"
       << "  \"packet_hops\": " << hops << ",\n"
       << "  \"events\": " << events << ",\n"
       << "  \"setup_s\": " << setup << ",\n"
       << "  \"wall_s\": " << wall << ",\n"
       << "  \"events_per_s\": " << (wall > 0 ? events / wall : 0) << ",\n"
       << "  \"wall_us_per_hop\": " << (hops ? wall * 1e6 / hops : 0) << ",\n"
       << "  \"max_rss_mb\": " << ru.ru_maxrss / 1024.0 << "\n"
       << "}\n";
    std::cout << endpoint << ": " << g_flows.size() - incomplete << "/" << g_flows.size()
              << " flows, last done " << (last ? (last - first_start) / 1000.0 : 0)
              << " us, p99 fct " << Pct(fct, 0.99) / 1000 << " us, peak queue " << peak
              << " B, drops " << drops << ", trims " << ptrims << ", rtos " << rtos << ", "
              << wall << " s wall" << std::endl;
    return 0;
}
