// The vector unit's mask register and the level-0 forms (api/vector_level0.h), compare and
// select, the per-repeat and per-block reductions, Copy with CopyRepeatParams and Transpose:
// exact results on hand-worked data, each with a mask or stride that a form ignoring it would
// get wrong.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "api/kernel_operator.h"
#include "tests/harness.h"
#include "tests/kernel_helpers.h"

using namespace AscendC;
using ascend::test::Bench;
using ascend::test::Order;
using ascend::test::ub_tensor;

namespace {

using Bytes = std::vector<uint8_t>;
template <class T>
Bytes bytes_of(const std::vector<T>& v) {
  Bytes b(v.size() * sizeof(T));
  std::memcpy(b.data(), v.data(), b.size());
  b.resize((b.size() + 31) / 32 * 32);
  return b;
}
template <class T>
std::vector<T> as(const Bytes& b, size_t n) {
  std::vector<T> v(n);
  std::memcpy(v.data(), b.data(), n * sizeof(T));
  return v;
}

// Loads each buffer into a UB tensor of its own, runs body on them, returns their contents.
std::vector<Bytes> run_ub(
    const std::vector<Bytes>& bufs,
    const std::function<void(const std::vector<LocalTensor<uint8_t>>&)>& body) {
  Bench b;
  std::vector<uint64_t> gm;
  for (const Bytes& v : bufs) {
    gm.push_back(b.alloc(v.size()));
    b.sim().write(gm.back(), v.data(), v.size());
  }
  b.run(1, [&] {
    TPipe pipe;
    std::vector<LocalTensor<uint8_t>> t;
    for (size_t k = 0; k < bufs.size(); ++k) {
      t.push_back(ub_tensor<uint8_t>(pipe, static_cast<uint32_t>(bufs[k].size())));
      DataCopy(t[k], ascend::test::global<uint8_t>(gm[k], bufs[k].size()),
               static_cast<uint32_t>(bufs[k].size()));
    }
    Order<HardEvent::MTE2_V>();
    body(t);
    Order<HardEvent::V_MTE3>();
    for (size_t k = 0; k < bufs.size(); ++k)
      DataCopy(ascend::test::global<uint8_t>(gm[k], bufs[k].size()), t[k],
               static_cast<uint32_t>(bufs[k].size()));
  });
  std::vector<Bytes> out;
  for (size_t k = 0; k < bufs.size(); ++k) {
    out.emplace_back(bufs[k].size());
    b.sim().read(gm[k], out.back().data(), out.back().size());
  }
  return out;
}

std::vector<float> ramp(size_t n, float from = 1.0f) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = from + static_cast<float>(i);
  return v;
}

}  // namespace

// Bit mask {elements 0, 1, 3}, 2 repeats; dst blocks 2 apart and repeats 16 blocks apart, src0
// repeats 8 blocks apart, src1 repeat stride 0 (both repeats read src1's first blocks).
TEST(VectorLevel0, AddBitMaskWithBlockAndRepeatStrides) {
  const std::vector<float> a = ramp(128), b = ramp(64, 1000.0f);
  const std::vector<float> d(256, -1.0f);
  auto out = run_ub({bytes_of(d), bytes_of(a), bytes_of(b)}, [](const auto& t) {
    const uint64_t mask[2] = {0b1011, 0};
    Add(t[0].template ReinterpretCast<float>(), t[1].template ReinterpretCast<float>(),
        t[2].template ReinterpretCast<float>(), mask, 2, BinaryRepeatParams(2, 1, 1, 16, 8, 0));
  });
  std::vector<float> want(256, -1.0f);
  for (int r = 0; r < 2; ++r)
    for (int e : {0, 1, 3}) want[r * 128 + e] = a[r * 64 + e] + b[e];
  EXPECT_EQ(as<float>(out[0], 256), want);
}

