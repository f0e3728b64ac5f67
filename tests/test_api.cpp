// Tests of the Ascend C facade (api/kernel_operator.h): data movement, vector instructions,
// queues and scalar access compute real results, bit for bit, and misuse is a kernel fault.
// Every expected value is computed here independently of the facade: host IEEE arithmetic for
// fp32, wrap-around through uint32 for int32, hand-computed bit patterns for fp16/bf16.
// One Bench and one kernel run per test (SystemC elaborates once per process).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "api/kernel_operator.h"
#include "tests/harness.h"
#include "tests/kernel_helpers.h"

namespace {

using namespace AscendC;
using ascend::SimError;
using ascend::test::Bench;
using ascend::test::global;
using ascend::test::Order;
using ascend::test::ub_tensor;

constexpr RoundMode RINT = RoundMode::CAST_RINT, ROUND = RoundMode::CAST_ROUND,
                    TRUNC = RoundMode::CAST_TRUNC;

// ------------------------------------------------------------------ values

half H(uint16_t bits) {
  return half::from_bits(bits);
}
bfloat16_t BF(uint16_t bits) {
  return bfloat16_t::from_bits(bits);
}
float F(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}
template <class T>
uint64_t bits_of(T v) {
  uint64_t b = 0;
  std::memcpy(&b, &v, sizeof(T));
  return b;
}
// n elements whose every byte is `byte`.
template <class T>
std::vector<T> filled(size_t n, uint8_t byte) {
  unsigned char raw[sizeof(T)];
  std::memset(raw, byte, sizeof raw);
  T v;
  std::memcpy(&v, raw, sizeof v);
  return std::vector<T>(n, v);
}
// What an output element holds until an instruction writes it.
constexpr uint8_t kUntouchedByte = 0xEE;
template <class T>
std::vector<T> untouched(size_t n) {
  return filled<T>(n, kUntouchedByte);
}
const half kOldHalf = H(0xDEAD);  // a finite fp16 that no test computes

int32_t wrap(int64_t v) {
  return static_cast<int32_t>(static_cast<uint32_t>(v));
}

template <class T>
std::string show(T v) {
  std::ostringstream os;
  os << to_double(v) << " (0x" << std::hex << bits_of(v) << ")";
  return os.str();
}

// Element-wise bitwise equality: -0 differs from +0, a NaN equals only its own bits.
template <class T>
testing::AssertionResult SameBits(const std::vector<T>& got, const std::vector<T>& want) {
  if (got.size() != want.size())
    return testing::AssertionFailure() << got.size() << " elements, want " << want.size();
  for (size_t i = 0; i < got.size(); ++i)
    if (bits_of(got[i]) != bits_of(want[i]))
      return testing::AssertionFailure()
             << "element " << i << " is " << show(got[i]) << ", want " << show(want[i]);
  return testing::AssertionSuccess();
}

// ------------------------------------------------------------------ GM buffers (host side)

// Elements of T per whole number of 32-B blocks holding n elements.
template <class T>
uint32_t padded(size_t n) {
  constexpr size_t per_block = 32 / sizeof(T);
  return static_cast<uint32_t>((n + per_block - 1) / per_block * per_block);
}

template <class T>
struct Gm {
  uint64_t addr;
  uint32_t count;  // a whole number of 32-B blocks
};

// Allocates GM for v, zero-padded to whole 32-B blocks, and writes it.
template <class T>
Gm<T> upload(Bench& b, std::vector<T> v) {
  v.resize(padded<T>(v.size()));
  uint64_t addr = b.alloc(v.size() * sizeof(T));
  b.sim().write(addr, v.data(), v.size() * sizeof(T));
  return {addr, static_cast<uint32_t>(v.size())};
}

template <class T>
std::vector<T> download(Bench& b, const Gm<T>& g, size_t n) {
  std::vector<T> v(n);
  b.sim().read(g.addr, v.data(), n * sizeof(T));
  return v;
}

// ------------------------------------------------------------------ kernel-side helpers

template <class T>
GlobalTensor<T> global(const Gm<T>& g) {
  return global<T>(g.addr, g.count);
}

// GM -> a new UB tensor (MTE2), and UB -> GM (MTE3).
template <class T>
LocalTensor<T> load(TPipe& pipe, const Gm<T>& g) {
  LocalTensor<T> t = ub_tensor<T>(pipe, g.count);
  DataCopy(t, global(g), g.count);
  return t;
}
template <class T>
void store(const Gm<T>& g, const LocalTensor<T>& t) {
  DataCopy(global(g), t, g.count);
}

// ------------------------------------------------------------------ vector-op bench

template <class D, class S>
using VecOp = std::function<void(const LocalTensor<D>& dst, const std::vector<LocalTensor<S>>& in)>;

// Loads `inputs` into UB, gives each op its own dst tensor holding `dst_init`, runs the ops in
// one kernel and returns every dst. Elements an op does not write keep their dst_init value.
template <class D, class S = D>
std::vector<std::vector<D>> run_vector_ops(const std::vector<std::vector<S>>& inputs,
                                           const std::vector<D>& dst_init,
                                           const std::vector<VecOp<D, S>>& ops) {
  Bench b;
  std::vector<Gm<S>> in;
  for (const auto& v : inputs) in.push_back(upload(b, v));
  std::vector<Gm<D>> out;
  for (size_t k = 0; k < ops.size(); ++k) out.push_back(upload(b, dst_init));
  b.run(1, [&] {
    TPipe pipe;
    std::vector<LocalTensor<S>> x;
    for (const auto& g : in) x.push_back(load(pipe, g));
    std::vector<LocalTensor<D>> y;
    for (const auto& g : out) y.push_back(load(pipe, g));
    Order<HardEvent::MTE2_V>();
    for (size_t k = 0; k < ops.size(); ++k) ops[k](y[k], x);
    Order<HardEvent::V_MTE3>();
    for (size_t k = 0; k < ops.size(); ++k) store(out[k], y[k]);
  });
  std::vector<std::vector<D>> r;
  for (const auto& g : out) r.push_back(download(b, g, dst_init.size()));
  return r;
}

// An element-wise binary instruction and the host function it must match.
template <class T>
struct BinaryCase {
  const char* name;
  VecOp<T, T> device;
  std::function<T(T, T)> host;
};

template <class T>
void check_binary_cases(const std::vector<T>& a, const std::vector<T>& b,
                        const std::vector<BinaryCase<T>>& cases) {
  std::vector<VecOp<T, T>> ops;
  for (const auto& c : cases) ops.push_back(c.device);
  auto got = run_vector_ops<T>({a, b}, untouched<T>(a.size()), ops);
  for (size_t k = 0; k < cases.size(); ++k) {
    std::vector<T> want;
    for (size_t i = 0; i < a.size(); ++i) want.push_back(cases[k].host(a[i], b[i]));
    EXPECT_TRUE(SameBits(got[k], want)) << cases[k].name;
  }
}

// ================================================================== 1. DataCopy

template <class T>
std::vector<T> round_trip(const std::vector<T>& x) {
  Bench b;
  Gm<T> in = upload(b, x), out = upload(b, untouched<T>(x.size()));
  b.run(1, [&] {
    TPipe pipe;
    LocalTensor<T> t = load(pipe, in);
    Order<HardEvent::MTE2_MTE3>();
    store(out, t);
  });
  return download(b, out, x.size());
}

TEST(ApiDataCopy, RoundTripInt32) {
  std::vector<int32_t> x(1024);
  for (size_t i = 0; i < x.size(); ++i) x[i] = wrap(static_cast<int64_t>(i) * 2654435761LL);
  EXPECT_TRUE(SameBits(round_trip(x), x));
}

TEST(ApiDataCopy, RoundTripFloatKeepsEveryBit) {
  std::vector<float> x = {F(0x7FC12345) /* qNaN, payload */,
                          F(0x7F800001) /* sNaN */,
                          F(0x80000000) /* -0 */,
                          F(0x7F800000),
                          F(0xFF800000),
                          F(0x00000001) /* smallest subnormal */,
                          F(0x7F7FFFFF)};
  for (int i = 0; x.size() < 256; ++i) x.push_back(static_cast<float>(i) * 0.37f - 40.0f);
  EXPECT_TRUE(SameBits(round_trip(x), x));
}

TEST(ApiDataCopy, RoundTripHalf) {
  std::vector<half> x;
  for (uint32_t i = 0; i < 512; ++i) x.push_back(H(static_cast<uint16_t>(i * 127 + 3)));
  EXPECT_TRUE(SameBits(round_trip(x), x));
}

// Rows 0, 2, 4, 6 of an 8 x 16 fp32 matrix gathered into UB with a one-block gap after each,
// then scattered to rows 0, 3, 6, 9 of a 12-row output.
TEST(ApiDataCopy, StridedParamsGatherAndScatterRows) {
  constexpr uint32_t kCols = 16, kRows = 8, kOutRows = 12, kUbRow = 24;  // UB rows: 2 + 1 blocks
  std::vector<float> m(kRows * kCols);
  for (uint32_t i = 0; i < m.size(); ++i) m[i] = static_cast<float>(i / kCols * 100 + i % kCols);
  Bench b;
  Gm<float> src = upload(b, m), out = upload(b, untouched<float>(kOutRows * kCols)),
            ub_dump = upload(b, untouched<float>(4 * kUbRow));
  b.run(1, [&] {
    TPipe pipe;
    LocalTensor<float> t = load(pipe, ub_dump);  // UB starts as the untouched pattern
    PipeBarrier<PIPE_MTE2>();
    DataCopyParams gather;
    gather.blockCount = 4;
    gather.blockLen = 2;   // one 64-B row
    gather.srcStride = 2;  // skip a GM row
    gather.dstStride = 1;  // leave one UB block after each row
    DataCopy(t, global(src), gather);
    Order<HardEvent::MTE2_MTE3>();
    store(ub_dump, t);
    DataCopyParams scatter;
    scatter.blockCount = 4;
    scatter.blockLen = 2;
    scatter.srcStride = 1;  // skip the UB gap
    scatter.dstStride = 4;  // skip two GM rows
    DataCopy(global(out), t, scatter);
  });
  std::vector<float> want_ub = untouched<float>(4 * kUbRow);
  std::vector<float> want_out = untouched<float>(kOutRows * kCols);
  for (uint32_t k = 0; k < 4; ++k)
    for (uint32_t c = 0; c < kCols; ++c) {
      want_ub[k * kUbRow + c] = m[2 * k * kCols + c];
      want_out[3 * k * kCols + c] = m[2 * k * kCols + c];
    }
  EXPECT_TRUE(SameBits(download(b, ub_dump, want_ub.size()), want_ub)) << "UB after the gather";
  EXPECT_TRUE(SameBits(download(b, out, want_out.size()), want_out)) << "GM after the scatter";
}

// ================================================================== 2. DataCopyPad

DataCopyExtParams ext(uint16_t blockCount, uint32_t blockLen, uint32_t srcStride,
                      uint32_t dstStride) {
  DataCopyExtParams p;
  p.blockCount = blockCount;
  p.blockLen = blockLen;
  p.srcStride = srcStride;
  p.dstStride = dstStride;
  return p;
}
DataCopyPadExtParams<half> pad(bool isPad, uint8_t left, uint8_t right, half value) {
  DataCopyPadExtParams<half> p;
  p.isPad = isPad;
  p.leftPadding = left;
  p.rightPadding = right;
  p.paddingValue = value;
  return p;
}

// UB contents after DataCopyPad(GM -> UB) of all of `src` into a UB tensor of `ub_elems`
// halves that held kOldHalf in every element.
std::vector<half> pad_copy_in(const std::vector<half>& src, uint32_t ub_elems,
                              const DataCopyExtParams& p, const DataCopyPadExtParams<half>& pd) {
  Bench b;
  Gm<half> in = upload(b, src), out = upload(b, std::vector<half>(ub_elems, kOldHalf));
  b.run(1, [&] {
    TPipe pipe;
    LocalTensor<half> t = load(pipe, out);
    PipeBarrier<PIPE_MTE2>();  // transfers on one MTE may land out of order
    DataCopyPad(t, global<half>(in.addr, src.size()), p, pd);
    Order<HardEvent::MTE2_MTE3>();
    store(out, t);
  });
  return download(b, out, ub_elems);
}

std::vector<half> halves(std::initializer_list<double> v) {
  std::vector<half> r;
  for (double x : v) r.push_back(cast_to<half>(x, RINT));  // every value here is exact in fp16
  return r;
}
std::vector<half> concat(std::initializer_list<std::vector<half>> parts) {
  std::vector<half> r;
  for (const auto& p : parts) r.insert(r.end(), p.begin(), p.end());
  return r;
}
std::vector<half> repeat(half v, size_t n) {
  return std::vector<half>(n, v);
}

const std::vector<half> kSeven = halves({1, 2, 3, 4, 5, 6, 7});  // 14 B
const half kPad = H(0xC500);                                     // -5

TEST(ApiDataCopyPad, RightPaddingFillsTheRestOfTheBlock) {
  auto got = pad_copy_in(kSeven, 16, ext(1, 14, 0, 0), pad(true, 0, 9, kPad));
  EXPECT_TRUE(SameBits(got, concat({kSeven, repeat(kPad, 9)})));
}

TEST(ApiDataCopyPad, LeftAndRightPadding) {
  auto got = pad_copy_in(kSeven, 16, ext(1, 14, 0, 0), pad(true, 2, 7, kPad));
  EXPECT_TRUE(SameBits(got, concat({repeat(kPad, 2), kSeven, repeat(kPad, 7)})));
}

// rightPadding and a padding value, but isPad false: nothing is padded.
TEST(ApiDataCopyPad, WithoutIsPadThePadBytesKeepTheirContents) {
  auto got = pad_copy_in(kSeven, 16, ext(1, 14, 0, 0), pad(false, 0, 9, kPad));
  EXPECT_TRUE(SameBits(got, concat({kSeven, repeat(kOldHalf, 9)})));
}

// Three GM rows of 8 halves, 7 copied from each (srcStride 2 B), into UB rows of one padded
// 32-B block followed by a one-block gap (dstStride 1).
TEST(ApiDataCopyPad, BlocksWithGmAndUbStrides) {
  std::vector<half> src;
  for (int i = 1; i <= 24; ++i) src.push_back(cast_to<half>(i, RINT));
  auto got = pad_copy_in(src, 96, ext(3, 14, 2, 1), pad(true, 0, 9, H(0)));
  std::vector<half> want;
  for (int r = 0; r < 3; ++r)
    want = concat({want, std::vector<half>(src.begin() + 8 * r, src.begin() + 8 * r + 7),
                   repeat(H(0), 9), repeat(kOldHalf, 16)});
  EXPECT_TRUE(SameBits(got, want));
}

// 5 halves (10 B) from UB rows 0, 2, 4 (srcStride 1 block) to GM 8 halves apart (dstStride 6 B):
// GM outside those 10-B blocks keeps its contents.
TEST(ApiDataCopyPad, ToGmWritesExactlyBlockLenBytesPerBlock) {
  std::vector<half> ub;
  for (int i = 0; i < 96; ++i) ub.push_back(cast_to<half>(i / 16 * 100 + i % 16, RINT));
  Bench b;
  Gm<half> in = upload(b, ub), out = upload(b, repeat(kOldHalf, 32));
  b.run(1, [&] {
    TPipe pipe;
    LocalTensor<half> t = load(pipe, in);
    Order<HardEvent::MTE2_MTE3>();
    DataCopyPad(global(out), t, ext(3, 10, 1, 6));
  });
  std::vector<half> want = repeat(kOldHalf, 32);
  for (int r = 0; r < 3; ++r)
    for (int j = 0; j < 5; ++j) want[8 * r + j] = ub[32 * r + j];
  EXPECT_TRUE(SameBits(download(b, out, 32), want));
}

// ================================================================== 3. vector arithmetic

TEST(ApiVector, FloatMatchesIeeeSinglePrecision) {
  const std::vector<float> a = {0.1f,  1.0f, 16777216.0f, 3.0f,   -2.5f,
                                1e30f, 1.0f, 7.0f,        1e-40f, -1.5f};
  const std::vector<float> b = {0.2f,  3.0f,          1.0f,  1e-8f,  2.5f,
                                1e10f, F(0x00000001), -3.0f, 3e-39f, 6.0f};
  const uint32_t n = static_cast<uint32_t>(a.size());
  using C = BinaryCase<float>;
  check_binary_cases<float>(
      a, b,
      {C{"Add", [n](const auto& d, const auto& in) { Add(d, in[0], in[1], n); },
         [](float x, float y) { return x + y; }},
       C{"Sub", [n](const auto& d, const auto& in) { Sub(d, in[0], in[1], n); },
         [](float x, float y) { return x - y; }},
       C{"Mul", [n](const auto& d, const auto& in) { Mul(d, in[0], in[1], n); },
         [](float x, float y) { return x * y; }},
       C{"Div", [n](const auto& d, const auto& in) { Div(d, in[0], in[1], n); },
         [](float x, float y) { return x / y; }},
       C{"Max", [n](const auto& d, const auto& in) { Max(d, in[0], in[1], n); },
         [](float x, float y) { return std::max(x, y); }},
       C{"Min", [n](const auto& d, const auto& in) { Min(d, in[0], in[1], n); },
         [](float x, float y) { return std::min(x, y); }},
       C{"Adds", [n](const auto& d, const auto& in) { Adds(d, in[0], 0.1f, n); },
         [](float x, float) { return x + 0.1f; }},
       C{"Muls", [n](const auto& d, const auto& in) { Muls(d, in[0], 0.1f, n); },
         [](float x, float) { return x * 0.1f; }},
       C{"Abs", [n](const auto& d, const auto& in) { Abs(d, in[0], n); },
         [](float x, float) { return std::fabs(x); }},
       C{"Mins", [n](const auto& d, const auto& in) { Mins(d, in[0], 3.0f, n); },
         [](float x, float) { return std::min(x, 3.0f); }},
       C{"Maxs", [n](const auto& d, const auto& in) { Maxs(d, in[0], 0.15f, n); },
         [](float x, float) { return std::max(x, 0.15f); }}});
}

// Every pair hits an fp16 rounding case (mostly exact ties), checked against hand-computed bits.
TEST(ApiVector, HalfRoundsToNearestEvenPerElement) {
  //                              2048    2048    1       1+2^-10 65504   1+2^-10 -3      2047
  const std::vector<half> a = {H(0x6800), H(0x6800), H(0x3C00), H(0x3C01),
                               H(0x7BFF), H(0x3C01), H(0xC200), H(0x67FF)};
  //                              1       3       2^-11   2^-11   16      1.5     2       0.5
  const std::vector<half> b = {H(0x3C00), H(0x4200), H(0x1000), H(0x1000),
                               H(0x4C00), H(0x3E00), H(0x4000), H(0x3800)};
  const uint32_t n = static_cast<uint32_t>(a.size());
  struct Case {
    const char* name;
    VecOp<half, half> op;
    std::vector<uint16_t> want;
  };
  const std::vector<Case> cases = {
      {"Add",
       [n](const auto& d, const auto& in) { Add(d, in[0], in[1], n); },
       {0x6800, 0x6802, 0x3C00, 0x3C02, 0x7C00, 0x4100, 0xBC00, 0x6800}},
      {"Sub",
       [n](const auto& d, const auto& in) { Sub(d, in[0], in[1], n); },
       {0x67FF, 0x67FD, 0x3BFF, 0x3C00, 0x7BFE, 0xB7FC, 0xC500, 0x67FE}},
      {"Mul",
       [n](const auto& d, const auto& in) { Mul(d, in[0], in[1], n); },
       {0x6800, 0x6E00, 0x1000, 0x1001, 0x7C00, 0x3E02, 0xC600, 0x63FF}},
      {"Div",
       [n](const auto& d, const auto& in) { Div(d, in[0], in[1], n); },
       {0x6800, 0x6155, 0x6800, 0x6801, 0x6BFF, 0x3957, 0xBE00, 0x6BFF}},
      {"Max",
       [n](const auto& d, const auto& in) { Max(d, in[0], in[1], n); },
       {0x6800, 0x6800, 0x3C00, 0x3C01, 0x7BFF, 0x3E00, 0x4000, 0x67FF}},
      {"Min",
       [n](const auto& d, const auto& in) { Min(d, in[0], in[1], n); },
       {0x3C00, 0x4200, 0x1000, 0x1000, 0x4C00, 0x3C01, 0xC200, 0x3800}},
      {"Adds 0.5",
       [n](const auto& d, const auto& in) { Adds(d, in[0], H(0x3800), n); },
       {0x6800, 0x6800, 0x3E00, 0x3E01, 0x7BFF, 0x3E01, 0xC100, 0x6800}},
      {"Muls 3",
       [n](const auto& d, const auto& in) { Muls(d, in[0], H(0x4200), n); },
       {0x6E00, 0x6E00, 0x4200, 0x4202, 0x7C00, 0x4202, 0xC880, 0x6DFF}},
      {"Abs",
       [n](const auto& d, const auto& in) { Abs(d, in[0], n); },
       {0x6800, 0x6800, 0x3C00, 0x3C01, 0x7BFF, 0x3C01, 0x4200, 0x67FF}},
      // A count below the tensor size: elements 5.. keep their contents.
      {"Duplicate 5",
       [](const auto& d, const auto&) { Duplicate(d, H(0x5140), 5); },
       {0x5140, 0x5140, 0x5140, 0x5140, 0x5140, 0xEEEE, 0xEEEE, 0xEEEE}},
  };
  std::vector<VecOp<half, half>> ops;
  for (const auto& c : cases) ops.push_back(c.op);
  auto got = run_vector_ops<half>({a, b}, untouched<half>(n), ops);
  for (size_t k = 0; k < cases.size(); ++k) {
    std::vector<half> want;
    for (uint16_t w : cases[k].want) want.push_back(H(w));
    EXPECT_TRUE(SameBits(got[k], want)) << cases[k].name;
  }
}

TEST(ApiVector, Int32WrapsAroundOnOverflow) {
  constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
  constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
  const std::vector<int32_t> a = {kMax, kMin, 46341, -7, 100000, 5, kMin, -kMax};
  const std::vector<int32_t> b = {1, 1, 46341, 3, 30000, -9, -1, 2};
  const uint32_t n = static_cast<uint32_t>(a.size());
  using C = BinaryCase<int32_t>;
  auto i64 = [](int32_t v) { return static_cast<int64_t>(v); };
  check_binary_cases<int32_t>(
      a, b,
      {C{"Add", [n](const auto& d, const auto& in) { Add(d, in[0], in[1], n); },
         [&](int32_t x, int32_t y) { return wrap(i64(x) + y); }},
       C{"Sub", [n](const auto& d, const auto& in) { Sub(d, in[0], in[1], n); },
         [&](int32_t x, int32_t y) { return wrap(i64(x) - y); }},
       C{"Mul", [n](const auto& d, const auto& in) { Mul(d, in[0], in[1], n); },
         [&](int32_t x, int32_t y) { return wrap(i64(x) * y); }},
       C{"Max", [n](const auto& d, const auto& in) { Max(d, in[0], in[1], n); },
         [](int32_t x, int32_t y) { return std::max(x, y); }},
       C{"Min", [n](const auto& d, const auto& in) { Min(d, in[0], in[1], n); },
         [](int32_t x, int32_t y) { return std::min(x, y); }},
       C{"Adds", [n](const auto& d, const auto& in) { Adds(d, in[0], 2147483000, n); },
         [&](int32_t x, int32_t) { return wrap(i64(x) + 2147483000); }},
       C{"Muls", [n](const auto& d, const auto& in) { Muls(d, in[0], -3, n); },
         [&](int32_t x, int32_t) { return wrap(i64(x) * -3); }},
       C{"Abs", [n](const auto& d, const auto& in) { Abs(d, in[0], n); },
         [&](int32_t x, int32_t) { return wrap(x < 0 ? -i64(x) : i64(x)); }},
       C{"Mins", [n](const auto& d, const auto& in) { Mins(d, in[0], 5, n); },
         [](int32_t x, int32_t) { return std::min(x, 5); }},
       C{"Maxs", [n](const auto& d, const auto& in) { Maxs(d, in[0], -7, n); },
         [](int32_t x, int32_t) { return std::max(x, -7); }}});
}

// The exact product of two int32 needs up to 62 bits and its low 32 must survive the wrap:
// (2^31-1)^2 = 2^62 - 2^32 + 1 wraps to 1; computed through a double (53 bits) it would be 0.
TEST(ApiVector, Int32MulKeepsTheLowBitsOfLargeProducts) {
  const std::vector<int32_t> a = {0x7FFFFFFF, 0x40000001, -0x7FFFFFFF, 123456789};
  const std::vector<int32_t> b = {0x7FFFFFFF, 0x7FFFFFFF, 0x3FFFFFFF, 987654321};
  const uint32_t n = static_cast<uint32_t>(a.size());
  using C = BinaryCase<int32_t>;
  check_binary_cases<int32_t>(
      a, b,
      {C{"Mul", [n](const auto& d, const auto& in) { Mul(d, in[0], in[1], n); },
         [](int32_t x, int32_t y) { return wrap(static_cast<int64_t>(x) * y); }},
       C{"Muls", [n](const auto& d, const auto& in) { Muls(d, in[0], 0x7FFFFFFF, n); },
         [](int32_t x, int32_t) { return wrap(static_cast<int64_t>(x) * 0x7FFFFFFF); }}});
}

// ------------------------------------------------------------------ Cast

TEST(ApiCast, FloatToHalfRintVersusTrunc) {
  // 1 + 0.75 ulp(fp16): RINT rounds up, TRUNC down; 65520 overflows to inf only when rounding;
  // 1.5 * 2^-25 is 0.75 of the smallest fp16 subnormal.
  const std::vector<float> x = {1.000732421875f, -1.000732421875f, 65520.0f, 1.5f * 0x1p-25f};
  auto got = run_vector_ops<half, float>(
      {x}, untouched<half>(x.size()),
      {[](const auto& d, const auto& in) { Cast(d, in[0], RINT, 4); },
       [](const auto& d, const auto& in) { Cast(d, in[0], TRUNC, 4); }});
  EXPECT_TRUE(SameBits(got[0], {H(0x3C01), H(0xBC01), H(0x7C00), H(0x0001)})) << "RINT";
  EXPECT_TRUE(SameBits(got[1], {H(0x3C00), H(0xBC00), H(0x7BFF), H(0x0000)})) << "TRUNC";
}

TEST(ApiCast, FloatToInt32RoundVersusRintAtTies) {
  const std::vector<float> x = {2.5f, -2.5f, 3.5f, 0.5f, 2.4999998f, 1e10f, -1e10f};
  const uint32_t n = static_cast<uint32_t>(x.size());
  auto got = run_vector_ops<int32_t, float>(
      {x}, untouched<int32_t>(n),
      {[n](const auto& d, const auto& in) { Cast(d, in[0], ROUND, n); },
       [n](const auto& d, const auto& in) { Cast(d, in[0], RINT, n); }});
  constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
  constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
  EXPECT_EQ(got[0], (std::vector<int32_t>{3, -3, 4, 1, 2, kMax, kMin})) << "ROUND";
  EXPECT_EQ(got[1], (std::vector<int32_t>{2, -2, 4, 0, 2, kMax, kMin})) << "RINT";
}

// Dispatch's quantization: fp32 -> int32 (RINT) -> fp16 (ROUND) -> int8 (TRUNC, saturating).
TEST(ApiCast, QuantizationChainFloatToInt8) {
  const std::vector<float> x = {-3.5f, 2.5f, 100.4f, 300.0f, -129.6f, 0.5f, 2049.0f, -2049.0f};
  const uint32_t n = static_cast<uint32_t>(x.size());
  Bench b;
  Gm<float> in = upload(b, x);
  Gm<int32_t> i32 = upload(b, untouched<int32_t>(n));
  Gm<half> f16 = upload(b, untouched<half>(n));
  Gm<int8_t> i8 = upload(b, untouched<int8_t>(n));
  b.run(1, [&] {
    TPipe pipe;
    LocalTensor<float> t = load(pipe, in);
    LocalTensor<int32_t> ti = ub_tensor<int32_t>(pipe, i32.count);
    LocalTensor<half> th = ub_tensor<half>(pipe, f16.count);
    LocalTensor<int8_t> tq = ub_tensor<int8_t>(pipe, i8.count);
    Order<HardEvent::MTE2_V>();
    Cast(ti, t, RINT, n);
    Cast(th, ti, ROUND, n);
    Cast(tq, th, TRUNC, n);
    Order<HardEvent::V_MTE3>();
    store(i32, ti);
    store(f16, th);
    store(i8, tq);
  });
  EXPECT_EQ(download(b, i32, n), (std::vector<int32_t>{-4, 2, 100, 300, -130, 0, 2049, -2049}));
  // 2049 is a tie in fp16 (spacing 2 above 2048): ROUND goes away from zero.
  EXPECT_TRUE(SameBits(download(b, f16, n), {H(0xC400), H(0x4000), H(0x5640), H(0x5CB0), H(0xD810),
                                             H(0x0000), H(0x6801), H(0xE801)}));
  EXPECT_EQ(download(b, i8, n), (std::vector<int8_t>{-4, 2, 100, 127, -128, 0, 127, -128}));
}

TEST(ApiCast, FloatToBf16RintVersusTrunc) {
  const std::vector<float> x = {1.00390625f /* 1 + 2^-8: tie */,
                                1.01171875f /* 1 + 3 * 2^-8 */,
                                F(0xBF808008),
                                3e38f,
                                0.1f,
                                -123.456f,
                                F(0x7F7FFFFF)};
  const uint32_t n = static_cast<uint32_t>(x.size());
  auto got = run_vector_ops<bfloat16_t, float>(
      {x}, untouched<bfloat16_t>(n),
      {[n](const auto& d, const auto& in) { Cast(d, in[0], RINT, n); },
       [n](const auto& d, const auto& in) { Cast(d, in[0], TRUNC, n); }});
  EXPECT_TRUE(SameBits(
      got[0], {BF(0x3F80), BF(0x3F82), BF(0xBF81), BF(0x7F62), BF(0x3DCD), BF(0xC2F7), BF(0x7F80)}))
      << "RINT";
  EXPECT_TRUE(SameBits(
      got[1], {BF(0x3F80), BF(0x3F81), BF(0xBF80), BF(0x7F61), BF(0x3DCC), BF(0xC2F6), BF(0x7F7F)}))
      << "TRUNC";
}

TEST(ApiCast, Bf16ToFloatIsExact) {
  const std::vector<uint16_t> bits = {0x3F81, 0xC2F7, 0x0001, 0x7F80, 0x8000, 0x7FC1};
  std::vector<bfloat16_t> x;
  std::vector<float> want;  // a bf16 is the top half of a binary32
  for (uint16_t v : bits) {
    x.push_back(BF(v));
    want.push_back(F(uint32_t{v} << 16));
  }
  const uint32_t n = static_cast<uint32_t>(x.size());
  auto got = run_vector_ops<float, bfloat16_t>(
      {x}, untouched<float>(n), {[n](const auto& d, const auto& in) { Cast(d, in[0], RINT, n); }});
  EXPECT_TRUE(SameBits(got[0], want));
  EXPECT_EQ(got[0][0], 1.0078125f);
  EXPECT_EQ(got[0][1], -123.5f);
}

// ================================================================== 4. reductions

// The first maximum of x[begin, begin + count): value and index relative to begin.
std::pair<float, uint32_t> first_max(const std::vector<float>& x, uint32_t begin, uint32_t count) {
  uint32_t best = 0;
  for (uint32_t i = 1; i < count; ++i)
    if (x[begin + i] > x[begin + best]) best = i;
  return {x[begin + best], best};
}

TEST(ApiReduce, ReduceMaxIndexIsTheFirstMaximum) {
  std::vector<float> x(100);
  for (uint32_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>((i * 37) % 89) - 40.0f;
  x[3] = 55.0f;
  x[70] = x[90] = 60.5f;
  const std::vector<float> work(x.size());
  // src from element 72 (a 32-B aligned offset): the index is relative to src.
  auto got = run_vector_ops<float>(
      {x, work}, untouched<float>(8),
      {[](const auto& d, const auto& in) { ReduceMax(d, in[0], in[1], 100, true); },
       [](const auto& d, const auto& in) { ReduceMax(d, in[0], in[1], 50, true); },
       [](const auto& d, const auto& in) { ReduceMax(d, in[0][72], in[1], 28, true); },
       [](const auto& d, const auto& in) { ReduceMax(d, in[0], in[1], 100, false); }});
  const std::pair<float, uint32_t> want[] = {first_max(x, 0, 100), first_max(x, 0, 50),
                                             first_max(x, 72, 28), first_max(x, 0, 100)};
  ASSERT_EQ(want[0], std::make_pair(60.5f, 70u));  // the setup above is what the test means
  ASSERT_EQ(want[1], std::make_pair(55.0f, 3u));
  ASSERT_EQ(want[2], std::make_pair(60.5f, 18u));
  for (size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(got[k][0], want[k].first) << "op " << k;
    EXPECT_EQ(bits_of(got[k][1]), want[k].second) << "op " << k << ": index as uint32 bits";
    EXPECT_EQ(bits_of(got[k][2]), 0xEEEEEEEEu) << "op " << k << ": wrote past dst[1]";
  }
  EXPECT_EQ(got[3][0], 60.5f);
  EXPECT_EQ(bits_of(got[3][1]), 0xEEEEEEEEu) << "no calIndex: dst[1] untouched";
}

TEST(ApiReduce, ReduceSumFloatAccumulatesLeftToRight) {
  // Left to right, 2^24 absorbs each following 1 (ties to even); eight 1s first survive.
  std::vector<float> big_first(9, 1.0f), big_last(9, 1.0f);
  big_first[0] = big_last[8] = 16777216.0f;
  std::vector<float> mixed(64);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-1000.0f, 1000.0f);
  for (float& v : mixed) v = dist(rng) * std::pow(10.0f, static_cast<float>(rng() % 7) - 3.0f);
  const std::vector<float> work(64);
  auto got = run_vector_ops<float>(
      {big_first, big_last, mixed, work}, untouched<float>(8),
      {[](const auto& d, const auto& in) { ReduceSum(d, in[0], in[3], 9); },
       [](const auto& d, const auto& in) { ReduceSum(d, in[1], in[3], 9); },
       [](const auto& d, const auto& in) { ReduceSum(d, in[2], in[3], 64); }});
  float acc = mixed[0];
  for (size_t i = 1; i < mixed.size(); ++i) acc += mixed[i];  // fp32, round to nearest even
  EXPECT_EQ(got[0][0], 16777216.0f);
  EXPECT_EQ(got[1][0], 16777224.0f);
  EXPECT_EQ(bits_of(got[2][0]), bits_of(acc));
  EXPECT_EQ(bits_of(got[0][1]), 0xEEEEEEEEu) << "wrote past dst[0]";
}

TEST(ApiReduce, ReduceSumInt32WrapsAround) {
  const std::vector<int32_t> x = {std::numeric_limits<int32_t>::max(), 1, 5, -3, 100};
  std::vector<int32_t> ramp(200);
  for (int32_t i = 0; i < 200; ++i) ramp[i] = i + 1;
  const std::vector<int32_t> work(200);
  auto got = run_vector_ops<int32_t>(
      {x, ramp, work}, untouched<int32_t>(8),
      {[](const auto& d, const auto& in) { ReduceSum(d, in[0], in[2], 5); },
       [](const auto& d, const auto& in) { ReduceSum(d, in[1], in[2], 200); }});
  EXPECT_EQ(got[0][0], std::numeric_limits<int32_t>::min() + 102);
  EXPECT_EQ(got[1][0], 20100);
}

// ================================================================== 5. level-0 instructions

// Runs `op` in place on x in UB and returns the UB contents.
template <class T>
std::vector<T> run_in_place(const std::vector<T>& x,
                            const std::function<void(const LocalTensor<T>&)>& op) {
  return run_vector_ops<T>({}, x, {[&](const auto& d, const auto&) { op(d); }})[0];
}

UnaryRepeatParams strides(uint16_t blk, uint8_t rep) {
  UnaryRepeatParams p;
  p.dstBlkStride = p.srcBlkStride = blk;
  p.dstRepStride = p.srcRepStride = rep;
  return p;
}

std::vector<float> ramp_f32(size_t n) {
  std::vector<float> x(n);
  for (size_t i = 0; i < n; ++i) x[i] = static_cast<float>(i + 1);
  return x;
}

// mask 20 = two full 8-float blocks and 4 elements of a third; blocks 2 apart, repeats 16 apart.
TEST(ApiLevel0, MulsTouchesExactlyTheStridedElements) {
  const std::vector<float> x = ramp_f32(512);
  auto got = run_in_place<float>(
      x, [](const LocalTensor<float>& t) { Muls(t, t, 2.0f, 20, 3, strides(2, 16)); });
  std::vector<float> want = x;
  for (uint32_t r = 0; r < 3; ++r)  // repeat r starts at block 16r = element 128r
    for (uint32_t first : {0u, 16u, 32u})
      for (uint32_t i = 0; i < (first == 32 ? 4u : 8u); ++i) want[128 * r + first + i] *= 2.0f;
  EXPECT_TRUE(SameBits(got, want));
}

TEST(ApiLevel0, RepStrideZeroRepeatsOnTheSameBlocks) {
  const std::vector<float> x = ramp_f32(64);
  auto got = run_in_place<float>(
      x, [](const LocalTensor<float>& t) { Muls(t, t, 2.0f, 16, 3, strides(1, 0)); });
  std::vector<float> want = x;
  for (uint32_t i = 0; i < 16; ++i) want[i] *= 8.0f;
  EXPECT_TRUE(SameBits(got, want));
}

// fp16: 128 elements per repeat; mask 100 leaves the last 28 of each repeat alone.
TEST(ApiLevel0, AddsHalfWithPartialMask) {
  std::vector<half> x;
  for (int i = 0; i < 384; ++i) x.push_back(cast_to<half>(i, RINT));
  auto got = run_in_place<half>(x, [](const LocalTensor<half>& t) {
    Adds(t, t, H(0x63D0) /* 1000 */, 100, 2, strides(1, 8));
  });
  std::vector<half> want = x;
  for (int r = 0; r < 2; ++r)
    for (int i = 0; i < 100; ++i) want[128 * r + i] = cast_to<half>(128 * r + i + 1000, RINT);
  EXPECT_TRUE(SameBits(got, want));
}

// ================================================================== 6. queues

TEST(ApiQueue, DoubleBufferedLoopOverEightTiles) {
  constexpr uint32_t kTiles = 8, kTile = 64;
  std::vector<float> x(kTiles * kTile);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i) * 0.25f - 100.0f;
  Bench b;
  Gm<float> in = upload(b, x), out = upload(b, untouched<float>(x.size()));
  std::vector<uint32_t> in_bufs, out_bufs;  // UB offsets AllocTensor handed out
  b.run(1, [&] {
    TPipe pipe;
    TQue<TPosition::VECIN, 2> qin;
    TQue<TPosition::VECOUT, 2> qout;
    pipe.InitBuffer(qin, 2, kTile * sizeof(float));
    pipe.InitBuffer(qout, 2, kTile * sizeof(float));
    GlobalTensor<float> xg = global(in), yg = global(out);
    for (uint32_t i = 0; i < kTiles; ++i) {
      LocalTensor<float> a = qin.AllocTensor<float>();
      in_bufs.push_back(a.ub_offset());
      DataCopy(a, xg[i * kTile], kTile);
      qin.EnQue(a);
      LocalTensor<float> xin = qin.DeQue<float>();
      LocalTensor<float> y = qout.AllocTensor<float>();
      out_bufs.push_back(y.ub_offset());
      Muls(y, xin, 2.0f, kTile);
      qin.FreeTensor(xin);
      qout.EnQue(y);
      LocalTensor<float> z = qout.DeQue<float>();
      DataCopy(yg[i * kTile], z, kTile);
      qout.FreeTensor(z);
    }
  });
  std::vector<float> want(x.size());
  for (size_t i = 0; i < x.size(); ++i) want[i] = x[i] * 2.0f;
  EXPECT_TRUE(SameBits(download(b, out, x.size()), want));
  ASSERT_EQ(in_bufs.size(), kTiles);
  EXPECT_NE(in_bufs[0], in_bufs[1]);
  EXPECT_NE(out_bufs[0], out_bufs[1]);
  for (uint32_t i = 2; i < kTiles; ++i) {
    EXPECT_EQ(in_bufs[i], in_bufs[i % 2]) << "tile " << i;
    EXPECT_EQ(out_bufs[i], out_bufs[i % 2]) << "tile " << i;
  }
}

