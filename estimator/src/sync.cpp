//===- sync.cpp - The cost of a synchronization on a node -----------------===//
//
// bar1p is mbw1p with a barrier after every sweep of each thread's private
// slice; at the same footprint and thread count the two differ only by one
// barrier per sweep, so (tpi_bar1p - tpi_mbw1p) x iterations per sweep is
// the cost of one barrier with a sweep's work between barriers (the EPCC
// syncbench method: test loop minus reference loop). spin1p is mbw1p with a
// spin-wait handoff between neighbouring threads after every sweep (each
// thread waits for its left neighbour's sweep and for its right neighbour to
// be at most one sweep behind: NPB LU's pipeline), priced the same way per
// handoff round. The kernel declares the stream it walked, so a node's
// profiles are found by footprint (within 5%: the kernel rounds a private
// slice to whole elements per thread) and the pair by equal streams.
//
//===----------------------------------------------------------------------===//
#include "bracket.h"
#include "phaseprobe/estimator.h"
#include "phaseprobe/nppdb.h"

#include <algorithm>
#include <cmath>

namespace phaseprobe {

namespace {

constexpr const char *ReferenceUB = "mbw1p";
constexpr double MaxSweepUs = 100;

/// Iterations of one sweep of one thread: its slice of the private stream.
double sweepIterations(const StreamTuple &S, unsigned Threads) {
  return S.footprintKiB * 1024.0 / S.elemBytes / std::max(1u, Threads);
}

/// The sync uB's profiles on the node at unit stride: the sweeps its mbw1p
/// twins are measured with (the grid has no other).
std::vector<std::pair<StreamTuple, double>> unitSweeps(SyncKind K, const TpiLookup &L,
                                                       const std::string &Node, unsigned Threads) {
  std::vector<std::pair<StreamTuple, double>> Out = L.family(Node, syncUBenchName(K), Threads);
  Out.erase(std::remove_if(Out.begin(), Out.end(),
                           [](const auto &P) { return P.first.strideBytes != P.first.elemBytes; }),
            Out.end());
  return Out;
}

/// The sync uB's profile nearest \p FootprintKiB (within 5%) on the node.
std::optional<std::pair<StreamTuple, double>> nearest(SyncKind K, const TpiLookup &L,
                                                      const std::string &Node, unsigned Threads,
                                                      double FootprintKiB) {
  std::optional<std::pair<StreamTuple, double>> Best;
  for (const auto &P : unitSweeps(K, L, Node, Threads)) {
    double D = std::fabs(P.first.footprintKiB - FootprintKiB);
    if (D > 0.05 * FootprintKiB)
      continue;
    if (!Best || D < std::fabs(Best->first.footprintKiB - FootprintKiB))
      Best = P;
  }
  return Best;
}

} // namespace

std::vector<std::pair<StreamTuple, double>>
TpiLookup::family(const std::string &, const std::string &, unsigned) const {
  return {};
}

std::vector<std::pair<StreamTuple, double>>
NppdbTpiLookup::family(const std::string &Node, const std::string &UBench,
                       unsigned Threads) const {
  auto Key = std::make_tuple(Node, UBench, Threads);
  if (auto It = Families.find(Key); It != Families.end())
    return It->second;
  std::vector<std::pair<StreamTuple, double>> &Out = Families[Key];
  Nppdb::ScanFilter F;
  F.Node = Node;
  F.Threads = Threads;
  F.NStreams = 1;
  Db.scan(F, [&](const Nppdb::ProfileView &V) {
    if (V.UBench == UBench)
      Out.emplace_back(V.Streams[0], V.TpiUs);
  });
  return Out;
}

std::vector<std::pair<std::string, double>>
TpiLookup::sameStreams(const std::string &, const std::vector<StreamTuple> &, unsigned) const {
  return {};
}

std::vector<std::pair<std::string, double>>
NppdbTpiLookup::sameStreams(const std::string &Node, const std::vector<StreamTuple> &Streams,
                            unsigned Threads) const {
  std::vector<std::pair<std::string, double>> Out;
  if (Streams.empty())
    return Out;
  auto Scan = [&](const std::vector<StreamTuple> &Want) {
    Nppdb::ScanFilter F;
    F.Node = Node;
    F.Threads = Threads;
    F.NStreams = unsigned(Want.size());
    F.FirstFootprintKiB = {Want[0].footprintKiB, Want[0].footprintKiB};
    Db.scan(F, [&](const Nppdb::ProfileView &V) {
      if (V.NStreams == Want.size() && std::equal(Want.begin(), Want.end(), V.Streams))
        Out.emplace_back(std::string(V.UBench), V.TpiUs);
    });
  };
  Scan(Streams);
  // At another thread count the same requests measured other streams
  // (Nppdb::streamsAt): a padded clone's family shares its request.
  if (Out.empty())
    if (auto At = streamsAt(Node, "", Streams, Threads); At && *At != Streams)
      Scan(*At);
  return Out;
}

const char *syncRuleName(SyncRule R) { return R == SyncRule::Barriers ? "barriers" : "off"; }

std::optional<SyncRule> parseSyncRule(const std::string &S) {
  if (S == "barriers")
    return SyncRule::Barriers;
  if (S == "off")
    return SyncRule::Off;
  return std::nullopt;
}

const char *syncUBenchName(SyncKind K) {
  switch (K) {
  case SyncKind::Barrier:
    return "bar1p";
  case SyncKind::SpinWait:
    return "spin1p";
  case SyncKind::Invocation:
    return InvocationUBench;
  }
  return "bar1p";
}

const char *invocationRuleName(InvocationRule R) {
  return R == InvocationRule::Priced ? "priced" : "kept";
}

std::optional<InvocationRule> parseInvocationRule(const std::string &S) {
  if (S == "priced")
    return InvocationRule::Priced;
  if (S == "kept")
    return InvocationRule::Kept;
  return std::nullopt;
}

bool pricesInvocations(const Phase &P) {
  return P.kind == "for" || P.kind == "sections" || P.kind == "distribute";
}

std::optional<double> syncCostUs(SyncKind K, const TpiLookup &L, const std::string &Node,
                                 unsigned Threads, double FootprintKiB) {
  auto Bar = nearest(K, L, Node, Threads, FootprintKiB);
  if (!Bar)
    return std::nullopt;
  std::optional<double> Ref = L.tpi(Node, ReferenceUB, {Bar->first}, Threads);
  if (!Ref)
    return std::nullopt;
  return std::max(0.0, (Bar->second - *Ref) * sweepIterations(Bar->first, Threads));
}

std::optional<SyncPoint> syncPoint(SyncKind K, const TpiLookup &L, const std::string &Base,
                                   unsigned Threads, double IntervalUs) {
  if (!(IntervalUs > 0))
    return std::nullopt;
  // (log of mbw1p's sweep time, footprint) of every pair on the base node.
  std::vector<std::pair<double, double>> Sweeps;
  for (const auto &Sweep : unitSweeps(K, L, Base, Threads)) {
    const StreamTuple &S = Sweep.first; // the base's mbw1p twin sets the sweep's time
    std::optional<double> Ref = L.tpi(Base, ReferenceUB, {S}, Threads);
    if (Ref && *Ref > 0)
      Sweeps.emplace_back(std::log(*Ref * sweepIterations(S, Threads)), S.footprintKiB);
  }
  if (Sweeps.empty())
    return std::nullopt;
  std::sort(Sweeps.begin(), Sweeps.end());
  // Beyond 100 us between barriers the difference of two sweeps' times is
  // mostly their noise (1% of a 1 ms sweep is 10 us, a barrier on idle
  // cores costs under 1), while the cost itself stays flat with the work
  // between barriers (36-43 us on a shared core with 2 to 440 us of work on
  // this project's VM, bench/results/barrier-cost-2026-11-23.txt): longer
  // intervals use the longest sweep up to 100 us.
  while (Sweeps.size() > 1 && Sweeps.back().first > std::log(MaxSweepUs))
    Sweeps.pop_back();
  const Bracket B = bracketOf(Sweeps, std::log(IntervalUs));
  return SyncPoint{Sweeps[B.lo].second, Sweeps[B.hi].second, B.weight};
}

namespace {

/// The median of \p UB's times per page of one thread at \p Threads over
/// the thread count: a team's pages are spread over its threads.
std::optional<double> pageCostUs(const TpiLookup &L, const std::string &Node, const char *UB,
                                 unsigned Threads) {
  std::vector<double> Tpi;
  for (const auto &P : L.family(Node, UB, Threads))
    Tpi.push_back(P.second);
  if (Tpi.empty() || Threads == 0)
    return std::nullopt;
  std::sort(Tpi.begin(), Tpi.end());
  return Tpi[(Tpi.size() - 1) / 2] / double(Threads);
}

} // namespace

std::optional<double> faultCostUs(const TpiLookup &L, const std::string &Node, unsigned Threads) {
  return pageCostUs(L, Node, FaultUBench, Threads);
}

std::optional<double> giveBackCostUs(const TpiLookup &L, const std::string &Node,
                                     unsigned Threads) {
  return pageCostUs(L, Node, GiveBackUBench, Threads);
}

std::optional<double> serialFaultCostUs(const TpiLookup &L, const std::string &Node) {
  if (std::optional<double> C = pageCostUs(L, Node, FaultUBench, 1))
    return C;
  // A node is a configuration of a machine: its one-thread configuration
  // faults as the serial code does on this one.
  if (std::string Design = L.cpuDesign(Node); !Design.empty())
    for (const std::string &Other : L.nodes())
      if (Other != Node && L.cpuDesign(Other) == Design)
        if (std::optional<double> C = pageCostUs(L, Other, FaultUBench, 1))
          return C;
  for (unsigned T : L.threadCounts(Node))
    if (std::optional<double> C = pageCostUs(L, Node, FaultUBench, T))
      return *C * T;
  return std::nullopt;
}

const char *syncSweepsName(SyncSweeps S) { return S == SyncSweeps::Short ? "short" : "interval"; }

std::optional<SyncSweeps> parseSyncSweeps(const std::string &S) {
  if (S == "interval")
    return SyncSweeps::Interval;
  if (S == "short")
    return SyncSweeps::Short;
  return std::nullopt;
}

std::optional<double> syncCostShortUs(SyncKind K, const TpiLookup &L, const std::string &Node,
                                      unsigned Threads) {
  // Each pair's cost is (tpi_sync - tpi_mbw1p) x n, n iterations a sweep;
  // its noise is about the sweep's time times the tpi's relative noise, so
  // the weights are 1 / sweep time^2. Negative costs (noise) count as they
  // are, and only the mean is kept from below 0.
  double Sum = 0, Weights = 0;
  for (const auto &[S, Tpi] : unitSweeps(K, L, Node, Threads)) {
    std::optional<double> Ref = L.tpi(Node, ReferenceUB, {S}, Threads);
    if (!Ref || !(*Ref > 0))
      continue;
    double N = sweepIterations(S, Threads), SweepUs = *Ref * N;
    if (!(SweepUs > 0) || SweepUs > MaxSweepUs)
      continue;
    double W = 1 / (SweepUs * SweepUs);
    Sum += W * (Tpi - *Ref) * N;
    Weights += W;
  }
  if (!(Weights > 0))
    return std::nullopt;
  return std::max(0.0, Sum / Weights);
}

std::optional<double> syncCostUs(SyncKind K, const TpiLookup &L, const std::string &Node,
                                 unsigned Threads, const SyncPoint &P) {
  std::optional<double> Lo = syncCostUs(K, L, Node, Threads, P.loKiB);
  if (!Lo)
    return std::nullopt;
  if (P.weight == 0 || P.hiKiB == P.loKiB)
    return Lo;
  std::optional<double> Hi = syncCostUs(K, L, Node, Threads, P.hiKiB);
  if (!Hi)
    return std::nullopt;
  return (1 - P.weight) * *Lo + P.weight * *Hi;
}

} // namespace phaseprobe
