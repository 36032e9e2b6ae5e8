#pragma once

namespace hplsim::sim {
/// The `hplsim` command line; returns the process exit code.
int run_cli(int argc, char** argv);
} // namespace hplsim::sim
