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
//===----------------------------------------------------------------------===//
#include "phaseprobe/error.h"
#include "phaseprobe/ubench.h"

#include <algorithm>
#include <cmath>

namespace phaseprobe {

Calibration calibrateWork(KernelRunner &R, UBenchConfig C, double TargetUs, const RepPolicy &Pol,
                          double TolPct) {
  Calibration Cal;
  auto Measure = [&](long Work, double &Tpi, long Every = 1) -> bool {
    C.work = Work;
    C.workEvery = Every;
    Profile P;
    std::string Err = R.measure(C, Pol, P);
    ++Cal.measurements;
    if (!Err.empty()) {
      Cal.why = "the kernel refused " + C.name() + " " + C.requested() + ": " + Err;
      return false;
    }
    Tpi = P.tpiUs;
    return true;
  };
  double T0 = 0;
  if (!(TargetUs > 0) || !Measure(0, T0)) {
    if (Cal.why.empty())
      Cal.why = "the phase has no time per iteration";
    return Cal;
  }
  Cal.unpaddedUs = T0;
  if (TargetUs <= T0 * 1.25) {
    Cal.why = "the unpadded clone is within 25% of the phase or slower";
    return Cal;
  }
  // Secant steps from the unpadded time: the padding costs about the same
  // per step whatever the count, so two or three measurements usually do.
  long Work = 16, BestWork = 0, BestEvery = 1;
  double BestTpi = T0, BestErr = HUGE_VAL, OneStep = 0;
  for (int Step = 0; Step < 5; ++Step) {
    double T = 0;
    if (!Measure(Work, T))
      return Cal;
    double Err = std::fabs(T - TargetUs) / TargetUs * 100;
    if (Err < BestErr)
      BestErr = Err, BestWork = Work, BestTpi = T;
    if (Work == 1)
      OneStep = T;
    if (Err <= TolPct)
      break;
    double PerStep = (T - T0) / double(Work);
    long Next = PerStep > 0 ? std::lround((TargetUs - T0) / PerStep) : Work * 16;
    Next = std::clamp<long>(Next, 1, MaxWork);
    if (Next == Work)
      break;
    Work = Next;
  }
  // One step per iteration overshoots: spread it over M iterations, M from
  // the step's cost (a step overlaps more of the accesses when it is rarer,
  // so a second M from the first measurement). The kernel spreads padding
  // over strided streams only.
  bool Strided = C.def->pattern.find('r') == std::string::npos;
  for (int Step = 0; Step < 2 && Strided && BestErr > TolPct && OneStep > TargetUs &&
                     TargetUs > T0 && (BestEvery > 1 || BestWork == 1);
       ++Step) {
    double Gain = Step == 0 ? OneStep - T0 : (BestTpi - T0) * double(BestEvery);
    long M = std::clamp<long>(std::lround(Gain / (TargetUs - T0)), 2, MaxWorkEvery);
    if (M == BestEvery)
      break;
    double T = 0;
    if (!Measure(1, T, M)) { // keep the whole steps' best
      Cal.why.clear();
      break;
    }
    double Err = std::fabs(T - TargetUs) / TargetUs * 100;
    if (Err >= BestErr)
      break;
    BestErr = Err, BestWork = 1, BestEvery = M, BestTpi = T;
  }
  if (BestErr > 25) {
    Cal.why = "no padding came within 25% of the phase's time per iteration (best " + C.def->name +
              "+w" + std::to_string(BestWork) +
              (BestEvery > 1 ? "/" + std::to_string(BestEvery) : "") + ")";
    return Cal;
  }
  Cal.work = BestWork;
  Cal.workEvery = BestEvery;
  Cal.tpiUs = BestTpi;
  return Cal;
}

} // namespace phaseprobe
