// The fabric's gates and contention: a lone 512-B access lands exactly after the configured
// latency of its path class (not 1 ps earlier), a large one after its link's occupancy at the rate
// its parameters give plus that latency; a remote write completes for its core when the
// acknowledgement is back, fabric.write_response_ratio x the path's fixed latency after it lands;
// senders into one die share its ingress, one die sending to many shares its egress, and every
// remote byte is real.
#include <algorithm>
#include <cmath>
#include <fstream>

#include "api/kernel_operator.h"
#include "tests/harness.h"

using namespace AscendC;
using ascend::model::now;
using ascend::model::ns_to_ps;
using ascend::model::Tick;

namespace ascend::test {
namespace {

// The fixed part of a path's latency: the measured 512-B time less the model's own time for 512 B
// at the path's rate `gbps` (models/cost_model.cpp).
Tick fixed_latency(const Params& p, double latency_ns, bool write, double gbps) {
  model::Clock clock{p.real("core.clock_GHz")};
  double per_cycle = p.real(write ? "mte3.bytes_per_cycle" : "mte2.bytes_per_cycle");
  Tick engine = clock.cycles(static_cast<uint64_t>(p.integer("dma.setup_cycles")) +
                             static_cast<uint64_t>(std::ceil(512.0 / per_cycle - 1e-9)));
  Tick own = std::max({engine, model::transfer_ps(512, p.real("hbm.bandwidth_GBps")),
                       model::transfer_ps(512, gbps)});
  return ns_to_ps(latency_ns) - own;
}

// How long after a remote write lands it completes: the acknowledgement's trip back and the
// completion work.
Tick response(const Params& p, Tick fixed, bool write) {
  return write ? static_cast<Tick>(std::llround(static_cast<double>(fixed) *
                                                p.real("fabric.write_response_ratio"))) +
                     ns_to_ps(p.real("fabric.write_completion_ns"))
               : 0;
}

// A lone 512-B access of die 0 to die `dst` over a path of rate `gbps`: its bytes land exactly
// `want_ns` after the DMA is issued (not 1 ps before), and it completes for the core then (a read)
// or when the write's acknowledgement is back.
void expect_lone_512(const std::vector<std::string>& sets, int dst, bool write, double want_ns,
                     const char* cls, double gbps) {
  nlohmann::json j = in_child([&] {
    Bench b(sets, 32);
    const int n = 512;
    uint64_t remote = b.sim().window(dst);
    uint64_t local = b.alloc(n, 0);
    std::vector<uint8_t> v(n, 0x5A);
    b.sim().write(write ? local : remote, v.data(), n);
    model::Core& core0 = *b.cluster().die(0).cores[0];
    Tick start = 0, done = 0;
    int early = -1, on_time = -1;
    // The completion time is known only once the DMA starts; the probes are scheduled from there.
    b.run(1, [&] {
      if (GetRankId() != 0) return;
      TPipe pipe;
      TBuf<TPosition::VECCALC> buf;
      pipe.InitBuffer(buf, n);
      GlobalTensor<uint8_t> lg, rg;
      lg.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(local), n);
      rg.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(remote), n);
      LocalTensor<uint8_t> t = buf.Get<uint8_t>();
      if (write) {
        DataCopy(t, lg, n);
        PipeBarrier<PIPE_ALL>();
        DataCopy(rg, t, n);
      } else {
        DataCopy(t, rg, n);
      }
      start = SimNowPs();
      auto landed = [&] {
        uint8_t x = 0;
        if (write) {
          b.sim().read(remote, &x, 1);
        } else {
          x = core0.ub()[0];
        }
        return x == 0x5A;
      };
      b.at(start + ns_to_ps(want_ns) - 1, [&] { early = landed(); });
      b.at(start + ns_to_ps(want_ns), [&] { on_time = landed(); });
      if (write) {
        SetFlag<HardEvent::MTE3_S>(0);
        WaitFlag<HardEvent::MTE3_S>(0);
      } else {
        SetFlag<HardEvent::MTE2_S>(0);
        WaitFlag<HardEvent::MTE2_S>(0);
      }
      done = SimNowPs();
    });
    return nlohmann::json{{"latency_ps", done - start},
                          {"early", early},
                          {"on_time", on_time},
                          {"class", b.cluster().fabric().link_class(0, dst)}};
  });
  ASSERT_FALSE(j.contains("exit_code")) << j.dump();
  Params p = make_params(sets);
  Tick ack = response(p, fixed_latency(p, want_ns, write, gbps), write);
  EXPECT_EQ(j["class"], cls);
  EXPECT_EQ(j["early"], 0) << "the bytes landed before the configured latency";
  EXPECT_EQ(j["on_time"], 1) << "the bytes had not landed at the configured latency";
  EXPECT_EQ(j["latency_ps"].get<Tick>(), ns_to_ps(want_ns) + ack)
      << cls << (write ? " write" : " read");
  if (write) {
    EXPECT_GT(ack, 0u) << "a remote write completes after it lands";
  }
}

