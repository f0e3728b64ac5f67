// The race check (--racecheck): finds two instructions of one core, on different pipes, that
// touch the same UB bytes (or the same GM bytes) with at least one write and nothing ordering
// them. On hardware such a pair gives no error, only wrong data or a hang, depending on timing.
//
// Happens-before is tracked with a vector clock per pipe (S, V, MTE2, MTE3), as in FastTrack:
//  - each instruction (and each scalar UB/GM access) advances its pipe's own entry: its epoch;
//  - an instruction issued by the scalar inherits the scalar's clock at issue (program order);
//  - SetFlag snapshots the source pipe's clock (it runs after every earlier instruction of its
//    pipe), WaitFlag joins the snapshot into the destination pipe's clock. EnQue/DeQue and
//    FreeTensor/AllocTensor are such flag pairs, so queues order pipes the same way;
//  - PipeBarrier<PIPE_ALL> (and the kernel's end) joins every pipe's clock into the scalar's.
// Every 32-B block of UB, and of GM the core touches, remembers its last write (pipe, epoch) and
// the last read per pipe. An access by pipe P conflicts with an earlier access by Q != P when
// that access's epoch is not covered by P's clock. Instructions of one pipe run in order.
// The check only reads clocks and shadow state: it schedules nothing and never changes timing.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "models/events.h"
#include "models/time.h"

namespace ascend::model {

class RaceChecker {
 public:
  using VClock = std::array<uint32_t, kPipes>;
  static constexpr uint32_t kBlock = 32;
  static constexpr size_t kMaxFindings = 16;

  RaceChecker(int die, int core) : die_(die), core_(core) {}
  void reset();  // a new launch: clocks, shadows and flags start afresh

  // Program order: the scalar's clock, carried by each instruction it issues.
  const VClock& scalar_clock() const { return clock_[0]; }
  // An instruction starts on pipe p: joins its issue clock, takes the next epoch of p and logs
  // what it is for reports. Its accesses follow (ub/gm).
  void begin(PipeId p, const VClock& issued, const char* name, Tick issued_at, uint64_t seq);
  void ub(PipeId p, uint64_t lo, uint64_t hi, bool write);
  void gm(PipeId p, uint64_t lo, uint64_t hi, bool write);
  void set_flag(PipeId src, uint64_t key);
  void wait_flag(PipeId dst, uint64_t key);
  void join_all_into_scalar();
  void join_into_scalar(PipeId p);  // the scalar waited for pipe p's instructions so far

  const std::vector<std::string>& findings() const { return findings_; }
  uint64_t hazards() const { return hazards_; }

 private:
  struct Shadow {
    uint32_t write_epoch = 0;  // 0: never written
    uint8_t write_pipe = 0;
    std::array<uint32_t, kPipes> read_epoch{};
  };
  struct Entry {  // what an epoch of a pipe was, for reports
    const char* name;
    Tick issued_at, started_at;
    uint64_t seq;
    uint64_t lo = 0, hi = 0;
    bool gm = false;
  };
  void access(Shadow& s, PipeId p, uint64_t block, bool write, bool gm);
  // The access `write` of `second` conflicts with the earlier-processed access of first_pipe.
  void report(bool first_write, PipeId first_pipe, uint32_t first_epoch, bool write, PipeId second,
              uint64_t block, bool gm);
  const Entry* entry(PipeId p, uint32_t epoch) const;
  std::string describe(PipeId p, const Entry& e) const;

  int die_, core_;
  std::array<VClock, kPipes> clock_{};
  std::array<std::vector<Entry>, kPipes> log_;
  std::vector<Shadow> ub_;
  std::unordered_map<uint64_t, Shadow> gm_;
  std::unordered_map<uint64_t, std::vector<VClock>> flags_;  // pending SetFlag snapshots (FIFO)
  std::unordered_map<uint64_t, size_t> flag_head_;
  std::vector<std::string> findings_;
  std::unordered_map<std::string, bool> seen_;
  uint64_t hazards_ = 0;
};

}  // namespace ascend::model
