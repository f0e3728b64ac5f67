// The ACL runtime of the .asc flow (sdk/acl.cpp, acl/acl.h): the bytes decode into a sequence of
// calls with hostile arguments (null pointers, counts and sizes past allocations, huge sizes,
// wrong and unknown copy kinds, freed pointers, double frees, destroyed and bogus streams and
// contexts, devices other than 0). A model of the runtime's documented rules predicts each call's
// result; the oracle is stricter than "no crash":
// - every call returns what the model predicts (ACL_SUCCESS or the documented error code);
// - a refused call prints exactly one line on stderr, "ascend-sim: CALL: ... (error CODE)", and
//   aclGetRecentErrMsg() returns its text; a call that succeeds prints nothing;
// - aclrtGetLastError returns the first error since the last call;
// - a copy or memset that succeeds leaves exactly the expected bytes.
// Host memory is the program's: the runtime checks a host side only where it lies in a buffer of
// aclrtMallocHost, as on a real host. So a host side the runtime cannot know (the harness's own
// arrays) gets at most its room in bytes, and a freed or bogus pointer is passed only where the
// runtime must refuse it (a free, a device side, a stream).
// Kernel launches are not fuzzed here (a launch simulates the die; a bad stream ends the program
// with exit 2, which tests/fuzz cannot observe in-process and examples/asc/test_asc.sh checks).
#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "acl/acl.h"
#include "tests/fuzz/fuzz_common.h"

namespace {

using ascend::fuzz::finding;

class Bytes {
 public:
  Bytes(const uint8_t* d, size_t n) : d_(d), n_(n) {}
  bool done() const { return i_ >= n_; }
  uint8_t u8() { return i_ < n_ ? d_[i_++] : 0; }
  uint32_t u32() {
    uint32_t v = 0;
    for (int k = 0; k < 4; ++k) v |= static_cast<uint32_t>(u8()) << (8 * k);
    return v;
  }

 private:
  const uint8_t* d_;
  size_t n_;
  size_t i_ = 0;
};

constexpr size_t kMaxAlloc = size_t{1} << 40;  // acl.h: larger sizes are refused
constexpr size_t kArena = 8192;

struct Block {
  uint8_t* p;
  size_t size;
};

// What a pointer argument is, as far as the harness knows.
enum class Is { Null, Device, Host, Arena, Unknown };

struct Ptr {
  void* p = nullptr;
  Is is = Is::Null;
  size_t room = 0;  // bytes from p to the end of its buffer (Device, Host, Arena)
};

struct Model {
  bool initialized = false, device_set = false;
  std::vector<Block> dev, host, dev_freed, host_freed;
  std::vector<void*> streams, streams_dead, contexts, contexts_dead;
  aclError last = ACL_SUCCESS;
  std::string message;  // the last error's text
  uint8_t arena[2][kArena] = {};
  uint32_t tick = 0;