// The UB rates of the default preset, and the other links'.
constexpr double kUbWrite = 137.0, kUbRead = 167.0;

TEST(FabricGate, A512ByteWriteInsideTheNodeTakesTheMeasuredLatency) {
  expect_lone_512({}, 3, true, 1300, "intra_node", kUbWrite);
}
TEST(FabricGate, A512ByteWriteAcrossNodesTakesTheMeasuredLatency) {
  expect_lone_512({}, 20, true, 2100, "inter_node", kUbWrite);
}
TEST(FabricGate, A512ByteWriteToTheOtherDieOfTheChipTakesTheD2dLatency) {
  expect_lone_512({"fabric.write_latency_d2d_ns=800"}, 1, true, 800, "d2d", 270);
}
TEST(FabricGate, A512ByteReadInsideTheNodeTakesTheMeasuredLatency) {
  expect_lone_512({}, 5, false, 1200, "intra_node", kUbRead);
}
TEST(FabricGate, A512ByteReadAcrossNodesTakesTheMeasuredLatency) {
  expect_lone_512({}, 31, false, 1900, "inter_node", kUbRead);
}
TEST(FabricGate, TheLatencyIsAParameter) {
  expect_lone_512({"fabric.write_latency_inter_node_ns=3000"}, 17, true, 3000, "inter_node",
                  kUbWrite);
}
TEST(FabricGate, TheAcknowledgementIsAParameter) {
  expect_lone_512({"fabric.write_response_ratio=0.5"}, 3, true, 1300, "intra_node", kUbWrite);
  expect_lone_512({"fabric.write_response_ratio=2"}, 20, true, 2100, "inter_node", kUbWrite);
  expect_lone_512({"fabric.write_completion_ns=0"}, 3, true, 1300, "intra_node", kUbWrite);
  expect_lone_512({"fabric.write_completion_ns=700", "fabric.write_response_ratio=0"}, 20, true,
                  2100, "inter_node", kUbWrite);
}
TEST(FabricGate, A2HccsAndRoceClasses) {
  expect_lone_512({"fabric.topology=a2"}, 7, true, 1300, "hccs", 56);
  expect_lone_512({"fabric.topology=a2", "fabric.write_latency_roce_ns=4000"}, 8, true, 4000,
                  "roce", 25);
}

// ---- link rates: each link's rate is one coherent set of parameters (for a UB port, the nominal
// fabric.port_GBps times fabric.write_efficiency or fabric.read_efficiency); changing any of them
// moves the timing. A lone large transfer from die 0 to `dst` completes at
//   start + max(engine, HBM, every hop's occupancy) + fixed latency,
// where the fixed latency is the path's measured 512-B latency minus the model's own time for
// 512 B (models/cluster.cpp). With the MTE engines at their fastest, the link's occupancy
// bytes / rate is the largest term, so the transfer time is occupancy + fixed latency.

// What a lone transfer of `n` bytes over a path of rate `gbps` (every hop the same) and measured
// 512-B latency `latency_ns` should take, from the parameters alone.
struct Expected {
  Tick occupancy, fixed;
  Tick ack = 0;                                          // a write's acknowledgement
  Tick total() const { return occupancy + fixed; }       // the last byte lands
  Tick done() const { return occupancy + fixed + ack; }  // the core sees it complete
};

