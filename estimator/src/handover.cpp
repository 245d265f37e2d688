//===- handover.cpp - What a line another thread wrote last costs ---------===//
//
// The hand-over term of the estimate (estimator.h, HandOverRule): the
// runtime's handover_share per stream, and the ho1p / hk1p pair of uBs,
// whose sweeps differ only in which thread wrote a line last.
//
//===----------------------------------------------------------------------===//
#include "bracket.h"
#include "phaseprobe/estimator.h"

#include <algorithm>
#include <cmath>

namespace phaseprobe {

namespace {
constexpr double LineBytes = 64;
} // namespace

const char *handOverRuleName(HandOverRule R) {
  return R == HandOverRule::Priced ? "priced" : "kept";
}

std::optional<HandOverRule> parseHandOverRule(const std::string &S) {
  if (S == "priced")
    return HandOverRule::Priced;
  if (S == "kept")
    return HandOverRule::Kept;
  return std::nullopt;
}

double invocationReachBytes(const Phase &P, const PhaseStream &S) {
  double Footprint = S.tuple.footprintKiB * 1024;
  if (!S.accessesPerIter || !(*S.accessesPerIter > 0) || P.invocations == 0 || !(P.iterations > 0))
    return Footprint;
  // The footprint pools what the invocations visit again (a sweep of
  // planes, one or two an invocation, is the whole array), so it can be
  // many times what one invocation reaches: BT W's x_backsubstitute visits
  // 2 planes of its 582 KiB rhs an invocation, 23 a time step. An access
  // moves on by its stride, a line at most; repeats of an element count
  // again, so this stays a bound from above.
  double Step = std::min(std::max(S.tuple.strideBytes, double(S.tuple.elemBytes)), LineBytes);
  double Accesses =
      P.iterations / double(P.invocations) * *S.accessesPerIter * double(std::max(1u, P.threads));
  return std::min(Footprint, Accesses * Step);
}

double handedLines(const Phase &P) {
  double N = 0;
  for (const PhaseStream &S : P.streams) {
    if (!S.handoverShare)
      continue;
    const double Reach = invocationReachBytes(P, S), Footprint = S.tuple.footprintKiB * 1024;
    const double Walks = double(P.invocations) * Reach; // bytes the invocations reach
    if (S.handoverRounds && Footprint > 0)
      // Once a round at most, and no more often than the invocations walk
      // the footprint: a line is handed over at its first touch after the
      // writer's (NPB SP W's lhsx: 1,159 invocations a time step, each a
      // row of lines it keeps for the next seven).
      N +=
          *S.handoverShare * Footprint / LineBytes * std::min(*S.handoverRounds, Walks / Footprint);
    else
      N += *S.handoverShare * Walks / LineBytes;
  }
  return N;
}

double handOverFootprintKiB(const Phase &P) {
  double K = 0;
  for (const PhaseStream &S : P.streams)
    if (S.handoverShare && *S.handoverShare > 0)
      K += S.tuple.footprintKiB;
  return K;
}

std::optional<double> handOverCostUs(const TpiLookup &L, const std::string &Node,
                                     unsigned Threads, double FootprintKiB) {
  if (Threads <= 1)
    return 0.0;
  // (log footprint, cost of a line) of every footprint the pair has.
  std::vector<std::pair<double, double>> Costs;
  for (const auto &P : L.family(Node, HandOverUBench, Threads)) {
    if (P.first.strideBytes != P.first.elemBytes || !(P.first.footprintKiB > 0))
      continue;
    std::optional<double> Keep = L.tpi(Node, HandKeepUBench, {P.first}, Threads);
    if (!Keep)
      continue;
    // An iteration is an element of a thread's share; every line of it was
    // another thread's.
    Costs.emplace_back(std::log(P.first.footprintKiB),
                       std::max(0.0, P.second - *Keep) * LineBytes / P.first.elemBytes);
  }
  if (Costs.empty())
    return std::nullopt;
  std::sort(Costs.begin(), Costs.end());
  // Between two footprints, in log: the cost falls steeply where the
  // writer's share outgrows its core's caches (on the Xeon VM 1.95 ns a
  // line at 4 MiB, 0.02 at 16 MiB), and the nearest of two would price an
  // 8 MiB array's lines at either.
  const Bracket B = bracketOf(Costs, std::log(std::max(FootprintKiB, 1.0)));
  return (1 - B.weight) * Costs[B.lo].second + B.weight * Costs[B.hi].second;
}

} // namespace phaseprobe