// A count mask of 10 with the dst block stride 2: elements 8 and 9 (block 1) land in block 2.
TEST(VectorLevel0, MulCountMaskHonoursTheDstBlockStride) {
  const std::vector<float> a = ramp(64), b(64, 2.0f), d(64, 0.0f);
  auto out = run_ub({bytes_of(d), bytes_of(a), bytes_of(b)}, [](const auto& t) {
    Mul(t[0].template ReinterpretCast<float>(), t[1].template ReinterpretCast<float>(),
        t[2].template ReinterpretCast<float>(), 10, 1, BinaryRepeatParams(2, 1, 1, 8, 8, 8));
  });
  std::vector<float> want(64, 0.0f);
  for (int i = 0; i < 8; ++i) want[i] = 2.0f * a[i];
  want[16] = 2.0f * a[8];
  want[17] = 2.0f * a[9];
  EXPECT_EQ(as<float>(out[0], 64), want);
}

// Counter mode: SetVectorMask counts 70 elements of the instruction, so 2 repeats (64 + 6)
// whatever repeatTimes says; then normal mode with a bit mask from SetVectorMask (isSetMask
// false), then ResetMask.
TEST(VectorLevel0, CounterModeAndTheMaskRegister) {
  const std::vector<float> x(128, 1.0f);
  auto out = run_ub({bytes_of(x), bytes_of(x), bytes_of(x)}, [](const auto& t) {
    const auto f0 = t[0].template ReinterpretCast<float>();
    const auto f1 = t[1].template ReinterpretCast<float>();
    const auto f2 = t[2].template ReinterpretCast<float>();
    SetMaskCount();
    SetVectorMask<float>(0, 70);
    Adds<float, false>(f0, f0, 1.0f, MASK_PLACEHOLDER, 1, UnaryRepeatParams{});
    SetMaskNorm();
    SetVectorMask<float>(0, 0x8000000000000001ull);  // elements 0 and 63 of each repeat
    Adds<float, false>(f1, f1, 1.0f, MASK_PLACEHOLDER, 2, UnaryRepeatParams{});
    ResetMask();
    Adds<float, false>(f2, f2, 1.0f, MASK_PLACEHOLDER, 1, UnaryRepeatParams{});
  });
  std::vector<float> w0(128, 1.0f), w1(128, 1.0f), w2(128, 1.0f);
  for (int i = 0; i < 70; ++i) w0[i] = 2.0f;
  for (int i : {0, 63, 64, 127}) w1[i] = 2.0f;
  for (int i = 0; i < 64; ++i) w2[i] = 2.0f;
  EXPECT_EQ(as<float>(out[0], 128), w0);
  EXPECT_EQ(as<float>(out[1], 128), w1);
  EXPECT_EQ(as<float>(out[2], 128), w2);
}

// A call with isSetMask (the default) sets the register: a later isSetMask = false call uses it.
TEST(VectorLevel0, AnIsSetMaskCallLeavesItsMaskInTheRegister) {
  const std::vector<uint16_t> x(128, 0x00F0);
  auto out = run_ub({bytes_of(x), bytes_of(x)}, [](const auto& t) {
    const auto a = t[0].template ReinterpretCast<uint16_t>();
    const auto b = t[1].template ReinterpretCast<uint16_t>();
    Not(a, a, 3, 1, UnaryRepeatParams{});
    Not<uint16_t, false>(b, b, MASK_PLACEHOLDER, 1, UnaryRepeatParams{});
  });
  std::vector<uint16_t> want(128, 0x00F0);
  for (int i = 0; i < 3; ++i) want[i] = 0xFF0F;
  EXPECT_EQ(as<uint16_t>(out[0], 128), want);
  EXPECT_EQ(as<uint16_t>(out[1], 128), want);
}

