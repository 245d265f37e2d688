//===- estimate_main.cpp - phaseprobe-estimate ----------------------------===//
//
// Stages 3 and 4 of METHOD.md as one command: match the phases on the base
// node, project them onto every (or the chosen) node, and print the phase
// estimates, the uncovered part, the base-node self-check and the ranking.
// --json/--csv write the same numbers; --check turns the command into a CI
// gate that fails (exit 1) when a node's estimate got slower than a baseline.
//
//===----------------------------------------------------------------------===//
#include "phaseprobe/atomic_file.h"
#include "phaseprobe/cli.h"
#include "phaseprobe/error.h"
#include "phaseprobe/estimator.h"
#include "phaseprobe/nppdb.h"
#include "phaseprobe/stream_notation.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>

using namespace phaseprobe;

namespace {

std::string fmt(const char *F, double V) {
  char B[64];
  std::snprintf(B, sizeof B, F, V);
  return B;
}

std::vector<std::string> splitNodes(const std::string &S) {
  std::vector<std::string> Out = split(S, ',');
  for (const std::string &N : Out)
    if (N.empty())
      throw InputError("", "--nodes", "empty node label in '" + S + "'");
  return Out;
}

void printEstimate(std::FILE *Out, const MatchInputs &In, const std::vector<PhaseMatch> &M,
                   const Estimate &E) {
  const PhaseFile &F = In.phases;
  bool Native = E.projection.mode == ThreadProjection::Native;
  std::string How =
      Native ? "each node at its own thread count (--threads native: the phase's where the "
               "node has profiles at it, else the node's largest; iterations scaled by phase "
               "threads / node threads; " +
                   In.base + " at the phases' own)"
      : E.threads
          ? "projected onto " + std::to_string(E.threads) +
                " threads (iterations scaled by phase threads / " + std::to_string(E.threads) + ")"
          : std::string("each phase at its own thread count");
  std::fprintf(Out, "%s: base node %s (%s), pairing %s, %s\n", In.phasesPath.c_str(),
               In.base.c_str(), In.dbPath.c_str(), pairingName(In.pairing), How.c_str());
  if (std::string Runs = baseRunsLine(In); !Runs.empty())
    std::fprintf(Out, "%s\n", Runs.c_str());
  if (std::string W = placementWarning(In); !W.empty())
    std::fprintf(Out, "warning: %s\n", W.c_str());
  ThreadBranchVerdict Branches = threadBranchVerdict(F, E);
  if (std::string W = threadBranchesWarning(F.program, Branches); !W.empty())
    std::fprintf(Out, "warning: %s\n", W.c_str());
  if (E.rule == Projection::Ratio)
    std::fprintf(Out,
                 "\nphase estimates (--projection ratio): T = phase time on %s x tpi of the "
                 "profile on the node / its tpi on %s (calibration = phase tpi / profile "
                 "tpi on %s)\n",
                 In.base.c_str(), In.base.c_str(), In.base.c_str());
  else
    std::fprintf(Out, "\nphase estimates: T = tpi of the profile on the node x iterations\n");
  // The threads column only where nodes may differ, so the other modes'
  // output stays as it was.
  auto NodeCol = [&](const std::string &Node, const std::string &Threads) {
    std::string S = Node + std::string(Node.size() < 12 ? 12 - Node.size() : 0, ' ');
    if (Native)
      S += " " + std::string(Threads.size() < 7 ? 7 - Threads.size() : 0, ' ') + Threads;
    return S;
  };
  std::fprintf(Out, "%-24s %s %12s %14s  %s\n", "phase", NodeCol("node", "threads").c_str(),
               "tpi_us", "estimate_s", "profile");
  for (const PhaseMatch &PM : M) {
    const Phase &P = F.phases[PM.phaseIndex];
    if (!PM.matched())
      continue;
    bool First = true;
    for (const NodeEstimate &N : E.nodes) {
      for (const PhaseEstimate &PE : N.phases) {
        if (PE.match != size_t(&PM - M.data()))
          continue;
        std::string Profile;
        if (PE.kind == PhaseEstimate::Missing) {
          Profile = "no ranked profile on this node: kept as measured on " + In.base;
        } else if (PE.kind == PhaseEstimate::NotRun) {
          Profile = "NOT RUN at " + std::to_string(PE.threads) +
                    (PE.threads == 1 ? " thread" : " threads") +
                    ": a runs_if test of its region fails there";
        } else {
          const Candidate &C = PM.ranked[PE.rank];
          Profile =
              C.ubench + " " + formatStreams(C.streams) + " (" + fmt("%.4g", C.score.index) + ")";
          if (E.rule == Projection::Ratio)
            Profile += " calibration " + fmt("%.4g", PE.calibration);
          if (PE.paddingNeighbours)
            Profile += " ratio: median of its own and its nearest relatives'";
          else if (PE.paddingFamily)
            Profile += " ratio of " + std::to_string(PE.paddingFamily) + " padded clones";
          if (PE.paddingMixRatio)
            Profile += " padding x" + fmt("%.3g", *PE.paddingMixRatio) + " by op mix" +
                       (PE.paddingMixPricing == MixPricing::Throughput ? " (throughput)" : "");
          if (PM.relaxed)
            Profile += " RELAXED (tpi discard off)";
          if (PE.wholePhase)
            Profile += " WHOLE PHASE on another CPU (#" + std::to_string(PE.rank + 1) +
                       "; the candidate " + PM.candidate->ubench + " walks " +
                       std::to_string(PM.candidate->streams.size()) + " of " +
                       std::to_string(C.streams.size()) + " streams)";
          if (PE.kind == PhaseEstimate::Fallback)
            Profile += " FALLBACK #" + std::to_string(PE.rank + 1) + ": " + PM.candidate->ubench +
                       " not measured here";
        }
        std::fprintf(Out, "%-24s %s %12s %14s  %s\n", First ? P.id.c_str() : "",
                     NodeCol(N.node, std::to_string(PE.threads)).c_str(),
                     PE.hasProfile() ? fmt("%.6g", PE.tpiUs).c_str() : "-",
                     fmt("%.4f", PE.timeS).c_str(), Profile.c_str());
        First = false;
      }
    }
  }
  size_t Unmatched = 0;
  for (const PhaseMatch &PM : M)
    if (!PM.matched() && PM.status != MatchStatus::NotLeaf)
      ++Unmatched;
  std::fprintf(Out,
               "\ncoverage: %.2f%% of the base run (%s s of %s s) is in matched phases; "
               "uncovered %s s (%.2f%%: serial code, regions outside their leaves, %zu "
               "unmatched or insignificant leaves) ",
               E.coverage * 100, fmt("%.6g", E.coveredS).c_str(), fmt("%.6g", E.measuredS).c_str(),
               fmt("%.6g", E.uncoveredS).c_str(), (1 - E.coverage) * 100, Unmatched);
  if (E.uncovered == UncoveredRule::Scaled)
    std::fprintf(Out,
                 "projected (--uncovered scaled): serial code %s s kept as measured on %s, "
                 "%s s inside regions scaled per node like the region's matched phases "
                 "(kept where a region has none)\n",
                 fmt("%.6g", E.serialS).c_str(), In.base.c_str(),
                 fmt("%.6g", E.inRegionsS).c_str());
  else
    std::fprintf(Out, "kept as measured on %s on every node\n", In.base.c_str());
  // Files without barrier or spin counts (hand-written, older runtimes)
  // print as before: there is nothing to price.
  struct SyncLine {
    double count;
    const char *noun, *what, *cost;
  };
  for (const SyncLine &L :
       {SyncLine{E.barriers, "barriers", "", "cost per barrier (bar1p - mbw1p)"},
        SyncLine{E.spinRounds, "spin-wait rounds",
                 " (threads spinning on a flag another thread sets)",
                 "cost per handoff round (spin1p - mbw1p)"}}) {
    if (!(L.count > 0))
      continue;
    if (E.sync == SyncRule::Off)
      std::fprintf(Out, "synchronization: %s %s left inside the measured times (--sync off)\n",
                   fmt("%.6g", L.count).c_str(), L.noun);
    else
      std::fprintf(Out,
                   "synchronization: %s %s in top-level regions%s, priced per node at its %s "
                   "minus %s's\n",
                   fmt("%.6g", L.count).c_str(), L.noun, L.what, L.cost, In.base.c_str());
  }
  if (E.forkJoinRegions > 0)
    std::fprintf(Out,
                 "forks and joins: %s s of %u top-level region(s) that are their own phase "
                 "(fork-to-join time beyond the slowest thread's own), kept as measured on %s "
                 "instead of scaled with the work\n",
                 fmt("%.6g", E.forkJoinS).c_str(), E.forkJoinRegions, In.base.c_str());
  if (E.pageFaults > 0 && E.sync == SyncRule::Off)
    std::fprintf(Out,
                 "page faults: %s in top-level regions, left inside the measured times "
                 "(--sync off)\n",
                 fmt("%.6g", E.pageFaults).c_str());
  else if (E.pageFaults > 0)
    std::fprintf(Out,
                 "page faults: %s in top-level regions (first touches of memory mapped "
                 "afresh), priced per node at its cost per fault (pf1p) instead of scaled "
                 "with the work%s\n",
                 fmt("%.6g", E.pageFaults).c_str(),
                 E.giveBackBaseCostUs > 0
                     ? "; their pages' give-backs by the serial code at its cost per page (gb1p)"
                     : "");
  if (E.serialPageFaults > 0 && E.sync == SyncRule::Barriers)
    std::fprintf(Out,
                 "serial page faults: %s (the run's outside its top-level regions), kept in the "
                 "serial code's time on nodes of %s's CPU design and priced on others at one "
                 "thread's cost per fault there (pf1p%s)\n",
                 fmt("%.6g", E.serialPageFaults).c_str(), In.base.c_str(),
                 E.serialFaultBaseCostUs > 0
                     ? (", " + fmt("%.3g", E.serialFaultBaseCostUs) + " us on " + In.base).c_str()
                     : "; none on the base node: unpriced");
  if (E.handOverPhases > 0)
    std::fprintf(Out,
                 "hand-overs: %s cache lines in %zu phase(s) found last written by another "
                 "thread, priced per node at its cost per line (ho1p - hk1p) instead of "
                 "scaled with the work\n",
                 fmt("%.6g", E.handedLines).c_str(), E.handOverPhases);
  if (E.invocationPhases > 0)
    std::fprintf(Out,
                 "invocations: %s of %zu worksharing phase(s), their fixed cost (inv1p - mbw1p, "
                 "%s us each on %s) priced per node instead of scaled with the work%s\n",
                 fmt("%.6g", E.invocationCount).c_str(), E.invocationPhases,
                 fmt("%.3g", E.invocationBaseCostUs).c_str(), In.base.c_str(),
                 E.invocationUnmatchedPhases
                     ? (" (" + std::to_string(E.invocationUnmatchedPhases) +
                        " unmatched: in the uncovered time, with the node's cost in place of "
                        "the base node's)")
                           .c_str()
                     : "");
  for (const PhaseMatch &PM : M) {
    if (PM.status != MatchStatus::NoProfile && PM.status != MatchStatus::NoStreams)
      continue;
    const Phase &P = F.phases[PM.phaseIndex];
    std::fprintf(Out, "  %s (%.2f%% of the base run) is %s", P.id.c_str(), PM.weight * 100,
                 matchStatusName(PM.status));
    if (PM.status == MatchStatus::NoProfile)
      std::fprintf(Out, ": a new uB would need streams %s, %u threads, tpi %s us",
                   queryNotation(P, PM.streams).c_str(), P.threads, formatNumber(P.tpiUs).c_str());
    std::fprintf(Out, "\n");
    for (const std::string &N : PM.notes)
      std::fprintf(Out, "    note: %s\n", N.c_str());
  }
  if (const NodeEstimate *B = E.baseNode()) {
    if (auto Err = E.selfCheckPercent())
      std::fprintf(Out, "self-check on %s: estimate %s s vs measured %s s (%+.2f%%)%s\n",
                   In.base.c_str(), fmt("%.6g", B->absoluteS).c_str(),
                   fmt("%.6g", E.measuredS).c_str(), *Err,
                   E.rule == Projection::Ratio
                       ? " by the absolute rule (the ratio rule gives the base run back)"
                       : "");
    else
      std::fprintf(Out,
                   "self-check on %s: not applicable (the base run used other thread "
                   "counts than the projection)\n",
                   In.base.c_str());
  }
  if (E.plainS)
    std::fprintf(Out,
                 "plain build: %s s on %s (--plain-time) against the instrumented base run's %s s: "
                 "every node's program estimate x%s (the phases' stay the instrumented build's)\n",
                 fmt("%.6g", *E.plainS).c_str(), In.base.c_str(), fmt("%.6g", E.measuredS).c_str(),
                 fmt("%.4g", E.plainScale).c_str());
  std::fprintf(Out, "\n%4s  %s %14s %16s  %s\n", "rank", NodeCol("node", "threads").c_str(),
               "estimate_s", ("vs " + In.base).c_str(), "notes");
  auto AnyOf = [&](const std::vector<unsigned> &Threads, const std::vector<unsigned> &Of) {
    for (unsigned T : Threads)
      if (std::find(Of.begin(), Of.end(), T) != Of.end())
        return true;
    return false;
  };
  for (const NodeEstimate &N : E.nodes) {
    std::string Notes;
    auto Note = [&Notes](const std::string &S) { Notes += (Notes.empty() ? "" : "; ") + S; };
    if (N.node == In.base)
      Note("base node");
    if (N.fallbacks)
      Note(std::to_string(N.fallbacks) + " phase(s) on a fallback profile");
    if (E.uncovered == UncoveredRule::Scaled && N.node != In.base)
      Note("uncovered " + fmt("%.4f", N.uncoveredS) + " s");
    if (N.missing)
      Note("INCOMPLETE: " + std::to_string(N.missing) +
           " phase(s) without any ranked profile (base time used)");
    // Beside the warning above, on the nodes it concerns.
    if (AnyOf(N.threads, Branches.otherCodeThreads))
      Note("OTHER CODE: branches on the thread count go the other way here");
    else if (AnyOf(N.threads, Branches.unknownThreads))
      Note("may run other code (branches on the thread count)");
    if (N.regionsNotRun)
      Note(std::to_string(N.regionsNotRun) + " region(s) not run at this thread count");
    if (N.serialNotRunS > 0)
      Note(fmt("%.4f", N.serialNotRunS) + " s of serial code not run at this thread count");
    if (N.faultsNotAllocated > 0)
      Note(fmt("%.0f", N.faultsNotAllocated) +
           " page faults left out (memory allocated only at other thread counts)");
    if (E.sync == SyncRule::Barriers && (E.barriers > 0 || E.spinRounds > 0 || E.pageFaults > 0)) {
      if (N.barrierCostUs > 0 || N.spinCostUs > 0 || N.faultCostUs > 0 || N.syncS != 0) {
        std::string Each;
        if (E.barriers > 0)
          Each += "barriers " + fmt("%.3g", N.barrierCostUs) + " us each, ";
        if (E.spinRounds > 0)
          Each += "spin-wait rounds " + fmt("%.3g", N.spinCostUs) + " us each, ";
        if (E.pageFaults > 0)
          Each += "page faults " + fmt("%.3g", N.faultCostUs) + " us each, ";
        if (E.giveBackBaseCostUs > 0)
          Each += "give-backs " + fmt("%.3g", N.giveBackCostUs) + " us a page, ";
        Note(Each + fmt("%+.4f", N.syncS) + " s");
      }
      if (N.syncUnpriced)
        Note(std::to_string(N.syncUnpriced) +
             " region(s) with synchronization or page faults unpriced (no bar1p or "
             "spin1p/mbw1p pair, no pf1p)");
    }
    if (N.serialFaultS != 0)
      Note("serial page faults " + fmt("%.3g", N.serialFaultCostUs) + " us each, " +
           fmt("%+.4f", N.serialFaultS) + " s");
    else if (N.serialFaultsUnpriced)
      Note("serial page faults unpriced (no pf1p on this design or the base's)");
    if (E.handOverPhases > 0 && N.node != In.base && (N.handOverS != 0 || N.handOverUnpriced)) {
      std::string H = "hand-overs " + fmt("%.3g", N.handOverCostUs * 1e3) + " ns a line, " +
                      fmt("%+.4f", N.handOverS) + " s";
      if (N.handOverUnpriced)
        H += " (" + std::to_string(N.handOverUnpriced) + " phase(s) unpriced: no ho1p/hk1p pair)";
      Note(H);
    }
    if (E.invocationPhases > 0 && N.node != In.base &&
        (N.invocationS != 0 || N.invocationUnpriced)) {
      std::string V = "invocations " + fmt("%.3g", N.invocationCostUs) + " us each, " +
                      fmt("%+.4f", N.invocationS) + " s";
      if (N.invocationUnpriced)
        V += " (" + std::to_string(N.invocationUnpriced) +
             " phase(s) unpriced: no inv1p/mbw1p pair)";
      Note(V);
    }
    if (!N.runTimesS.empty()) {
      auto [Lo, Hi] = std::minmax_element(N.runTimesS.begin(), N.runTimesS.end());
      Note("base runs alone " + fmt("%.4f", *Lo) + "-" + fmt("%.4f", *Hi) + " s");
    }
    if (N.paddingWarned())
      Note("ANOTHER CPU: " + fmt("%.0f", N.paddedShare() * 100) +
           "% padded arithmetic (warning below)");
    if (serialWarned(E, N))
      Note("ANOTHER CPU: " + fmt("%.0f", serialKeptShare(E, N) * 100) +
           "% serial code kept (warning below)");
    std::fprintf(Out, "%4u  %s %14s %15.1f%%  %s\n", N.rank,
                 NodeCol(N.node, N.threads.empty() ? "-" : formatThreadList(N.threads)).c_str(),
                 fmt("%.4f", N.timeS).c_str(), N.relativeToBase * 100, Notes.c_str());
  }
  for (const NodeEstimate &N : E.nodes)
    for (const std::string &W : {paddingWarning(E, N), serialWarning(E, N)})
      if (!W.empty())
        std::fprintf(Out, "warning: %s: %s\n", N.node.c_str(), W.c_str());
}

} // namespace