// Ascend C's AllocTensor takes the next free buffer in turn, skipping those still in use.
TEST(ApiQueue, AllocTensorFindsABufferFreedOutOfOrder) {
  Bench b;
  uint32_t second = 0, third = 0;
  b.run(1, [&] {
    TPipe pipe;
    TQue<TPosition::VECIN, 2> q;
    pipe.InitBuffer(q, 2, 256);
    LocalTensor<float> t0 = q.AllocTensor<float>();
    LocalTensor<float> t1 = q.AllocTensor<float>();
    second = t1.ub_offset();
    q.FreeTensor(t1);
    LocalTensor<float> t2 = q.AllocTensor<float>();  // t0 is still taken
    third = t2.ub_offset();
    q.FreeTensor(t0);
    q.FreeTensor(t2);
  });
  EXPECT_EQ(third, second);
}

// ================================================================== 7. scalar access

TEST(ApiScalar, LocalTensorSetValueGetValue) {
  Bench b;
  Gm<int32_t> out = upload(b, untouched<int32_t>(16));
  int32_t before = 0, after = 0;
  b.run(1, [&] {
    TPipe pipe;
    LocalTensor<int32_t> t = ub_tensor<int32_t>(pipe, 16);
    for (int32_t i = 0; i < 16; ++i) t.SetValue(i, i * i - 7);
    before = t.GetValue(5);
    Order<HardEvent::S_V>();
    Adds(t, t, 100, 16);
    Order<HardEvent::V_S>();
    after = t.GetValue(3);
    Order<HardEvent::S_MTE3>();
    store(out, t);
  });
  EXPECT_EQ(before, 18);
  EXPECT_EQ(after, 102);
  std::vector<int32_t> want;
  for (int32_t i = 0; i < 16; ++i) want.push_back(i * i - 7 + 100);
  EXPECT_EQ(download(b, out, 16), want);
}