TEST(VectorLevel0, AndOrNotCountForms) {
  std::vector<uint16_t> a(16), b(16);
  for (int i = 0; i < 16; ++i) {
    a[i] = static_cast<uint16_t>(0x0F0F + i);
    b[i] = 0x00FF;
  }
  const std::vector<uint16_t> z(16, 0);
  auto out =
      run_ub({bytes_of(a), bytes_of(b), bytes_of(z), bytes_of(z), bytes_of(z)}, [](const auto& t) {
        const auto x = t[0].template ReinterpretCast<uint16_t>();
        const auto y = t[1].template ReinterpretCast<uint16_t>();
        And(t[2].template ReinterpretCast<uint16_t>(), x, y, 16);
        Or(t[3].template ReinterpretCast<uint16_t>(), x, y, 16);
        Not(t[4].template ReinterpretCast<uint16_t>(), x, 16);
      });
  for (int i = 0; i < 16; ++i) {
    EXPECT_EQ(as<uint16_t>(out[2], 16)[i], static_cast<uint16_t>(a[i] & 0x00FF));
    EXPECT_EQ(as<uint16_t>(out[3], 16)[i], static_cast<uint16_t>(a[i] | 0x00FF));
    EXPECT_EQ(as<uint16_t>(out[4], 16)[i], static_cast<uint16_t>(~a[i]));
  }
}

// 64 floats: src0 = 2 3 5 7 11 13 17 19, src1 = 2 4 6 8 10 12 14 16, repeated (the API
// reference's example): LT gives 0b01111110 (126) per 8 elements... checked per mode.
TEST(VectorLevel0, CompareCountFormPacksBitsLsbFirst) {
  const float p[8] = {2, 3, 5, 7, 11, 13, 17, 19}, q[8] = {2, 4, 6, 8, 10, 12, 14, 16};
  std::vector<float> a(64), b(64);
  for (int i = 0; i < 64; ++i) {
    a[i] = p[i % 8];
    b[i] = q[i % 8];
  }
  const std::vector<uint8_t> z(32, 0xAA);
  auto out = run_ub({bytes_of(a), bytes_of(b), z, z, z, z}, [](const auto& t) {
    const auto x = t[0].template ReinterpretCast<float>();
    const auto y = t[1].template ReinterpretCast<float>();
    Compare(t[2], x, y, CMPMODE::GT, 64);
    Compare(t[3], x, y, CMPMODE::LE, 64);
    Compare(t[4], x, y, CMPMODE::NE, 64);
    Compares(t[5], x, 7.0f, CMPMODE::GE, 64);
  });
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(out[2][i], 0xF0) << i;
    EXPECT_EQ(out[3][i], 0x0F) << i;
    EXPECT_EQ(out[4][i], 0xFE) << i;
    EXPECT_EQ(out[5][i], 0xF8) << i;  // 7 11 13 17 19 >= 7
  }
  for (int i = 8; i < 32; ++i) EXPECT_EQ(out[2][i], 0xAA) << i;  // beyond 64 bits: untouched
}

// Level-0 Compare with src0's blocks 2 apart: element e of the repeat reads src0 block 2 x
// (e / 8); src1 contiguous. A form ignoring the stride would compare a[8..15] at bits 8-15.
TEST(VectorLevel0, CompareLevel0FollowsTheSourceStrides) {
  std::vector<float> a(128), b(64, 0.0f);
  for (int i = 0; i < 128; ++i) a[i] = (i / 8) % 2 ? -1.0f : 1.0f;  // odd blocks negative
  const std::vector<uint8_t> z(32, 0);
  auto out = run_ub({bytes_of(a), bytes_of(b), z}, [](const auto& t) {
    const uint64_t mask[2] = {~0ull, 0};
    Compare(t[2], t[0].template ReinterpretCast<float>(), t[1].template ReinterpretCast<float>(),
            CMPMODE::GT, mask, 1, BinaryRepeatParams(1, 2, 1, 8, 16, 8));
  });
  for (int i = 0; i < 8; ++i) EXPECT_EQ(out[2][i], 0xFF) << i;
}