  static const Block* find(const std::vector<Block>& v, const void* p) {
    for (const Block& b : v)
      if (static_cast<const uint8_t*>(p) >= b.p && static_cast<const uint8_t*>(p) < b.p + b.size)
        return &b;
    return nullptr;
  }
  // A new allocation at p: a freed block there is no longer freed memory.
  void reused(const void* p, size_t size) {
    auto overlaps = [&](const Block& b) {
      const auto* q = static_cast<const uint8_t*>(p);
      return b.p < q + std::max<size_t>(size, 1) && q < b.p + std::max<size_t>(b.size, 1);
    };
    dev_freed.erase(std::remove_if(dev_freed.begin(), dev_freed.end(), overlaps), dev_freed.end());
    host_freed.erase(std::remove_if(host_freed.begin(), host_freed.end(), overlaps),
                     host_freed.end());
  }
  static void reused_handle(std::vector<void*>& dead, void* h) {
    dead.erase(std::remove(dead.begin(), dead.end(), h), dead.end());
  }
};

Model* model;
std::ostringstream* captured;
const char* config_path = nullptr;  // aclInit's (ignored by the runtime): null or a path
bool trace = false;                 // FUZZ_ACL_TRACE=1: each call and its result on stdout

size_t pick_size(Bytes& in) {
  const uint8_t mode = in.u8();
  const uint32_t r = in.u32();
  switch (mode % 8) {
    case 0:
      return 0;
    case 1:
      return SIZE_MAX - r % 1024;  // wraps when rounded up to whole lines
    case 2:
      return kMaxAlloc + 1 + r % 4096;
    case 3:
      return size_t{1} << (41 + r % 23);
    case 4:
      return 512 * (1 + r % 8);
    default:
      return 1 + r % 4096;
  }
}

template <class T>
T pick(Bytes& in, const std::vector<T>& v) {
  return v[in.u8() % v.size()];
}

Ptr pick_ptr(Bytes& in) {
  Model& m = *model;
  const uint8_t mode = in.u8();
  const uint32_t r = in.u32();
  Ptr p;
  auto in_block = [&](const Block& b, Is is) {
    const size_t off = r % (b.size + 1) == b.size ? b.size : (r % 3 == 0 ? 0 : r % (b.size + 1));
    p.p = b.p + off;
    p.room = b.size - off;
    p.is = off == b.size ? Is::Unknown : is;  // one past the end: memory the runtime cannot know
  };
  switch (mode % 10) {
    case 0:
      break;
    case 1:
    case 2:
    case 3:
      if (!m.dev.empty()) in_block(pick(in, m.dev), Is::Device);
      break;
    case 4:
      if (!m.host.empty()) in_block(pick(in, m.host), Is::Host);
      break;
    case 5:
    case 6: {
      const size_t off = r % kArena;
      p.p = m.arena[(r >> 16) & 1] + off;
      p.is = Is::Arena;
      p.room = kArena - off;
      break;
    }
    case 7:
      if (!m.dev_freed.empty()) p.p = pick(in, m.dev_freed).p, p.is = Is::Unknown;
      break;
    case 8:
      if (!m.host_freed.empty()) p.p = pick(in, m.host_freed).p, p.is = Is::Unknown;
      break;
    default:
      if (!m.streams.empty() && r % 2)
        p.p = pick(in, m.streams), p.is = Is::Unknown;
      else
        p.p = reinterpret_cast<void*>(uintptr_t{4096} * (1 + r % 16)), p.is = Is::Unknown;
      break;
  }
  return p;
}

void* pick_handle(Bytes& in, const std::vector<void*>& live, const std::vector<void*>& dead,
                  const std::vector<void*>& other) {
  const uint8_t mode = in.u8();
  switch (mode % 6) {
    case 0:
      return nullptr;
    case 1:
      return dead.empty() ? nullptr : pick(in, dead);
    case 2:
      return other.empty() ? nullptr : pick(in, other);
    case 3:
      return model->arena[0] + mode;  // a host address that is no handle
    default:
      return live.empty() ? nullptr : pick(in, live);
  }
}

int32_t pick_device(Bytes& in) {
  static const int32_t devices[] = {0, 0, 0, 1, -1, 2, INT_MAX, INT_MIN, 7};
  return devices[in.u8() % 9];
}

// Runs one call with stderr captured and checks its result against the model's prediction.
template <class F>
aclError call(const char* name, aclError expect, F&& f) {
  Model& m = *model;
  captured->str("");
  const aclError got = f();
  const std::string err = captured->str();
  if (trace) std::printf("%s -> %d %s", name, got, err.empty() ? "\n" : err.c_str());
  if (got != expect)
    finding(std::string(name) + " returned " + std::to_string(got) + ", the model expects " +
            std::to_string(expect) + (err.empty() ? "" : "; it printed: " + err));
  if (got == ACL_SUCCESS) {
    if (!err.empty()) finding(std::string(name) + " succeeded but printed: " + err);
    return got;
  }
  const std::string head = "ascend-sim: " + std::string(name);
  const std::string tail = " (error " + std::to_string(got) + ")\n";
  if (err.size() < head.size() + 1 + tail.size() || err.compare(0, head.size(), head) != 0 ||
      (err[head.size()] != ':' && err[head.size()] != '(') ||
      err.compare(err.size() - tail.size(), tail.size(), tail) != 0 ||
      std::count(err.begin(), err.end(), '\n') != 1)
    finding(std::string(name) + " refused with " + std::to_string(got) +
            " but its message is not one line naming the call and the code: '" + err + "'");
  m.message = err.substr(12, err.size() - 12 - tail.size());
  const char* recent = aclGetRecentErrMsg();
  if (!recent || m.message != recent)
    finding(std::string(name) + ": aclGetRecentErrMsg() is '" + (recent ? recent : "(null)") +
            "', not the message printed");
  if (m.last == ACL_SUCCESS) m.last = got;
  return got;
}

bool is_dev(const void* p) {
  return Model::find(model->dev, p) != nullptr;
}

// The documented verdict of aclrtMemcpy[Async] (acl.h) and whether the copy may run.
aclError memcpy_verdict(const Ptr& dst, size_t destMax, const Ptr& src, size_t count, int kind,
                        bool* unsafe) {
  *unsafe = false;
  if (!dst.p || !src.p || count > destMax || kind < 0 || kind > 4) return ACL_ERROR_INVALID_PARAM;
  const bool dd = is_dev(dst.p), sd = is_dev(src.p);
  const bool wd = kind == ACL_MEMCPY_DEFAULT ? dd : kind == 1 || kind == 3;
  const bool ws = kind == ACL_MEMCPY_DEFAULT ? sd : kind == 2 || kind == 3;
  for (auto [ptr, want, isd] : {std::tuple{&dst, wd, dd}, std::tuple{&src, ws, sd}}) {
    if (want != isd) return ACL_ERROR_INVALID_PARAM;
    if (isd && count > Model::find(model->dev, ptr->p)->size -
                           static_cast<size_t>(static_cast<uint8_t*>(ptr->p) -
                                               Model::find(model->dev, ptr->p)->p))
      return ACL_ERROR_INVALID_PARAM;
    if (!isd) {
      const Block* h = Model::find(model->host, ptr->p);
      if (h && count > h->size - static_cast<size_t>(static_cast<uint8_t*>(ptr->p) - h->p))
        return ACL_ERROR_INVALID_PARAM;
      // Memory the runtime cannot know, used as a host side: the program's responsibility.
      if (!h && (ptr->is != Is::Arena || count > ptr->room)) *unsafe = true;
    }
  }
  return ACL_SUCCESS;
}

void do_memcpy(Bytes& in, bool async) {
  Model& m = *model;
  Ptr dst = pick_ptr(in), src = pick_ptr(in);
  static const int kinds[] = {0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 5, 9, -1, INT_MAX, INT_MIN, 8};
  const int kind = kinds[in.u8() % 16];
  const uint8_t cmode = in.u8();
  const uint32_t r = in.u32();
  const size_t room = std::min(dst.room ? dst.room : kArena, src.room ? src.room : kArena);
  size_t count;
  switch (cmode % 8) {
    case 0:
      count = room;
      break;
    case 1:
      count = room + 1;
      break;
    case 2:
      count = 0;
      break;
    case 3:
      count = SIZE_MAX - r % 16;
      break;
    case 4:
      count = std::max(dst.room, src.room) - (r % 2);
      break;
    default:
      count = r % (room + 2);
      break;
  }
  // A side the runtime cannot know (the harness's arrays) gets at most its room, as a program's
  // own buffer would.
  for (const Ptr* p : {&dst, &src})
    if (p->is == Is::Arena && !is_dev(p->p)) count = std::min(count, p->room);
  const uint8_t dmode = in.u8();
  const size_t destMax = dmode % 4 == 0   ? count - (count > 0 ? 1 : 0)
                         : dmode % 4 == 1 ? SIZE_MAX
                                          : count + dmode / 4;
  void* stream = async ? pick_handle(in, m.streams, m.streams_dead, m.contexts) : nullptr;
  bool unsafe = false;
  aclError expect = memcpy_verdict(dst, destMax, src, count, kind, &unsafe);
  const bool bad_stream =
      async && stream && std::find(m.streams.begin(), m.streams.end(), stream) == m.streams.end();
  if (bad_stream) expect = ACL_ERROR_RT_PARAM_INVALID, unsafe = false;
  if (expect == ACL_SUCCESS && unsafe) return;  // a freed or bogus host pointer: not the runtime's
  std::vector<uint8_t> before;
  if (expect == ACL_SUCCESS)
    before.assign(static_cast<uint8_t*>(src.p), static_cast<uint8_t*>(src.p) + count);
  const auto k = static_cast<aclrtMemcpyKind>(kind);
  if (async)
    call("aclrtMemcpyAsync", expect,
         [&] { return aclrtMemcpyAsync(dst.p, destMax, src.p, count, k, stream); });
  else
    call("aclrtMemcpy", expect, [&] { return aclrtMemcpy(dst.p, destMax, src.p, count, k); });
  if (expect == ACL_SUCCESS && count && std::memcmp(dst.p, before.data(), count) != 0)
    finding("a copy that succeeded left other bytes than its source's");
}

void do_memset(Bytes& in) {
  Model& m = *model;
  Ptr p = pick_ptr(in);
  const int32_t value = static_cast<int32_t>(in.u32());
  const uint8_t cmode = in.u8();
  const size_t count = cmode % 4 == 0   ? p.room
                       : cmode % 4 == 1 ? p.room + 1
                       : cmode % 4 == 2 ? SIZE_MAX
                                        : cmode / 4;
  const size_t maxCount = in.u8() % 4 == 0 ? count - (count > 0 ? 1 : 0) : count;
  aclError expect = ACL_SUCCESS;
  const Block* b = Model::find(m.dev, p.p);
  if (!p.p || count > maxCount || !b ||
      count > b->size - static_cast<size_t>(static_cast<uint8_t*>(p.p) - b->p))
    expect = ACL_ERROR_INVALID_PARAM;
  call("aclrtMemset", expect, [&] { return aclrtMemset(p.p, maxCount, value, count); });
  if (expect == ACL_SUCCESS)
    for (size_t i = 0; i < count; ++i)
      if (static_cast<uint8_t*>(p.p)[i] != static_cast<uint8_t>(value))
        finding("aclrtMemset left a byte other than its value");
}

void do_malloc(Bytes& in, bool host) {
  Model& m = *model;
  const bool null_out = in.u8() % 8 == 0;
  const size_t size = pick_size(in);
  void* p = nullptr;
  aclError expect = ACL_SUCCESS;
  if (null_out || size == 0)
    expect = ACL_ERROR_INVALID_PARAM;
  else if (!host && !m.device_set)
    expect = ACL_ERROR_RT_CONTEXT_NULL;
  else if (size > kMaxAlloc)
    expect = host ? ACL_ERROR_BAD_ALLOC : ACL_ERROR_RT_MEMORY_ALLOCATION;
  void** out = null_out ? nullptr : &p;
  if (host)
    call("aclrtMallocHost", expect, [&] { return aclrtMallocHost(out, size); });
  else
    call("aclrtMalloc", expect, [&] {
      return aclrtMalloc(out, size, static_cast<aclrtMemMallocPolicy>(static_cast<int>(in.u8())));
    });
  if (expect != ACL_SUCCESS) return;
  if (!p) finding("an allocation succeeded with a null pointer");
  if (Model::find(m.dev, p) || Model::find(m.host, p)) finding("an allocation overlaps a live one");
  m.reused(p, host ? (size + 63) / 64 * 64 : (size + 511) / 512 * 512);  // as allocated
  (host ? m.host : m.dev).push_back({static_cast<uint8_t*>(p), size});
  if (!host)
    for (size_t i = 0; i < size; ++i)
      if (static_cast<uint8_t*>(p)[i] != 0) finding("aclrtMalloc memory is not zeroed");
}

void do_free(Bytes& in, bool host) {
  Model& m = *model;
  const Ptr p = pick_ptr(in);
  std::vector<Block>& live = host ? m.host : m.dev;
  auto it = std::find_if(live.begin(), live.end(), [&](const Block& b) { return b.p == p.p; });
  aclError expect = !p.p               ? ACL_ERROR_INVALID_PARAM
                    : it == live.end() ? ACL_ERROR_RT_PARAM_INVALID
                                       : ACL_SUCCESS;
  if (host)
    call("aclrtFreeHost", expect, [&] { return aclrtFreeHost(p.p); });
  else
    call("aclrtFree", expect, [&] { return aclrtFree(p.p); });
  if (expect != ACL_SUCCESS) return;
  (host ? m.host_freed : m.dev_freed).push_back(*it);
  live.erase(it);
}

void step(Bytes& in) {
  Model& m = *model;
  const uint8_t op = in.u8();
  switch (op % 22) {
    case 0:
      call("aclInit", m.initialized ? ACL_ERROR_REPEAT_INITIALIZE : ACL_SUCCESS,
           [] { return aclInit(config_path); });
      m.initialized = true;
      break;
    case 1:
      call("aclFinalize", m.initialized ? ACL_SUCCESS : ACL_ERROR_UNINITIALIZE, aclFinalize);
      m.initialized = false;
      break;
    case 2:
    case 3: {
      const int32_t d = pick_device(in);
      const bool set = op % 22 == 2;
      call(set ? "aclrtSetDevice" : "aclrtResetDevice",
           d == 0 ? ACL_SUCCESS : ACL_ERROR_RT_INVALID_DEVICEID,
           [&] { return set ? aclrtSetDevice(d) : aclrtResetDevice(d); });
      if (d == 0) m.device_set = set;
      break;
    }
    case 4: {
      uint32_t n = 0;
      const bool null_out = in.u8() % 2;
      call("aclrtGetDeviceCount", null_out ? ACL_ERROR_INVALID_PARAM : ACL_SUCCESS,
           [&] { return aclrtGetDeviceCount(null_out ? nullptr : &n); });
      if (!null_out && n != 1) finding("aclrtGetDeviceCount: not 1 device");
      break;
    }
    case 5: {
      const bool null_out = in.u8() % 4 == 0;
      const int32_t d = pick_device(in);
      aclrtContext c = nullptr;
      const aclError expect = null_out ? ACL_ERROR_INVALID_PARAM
                              : d != 0 ? ACL_ERROR_RT_INVALID_DEVICEID
                                       : ACL_SUCCESS;
      call("aclrtCreateContext", expect,
           [&] { return aclrtCreateContext(null_out ? nullptr : &c, d); });
      if (expect == ACL_SUCCESS) {
        m.contexts.push_back(c);
        Model::reused_handle(m.contexts_dead, c);
        Model::reused_handle(m.streams_dead, c);
        m.device_set = true;
      }
      break;
    }
    case 6:
    case 7: {
      void* c = pick_handle(in, m.contexts, m.contexts_dead, m.streams);
      auto it = std::find(m.contexts.begin(), m.contexts.end(), c);
      const aclError expect = it == m.contexts.end() ? ACL_ERROR_RT_PARAM_INVALID : ACL_SUCCESS;
      if (op % 22 == 6) {
        call("aclrtDestroyContext", expect, [&] { return aclrtDestroyContext(c); });
        if (expect == ACL_SUCCESS) m.contexts_dead.push_back(c), m.contexts.erase(it);
      } else {
        call("aclrtSetCurrentContext", expect, [&] { return aclrtSetCurrentContext(c); });
        if (expect == ACL_SUCCESS) m.device_set = true;
      }
      break;
    }
    case 8: {
      const bool null_out = in.u8() % 4 == 0;
      aclrtStream s = nullptr;
      const aclError expect = null_out        ? ACL_ERROR_INVALID_PARAM
                              : !m.device_set ? ACL_ERROR_RT_CONTEXT_NULL
                                              : ACL_SUCCESS;
      call("aclrtCreateStream", expect, [&] { return aclrtCreateStream(null_out ? nullptr : &s); });
      if (expect == ACL_SUCCESS) {
        m.streams.push_back(s);
        Model::reused_handle(m.streams_dead, s);
        Model::reused_handle(m.contexts_dead, s);
      }
      break;
    }
    case 9:
    case 10: {
      void* s = pick_handle(in, m.streams, m.streams_dead, m.contexts);
      auto it = std::find(m.streams.begin(), m.streams.end(), s);
      if (op % 22 == 9) {
        call("aclrtDestroyStream", it == m.streams.end() ? ACL_ERROR_RT_PARAM_INVALID : ACL_SUCCESS,
             [&] { return aclrtDestroyStream(s); });
        if (it != m.streams.end()) m.streams_dead.push_back(s), m.streams.erase(it);
      } else {
        call("aclrtSynchronizeStream",
             s && it == m.streams.end() ? ACL_ERROR_RT_PARAM_INVALID : ACL_SUCCESS,
             [&] { return aclrtSynchronizeStream(s); });
      }
      break;
    }
    case 11:
    case 12:
      do_malloc(in, false);
      break;
    case 13:
      do_free(in, false);
      break;
    case 14:
      do_malloc(in, true);
      break;
    case 15:
      do_free(in, true);
      break;
    case 16:
    case 17:
      do_memcpy(in, false);
      break;
    case 18:
      do_memcpy(in, true);
      break;
    case 19:
      do_memset(in);
      break;
    case 20: {
      const aclError got = aclrtGetLastError(static_cast<aclrtLastErrLevel>(in.u8() % 3));
      if (got != m.last)
        finding("aclrtGetLastError returned " + std::to_string(got) + ", the first error since " +
                "the last call was " + std::to_string(m.last));
      m.last = ACL_SUCCESS;
      break;
    }
    default:
      call("aclrtSynchronizeDevice", ACL_SUCCESS, aclrtSynchronizeDevice);
      break;
  }
}

// Back to the runtime's state before the input: every buffer, stream and context released, the
// device reset, the runtime finalized and its last error read.
void release_all() {
  Model& m = *model;
  for (const Block& b : m.dev) call("aclrtFree", ACL_SUCCESS, [&] { return aclrtFree(b.p); });
  for (const Block& b : m.host)
    call("aclrtFreeHost", ACL_SUCCESS, [&] { return aclrtFreeHost(b.p); });
  for (void* s : m.streams)
    call("aclrtDestroyStream", ACL_SUCCESS, [&] { return aclrtDestroyStream(s); });
  for (void* c : m.contexts)
    call("aclrtDestroyContext", ACL_SUCCESS, [&] { return aclrtDestroyContext(c); });
  call("aclrtResetDevice", ACL_SUCCESS, [] { return aclrtResetDevice(0); });
  if (m.initialized) call("aclFinalize", ACL_SUCCESS, aclFinalize);
  aclrtGetLastError(ACL_RT_THREAD_LEVEL);
  const std::string message = m.message;
  Model* fresh = new Model;  // the arenas: 16 KiB, so on the heap
  delete model;
  model = fresh;
  model->message = message;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  static std::ostringstream sink;
  captured = &sink;
  std::cerr.rdbuf(sink.rdbuf());  // the runtime's messages, read back by call()
  model = new Model;
  trace = std::getenv("FUZZ_ACL_TRACE") != nullptr;
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Bytes in(data, size);
  config_path = in.u8() % 2 ? "acl.json" : nullptr;
  for (int steps = 0; !in.done() && steps < 256; ++steps) step(in);
  release_all();
  return 0;
}
