//===- match_main.cpp - phaseprobe-match ----------------------------------===//
//
// Stage 3 of METHOD.md as a command: reads a phase file and an NPPDB, matches
// every significant leaf phase against the base node's profiles and prints
// the candidates (a table; --explain adds the per-field differences and
// points of every compared profile, --top N the runners-up). --json writes
// the phaseprobe.estimate/1 document without estimates (CONTRACTS.md).
//
//===----------------------------------------------------------------------===//
#include "match_text.h"

#include "phaseprobe/atomic_file.h"
#include "phaseprobe/cli.h"
#include "phaseprobe/error.h"
#include "phaseprobe/matcher.h"

#include <CLI/CLI.hpp>

#include <cstdio>

using namespace phaseprobe;

int main(int Argc, char **Argv) {
  CLI::App App{"Find, for each phase of an instrumented run, the most similar "
               "microbenchmark profile measured on the base node (METHOD.md, stage 3)."};
  App.name("phaseprobe-match");
  std::vector<std::string> PhasesPaths;
  std::string DbPath, Base, JsonOut, ConfigPath, PairingArg;
  bool Explain = false, PrintConfig = false, Relax = false;
  size_t Top = 0;
  App.add_option("phases", PhasesPaths,
                 "Phase file (phaseprobe.phases/1); several runs of the same program on the base "
                 "node are merged into per-phase medians");
  App.add_option("--db", DbPath, "NPPDB (SQLite) with the base node's profiles");
  App.add_option("--base", Base, "Label of the base node (where the phase file was measured)");
  App.add_option("--json", JsonOut, "Also write the result as JSON (phaseprobe.estimate/1)");
  App.add_flag("--explain", Explain,
               "Print, per query and compared profile, each field's relative difference "
               "and points");
  App.add_option("--top", Top, "Also list the N next-best profiles of each phase");
  App.add_option("--config", ConfigPath,
                 "Thresholds, bands and points (JSON, see matcher/README.md)");
  App.add_option("--pairing", PairingArg,
                 "Stream pairing of multi-stream queries: ordered (METHOD.md) or best")
      ->check(CLI::IsMember({"ordered", "best"}));
  App.add_flag("--relax-unmatched", Relax,
               "Match phases that no profile survives again with the tpi discard off "
               "(marked relaxed; for phaseprobe-estimate --projection ratio)");
  App.add_flag("--print-config", PrintConfig,
               "Print the configuration in force (defaults merged with --config) and exit");

  return runTool("phaseprobe-match", App, Argc, Argv, [&]() -> int {
    if (PrintConfig) {
      MatchConfig C = ConfigPath.empty() ? MatchConfig::defaults() : readMatchConfig(ConfigPath);
      std::fputs(formatMatchConfig(C).c_str(), stdout);
      return ExitOk;
    }
    if (PhasesPaths.empty())
      throw InputError("", "", "no phase file given (see --help)");
    if (DbPath.empty())
      throw InputError("", "", "--db is required");
    if (Base.empty())
      throw InputError("", "", "--base is required");
    if (!JsonOut.empty())
      checkWritable(JsonOut);
    MatchInputs In = loadMatchInputs(PhasesPaths, DbPath, Base, ConfigPath, PairingArg);

    NppdbProfileSource Src(*In.db, In.base);
    ExplainLog Log;
    MatchOptions O;
    O.pairing = In.pairing;
    O.keep = std::max<size_t>(Top + 1, 16);
    if (Explain)
      Log.attach(O);
    std::vector<PhaseMatch> M = matchPhases(In.phases, Src, In.config, In.streamKiB, O);
    if (Relax)
      relaxUnmatched(In.phases, Src, In.config, In.streamKiB, O, M);
    noteMissingThreadCounts(In, M);

    if (!JsonOut.empty())
      writeFileAtomically(
          JsonOut,
          matchReportJson(In.phases, In.base, M, In.config, In.pairing, Top).dump(2) + "\n");
    printMatchTable(stdout, In, M, Top);
    if (Explain)
      Log.print(stdout, In, M);
    return ExitOk;
  });
}
