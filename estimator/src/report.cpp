//===- report.cpp - The estimate as JSON and CSV --------------------------===//
//
// The JSON extends the matcher's phaseprobe.estimate/1 document with the
// names CONTRACTS.md fixes (per-phase `estimates`, ranked `nodes`) and adds
// `uncovered`, `self_check` and `threads` so every number on the screen is in
// the file too. Every estimate and node says the thread count it was
// projected onto: under --threads native nodes differ, and --check must
// compare like with like.
//
//===----------------------------------------------------------------------===//
#include "phaseprobe/estimator.h"
#include "phaseprobe/stream_notation.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace phaseprobe {

using ojson = nlohmann::ordered_json;

/// Estimates are printed and compared at 1e-9 s resolution at most; rounding
/// keeps the JSON free of binary noise (210.39999999999998).
static double tidy(double V) {
  if (V == 0 || !std::isfinite(V))
    return V;
  double Scale = std::pow(10.0, 12 - std::ceil(std::log10(std::fabs(V))));
  return std::round(V * Scale) / Scale;
}

ThreadBranchVerdict threadBranchVerdict(const PhaseFile &F, const Estimate &E) {
  const ProgramInfo &P = F.program;
  ThreadBranchVerdict V;
  for (const NodeEstimate &N : E.nodes)
    for (const RegionEstimate &R : N.regions) {
      if (R.runs)
        continue;
      const Phase &Region = F.phases[R.phase];
      std::string Tests;
      for (const ThreadTest &T : Region.runsIf)
        Tests += (Tests.empty() ? "" : ", ") + T.text();
      std::string Text = Region.id + " (" + Tests + ")";
      if (std::find(V.regionsNotRun.begin(), V.regionsNotRun.end(), Text) == V.regionsNotRun.end())
        V.regionsNotRun.push_back(Text);
      if (std::find(V.notRunThreads.begin(), V.notRunThreads.end(), R.threads) ==
          V.notRunThreads.end())
        V.notRunThreads.push_back(R.threads);
    }
  std::sort(V.notRunThreads.begin(), V.notRunThreads.end());
  if (P.threadBranches.empty())
    return V;
  std::vector<unsigned> Other;
  for (const NodeEstimate &N : E.nodes)
    for (unsigned T : N.threads)
      if (T != P.threads && std::find(Other.begin(), Other.end(), T) == Other.end())
        Other.push_back(T);
  std::sort(Other.begin(), Other.end());
  // The phase file reader refused malformed tests: a site reads as one or as none.
  std::vector<std::optional<ThreadTest>> Tests(P.threadBranches.size());
  bool Untested = P.threadBranchesMore > 0; // sites the runtime could not list
  for (size_t I = 0; I < P.threadBranches.size(); ++I) {
    parseThreadTest(P.threadBranches[I], Tests[I]);
    if (!Tests[I]) {
      Untested = true;
      V.untestedSites.push_back(P.threadBranches[I]);
    }
  }
  std::vector<bool> Flips(Tests.size(), false);
  for (unsigned T : Other) {
    bool Flipped = false;
    for (size_t I = 0; I < Tests.size(); ++I)
      if (Tests[I] && Tests[I]->holds(T) != Tests[I]->holds(P.threads))
        Flipped = Flips[I] = true;
    if (Flipped)
      V.otherCodeThreads.push_back(T);
    else if (Untested)
      V.unknownThreads.push_back(T);
  }
  for (size_t I = 0; I < Tests.size(); ++I)
    if (Flips[I])
      V.flippedSites.push_back(P.threadBranches[I]);
  return V;
}

namespace {

/// "a, b, c and 4 more": at most three sites, then how many were left out.
std::string siteList(const std::vector<std::string> &Sites, size_t More) {
  std::string S;
  size_t Shown = std::min<size_t>(Sites.size(), 3);
  for (size_t I = 0; I < Shown; ++I)
    S += (I ? ", " : "") + Sites[I];
  if (size_t Rest = Sites.size() - Shown + More)
    S += " and " + std::to_string(Rest) + " more";
  return S;
}

std::string threadsText(const std::vector<unsigned> &T) {
  return formatThreadList(T) + (T.size() == 1 && T[0] == 1 ? " thread" : " threads");
}

} // namespace