TEST(ApiScalar, GlobalTensorSetValueReachesTheHost) {
  Bench b;
  Gm<int32_t> g = upload(b, std::vector<int32_t>{10, 11, 12, 13, 14, 15, 16, 17});
  Gm<half> gh = upload(b, repeat(kOldHalf, 16));
  int32_t seen = 0;
  b.run(1, [&] {
    GlobalTensor<int32_t> t = global(g);
    seen = t.GetValue(6);
    t.SetValue(2, -123456);
    t.SetValue(7, seen * 2);
    global(gh)[4].SetValue(1, H(0x3555));
  });
  EXPECT_EQ(seen, 16);
  EXPECT_EQ(download(b, g, 8), (std::vector<int32_t>{10, 11, -123456, 13, 14, 15, 16, 32}));
  std::vector<half> want = repeat(kOldHalf, 16);
  want[5] = H(0x3555);
  EXPECT_TRUE(SameBits(download(b, gh, 16), want));
}

// The scalar runs ahead of simulated time and syncs to it only for an access to UB bytes that an
// unfinished instruction writes (or, for a write, reads). A DataCopy GM -> UB of bytes [0, 256) is
// in flight while the scalar reads UB word `at`: beside it, in the same 1-KiB block, it needs no
// sync (as many events as a read far away, at the same time); inside it, it waits for the copy and
// reads its data.
TEST(ApiScalar, AScalarReadBesideACopyInFlightDoesNotWaitForIt) {
  struct Seen {
    int32_t value;
    uint64_t at_ps, events;
  };
  auto read_at = [](uint32_t word) {
    nlohmann::json j = ascend::test::in_child([&] {
      Bench b;
      const uint64_t src = b.alloc(256);
      Seen s{};
      b.run(1, [&] {
        TPipe pipe;
        LocalTensor<int32_t> ub = ub_tensor<int32_t>(pipe, 1024);
        GlobalTensor<int32_t> g = global<int32_t>(src, 64);
        g.SetValue(0, 77);
        ub.SetValue(word, 5);
        Order<HardEvent::S_MTE2>();
        DataCopy(ub, g, 64);
        s.value = ub.GetValue(word);
        s.at_ps = SimNowPs();
      });
      return nlohmann::json{{"value", s.value},
                            {"at", s.at_ps},
                            {"events", b.sim().simulator_figures(0).scheduler_events}};
    });
    EXPECT_FALSE(j.contains("exit_code")) << j.dump();
    return Seen{j.value("value", 0), j.value("at", uint64_t{0}), j.value("events", uint64_t{0})};
  };
  const Seen inside = read_at(0), beside = read_at(128), far = read_at(512);
  EXPECT_EQ(beside.value, 5);
  EXPECT_EQ(far.value, 5);
  EXPECT_EQ(beside.at_ps, far.at_ps);
  EXPECT_EQ(beside.events, far.events);
  EXPECT_EQ(inside.value, 77);
  EXPECT_GT(inside.at_ps, far.at_ps);
}

