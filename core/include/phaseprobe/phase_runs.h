//===- phaseprobe/phase_runs.h - Several base runs, one characterization -*- C++ -*-===//
//
// On a shared or noisy machine one run of a program can be 10-50% off its
// typical time (measured on this project's VM), and an estimate built on one
// instrumented run carries that error onto every node. Users of tools like
// LIKWID or Score-P repeat runs and take the median; this does the same for
// phase files: several runs of the same program (same name, arguments and
// thread count, on the same node) become one characterization whose times
// are per-phase medians.
//
//===----------------------------------------------------------------------===//
#pragma once
#include "phaseprobe/model.h"
#include <string>
#include <vector>

namespace phaseprobe {

/// Merges \p Runs (parsed from \p Paths, same order; at least one) into one
/// phase file: program.total_time_s, and per phase time_s, iterations,
/// invocations, barriers and spin waits, are medians over the runs that have the phase
/// (the mean of the middle two for an even count); tpi_us and weight are
/// recomputed from the medians; streams, kind and parent are those of the
/// run whose time for that phase is the (lower) median. A phase missing
/// from some runs keeps the runs it has. One run comes back unchanged.
/// Throws InputError(Paths[i], "program", ...) when run i is not a run of
/// the same program as the first (name, argv or threads differ) or was
/// measured on another node label.
///
/// Runs made with PHASEPROBE_SAMPLING=off (`program.sampling` false) next to
/// sampled ones: the times and counts are medians over the unsampled runs
/// only (sampling slows the sampled invocations down), the streams, kind
/// and parent come from the sampled runs (the unsampled have none); the
/// result says `sampling` true.
PhaseFile mergePhaseRuns(const std::vector<PhaseFile> &Runs,
                         const std::vector<std::string> &Paths);

/// Whether \p Run is another run of \p First's program, as mergePhaseRuns
/// and timedRuns require: same name, arguments and thread count, and no
/// other node label.
bool sameProgram(const PhaseFile &First, const PhaseFile &Run);

/// The runs whose times count, each alone: with unsampled runs next to
/// sampled ones, every unsampled run with the sampled runs' streams (what
/// mergePhaseRuns makes of it and them); otherwise \p Runs as they are.
std::vector<PhaseFile> timedRuns(const std::vector<PhaseFile> &Runs,
                                 const std::vector<std::string> &Paths);

/// A leaf phase's time over several runs.
struct PhaseRunRange {
  std::string id;
  double minS = 0, maxS = 0;
};

/// How far several runs' program times are apart: what every estimate built
/// on their medians inherits, shown to the user instead of hidden in them.
struct RunSpread {
  std::vector<double> totalS; ///< program.total_time_s of each run, in input order
  double minS = 0, medianS = 0, maxS = 0;
  double spreadPct = 0; ///< (max - min) / median x 100; 0 for one run
  /// Where the spread sits: the leaf phases whose times differ most between
  /// the runs (max - min, largest first; at most three, each at least a
  /// tenth of the program's max - min). A noisy node seldom slows every
  /// loop alike: on this project's VM a neighbour made NPB BT W's two
  /// page-per-iteration column walks 5x slower and left the rest within
  /// 10% (bench/results/bt-w-slow-spells-2026-11-24.txt), which tells the
  /// user which phases' estimates to trust least.
  std::vector<PhaseRunRange> phases;
};

/// The spread of \p Runs' program times (at least one run).
RunSpread runSpread(const std::vector<PhaseFile> &Runs);

} // namespace phaseprobe