// Compare into CMPMASK (mask 4: elements 4.. give 0 bits), GetCmpMask, then Select mode 0 from
// the register; Select modes 1 and 2 from a selMask tensor, mode 2 over two repeats.
TEST(VectorLevel0, CompareIntoTheRegisterThenSelect) {
  const std::vector<float> a = ramp(128), b(128, 4.5f), d(128, 0.0f);
  std::vector<uint8_t> sel(32, 0);
  sel[0] = 0b00000101;  // repeat 0: elements 0, 2
  sel[8] = 0b10000000;  // repeat 1: element 7 (element 71)
  auto out = run_ub({bytes_of(a), bytes_of(b), std::vector<uint8_t>(32, 0xEE), bytes_of(d),
                     bytes_of(d), bytes_of(d), sel},
                    [](const auto& t) {
                      const auto x = t[0].template ReinterpretCast<float>();
                      const auto y = t[1].template ReinterpretCast<float>();
                      Compare(x, y, CMPMODE::LT, 6, BinaryRepeatParams{});  // 1..6 < 4.5
                      GetCmpMask(t[2]);
                      SetVectorMask<float>(0, ~0ull);
                      Select(t[3].template ReinterpretCast<float>(), x, y, 1, BinaryRepeatParams{});
                      ResetMask();
                      Select(t[4].template ReinterpretCast<float>(), t[6], x, -1.0f,
                             SELMODE::VSEL_TENSOR_SCALAR_MODE, 64);
                      Select(t[5].template ReinterpretCast<float>(), t[6], x, y,
                             SELMODE::VSEL_TENSOR_TENSOR_MODE, 128);
                    });
  EXPECT_EQ(out[2][0], 0x0F);  // elements 0-3 (1, 2, 3, 4 < 4.5)
  for (int i = 1; i < 16; ++i) EXPECT_EQ(out[2][i], 0) << i;
  std::vector<float> w3(128, 0.0f), w4(128, 0.0f), w5(128);
  for (int i = 0; i < 64; ++i) w3[i] = i < 4 ? a[i] : 4.5f;
  for (int i = 0; i < 64; ++i) w4[i] = i == 0 || i == 2 ? a[i] : -1.0f;
  for (int i = 0; i < 128; ++i) w5[i] = i == 0 || i == 2 || i == 71 ? a[i] : 4.5f;
  EXPECT_EQ(as<float>(out[3], 128), w3);
  EXPECT_EQ(as<float>(out[4], 128), w4);
  EXPECT_EQ(as<float>(out[5], 128), w5);
}

// Two repeats of mask 20 (the first 20 floats of each), the second repeat 16 blocks on: max with
// its index, [value, index] pairs one pair apart; the minimum's index alone.
TEST(VectorLevel0, WholeReduceMaxMinWithIndexAndOrder) {
  std::vector<float> x(192, 100.0f);  // beyond the mask: larger than any value inside it
  for (int i = 0; i < 20; ++i) {
    x[i] = static_cast<float>((i * 7) % 20);        // max 19 at i = 3, min 0 at i = 0
    x[128 + i] = static_cast<float>((i * 3) % 20);  // max 19 at i = 13, min 0 at i = 0
  }
  x[128 + 0] = 5.0f;  // repeat 1's min: 1 at i = 7
  const std::vector<float> d(32, -1.0f);
  auto out = run_ub({bytes_of(x), bytes_of(d), bytes_of(d), bytes_of(d)}, [](const auto& t) {
    const auto s = t[0].template ReinterpretCast<float>();
    WholeReduceMax(t[1].template ReinterpretCast<float>(), s, 20, 2, 1, 1, 16);
    WholeReduceMin(t[2].template ReinterpretCast<float>(), s, 20, 2, 1, 1, 16,
                   ReduceOrder::ORDER_ONLY_INDEX);
    WholeReduceSum(t[3].template ReinterpretCast<float>(), s, 20, 2, 2, 1, 16);
  });
  const auto mx = as<float>(out[1], 4);
  EXPECT_EQ(mx[0], 19.0f);
  EXPECT_EQ(as<uint32_t>(out[1], 4)[1], 17u);
  EXPECT_EQ(mx[2], 19.0f);
  EXPECT_EQ(as<uint32_t>(out[1], 4)[3], 13u);
  EXPECT_EQ(as<uint32_t>(out[2], 2)[0], 0u);
  EXPECT_EQ(as<uint32_t>(out[2], 2)[1], 7u);
  const auto sm = as<float>(out[3], 3);
  EXPECT_EQ(sm[0], 190.0f);  // 0 + 1 + ... + 19
  EXPECT_EQ(sm[1], -1.0f);   // dstRepStride 2: the second sum goes to element 2
  EXPECT_EQ(sm[2], 190.0f - 0.0f + 5.0f);
}

