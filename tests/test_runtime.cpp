// The kernel API's runtime (api/runtime.h): API state belongs to the core whose program runs,
// starts afresh at every launch, and the API refuses to run outside a kernel.
#include "api/kernel_operator.h"
#include "tests/harness.h"
#include "tests/kernel_helpers.h"

using namespace AscendC;

namespace ascend::test {
namespace {

TEST(Runtime, TheApiOutsideAKernelIsAnInternalErrorNotACrash) {
  Bench b;
  try {
    GetBlockIdx();
    FAIL() << "GetBlockIdx outside a kernel returned";
  } catch (const SimError& e) {
    EXPECT_EQ(e.code, kExitInternal);
    EXPECT_NE(std::string(e.what()).find("outside a running kernel"), std::string::npos);
  }
}

TEST(Runtime, EachCoreSeesItsOwnStateWhileTheyInterleave) {
  Bench b;
  const int cores = 4;
  std::vector<int> seen(cores, -1);
  std::vector<uint32_t> first_ids(cores, 0);
  b.run(cores, [&] {
    TPipe pipe;  // one TPipe per core: a shared flag would make the second core's TPipe fault
    TQue<TPosition::VECIN, 2> q;
    pipe.InitBuffer(q, 2, 1024);
    int me = static_cast<int>(GetBlockIdx());
    SimStall(100 * (cores - me));  // the cores resume in another order than they started
    seen[me] = static_cast<int>(GetBlockIdx());
    first_ids[me] = detail::state().next_queue_event;
  });
  for (int c = 0; c < cores; ++c) {
    EXPECT_EQ(seen[c], c);
    EXPECT_EQ(first_ids[c], model::kQueueEventBase + 2);  // each core's own queue ids
  }
}

TEST(Runtime, ALaunchStartsFromAFreshApiState) {
  Bench b;
  uint32_t ids_second = 0;
  b.run(1, [] {
    TPipe pipe;
    TQue<TPosition::VECIN, 2> q;
    pipe.InitBuffer(q, 2, 1024);
    PayloadScope scope(64);
  });
  b.run(1, [&] {
    EXPECT_EQ(detail::state().payload_prefix, 0u);
    EXPECT_FALSE(detail::state().pipe_active);
    TPipe pipe;  // would be "a second TPipe" if the first launch's state leaked
    TQue<TPosition::VECIN, 2> q;
    pipe.InitBuffer(q, 2, 1024);
    ids_second = detail::state().next_queue_event;
  });
  EXPECT_EQ(ids_second, model::kQueueEventBase + 2);
}

TEST(Runtime, SimStallHoldsTheScalarForExactlyItsCycles) {
  Bench b;
  uint64_t t0 = 0, t1 = 0;
  b.run(1, [&] {
    t0 = SimNowPs();
    SimStall(1000);
    t1 = SimNowPs();
  });
  EXPECT_EQ(t1 - t0, b.timing().clock.cycles(1000));
}

}  // namespace
}  // namespace ascend::test
