#include "models/core_units.h"

#include <sys/mman.h>

#include <cerrno>
#include <cstring>

#include "models/errors.h"

namespace ascend::model {

ZeroPages::ZeroPages(size_t bytes) : bytes_(std::max<size_t>(bytes, 1)) {
  void* p = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED)
    throw SimError(kExitInternal, "cannot map " + std::to_string(bytes_) +
                                      " B for the cores' UBs: " + std::strerror(errno));
  base_ = static_cast<uint8_t*>(p);
}

ZeroPages::~ZeroPages() {
  munmap(base_, bytes_);
}

DmaEngine::DmaEngine(const sc_core::sc_module_name& name, const CostModel& cost, DmaPath path)
    : sc_core::sc_module(name),
      socket("socket"),
      cost_(cost),
      path_(path),
      write_(writes_gm(path)),
      engine_(basename(), 0),
      window_(std::string(basename()) + ".window", 0),
      done_(new EngineDone) {
  payload_.set_extension(done_);
  payload_.set_command(write_ ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  payload_.set_data_ptr(nullptr);
  payload_.set_streaming_width(0);
}

DmaEngine::Timing DmaEngine::transfer(Tick ready, GmAddr gm, uint64_t bytes,
                                      uint64_t l2_hit_bytes) {
  Tick hold = cost_.dma_engine_hold(bytes, gm, path_, l2_hit_bytes);
  BandwidthServer::Hold h = engine_.reserve(ready, hold, bytes);
  free_at_ = h.end;
  done_->at = h.end;
  done_->path_latency = 0;
  done_->response = 0;
  done_->remote = false;
  payload_.set_address(gm);
  payload_.set_data_length(static_cast<unsigned>(bytes - l2_hit_bytes));
  payload_.set_streaming_width(static_cast<unsigned>(bytes - l2_hit_bytes));
  payload_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time delay = offset(ready);
  socket->b_transport(payload_, delay);
  if (payload_.is_response_error())
    throw SimError(kExitInternal, std::string(name()) + ": the memory path answered " +
                                      payload_.get_response_string() + " for GM address " +
                                      std::to_string(gm));
  Tick landed = at(delay);
  // A request leaves the window when its response is back: one round trip.
  Tick bound =
      cost_.outstanding_bound(bytes, done_->path_latency + done_->response, path_, done_->remote);
  if (bound > 0) landed = std::max(landed, window_.reserve(h.start, bound, bytes).end);
  return {h.start, landed, landed + done_->response};
}

}  // namespace ascend::model