Expected expected_transfer(const std::vector<std::string>& sets, uint64_t n, bool write,
                           double gbps, double latency_ns) {
  Params p = make_params(sets);
  model::Clock clock{p.real("core.clock_GHz")};
  double per_cycle = p.real(write ? "mte3.bytes_per_cycle" : "mte2.bytes_per_cycle");
  auto engine = [&](uint64_t bytes) {
    return clock.cycles(
        static_cast<uint64_t>(p.integer("dma.setup_cycles")) +
        static_cast<uint64_t>(std::ceil(static_cast<double>(bytes) / per_cycle - 1e-9)));
  };
  double hbm = p.real("hbm.bandwidth_GBps");
  Tick own_512 =
      std::max({engine(512), model::transfer_ps(512, hbm), model::transfer_ps(512, gbps)});
  Expected e{model::transfer_ps(n, gbps), ns_to_ps(latency_ns) - own_512};
  e.ack = response(p, e.fixed, write);
  // The link is the bottleneck, so its occupancy is what the transfer time shows.
  EXPECT_GT(e.occupancy, engine(n));
  EXPECT_GT(e.occupancy, model::transfer_ps(n, hbm));
  return e;
}

// A lone transfer of `n` bytes between die 0 and die `dst` (a write of die 0's UB into dst's HBM,
// or a read of dst's HBM into die 0's UB), run on `dies` dies. Returns how long it took from the
// DMA's issue to its completion as seen by the scalar, whether its last byte had landed 1 ps
// before `want`, whether it had landed at completion, and the path's link class.
nlohmann::json lone_transfer(const std::vector<std::string>& sets, int dies, int dst, bool write,
                             uint32_t n, Tick want) {
  return in_child([&] {
    Bench b(sets, dies);
    uint64_t remote = b.sim().window(dst);
    if (!write) {
      std::vector<uint8_t> v(n, 0x5A);
      b.sim().write(remote, v.data(), n);
    }
    model::Core& core0 = *b.cluster().die(0).cores[0];
    auto last_byte = [&] {
      uint8_t x = 0;
      if (write) {
        b.sim().read(remote + n - 1, &x, 1);
      } else {
        x = core0.ub()[n - 1];
      }
      return x;
    };
    Tick start = 0, done = 0;
    int early = -1, landed = -1;
    b.run(1, [&] {
      if (GetRankId() != 0) return;
      TPipe pipe;
      TBuf<TPosition::VECCALC> buf;
      pipe.InitBuffer(buf, n);
      LocalTensor<uint8_t> t = buf.Get<uint8_t>();
      GlobalTensor<uint8_t> rg;
      rg.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(remote), n);
      if (write) {
        Duplicate(t.ReinterpretCast<int32_t>(), 0x5A5A5A5A, static_cast<int32_t>(n / 4));
        PipeBarrier<PIPE_ALL>();  // the scalar waits too, so `start` is the DMA's issue
        DataCopy(rg, t, n);
      } else {
        DataCopy(t, rg, n);
      }
      start = SimNowPs();
      b.at(start + want - 1, [&] { early = last_byte() == 0x5A; });
      if (write) {
        SetFlag<HardEvent::MTE3_S>(0);
        WaitFlag<HardEvent::MTE3_S>(0);
      } else {
        SetFlag<HardEvent::MTE2_S>(0);
        WaitFlag<HardEvent::MTE2_S>(0);
      }
      done = SimNowPs();
      landed = last_byte() == 0x5A;
    });
    return nlohmann::json{{"latency_ps", done - start},
                          {"early", early},
                          {"landed", landed},
                          {"class", b.cluster().fabric().link_class(0, dst)}};
  });
}