// ReduceRepeat's half form: [value, index] with the index as 16 bits.
TEST(VectorLevel0, ReduceRepeatHalfIndexIsSixteenBits) {
  std::vector<half> x(128);
  for (int i = 0; i < 128; ++i) x[i] = half(static_cast<float>(i == 100 ? 500 : i % 50));
  const std::vector<half> d(16, half(0.0f));
  auto out = run_ub({bytes_of(x), bytes_of(d)}, [](const auto& t) {
    ReduceRepeat<ReduceType::MAX, half>(t[1].template ReinterpretCast<half>(),
                                        t[0].template ReinterpretCast<half>(), 128, 1, 1, 1, 8);
  });
  EXPECT_EQ(static_cast<float>(as<half>(out[1], 2)[0]), 500.0f);
  EXPECT_EQ(as<uint16_t>(out[1], 2)[1], 100u);
}

// Counter mode over 20 floats: ReduceDataBlock sums blocks of 8, 8 and 4; BlockReduceMin with a
// bit mask {elements 1, 9} per repeat.
TEST(VectorLevel0, BlockReductionsInCounterAndBitMode) {
  const std::vector<float> x = ramp(64);
  const std::vector<float> d(16, -1.0f);
  auto out = run_ub({bytes_of(x), bytes_of(d), bytes_of(d)}, [](const auto& t) {
    const auto s = t[0].template ReinterpretCast<float>();
    SetMaskCount();
    SetVectorMask<float>(0, 20);
    ReduceDataBlock<ReduceType::SUM, float, float, false>(t[1].template ReinterpretCast<float>(), s,
                                                          MASK_PLACEHOLDER, 1, 1, 1, 8);
    SetMaskNorm();
    ResetMask();
    const uint64_t mask[2] = {(1ull << 1) | (1ull << 9), 0};
    BlockReduceMin(t[2].template ReinterpretCast<float>(), s, 1, mask, 1, 1, 8);
  });
  const auto s = as<float>(out[1], 4);
  EXPECT_EQ(s[0], 36.0f);   // 1..8
  EXPECT_EQ(s[1], 100.0f);  // 9..16
  EXPECT_EQ(s[2], 74.0f);   // 17..20
  EXPECT_EQ(s[3], -1.0f);
  const auto m = as<float>(out[2], 3);
  EXPECT_EQ(m[0], 2.0f);
  EXPECT_EQ(m[1], 10.0f);
  EXPECT_EQ(m[2], -1.0f);  // block 2 has no selected element: untouched
}

// Copy with the source's blocks 2 apart and the destination's repeats 16 blocks apart.
TEST(VectorLevel0, CopyWithCopyRepeatParams) {
  const std::vector<float> x = ramp(256);
  const std::vector<float> d(256, 0.0f);
  auto out = run_ub({bytes_of(x), bytes_of(d)}, [](const auto& t) {
    Copy(t[1].template ReinterpretCast<float>(), t[0].template ReinterpretCast<float>(), 16, 2,
         CopyRepeatParams(1, 2, 16, 8));
  });
  std::vector<float> want(256, 0.0f);
  for (int r = 0; r < 2; ++r)
    for (int e = 0; e < 16; ++e) want[r * 128 + e] = x[r * 64 + (e / 8) * 16 + e % 8];
  EXPECT_EQ(as<float>(out[1], 256), want);
}

