// Pad and UnPad (api/pad.h) with their host tiling (sdk/include/tiling/pad_tiling_host.h):
// a hand-worked 4 x 7 half tensor, padded to rows of 16 with the value 3 and back.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "api/kernel_operator.h"
#include "sdk/include/tiling/pad_tiling_host.h"
#include "tests/harness.h"
#include "tests/kernel_helpers.h"

namespace {

using namespace AscendC;
using ascend::test::Bench;
using ascend::test::global;
using ascend::test::Order;
using ascend::test::ub_tensor;

uint16_t bits_of(double v) {
  return cast_to<half>(v, RoundMode::CAST_RINT).bits;
}

TEST(ApiPad, PadsAFourBySevenHalfTensorToSixteenWithThreeAndUnPadsItBack) {
  constexpr uint32_t kRows = 4, kCols = 7, kWidth = 16;
  // Row r holds 10 r + c in its 7 valid elements and -1 in the 9 the padding replaces.
  std::vector<half> in(kRows * kWidth);
  for (uint32_t r = 0; r < kRows; ++r)
    for (uint32_t c = 0; c < kWidth; ++c)
      in[r * kWidth + c] = cast_to<half>(c < kCols ? 10.0 * r + c : -1.0, RoundMode::CAST_RINT);

  ::PadTiling pt;
  AscendC::PadTilingFunc(ge::Shape({kRows, kWidth}), ge::Shape({kRows, kCols}), 0, sizeof(half),
                         pt);
  EXPECT_EQ(pt.srcHeight, kRows);
  EXPECT_EQ(pt.srcOriWidth, kCols);
  EXPECT_EQ(pt.widthWithoutLastBlock, 0u);
  EXPECT_EQ(pt.blocksPerRow, 1u);
  EXPECT_EQ(pt.heightFractal, 0u);
  EXPECT_EQ(pt.heightFractalTail, kRows);
  optiling::UnPadTiling host;
  AscendC::UnPadTilingFunc(ge::Shape({kRows, kWidth}), 0, sizeof(half), host);
  ::UnPadTiling ut;
  host.SaveToBuffer(&ut, sizeof(ut));
  EXPECT_EQ(ut.srcHeight, kRows);
  EXPECT_EQ(ut.srcWidth, kWidth);

  Bench b;
  uint64_t xa = b.alloc(kRows * kWidth * 2), pa = b.alloc(kRows * kWidth * 2),
           ua = b.alloc(kRows * kWidth * 2);
  b.sim().write(xa, in.data(), in.size() * 2);
  auto& rec = b.run(1, [&] {
    TPipe pipe;
    LocalTensor<half> x = ub_tensor<half>(pipe, kRows * kWidth);
    LocalTensor<half> p = ub_tensor<half>(pipe, kRows * kWidth);
    LocalTensor<half> u = ub_tensor<half>(pipe, kRows * kWidth);
    DataCopy(x, global<half>(xa, kRows * kWidth), kRows * kWidth);
    Order<HardEvent::MTE2_V>();
    PadParams pp(0, kWidth - kCols, 3);
    Pad(p, x, pp, pt);
    PipeBarrier<PIPE_V>();
    UnPadParams up;
    up.rightPad = kWidth - kCols;
    UnPad<half>(u, p, up, ut);
    Order<HardEvent::V_MTE3>();
    DataCopy(global<half>(pa, kRows * kWidth), p, kRows * kWidth);
    DataCopy(global<half>(ua, kRows * kWidth), u, kRows * kWidth);
  });
  std::vector<half> padded(kRows * kWidth), unpadded(kRows * kWidth);
  b.sim().read(pa, padded.data(), padded.size() * 2);
  b.sim().read(ua, unpadded.data(), unpadded.size() * 2);
  for (uint32_t r = 0; r < kRows; ++r)
    for (uint32_t c = 0; c < kWidth; ++c)
      EXPECT_EQ(padded[r * kWidth + c].bits, bits_of(c < kCols ? 10.0 * r + c : 3.0))
          << "padded row " << r << " column " << c;
  for (uint32_t i = 0; i < kRows * kCols; ++i)
    EXPECT_EQ(unpadded[i].bits, bits_of(10.0 * (i / kCols) + i % kCols)) << "unpadded " << i;
  // A vector copy, one masked Duplicate and one GatherMask: the vector pipe was busy.
  EXPECT_GT(rec.pipe_busy_pct(0, 0, ascend::model::Lane::VECTOR), 0.0);
}

TEST(ApiPad, UnalignedRowsPaddedPastTheAlignedWidthAreAKernelFault) {
  ::PadTiling pt;
  AscendC::PadTilingFunc(ge::Shape({4, 20}), ge::Shape({4, 15}), 0, sizeof(half), pt);
  Bench b;
  ascend::SimError e = b.run_expecting_error(1, [&] {
    TPipe pipe;
    LocalTensor<half> x = ub_tensor<half>(pipe, 128), p = ub_tensor<half>(pipe, 128);
    PadParams pp(0, 13, 3);  // 20 + 13 columns in rows of 32
    Pad(p, x, pp, pt);
  });
  EXPECT_EQ(e.code, ascend::kExitKernelFault);
  EXPECT_NE(std::string(e.what()).find("exceeds the 32-B aligned width 32"), std::string::npos)
      << e.what();
}

}  // namespace