int main(int Argc, char **Argv) {
  CLI::App App{"Estimate an OpenMP program's time on every node of an NPPDB from one "
               "instrumented run on the base node (METHOD.md, stages 3 and 4)."};
  App.name("phaseprobe-estimate");
  std::vector<std::string> PhasesPaths;
  std::string DbPath, Base, JsonOut, CsvOut, ConfigPath, PairingArg, NodesArg, Baseline;
  std::string ThreadsArg, ProjectionArg = "absolute", SyncArg = "barriers",
                          SweepsArg = "interval", UncoveredArg = "kept", PaddedArg = "family",
                          AcrossArg = "mix", HandOverArg = "kept",
                          OtherCpuArg = "whole-phase", InvocationsArg = "priced",
                          MixPricingArg = "latency";
  bool Relax = false;
  double Tolerance = 0;
  App.add_option("phases", PhasesPaths,
                 "Phase file (phaseprobe.phases/1); several runs of the same program on the base "
                 "node are merged into per-phase medians");
  App.add_option("--db", DbPath, "NPPDB (SQLite) with the profiles of all nodes");
  App.add_option("--base", Base, "Label of the base node (where the phase file was measured)");
  App.add_option("--nodes", NodesArg, "Comma-separated nodes to estimate (default: all)");
  App.add_option("--threads", ThreadsArg,
                 "Project onto N-thread profiles, or 'native': each node onto the phase's "
                 "thread count where it has profiles at it, else its largest (match at the "
                 "phases' own)")
      ->type_name("N|native")
      ->check(CLI::Validator(
          [](std::string &S) -> std::string {
            if (S == "native")
              return "";
            if (!S.empty() && S.size() <= 7 &&
                S.find_first_not_of("0123456789") == std::string::npos) {
              unsigned long N = std::stoul(S);
              if (N >= 1 && N <= (1u << 20))
                return "";
            }
            return "expected a thread count (1 to 1048576) or 'native', found '" + S + "'";
          },
          "", "threads"));
  App.add_option("--projection", ProjectionArg,
                 "Time rule: absolute (tpi of the uB on the node x iterations, METHOD.md) or "
                 "ratio (phase time on the base node x tpi on the node / tpi on the base node)")
      ->check(CLI::IsMember({"absolute", "ratio"}));
  App.add_option("--sync", SyncArg,
                 "Synchronization and page faults: barriers, spin-wait rounds and page faults "
                 "priced apart per node with the bar1p, spin1p and pf1p uBs (barriers, the "
                 "default) or left inside the measured phase times (off, METHOD.md)")
      ->check(CLI::IsMember({"barriers", "off"}));
  App.add_option("--sync-sweeps", SweepsArg,
                 "Which sweeps of bar1p and spin1p price a synchronization: the one as long as "
                 "the region's work between synchronizations (interval, the default) or all up "
                 "to 100 us weighted by the inverse square of their time, so that the shortest, "
                 "whose difference is mostly the synchronization, decide (short)")
      ->check(CLI::IsMember({"interval", "short"}));
  App.add_option("--handover", HandOverArg,
                 "Lines a phase finds last written by another thread (its streams' "
                 "handover_share): left inside the measured phase times (kept, METHOD.md, the "
                 "default) or priced apart per node with the ho1p and hk1p uBs (priced)")
      ->check(CLI::IsMember({"priced", "kept"}));
  App.add_option("--invocations", InvocationsArg,
                 "A worksharing loop's fixed cost of each invocation: priced apart per node with "
                 "the inv1p uB where the NPPDB has it (priced, the default) or left inside the "
                 "measured phase times (kept, METHOD.md)")
      ->check(CLI::IsMember({"priced", "kept"}));
  App.add_option("--uncovered", UncoveredArg,
                 "The base run's time outside matched phases: kept as measured on every node "
                 "(kept, METHOD.md) or, inside regions, scaled per node like the region's "
                 "matched phases (scaled; serial code and regions without one stay as "
                 "measured)")
      ->check(CLI::IsMember({"kept", "scaled"}));
  App.add_option("--padded-ratio", PaddedArg,
                 "A padded phase clone's node / base ratio: the median of its padding "
                 "family's, the clones of the same unpadded uB and streams within 25% of its "
                 "base tpi, else the median of its own and its nearest relatives' below and "
                 "above (family, the default), or its own profiles' alone (own)")
      ->check(CLI::IsMember({"own", "family"}));
  App.add_option("--padding-across", AcrossArg,
                 "A padded phase clone's padding on the other nodes: priced by the phase's op "
                 "mix with the compute uBs, node over base, on every node (mix, the default) "
                 "or on nodes of another CPU design only (mix-other-cpu), or as the clone's "
                 "profile there has it (carried)")
      ->check(CLI::IsMember({"mix", "mix-other-cpu", "carried"}));
  App.add_option("--mix-pricing", MixPricingArg,
                 "Which compute uBs price the op mix's adds and multiplies: the latency of "
                 "dependent chains (cadd, cmul: latency, the default) or the pipes' throughput "
                 "of independent ones (tadd, tmul: throughput, where both nodes have them; "
                 "NPPDBs before 2026-12-03 do not)")
      ->check(CLI::IsMember({"latency", "throughput"}));
  App.add_option("--other-cpu-profile", OtherCpuArg,
                 "Which profile of a phase's ranking estimates it on a node of another CPU "
                 "design: the best one that walks every significant stream as the phase does "
                 "(its clone) where one is ranked (whole-phase, the default), or the candidate, "
                 "as on every node (ranked, METHOD.md)")
      ->check(CLI::IsMember({"whole-phase", "ranked"}));
  std::optional<double> PlainTime;
  App.add_option("--plain-time", PlainTime,
                 "Seconds the plain build (without phaseprobe) takes on the base node: scale every "
                 "node's program estimate by it over the instrumented base runs' time (METHOD.md's "
                 "instrumentation noise)");
  App.add_flag("--relax-unmatched", Relax,
               "Match phases that no profile survives again with the tpi discard off "
               "(marked relaxed; meant for --projection ratio)");
  App.add_option("--json", JsonOut, "Also write the result as JSON (phaseprobe.estimate/1)");
  App.add_option("--csv", CsvOut, "Also write one CSV row per node and phase");
  App.add_option("--config", ConfigPath, "Matcher configuration (see matcher/README.md)");
  App.add_option("--pairing", PairingArg, "Stream pairing: ordered (METHOD.md) or best")
      ->check(CLI::IsMember({"ordered", "best"}));
  App.add_option("--check", Baseline,
                 "Baseline estimate JSON: exit 1 when a node got slower beyond --tolerance");
  App.add_option("--tolerance", Tolerance, "Allowed slowdown for --check, in percent (default 0)")
      ->check(CLI::NonNegativeNumber);

  return runTool("phaseprobe-estimate", App, Argc, Argv, [&]() -> int {
    if (PhasesPaths.empty())
      throw InputError("", "", "no phase file given (see --help)");
    if (DbPath.empty())
      throw InputError("", "", "--db is required");
    if (Base.empty())
      throw InputError("", "", "--base is required");
    if (!JsonOut.empty())
      checkWritable(JsonOut);
    if (!CsvOut.empty())
      checkWritable(CsvOut);
    std::string BaselineText;
    if (!Baseline.empty())
      BaselineText = readFile(Baseline);
    MatchInputs In = loadMatchInputs(PhasesPaths, DbPath, Base, ConfigPath, PairingArg);
    // The ratio rule takes only how a profile scales from node to node, so
    // a profile that walks all of a phase's streams as they are outranks
    // one that matches its tpi from some of them (matcher/README.md,
    // "Whole phase"); the absolute rule keeps METHOD.md's index.
    if (!In.config.wholePhaseFirst)
      In.config.wholePhaseFirst = *parseProjection(ProjectionArg) == Projection::Ratio;
    std::vector<std::string> Nodes = NodesArg.empty() ? In.db->nodes() : splitNodes(NodesArg);
    for (const std::string &N : Nodes)
      if (!In.db->node(N))
        throw InputError(DbPath, "", "no node '" + N + "' (--nodes)");

    NppdbProfileSource Src(*In.db, In.base);
    MatchOptions O;
    O.pairing = In.pairing;
    O.keep = 16; // the fallbacks a node without the candidate may use
    NppdbTpiLookup Lookup(*In.db);
    ThreadProjection TP;
    if (ThreadsArg == "native")
      TP = ThreadProjection::native();
    else if (!ThreadsArg.empty())
      TP = ThreadProjection::fixed(unsigned(std::stoul(ThreadsArg)));
    auto MatchAll = [&](const PhaseFile &F) {
      std::vector<PhaseMatch> R = matchPhases(F, Src, In.config, In.streamKiB, O);
      if (Relax)
        relaxUnmatched(F, Src, In.config, In.streamKiB, O, R);
      return R;
    };
    auto EstimateAll = [&](const PhaseFile &F, const std::vector<PhaseMatch> &R) {
      return estimate(F, R, Lookup, In.base, Nodes, TP, *parseProjection(ProjectionArg),
                      *parseSyncRule(SyncArg), *parseUncoveredRule(UncoveredArg),
                      *parsePaddedRatio(PaddedArg), *parsePaddingAcross(AcrossArg),
                      *parseSyncSweeps(SweepsArg), *parseHandOverRule(HandOverArg),
                      *parseOtherCpuProfile(OtherCpuArg), *parseInvocationRule(InvocationsArg),
                      *parseMixPricing(MixPricingArg));
    };
    std::vector<PhaseMatch> M = MatchAll(In.phases);
    noteMissingThreadCounts(In, M);
    Estimate E = EstimateAll(In.phases, M);
    // Each base run alone, through the same steps: the spread of its
    // estimates is the uncertainty the base runs' noise leaves in the merged
    // one.
    for (const PhaseFile &Run : In.runFiles) {
      Estimate ER = EstimateAll(Run, MatchAll(Run));
      for (NodeEstimate &N : E.nodes)
        for (const NodeEstimate &NR : ER.nodes)
          if (NR.node == N.node)
            N.runTimesS.push_back(NR.timeS);
    }
    if (PlainTime)
      scaleToPlainBuild(E, *PlainTime);
    nlohmann::ordered_json Doc = estimateReportJson(In, M, E);
    // Validate the baseline before writing anything.
    std::optional<CheckResult> Check;
    if (!Baseline.empty())
      Check = checkAgainstBaseline(Doc, BaselineText, Baseline, Tolerance);

    if (!JsonOut.empty())
      writeFileAtomically(JsonOut, Doc.dump(2) + "\n");
    if (!CsvOut.empty())
      writeFileAtomically(CsvOut, estimateCsv(In.phases, M, E));
    printEstimate(stdout, In, M, E);
    if (!Check)
      return ExitOk;
    std::printf("\ncheck against %s (tolerance %s%%):\n", Baseline.c_str(),
                fmt("%g", Tolerance).c_str());
    for (const std::string &L : Check->lines)
      std::printf("  %s\n", L.c_str());
    std::fflush(stdout);
    if (!Check->regressed)
      return ExitOk;
    std::string Why;
    if (Check->slower)
      Why = "estimate slower than the baseline beyond " + fmt("%g", Tolerance) + "%";
    if (Check->threadsChanged)
      Why += (Why.empty() ? "" : "; ") + std::to_string(Check->threadsChanged) +
             " node(s) projected onto other thread counts than in the baseline";
    std::fprintf(stderr, "phaseprobe-estimate: %s: %s (details on stdout)\n", Baseline.c_str(),
                 Why.c_str());
    return ExitWorkFailed;
  });
}
