// The parameter registry: every key declared once with unit, range and source; bad input is a
// bad-input error that names the key, the value and what is allowed.
#include "sim/field_params.h"
#include "sim/hardware_params.h"
#include "sim/simulation.h"
#include "tests/harness.h"

namespace ascend::test {
namespace {

SimError error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const SimError& e) {
    return e;
  }
  ADD_FAILURE() << "no error";
  return SimError(kExitOk, "");
}

// A parameter is declared once, with the field it sets: its default is the field's initializer
// and a value reaches the field through the unit's scale.
TEST(Params, EachHardwareKeySetsItsFieldAndDefaultsToItsInitializer) {
  Params p;
  declare_hardware_params(p);
  model::ClusterConfig def;
  model::ClusterConfig c = cluster_config(p, 1);
  EXPECT_EQ(c.aiv_per_die, def.aiv_per_die);
  EXPECT_EQ(c.core.ub_bytes, def.core.ub_bytes);
  EXPECT_EQ(c.hbm.capacity_bytes, def.hbm.capacity_bytes);
  EXPECT_EQ(c.thread_stack_bytes, def.thread_stack_bytes);
  EXPECT_DOUBLE_EQ(c.fabric.ub_write_efficiency, def.fabric.ub_write_efficiency);
  EXPECT_EQ(p.text("ub.size_KiB"), std::to_string(def.core.ub_bytes / 1024));
  EXPECT_EQ(p.text("core.clock_GHz"), "1.85");
  EXPECT_EQ(p.text("fabric.write_efficiency"), "0.6989795918367347");  // 137/196, exactly

  p.set("ub.size_KiB", "96", "--set");
  p.set("hbm.capacity_GiB", "3", "--set");
  p.set("fabric.topology", "a2", "--set");
  p.set("fabric.roce_GBps", "12.5", "--set");
  c = cluster_config(p, 1);
  EXPECT_EQ(c.core.ub_bytes, 96u * 1024);
  EXPECT_EQ(c.hbm.capacity_bytes, uint64_t{3} << 30);
  EXPECT_EQ(c.fabric.topology, "a2");
  EXPECT_DOUBLE_EQ(c.fabric.roce_GBps, 12.5);

  AscendC::detail::RuntimeConfig rdef;
  p.set("hccl.buffsize_MB", "7", "--set");
  p.set("sim.payload", "0", "--set");
  AscendC::detail::RuntimeConfig r = runtime_config(p);
  EXPECT_EQ(r.windows.data_bytes, uint64_t{7} << 20);
  EXPECT_EQ(r.windows.status_bytes, rdef.windows.status_bytes);
  EXPECT_FALSE(r.payload);
  EXPECT_DOUBLE_EQ(r.sort.sort32_cycles, rdef.sort.sort32_cycles);
}

TEST(Params, IssueKeysExistWithTheirDefaults) {
  Params p = make_params();
  EXPECT_EQ(p.integer("die.aiv_count"), 48);
  EXPECT_DOUBLE_EQ(p.real("core.clock_GHz"), 1.85);
  EXPECT_EQ(p.integer("ub.size_KiB"), 192);
  EXPECT_DOUBLE_EQ(p.real("hbm.bandwidth_GBps"), 1600);
  // The DMA engines as calibrated on the mskpp tables (docs/validation.md).
  EXPECT_DOUBLE_EQ(p.real("mte2.bytes_per_cycle"), 80);
  EXPECT_DOUBLE_EQ(p.real("mte3.bytes_per_cycle"), 78);
  EXPECT_EQ(p.integer("mte2.outstanding_bytes"), 9728);
  EXPECT_EQ(p.integer("mte3.outstanding_bytes"), 7680);
  EXPECT_DOUBLE_EQ(p.real("vector.bytes_per_cycle"), 256);
}

