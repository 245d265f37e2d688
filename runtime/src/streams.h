//===- streams.h - Memory-stream sampling and analysis ----------*- C++ -*-===//
//
// The runtime half of Instrumentation II (METHOD.md, "Stage 2"): the plugin
// clones every innermost loop of the parallel code into an instrumented copy
// that reports each load/store address to __phaseprobe_sample() for a short
// burst of iterations; this unit keeps, per thread, per phase and per site, the
// few numbers a stream is described by (address range per invocation, a stride
// histogram, sample count) and, at exit, merges the threads into the phase's
// `streams` (footprint, dominant and second stride, element size, load/store,
// shared/private).
//
// Bursts see only a few iterations of a loop execution, so the range of one
// execution is extrapolated from the execution's stride and its trip count
// (the loop reports how many iterations it really ran); random sites keep the
// sampled minimum and maximum. The hot path (sample()) takes no lock and does
// not allocate once a site has been seen: per-thread state only, merged after
// the threads are done.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "page_touches.h"
#include "phaseprobe/interface.h"
#include "rt_memory.h"
#include "rt_vec.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace __phaseprobe {
namespace streams {

/// Whether consecutive sampled executions of a site (same thread and
/// invocation, one pause apart) start at the same address, i.e. walk the
/// same window again (a matrix product's row of A, re-read for every column
/// of B): a stream's footprint says how far it reaches, not how soon it
/// comes back; these say the latter. Summed over threads and merged sites.
/// The same pairs say whether the executions walk the stream in order (each
/// start where the walk's pace from an earlier one puts it: the next row,
/// the next column of a plane, the same window) or jump (RSBench's windows
/// of poles, each lookup's at a random energy): of the WalkPairs whose
/// pace was known, Jumps did not continue any walk (continuesWalk).
struct WindowCounts {
  std::uint64_t Pairs = 0, Repeats = 0; ///< pairs of executions, same start
  std::uint64_t WalkPairs = 0, Jumps = 0; ///< pairs with a known pace, jumped
  double GapSum = 0;                    ///< executions between the pairs
  double AccSum = 0;                    ///< accesses per execution, summed
  std::uint64_t Execs = 0;              ///< executions in AccSum
  WindowCounts &operator+=(const WindowCounts &O) {
    Pairs += O.Pairs, Repeats += O.Repeats, GapSum += O.GapSum;
    WalkPairs += O.WalkPairs, Jumps += O.Jumps;
    AccSum += O.AccSum, Execs += O.Execs;
    return *this;
  }
};

/// Whether a sampled execution starting at \p Start continues the walk of
/// one \p Since executions before it, which started at \p From, walked
/// \p Extent bytes and had been reached at \p Pace bytes an execution: an
/// in-order walk (rows, the columns of a plane, a window walked again)
/// moves at a steady pace, so its start lies where the pace puts it,
/// within a tenth of the way, the execution's own extent (a turn to the
/// next plane) and a page. A bound on the distance alone cannot tell: a
/// short loop is sampled once in a thousand executions, and a thousand
/// 9-pole windows of RSBench reach across its whole 5 MiB table.
inline bool continuesWalk(std::uintptr_t From, std::uintptr_t Start, std::uint64_t Since,
                          double Pace, double Extent) {
  const double Way = (double(Start) - double(From)), Expected = Pace * double(Since);
  const double Off = Way > Expected ? Way - Expected : Expected - Way;
  return Off <= 0.1 * (Expected < 0 ? -Expected : Expected) + Extent + 4096.0;
}

/// One static load/store site as the plugin emits it: a private constant in
/// the instrumented object, whose address identifies the site. Layout is ABI
/// (see __phaseprobe_site in interface.h).
struct SiteDesc {
  std::uint32_t ElemBytes; ///< store size of the accessed type
  std::uint32_t Flags;     ///< SiteStore for a store
  const char *Loc;         ///< "file:line:col", or "function#n" without -g
};
constexpr std::uint32_t SiteStore = PHASEPROBE_SITE_STORE;
constexpr std::uint32_t SiteOuter = PHASEPROBE_SITE_OUTER;

/// Value of a phase meaning "no phase" (the phase runtime's NoPhase).
constexpr std::uint32_t NoPhaseKey = 0xffffffffu;

/// Where a burst belongs: the thread's innermost phase and which invocation
/// of it is running (the thread's count of finished shares of that phase,
/// which is the same number in every thread of the team).
struct PhaseContext {
  std::uint32_t Phase = NoPhaseKey;
  std::uint64_t Invocation = 0;
};

/// The run-time knobs (environment variables, read once).
struct Config {
  bool Enabled = true;         ///< PHASEPROBE_SAMPLING=off clears it
  std::uint64_t Period = 1000; ///< aim: one iteration in Period is sampled
  std::uint32_t Burst = 128;   ///< iterations per burst
  /// At most one invocation in this many of a function that parallel code
  /// starts in runs in its sampling copy (see beginInvocation; 1: every
  /// invocation).
  std::uint64_t Invocations = 16;
  /// Two address ranges of one site further apart than this are separate
  /// allocations, not one array seen through sparse samples: no array spans
  /// more than the machine's memory (set from it by fromEnvironment).
  std::uint64_t FarGapBytes = 1ull << 36;
  /// Whether an address is mapped (the runtime asks the kernel); null: no
  /// check. An extrapolated end that is not mapped means the walk does not
  /// go on in a straight line (it wraps, or the trip count is not the
  /// site's): the extrapolation is cut back to the mapped extent.
  bool (*IsMapped)(std::uintptr_t Addr) = nullptr;
  /// Reads PHASEPROBE_SAMPLING, PHASEPROBE_SAMPLE_PERIOD,
  /// PHASEPROBE_SAMPLE_BURST and PHASEPROBE_SAMPLE_INVOCATIONS. A malformed
  /// value keeps the default and is described in \p Warning (one line;
  /// empty when all is well).
  static Config fromEnvironment(char *Warning, std::size_t Cap);
};

/// Time and iterations a thread spent in sampled bursts of one phase.
struct BurstCost {
  std::uint32_t Phase = NoPhaseKey;
  std::uint64_t Bursts = 0;
  std::uint64_t Iterations = 0; ///< loop iterations run instrumented
  /// The iterations those stand for (as SiteRecord::Accesses: the
  /// executions each burst represents).
  double WeightedIterations = 0;
  std::uint64_t Samples = 0;
  double Seconds = 0;         ///< wall time inside the instrumented clone
  double OverheadSeconds = 0; ///< estimated cost of sampling in that time
};

/// Per (phase, site) state of one thread. Plain data so the merge can read it.
struct SiteRecord {
  SiteRecord *Next = nullptr; ///< the thread's list of records
  std::uint32_t Phase = NoPhaseKey;
  const SiteDesc *Site = nullptr;
  std::uint64_t Samples = 0;
  /// The PageTouches entry of the page sampled last (its samples mark it).
  PageTouches::Entry *Touch = nullptr;
  std::uintptr_t TouchPage = ~std::uintptr_t(0);
  /// A uniform sample of the pages the site moved onto (reservoir over
  /// PageVisits), each as the address it moved onto: where its hand-over
  /// share is read (PageRead).
  static constexpr int PageReservoir = 32;
  std::uintptr_t Pages[PageReservoir] = {};
  std::uint32_t NumPages = 0;
  std::uint64_t PageVisits = 0;
  /// Accesses the samples stand for, in the sampled invocations of the
  /// site's root (sampling copies): each sampled execution's samples times
  /// the iterations and executions its burst stands for (endExecution).
  double Accesses = 0;
  // Stride histogram over |difference| of consecutive samples of one loop
  // execution: Misra-Gries with a few slots keeps every stride above
  // 1/(slots+1) of the differences, with a count close to exact.
  static constexpr int HistSlots = 6;
  std::uint64_t HistStride[HistSlots] = {};
  std::uint64_t HistCount[HistSlots] = {};
  std::uint64_t Diffs = 0;
  double SumAbsDiff = 0;
  // The loop execution being sampled now.
  std::uint64_t ExecSerial = 0;
  std::uintptr_t First = 0, Last = 0, Min = 0, Max = 0;
  std::uint64_t ExecSamples = 0;
  std::int64_t ExecStride = 0;
  bool ExecConsistent = true;
  /// Pages known mapped (from earlier checks), so that repeated
  /// extrapolations into the same memory ask the kernel once.
  std::uintptr_t MappedLo = 1, MappedHi = 0;
  // The phase invocation being accumulated, and the finished ones.
  struct InvRange {
    std::uint64_t Invocation;
    std::uintptr_t Lo, Hi; ///< first bytes of the lowest and highest element
  };
  /// The current invocation's ranges: one per allocation the site walks
  /// (ranges further apart than Config::FarGapBytes cannot be one array).
  static constexpr int MaxClusters = 4;
  bool HasInv = false;
  std::uint64_t CurInv = 0;
  InvRange Cur[MaxClusters] = {};
  int NumCur = 0;
  Vec<InvRange> Done; ///< capped at ThreadSampler::MaxInvocations entries
  /// Calls \p F with every sampled invocation's ranges: the finished ones
  /// and the current invocation's (numbered CurInv).
  template <typename Fn> void eachRange(Fn &&F) const {
    for (const InvRange &E : Done)
      F(E);
    for (int I = 0; I < NumCur; ++I)
      F(InvRange{CurInv, Cur[I].Lo, Cur[I].Hi});
  }
  /// The same ranges split by the half of the thread's share the sampled
  /// execution fell in: its first executions or its last. A team of one
  /// thread shows no sharing, but a worksharing loop gives two threads the
  /// two halves of what one thread walks, so the halves' ranges coincide
  /// (shared) or not (private) as two threads' would. The current
  /// invocation's executions go to Buckets buckets in order, 2^BucketShift
  /// executions each (the shift grows and neighbours merge when they are
  /// full), so its halves are known at its end whatever its length.
  static constexpr int Buckets = 8;
  std::uint64_t InvExecs = 0; ///< sampled executions of the invocation
  unsigned BucketShift = 0;
  InvRange Bucket[Buckets][MaxClusters] = {};
  int NumBucket[Buckets] = {};
  Vec<InvRange> HalfDone[2]; ///< finished invocations' halves, capped as Done
  /// The current invocation's first (0) and second (1) half: at most
  /// MaxClusters ranges each, none before two sampled executions.
  void halves(InvRange Out[2][MaxClusters], int N[2], std::uint64_t Far) const;
  // Window reuse, and the previous sampled execution it compares with
  // (its start the newest of Starts).
  WindowCounts Window;
  std::uint64_t PrevExecInv = 0;
  std::uint64_t PrevExecPause = 0; ///< executions until the next sampled one
  /// The starts of the last few sampled executions of the invocation
  /// (none before the first), the bytes each walked, the executions since,
  /// and the pace (bytes an execution) from the start it continued, or the
  /// nearest: an execution jumped where it continues none of them
  /// (continuesWalk), so that a loop walking two or three arrays in turn,
  /// each in order, does not.
  struct ExecStart {
    std::uintptr_t Addr;
    double Extent;
    std::uint64_t Since;
    double Pace;
    bool HasPace;
  };
  static constexpr int StartMemory = 4;
  ExecStart Starts[StartMemory] = {};
  int NumStarts = 0;