// Every core writes (index, count) to its own 32-B slot; after SyncAll core 0 sums the indices.
TEST(ApiScalar, BlockIdxAndBlockNumOnFourCores) {
  constexpr int kCores = 4, kSlot = 8;
  Bench b;
  Gm<int32_t> g = upload(b, std::vector<int32_t>((kCores + 1) * kSlot, -1));
  b.run(kCores, [&] {
    GlobalTensor<int32_t> t = global(g);
    const int64_t idx = GetBlockIdx();
    t.SetValue(idx * kSlot, static_cast<int32_t>(idx));
    t.SetValue(idx * kSlot + 1, static_cast<int32_t>(GetBlockNum()));
    SyncAll();
    if (idx != 0) return;
    int32_t sum = 0;
    for (int c = 0; c < kCores; ++c) sum += t.GetValue(c * kSlot);
    t.SetValue(kCores * kSlot, sum);
  });
  std::vector<int32_t> got = download(b, g, (kCores + 1) * kSlot);
  for (int c = 0; c < kCores; ++c) {
    EXPECT_EQ(got[c * kSlot], c) << "GetBlockIdx on core " << c;
    EXPECT_EQ(got[c * kSlot + 1], kCores) << "GetBlockNum on core " << c;
    EXPECT_EQ(got[c * kSlot + 2], -1) << "slot " << c << " written past its two values";
  }
  EXPECT_EQ(got[kCores * kSlot], 0 + 1 + 2 + 3);
}

