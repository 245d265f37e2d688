//===- estimate.cpp - T_phase(TN) = tpi_P(TN) * iterations ----------------===//
//
// The arithmetic of METHOD.md stage 4 and the decisions around it that the
// method leaves open, each reported to the user rather than hidden:
//  - the uncovered part of the base run (serial code, regions' time outside
//    their leaves, insignificant and unmatched phases) is kept as measured on
//    the base node, on every node (UncoveredRule::Kept); under
//    UncoveredRule::Scaled each top-level region's uncovered time follows
//    the matched phases inside it: an unmatched loop in a region runs on the
//    same threads over the same data as the matched ones beside it, and
//    keeping it at its base time pulls every node's estimate towards the
//    base node's. Serial code, and regions without a matched phase, have
//    nothing to follow and stay as measured;
//  - under --threads N a phase's iterations are scaled by its threads / N:
//    iterations count the slowest thread's share, and the same total work
//    split evenly over N threads gives each thread threads/N as much;
//  - under --threads native every target node gets the thread count it was
//    characterized at: the phase's own where the node has profiles at it,
//    else the node's largest (a user runs on the whole node), with the same
//    scaling; the base node stays at the phase's own, so the self-check and
//    relative_to_base keep their meaning;
//  - a node lacking the chosen profile uses the next-best one it has;
//  - under PaddedRatio::Family a padded clone's tpi on a node is its base
//    tpi times the median node / base ratio of its padding family (the
//    clones of its unpadded uB and streams near its base tpi, each
//    measured at another time), not its own profile's alone; where the
//    family near it is the clone alone, the median of its own ratio and
//    its nearest relatives' on either side, so that one profile from a
//    noisy hour does not decide by itself;
//  - under PaddingAcross::Mix a padded clone's padding on every node but
//    the base node at the phase's own count is priced by the phase's op mix
//    (the compute uBs of its kinds, node over base) instead of carried by
//    the clone's profile there, whose padding moves like a multiply-add
//    chain across designs and carries its own noise on any node
//    (MixOtherCpu: on nodes of another CPU design only), the adds and
//    multiplies at the latency uBs' price or, under MixPricing::Throughput,
//    at the throughput uBs' where both nodes have them;
//  - under SyncRule::Barriers each top-level region's barriers, and its
//    spin-wait rounds (its spin_rounds), are priced at the node's cost
//    per barrier (round) minus the base node's (sync.cpp), with the work
//    between them measured on the base node choosing the uB footprint and
//    the region's thread count chosen as for its phases; a region the NPPDB
//    cannot price keeps them in its measured time;
//  - under SyncRule::Barriers a top-level region that is its own matched
//    phase projects only its slowest thread's own time; the rest (its forks
//    and joins) is kept with its time outside its phases, where the base
//    run's threads had CPUs of their own (program.threads_share_cpus);
//  - under SyncRule::Barriers each top-level region's page faults too: the
//    base run's fault time (faults x pf1p's cost on the base node, at most
//    the region's time) went into the projection with the region's matched
//    phases (their node / base ratio) or, without one, was kept; it is
//    taken out again and the node's own fault time put in;
//  - and the pages of those faults given back by the serial code between
//    forks (a page faults again only after it was given back), at the
//    node's cost per page (gb1p) instead of the base run's, in no region;
//  - of those faults, the ones on memory the program allocates only under
//    tests of the count (guarded_page_faults) are left out where a test
//    fails at the node's count (not at the region's own);
//  - a top-level region with a runs_if test that fails at the thread count a
//    node is projected onto is not run there (only one way of a branch on
//    the count reaches it): its phases, uncovered time, synchronization and
//    faults are 0 on that node. Only where the node's count differs from
//    the region's own: at its own the region ran, so its tests held;
//  - serial code that runs only under tests of the count (program
//    guarded_serial) is left out of a node where a test fails at every
//    count it is projected onto (not the program's own);
//  - under HandOverRule::Priced a matched phase's hand-overs (its streams'
//    handover_share x footprint in lines, per invocation) are taken out of
//    its projection at the base node's cost per line (ho1p - hk1p) and put
//    back at the node's, scaled by (T-1)/T from the base's thread count to
//    the node's (none at one thread; handover.cpp);
//  - under InvocationRule::Priced a matched worksharing phase's
//    invocations are taken out of its projection at the base node's fixed
//    cost of one (inv1p - mbw1p, the short sweeps) and put back at the
//    node's: every thread of a team enters every invocation, at any count;
//    an unmatched one's are priced in the uncovered time, as barriers are;
//  - under the ratio rule each phase estimate is the absolute one times the
//    phase's calibration tpi_phase(BN) / tpi_P(BN), with the tpi of the
//    profile actually used (a fallback's own), so the base node gets the
//    measured phase time back whichever profile it used.
//
//===----------------------------------------------------------------------===//
#include "phaseprobe/error.h"
#include "phaseprobe/estimator.h"
#include "phaseprobe/nppdb.h"
#include "phaseprobe/stream_notation.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

