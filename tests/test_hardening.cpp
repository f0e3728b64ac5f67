// Hardening: every finding of the fuzzers (tests/fuzz) and of the sanitizers as a
// regression test, and the promises of the exit statuses on input that is broken on purpose.
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "kernels/kernel.h"
#include "sim/npy.h"
#include "tests/harness.h"

namespace ascend::test {
namespace {

// The message of the bad-input error f ends with (fails the test for anything else).
std::string bad_input(const std::function<void()>& f) {
  try {
    f();
  } catch (const SimError& e) {
    EXPECT_EQ(e.code, kExitBadInput) << e.what();
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not a SimError: " << e.what();
    return "";
  }
  ADD_FAILURE() << "accepted";
  return "";
}

std::string npy_bytes(const std::string& header, const std::string& data, char version = 1) {
  std::string out = std::string("\x93NUMPY", 6) + version + '\0';
  const size_t n = header.size();
  out += static_cast<char>(n & 0xff);
  out += static_cast<char>(n >> 8);
  if (version != 1) out += std::string(2, '\0');
  return out + header + data;
}

npy::Array read_npy(const std::string& bytes) {
  std::istringstream in(bytes);
  return npy::read(in, "t.npy");
}

// Fuzz finding (fuzz_npy): npy::write of a bare file name threw std::filesystem_error from
// create_directories("") (exit 1, internal error).
TEST(Hardening, NpyWritesABareFileName) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("npy_bare_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const auto cwd = std::filesystem::current_path();
  std::filesystem::current_path(dir);
  const int32_t v[2] = {7, -1};
  npy::write("a.npy", "<i4", {2}, v);
  npy::Array a = npy::read("a.npy");
  std::filesystem::current_path(cwd);
  std::filesystem::remove_all(dir);
  EXPECT_EQ(a.dtype, "<i4");
  EXPECT_EQ(a.shape, std::vector<uint64_t>{2});
  ASSERT_EQ(a.bytes.size(), 8u);
  EXPECT_EQ(std::memcmp(a.bytes.data(), v, 8), 0);
}

// The reader takes what NumPy writes, in any key order, versions 1 to 3.
TEST(Hardening, NpyReadsWhatNumpyWrites) {
  npy::Array a = read_npy(npy_bytes(
      "{'shape': (2, 1), 'fortran_order': False, 'descr': '<i2', }  \n", std::string(4, '\x01')));
  EXPECT_EQ(a.dtype, "<i2");
  EXPECT_EQ(a.shape, (std::vector<uint64_t>{2, 1}));
  npy::Array b = read_npy(npy_bytes("{'descr': '<b1', 'fortran_order': False, 'shape': (3,)}\n",
                                    std::string("\x01\x00\x01", 3), 2));
  EXPECT_EQ(b.dtype, "|b1");
  EXPECT_EQ(b.elements(), 3u);
  npy::Array s = read_npy(
      npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': ()}\n", std::string(4, '\0')));
  EXPECT_TRUE(s.shape.empty());
  EXPECT_EQ(s.bytes.size(), 4u);
}

// Broken files are bad input naming what is wrong, found before anything is allocated; the old
// reader threw std::invalid_argument on a non-numeric dimension, allocated whatever a shape
// claimed, read past a missing quote and ignored trailing data.
TEST(Hardening, NpyRefusesBrokenFilesByName) {
  const std::string ok = "{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }\n";
  const std::string data(8, '\0');
  EXPECT_NE(bad_input([&] { read_npy(npy_bytes(ok, data.substr(0, 7))); }).find("fewer data bytes"),
            std::string::npos);
  EXPECT_NE(bad_input([&] { read_npy(npy_bytes(ok, data + "x")); }).find("1 B more data"),
            std::string::npos);
  EXPECT_NE(
      bad_input([&] {
        read_npy(npy_bytes("{'descr': '<i4', 'fortran_order': False, 'shape': (a,), }", data));
      }).find("not a whole number"),
      std::string::npos);
  // A shape of 2^64 - 1 elements in a 10-byte file: refused, not allocated.
  EXPECT_NE(
      bad_input([&] {
        read_npy(npy_bytes(
            "{'descr': '<i8', 'fortran_order': False, 'shape': (4294967296, 4294967295)}", data));
      }).find("fewer data bytes"),
      std::string::npos);
  EXPECT_NE(bad_input([&] {
              read_npy(
                  npy_bytes("{'descr': '<i8', 'fortran_order': False, 'shape': "
                            "(99999999999999999999999,)}",
                            data));
            }).find("too large"),
            std::string::npos);
  EXPECT_NE(bad_input([&] {
              read_npy(npy_bytes("{'descr: '<i4', 'shape': (2,)}", data));
            }).find("bad header"),
            std::string::npos);
  EXPECT_NE(bad_input([&] {
              read_npy(npy_bytes("{'descr': '<i4', 'shape': (2,)}", data));
            }).find("lacks 'fortran_order'"),
            std::string::npos);
  EXPECT_NE(bad_input([&] {
              read_npy(npy_bytes("{'descr': '<i4', 'fortran_order': True, 'shape': (2,)}", data));
            }).find("Fortran order"),
            std::string::npos);
  EXPECT_NE(bad_input([&] { read_npy(npy_bytes(ok, data, 9)); }).find("version 9"),
            std::string::npos);
  std::string huge = npy_bytes(ok, data, 2);
  huge[10] = '\xff', huge[11] = '\xff', huge[12] = '\xff', huge[13] = '\x7f';  // a 2-GiB header
  EXPECT_NE(bad_input([&] { read_npy(huge); }).find("at most 65536 B"), std::string::npos);
  EXPECT_NE(bad_input([&] { read_npy(npy_bytes(ok, data).substr(0, 9)); }).find("truncated"),
            std::string::npos);
}

// Fuzz finding (fuzz_set): a text value holding '#' was accepted, but config.ini cut it there
// (an INI comment), so `--config out/config.ini` did not rerun the same run. Values that
// config.ini or stats.json cannot hold as they are (a '#', a control character, bytes that are
// not UTF-8) are bad input naming the key; UTF-8 text is kept.
TEST(Hardening, ValuesConfigIniCannotHoldAreRefused) {
  Params p = make_params();
  EXPECT_NE(bad_input([&] { p.set("trace.scope", "cluster.die0#x", "--set"); }).find("'#'"),
            std::string::npos);
  EXPECT_NE(bad_input([&] { p.set("run.dump_dir", "a\nb", "--set"); }).find("control character"),
            std::string::npos);
  EXPECT_NE(bad_input([&] { p.set("run.dump_dir", "a\xff", "--set"); }).find("UTF-8"),
            std::string::npos);
  EXPECT_NE(bad_input([&] { p.set("run.dump_dir", "\xed\xa0\x80", "--set"); }).find("UTF-8"),
            std::string::npos);  // a surrogate
  EXPECT_NE(
      bad_input([&] { p.load_ini_text("[run]\ndump_dir = \xc0\xaf\n", "x.ini"); }).find("UTF-8"),
      std::string::npos);                                                // an overlong '/'
  p.set("run.dump_dir", "out/\xc3\xa9t\xc3\xa9 \xe2\x82\xac", "--set");  // "été €"
  std::ostringstream ini;
  p.write_ini(ini);
  Params again = make_params();
  again.load_ini_text(ini.str(), "config.ini");
  EXPECT_EQ(again.text("run.dump_dir"), "out/\xc3\xa9t\xc3\xa9 \xe2\x82\xac");
}

// Resource limits, up front: a run the machine cannot hold is refused before anything is built,
// saying what it needs and how to get there.
TEST(Hardening, ARunAboveTheMemoryItMayTakeIsRefusedUpFront) {
  Params p = make_params({"ep.world_size=64", "run.memory_MiB=1000"});
  const KernelDef& k = find_kernel("dispatch");
  ASSERT_TRUE(k.payload_bytes);
  const uint64_t payload = k.payload_bytes(p, 64);
  // 64 ranks x 128 tokens x 7168 x 2 B x (1 + 3 x 8): about 2.8 GiB.
  EXPECT_EQ(payload, 64ull * 128 * 7168 * 2 * 25);
  const std::string m = bad_input([&] { check_resources(p, 64, false, payload); });
  EXPECT_NE(m.find("this run needs about 4016 MiB of memory (64 ranks: 960 MiB for the cores' "
                   "stacks and local memories, 2800 MiB for the payload) but 1000 MiB are "
                   "available (run.memory_MiB); run it timing-only (--no-check --set "
                   "sim.payload=0)"),
            std::string::npos)
      << m;
  // Timing-only, the same ranks fit in 1.2 GiB.
  p.set("sim.payload", "0", "--set");
  p.set("run.memory_MiB", "1300", "--set");
  check_resources(p, 64, false, payload);
  // Without payload to drop, the advice is fewer ranks or cores.
  p.set("run.memory_MiB", "1000", "--set");
  EXPECT_NE(bad_input([&] { check_resources(p, 64, false, payload); }).find("fewer ranks (--ep)"),
            std::string::npos);
  // The machine's own figure (run.memory_MiB = 0) holds the default scenario.
  Params d = make_params({"ep.world_size=16"});
  check_resources(d, 16, false, k.payload_bytes(d, 16));
}

}  // namespace
}  // namespace ascend::test
