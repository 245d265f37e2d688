//===- phaseprobe/model.h - The data phaseprobe reasons about ---*- C++ -*-===//
//
// The phase and profile model shared by every tool: what a phase file holds
// (METHOD.md, stage 2), what a uB profile holds (stage 1), and the stream tuple
// both are compared by (stage 3). Plain structs, no I/O: readers and writers
// live in their own headers so no format is parsed in two places.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace phaseprobe {

/// Whether the threads of a team touch the same memory (shared, "C" in the
/// original study) or disjoint pieces of it (private, "P").
enum class Access { Shared, Private };

const char *accessName(Access A);                  ///< "shared" / "private"
std::optional<Access> parseAccess(const std::string &S);

/// The quantities a stream is matched by (METHOD.md, "Stage 2").
struct StreamTuple {
  double footprintKiB = 0; ///< span touched in one invocation, all threads
  double strideBytes = 0;  ///< dominant local stride
  unsigned elemBytes = 0;  ///< bytes per access
  Access access = Access::Shared;

  bool operator==(const StreamTuple &O) const {
    return footprintKiB == O.footprintKiB && strideBytes == O.strideBytes &&
           elemBytes == O.elemBytes && access == O.access;
  }
};

/// One stream of a phase as the runtime (or a user) wrote it.
struct PhaseStream {
  std::string id; ///< "v1", "v2", ... unique within the phase
  StreamTuple tuple;
  std::string op;                 ///< "load", "store", "load+store"; may be empty
  std::optional<bool> significant; ///< absent: derive from the node's L1d
  std::vector<std::string> sites; ///< "file:line:col" of the merged sites
  std::uint64_t samples = 0;
  /// Elements of the stream one iteration touches on average (the
  /// runtime's "accesses_per_iteration"; absent in hand-written files and
  /// older runtimes'). Below 1 when the phase's iterations mostly run loops
  /// that do not touch it: phase clones take it into account.
  std::optional<double> accessesPerIter;
  /// Accesses of one loop execution of the stream's sites, on average over
  /// the sampled executions (the runtime's "accesses_per_execution"; absent
  /// in hand-written files and older runtimes'). Times the stride, the span
  /// one execution walks: the example bt's y sweep (bt_solve.c:48) walks a
  /// 10 MiB stream plane by plane, 63 accesses 2560 B apart an execution.
  std::optional<double> accessesPerExec;
  /// Reuse (the runtime's "window_accesses" and "window_repeats", written
  /// together): one loop execution of the stream's sites walks a window of
  /// that many accesses, and that many consecutive executions walk the same
  /// window (a matrix product's row of A, once per column of B). Absent:
  /// no reuse seen, or not measured. Phase clones walk such windows.
  std::optional<double> windowAccesses, windowRepeats;
  /// Of the pairs of consecutive sampled loop executions of the stream's
  /// sites, the share whose second starts where no walk of the few before
  /// it at its pace would (the runtime's "jump_share", 0 to 1):
  /// near 1, each execution starts at a random place (RSBench's lookups,
  /// each a window of poles at a random energy), near 0 the executions
  /// walk on (rows, the columns of a plane). Absent: not measured (random
  /// streams, few pairs, older runtimes).
  std::optional<double> jumpShare;
  /// Of the stream's accesses to data another phase wrote, the share that
  /// finds it last written by another thread (the runtime's
  /// "handover_share", 0 to 1): each such line waits for a cache-to-cache
  /// hand-over, which the estimator prices with ho1p. Absent: not known
  /// (no phase wrote the stream's data, too few pages, hand-written files).
  std::optional<double> handoverShare;
  /// How many times the data's writers wrote it over the run (the
  /// runtime's "handover_rounds"; absent in older files): a line is handed
  /// over at most once a round, at the first touch after the writer's, so
  /// the share counts a round's touches, not every invocation's.
  std::optional<double> handoverRounds;
  /// The runtime's "pattern": "random" (no dominant stride; stride_bytes is
  /// the mean jump), else strided.
  bool random = false;
};