// ================================================================== 8. faults

struct FaultEnv {
  Gm<float> gm;  // 256 floats (1 KiB), the whole allocation
  uint32_t ub_bytes;
};

// Runs body on one core and expects a kernel fault (status 5) naming the core and `what`.
void expect_fault(const std::string& what, const std::function<void(const FaultEnv&)>& body) {
  Bench b;
  FaultEnv env{upload(b, std::vector<float>(256)), b.timing().ub_bytes};
  SimError e = b.run_expecting_error(1, [&] { body(env); });
  EXPECT_EQ(e.code, ascend::kExitKernelFault) << e.what();
  const std::string msg = e.what();
  EXPECT_NE(msg.find(what), std::string::npos) << msg;
  EXPECT_NE(msg.find("core 0"), std::string::npos) << msg;
}

TEST(ApiFault, DataCopyPastTheGlobalTensor) {
  expect_fault("outside its GlobalTensor", [](const FaultEnv& env) {
    TPipe pipe;
    LocalTensor<float> t = ub_tensor<float>(pipe, 64);
    DataCopy(t, global<float>(env.gm.addr, 32), 64);  // inside the allocation, past the tensor
  });
}

TEST(ApiFault, SetGlobalBufferOutsideAnyAllocation) {
  expect_fault("not inside one GM allocation", [](const FaultEnv& env) {
    global<float>(env.gm.addr, 512);  // 2 KiB on a 1 KiB allocation
  });
}

