#include "kernels/ffn_worker_batching/ffn_golden.h"

#include <algorithm>
#include <cstring>

namespace ascend::ffn {

Outputs golden(const Attrs& a, const Inputs& in, int f, int l, int m) {
  const int k1 = selected(a);
  const int64_t eps = entries_per_session(a);
  struct Entry {
    int64_t gid;
    int s, b, k;
  };
  std::vector<Entry> v;
  for (int s = 0; s < sessions(a); ++s) {
    const std::vector<int32_t>& ids = in.expert_ids(a, f, s, l, m);
    for (int64_t j = 0; j < eps; ++j)
      if (ids[j] < kMaskId)
        v.push_back({static_cast<int64_t>(l) * local_experts(a) + ids[j], s,
                     static_cast<int>(j / k1), static_cast<int>(j % k1)});
  }
  std::stable_sort(v.begin(), v.end(),
                   [](const Entry& x, const Entry& y) { return x.gid < y.gid; });
  Outputs o;
  o.actual = static_cast<int64_t>(v.size());
  const uint64_t rb = row_bytes(a), pb = payload_bytes(a);
  o.group_list.assign(static_cast<size_t>(expert_num(a)) * 2, 0);
  size_t run = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    const Entry& e = v[i];
    const std::vector<uint8_t>& x = in.rows(a, e.s, l, m);
    o.y.insert(o.y.end(), x.begin() + e.b * pb, x.begin() + e.b * pb + rb);
    if (a.dtype == TokenDtype::Int8) {
      float sc;
      std::memcpy(&sc, x.data() + e.b * pb + rb, 4);
      o.dynamic_scale.push_back(sc);
    }
    o.session_ids.push_back(e.s);
    o.micro_batch_ids.push_back(m);
    o.token_ids.push_back(e.b);
    o.expert_offsets.push_back(e.k);
    if (i == 0 || v[i - 1].gid != e.gid) {
      o.group_list[2 * run] = e.gid;
      ++run;
    }
    ++o.group_list[2 * (run - 1) + 1];
  }
  return o;
}

}  // namespace ascend::ffn