/// The column span a phase clone walks for \p S (ubench/README.md, "Column
/// spans"): the accesses of one loop execution, where the stream is strided
/// with a step above one element, walks no reuse window again and again, and
/// an execution walks at least 4 accesses and at most an eighth of the
/// slice a thread walks at \p Threads (a plane of a 3-D array, not a line
/// through all of it); 0: none (the clone walks columns over its whole
/// slice).
long columnSpan(const PhaseStream &S, unsigned Threads);

/// The one column span of a clone of \p Streams (a uB configuration has
/// one): every strided stream of a step above one element must ask for the
/// same (one loop's streams), else 0. Where none has such a step and the
/// streams are a gathered product's (one shared random stream beside
/// private ones at element stride whose loop executions each walk the
/// same 4 or more accesses, at most an eighth of a thread's slice), the
/// length of those executions: a CSR product's rows, each summed on its
/// own, which spmv3+c<row> walks (NPB CG's SpMV: rows of 135). Else 0.
/// \p Jumps (where given) says whether the span is walked in jumping runs:
/// every strided stream that takes it starts its executions at random
/// places (startsJump), and a clone then walks one column of a block, the
/// span's accesses, and jumps to a random block (UBenchConfig::jumps,
/// "+j<N>"); the span is 0 where those streams disagree. A gathered
/// product's rows walk in order.
long columnSpan(const std::vector<const PhaseStream *> &Streams, unsigned Threads,
                bool *Jumps = nullptr);

/// The column span of a uB profile from its name's "+c<N>" or "+j<N>"
/// suffix (0: none).
long columnSpanOf(std::string_view UBenchName);

/// Whether \p S's loop executions start at random places: most pairs of
/// its sampled executions jumped (jump_share above 3/4).
bool startsJump(const PhaseStream &S);

/// Whether a uB profile walks its span in jumping runs ("+j<N>").
bool spanJumpsOf(std::string_view UBenchName);

/// The uB that measures a worksharing loop's invocation: mbw1p with every
/// sweep an `omp for nowait` of its own (one iteration a thread).
inline constexpr const char *InvocationUBench = "inv1p";

/// uBs that measure synchronization rather than a stream (bar1p: a barrier
/// after every sweep; spin1p: a spin-wait handoff after every sweep; inv1p:
/// an invocation of a worksharing loop every sweep). Their stream tuples
/// equal another uB's, so they are never a phase's match nor a phase clone;
/// the estimator prices a region's barriers and spin waits, and its
/// worksharing loops' invocations, with them.
inline bool isSyncUBench(std::string_view Name) {
  return Name == "bar1p" || Name == "spin1p" || Name == InvocationUBench;
}

/// The uB that measures a first-touch page fault (a store to every page of
/// a slice the kernel has just given back to the system); the estimator
/// prices a region's page faults with it.
inline constexpr const char *FaultUBench = "pf1p";
inline bool isFaultUBench(std::string_view Name) { return Name == FaultUBench; }

/// The uB that measures giving a page back to the system (the master's
/// madvise of a stream the team has just stored to every page of): the
/// estimator prices the give-backs of the pages a program's regions fault
/// on with it, dearer where the team ran on several CPUs.
inline constexpr const char *GiveBackUBench = "gb1p";
inline bool isGiveBackUBench(std::string_view Name) { return Name == GiveBackUBench; }

/// The uBs that measure a cache line's hand-over between threads: ho1p
/// updates a stream dealt out to the threads in 64 KiB blocks, each block to
/// the next thread in the next sweep, so that every line was last written
/// by another thread; hk1p does the same sweeps with each block to the same
/// thread every time. Their difference prices a stream's handover_share.
inline constexpr const char *HandOverUBench = "ho1p";
inline constexpr const char *HandKeepUBench = "hk1p";
inline bool isHandOverUBench(std::string_view Name) {
  return Name == HandOverUBench || Name == HandKeepUBench;
}

