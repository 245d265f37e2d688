//===- calibrate.cpp - Pad a phase clone to its phase's time per iteration --===//
//
// A phase clone walks the phase's streams and nothing else; a phase that
// computes between its accesses (NPB BT's 5x5 blocks, nbody's forces) takes
// several times longer per iteration, so METHOD.md's tpi test discards its
// own clone and the phase stays unmatched. Padding the clone with arithmetic
// until it takes the phase's time on the base node gives a uB that does
// what the phase does: the same streams and the same mix of memory and
// arithmetic, which every other node then runs as it is.
//
// The time is not linear in the padding: the first steps hide behind the
// accesses (a random search's misses, a stream's bandwidth) and a rarer
// step hides more (ubench/README.md). A bracket of rates, then regula
// falsi inside it in fractional rates, which whole steps cannot reach: a
// step costs
// 1.1-2 ns on the development VM, and a quarter of the padded clones of
// runs bg-bm stayed 10-25% off their phase with whole steps only.
//
//===----------------------------------------------------------------------===//
#include "phaseprobe/error.h"
#include "phaseprobe/ubench.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace phaseprobe {

namespace {
/// Every kernel measurement of one calibration, the unpadded one included.
constexpr int MaxMeasurements = 10;
} // namespace

std::pair<long, long> paddingFraction(double Rate, long MaxEvery) {
  std::pair<long, long> Best{1, 1};
  double BestErr = HUGE_VAL;
  for (long M = 1; M <= std::max(1L, MaxEvery); ++M) {
    long N = std::max(1L, std::lround(Rate * double(M)));
    double Err = std::fabs(double(N) / double(M) - Rate) / Rate;
    if (Err < BestErr - 1e-12)
      BestErr = Err, Best = {N, M};
    if (BestErr <= 0.01)
      break;
  }
  return Best;
}

Calibration calibrateWork(const TpiMeasure &MeasureTpi, UBenchConfig C, double TargetUs,
                          double TolPct) {
  Calibration Cal;
  struct Point {
    long work, every;
    double tpi;
    double rate() const { return double(work) / double(every); }
  };
  std::vector<Point> Points;
  auto Measure = [&](long Work, double &Tpi, long Every = 1) -> bool {
    C.work = Work;
    C.workEvery = Every;
    std::string Err = MeasureTpi(C, Tpi);
    ++Cal.measurements;
    if (!Err.empty()) {
      Cal.why = "the kernel refused " + C.name() + " " + C.requested() + ": " + Err;
      return false;
    }
    Points.push_back({Work, Every, Tpi});
    return true;
  };
  long BestWork = 0, BestEvery = 1;
  double BestTpi = 0, BestErr = HUGE_VAL;
  auto Keep = [&](long Work, long Every, double T) {
    double Err = std::fabs(T - TargetUs) / TargetUs * 100;
    if (Err < BestErr)
      BestErr = Err, BestWork = Work, BestEvery = Every, BestTpi = T;
  };
  // A search trusts each measurement: on a busy machine one outlier (a
  // rate measured slower than a target it falls 30% short of) closes the
  // bracket on the wrong side and nothing comes within 25%. Such a search
  // runs once more from the unpadded time, with measurements of its own;
  // the best of both is kept.
  for (int Search = 0; Search < 2 && BestErr > 25; ++Search) {
    Points.clear();
    const int Limit = Cal.measurements + MaxMeasurements;
    double T0 = 0;
    if (!(TargetUs > 0) || !Measure(0, T0)) {
      if (Cal.why.empty())
        Cal.why = "the phase has no time per iteration";
      return Cal;
    }
    if (Search == 0)
      Cal.unpaddedUs = T0;
    if (TargetUs <= T0 * 1.25) {
      Cal.why = "the unpadded clone is within 25% of the phase or slower";
      return Cal;
    }
    // A rate above the target: 16 steps, then past the secant from the
    // unpadded time (the first steps may cost nothing) until one is slower.
    Point Lo{0, 1, T0};
    std::optional<Point> Hi;
    for (long Work = 16;;) {
      double T = 0;
      if (!Measure(Work, T))
        return Cal;
      Keep(Work, 1, T);
      if (T >= TargetUs) {
        Hi = Points.back();
        break;
      }
      Lo = Points.back();
      if (Work == MaxWork || Cal.measurements >= Limit - 1)
        break;
      double PerStep = (T - T0) / double(Work);
      long Next = PerStep > 0 ? std::lround((TargetUs - T0) / PerStep * 1.25) : Work * 16;
      Work = std::clamp<long>(Next, Work * 2, MaxWork);
    }
    // Regula falsi between the rates that bracket the target, in fractional
    // rates (Illinois: an end kept twice in a row counts half, so that a
    // curved cost still closes the bracket from both sides); the midpoint
    // where the nearest fraction falls on an end or was measured.
    double FLo = Lo.tpi - TargetUs, FHi = Hi ? Hi->tpi - TargetUs : 0;
    int Moved = 0; // -1: Lo moved last, +1: Hi
    auto Inside = [&](std::pair<long, long> F) {
      double R = double(F.first) / double(F.second);
      bool Seen = std::any_of(Points.begin(), Points.end(), [&](const Point &P) {
        return P.work * F.second == F.first * P.every;
      });
      return R > Lo.rate() && R < Hi->rate() && !Seen;
    };
    bool Refused = false;
    while (Hi && BestErr > TolPct && Cal.measurements < Limit) {
      double Rate = (Lo.rate() * FHi - Hi->rate() * FLo) / (FHi - FLo);
      // Fractions of a step only once the bracket is that narrow.
      long MaxEvery = Hi->rate() - Lo.rate() > 2 ? 1 : MaxWorkEvery;
      std::pair<long, long> F = paddingFraction(Rate, MaxEvery);
      if (!Inside(F))
        F = paddingFraction((Lo.rate() + Hi->rate()) / 2, MaxEvery);
      if (!Inside(F))
        break; // no untried fraction with M <= MaxWorkEvery lies between
      double T = 0;
      if (!Measure(F.first, T, F.second)) { // keep the best measured so far
        Cal.why.clear();
        Refused = true;
        break;
      }
      Keep(F.first, F.second, T);
      if (T < TargetUs) {
        Lo = Points.back(), FLo = T - TargetUs;
        if (Moved < 0)
          FHi /= 2;
        Moved = -1;
      } else {
        Hi = Points.back(), FHi = T - TargetUs;
        if (Moved > 0)
          FLo /= 2;
        Moved = 1;
      }
    }
    if (Refused)
      break; // a second search would meet the same refusal
  }
  if (BestErr > 25) {
    C.work = BestWork;
    C.workEvery = BestEvery;
    Cal.why = "no padding came within 25% of the phase's time per iteration (best " + C.name() + ")";
    return Cal;
  }
  Cal.work = BestWork;
  Cal.workEvery = BestEvery;
  Cal.tpiUs = BestTpi;
  return Cal;
}

Calibration calibrateWork(KernelRunner &R, UBenchConfig C, double TargetUs, const RepPolicy &Pol,
                          double TolPct) {
  return calibrateWork(
      [&](const UBenchConfig &Cfg, double &Tpi) {
        Profile P;
        std::string Err = R.measure(Cfg, Pol, P);
        Tpi = P.tpiUs;
        return Err;
      },
      std::move(C), TargetUs, TolPct);
}

} // namespace phaseprobe