  void countDiff(std::uint64_t AbsDiff);
};

/// A site of a phase.
struct SiteKey {
  std::uint32_t Phase;
  const SiteDesc *Site;
  bool operator<(const SiteKey &O) const {
    return Phase != O.Phase ? Phase < O.Phase : Site < O.Site;
  }
  bool operator==(const SiteKey &O) const { return Phase == O.Phase && Site == O.Site; }
};

class ThreadSampler;
/// The store sites whose threads' ranges of one sampled invocation overlap
/// (by more than a page), sorted: each thread's span then holds the other
/// threads' elements (a store walking several arrays an execution,
/// `a[m][i]` for m inside the split i loop; a dynamic schedule's chunks),
/// so the span is not the pages it wrote. \p All: every thread's sampler.
Vec<SiteKey> interleavedSites(const ThreadSampler *const *All, std::size_t N);

/// The sampling state of one thread. Only its own thread writes it; the
/// merge reads it after the parallel work is over.
class ThreadSampler {
public:
  /// \p Touches: the table the samples mark their pages in (the
  /// process's, or a test's own).
  explicit ThreadSampler(const Config &C,
                         PageTouches &Touches = PageTouches::process());
  ~ThreadSampler();
  ThreadSampler(const ThreadSampler &) = delete;
  ThreadSampler &operator=(const ThreadSampler &) = delete;

