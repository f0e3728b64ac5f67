// trace.json is streamed: the recorder's memory stays bounded however many slices a run makes,
// and the file is one valid Chrome trace.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "models/bandwidth_server.h"
#include "sim/trace.h"

namespace ascend::test {
namespace {

TEST(Trace, StreamsInBoundedChunksAndEndsAsOneValidTrace) {
  std::string path = "/tmp/ascend-trace-" + std::to_string(getpid()) + ".json";
  const int slices = 200000;  // about 20 MB of JSON: many chunks
  model::BandwidthServer port("die0.ub_egress", 196, 0);
  uint64_t events = 0;
  size_t peak = 0;
  {
    TraceRecorder t(path, nullptr);
    for (int i = 0; i < slices; ++i) {
      t.slice(i % 3, i % 4, model::Lane::MTE2, "DataCopy", 1000ull * i, 1000ull * i + 500, nullptr);
      if (i % 10 == 0) t.link(port, 1000ull * i, 1000ull * i + 700);
    }
    t.close();
    events = t.events();
    peak = t.peak_buffered_bytes();
  }
  EXPECT_LE(peak, TraceRecorder::kChunkBytes + 4096);
  EXPECT_GT(std::filesystem::file_size(path), 20 * TraceRecorder::kChunkBytes / 2);
  std::ifstream f(path);
  nlohmann::json j = nlohmann::json::parse(f);
  const auto& ev = j["traceEvents"];
  ASSERT_EQ(ev.size(), events);
  size_t x = 0, lanes = 0;
  for (const auto& e : ev) {
    if (e["ph"] == "X") ++x;
    if (e["name"] == "thread_name") ++lanes;
  }
  EXPECT_EQ(x, static_cast<size_t>(slices + slices / 10));
  EXPECT_EQ(lanes, 3u * 4u + 1u);  // each (die, core) lane seen once, and the port's
  std::filesystem::remove(path);
}

TEST(Trace, AnUnwritablePathIsBadInput) {
  try {
    TraceRecorder t("/nonexistent-dir/trace.json", nullptr);
    FAIL() << "no error";
  } catch (const SimError& e) {
    EXPECT_EQ(e.code, kExitBadInput);
  }
}

}  // namespace
}  // namespace ascend::test