std::string threadBranchesWarning(const ProgramInfo &P, const ThreadBranchVerdict &V) {
  std::vector<std::string> Parts;
  if (!V.otherCodeThreads.empty())
    Parts.push_back("(" + siteList(V.flippedSites, 0) + "): at " +
                    threadsText(V.otherCodeThreads) + " they go the other way than at " +
                    std::to_string(P.threads) +
                    ", so the estimates there project code the program does not run there");
  if (!V.unknownThreads.empty())
    Parts.push_back("(" + siteList(V.untestedSites, P.threadBranchesMore) +
                    "): estimates at " + threadsText(V.unknownThreads) +
                    " project what it ran at " + std::to_string(P.threads) +
                    " and may miss code it runs only there");
  std::string W;
  if (!Parts.empty()) {
    W = "the program branches on its thread count " + Parts[0];
    for (size_t I = 1; I < Parts.size(); ++I)
      W += "; and " + Parts[I];
    W += " (a base run at that thread count shows it)";
  }
  if (!V.regionsNotRun.empty())
    W += std::string(W.empty() ? "" : "; ") + "regions under a branch on the thread count (" +
         siteList(V.regionsNotRun, 0) + ") do not run at " + threadsText(V.notRunThreads) +
         " and are left out of the estimates there";
  return W;
}

std::string paddingWarning(const Estimate &E, const NodeEstimate &N) {
  if (!N.paddingWarned())
    return "";
  const NodeEstimate *B = E.baseNode();
  char Pct[16];
  std::snprintf(Pct, sizeof Pct, "%.0f%%", N.paddedShare() * 100);
  std::string Head = "another CPU (" + N.cpu + ") than the base node's" +
                     (B ? " (" + B->cpu + ")" : "") + ", and " + Pct +
                     " of this estimate is the padding of phase clones (the arithmetic they add "
                     "to take their phase's time on the base node)";
  if (N.paddedMixS > 0) {
    char Mix[16];
    // paddedMixS is part of paddedS (estimate.cpp adds it to both).
    std::snprintf(Mix, sizeof Mix, "%.0f%%", 100 * N.paddedMixS / N.paddedS);
    return Head + ", " + Mix +
           " of it priced by the phases' op mix (their adds and multiplies at this node's "
           "cost, --padding-across mix); divisions, square roots and the stalls a padding may "
           "stand for are not priced, so expect errors of ten to tens of percent here (README, "
           "\"Across two CPU designs\")";
  }
  return Head +
         ": a padding step is four chains of dependent multiply-adds, and across CPU designs "
         "it speeds up like them, not like the program's own arithmetic, so expect errors of "
         "tens of percent here (README, \"Across two CPU designs\")";
}

double serialKeptShare(const Estimate &E, const NodeEstimate &N) {
  if (!(N.timeS > 0))
    return 0;
  // The serial faults' base time, where the node priced them, is not kept.
  double Priced = N.serialFaultCostUs > 0
                      ? std::min(E.serialS, E.serialPageFaults * E.serialFaultBaseCostUs * 1e-6)
                      : 0;
  return std::clamp((E.serialS - N.serialNotRunS - Priced) / N.timeS, 0.0, 1.0);
}

bool serialWarned(const Estimate &E, const NodeEstimate &N) {
  return N.otherCpu && serialKeptShare(E, N) >= SerialShareWarning;
}

std::string serialWarning(const Estimate &E, const NodeEstimate &N) {
  if (!serialWarned(E, N))
    return "";
  const NodeEstimate *B = E.baseNode();
  char Pct[16];
  std::snprintf(Pct, sizeof Pct, "%.0f%%", serialKeptShare(E, N) * 100);
  return "another CPU (" + N.cpu + ") than the base node's" + (B ? " (" + B->cpu + ")" : "") +
         ", and " + Pct +
         " of this estimate is serial code kept at its time on the base node (METHOD.md); its "
         "speed on this design is not measured, so expect this part to be off by tens of "
         "percent either way (README, \"A lent node\")";
}