TEST(Params, EveryParameterHasUnitRangeDescriptionAndSource) {
  Params p = make_params();
  for (const ParamSpec* s : p.specs()) {
    EXPECT_FALSE(s->description.empty()) << s->key;
    EXPECT_FALSE(s->source.empty()) << s->key;
    if (s->type == ParamSpec::Type::Int || s->type == ParamSpec::Type::Real) {
      EXPECT_LT(s->min, s->max) << s->key;
    }
  }
}

TEST(Params, UnknownKeyIsBadInput) {
  Params p = make_params();
  SimError e = error_of([&] { p.set("hbm.bandwith_GBps", "100", "--set"); });
  EXPECT_EQ(e.code, kExitBadInput);
  EXPECT_NE(std::string(e.what()).find("unknown parameter 'hbm.bandwith_GBps'"), std::string::npos);
}

// fabric.write_GBps and fabric.read_GBps were effective rates beside a nominal port_GBps that
// then moved no timing; the effective rates are now port_GBps x write_efficiency / read_efficiency.
// An old config or --set that still uses them is told what replaced them.
TEST(Params, RemovedFabricRateKeysAreBadInputNamingTheirReplacement) {
  for (const char* key : {"write", "read"}) {
    std::string old_key = std::string("fabric.") + key + "_GBps";
    std::string replacement = std::string("fabric.") + key + "_efficiency";
    Params p = make_params();
    EXPECT_FALSE(p.has(old_key)) << "a removed key is not listed";
    EXPECT_TRUE(p.has(replacement));
    SimError e = error_of([&] { p.set(old_key, "137", "--set"); });
    EXPECT_EQ(e.code, kExitBadInput);
    std::string m = e.what();
    EXPECT_NE(m.find(old_key + " = '137' (from --set) was removed"), std::string::npos) << m;
    EXPECT_NE(m.find("fabric.port_GBps x " + replacement), std::string::npos) << m;
    EXPECT_NE(m.find(replacement + " = "), std::string::npos) << m;
    EXPECT_EQ(m.find("unknown parameter"), std::string::npos) << m;
    // The same from a config file, and from the command line (exit status 2).
    SimError ini = error_of(
        [&] { p.load_ini_text(std::string("[fabric]\n") + key + "_GBps = 137\n", "old.ini"); });
    EXPECT_EQ(ini.code, kExitBadInput);
    EXPECT_NE(std::string(ini.what()).find("(from old.ini) was removed"), std::string::npos)
        << ini.what();
    Outcome o = run_scenario("ub_write", {"ep.world_size=2", old_key + "=137"});
    EXPECT_EQ(o.exit_code, 2);
    EXPECT_NE(o.message.find(replacement), std::string::npos) << o.message;
  }
}

TEST(Params, FabricEfficienciesAreSharesOfTheNominalRate) {
  Params p = make_params();
  EXPECT_DOUBLE_EQ(p.real("fabric.port_GBps"), 196);
  EXPECT_EQ(p.real("fabric.port_GBps") * p.real("fabric.write_efficiency"), 137.0);
  EXPECT_EQ(p.real("fabric.port_GBps") * p.real("fabric.read_efficiency"), 167.0);
  EXPECT_EQ(p.spec("fabric.write_efficiency").unit, "");
  for (const char* key : {"fabric.write_efficiency", "fabric.read_efficiency"}) {
    EXPECT_EQ(error_of([&] { p.set(key, "0", "--set"); }).code, kExitBadInput) << key;
    EXPECT_EQ(error_of([&] { p.set(key, "1.01", "--set"); }).code, kExitBadInput) << key;
    p.set(key, "1", "--set");
    EXPECT_EQ(p.real(key), 1.0);
  }
}

TEST(Params, OutOfRangeNamesKeyValueAndRange) {
  Params p = make_params();
  SimError e = error_of([&] { p.set("die.aiv_count", "0", "--set"); });
  EXPECT_EQ(e.code, kExitBadInput);
  std::string m = e.what();
  EXPECT_NE(m.find("die.aiv_count = '0'"), std::string::npos) << m;
  EXPECT_NE(m.find("out of range"), std::string::npos) << m;
  EXPECT_NE(m.find("an integer in [1, 96] cores"), std::string::npos) << m;
}

