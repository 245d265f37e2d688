//===- cli.cpp - One error path for every command -------------------------===//
#include "phaseprobe/cli.h"
#include "phaseprobe/error.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>

#ifndef PHASEPROBE_VERSION
#define PHASEPROBE_VERSION "unknown"
#endif

namespace phaseprobe {

const char *version() { return PHASEPROBE_VERSION; }

int runTool(const char *Tool, CLI::App &App, int Argc, char **Argv,
            const std::function<int()> &Body) {
  try {
    App.parse(Argc, Argv);
  } catch (const CLI::CallForHelp &E) {
    return App.exit(E);
  } catch (const CLI::CallForAllHelp &E) {
    return App.exit(E);
  } catch (const CLI::CallForVersion &E) {
    return App.exit(E);
  } catch (const CLI::ParseError &E) {
    std::fprintf(stderr, "%s: %s (see --help)\n", Tool, E.what());
    return ExitBadInput;
  }
  try {
    return Body();
  } catch (const InputError &E) {
    std::fprintf(stderr, "%s: %s\n", Tool, E.what());
    return ExitBadInput;
  } catch (const WorkError &E) {
    std::fprintf(stderr, "%s: %s\n", Tool, E.what());
    return ExitWorkFailed;
  } catch (const std::bad_alloc &) {
    std::fprintf(stderr, "%s: out of memory\n", Tool);
    return ExitWorkFailed;
  } catch (const std::exception &E) {
    std::fprintf(stderr, "%s: internal error: %s\n", Tool, E.what());
    return ExitWorkFailed;
  }
}

} // namespace phaseprobe