  /// A root's countdown ran out (the entry of an outlined region body or a
  /// function with an orphaned worksharing construct): returns whether this
  /// invocation runs in the sampling copy, and sets \p Next to the
  /// invocations to run plain next (\p Root, the root's countdown, is only
  /// its identity: never read nor written here). A root's first FullInvocations
  /// invocations in a thread are sampled; after them, the k-th sampled one
  /// stands for min(k - FullInvocations + 1, Invocations) invocations
  /// (itself and those skipped after it: 1, 2, 3, 4, 5, 7, 10, 14, 19, ...
  /// are sampled), and its loops aim at Period divided by that, so the run
  /// takes about the samples it took when every invocation was sampled, and
  /// a root run a few times is sampled as before.
  bool beginInvocation(const std::int64_t *Root, std::int64_t *Next);
  /// A loop's countdown ran out. Returns the burst length to run
  /// instrumented (0: run the loop plain; Control: run it plain and report
  /// its end, a timed control execution) and sets \p Next to the number
  /// of executions of that loop to skip next (\p Loop, the loop's
  /// countdown, is only its identity).
  std::uint32_t beginBurst(const PhaseContext &Ctx, const std::int64_t *Loop,
                           std::int64_t *Next, std::uint64_t NowNs);
  /// One sampled access (the hot path of a burst).
  void sample(const SiteDesc *Site, std::uintptr_t Addr);
  /// The instrumented clone handed over to the plain loop (burst complete).
  void stopBurst(std::uint64_t NowNs);
  /// The sampled loop execution left the loop after \p Backedges iterations:
  /// folds the execution's sites and sets \p Next to the loop's next
  /// countdown. Returns
  /// the estimated sampling overhead of this execution in nanoseconds (the
  /// caller takes it out of the phase timing).
  std::uint64_t endExecution(std::uint64_t Backedges, std::int64_t *Next,
                             std::uint64_t NowNs);

