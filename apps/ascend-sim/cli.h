// The ascend-sim command line (apps/ascend-sim/main.cpp is its SystemC entry point): parses the
// flags, builds the parameters, plans the kernel, runs it and writes the outputs.
#pragma once

namespace ascend {

// How far run_cli goes. BeforeElaboration stops where --dry-run stops (after every check of the
// command and the kernel's plan, before any SystemC object exists) whatever the flags say, so
// that a harness can drive the whole command line in one process (tests/fuzz/fuzz_cli.cpp).
enum class CliStop { Never, BeforeElaboration };

// Returns the exit status; bad input and the run's failures are thrown as SimError.
int run_cli(int argc, char** argv, CliStop stop = CliStop::Never);
// run_cli with every error turned into its message on stderr and its exit status.
int cli_main(int argc, char** argv);

}  // namespace ascend