TEST(Params, NonNumbersNonIntegersAndUnknownChoicesAreRejected) {
  Params p = make_params();
  EXPECT_EQ(error_of([&] { p.set("core.clock_GHz", "fast", "x"); }).code, kExitBadInput);
  EXPECT_EQ(error_of([&] { p.set("core.clock_GHz", "1.8GHz", "x"); }).code, kExitBadInput);
  EXPECT_EQ(error_of([&] { p.set("die.aiv_count", "4.5", "x"); }).code, kExitBadInput);
  EXPECT_EQ(error_of([&] { p.set("stream.mode", "write", "x"); }).code, kExitBadInput);
  EXPECT_EQ(error_of([&] { p.set_assignment("die.aiv_count", "x"); }).code, kExitBadInput);
  EXPECT_EQ(p.integer("die.aiv_count"), 48) << "a rejected value must not stick";
}

TEST(Params, IniSectionsMapToDottedKeysAndCommentsAreIgnored) {
  Params p = make_params();
  p.load_ini_text("# a comment\n[hbm]\nbandwidth_GBps = 800  # halved\n[die]\naiv_count=24\n", "t");
  EXPECT_DOUBLE_EQ(p.real("hbm.bandwidth_GBps"), 800);
  EXPECT_EQ(p.integer("die.aiv_count"), 24);
  EXPECT_EQ(error_of([&] { p.load_ini_text("[hbm]\nbandwidth = 3\n", "t.ini"); }).code,
            kExitBadInput);
}

TEST(Params, ResolvedConfigRoundTrips) {
  Params p = make_params({"hbm.bandwidth_GBps=1234", "stream.mode=copy"});
  std::ostringstream os;
  p.write_ini(os);
  Params q = make_params();
  q.load_ini_text(os.str(), "config.ini");
  EXPECT_DOUBLE_EQ(q.real("hbm.bandwidth_GBps"), 1234);
  EXPECT_EQ(q.text("stream.mode"), "copy");
}

TEST(Params, PresetsApplyAndUnknownPresetsAreRejected) {
  Params p = make_params();
  apply_preset(p, "910b4");
  EXPECT_EQ(p.integer("die.aiv_count"), 40);
  EXPECT_DOUBLE_EQ(p.real("hbm.bandwidth_GBps"), 800);
  SimError e = error_of([&] { apply_preset(p, "a9"); });
  EXPECT_EQ(e.code, kExitBadInput);
  EXPECT_NE(std::string(e.what()).find("known presets: "), std::string::npos);
}

TEST(Params, TraceScopeParses) {
  EXPECT_TRUE(parse_scope("k", "all").empty());
  EXPECT_EQ(parse_scope("k", "0-2,7"), (std::set<int>{0, 1, 2, 7}));
  for (const char* bad : {"", "3-1", "x", "1-", "1,,2", "-3"})
    EXPECT_EQ(error_of([&] { parse_scope("trace.cores", bad); }).code, kExitBadInput) << bad;
}

TEST(Params, KernelAttributesOutsideLimitsAreBadInput) {
  EXPECT_EQ(run_scenario("stream", {"stream.cores=49"}).exit_code, kExitBadInput);
  EXPECT_EQ(run_scenario("stream", {"stream.tile_bytes=100"}).exit_code, kExitBadInput);
  EXPECT_EQ(run_scenario("pipeline", {"pipeline.vector_repeats=10"}).exit_code, kExitBadInput);
  Outcome o =
      run_scenario("stream", {"stream.cores=1", "stream.tile_bytes=131072", "stream.buffer_num=2"});
  EXPECT_EQ(o.exit_code, kExitKernelFault) << "two 128 KiB buffers and an accumulator overflow UB";
  EXPECT_NE(o.message.find("UB overflow"), std::string::npos) << o.message;
}

