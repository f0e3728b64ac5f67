// What every field of stats.json means, described once: its path, unit and meaning. The writers
// (outputs.cpp, the command line, the SDK) produce these fields; `ascend-sim --list-stats` prints
// this table, docs/reference/stats.md is generated from it, and a test checks that every field a
// run writes is described here.
#pragma once

#include <string>
#include <vector>

#include "models/cluster.h"

namespace ascend {

// A path names a field from the top: `kernels[]` is every element of the list `kernels`,
// `<PIPE>` any pipe name (SCALAR, VECTOR, MTE2, MTE3, MTE1, CUBE, FIXP), `<CLASS>` a link class,
// `<FIGURE>` any figure the kernel declares (its unit under `units`), `<KEY>` any key.
struct StatField {
  const char* path;
  const char* unit;  // "" when the field has none (a name, a list, an object)
  const char* description;
};

const std::vector<StatField>& stats_fields();
// The description of one path (for stats.json's `notes`), or "".
std::string stat_description(const std::string& path);
// stats_fields() as a Markdown table (--list-stats; docs/reference/stats.md).
std::string stats_table_markdown();

// The model's counters, as their modules declare them (model::CounterSpec): the counters of each
// kind of counting module (model::Counted: its type and its counters) of an elaborated cluster,
// found by walking its module tree, and the link classes. The figures of stats.json are read from
// these counters
// (`--list-counters`; docs/reference/stats.md).
struct CounterRow {
  std::string module;  // the first module of its kind, and how many there are
  std::string name, unit, description;
};
std::vector<CounterRow> counter_rows(model::Cluster& cluster);
std::string counters_table_markdown(const std::vector<CounterRow>& rows);

}  // namespace ascend