TEST(ApiFault, DataCopyLengthNotAMultipleOf32Bytes) {
  expect_fault("not a multiple of 32 B", [](const FaultEnv& env) {
    TPipe pipe;
    LocalTensor<float> t = ub_tensor<float>(pipe, 64);
    DataCopy(t, global(env.gm), 7);
  });
}

TEST(ApiFault, VectorOpPastTheEndOfUb) {
  expect_fault("allocated by InitBuffer", [](const FaultEnv& env) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> all;
    pipe.InitBuffer(all, env.ub_bytes);
    LocalTensor<float> t = all.Get<float>();
    LocalTensor<float> tail = t[t.GetSize() - 16];
    Adds(tail, tail, 1.0f, 32);
  });
}

TEST(ApiFault, Level0StridesPastTheEndOfUb) {
  expect_fault("allocated by InitBuffer", [](const FaultEnv&) {
    TPipe pipe;
    LocalTensor<float> t = ub_tensor<float>(pipe, 64);
    Muls(t, t, 2.0f, 64, 255, strides(1, 255));  // repeat 254 starts 2 MB further on
  });
}

TEST(ApiFault, Level0MaskWiderThanARepeat) {
  expect_fault("mask 65", [](const FaultEnv&) {
    TPipe pipe;
    LocalTensor<float> t = ub_tensor<float>(pipe, 128);
    Muls(t, t, 2.0f, 65, 1, strides(1, 8));
  });
}