// A kernel's attributes bound with sim/field_params.h: the defaults are the fields' initializers
// (a negative one too), a unit's scale reaches the field, and a choice sets the value its name
// maps to.
enum class Mode { Fast, Exact };
struct BoundAttrs {
  int rank = -1;
  uint64_t bytes = 16384;  // declared in KiB
  double rate = 0.1;
  std::string routing = "uniform";
  bool flip = true;
  bool int8 = true;
  Mode mode = Mode::Exact;
};

const std::vector<FieldParam<BoundAttrs>>& bound_fields() {
  using A = BoundAttrs;
  static const std::vector<FieldParam<A>> fields = {
      field<A>(
          int_param("t.rank", "rank", kFromField, -1, 7, "d", "s"),
          [](A & a) -> auto& { return a.rank; }),
      field<A>(
          int_param("t.bytes_KiB", "KiB", kFromField, 1, 64, "d", "s"),
          [](A & a) -> auto& { return a.bytes; }, 1024),
      field<A>(
          real_param("t.rate", "", kFromField, 0, 1, "d", "s"),
          [](A & a) -> auto& { return a.rate; }),
      field<A>(
          text_param("t.routing", kFromField, "d", "s"), [](A & a) -> auto& { return a.routing; }),
      field<A>(
          int_param("t.flip", "", kFromField, 0, 1, "d", "s"),
          [](A & a) -> auto& { return a.flip; }),
      choice_field<A>(
          "t.quant", {{"none", false}, {"int8", true}}, "d", "s",
          [](A & a) -> auto& { return a.int8; }),
      choice_field<A>(
          "t.mode", {{"fast", Mode::Fast}, {"exact", Mode::Exact}}, "d", "s",
          [](A & a) -> auto& { return a.mode; })};
  return fields;
}

TEST(Params, KernelAttributesAreBoundToTheirFields) {
  Params p;
  declare_fields(p, bound_fields());
  EXPECT_EQ(p.spec("t.rank").default_value, "-1");
  EXPECT_EQ(p.spec("t.bytes_KiB").default_value, "16");
  EXPECT_EQ(p.spec("t.rate").default_value, "0.1");
  EXPECT_EQ(p.spec("t.routing").default_value, "uniform");
  EXPECT_EQ(p.spec("t.flip").default_value, "1");
  EXPECT_EQ(p.spec("t.quant").default_value, "int8");
  EXPECT_EQ(p.spec("t.quant").choices, (std::vector<std::string>{"none", "int8"}));
  EXPECT_EQ(p.spec("t.mode").default_value, "exact");
  BoundAttrs d = read_fields(p, bound_fields());
  EXPECT_EQ(d.rank, -1);
  EXPECT_EQ(d.bytes, 16384u);
  EXPECT_TRUE(d.int8);
  EXPECT_EQ(d.mode, Mode::Exact);
  p.set("t.rank", "3", "--set");
  p.set("t.bytes_KiB", "2", "--set");
  p.set("t.rate", "0.25", "--set");
  p.set("t.routing", "zipf:1.2", "--set");
  p.set("t.flip", "0", "--set");
  p.set("t.quant", "none", "--set");
  p.set("t.mode", "fast", "--set");
  BoundAttrs a = read_fields(p, bound_fields());
  EXPECT_EQ(a.rank, 3);
  EXPECT_EQ(a.bytes, 2048u);
  EXPECT_EQ(a.rate, 0.25);
  EXPECT_EQ(a.routing, "zipf:1.2");
  EXPECT_FALSE(a.flip);
  EXPECT_FALSE(a.int8);
  EXPECT_EQ(a.mode, Mode::Fast);
  EXPECT_EQ(error_of([&] { p.set("t.quant", "int4", "--set"); }).code, kExitBadInput);
  // A choice whose names do not include the field's initializer is a programming error.
  using A = BoundAttrs;
  EXPECT_THROW(choice_field<A>(
                   "t.bad", {{"none", false}}, "d", "s", [](A & a) -> auto& { return a.int8; }),
               std::logic_error);
}

}  // namespace
}  // namespace ascend::test