  /// Adds the pages each of this thread's sites touched (its reservoir).
  void pageReads(Vec<PageRead> &Out) const;
  /// Marks in \p T the pages this thread's store sites wrote, from their
  /// ranges in the sampled invocations of their phase (a static schedule
  /// gives a thread the same share every time; a dynamic one marks its
  /// pages for several threads, as it hands them), but for the sites
  /// (record's Phase and Site) in \p Interleaved, sorted. After the run.
  void markWrittenRanges(PageTouches &T, const Vec<SiteKey> &Interleaved) const;

  bool inBurst() const { return Active; }
  const SiteRecord *records() const { return Records; }
  const Vec<BurstCost> &costs() const { return Costs; }
  std::uint64_t droppedSamples() const { return Dropped; }

  ThreadSampler *Next = nullptr; ///< the process's list of samplers

  static constexpr std::size_t MaxInvocations = 256;
  static constexpr std::size_t TableSize = 4096; ///< (phase, site) slots
  static constexpr std::size_t MaxTouched = 256; ///< sites per execution
  static constexpr std::uint32_t Control = PHASEPROBE_BURST_CONTROL; ///< the ABI's answer
  static constexpr std::size_t LoopSlots = 1024; ///< loops with a clean time
  static constexpr std::size_t RootSlots = 256;  ///< roots counted apart (more: sparsest schedule)
  static constexpr std::uint64_t FullInvocations = 4; ///< sampled before the gaps widen

private:
  SiteRecord *lookup(const SiteDesc *Site);
  void foldExecution(SiteRecord &R, std::uint64_t Backedges);
  std::uintptr_t clampToMapped(SiteRecord &R, std::uintptr_t End,
                               double Execs);
  BurstCost &costOf(std::uint32_t Phase);
  /// Back to the suspended execution, if any, when a nested one ends.
  void resumeOuter(std::uint64_t NestedOver);
  /// The clean-time record of the loop whose countdown is \p Countdown, or
  /// null when the table is full.
  struct LoopClean {
    const std::int64_t *Loop = nullptr; ///< the loop's countdown: its identity
    double NsPerIter = 0;               ///< from control executions; 0: none yet
    std::uint32_t Controls = 0;         ///< control executions so far
    std::uint32_t Priced = 0;           ///< bursts priced by NsPerIter
    std::int64_t PendingPause = 1;      ///< the pause a control hands on
    bool WantControl = false;           ///< the next trigger times the plain loop
  };
  LoopClean *loopClean(const std::int64_t *Countdown);