ojson estimateReportJson(const MatchInputs &In, const std::vector<PhaseMatch> &M,
                         const Estimate &E) {
  ojson Doc = matchReportJson(In.phases, In.base, M, In.config, In.pairing);
  Doc["threads"] = E.projection.mode == ThreadProjection::Native ? ojson("native")
                   : E.threads                                   ? ojson(E.threads)
                                                                 : ojson(nullptr);
  ojson &Phases = Doc["phases"];
  for (const NodeEstimate &N : E.nodes) {
    for (const PhaseEstimate &PE : N.phases) {
      const PhaseMatch &PM = M[PE.match];
      ojson J;
      J["time_s"] = tidy(PE.timeS);
      J["status"] = phaseEstimateKindName(PE.kind);
      if (PE.hasProfile()) {
        J["tpi_us"] = PE.tpiUs;
        J["iterations"] = PE.iterations;
        if (E.rule == Projection::Ratio)
          J["calibration"] = tidy(PE.calibration);
        if (PE.paddingFamily)
          J["padding_family"] = PE.paddingFamily;
        if (PE.paddingNeighbours)
          J["padding_neighbours"] = true;
        if (PE.paddingMixRatio) {
          J["padding_mix_ratio"] = tidy(*PE.paddingMixRatio);
          J["padding_mix_pricing"] = mixPricingName(PE.paddingMixPricing);
        }
      }
      if (PE.wholePhase)
        J["whole_phase"] = true;
      if (PE.kind == PhaseEstimate::Fallback || PE.wholePhase) {
        const Candidate &C = PM.ranked[PE.rank];
        J["profile"] = {{"ubench", C.ubench},
                        {"streams", formatStreams(C.streams)},
                        {"similarity", tidy(C.score.index)},
                        {"rank", PE.rank + 1}};
      }
      if (PE.handOverS != 0)
        J["hand_over_s"] = tidy(PE.handOverS);
      if (PE.invocationS != 0)
        J["invocation_s"] = tidy(PE.invocationS);
      J["threads"] = PE.threads;
      Phases[PE.match]["estimates"][N.node] = J;
    }
  }
  ojson Nodes = ojson::array();
  for (const NodeEstimate &N : E.nodes) {
    ojson J;
    J["node"] = N.node;
    J["time_s"] = tidy(N.timeS);
    J["relative_to_base"] = tidy(N.relativeToBase);
    J["rank"] = N.rank;
    J["phases_time_s"] = tidy(N.phasesS);
    J["uncovered_s"] = tidy(N.uncoveredS);
    J["sync_s"] = tidy(N.syncS);
    J["barrier_cost_us"] = tidy(N.barrierCostUs);
    if (E.spinRounds > 0)
      J["spin_wait_cost_us"] = tidy(N.spinCostUs);
    if (E.handOverPhases > 0) {
      J["hand_over_s"] = tidy(N.handOverS);
      J["hand_over_cost_ns"] = tidy(N.handOverCostUs * 1e3);
      if (N.handOverUnpriced)
        J["hand_over_unpriced"] = N.handOverUnpriced;
    }
    if (E.invocationPhases > 0) {
      J["invocation_s"] = tidy(N.invocationS);
      if (E.invocationUnmatchedPhases > 0)
        J["invocation_unmatched_s"] = tidy(N.invocationUnmatchedS);
      J["invocation_cost_us"] = tidy(N.invocationCostUs);
      if (N.invocationUnpriced)
        J["invocation_unpriced"] = N.invocationUnpriced;
    }
    if (E.pageFaults > 0) {
      J["page_fault_s"] = tidy(N.faultS);
      J["page_fault_cost_us"] = tidy(N.faultCostUs);
      if (N.faultsNotAllocated > 0)
        J["page_faults_not_allocated"] = tidy(N.faultsNotAllocated);
      if (E.giveBackBaseCostUs > 0) {
        J["give_back_s"] = tidy(N.giveBackS);
        J["give_back_cost_us"] = tidy(N.giveBackCostUs);
      }
    }
    // Where the node's time sits: each top-level region's parts, the serial
    // code beside them (kept as measured, less what does not run there, its
    // give-backs at the node's cost and, on another design, its own page
    // faults at that design's cost).
    if (N.serialFaultsUnpriced) {
      J["serial_page_faults_unpriced"] = true;
    } else if (E.serialFaultBaseCostUs > 0 && N.otherCpu) {
      J["serial_page_fault_s"] = tidy(N.serialFaultS);
      J["serial_page_fault_cost_us"] = tidy(N.serialFaultCostUs);
    }
    J["serial_s"] = tidy(E.serialS - N.serialNotRunS + N.giveBackS + N.serialFaultS);
    if (N.serialNotRunS > 0)
      J["serial_not_run_s"] = tidy(N.serialNotRunS);
    ojson Regions = ojson::array();
    for (const RegionEstimate &R : N.regions) {
      ojson RJ;
      RJ["id"] = In.phases.phases[R.phase].id;
      RJ["time_s"] = tidy(R.timeS());
      RJ["phases_time_s"] = tidy(R.phasesS);
      RJ["uncovered_s"] = tidy(R.uncoveredS);
      RJ["sync_s"] = tidy(R.syncS);
      if (E.pageFaults > 0)
        RJ["page_fault_s"] = tidy(R.faultS);
      if (!R.runs)
        RJ["runs"] = false;
      Regions.push_back(RJ);
    }
    J["regions"] = Regions;
    J["fallbacks"] = N.fallbacks;
    J["missing"] = N.missing;
    // Last, after the keys CONTRACTS.md orders. One count as a number; a node
    // whose phases went to several counts lists them (ascending); null
    // without matched phases.
    J["threads"] = N.threads.size() == 1 ? ojson(N.threads[0])
                   : N.threads.empty()   ? ojson(nullptr)
                                         : ojson(N.threads);
    if (!N.runTimesS.empty()) {
      ojson Runs = ojson::array();
      for (double T : N.runTimesS)
        Runs.push_back(tidy(T));
      J["time_s_runs"] = Runs;
    }
    if (N.paddedS > 0 || N.paddedUnknownS > 0) {
      J["padded_share"] = tidy(N.paddedShare());
      if (N.paddedUnknownS > 0)
        J["padded_unknown_s"] = tidy(N.paddedUnknownS);
      if (N.paddedMixS > 0)
        J["padded_carried_share"] = tidy(N.paddedCarriedShare());
    }
    if (N.otherCpu)
      J["cpu"] = N.cpu;
    if (std::string W = paddingWarning(E, N); !W.empty())
      J["warning"] = W;
    if (N.otherCpu)
      J["serial_kept_share"] = tidy(serialKeptShare(E, N));
    if (std::string W = serialWarning(E, N); !W.empty())
      J["serial_warning"] = W;
    Nodes.push_back(J);
  }
  // CONTRACTS.md lists `nodes` before `coverage`.
  Doc.erase("coverage");
  Doc["nodes"] = Nodes;
  Doc["coverage"] = E.coverage;
  if (E.uncovered == UncoveredRule::Scaled)
    Doc["uncovered"] = {{"time_s", tidy(E.uncoveredS)},
                        {"share", 1 - E.coverage},
                        {"rule", "serial code kept as measured on the base node; time inside "
                                 "regions scaled per node like the region's matched phases"},
                        {"by", uncoveredRuleName(E.uncovered)},
                        {"serial_s", tidy(E.serialS)},
                        {"in_regions_s", tidy(E.inRegionsS)}};
  else
    Doc["uncovered"] = {{"time_s", tidy(E.uncoveredS)},
                        {"share", 1 - E.coverage},
                        {"rule", "kept as measured on the base node"}};
  Doc["sync"] = {{"rule", syncRuleName(E.sync)}, {"barriers", E.barriers}};
  if (E.sweeps != SyncSweeps::Interval)
    Doc["sync"]["sweeps"] = syncSweepsName(E.sweeps);
  if (E.spinRounds > 0)
    Doc["sync"]["spin_rounds"] = E.spinRounds;
  if (E.forkJoinRegions > 0) {
    Doc["sync"]["fork_join_s"] = tidy(E.forkJoinS);
    Doc["sync"]["fork_join_regions"] = E.forkJoinRegions;
  }
  if (E.pageFaults > 0) {
    Doc["sync"]["page_faults"] = E.pageFaults;
    Doc["sync"]["page_fault_base_cost_us"] = tidy(E.faultBaseCostUs);
    if (E.giveBackBaseCostUs > 0)
      Doc["sync"]["give_back_base_cost_us"] = tidy(E.giveBackBaseCostUs);
  }
  if (E.serialPageFaults > 0) {
    Doc["sync"]["serial_page_faults"] = E.serialPageFaults;
    if (E.serialFaultBaseCostUs > 0)
      Doc["sync"]["serial_page_fault_base_cost_us"] = tidy(E.serialFaultBaseCostUs);
  }
  // Only where a phase hands lines over, so that older files' reports stay
  // as they were.
  if (E.handOverPhases > 0)
    Doc["hand_over"] = {{"rule", handOverRuleName(E.handOver)},
                        {"lines", E.handedLines},
                        {"phases", E.handOverPhases}};
  // Only under InvocationRule::Priced, where a phase was priced.
  if (E.invocationPhases > 0)
    Doc["invocations"] = {{"rule", invocationRuleName(E.invocations)},
                          {"count", E.invocationCount},
                          {"phases", E.invocationPhases},
                          {"unmatched_phases", E.invocationUnmatchedPhases},
                          {"base_cost_us", tidy(E.invocationBaseCostUs)}};
  if (const NodeEstimate *B = E.baseNode(); B && E.selfCheckPercent())
    Doc["self_check"] = {{"node", E.base},
                         {"estimate_s", tidy(B->absoluteS)},
                         {"measured_s", E.measuredS},
                         {"error_percent", tidy(*E.selfCheckPercent())},
                         {"rule", projectionName(Projection::Absolute)}};
  else
    Doc["self_check"] = nullptr;
  ThreadBranchVerdict V = threadBranchVerdict(In.phases, E);
  if (const ProgramInfo &P = In.phases.program;
      !P.threadBranches.empty() || !V.regionsNotRun.empty()) {
    std::string W = threadBranchesWarning(P, V);
    Doc["thread_branches"] = {{"sites", P.threadBranches},
                              {"more", P.threadBranchesMore},
                              {"other_code_threads", V.otherCodeThreads},
                              {"unknown_threads", V.unknownThreads},
                              {"warning", W.empty() ? ojson(nullptr) : ojson(W)},
                              {"regions_not_run", V.regionsNotRun},
                              {"not_run_threads", V.notRunThreads}};
  }
  // Only where it applies: documents of pinned runs stay as they were.
  if (std::string W = placementWarning(In); !W.empty())
    Doc["placement_warning"] = W;
  if (In.runs > 1) {
    // The timed runs: without those that only gave streams.
    ojson Phases = ojson::array();
    for (const PhaseRunRange &P : In.runSpread.phases)
      Phases.push_back({{"id", P.id}, {"min_s", tidy(P.minS)}, {"max_s", tidy(P.maxS)}});
    Doc["base_runs"] = {{"n", In.runSpread.totalS.size()},
                        {"total_time_s", In.runSpread.totalS},
                        {"spread_pct", tidy(In.runSpread.spreadPct)},
                        {"phases", Phases}};
  }
  if (E.plainS)
    Doc["plain_build"] = {{"time_s", *E.plainS},
                          {"instrumented_s", E.measuredS},
                          {"scale", tidy(E.plainScale)}};
  // Last: the time rule of every estimate above (--check compares it).
  Doc["projection"] = projectionName(E.rule);
  Doc["padded_ratio"] = paddedRatioName(E.padded);
  Doc["padding_across"] = paddingAcrossName(E.across);
  Doc["mix_pricing"] = mixPricingName(E.mixPricing);
  Doc["other_cpu_profile"] = otherCpuProfileName(E.otherCpu);
  return Doc;
}

