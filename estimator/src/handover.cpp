//===- handover.cpp - What a line another thread wrote last costs ---------===//
//
// The hand-over term of the estimate (estimator.h, HandOverRule): the
// runtime's handover_share per stream, and the ho1p / hk1p pair of uBs,
// whose sweeps differ only in which thread wrote a line last.
//
//===----------------------------------------------------------------------===//
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

double handedLines(const Phase &P) {
  double N = 0;
  for (const PhaseStream &S : P.streams)
    if (S.handoverShare)
      N += *S.handoverShare * S.tuple.footprintKiB * 1024 / LineBytes;
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
  std::optional<std::pair<StreamTuple, double>> Best;
  double BestD = 0;
  for (const auto &P : L.family(Node, HandOverUBench, Threads)) {
    if (P.first.strideBytes != P.first.elemBytes || !(P.first.footprintKiB > 0))
      continue;
    double D = std::fabs(std::log(P.first.footprintKiB / std::max(FootprintKiB, 1.0)));
    if (!Best || D < BestD)
      Best = P, BestD = D;
  }
  if (!Best)
    return std::nullopt;
  std::optional<double> Keep = L.tpi(Node, HandKeepUBench, {Best->first}, Threads);
  if (!Keep)
    return std::nullopt;
  // An iteration is an element of a thread's share; every line of it was
  // another thread's.
  return std::max(0.0, Best->second - *Keep) * LineBytes / Best->first.elemBytes;
}

} // namespace phaseprobe