/// uBs that price something apart from the phases' work (synchronization,
/// page faults and give-backs, hand-overs): never a phase's match nor a
/// phase clone, and they take no padding, pace or reuse windows.
inline bool isPricingUBench(std::string_view Name) {
  return isSyncUBench(Name) || isFaultUBench(Name) || isGiveBackUBench(Name) ||
         isHandOverUBench(Name);
}

/// The test a branch on the thread count follows, where the plugin could
/// tell it: a site of program.thread_branches that ends in " (threads > 1)"
/// branches on whether the run's thread count is greater than 1, so it goes
/// the same way at every count where the test has the same value.
struct ThreadTest {
  enum Op { Gt, Ge, Lt, Le, Eq, Ne } op = Gt;
  long long value = 0;
  bool holds(unsigned Threads) const;
  std::string text() const; ///< "threads > 1"
};

/// Whether every test of \p Tests holds at \p Threads (none: true).
bool allHold(const std::vector<ThreadTest> &Tests, unsigned Threads);

/// Reads "threads > 1" (ThreadTest::text's form); nullopt if it is not one.
std::optional<ThreadTest> parseThreadTestText(const std::string &Text);

/// Reads the test \p Site ends in into \p Test (nullopt: it ends in none);
/// false when it ends in " (threads ...)" that is not one.
bool parseThreadTest(const std::string &Site, std::optional<ThreadTest> &Test);

/// Page faults of a region on memory the program allocated only where all
/// of some tests of the thread count held (clang-plugin/AllocGuards.h).
struct GuardedFaults {
  std::vector<ThreadTest> allocatedIf;
  std::uint64_t pageFaults = 0;
};

/// The floating-point operations of a phase's code by kind, counted
/// statically by the plugin (clang-plugin/OpMix.h): only their proportions
/// mean something, not how many an iteration executes.
struct OpCounts {
  double add = 0, mul = 0, div = 0, sqrt = 0, math = 0;
};

/// One phase: an OpenMP parallel region or a worksharing construct in it.
struct Phase {
  std::string id; ///< "file:line:col", stable across optimization levels
  std::string file;
  unsigned line = 0, column = 0;
  std::string kind;                  ///< "parallel", "parallel for", "for", ...
  std::optional<std::string> parent; ///< enclosing region for worksharing
  std::uint64_t invocations = 0;
  /// Regions: barriers crossed inside plus the joins, over all invocations;
  /// absent in files of older runtimes and for worksharing phases.
  std::optional<std::uint64_t> barriers;
  /// Regions: spin-wait rounds (`while (flag) { omp flush }` handoffs
  /// between threads, runtime/README.md) of the member with most, over all
  /// invocations; absent when none.
  std::optional<std::uint64_t> spinRounds;
  /// Regions: minor page faults of the process during the region's forks
  /// (first touches of memory mapped afresh: runtime/README.md); absent
  /// when none, and in files of older runtimes.
  std::optional<std::uint64_t> pageFaults;
  /// Regions: those of pageFaults on memory allocated only under tests of
  /// the thread count (LULESH's per-element force arrays), per set of
  /// tests: at a count where one fails they do not happen.
  std::vector<GuardedFaults> guardedPageFaults;
  /// Regions: the tests of the thread count that must all hold for the
  /// region to run (only one way of a branch on the count reaches it:
  /// clang-plugin/ThreadBranches.h); empty: it runs at every count.
  std::vector<ThreadTest> runsIf;
  /// The arithmetic of its code; absent in files of older plugins.
  std::optional<OpCounts> ops;
  unsigned threads = 0;
  double timeS = 0;
  std::optional<double> weight; ///< absent: derived as time / total time
  double iterations = 0;        ///< kernel iterations of the slowest thread
  double tpiUs = 0;             ///< timeS * 1e6 / iterations
  /// The per-thread sums of body times (regions) or shares (worksharing):
  /// min, median and max over the team's threads; absent in hand-written
  /// files. A region's time beyond the max is its forks and joins.
  struct ThreadTimes {
    double minS = 0, medianS = 0, maxS = 0;
  };
  std::optional<ThreadTimes> threadTimeS;
  std::vector<PhaseStream> streams;
};

