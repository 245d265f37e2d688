//===- inputs.cpp - Validated inputs of phaseprobe-match/-estimate --------===//
//
// Both commands check everything they were given before doing any work, so a
// bad input is one line and exit 2 with nothing written: the phase file, the
// database (read-only: a mistyped path must not create an empty NPPDB), the
// base node, the configuration and the output paths.
//
//===----------------------------------------------------------------------===//
#include "phaseprobe/error.h"
#include "phaseprobe/matcher.h"
#include "phaseprobe/nppdb.h"
#include "phaseprobe/phase_file.h"
#include "phaseprobe/phase_runs.h"
#include "phaseprobe/stream_notation.h"

#include <algorithm>
#include <cstdio>

namespace phaseprobe {

MatchInputs::MatchInputs() = default;
// Out of line: Nppdb is complete only here.
MatchInputs::~MatchInputs() = default;
MatchInputs::MatchInputs(MatchInputs &&) = default;

MatchInputs loadMatchInputs(const std::vector<std::string> &PhasesPaths,
                            const std::string &DbPath, const std::string &Base,
                            const std::string &ConfigPath, const std::string &PairingArg) {
  if (PhasesPaths.empty())
    throw InputError("", "", "no phase file given (see --help)");
  MatchInputs In;
  In.runs = PhasesPaths.size();
  for (const std::string &P : PhasesPaths)
    In.phasesPath += (In.phasesPath.empty() ? "" : ", ") + P;
  In.dbPath = DbPath;
  In.base = Base;
  In.config = ConfigPath.empty() ? MatchConfig::defaults() : readMatchConfig(ConfigPath);
  In.pairing = In.config.pairing;
  if (!PairingArg.empty()) {
    auto P = parsePairing(PairingArg);
    if (!P)
      throw InputError("", "--pairing", "'" + PairingArg + "' is neither ordered nor best");
    In.pairing = *P;
  }
  std::vector<PhaseFile> Runs;
  for (const std::string &P : PhasesPaths)
    Runs.push_back(readPhaseFile(P));
  In.phases = mergePhaseRuns(Runs, PhasesPaths);
  // Runs made without sampling beside sampled ones: only theirs are times.
  size_t Files = Runs.size();
  Runs = timedRuns(Runs, PhasesPaths);
  if (Runs.size() < Files)
    In.phasesPath += " (times: median of " + std::to_string(Runs.size()) +
                     " runs without sampling; streams: the " + std::to_string(Files - Runs.size()) +
                     " sampled)";
  else if (Files > 1)
    In.phasesPath += " (median of " + std::to_string(Files) + " runs)";
  In.runSpread = runSpread(Runs);
  if (Runs.size() > 1)
    In.runFiles = std::move(Runs);
  In.db = Nppdb::open(DbPath, Nppdb::Mode::ReadOnly);
  std::optional<NodeInfo> Node = In.db->node(Base);
  if (!Node) {
    std::string Known;
    for (const std::string &L : In.db->nodes())
      Known += (Known.empty() ? "" : ", ") + L;
    throw InputError(DbPath, "",
                     "no base node '" + Base + "' in the database (" +
                         (Known.empty() ? std::string("it has no nodes") : "nodes: " + Known) +
                         ")");
  }
  if (In.config.significantStreamKiB) {
    In.streamKiB = *In.config.significantStreamKiB;
    In.streamKiBSource = "significant_stream_kib of the configuration";
  } else if (Node->l1dKiB > 0) {
    In.streamKiB = Node->l1dKiB;
    In.streamKiBSource = "L1d of " + Base + " in the NPPDB";
  } else if (In.phases.node && In.phases.node->l1dKiB > 0) {
    In.streamKiB = In.phases.node->l1dKiB;
    In.streamKiBSource = "L1d in the phase file's node description";
  } else {
    In.streamKiB = 0;
    In.streamKiBSource = "L1d of " + Base + " unknown: every stream counts";
  }
  return In;
}

void noteMissingThreadCounts(const MatchInputs &In, std::vector<PhaseMatch> &M) {
  std::vector<unsigned> Have = In.db->threadCounts(In.base);
  std::string List;
  for (unsigned T : Have)
    List += (List.empty() ? "" : ",") + std::to_string(T);
  for (PhaseMatch &PM : M) {
    if (PM.status != MatchStatus::NoProfile)
      continue;
    unsigned Th = In.phases.phases[PM.phaseIndex].threads;
    if (std::find(Have.begin(), Have.end(), Th) != Have.end())
      continue;
    PM.notes.push_back(In.base + " has no profiles at " + std::to_string(Th) + " threads (" +
                       (List.empty() ? std::string("it has none") : "it has " + List) + ")");
  }
}

std::string baseRunsLine(const MatchInputs &In, double WarnPct) {
  if (In.runs < 2)
    return "";
  const RunSpread &R = In.runSpread;
  char Buf[320];
  std::snprintf(Buf, sizeof Buf, "base runs: %zu, program time %.4g-%.4g s (median %.4g s, spread %.1f%%)",
                R.totalS.size(), R.minS, R.maxS, R.medianS, R.spreadPct);
  std::string S = Buf;
  if (R.spreadPct <= WarnPct)
    return S;
  S += ": the base node was noisy";
  for (size_t I = 0; I < R.phases.size(); ++I) {
    const PhaseRunRange &P = R.phases[I];
    std::snprintf(Buf, sizeof Buf, "%s (%.4g-%.4g s)", P.id.c_str(), P.minS, P.maxS);
    S += std::string(I == 0 ? " (the phases that varied most: " : ", ") + Buf;
  }
  S += R.phases.empty() ? "" : ")";
  S += "; every estimate inherits that uncertainty (more runs or a quieter base node narrow it)";
  return S;
}

std::string placementWarning(const MatchInputs &In) {
  const ProgramInfo &P = In.phases.program;
  if (!P.threadsFloat.value_or(false))
    return "";
  return "the base run's " + std::to_string(P.threads) +
         " threads were not pinned: their affinity masks overlap (OMP_PROC_BIND/OMP_PLACES "
         "unset, or places that span cores), so where they ran was the scheduler's choice, "
         "while phaseprobe-ubench measures the uBs pinned (OMP_PROC_BIND=close, one place per "
         "core); run the program with OMP_PROC_BIND=close and OMP_PLACES set to the core "
         "places `phaseprobe-ubench node` prints";
}

} // namespace phaseprobe
