// ascend-sim: SystemC's own main() sets up the kernel and calls sc_main (sim/cli.cpp does the
// rest).
#include <cstdlib>
#include <systemc>

#include "sim/cli.h"

// SystemC prints its banner before sc_main runs, so this must happen during static initialisation.
static const bool kNoBanner = setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 0) == 0;

int sc_main(int argc, char** argv) {
  (void)kNoBanner;
  return ascend::cli_main(argc, argv);
}
