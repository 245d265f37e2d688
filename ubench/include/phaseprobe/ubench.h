//===- phaseprobe/ubench.h - The uB catalogue, grids and runner -*- C++ -*-===//
//
// What phaseprobe-ubench knows: the catalogue of uBs (name → kernel, element
// type, per-stream access and pattern), the parameter grids derived from a
// node's caches (--quick, default, --full, or a user's list), and the runner
// that drives the kernel program (ubench/kernels/ubench_kernels.c) for one
// thread count and turns its answers into Profiles with statistics. Phase
// clones turn the significant streams of a program's phases into uB
// configurations, so a node can be characterized for that program.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "phaseprobe/model.h"
#include "phaseprobe/phase_file.h"

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace phaseprobe {

/// One uB: a kernel of ubench_kernels.c with fixed type, access and pattern.
struct UBenchDef {
  std::string name;    ///< "mbw1c", "mbw2hc", ...
  std::string kernel;  ///< sum sum3 madd add2 copy update store triad cadd cmul cfma cdiv csqrt ctadd ctmul
  std::string type;    ///< double float int
  std::string access;  ///< one letter per stream: c shared, p private
  std::string pattern; ///< one letter per stream: s strided, r random
  std::string ops;     ///< per stream, ';'-separated: load / store / load+store
  std::string summary; ///< one line for `list`
  /// Per operand, ';'-separated, where an operand's element is not the
  /// type's ("8;4;8": gather's int indices); empty: every one is the type's.
  std::string elems = {};
  /// The type's element size.
  unsigned elemBytes() const { return type == "double" ? 8 : 4; }
  /// Operand \p Q's element size.
  unsigned elemBytes(std::size_t Q) const;
  /// Whether operand \p Q is read through another operand's indices drawn
  /// uniformly over a region of any size (spmv3's x), where a random stream
  /// the kernel draws itself has a power of two elements. A strided x
  /// (spmv3p's banded rows) is walked as declared.
  bool gathered(std::size_t Q) const {
    return kernel == "gather" && Q == 2 && Q < pattern.size() && pattern[Q] == 'r';
  }
  unsigned streams() const { return unsigned(access.size()); }
  /// Whether operand \p Q is a shared stream the kernel writes: its
  /// threads split its columns (thread t the t-th share of the offsets
  /// within a stride), so its stride must hold a column per thread.
  bool splitsColumns(std::size_t Q) const;
  bool compute() const { return kernel[0] == 'c' && kernel != "copy"; }
};

/// Every uB, in `list` order.
const std::vector<UBenchDef> &ubenchCatalog();
/// The uB named \p Name, or nullptr.
const UBenchDef *findUBench(const std::string &Name);

/// Whether the kernel walks a random stream whose per-thread region holds
/// \p RegionElems elements (a power of two) as a search (binary searches in
/// blocks of about 30 jumps, ubench_kernels.c) with a mean jump of
/// \p JumpElems elements: over one, and under a third of the region (a
/// uniform draw's mean jump); otherwise it draws uniformly.
bool isSearchJump(double RegionElems, double JumpElems);

/// One configuration to measure: a uB with a requested footprint and stride
/// per stream (in kernel operand order).
struct UBenchConfig {
  const UBenchDef *def = nullptr;
  std::vector<double> footprintKiB, strideBytes;
  /// Padding: steps of 4 multiply-add chains after every iteration's
  /// accesses (memory uBs only; 0 = none). A padded configuration is a uB of
  /// its own, named "<uB>+w<work>", so that the NPPDB keeps it apart from
  /// the unpadded one that walks the same streams.
  long work = 0;
  /// work steps per workEvery iterations (1..MaxWorkEvery), spread evenly:
  /// a finer padding than whole steps per iteration, whose carried chains
  /// cost about a multiply's and an add's latency each (1.1-2 ns on the
  /// development VM). Named "+w<work>/<workEvery>" (1/4: a step after
  /// every 4th iteration; 7/2: three and four steps in turn).
  long workEvery = 1;
  /// Iterations one kernel iteration stands for (memory uBs only; 1 =
  /// itself): a phase clone of streams that only some of the phase's
  /// iterations touch (lud's block update reads the matrix in 1 of its 6
  /// iterations and works on cached copies in the others) walks them once
  /// per EVERY iterations, so its time per iteration is the kernel's
  /// divided by EVERY and its padding spreads over them. Named
  /// "<uB>+e<every>" (before "+w<work>"); the kernel never sees it.
  long every = 1;
  /// Reuse windows (memory uBs, strided streams only): per stream, in
  /// operand order, the accesses of a window that the kernel walks
  /// `repeats` loop executions in a row before the next one (0: none;
  /// empty: no stream has one). A matrix product re-reads a row of A for
  /// every column of B: its clone walks A in windows of one row. Named
  /// "<uB>+r<repeats>" (after "+e", before "+w"); the windows are a third
  /// field of their streams in requested(), "k:s:w".
  std::vector<double> windowAccesses;
  long repeats = 1;
  /// Column span (memory uBs without windows; 0 = none): every strided
  /// stream of a step above one element walks its slice in blocks of
  /// `span` accesses a column, each block column by column before the
  /// next, as a 3-D sweep along a slow axis walks one plane at a time (the
  /// example bt's y sweep: 64 accesses 2560 B apart a plane, in a 10 MiB
  /// stream). Walked over the whole slice, its clone ran 1.5x slower per
  /// access at one thread than at two on the Xeon VM, the sweep not.
  /// Named "<uB>+c<span>" (after "+e", before "+w"). For a gather over a
  /// random x (spmv3) the span is the length of its matrix's rows instead
  /// (rows()): one loop execution a row, summed on its own, as a CSR
  /// product's inner loop runs (NPB CG's SpMV, whose rows' sums overlap:
  /// at two threads 10-14% faster per element than one sum over the slice
  /// on the AMD EPYC VM; bench/results/gather-rows-2026-11-28.txt).
  long span = 0;
  /// Jumping runs (with a span, not a gather's rows): each loop execution
  /// walks one column of a block, `span` accesses, and the next starts at
  /// a random block's random column, as RSBench's lookups each read a
  /// window of poles at a random energy (the runtime's jump_share). Walked
  /// as columns of blocks in order instead, nine executions re-read the
  /// lines of one and the next block comes from the prefetcher: its clone
  /// was 94% padding, and the code ran 1.9x its Zen 4 time on the Zen 3 VM
  /// where the clone ran 1.3x. Named "<uB>+j<span>" in place of "+c".
  bool jumps = false;
  /// Reuse copies (memory uBs; 1 = none): every stream exists
  /// `copies` times and sweep g walks copy g mod copies, so that as much
  /// data passes between two walks of one copy as the program touches
  /// between two executions of the phase it stands for (core's
  /// reuseCopies). Swept again and again over its own 34 MiB, the example
  /// bt's y-sweep clone ran up to 1.16x slower per thread at one thread
  /// than at two on the Xeon VM (at two its slices stay in the cache),
  /// the loop 1.0x; over 4 copies 0.99-1.00x. Named "<uB>+k<copies>"
  /// (after "+c", before "+w").
  long copies = 1;
  /// Whether stream \p Q walks in blocks of `span` accesses a column.
  bool spans(std::size_t Q) const;
  /// Whether `span` is a gather's row length (spmv3+c<row>).
  bool rows() const;
  bool hasWindows() const;
  std::string requested() const; ///< "k:s;k:s" (or "k:s:w") for params and messages
  std::string name() const; ///< "mbw1c", "mbw1c+w24" padded, "mbw1c+e6+r64+w24", "mbw1p+c64+k4+w1/3"
};

/// The most padding a configuration may ask for (the kernel's limit).
constexpr long MaxWork = 1000000;
/// The most iterations one padding may be spread over.
constexpr long MaxWorkEvery = 64;
/// The most iterations one kernel iteration may stand for.
constexpr long MaxEvery = 4096;
/// The most walks of one reuse window in a row.
constexpr long MaxRepeats = 4096;
/// The most accesses of a column span.
constexpr long MaxSpan = 1000000000;
/// The most reuse copies (the kernel's limit).
constexpr long MaxCopies = 64;

enum class GridLevel { Quick, Default, Full };

/// How long each configuration is measured.
struct RepPolicy {
  int minReps = 5, maxReps = 30;
  double cvPct = 2.0;     ///< stop once the CV of the repetition time is below
  double capS = 1.0;      ///< ... or once this much time went into repetitions
  double minRepS = 0.002; ///< calibrate sweeps per repetition to last this long
};

RepPolicy repPolicy(GridLevel L);

/// The grid for \p Level on a node with these caches (KiB; L3 0 = none):
/// footprints from inside L1 to beyond the last-level cache, strides from
/// the element size to tens of KB, every configuration valid for the kernel
/// (a strided stream spans at least 4 strides per thread at \p MaxThreads).
std::vector<UBenchConfig> makeGrid(GridLevel Level, double L1dKiB, double L2KiB, double L3KiB,
                                   unsigned MaxThreads, const std::vector<const UBenchDef *> &Only);

/// Reads a user's parameter list: one configuration a line,
/// `UBENCH K:S[;K:S...]` (footprint KiB : stride bytes per stream, in the
/// uB's operand order; UBENCH may be `<uB>+e<E>` (one kernel iteration per
/// E iterations), `+r<R>` (reuse windows walked R times in a row: the
/// streams that have one say `K:S:W`, W accesses), `+c<B>` (column span:
/// strided streams of a step above one element walk blocks of B accesses
/// a column; not with +r; `+j<B>` in its place: runs of B accesses, each
/// from a random block) and `+w<N>` (padded with N steps; `+wN/M`: after
/// every M-th iteration), in that order),
/// '#' comments. Throws InputError(File, "line N", ...).
std::vector<UBenchConfig> parseParamsFile(const std::string &Text, const std::string &File);

/// A phase file as phase clones read it: the validated model and its
/// file's name.
struct ClonePhases {
  std::string file;
  PhaseFile phases;
};

/// Parses a phase file for cloning (parsePhaseFile's rules, plus "pattern":
/// "strided" or "random" when present). Throws InputError.
ClonePhases parseClonePhases(const std::string &Text, const std::string &File);

/// A phase's own clone: the configuration that walks all its significant
/// streams (1 to 3), with what the phase did per iteration on its node.
struct CloneTarget {
  std::string where;   ///< "FILE: PHASE"
  std::string program; ///< the program's name and arguments: runs of one program meet
  std::string phase;   ///< the phase's id
  unsigned threads = 1;
  double tpiUs = 0; ///< the phase's
  UBenchConfig config;
};

/// The uB configurations that reproduce the significant streams of the leaf
/// phases, and one note per stream or phase that has none.
struct CloneSet {
  std::vector<UBenchConfig> configs; ///< deduplicated, in catalogue order
  std::vector<std::string> notes;    ///< "FILE: PHASE v2: why", deduplicated
  /// Per phase whose significant streams one uB walks together: that
  /// configuration (the first such uB in catalogue order), for calibrateWork.
  std::vector<CloneTarget> targets;
};

/// Phase clones (ubench/README.md, "Phase clones"): per significant stream
/// the one-stream uBs whose declared stream has its access, element size,
/// pattern and (where the catalogue offers the choice) load/store; per phase
/// with 2-3 significant streams, ordered by footprint as the matcher pairs
/// them, the multi-stream uBs whose declared streams match them. Footprints
/// and strides are rounded to what the kernels walk at the phase's thread
/// count. Significance: the stream's flag, else footprint > \p L1dKiB when
/// > 0, else the phase file's node L1d, else every stream counts. Runs of
/// one program made without sampling beside sampled ones stand for it with
/// the sampled runs' streams (timedRuns): their times per iteration are the
/// targets, as the estimator's times are theirs.
CloneSet clonePhases(const std::vector<ClonePhases> &Files, double L1dKiB = 0);

/// One `--params` line: "UBENCH K:S[;K:S...]".
std::string paramsLine(const UBenchConfig &C);

class KernelRunner;

/// What calibrateWork found: the padding, or why there is none.
struct Calibration {
  long work = 0;          ///< 0: no padding (see why)
  long workEvery = 1;     ///< UBenchConfig::workEvery
  double tpiUs = 0;       ///< the padded clone's, as last measured
  double unpaddedUs = 0;  ///< the clone's without padding
  int measurements = 0;
  std::string why;        ///< empty when padded
};

/// Measures \p C as configured: "" and its time per iteration in \p TpiUs,
/// or the kernel's reason for refusing it.
using TpiMeasure = std::function<std::string(const UBenchConfig &C, double &TpiUs)>;

/// Pads \p C (see UBenchConfig::work) until its time per iteration, measured
/// by \p Measure, is within \p TolPct of \p TargetUs: the phase clone then
/// does what its phase does between accesses, not only its accesses, and
/// matches it on the tpi as well as the streams (METHOD.md's index). Run
/// where the phase was measured, at its thread count; every other node then
/// runs the same padding. No padding when the unpadded clone is already
/// within 25% of the target or slower. First a rate slower than the target
/// (16 steps, then past the secant from the unpadded time), then regula
/// falsi between the rates that bracket the target in fractional rates
/// (paddingFraction) while the best is off by more than \p TolPct: at most
/// 10 measurements, the unpadded one included. A search whose best is off by
/// more than 25% runs once more (one outlier can close the bracket on the
/// wrong side): at most 20 measurements in all.
Calibration calibrateWork(const TpiMeasure &Measure, UBenchConfig C, double TargetUs,
                          double TolPct = 5);
/// The same measured by \p R with \p Pol. Throws WorkError when the kernel
/// program dies.
Calibration calibrateWork(KernelRunner &R, UBenchConfig C, double TargetUs, const RepPolicy &Pol,
                          double TolPct = 5);

/// The padding rate work/workEvery (steps per iteration) nearest \p Rate,
/// workEvery at most \p MaxEvery and work at least 1: the smallest
/// workEvery within 1% of \p Rate, else the nearest of all.
std::pair<long, long> paddingFraction(double Rate, long MaxEvery = MaxWorkEvery);

/// The statistics of repetition times (seconds) and, divided by the
/// iterations, of the time per iteration (µs).
void computeStats(const std::vector<double> &Times, double Iterations, Stats &Time, Stats &Tpi);

/// One running kernel program: a fixed thread count and placement.
class KernelRunner {
public:
  /// Starts \p Program with OMP_NUM_THREADS=Threads, OMP_PROC_BIND=Bind,
  /// OMP_PLACES=Places and OMP_WAIT_POLICY=Wait (empty: leave the variable
  /// as it is). The wait policy belongs to the node configuration: a
  /// barrier on two cores costs 0.25 us spinning and 38 us sleeping on
  /// the AMD EPYC VM, on one shared core 38 us and 16 us
  /// (bench/results/wait-policy-2026-11-27-epyc.txt). Throws WorkError
  /// when it cannot start.
  KernelRunner(const std::string &Program, unsigned Threads, const std::string &Bind,
               const std::string &Places, const std::string &Wait = "");
  ~KernelRunner();

  /// Measures \p C. On success fills P (ubench, threads, streams sorted by
  /// footprint descending, params, times, stats) and returns "". On a
  /// configuration the kernel rejects returns its message. Throws WorkError
  /// when the program dies.
  std::string measure(const UBenchConfig &C, const RepPolicy &Pol, Profile &P);

  unsigned threads() const { return Threads; }
  /// Whether two of the threads may run on one CPU although there are CPUs
  /// enough for all (their affinity masks overlap: a place holds several
  /// CPUs). The scheduler then decides whether they share one, and a short
  /// repetition often finds them on one (run hk: OMP_PLACES=cores was one
  /// place {0,1} for libomp on a VM whose sysfs shows two cores).
  bool floating() const { return Floating; }

private:
  bool Floating = false;
  unsigned Threads;
  std::string Bind, Places, Wait;
  int Pid = -1, ToChild = -1;
  FILE *FromChild = nullptr;
  long NextId = 1;
};

} // namespace phaseprobe