// Runs the lone transfer and checks the tight gate: not landed 1 ps before `e.total()`, landed at
// completion, which is at `e.done()`.
void expect_gate(const std::vector<std::string>& sets, int dies, int dst, bool write, uint32_t n,
                 const Expected& e, const char* cls) {
  nlohmann::json j = lone_transfer(sets, dies, dst, write, n, e.total());
  ASSERT_FALSE(j.contains("exit_code")) << j.dump();
  EXPECT_EQ(j["class"], cls);
  EXPECT_EQ(j["latency_ps"].get<Tick>(), e.done()) << cls << (write ? " write" : " read");
  EXPECT_EQ(j["early"], 0) << "the last byte landed before the expected time";
  EXPECT_EQ(j["landed"], 1) << "the last byte had not landed at completion";
}

// The UB path inside a node (die 0 -> die 2 of 4): egress and ingress ports at
// port_GBps x efficiency.
Expected expected_ub(const std::vector<std::string>& sets, uint32_t n, bool write) {
  Params p = make_params(sets);
  double rate = p.real("fabric.port_GBps") *
                p.real(write ? "fabric.write_efficiency" : "fabric.read_efficiency");
  return expected_transfer(
      sets, n, write, rate,
      p.real(write ? "fabric.write_latency_intra_node_ns" : "fabric.read_latency_intra_node_ns"));
}

// Engines that never bind: fast, and without an outstanding-request window (which would bound a
// lone core's transfer at window / path latency, far below a link's rate).
const std::vector<std::string> kFastEngines = {
    "mte2.bytes_per_cycle=4096", "mte3.bytes_per_cycle=4096", "mte2.outstanding_bytes=0",
    "mte3.outstanding_bytes=0", "mte3.remote_outstanding_bytes=0"};

TEST(FabricRate, DoublingThePortRateHalvesTheOccupancyOfAUbWrite) {
  const uint32_t n = 137 * 512;  // 512 ns at 137 GB/s, 256 ns at 274
  Expected base = expected_ub(kFastEngines, n, true);
  Expected wide = expected_ub(with(kFastEngines, "fabric.port_GBps=392"), n, true);
  EXPECT_EQ(base.occupancy, 512000u) << "196 GB/s x 137/196 = 137 GB/s exactly";
  EXPECT_EQ(wide.occupancy * 2, base.occupancy);
  EXPECT_EQ(wide.fixed, base.fixed);
  expect_gate(kFastEngines, 4, 2, true, n, base, "intra_node");
  expect_gate(with(kFastEngines, "fabric.port_GBps=392"), 4, 2, true, n, wide, "intra_node");
}

TEST(FabricRate, DoublingThePortRateHalvesTheOccupancyOfAUbRead) {
  const uint32_t n = 167 * 512;  // 512 ns at 167 GB/s, 256 ns at 334
  Expected base = expected_ub(kFastEngines, n, false);
  Expected wide = expected_ub(with(kFastEngines, "fabric.port_GBps=392"), n, false);
  EXPECT_EQ(base.occupancy, 512000u) << "196 GB/s x 167/196 = 167 GB/s exactly";
  EXPECT_EQ(wide.occupancy * 2, base.occupancy);
  EXPECT_EQ(wide.fixed, base.fixed);
  expect_gate(kFastEngines, 4, 2, false, n, base, "intra_node");
  expect_gate(with(kFastEngines, "fabric.port_GBps=392"), 4, 2, false, n, wide, "intra_node");
}

TEST(FabricRate, HalvingTheEfficiencyDoublesTheOccupancyOfAUbWriteAndRead) {
  const uint32_t nw = 137 * 512, nr = 167 * 512;
  // 137/392 and 167/392, printed to round-trip: 68.5 and 83.5 GB/s exactly.
  auto slow_w = with(kFastEngines, "fabric.write_efficiency=0.3494897959183674");
  auto slow_r = with(kFastEngines, "fabric.read_efficiency=0.4260204081632653");
  Expected w = expected_ub(slow_w, nw, true), r = expected_ub(slow_r, nr, false);
  EXPECT_EQ(w.occupancy, 2 * expected_ub(kFastEngines, nw, true).occupancy);
  EXPECT_EQ(r.occupancy, 2 * expected_ub(kFastEngines, nr, false).occupancy);
  expect_gate(slow_w, 4, 2, true, nw, w, "intra_node");
  expect_gate(slow_r, 4, 2, false, nr, r, "intra_node");
  // The write efficiency leaves reads alone, and the read efficiency writes.
  expect_gate(slow_w, 4, 2, false, nr, expected_ub(kFastEngines, nr, false), "intra_node");
  expect_gate(slow_r, 4, 2, true, nw, expected_ub(kFastEngines, nw, true), "intra_node");
}

