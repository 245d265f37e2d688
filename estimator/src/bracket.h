//===- bracket.h - Where a value falls among sorted points ----------------===//
//
// Internal to the estimator: the synchronization term picks the sweeps
// around a region's interval (sync.cpp) and the hand-over term the
// footprints around a phase's (handover.cpp), both in log.
//
//===----------------------------------------------------------------------===//
#ifndef PHASEPROBE_ESTIMATOR_BRACKET_H
#define PHASEPROBE_ESTIMATOR_BRACKET_H

#include <cstddef>
#include <utility>
#include <vector>

namespace phaseprobe {

/// The points of \p Points (sorted by key, not empty) around \p X: indices
/// of the lower and upper neighbour and the upper one's weight in a linear
/// interpolation by key; outside the keys, the nearest end twice, weight 0.
struct Bracket {
  std::size_t lo, hi;
  double weight;
};

inline Bracket bracketOf(const std::vector<std::pair<double, double>> &Points, double X) {
  const std::size_t Last = Points.size() - 1;
  if (X <= Points.front().first)
    return {0, 0, 0};
  if (X >= Points.back().first)
    return {Last, Last, 0};
  std::size_t I = 1;
  while (Points[I].first < X)
    ++I;
  const auto &Lo = Points[I - 1], &Hi = Points[I];
  return {I - 1, I, Hi.first > Lo.first ? (X - Lo.first) / (Hi.first - Lo.first) : 0};
}

} // namespace phaseprobe

#endif
