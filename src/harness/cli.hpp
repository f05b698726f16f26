// CLI11, included so that it also compiles under SimGrid's smpicxx, whose
// forced header defines exit(x) as a macro (CLI::App has a member exit with
// three parameters). Everywhere else this is just <CLI/CLI.hpp>.
#pragma once

#pragma push_macro("exit")
#undef exit
#include <CLI/CLI.hpp>
#pragma pop_macro("exit")