TEST(FabricRate, OnlyTheProductOfNominalAndEfficiencyMatters) {
  // A port twice as wide at half the efficiency moves a write exactly as the default one.
  const uint32_t n = 137 * 512;
  auto same = with(with(kFastEngines, "fabric.port_GBps=392"),
                   "fabric.write_efficiency=0.3494897959183674");
  EXPECT_EQ(expected_ub(same, n, true).total(), expected_ub(kFastEngines, n, true).total());
  expect_gate(same, 4, 2, true, n, expected_ub(kFastEngines, n, true), "intra_node");
}

// The other links have one rate each, at which transfers move: it moves the timing too.
TEST(FabricRate, DoublingTheD2dHccsAndRoceRatesHalvesTheirOccupancy) {
  struct Link {
    const char* rate_key;
    const char* latency_key;
    std::vector<std::string> sets;
    int dies, dst;
    uint32_t n;
    const char* cls;
  };
  const Link links[] = {
      {"fabric.d2d_GBps", "fabric.write_latency_d2d_ns", {}, 2, 1, 27 * 2048, "d2d"},
      {"fabric.hccs_link_GBps",
       "fabric.write_latency_hccs_ns",
       {"fabric.topology=a2"},
       2,
       1,
       7 * 4096,
       "hccs"},
      {"fabric.roce_GBps",
       "fabric.write_latency_roce_ns",
       {"fabric.topology=a2"},
       9,
       8,
       25 * 2048,
       "roce"},
  };
  for (const Link& l : links) {
    auto sets = kFastEngines;
    sets.insert(sets.end(), l.sets.begin(), l.sets.end());
    Params p = make_params(sets);
    double rate = p.real(l.rate_key);
    auto wide = with(sets, std::string(l.rate_key) + "=" + std::to_string(2 * rate));
    Expected base = expected_transfer(sets, l.n, true, rate, p.real(l.latency_key));
    Expected fast = expected_transfer(wide, l.n, true, 2 * rate, p.real(l.latency_key));
    EXPECT_EQ(fast.occupancy * 2, base.occupancy) << l.cls;
    expect_gate(sets, l.dies, l.dst, true, l.n, base, l.cls);
    expect_gate(wide, l.dies, l.dst, true, l.n, fast, l.cls);
  }
}

