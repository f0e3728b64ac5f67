// The parameter registry: every key declared once with unit, range and source; bad input is a
// bad-input error that names the key, the value and what is allowed.
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

TEST(Params, IssueKeysExistWithTheirDefaults) {
  Params p = make_params();
  EXPECT_EQ(p.integer("die.aiv_count"), 48);
  EXPECT_DOUBLE_EQ(p.real("core.clock_GHz"), 1.85);
  EXPECT_EQ(p.integer("ub.size_KiB"), 192);
  EXPECT_DOUBLE_EQ(p.real("hbm.bandwidth_GBps"), 1600);
  EXPECT_DOUBLE_EQ(p.real("mte2.bytes_per_cycle"), 32);
  EXPECT_DOUBLE_EQ(p.real("mte3.bytes_per_cycle"), 64);
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

}  // namespace
}  // namespace ascend::test