TEST(VectorLevel0, TransposeSixteenBySixteen) {
  std::vector<uint16_t> x(256);
  for (int i = 0; i < 256; ++i) x[i] = static_cast<uint16_t>(i);
  auto out = run_ub({bytes_of(x), bytes_of(std::vector<uint16_t>(256, 0))}, [](const auto& t) {
    Transpose(t[1].template ReinterpretCast<uint16_t>(), t[0].template ReinterpretCast<uint16_t>());
  });
  const auto y = as<uint16_t>(out[1], 256);
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) EXPECT_EQ(y[j * 16 + i], i * 16 + j);
}

// A level-0 instruction is timed by the repeats it runs: counter mode's 70 floats are 2 repeats,
// as a count-form Adds of 70 floats; 3 would take longer.
TEST(VectorLevel0, CounterModeIsTimedByItsRepeats) {
  Bench b;
  auto span = [&b](int form) {
    return b
        .run(1,
             [form] {
               TPipe pipe;
               LocalTensor<float> t = ub_tensor<float>(pipe, 256);
               if (form == 0) {
                 SetMaskCount();
                 SetVectorMask<float>(0, 70);
                 Adds<float, false>(t, t, 1.0f, MASK_PLACEHOLDER, 1, UnaryRepeatParams{});
                 SetMaskNorm();
               } else {
                 Adds(t, t, 1.0f, form == 1 ? 70 : 160);
               }
             })
        .span;
  };
  const auto counter = span(0), count70 = span(1), count160 = span(2);
  EXPECT_EQ(counter, count70);
  EXPECT_LT(count70, count160);
}

TEST(VectorLevel0, MaskOutsideTheRepeatIsAFault) {
  Bench b;
  const ascend::SimError e = b.run_expecting_error(1, [] {
    TPipe pipe;
    LocalTensor<float> f = ub_tensor<float>(pipe, 64);
    Add(f, f, f, 65, 1, BinaryRepeatParams{});
  });
  EXPECT_NE(std::string(e.what()).find("Add: mask 65 outside [1, 64]"), std::string::npos)
      << e.what();
}

// Level-0 ReduceMax over 2 repeats of mask 8, the second repeat 16 blocks on: the index counts
// 64 per repeat (the maximum 50 at element 3 of repeat 1 is index 67); ReduceSum's level-0 form
// over the same elements, and GetReduceRepeatSumSpr after it.
TEST(VectorLevel0, ReduceMaxSumLevel0WithIndexAcrossRepeats) {
  std::vector<float> x(192, 1000.0f);  // outside the mask: larger than any value inside
  for (int i = 0; i < 8; ++i) {
    x[i] = static_cast<float>(i);
    x[128 + i] = static_cast<float>(10 + i);
  }
  x[128 + 3] = 50.0f;
  const std::vector<float> d(8, -1.0f);
  float spr = 0;
  auto out = run_ub({bytes_of(x), bytes_of(d), bytes_of(d), bytes_of(d)}, [&](const auto& t) {
    const auto s = t[0].template ReinterpretCast<float>();
    const auto w = t[3].template ReinterpretCast<float>();
    ReduceMax(t[1].template ReinterpretCast<float>(), s, w, 8, 2, 16, true);
    ReduceSum(t[2].template ReinterpretCast<float>(), s, w, 8, 2, 16);
    Order<HardEvent::V_S>();
    spr = GetReduceRepeatSumSpr<float>();
  });
  EXPECT_EQ(as<float>(out[1], 2)[0], 50.0f);
  EXPECT_EQ(as<uint32_t>(out[1], 2)[1], 67u);
  // 0 + ... + 7 = 28; 10 + ... + 17 = 108, with 13 replaced by 50: 145
  EXPECT_EQ(as<float>(out[2], 1)[0], 173.0f);
  EXPECT_EQ(spr, 173.0f);
}