// Each flow (sender, receiver) writes `bytes` from the sender's 8 cores into the receiver's window;
// returns each flow's finish time (ns), whether its bytes arrived intact, and the port statistics.
// The cores' outstanding windows are lifted so that 8 cores can fill a port (with them, a core
// writes ~6 GB/s over the fabric and it takes a die's 48: UbWriteSaturates... below).
nlohmann::json write_pattern(const std::vector<std::pair<int, int>>& flows, uint64_t bytes) {
  return in_child([&] {
    Bench b({"mte3.outstanding_bytes=0", "mte3.remote_outstanding_bytes=0"}, 8);
    const int cores = 8;
    const uint32_t chunk = 16384;
    std::vector<Tick> finish(flows.size(), 0);
    b.run(cores, [&] {
      TPipe pipe;
      TBuf<TPosition::VECCALC> buf;
      pipe.InitBuffer(buf, chunk);
      LocalTensor<uint8_t> t = buf.Get<uint8_t>();
      Duplicate(t.ReinterpretCast<int32_t>(), static_cast<int32_t>(GetRankId()), chunk / 4);
      SetFlag<HardEvent::V_MTE3>(0);
      WaitFlag<HardEvent::V_MTE3>(0);
      for (size_t f = 0; f < flows.size(); ++f) {
        if (flows[f].first != static_cast<int>(GetRankId())) continue;
        GlobalTensor<uint8_t> dst;
        // Each sender owns a slice of the destination window, each core a part of it.
        dst.SetGlobalBuffer(GetWindAddrByRankId(flows[f].second) + f * bytes, bytes);
        uint64_t share = bytes / cores, base = GetBlockIdx() * share;
        for (uint64_t off = 0; off < share; off += chunk) DataCopy(dst[base + off], t, chunk);
      }
      PipeBarrier<PIPE_ALL>();
      for (size_t f = 0; f < flows.size(); ++f)
        if (flows[f].first == static_cast<int>(GetRankId()))
          finish[f] = std::max(finish[f], Tick{SimNowPs()});
    });
    nlohmann::json j;
    for (size_t f = 0; f < flows.size(); ++f) {
      j["finish_ns"].push_back(model::ps_to_ns(finish[f]));
      std::vector<int32_t> got(bytes / 4);
      b.sim().read(b.sim().window(flows[f].second) + f * bytes, got.data(), bytes);
      bool ok = true;
      for (int32_t v : got) ok = ok && v == flows[f].first;
      j["data_ok"].push_back(ok);
    }
    for (const auto& p : b.sim().records().back().ports_json())
      j["ports"][p["name"].get<std::string>()] = p;
    return j;
  });
}

// A saturated port is busy but for the first write's trip and the last one's round trip and
// completion (about 4 us of the ~120 us run): over 95% of the launch.
TEST(FabricContention, TwoSendersIntoOneDieEachGetHalfItsIngress) {
  const uint64_t bytes = 8 << 20;
  nlohmann::json one = write_pattern({{2, 4}}, bytes);
  nlohmann::json two = write_pattern({{2, 4}, {6, 4}}, bytes);
  ASSERT_FALSE(two.contains("exit_code")) << two.dump();
  for (bool ok : two["data_ok"]) EXPECT_TRUE(ok);
  // Less the path's fixed latency there and (for the last write) back.
  const double trip = 1300.0 * (1 + make_params({}).real("fabric.write_response_ratio")) +
                      make_params({}).real("fabric.write_completion_ns");
  double alone = one["finish_ns"][0].get<double>() - trip,
         a = two["finish_ns"][0].get<double>() - trip, b = two["finish_ns"][1].get<double>() - trip;
  // Alone, a sender gets the whole effective rate; together each gets half of die 4's ingress.
  EXPECT_NEAR(bytes / alone, 137.0, 137.0 * 0.03);
  EXPECT_NEAR(bytes / a, 137.0 / 2, 137.0 * 0.03);
  EXPECT_NEAR(bytes / b, 137.0 / 2, 137.0 * 0.03);
  EXPECT_GT(two["ports"]["die4.ub_ingress"]["utilization_pct"].get<double>(), 95.0);
  EXPECT_LT(two["ports"]["die2.ub_egress"]["utilization_pct"].get<double>(), 55.0);
}

TEST(FabricContention, OneDieSendingToTwoSharesItsEgress) {
  const uint64_t bytes = 8 << 20;
  nlohmann::json two = write_pattern({{2, 4}, {2, 6}}, bytes);
  ASSERT_FALSE(two.contains("exit_code")) << two.dump();
  for (bool ok : two["data_ok"]) EXPECT_TRUE(ok);
  const double trip = 1300.0 * (1 + make_params({}).real("fabric.write_response_ratio")) +
                      make_params({}).real("fabric.write_completion_ns");
  double end =
      std::max(two["finish_ns"][0].get<double>(), two["finish_ns"][1].get<double>()) - trip;
  EXPECT_NEAR(2.0 * bytes / end, 137.0, 137.0 * 0.03);  // both flows together fill the egress
  EXPECT_GT(two["ports"]["die2.ub_egress"]["utilization_pct"].get<double>(), 95.0);
  EXPECT_LT(two["ports"]["die4.ub_ingress"]["utilization_pct"].get<double>(), 55.0);
  EXPECT_LT(two["ports"]["die6.ub_ingress"]["utilization_pct"].get<double>(), 55.0);
}

