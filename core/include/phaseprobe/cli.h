//===- phaseprobe/cli.h - The shared shape of every command -----*- C++ -*-===//
//
// Every phaseprobe-* command runs its body through runTool(), which turns the
// error types of error.h into one line on stderr and the exit codes of
// CONTRACTS.md (0 ok, 1 work failed, 2 bad usage or input). Commands parse
// their arguments with CLI11 inside the body; CLI11 errors count as usage.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <functional>
#include <string>

namespace CLI {
class App;
}

namespace phaseprobe {

/// Runs \p Body, printing "<Tool>: <message>" for any error. --help output and
/// CLI11 parse errors go through App.exit(). Returns the process exit code.
int runTool(const char *Tool, CLI::App &App, int Argc, char **Argv,
            const std::function<int()> &Body);

/// The project version string ("0.1.0"), stamped into databases and reports.
const char *version();

} // namespace phaseprobe