/// The hardware description of a node (from hwloc where measured).
struct NodeInfo {
  std::string label;
  std::string hostname;
  std::string cpu;
  unsigned cores = 0;      ///< physical cores
  unsigned pus = 0;        ///< hardware threads
  unsigned numaNodes = 0;
  unsigned sockets = 0;
  double l1dKiB = 0, l2KiB = 0, l3KiB = 0; ///< per-core L1d/L2, largest L3
  double memoryMiB = 0;
};

/// Serial time spent in code only one way of a branch on the thread count
/// reaches, where the other way does no work (clang-plugin/GuardedSerial.h).
struct GuardedSerial {
  std::vector<ThreadTest> runsIf;
  double timeS = 0;
};

struct ProgramInfo {
  std::string name;
  std::vector<std::string> argv;
  double totalTimeS = 0;
  unsigned threads = 0;
  std::string started; ///< ISO 8601, UTC
  /// Where the program's code branches on its thread count ("file:line:col",
  /// ending in the branch's test where the plugin could tell it: see
  /// ThreadTest), as the plugin found them; at another thread count it may
  /// run other code.
  std::vector<std::string> threadBranches;
  unsigned threadBranchesMore = 0; ///< sites beyond those the runtime listed
  /// Serial time spent only where tests of the thread count held, per set
  /// of tests (LULESH's `numthreads > 1` setup and frees).
  std::vector<GuardedSerial> guardedSerial;
  /// Whether the run sampled memory streams (PHASEPROBE_SAMPLING); absent in
  /// files of older runtimes and hand-written ones.
  std::optional<bool> sampling;
  /// Whether the run's threads had fewer CPUs in their affinity masks
  /// than the largest team had threads (time-sliced on shared CPUs);
  /// absent in files of older runtimes and hand-written ones.
  std::optional<bool> threadsShareCpus;
  /// Whether two of the largest team's threads had overlapping affinity
  /// masks while there were CPUs enough for all (unbound threads, places
  /// that span cores): where they ran was the scheduler's choice; absent
  /// in files of older runtimes and hand-written ones.
  std::optional<bool> threadsFloat;
  /// The run's minor page faults from the runtime's start to its exit,
  /// regions' included: those the top-level regions do not count are the
  /// serial code's; absent in files of older runtimes and hand-written ones.
  std::optional<std::uint64_t> pageFaults;
};

/// A whole phase file (schema phaseprobe.phases/1).
struct PhaseFile {
  std::string schema;
  ProgramInfo program;
  std::optional<NodeInfo> node;
  std::vector<Phase> phases;
};

/// The reuse copies of a uB profile from its name's "+k<N>" suffix (1:
/// none).
long reuseCopiesOf(std::string_view UBenchName);

/// Summary statistics of repeated measurements.
struct Stats {
  double mean = 0, median = 0, min = 0, max = 0, stddev = 0;
  std::uint64_t count = 0;
};

/// One performance profile: one uB configuration measured on one node.
struct Profile {
  std::int64_t id = 0; ///< database row id; 0 when not stored
  std::string node;
  std::string ubench; ///< "mbw1c", "mbw2hc", ...
  std::map<std::string, std::string> params; ///< op, type, pattern, placement...
  unsigned threads = 0;
  std::vector<StreamTuple> streams; ///< in the profile's stream order
  std::optional<double> timeS;      ///< mean time of one repetition
  std::optional<double> iterations; ///< iterations of one repetition
  double tpiUs = 0;                 ///< mean time per iteration
  std::optional<Stats> timeStats;   ///< seconds
  std::optional<Stats> tpiStats;    ///< microseconds
};

} // namespace phaseprobe