TEST(FabricContention, UbWriteSaturatesAtTheEffectiveRateNeverTheNominal) {
  Outcome o = run_scenario("ub_write", {"ep.world_size=4", "ub_write.dst=2", "ub_write.cores=48",
                                        "ub_write.bytes=50331648"});
  ASSERT_EQ(o.exit_code, 0) << o.message;
  double bw = o.kernel()["bandwidth_GBps"];
  EXPECT_LE(bw, 137.0);
  EXPECT_GE(bw, 0.97 * 137.0);
  EXPECT_EQ(o.kernel()["first_write_512B_latency_ns"].get<double>(), 1300.0);
}

TEST(Cluster, FlagRingOn32RanksSeesEveryFlag) {
  Outcome o = run_scenario("flag_ring", {"ep.world_size=32"});
  ASSERT_EQ(o.exit_code, 0) << o.message;
  EXPECT_EQ(o.kernel()["rank_latency_ns"].size(), 32u);
  EXPECT_GT(o.kernel()["link_class_bytes"]["inter_node"].get<uint64_t>(), 0u);
}

TEST(Cluster, ClusterRunsAreDeterministic) {
  std::string runs[2];
  for (auto& r : runs) {
    RunOptions ro;
    ro.out_dir =
        "/tmp/ascend-det-cluster-" + std::to_string(getpid()) + "-" + std::to_string(&r - runs);
    ro.trace = true;
    Outcome o = run_scenario("flag_ring", {"ep.world_size=24", "trace.ranks=all"}, ro);
    ASSERT_EQ(o.exit_code, 0) << o.message;
    o.stats.erase("simulator");
    std::ifstream f(ro.out_dir + "/trace.json");
    std::stringstream ss;
    ss << f.rdbuf();
    r = o.stats.dump() + ss.str();
  }
  EXPECT_EQ(runs[0], runs[1]);
}

TEST(Cluster, TraceScopeKeepsOnlyTheChosenRanks) {
  RunOptions ro;
  ro.out_dir = "/tmp/ascend-scope-" + std::to_string(getpid());
  ro.trace = true;
  Outcome o =
      run_scenario("flag_ring", {"ep.world_size=32", "trace.ranks=1,17", "trace.cores=0"}, ro);
  ASSERT_EQ(o.exit_code, 0) << o.message;
  std::ifstream f(ro.out_dir + "/trace.json");
  nlohmann::json t = nlohmann::json::parse(f);
  std::set<int> pids;
  std::set<std::string> lanes;
  for (const auto& e : t["traceEvents"]) {
    pids.insert(e["pid"].get<int>());
    if (e["name"] == "thread_name") lanes.insert(e["args"]["name"].get<std::string>());
  }
  // Ranks 1 and 17 are in different nodes: their flags cross the node-level ports, which sit in
  // the "fabric" process.
  EXPECT_EQ(pids, (std::set<int>{1, 17, 1 << 20}));
  EXPECT_TRUE(lanes.count("cluster.fabric.die1.ub_egress"))
      << "link lanes of traced ranks are shown";
  EXPECT_TRUE(lanes.count("cluster.die1.aiv0 MTE3"));
  EXPECT_FALSE(lanes.count("cluster.die1.aiv1 MTE3"));
}

TEST(Cluster, TooManyCoresForTheMachinesMapLimitIsBadInput) {
  std::ifstream f("/proc/sys/vm/max_map_count");
  long limit = 0;
  f >> limit;
  long ranks = limit / (2 * 48) + 1;
  if (ranks > 768) GTEST_SKIP() << "vm.max_map_count " << limit << " allows 768 x 48 cores";
  Outcome o = run_scenario("flag_ring", {"ep.world_size=" + std::to_string(ranks)});
  EXPECT_EQ(o.exit_code, kExitBadInput);
  EXPECT_NE(o.message.find("sysctl -w vm.max_map_count="), std::string::npos) << o.message;
}

}  // namespace
}  // namespace ascend::test
