// SystemC's main() calls sc_main; the tests run from here.
#include <gtest/gtest.h>

#include <cstdlib>
#include <systemc>  // declares sc_main extern "C"

static const bool kNoBanner = setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 0) == 0;

int sc_main(int argc, char** argv) {
  (void)kNoBanner;
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