// ReducePairElem: mask 6 sums pairs (0,1), (2,3), (4,5) of each repeat; 2 repeats whose results
// go 32 apart (dstRepStride 1, a repeat's 32 float results).
TEST(VectorLevel0, ReducePairElemSumsAdjacentPairs) {
  const std::vector<float> x = ramp(128);
  const std::vector<float> d(64, -1.0f);
  auto out = run_ub({bytes_of(x), bytes_of(d)}, [](const auto& t) {
    ReducePairElem<ReduceType::SUM, float>(t[1].template ReinterpretCast<float>(),
                                           t[0].template ReinterpretCast<float>(), 6, 2, 1, 1, 8);
  });
  std::vector<float> want(64, -1.0f);
  for (int r = 0; r < 2; ++r)
    for (int k = 0; k < 3; ++k) want[r * 32 + k] = x[r * 64 + 2 * k] + x[r * 64 + 2 * k + 1];
  EXPECT_EQ(as<float>(out[1], 64), want);
}

TEST(VectorLevel0, AddReluAxpyAndCreateVecIndexInt16) {
  const std::vector<float> a = {1, -5, 2, -1, 0, 3, -2, 4}, b = {1, 1, -3, -1, 0, 1, 1, 1};
  auto out = run_ub({bytes_of(a), bytes_of(b), bytes_of(b), bytes_of(std::vector<int16_t>(16, 0))},
                    [](const auto& t) {
                      const auto x = t[0].template ReinterpretCast<float>();
                      const auto y = t[1].template ReinterpretCast<float>();
                      AddRelu(y, x, y, 8);
                      Axpy<float, float>(t[2].template ReinterpretCast<float>(), x, 2.0f, 8);
                      CreateVecIndex(t[3].template ReinterpretCast<int16_t>(), int16_t{-3}, 16);
                    });
  const std::vector<float> relu = {2, 0, 0, 0, 0, 4, 0, 5};
  EXPECT_EQ(as<float>(out[1], 8), relu);
  std::vector<float> axpy(8);
  for (int i = 0; i < 8; ++i) axpy[i] = 2.0f * a[i] + b[i];
  EXPECT_EQ(as<float>(out[2], 8), axpy);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(as<int16_t>(out[3], 16)[i], i - 3);
}

// Level-0 Duplicate with a bit mask {1, 62}, blocks 2 apart, two repeats 16 blocks apart.
TEST(VectorLevel0, DuplicateBitMaskWithStrides) {
  const std::vector<float> d(256, 0.0f);
  auto out = run_ub({bytes_of(d)}, [](const auto& t) {
    const uint64_t mask[2] = {(1ull << 1) | (1ull << 62), 0};
    Duplicate(t[0].template ReinterpretCast<float>(), 7.0f, mask, 2, 2, 16);
  });
  std::vector<float> want(256, 0.0f);
  for (int r = 0; r < 2; ++r) {
    want[r * 128 + 1] = 7.0f;
    want[r * 128 + 7 * 16 + 6] = 7.0f;  // element 62: block 7 (at block 14), place 6
  }
  EXPECT_EQ(as<float>(out[0], 256), want);
}

