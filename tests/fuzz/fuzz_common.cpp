#include "tests/fuzz/fuzz_common.h"

#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <vector>

// SystemC's library refers to sc_main; the harnesses have their own main() (libFuzzer's or
// replay.cpp's) and never start a simulation.
extern "C" int sc_main(int, char**);
int sc_main(int, char**) {
  return 1;
}

namespace ascend::fuzz {

std::string enter_scratch_dir() {
  const char* base = std::getenv("TMPDIR");
  std::string tmpl = std::string(base && *base ? base : "/tmp") + "/ascend-fuzz-XXXXXX";
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back('\0');
  if (!mkdtemp(buf.data()) || chdir(buf.data()) != 0) finding("cannot make a scratch directory");
  return buf.data();
}

void clean_scratch_dir(const std::string& dir, const std::string& keep) {
  namespace fs = std::filesystem;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec))
    if (e.path().filename() != keep) fs::remove_all(e.path(), ec);
}

}  // namespace ascend::fuzz
