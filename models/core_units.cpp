#include "models/core_units.h"

#include "models/errors.h"

namespace ascend::model {

DmaEngine::DmaEngine(const sc_core::sc_module_name& name, const CostModel& cost, bool write)
    : sc_core::sc_module(name),
      socket("socket"),
      cost_(cost),
      write_(write),
      engine_(basename(), 0),
      done_(new EngineDone) {
  payload_.set_extension(done_);
  payload_.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  payload_.set_data_ptr(nullptr);
  payload_.set_streaming_width(0);
}

DmaEngine::Timing DmaEngine::transfer(Tick ready, GmAddr gm, uint64_t bytes) {
  Tick hold = cost_.dma_engine_hold(bytes, gm, write_);
  BandwidthServer::Hold h = engine_.reserve(ready, hold, bytes);
  free_at_ = h.end;
  done_->at = h.end;
  payload_.set_address(gm);
  payload_.set_data_length(static_cast<unsigned>(bytes));
  payload_.set_streaming_width(static_cast<unsigned>(bytes));
  payload_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time delay = offset(ready);
  socket->b_transport(payload_, delay);
  if (payload_.is_response_error())
    throw SimError(kExitInternal, std::string(name()) + ": the memory path answered " +
                                      payload_.get_response_string() + " for GM address " +
                                      std::to_string(gm));
  return {h.start, at(delay)};
}

}  // namespace ascend::model
