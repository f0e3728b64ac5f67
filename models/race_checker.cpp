#include "models/race_checker.h"

#include <algorithm>
#include <sstream>

namespace ascend::model {

void RaceChecker::reset() {
  clock_ = {};
  for (auto& l : log_) l.clear();
  ub_.clear();
  gm_.clear();
  flags_.clear();
  flag_head_.clear();
}

void RaceChecker::begin(PipeId p, const VClock& issued, const char* name, Tick issued_at,
                        uint64_t seq) {
  VClock& c = clock_[static_cast<int>(p)];
  for (int i = 0; i < kPipes; ++i) c[i] = std::max(c[i], issued[i]);
  ++c[static_cast<int>(p)];
  log_[static_cast<int>(p)].push_back(Entry{name, issued_at, now(), seq});
}

void RaceChecker::ub(PipeId p, uint64_t lo, uint64_t hi, bool write) {
  if (hi <= lo) return;
  Entry& e = log_[static_cast<int>(p)].back();
  if (e.hi == 0) {
    e.lo = lo;
    e.hi = hi;
  }
  uint64_t last = (hi - 1) / kBlock;
  if (ub_.size() <= last) ub_.resize(last + 1);
  for (uint64_t b = lo / kBlock; b <= last; ++b) access(ub_[b], p, b, write, false);
}

void RaceChecker::gm(PipeId p, uint64_t lo, uint64_t hi, bool write) {
  if (hi <= lo) return;
  for (uint64_t b = lo / kBlock; b <= (hi - 1) / kBlock; ++b) access(gm_[b], p, b, write, true);
}

void RaceChecker::access(Shadow& s, PipeId p, uint64_t block, bool write, bool gm) {
  const VClock& c = clock_[static_cast<int>(p)];
  int me = static_cast<int>(p);
  if (s.write_epoch && s.write_pipe != me && s.write_epoch > c[s.write_pipe])
    report(true, static_cast<PipeId>(s.write_pipe), s.write_epoch, write, p, block, gm);
  if (write) {
    for (int q = 0; q < kPipes; ++q)
      if (q != me && s.read_epoch[q] > c[q])
        report(false, static_cast<PipeId>(q), s.read_epoch[q], true, p, block, gm);
    s.write_pipe = static_cast<uint8_t>(me);
    s.write_epoch = c[me];
    s.read_epoch = {};
  } else {
    s.read_epoch[me] = c[me];
  }
}

void RaceChecker::set_flag(PipeId src, uint64_t key) {
  flags_[key].push_back(clock_[static_cast<int>(src)]);
}

void RaceChecker::wait_flag(PipeId dst, uint64_t key) {
  auto it = flags_.find(key);
  if (it == flags_.end()) return;
  size_t& head = flag_head_[key];
  if (head >= it->second.size()) return;
  VClock& c = clock_[static_cast<int>(dst)];
  const VClock& snap = it->second[head++];
  for (int i = 0; i < kPipes; ++i) c[i] = std::max(c[i], snap[i]);
  if (head == it->second.size()) {  // all consumed: start the FIFO afresh
    it->second.clear();
    head = 0;
  }
}

void RaceChecker::join_into_scalar(PipeId p) {
  VClock& s = clock_[0];
  const VClock& c = clock_[static_cast<int>(p)];
  for (int i = 0; i < kPipes; ++i) s[i] = std::max(s[i], c[i]);
}

void RaceChecker::join_all_into_scalar() {
  VClock& s = clock_[0];
  for (const VClock& c : clock_)
    for (int i = 0; i < kPipes; ++i) s[i] = std::max(s[i], c[i]);
}

const RaceChecker::Entry* RaceChecker::entry(PipeId p, uint32_t epoch) const {
  const auto& log = log_[static_cast<int>(p)];
  return epoch == 0 || epoch > log.size() ? nullptr : &log[epoch - 1];
}

std::string RaceChecker::describe(PipeId p, const Entry& e) const {
  std::ostringstream os;
  os << lane_name(lane_of(p)) << " " << e.name << " (instruction #" << e.seq
     << " of the core, issued at " << ps_to_ns(e.issued_at) << " ns, started at "
     << ps_to_ns(e.started_at) << " ns";
  if (e.hi > e.lo) os << ", UB [" << e.lo << ", " << e.hi << ")";
  os << ")";
  return os.str();
}

void RaceChecker::report(bool first_write, PipeId first_pipe, uint32_t first_epoch, bool write,
                         PipeId second, uint64_t block, bool gm) {
  ++hazards_;
  uint32_t second_epoch = clock_[static_cast<int>(second)][static_cast<int>(second)];
  const Entry* a = entry(first_pipe, first_epoch);
  const Entry* b = entry(second, second_epoch);
  if (!a || !b) return;
  // Name the pair in program order: the later instruction is not ordered after the earlier.
  bool swap = a->seq > b->seq;
  PipeId ep = swap ? second : first_pipe, lp = swap ? first_pipe : second;
  const Entry* e = swap ? b : a;
  const Entry* l = swap ? a : b;
  bool ew = swap ? write : first_write, lw = swap ? first_write : write;
  // One finding per pair of instructions kinds and pipes: a loop repeats the same hazard.
  std::string key =
      std::string(lane_name(lane_of(ep))) + e->name + "|" + lane_name(lane_of(lp)) + l->name;
  if (seen_.count(key) || findings_.size() >= kMaxFindings) return;
  seen_[key] = true;
  std::ostringstream os;
  os << (lw ? "write" : "read") << " after " << (ew ? "write" : "read") << " on "
     << (gm ? "GM" : "UB") << " bytes [";
  uint64_t at = block * kBlock;
  if (gm)
    os << "die " << (at >> 40) << " 0x" << std::hex << (at & ((uint64_t{1} << 40) - 1)) << std::dec;
  else
    os << at;
  os << ", +" << kBlock << ") of die " << die_ << " core " << core_ << ": " << describe(lp, *l)
     << " is not ordered after " << describe(ep, *e)
     << " (no SetFlag/WaitFlag, PipeBarrier, EnQue/DeQue or scalar wait between them)";
  findings_.push_back(os.str());
}

}  // namespace ascend::model