namespace phaseprobe {

TpiLookup::~TpiLookup() = default;

std::optional<double> NppdbTpiLookup::tpi(const std::string &Node, const std::string &UBench,
                                          const std::vector<StreamTuple> &Streams,
                                          unsigned Threads) const {
  std::optional<Profile> P = Db.find(Node, UBench, Streams, Threads);
  if (!P) {
    // The same request at another thread count than it was chosen at.
    if (auto At = streamsAt(Node, UBench, Streams, Threads); At && *At != Streams)
      P = Db.find(Node, UBench, *At, Threads);
  }
  if (!P)
    return std::nullopt;
  return P->tpiUs;
}

std::optional<std::vector<StreamTuple>>
NppdbTpiLookup::streamsAt(const std::string &Node, const std::string &UBench,
                          const std::vector<StreamTuple> &Streams, unsigned Threads) const {
  auto Key = std::make_tuple(Node, UBench, formatStreams(Streams), Threads);
  if (auto It = StreamsAt.find(Key); It != StreamsAt.end())
    return It->second;
  return StreamsAt[Key] = Db.streamsAt(Node, UBench, Streams, Threads);
}

std::vector<unsigned> NppdbTpiLookup::threadCounts(const std::string &Node) const {
  return Db.threadCounts(Node);
}

std::string TpiLookup::cpuDesign(const std::string &) const { return ""; }

std::vector<std::string> TpiLookup::nodes() const { return {}; }

std::vector<std::string> NppdbTpiLookup::nodes() const { return Db.nodes(); }

std::string NppdbTpiLookup::cpuDesign(const std::string &Node) const {
  std::optional<NodeInfo> N = Db.node(Node);
  if (!N || N->cpu.empty())
    return "";
  std::string D = N->cpu;
  if (N->l1dKiB > 0)
    D += ", L1d " + formatNumber(N->l1dKiB) + " KiB";
  if (N->l2KiB > 0)
    D += ", L2 " + formatNumber(N->l2KiB) + " KiB";
  return D;
}

std::string unpaddedName(const std::string &UBench) {
  // "+w<N>" or "+w<N>/<M>", always the name's last suffix (UBenchConfig::name).
  std::size_t W = UBench.rfind("+w");
  if (W == std::string::npos)
    return "";
  auto Digits = [&](std::size_t &I) {
    std::size_t From = I;
    while (I < UBench.size() && UBench[I] >= '0' && UBench[I] <= '9')
      ++I;
    return I > From;
  };
  std::size_t I = W + 2;
  if (!Digits(I))
    return "";
  if (I < UBench.size() && UBench[I] == '/' && !Digits(++I))
    return "";
  return I == UBench.size() ? UBench.substr(0, W) : "";
}

std::string formatThreadList(const std::vector<unsigned> &Threads) {
  std::string S;
  for (unsigned T : Threads)
    S += (S.empty() ? "" : ",") + std::to_string(T);
  return S;
}

const char *phaseEstimateKindName(PhaseEstimate::Kind K) {
  switch (K) {
  case PhaseEstimate::Chosen:
    return "chosen";
  case PhaseEstimate::Fallback:
    return "fallback";
  case PhaseEstimate::Missing:
    return "missing";
  case PhaseEstimate::NotRun:
    return "not_run";
  }
  return "?";
}

const char *projectionName(Projection P) { return P == Projection::Ratio ? "ratio" : "absolute"; }

const char *paddedRatioName(PaddedRatio R) { return R == PaddedRatio::Family ? "family" : "own"; }

std::optional<PaddedRatio> parsePaddedRatio(const std::string &S) {
  if (S == "own")
    return PaddedRatio::Own;
  if (S == "family")
    return PaddedRatio::Family;
  return std::nullopt;
}

const char *paddingAcrossName(PaddingAcross A) {
  return A == PaddingAcross::Mix           ? "mix"
         : A == PaddingAcross::MixOtherCpu ? "mix-other-cpu"
                                           : "carried";
}

const char *otherCpuProfileName(OtherCpuProfile P) {
  return P == OtherCpuProfile::WholePhase ? "whole-phase" : "ranked";
}

std::optional<OtherCpuProfile> parseOtherCpuProfile(const std::string &S) {
  if (S == "whole-phase")
    return OtherCpuProfile::WholePhase;
  if (S == "ranked")
    return OtherCpuProfile::Ranked;
  return std::nullopt;
}

std::optional<PaddingAcross> parsePaddingAcross(const std::string &S) {
  if (S == "carried")
    return PaddingAcross::Carried;
  if (S == "mix")
    return PaddingAcross::Mix;
  if (S == "mix-other-cpu")
    return PaddingAcross::MixOtherCpu;
  return std::nullopt;
}

const char *mixPricingName(MixPricing P) {
  return P == MixPricing::Throughput ? "throughput" : "latency";
}

std::optional<MixPricing> parseMixPricing(const std::string &S) {
  if (S == "latency")
    return MixPricing::Latency;
  if (S == "throughput")
    return MixPricing::Throughput;
  return std::nullopt;
}

namespace {

/// opMixRatio with one set of add and multiply uBs.
std::optional<double> mixRatioWith(const TpiLookup &L, const OpCounts &Ops, const std::string &Node,
                                   unsigned Threads, const std::string &Base,
                                   unsigned BaseThreads, const char *Add, const char *Mul) {
  // The compute uBs read one L1-resident 4 KiB stream (ubench/README.md):
  // their time is 16 of their operation an element (cadd's 4 chains of 4,
  // tadd's 16 of 1), so one unit prices every kind. Adds and
  // multiplies must be priced; divisions and square roots are where both
  // nodes have their uB (NPPDBs before 2026-11-27 have none).
  static const std::vector<StreamTuple> L1{{4, 8, 8, Access::Shared}};
  struct Kind {
    double n;
    const char *ubench;
    bool required;
  };
  double NodeCost = 0, BaseCost = 0;
  for (const Kind &K : {Kind{Ops.add, Add, true}, Kind{Ops.mul, Mul, true},
                        Kind{Ops.div, "cdiv", false}, Kind{Ops.sqrt, "csqrt", false}}) {
    if (!(K.n > 0))
      continue;
    std::optional<double> AtNode = L.tpi(Node, K.ubench, L1, Threads);
    std::optional<double> AtBase = L.tpi(Base, K.ubench, L1, BaseThreads);
    if (!AtNode || !AtBase || !(*AtNode > 0) || !(*AtBase > 0)) {
      if (K.required)
        return std::nullopt;
      continue;
    }
    NodeCost += K.n * *AtNode;
    BaseCost += K.n * *AtBase;
  }
  if (!(BaseCost > 0))
    return std::nullopt;
  return NodeCost / BaseCost;
}

} // namespace

std::optional<double> opMixRatio(const TpiLookup &L, const OpCounts &Ops, const std::string &Node,
                                 unsigned Threads, const std::string &Base, unsigned BaseThreads,
                                 MixPricing Pricing, MixPricing *Used) {
  if (Pricing == MixPricing::Throughput)
    if (auto R = mixRatioWith(L, Ops, Node, Threads, Base, BaseThreads, "tadd", "tmul")) {
      if (Used)
        *Used = MixPricing::Throughput;
      return R;
    }
  // NPPDBs before 2026-12-03 have no throughput uBs: latency, as before.
  if (Used)
    *Used = MixPricing::Latency;
  return mixRatioWith(L, Ops, Node, Threads, Base, BaseThreads, "cadd", "cmul");
}

namespace {

/// A padded clone's family on one node: its siblings (\p Twin + "+w...",
/// the same streams) at \p Threads, by name.
std::map<std::string, double> paddingFamily(const TpiLookup &L, const std::string &Twin,
                                            const std::vector<StreamTuple> &Streams,
                                            const std::string &Node, unsigned Threads) {
  std::map<std::string, double> Out;
  for (const auto &[Name, Tpi] : L.sameStreams(Node, Streams, Threads))
    if (unpaddedName(Name) == Twin)
      Out[Name] = Tpi;
  return Out;
}

/// PaddedRatio::Family: the tpi on the node that a padded clone's base tpi
/// \p BaseTpi gets from the median node / base ratio of the family members
/// \p AtBase (their base tpi, within PaddingFamilyBand of it) that \p AtNode
/// has too, with the number of clones pooled; absent below two.
std::optional<std::pair<double, size_t>> familyTpi(double BaseTpi,
                                                   const std::map<std::string, double> &AtBase,
                                                   const std::map<std::string, double> &AtNode) {
  std::vector<double> Ratios;
  for (const auto &[Name, Tpi] : AtNode)
    if (auto It = AtBase.find(Name); It != AtBase.end() && It->second > 0)
      Ratios.push_back(Tpi / It->second);
  if (Ratios.size() < 2)
    return std::nullopt;
  std::sort(Ratios.begin(), Ratios.end());
  size_t N = Ratios.size();
  double Median = N % 2 ? Ratios[N / 2] : (Ratios[N / 2 - 1] + Ratios[N / 2]) / 2;
  return std::make_pair(BaseTpi * Median, N);
}

/// PaddedRatio::Family without a family near the clone: the median of its
/// own node / base ratio \p OwnRatio and those of the relatives (\p AtBase,
/// \p AtNode: its padding family and unpadded twin, by name; \p Own
/// itself left out) nearest to its base tpi \p OwnBase below and above;
/// absent without both.
std::optional<double> neighboursRatio(const std::string &Own, double OwnBase, double OwnRatio,
                                      const std::map<std::string, double> &AtBase,
                                      const std::map<std::string, double> &AtNode) {
  std::optional<std::pair<double, double>> Below, Above; // (base tpi, ratio)
  for (const auto &[Name, TB] : AtBase) {
    auto N = AtNode.find(Name);
    if (Name == Own || N == AtNode.end() || !(TB > 0))
      continue;
    auto &Side = TB <= OwnBase ? Below : Above;
    if (!Side || std::abs(TB - OwnBase) < std::abs(Side->first - OwnBase))
      Side = std::make_pair(TB, N->second / TB);
  }
  if (!Below || !Above)
    return std::nullopt;
  double R[3] = {OwnRatio, Below->second, Above->second};
  std::sort(R, R + 3);
  return R[1];
}

} // namespace

const char *uncoveredRuleName(UncoveredRule R) {
  return R == UncoveredRule::Scaled ? "scaled" : "kept";
}

std::optional<UncoveredRule> parseUncoveredRule(const std::string &S) {
  if (S == "kept")
    return UncoveredRule::Kept;
  if (S == "scaled")
    return UncoveredRule::Scaled;
  return std::nullopt;
}

std::optional<Projection> parseProjection(const std::string &S) {
  if (S == "absolute")
    return Projection::Absolute;
  if (S == "ratio")
    return Projection::Ratio;
  return std::nullopt;
}

const NodeEstimate *Estimate::baseNode() const {
  for (const NodeEstimate &N : nodes)
    if (N.node == base)
      return &N;
  return nullptr;
}

std::optional<double> Estimate::selfCheckPercent() const {
  const NodeEstimate *B = baseNode();
  if (!B || threads != 0 || measuredS <= 0)
    return std::nullopt;
  return (B->absoluteS - measuredS) / measuredS * 100.0;
}

Estimate estimate(const PhaseFile &F, const std::vector<PhaseMatch> &M, const TpiLookup &L,
                  const std::string &Base, const std::vector<std::string> &Nodes,
                  unsigned Threads) {
  return estimate(F, M, L, Base, Nodes,
                  Threads ? ThreadProjection::fixed(Threads) : ThreadProjection::own());
}

Estimate estimate(const PhaseFile &F, const std::vector<PhaseMatch> &M, const TpiLookup &L,
                  const std::string &Base, const std::vector<std::string> &Nodes,
                  const ThreadProjection &TP, Projection Rule, SyncRule Sync,
                  UncoveredRule Uncovered, PaddedRatio Padded, PaddingAcross Across,
                  SyncSweeps Sweeps, HandOverRule HandOver, OtherCpuProfile OtherCpu,
                  InvocationRule Invocations, MixPricing Pricing) {
  Estimate E;
  E.mixPricing = Pricing;
  E.invocations = Invocations;
  E.otherCpu = OtherCpu;
  E.sweeps = Sweeps;
  E.handOver = HandOver;
  E.padded = Padded;
  E.across = Across;
  E.base = Base;
  E.projection = TP;
  E.rule = Rule;
  E.threads = TP.mode == ThreadProjection::Fixed ? TP.threads : 0;
  E.measuredS = F.program.totalTimeS;
  E.uncovered = Uncovered;
  E.sync = Sync;
  // Every phase's top-level unit: the outermost phase its parent chain
  // reaches (a parent the file does not list ends the chain).
  std::map<std::string, size_t> ById;
  for (size_t I = 0; I < F.phases.size(); ++I)
    ById.emplace(F.phases[I].id, I);
  std::vector<size_t> Top(F.phases.size());
  for (size_t I = 0; I < F.phases.size(); ++I) {
    size_t T = I;
    for (size_t Hops = 0; F.phases[T].parent && Hops < F.phases.size(); ++Hops) {
      auto It = ById.find(*F.phases[T].parent);
      if (It == ById.end())
        break;
      T = It->second;
    }
    Top[I] = T;
  }
  // Per matched phase, the part of its base time its uB projects: all of
  // it, but for a top-level region that is its own phase under
  // SyncRule::Barriers only its slowest thread's own time, where the
  // threads had CPUs of their own (on a shared CPU a thread's time holds
  // the turns of the others). Its fork and join do not grow with its work:
  // they stay with the region's time outside its phases, kept, and the
  // barrier term prices the join (lulesh.cc:2022: 4200 forks of 2.5 us,
  // 0.75 us of each outside the slowest thread, as long at one thread).
  std::vector<double> WorkS(F.phases.size(), 0.0);
  bool OwnCpus = F.program.threadsShareCpus == false;
  for (const PhaseMatch &PM : M) {
    if (!PM.matched())
      continue;
    size_t I = PM.phaseIndex;
    const Phase &P = F.phases[I];
    WorkS[I] = P.timeS;
    if (Sync == SyncRule::Barriers && OwnCpus && Top[I] == I && P.threadTimeS) {
      WorkS[I] = std::clamp(P.threadTimeS->maxS, 0.0, P.timeS);
      E.forkJoinS += P.timeS - WorkS[I];
      ++E.forkJoinRegions;
    }
    E.coveredS += WorkS[I];
  }
  // A hand-written file may list phases whose times exceed the total (or
  // nested leaves that overlap); never let the uncovered part go negative.
  E.uncoveredS = std::max(0.0, E.measuredS - E.coveredS);
  E.coverage = E.measuredS > 0 ? std::min(1.0, E.coveredS / E.measuredS) : 0;
  // Per top-level unit: its time outside matched phases. Per matched phase:
  // its estimate on the base node at its own thread count under this rule,
  // the denominator of the node ratio its unit's uncovered time follows.
  struct Unit {
    double uncoveredS = 0;
    double syncS = 0; ///< the base run's priced synchronization inside it
    double forkJoinS = 0; ///< its own phase's time beyond its slowest thread's
    double invocationS = 0; ///< its unmatched worksharing phases' fixed time (priced apart)
  };
  std::map<size_t, Unit> Units;
  std::vector<double> BaseEstimateS(F.phases.size(), 0.0);
  double InTop = 0;
  for (size_t I = 0; I < F.phases.size(); ++I)
    if (Top[I] == I) {
      InTop += F.phases[I].timeS;
      Units[I].uncoveredS = F.phases[I].timeS;
    }
  // The ratio rule's factor for a phase and a profile of its ranking: the
  // profile's tpi was measured on the base node at the phase's thread count
  // (the matcher only compares profiles there).
  auto Calibration = [&](size_t I, const Candidate &C) {
    const Phase &P = F.phases[I];
    return Rule == Projection::Ratio && C.tpiUs > 0 && P.tpiUs > 0 && P.timeS > 0
               ? P.tpiUs * (WorkS[I] / P.timeS) / C.tpiUs
               : 1.0;
  };
  for (const PhaseMatch &PM : M) {
    if (!PM.matched())
      continue;
    const Phase &P = F.phases[PM.phaseIndex];
    const Candidate &C = *PM.candidate;
    BaseEstimateS[PM.phaseIndex] = C.tpiUs * P.iterations * 1e-6 * Calibration(PM.phaseIndex, C);
    Unit &U = Units[Top[PM.phaseIndex]];
    U.uncoveredS -= WorkS[PM.phaseIndex];
    U.forkJoinS += P.timeS - WorkS[PM.phaseIndex];
  }
  for (auto &[I, U] : Units) {
    U.uncoveredS = std::max(0.0, U.uncoveredS);
    E.inRegionsS += U.uncoveredS;
  }
  E.serialS = std::max(0.0, E.measuredS - InTop);
  // Top-level regions with barriers or spin-wait rounds: nested ones are
  // crossed (waited) by members of the outer team and already counted there.
  struct SyncRegion {
    const Phase *phase;
    SyncKind kind;
    double count; ///< barriers, or spin-wait rounds
    std::optional<SyncPoint> point;
    std::optional<double> baseCostUs;
  };
  std::vector<SyncRegion> SyncRegions;
  for (const Phase &P : F.phases) {
    if (P.parent)
      continue;
    std::vector<std::pair<SyncKind, double>> Counts;
    if (P.barriers && *P.barriers > 0) {
      E.barriers += double(*P.barriers);
      Counts.emplace_back(SyncKind::Barrier, double(*P.barriers));
    }
    if (P.spinRounds && *P.spinRounds > 0) {
      E.spinRounds += double(*P.spinRounds);
      Counts.emplace_back(SyncKind::SpinWait, double(*P.spinRounds));
    }
    if (Sync != SyncRule::Barriers)
      continue;
    for (auto [K, N] : Counts) {
      SyncRegion R{&P, K, N, {}, {}};
      // The short sweeps price every region alike; only the interval rule
      // needs where the region's work between synchronizations falls.
      if (Sweeps == SyncSweeps::Short)
        R.baseCostUs = syncCostShortUs(K, L, Base, P.threads);
      else if ((R.point = syncPoint(K, L, Base, P.threads, P.timeS * 1e6 / N)))
        R.baseCostUs = syncCostUs(K, L, Base, P.threads, *R.point);
      // Priced synchronization gets each node's own cost from the sync
      // term: the base run's share of it is not scaled with the region's work.
      if (R.baseCostUs) {
        Unit &U = Units[size_t(&P - F.phases.data())];
        U.syncS = std::min(U.uncoveredS, U.syncS + N * *R.baseCostUs * 1e-6);
      }
      SyncRegions.push_back(R);
    }
  }

  // Top-level regions whose forks faulted: their base fault time.
  struct FaultRegion {
    size_t unit;
    double faults, baseS;
    std::optional<double> giveBackBaseUs; ///< gb1p's cost per page on the base
  };
  // Of a region's faults those on memory allocated only under tests of the
  // count, where one fails at \p Th (only where Th is not the region's own).
  auto NotAllocated = [](const Phase &P, unsigned Th) {
    double N = 0;
    if (Th != P.threads)
      for (const GuardedFaults &G : P.guardedPageFaults)
        if (!allHold(G.allocatedIf, Th))
          N += double(G.pageFaults);
    return N;
  };
  std::vector<FaultRegion> FaultRegions;
  double BaseFaultsPriced = 0, BaseGiveBacksPriced = 0;
  for (size_t I = 0; I < F.phases.size(); ++I) {
    const Phase &P = F.phases[I];
    if (P.parent || !P.pageFaults || *P.pageFaults == 0)
      continue;
    E.pageFaults += double(*P.pageFaults);
    if (Sync != SyncRule::Barriers)
      continue;
    if (auto C = faultCostUs(L, Base, P.threads)) {
      double N = double(*P.pageFaults);
      std::optional<double> G = giveBackCostUs(L, Base, P.threads);
      FaultRegions.push_back({I, N, std::min(P.timeS, N * *C * 1e-6), G});
      E.faultBaseCostUs += N * *C;
      BaseFaultsPriced += N;
      if (G) {
        E.giveBackBaseCostUs += N * *G;
        BaseGiveBacksPriced += N;
      }
    }
  }
  if (BaseFaultsPriced > 0)
    E.faultBaseCostUs /= BaseFaultsPriced;
  if (BaseGiveBacksPriced > 0)
    E.giveBackBaseCostUs /= BaseGiveBacksPriced;
  // The serial code's faults: the run's less its top-level regions'.
  if (F.program.pageFaults)
    E.serialPageFaults = std::max(0.0, double(*F.program.pageFaults) - E.pageFaults);
  if (Sync == SyncRule::Barriers && E.serialPageFaults > 0)
    E.serialFaultBaseCostUs = serialFaultCostUs(L, Base).value_or(0);

  // HandOverRule::Priced: per matched phase that hands lines over, the
  // lines (an invocation's, the team's), the footprint that picks the
  // hand-over uBs' profile, and the base run's hand-over time (at most the
  // phase's own). A run on one thread hands nothing over: its shares are 0.
  struct HandOverPhase {
    double lines = 0, footprintKiB = 0, baseS = 0;
  };
  std::map<size_t, HandOverPhase> HandOvers;
  if (HandOver == HandOverRule::Priced)
    for (const PhaseMatch &PM : M) {
      if (!PM.matched())
        continue;
      const Phase &P = F.phases[PM.phaseIndex];
      HandOverPhase H{handedLines(P), handOverFootprintKiB(P), 0};
      if (!(H.lines > 0) || P.threads <= 1 || P.invocations == 0)
        continue;
      std::optional<double> Cost = handOverCostUs(L, Base, P.threads, H.footprintKiB);
      if (!Cost)
        continue;
      H.baseS = std::min(WorkS[PM.phaseIndex], H.lines / P.threads * *Cost * 1e-6);
      HandOvers[PM.phaseIndex] = H;
      E.handedLines += H.lines;
      ++E.handOverPhases;
    }
  // InvocationRule::Priced: per worksharing phase, the base run's fixed
  // time of its invocations. A matched phase's (at most its work) leaves
  // its projection. An unmatched one's time is in its unit's uncovered
  // time, which the uncovered rule keeps (or scales with the unit's work,
  // so it is taken out there): the node's cost replaces its fixed time
  // (at most the phase's), as the synchronization term does a region's
  // barriers. SP W's four lhs loops without a stream outside L1 (19% of its
  // base run) are such phases.
  std::map<size_t, double> InvocationBaseS;
  struct UnmatchedInvocations {
    size_t phase;
    double count;
    double baseS;
  };
  std::vector<UnmatchedInvocations> Unmatched;
  std::map<std::pair<std::string, unsigned>, std::optional<double>> InvocationCosts;
  auto InvocationCost = [&](const std::string &Node, unsigned Th) {
    auto [It, New] = InvocationCosts.try_emplace({Node, Th});
    if (New)
      It->second = syncCostShortUs(SyncKind::Invocation, L, Node, Th);
    return It->second;
  };
  if (Invocations == InvocationRule::Priced) {
    std::vector<bool> Matched(F.phases.size(), false);
    for (const PhaseMatch &PM : M)
      if (PM.matched() && PM.phaseIndex < Matched.size())
        Matched[PM.phaseIndex] = true;
    for (size_t I = 0; I < F.phases.size(); ++I) {
      const Phase &P = F.phases[I];
      if (!pricesInvocations(P) || P.invocations == 0)
        continue;
      std::optional<double> Cost = InvocationCost(Base, P.threads);
      if (!Cost)
        continue;
      const double N = double(P.invocations);
      if (Matched[I]) {
        InvocationBaseS[I] = std::min(WorkS[I], N * *Cost * 1e-6);
      } else {
        Unmatched.push_back({I, N, std::min(P.timeS, N * *Cost * 1e-6)});
        Units[Top[I]].invocationS += Unmatched.back().baseS;
        ++E.invocationUnmatchedPhases;
      }
      E.invocationCount += N;
      E.invocationBaseCostUs += N * *Cost;
      ++E.invocationPhases;
    }
  }
  if (E.invocationCount > 0)
    E.invocationBaseCostUs /= E.invocationCount;
  // The share of a flip's lines another thread wrote at \p T threads.
  auto FlipShare = [](unsigned T) { return T > 1 ? double(T - 1) / T : 0.0; };

  // PaddedRatio::Family: a padded candidate's base tpi, its whole family on
  // the base node (its relatives) and the part of it within
  // PaddingFamilyBand of that tpi, read once for every node (by match and
  // rank); empty where the base lacks the clone.
  struct BaseFamilyOf {
    double tpi = 0;
    std::map<std::string, double> all, inBand;
  };
  std::map<std::pair<size_t, size_t>, BaseFamilyOf> BaseFamilies;
  auto BaseFamily = [&](size_t Match, size_t Rank, const std::string &Twin, const Candidate &C,
                        unsigned Threads) -> const BaseFamilyOf & {
    auto [It, New] = BaseFamilies.try_emplace({Match, Rank});
    if (New)
      if (auto B = L.tpi(Base, C.ubench, C.streams, Threads); B && *B > 0) {
        BaseFamilyOf &F = It->second;
        F.tpi = *B;
        F.all = paddingFamily(L, Twin, C.streams, Base, Threads);
        for (const auto &[Name, Tpi] : F.all)
          if (std::abs(Tpi / *B - 1) <= PaddingFamilyBand)
            F.inBand.emplace(Name, Tpi);
      }
    return It->second;
  };

  std::vector<std::string> All = Nodes;
  if (std::find(All.begin(), All.end(), Base) == All.end())
    All.insert(All.begin(), Base);
  std::string BaseCpu = L.cpuDesign(Base);
  for (const std::string &Node : All) {
    NodeEstimate NE;
    NE.node = Node;
    NE.cpu = L.cpuDesign(Node);
    NE.otherCpu = !BaseCpu.empty() && !NE.cpu.empty() && NE.cpu != BaseCpu;
    // Native: the node's thread counts decide, once per node and phase
    // thread count, never per profile, so a phase is not moved to another
    // thread count just because one uB happens to be missing at its own.
    std::vector<unsigned> Have;
    if (TP.mode == ThreadProjection::Native && Node != Base)
      Have = L.threadCounts(Node);
    auto ThreadsFor = [&](const Phase &P) {
      if (TP.mode == ThreadProjection::Fixed)
        return TP.threads;
      if (!Have.empty() && std::find(Have.begin(), Have.end(), P.threads) == Have.end())
        return Have.back(); // ascending: the node's largest
      return P.threads;
    };
    // Per unit, the node's and the base node's estimates of its matched
    // phases (those the node has a profile for: a missing one says nothing).
    std::map<size_t, std::pair<double, double>> UnitS;
    std::map<size_t, RegionEstimate> Regions;
    double HandedAtNode = 0;      ///< a thread's lines priced (NE.handOverCostUs's weights)
    double InvocationsAtNode = 0; ///< NE.invocationCostUs's weights
    for (const auto &[I, U] : Units) {
      const Phase &R = F.phases[I];
      unsigned Th = ThreadsFor(R);
      RegionEstimate &RE = Regions[I];
      RE.phase = I;
      RE.threads = Th;
      RE.runs = Th == R.threads || allHold(R.runsIf, Th);
      NE.regionsNotRun += RE.runs ? 0 : 1;
    }
    auto Runs = [&](size_t Unit) { return Regions[Unit].runs; };
    for (size_t I = 0; I < M.size(); ++I) {
      const PhaseMatch &PM = M[I];
      if (!PM.matched())
        continue;
      const Phase &P = F.phases[PM.phaseIndex];
      unsigned Th = ThreadsFor(P);
      PhaseEstimate PE;
      PE.match = I;
      PE.threads = Th;
      if (std::find(NE.threads.begin(), NE.threads.end(), Th) == NE.threads.end()) {
        NE.threads.push_back(Th);
        std::sort(NE.threads.begin(), NE.threads.end());
      }
      PE.iterations = P.iterations * double(P.threads) / double(Th);
      if (!Runs(Top[PM.phaseIndex])) {
        PE.kind = PhaseEstimate::NotRun;
        NE.phases.push_back(PE);
        continue;
      }
      PE.kind = PhaseEstimate::Missing;
      // The ranking's order, but on a node of another design, where asked,
      // the order the matcher's whole_phase_first gives.
      std::vector<size_t> Order;
      if (OtherCpu == OtherCpuProfile::WholePhase && NE.otherCpu) {
        Order = wholePhaseFirstOrder(PM.ranked);
      } else {
        Order.resize(PM.ranked.size());
        std::iota(Order.begin(), Order.end(), size_t(0));
      }
      for (size_t R : Order) {
        const Candidate &C = PM.ranked[R];
        if (auto T = L.tpi(Node, C.ubench, C.streams, Th)) {
          PE.wholePhase = R != 0 && R == Order.front();
          PE.kind = R == 0 || PE.wholePhase ? PhaseEstimate::Chosen : PhaseEstimate::Fallback;
          PE.rank = R;
          std::string Twin = unpaddedName(C.ubench);
          // A padded clone's unpadded twin on the node and on the base node,
          // and the clone on the base node: the walk and the padding that
          // the op mix, the relatives and the padding share all read.
          std::optional<double> TwinAtNode, TwinAtBase, CloneAtBase;
          if (!Twin.empty()) {
            TwinAtNode = L.tpi(Node, Twin, C.streams, Th);
            TwinAtBase = L.tpi(Base, Twin, C.streams, P.threads);
            CloneAtBase = L.tpi(Base, C.ubench, C.streams, P.threads);
          }
          // The padding at the phase's op mix's price, or the clone's tpi
          // at its padding family's ratio; the base node at the phase's own
          // count keeps the clone's own profile (every ratio is 1 there).
          const bool OwnBase = Node == Base && Th == P.threads;
          bool Priced = Across == PaddingAcross::Mix
                            ? !OwnBase
                            : Across == PaddingAcross::MixOtherCpu && NE.otherCpu;
          if (Priced && P.ops && TwinAtNode && TwinAtBase && CloneAtBase)
            PE.paddingMixRatio = opMixRatio(L, *P.ops, Node, Th, Base, P.threads, Pricing,
                                            &PE.paddingMixPricing);
          if (PE.paddingMixRatio) {
            T = *TwinAtNode + std::max(0.0, *CloneAtBase - *TwinAtBase) * *PE.paddingMixRatio;
          } else if (Padded == PaddedRatio::Family && !Twin.empty() && !OwnBase) {
            const BaseFamilyOf &BF = BaseFamily(I, R, Twin, C, P.threads);
            const double B = BF.tpi;
            std::map<std::string, double> AtNode = paddingFamily(L, Twin, C.streams, Node, Th);
            if (auto Pooled = BF.inBand.empty() ? std::nullopt : familyTpi(B, BF.inBand, AtNode)) {
              T = Pooled->first;
              PE.paddingFamily = Pooled->second;
            } else if (B > 0) {
              std::map<std::string, double> Relatives = BF.all;
              if (TwinAtBase)
                Relatives[Twin] = *TwinAtBase;
              if (TwinAtNode)
                AtNode[Twin] = *TwinAtNode;
              if (auto Rt = neighboursRatio(C.ubench, B, *T / B, Relatives, AtNode)) {
                T = B * *Rt;
                PE.paddingFamily = 3;
                PE.paddingNeighbours = true;
              }
            }
          }
          PE.tpiUs = *T;
          double Absolute = *T * PE.iterations * 1e-6;
          PE.calibration = Calibration(PM.phaseIndex, C);
          PE.timeS = Absolute * PE.calibration;
          // What the phase's base estimate became on the node: the factor
          // its base run's hand-overs and invocations went through with it.
          const double AtBase = BaseEstimateS[PM.phaseIndex];
          const double Scale = AtBase > 0 ? PE.timeS / AtBase : 1;
          // A term priced apart (hand-overs, invocations): the base run's
          // part went into the projection with the phase's work, scaled as
          // its base estimate is; \p Count at the node's \p CostUs comes
          // in instead. Returns the phase's change; the node's cost is
          // weighted by the count.
          auto PriceApart = [&](double Count, double CostUs, double BaseS, double &NodeS,
                                double &NodeCostUs, double &Weights) {
            double S = std::max(-PE.timeS, Count * CostUs * 1e-6 - Scale * BaseS);
            PE.timeS += S;
            Absolute += S;
            NodeS += S;
            NodeCostUs += Count * CostUs;
            Weights += Count;
            return S;
          };
          if (auto H = HandOvers.find(PM.phaseIndex); H != HandOvers.end() && !OwnBase) {
            if (auto Cost = handOverCostUs(L, Node, Th, H->second.footprintKiB)) {
              // A thread's lines: the team's over its threads.
              const double Lines = H->second.lines * FlipShare(Th) / FlipShare(P.threads);
              PE.handOverS = PriceApart(Lines / Th, *Cost, H->second.baseS, NE.handOverS,
                                        NE.handOverCostUs, HandedAtNode);
            } else {
              ++NE.handOverUnpriced;
            }
          }
          if (auto V = InvocationBaseS.find(PM.phaseIndex);
              V != InvocationBaseS.end() && !OwnBase) {
            if (auto Cost = InvocationCost(Node, Th))
              PE.invocationS = PriceApart(double(P.invocations), *Cost, V->second, NE.invocationS,
                                          NE.invocationCostUs, InvocationsAtNode);
            else
              ++NE.invocationUnpriced;
          }
          NE.absoluteS += Absolute;
          if (!Twin.empty()) {
            PE.padded = true;
            auto Share = [](std::optional<double> U,
                            double PaddedTpi) -> std::optional<double> {
              if (!U || !(PaddedTpi > 0))
                return std::nullopt;
              return std::clamp(1 - *U / PaddedTpi, 0.0, 1.0);
            };
            PE.paddingShare = Share(TwinAtNode, *T);
            if (!PE.paddingShare && Node != Base && CloneAtBase)
              PE.paddingShare = Share(TwinAtBase, *CloneAtBase);
            (PE.paddingShare ? NE.paddedS : NE.paddedUnknownS) +=
                PE.timeS * PE.paddingShare.value_or(1);
            if (PE.paddingMixRatio && PE.paddingShare)
              NE.paddedMixS += PE.timeS * *PE.paddingShare;
          }
          break;
        }
      }
      if (PE.kind == PhaseEstimate::Missing) {
        PE.timeS = WorkS[PM.phaseIndex]; // kept as measured on the base node, and flagged
        NE.absoluteS += PE.timeS;
        ++NE.missing;
      } else if (PE.kind == PhaseEstimate::Fallback) {
        ++NE.fallbacks;
      }
      if (PE.kind != PhaseEstimate::Missing) {
        auto &[NodeS, BaseS] = UnitS[Top[PM.phaseIndex]];
        NodeS += PE.timeS;
        BaseS += BaseEstimateS[PM.phaseIndex];
      }
      NE.phasesS += PE.timeS;
      Regions[Top[PM.phaseIndex]].phasesS += PE.timeS;
      NE.phases.push_back(PE);
    }
    // The unmatched phases' invocations, in their units' uncovered time.
    std::map<size_t, double> UnmatchedInvocationS;
    for (const UnmatchedInvocations &U : Unmatched) {
      const Phase &P = F.phases[U.phase];
      unsigned Th = ThreadsFor(P);
      if (!Runs(Top[U.phase]) || (Node == Base && Th == P.threads))
        continue;
      std::optional<double> Cost = InvocationCost(Node, Th);
      if (!Cost) {
        ++NE.invocationUnpriced;
        continue;
      }
      double S = std::max(-U.baseS, U.count * *Cost * 1e-6 - U.baseS);
      UnmatchedInvocationS[Top[U.phase]] += S;
      NE.invocationS += S;
      NE.invocationUnmatchedS += S;
      NE.invocationCostUs += U.count * *Cost;
      InvocationsAtNode += U.count;
    }
    if (HandedAtNode > 0)
      NE.handOverCostUs /= HandedAtNode;
    if (InvocationsAtNode > 0)
      NE.invocationCostUs /= InvocationsAtNode;
    double Priced[2] = {0, 0};
    for (const SyncRegion &R : SyncRegions) {
      const Phase &P = *R.phase;
      if (!Runs(size_t(&P - F.phases.data())))
        continue;
      unsigned Th = ThreadsFor(P);
      std::optional<double> Cost;
      if (R.baseCostUs)
        Cost = Node == Base && Th == P.threads ? R.baseCostUs
               : Sweeps == SyncSweeps::Short   ? syncCostShortUs(R.kind, L, Node, Th)
                                               : syncCostUs(R.kind, L, Node, Th, *R.point);
      if (!Cost) {
        ++NE.syncUnpriced;
        continue;
      }
      // A node with cheaper synchronization can at most take the region's
      // time away.
      double S = std::max(-P.timeS, R.count * (*Cost - *R.baseCostUs) * 1e-6);
      NE.syncS += S;
      Regions[size_t(&P - F.phases.data())].syncS += S;
      bool Bar = R.kind == SyncKind::Barrier;
      (Bar ? NE.barrierCostUs : NE.spinCostUs) += R.count * *Cost;
      Priced[Bar ? 0 : 1] += R.count;
    }
    double FaultsPriced = 0, GiveBacksPriced = 0;
    for (const FaultRegion &R : FaultRegions) {
      const Phase &P = F.phases[R.unit];
      if (!Runs(R.unit))
        continue;
      unsigned Th = ThreadsFor(P);
      std::optional<double> Cost = faultCostUs(L, Node, Th);
      if (!Cost) {
        ++NE.syncUnpriced;
        continue;
      }
      auto It = UnitS.find(R.unit);
      double Scale = It != UnitS.end() && It->second.second > 0 ? It->second.first / It->second.second : 1;
      double Gone = std::min(R.faults, NotAllocated(P, Th));
      double Faults = R.faults - Gone;
      double S = Faults * *Cost * 1e-6 - Scale * R.baseS;
      NE.faultS += S;
      NE.syncS += S;
      Regions[R.unit].syncS += S;
      Regions[R.unit].faultS += S;
      NE.faultsNotAllocated += Gone;
      NE.faultCostUs += Faults * *Cost;
      FaultsPriced += Faults;
      // The serial code gives the pages back between forks: at the node's
      // cost instead of the base run's. Pages not allocated there are given
      // back by guarded serial code, left out with it.
      if (std::optional<double> G = R.giveBackBaseUs ? giveBackCostUs(L, Node, Th) : std::nullopt) {
        NE.giveBackS += Faults * (*G - *R.giveBackBaseUs) * 1e-6;
        NE.giveBackCostUs += Faults * *G;
        GiveBacksPriced += Faults;
      }
    }
    if (FaultsPriced > 0)
      NE.faultCostUs /= FaultsPriced;
    if (GiveBacksPriced > 0)
      NE.giveBackCostUs /= GiveBacksPriced;
    NE.giveBackS = std::max(-E.serialS, NE.giveBackS);
    NE.syncS += NE.giveBackS;
    // A thread faulting alone costs the same on every configuration of one
    // design: the serial code's faults stay in its measured time there.
    // Across designs a fault's cost moves by more than the code around it
    // (pf1p at one thread: 12.5 us on the Zen 5 VM, 0.9 us on the Xeon VM,
    // run hq), so there they are priced.
    if (Sync == SyncRule::Barriers && E.serialPageFaults > 0 && NE.otherCpu) {
      std::optional<double> C = serialFaultCostUs(L, Node);
      if (C && E.serialFaultBaseCostUs > 0) {
        NE.serialFaultCostUs = *C;
        NE.serialFaultS = std::max(-(E.serialS + NE.giveBackS),
                                   E.serialPageFaults * (*C - E.serialFaultBaseCostUs) * 1e-6);
        NE.syncS += NE.serialFaultS;
      } else {
        NE.serialFaultsUnpriced = true;
      }
    }
    if (Priced[0] > 0)
      NE.barrierCostUs /= Priced[0];
    if (Priced[1] > 0)
      NE.spinCostUs /= Priced[1];
    NE.uncoveredS = E.uncoveredS;
    for (const auto &[I, U] : Units) {
      if (!Runs(I)) {
        NE.uncoveredS -= U.uncoveredS; // E.uncoveredS holds it
        Regions[I].uncoveredS = 0;
        continue;
      }
      double S = U.uncoveredS;
      if (Uncovered == UncoveredRule::Scaled) {
        const auto &[NodeS, BaseS] = UnitS[I];
        // Synchronization and forks and joins are not scaled with the work;
        // the join's barrier is in both.
        double Work = std::max(0.0, U.uncoveredS - std::max(U.syncS, U.forkJoinS) - U.invocationS);
        double D = BaseS > 0 ? Work * (NodeS / BaseS - 1) : 0;
        S += D;
        NE.uncoveredS += D;
      }
      if (auto V = UnmatchedInvocationS.find(I); V != UnmatchedInvocationS.end()) {
        S += V->second;
        NE.uncoveredS += V->second;
      }
      Regions[I].uncoveredS = S;
    }
    // Serial code that runs only under tests of the count: left out where
    // one fails at every count the node is projected onto (other than the
    // program's own, at which it ran).
    std::vector<unsigned> Counts = NE.threads;
    for (const auto &[I, R] : Regions)
      Counts.push_back(R.threads);
    for (const GuardedSerial &G : F.program.guardedSerial)
      if (!Counts.empty() && std::all_of(Counts.begin(), Counts.end(), [&](unsigned Th) {
            return Th != F.program.threads && !allHold(G.runsIf, Th);
          }))
        NE.serialNotRunS += G.timeS;
    NE.serialNotRunS = std::min(NE.serialNotRunS, E.serialS);
    NE.uncoveredS -= NE.serialNotRunS;
    NE.uncoveredS = std::max(0.0, NE.uncoveredS);
    for (auto &[I, R] : Regions)
      NE.regions.push_back(R);
    NE.timeS = NE.phasesS + NE.uncoveredS + NE.syncS;
    NE.absoluteS += NE.uncoveredS + NE.syncS;
    E.nodes.push_back(std::move(NE));
  }
  double BaseS = 0;
  for (const NodeEstimate &N : E.nodes)
    if (N.node == Base)
      BaseS = N.timeS;
  for (NodeEstimate &N : E.nodes)
    N.relativeToBase = BaseS > 0 ? N.timeS / BaseS : 0;
  std::stable_sort(E.nodes.begin(), E.nodes.end(),
                   [](const NodeEstimate &A, const NodeEstimate &B) {
                     if (A.timeS != B.timeS)
                       return A.timeS < B.timeS;
                     return A.node < B.node;
                   });
  for (size_t I = 0; I < E.nodes.size(); ++I)
    E.nodes[I].rank = unsigned(I + 1);
  return E;
}

void scaleToPlainBuild(Estimate &E, double PlainS) {
  if (!(PlainS > 0) || !std::isfinite(PlainS))
    throw InputError("", "--plain-time", "expected a positive number of seconds");
  if (!(E.measuredS > 0))
    throw InputError("", "--plain-time",
                     "the base run has no program time to scale from (program.total_time_s)");
  E.plainS = PlainS;
  E.plainScale = PlainS / E.measuredS;
  for (NodeEstimate &N : E.nodes) {
    N.timeS *= E.plainScale;
    for (double &T : N.runTimesS)
      T *= E.plainScale;
  }
}

} // namespace phaseprobe