// Gatherb: block j of the repeat from src byte offset[j]; dst blocks 2 apart.
TEST(VectorLevel0, GatherbCopiesBlocksByByteOffset) {
  std::vector<uint16_t> src(128);
  for (int i = 0; i < 128; ++i) src[i] = static_cast<uint16_t>(i);
  const std::vector<uint32_t> off = {96, 0, 32, 64, 96, 0, 32, 64};  // blocks 3 0 1 2 3 0 1 2
  auto out =
      run_ub({bytes_of(src), bytes_of(off), bytes_of(std::vector<uint16_t>(256, 0xFFFF))},
             [](const auto& t) {
               Gatherb(t[2].template ReinterpretCast<uint16_t>(),
                       t[0].template ReinterpretCast<uint16_t>(),
                       t[1].template ReinterpretCast<uint32_t>(), 1, GatherRepeatParams(2, 8));
             });
  const auto d = as<uint16_t>(out[2], 256);
  for (int j = 0; j < 8; ++j)
    for (int i = 0; i < 16; ++i) {
      EXPECT_EQ(d[j * 32 + i], off[j] / 2 + i) << j << " " << i;
      EXPECT_EQ(d[j * 32 + 16 + i], 0xFFFF) << j << " " << i;  // the skipped blocks
    }
}

// MrgSort with MrgSort4Info: two repeats, each merging 4 lists of 4 proposals (score, index),
// 32 B each, that follow one another; repeat 1 reads and writes 16 proposals on.
TEST(VectorLevel0, MrgSort4InfoMergesRepeatTimesGroups) {
  std::vector<float> src;
  for (int r = 0; r < 2; ++r)
    for (int l = 0; l < 4; ++l)
      for (int k = 0; k < 4; ++k) {
        src.push_back(static_cast<float>(100 * r + 40 - 10 * k - l));  // list l: 40-l, 30-l, ...
        const uint32_t idx = static_cast<uint32_t>(100 * r + 10 * l + k);
        float f;
        std::memcpy(&f, &idx, 4);
        src.push_back(f);
      }
  auto out = run_ub({bytes_of(src), bytes_of(std::vector<float>(64, 0.0f))}, [](const auto& t) {
    const auto s = t[0].template ReinterpretCast<float>();
    MrgSort4Info p;
    for (int i = 0; i < 4; ++i) p.elementLengths[i] = 4;
    p.validBit = 0b1111;
    p.repeatTimes = 2;
    MrgSortSrcList<float> l;
    l.src1 = s[0];
    l.src2 = s[8];
    l.src3 = s[16];
    l.src4 = s[24];
    MrgSort(t[1].template ReinterpretCast<float>(), l, p);
  });
  const auto d = as<float>(out[1], 64);
  const auto bits = as<uint32_t>(out[1], 64);
  for (int r = 0; r < 2; ++r)
    for (int k = 0; k < 4; ++k)
      for (int l = 0; l < 4; ++l) {
        const int i = 4 * k + l;  // descending: 40 39 38 37 30 29 ...
        EXPECT_EQ(d[32 * r + 2 * i], static_cast<float>(100 * r + 40 - 10 * k - l)) << r << i;
        EXPECT_EQ(bits[32 * r + 2 * i + 1], static_cast<uint32_t>(100 * r + 10 * l + k)) << r << i;
      }
}

// Static tensors: LocalTensor(pos, addr, tileSize) and LocalMemAllocator place tensors in the
// UB without a TPipe; DataCopy UB->UB copies through the vector pipe.
TEST(VectorLevel0, StaticTensorsAndDataCopyInsideUb) {
  Bench b;
  const uint64_t in = b.alloc(256), out = b.alloc(256);
  std::vector<int32_t> x(64);
  for (int i = 0; i < 64; ++i) x[i] = i * 3;
  b.sim().write(in, x.data(), 256);
  b.run(1, [&] {
    LocalTensor<int32_t> a(TPosition::VECCALC, 1024, 64);
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<int32_t> c = ub.Alloc<int32_t, 64>();
    EXPECT_EQ(ub.GetCurAddr(), 256u);
    DataCopy(a, ascend::test::global<int32_t>(in, 64), 64);
    Order<HardEvent::MTE2_V>();
    DataCopy(c, a, 64);
    Order<HardEvent::V_MTE3>();
    DataCopy(ascend::test::global<int32_t>(out, 64), c, 64);
  });
  std::vector<int32_t> y(64);
  b.sim().read(out, y.data(), 256);
  EXPECT_EQ(y, x);
}