  Config Cfg;
  PageTouches &Touches;
  std::uint64_t Bit; ///< this thread's bit in Touches' masks
  std::uint64_t Random = 0x9E3779B97F4A7C15ull; ///< the page reservoirs' draws
  /// What the loops aim at now (see beginInvocation); Period for objects
  /// that sample every invocation (built before the sampling copies).
  std::uint64_t LoopPeriod;
  struct RootSampled {
    const std::int64_t *Root = nullptr; ///< the root's countdown: its identity
    std::uint64_t Invocations = 0;      ///< sampled so far in this thread
  };
  RootSampled Roots[RootSlots] = {};
  std::size_t NumRoots = 0;
  bool Active = false; ///< between beginBurst and endExecution
  bool Clone = false;  ///< between beginBurst and stopBurst/endExecution
  bool Controlled = false; ///< the active execution is a control (unsampled)
  LoopClean Loops[LoopSlots] = {};
  /// One loop execution, sampled or timed (a control).
  struct Execution {
    LoopClean *CurLoop = nullptr;
    PhaseContext Ctx;
    std::uint64_t Serial = 0; ///< the SiteRecord::ExecSerial of its sites
    std::uint64_t BurstStartNs = 0, BurstStopNs = 0;
    std::uint64_t BurstSamples = 0;
    std::uint32_t BurstLen = 0;
    /// Sampling overhead of executions nested in it since its burst
    /// stopped: not part of its plain remainder's clean time.
    std::uint64_t NestedOverNs = 0;
  };
  Execution Exec;            ///< the active one
  std::uint64_t Serials = 0; ///< executions begun so far: each one's Serial
  double NsPerSample = 5.0; ///< learnt overhead per sample (see .cpp)
  /// Records of the current burst by site address: a burst has one phase
  /// and few sites, so most samples skip the hash table.
  static constexpr std::size_t CacheSize = 16;
  SiteRecord *Cache[CacheSize] = {};
  SiteRecord **Table = nullptr;
  SiteRecord *Records = nullptr;
  std::size_t NumRecords = 0;
  SiteRecord *Touched[MaxTouched];
  std::size_t NumTouched = 0;
  std::size_t TouchedBase = 0; ///< the active execution's first Touched slot
  /// An execution whose burst is over, suspended until its loop ends while
  /// a loop it runs (in a function it calls) samples: one level deep. A
  /// loop sampled with the 4-iteration loop inside it, whole (LULESH's
  /// element loops), is one execution for the thread's whole share; without
  /// this, the loops of the functions it calls were never sampled.
  Execution Outer;
  bool HasOuter = false;
  Vec<BurstCost> Costs;
  std::uint64_t Dropped = 0;
};

/// One stream of a phase, ready for the phase file.
struct StreamResult {
  double FootprintKiB = 0;
  std::uint64_t StrideBytes = 0;
  std::uint64_t SecondStrideBytes = 0; ///< 0: no second stride seen
  double DominantShare = 0; ///< share of the differences the stride holds
  bool Random = false;      ///< no stride holds half the differences
  std::uint32_t ElemBytes = 0;
  bool Shared = false;
  bool HasLoad = false, HasStore = false;
  bool Significant = false;
  static constexpr int MaxSites = 16;
  const char *Sites[MaxSites] = {}; ///< sorted; more are counted only
  int NumSites = 0;
  int MoreSites = 0;
  std::uint64_t Samples = 0;
  /// Share of the stream's pages of known writer that the accessing
  /// thread finds written by another thread, per (page, thread): accesses
  /// that wait for a cache-to-cache hand-over (page_touches.h). Negative:
  /// fewer than MinHandoverKnown such pages.
  double HandoverShare = -1;
  double HandoverKnown = 0;
  static constexpr double MinHandoverKnown = 8;
  /// With a HandoverShare: how many times the writers wrote the data (their
  /// invocations, weighted by their pages), so at most how many times a
  /// line of it was handed over, at its first touch after each.
  double HandoverRounds = 0;
  /// Elements of the stream one iteration of the phase touches, on
  /// average over its iterations in sampling copies (below 1: the loops
  /// that touch it run a part of them; lud's block update touches its
  /// matrix in 1 of 6); negative: nothing sampled.
  double AccessesPerIter = -1;
  /// The accesses of one loop execution of the stream's sites (the window
  /// an execution walks; 0: unknown), and how many consecutive executions
  /// walk the same window (0: not measured, or under 2: no reuse seen at
  /// the sampling's distance). From pairs of sampled executions Pause
  /// executions apart, of which a share p start where the previous one
  /// started: a window kept for R executions gives p = 1 - Pause/R, so R =
  /// Pause / (1 - p); windows kept for fewer executions than Pause are not
  /// seen (p near 0).
  double WindowAccesses = 0;
  double WindowRepeats = 0;
  /// Of the same pairs (those with a pace to go by), the share whose second
  /// execution continues no walk of the few before it (continuesWalk):
  /// executions that start at random places. Negative: not measured (a
  /// random stream, or too few pairs).
  double JumpShare = -1;
  const char *op() const {
    return HasLoad && HasStore ? "load+store" : HasStore ? "store" : "load";
  }
};

/// Merges every thread's records of \p Phase into streams, ordered by
/// footprint (largest first); streams above \p L1dKiB are significant.
/// \p IterationsInCopies: the phase's iterations, all threads, in shares
/// run in sampling copies (0: unknown), for accesses per iteration.
/// \p SplitsIterations: the phase is a worksharing loop; where no
/// invocation had two threads sampled (a run on one thread), a thread's
/// first and second half of its share tell shared from private instead.
/// Sites that touched a single address in every invocation (scalars the
/// optimizer keeps in registers) are left out. \p Handovers: every
/// (phase, site)'s hand-over (PageTouches::summarize), sorted; empty: no
/// stream has a hand-over share.
Vec<StreamResult> analyzePhase(std::uint32_t Phase,
                               const ThreadSampler *const *Threads,
                               std::size_t NumThreads, double L1dKiB,
                               std::uint64_t FarGapBytes = 1ull << 36,
                               double IterationsInCopies = 0,
                               bool SplitsIterations = false,
                               const Vec<SiteHandover> *Handovers = nullptr);

/// Sum of the burst costs of \p Phase over \p Threads.
BurstCost totalCost(std::uint32_t Phase, const ThreadSampler *const *Threads,
                    std::size_t NumThreads);

} // namespace streams
} // namespace __phaseprobe