TEST(ApiFault, SetFlagEventIdEight) {
  expect_fault("event id outside [0, 8)", [](const FaultEnv&) { SetFlag<HardEvent::MTE2_V>(8); });
}

TEST(ApiFault, PipeBarrierOnPipeS) {
  expect_fault("PipeBarrier<PIPE_S>", [](const FaultEnv&) { PipeBarrier<PIPE_S>(); });
}

TEST(ApiFault, AllocTensorWithEveryBufferTaken) {
  expect_fault("all 2 buffers of the queue are in use", [](const FaultEnv&) {
    TPipe pipe;
    TQue<TPosition::VECIN, 2> q;
    pipe.InitBuffer(q, 2, 256);
    q.AllocTensor<float>();
    q.AllocTensor<float>();
    q.AllocTensor<float>();
  });
}

TEST(ApiFault, FreeTensorTwice) {
  expect_fault("already free", [](const FaultEnv&) {
    TPipe pipe;
    TQue<TPosition::VECIN, 2> q;
    pipe.InitBuffer(q, 2, 256);
    LocalTensor<float> t = q.AllocTensor<float>();
    q.FreeTensor(t);
    q.FreeTensor(t);
  });
}

TEST(ApiFault, DeQueOnAnEmptyQueue) {
  expect_fault("DeQue on an empty queue", [](const FaultEnv&) {
    TPipe pipe;
    TQue<TPosition::VECOUT, 2> q;
    pipe.InitBuffer(q, 2, 256);
    q.DeQue<float>();
  });
}

}  // namespace