static std::string csvField(const std::string &S) {
  if (S.find_first_of(",\"\n") == std::string::npos)
    return S;
  std::string Q = "\"";
  for (char C : S)
    Q += C == '"' ? std::string("\"\"") : std::string(1, C);
  return Q + "\"";
}

std::string estimateCsv(const PhaseFile &F, const std::vector<PhaseMatch> &M, const Estimate &E) {
  std::string Out =
      "node,rank,relative_to_base,phase,time_s,tpi_us,iterations,ubench,streams,status,threads\n";
  for (const NodeEstimate &N : E.nodes) {
    std::string Head = csvField(N.node) + "," + std::to_string(N.rank) + "," +
                       formatNumber(tidy(N.relativeToBase)) + ",";
    for (const PhaseEstimate &PE : N.phases) {
      const PhaseMatch &PM = M[PE.match];
      Out += Head + csvField(F.phases[PM.phaseIndex].id) + "," + formatNumber(tidy(PE.timeS)) + ",";
      if (!PE.hasProfile()) {
        Out += ",,,," + std::string(phaseEstimateKindName(PE.kind)) + "," +
               std::to_string(PE.threads) + "\n";
        continue;
      }
      const Candidate &C = PM.ranked[PE.rank];
      Out += formatNumber(PE.tpiUs) + "," + formatNumber(PE.iterations) + "," + csvField(C.ubench) +
             "," + formatStreams(C.streams) + "," + phaseEstimateKindName(PE.kind) + "," +
             std::to_string(PE.threads) + "\n";
    }
    Out += Head + "(uncovered)," + formatNumber(tidy(N.uncoveredS)) + ",,,,," +
           (E.uncovered == UncoveredRule::Scaled ? "scaled" : "measured on base") + ",\n";
    if (E.sync == SyncRule::Barriers && (E.barriers > 0 || E.spinRounds > 0))
      Out += Head + "(synchronization)," + formatNumber(tidy(N.syncS)) + ",,,,," +
             (E.spinRounds == 0  ? "barriers"
              : E.barriers == 0 ? "spin-wait rounds"
                                : "barriers and spin-wait rounds") +
             ",\n";
    Out += Head + "(program)," + formatNumber(tidy(N.timeS)) + ",,,,," +
           (N.missing     ? "incomplete"
            : N.fallbacks ? "with fallbacks"
                          : "estimate") +
           "," + csvField(formatThreadList(N.threads)) + "\n";
  }
  return Out;
}

} // namespace phaseprobe
