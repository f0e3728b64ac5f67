// ascend-sim: SystemC's own main() sets up the kernel and calls sc_main (apps/ascend-sim/cli.cpp
// does the rest).
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <systemc>

#include "apps/ascend-sim/cli.h"

// SystemC prints its banner before sc_main runs, so this must happen during static initialisation.
static const bool kNoBanner = setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 0) == 0;

// glibc's malloc backs the heap with transparent huge pages only when the tunable
// glibc.malloc.hugetlb=1 is in the environment as the process starts, so the simulator sets it
// and starts itself again, once. Fewer page faults and TLB misses over the run's hundreds of MiB
// (the default scenario 0.76 of the wall time, paired); simulated time is untouched.
// ASCEND_SIM_NO_HUGE_PAGES=1 leaves the environment alone (a profiler that does not follow exec).
static void ask_for_huge_pages(char** argv) {
  if (std::getenv("ASCEND_SIM_NO_HUGE_PAGES")) return;
  const char* set = std::getenv("GLIBC_TUNABLES");
  std::string tunables = set ? set : "";
  if (tunables.find("glibc.malloc.hugetlb") != std::string::npos) return;
  tunables += (tunables.empty() ? "" : ":") + std::string("glibc.malloc.hugetlb=1");
  if (setenv("GLIBC_TUNABLES", tunables.c_str(), 1) != 0) return;
  execv("/proc/self/exe", argv);
  unsetenv("GLIBC_TUNABLES");  // exec failed: run on as started
  if (set) setenv("GLIBC_TUNABLES", set, 1);
}

int sc_main(int argc, char** argv) {
  (void)kNoBanner;
  ask_for_huge_pages(argv);
  return ascend::cli_main(argc, argv);
}
