//===- clone.cpp - Phase clones: uB configurations from a program's phases --===//
//
// METHOD.md's NPPDB is meant to grow: when a phase has no similar uB, a uB
// with exactly the phase's stream tuples is run on every node. The catalogue
// already declares, per uB and per stream, the access, element size, pattern
// and load/store of what its kernel walks; a clone is therefore a choice of
// uB whose declared streams are the phase's, plus the footprint and stride the
// kernel should walk. Nothing here is a hand table: a uB added to the
// catalogue is used by clones at once.
//
//===----------------------------------------------------------------------===//
#include "phaseprobe/error.h"
#include "phaseprobe/phase_runs.h"
#include "phaseprobe/stream_notation.h"
#include "phaseprobe/ubench.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <tuple>

namespace phaseprobe {

ClonePhases parseClonePhases(const std::string &Text, const std::string &File) {
  ClonePhases C;
  C.file = File;
  C.phases = parsePhaseFile(Text, File);
  return C;
}

std::string paramsLine(const UBenchConfig &C) { return C.name() + " " + C.requested(); }

namespace {

/// One significant stream of a phase, rounded to what a kernel walks.
struct Wanted {
  const PhaseStream *stream = nullptr;
  char pattern = 's'; ///< 's' or 'r'
  std::string op;
  double kib = 0, stride = 0;
  /// A random stream read through indices (UBenchDef::gathered): its
  /// footprint in whole elements and a uniform draw's stride.
  double gatheredKib = 0, gatheredStride = 0;
  double window = 0; ///< accesses of a reuse window (0: none)
  long repeats = 1;  ///< walks of each window in a row
  std::string why;   ///< non-empty: no kernel can walk it
  unsigned threads = 1; ///< the phase's
};

/// The most walks in a row of a clone's reuse window. The kernel's sweep
/// walks the whole region that many times, so it bounds a configuration's
/// duration; mm 1000 (its row of A re-read 1000 times): its clone 1.10-1.40x
/// the phase's time per iteration without windows, 1.02x with 64 walks,
/// 0.99-1.03x with 1000 (bench/results/clone-shape-2026-11-24-*).
constexpr long CloneRepeats = 64;

/// The fewest columns (elements in a stride) of a stream a clone of it
/// writes shared (upd1c): the clone is measured on every node at its thread
/// count, and its threads split the columns. Below this the read-only walk
/// (mbw1c) stands in, as it did for every written shared stream before.
constexpr double SplitColumnsMin = 256;

std::string describe(const Wanted &W) {
  const StreamTuple &T = W.stream->tuple;
  return std::string(accessName(T.access)) + " " + std::to_string(T.elemBytes) + "-byte " +
         (W.pattern == 'r' ? "random " : "") + "stream";
}

/// Footprint and stride as the kernel walks them (ubench_kernels.c): a
/// region of whole elements, for a private stream one equal slice per
/// thread; a strided stream steps whole elements and its slice holds at
/// least 4 steps; a random stream's slice is a power of two elements (the
/// nearest one, so the stored footprint stays within a factor √2), walked
/// with the phase's mean jump, or drawn uniformly where that jump is a
/// uniform draw's (a third of the slice or more) or one element.
Wanted roundStream(const PhaseStream &S, unsigned Threads) {
  Wanted W;
  W.stream = &S;
  W.pattern = S.random ? 'r' : 's';
  W.threads = Threads;
  W.op = S.op.empty() ? std::string("load") : S.op;
  const StreamTuple &T = S.tuple;
  double E = T.elemBytes;
  if (T.elemBytes == 0) {
    W.why = "element size 0";
    return W;
  }
  double Th = S.tuple.access == Access::Private ? std::max(1u, Threads) : 1;
  double Slice = std::round(T.footprintKiB * 1024 / E / Th); // elements per thread
  if (S.random) {
    double P = std::exp2(std::round(std::log2(std::max(2.0, Slice))));
    W.kib = P * Th * E / 1024;
    double Jump = std::round(std::fabs(T.strideBytes) / E);
    W.stride = isSearchJump(P, Jump) ? Jump * E : E;
    W.gatheredKib = std::max(2.0, Slice) * Th * E / 1024;
    W.gatheredStride = E;
    return W;
  }
  double Stride = std::fabs(T.strideBytes);
  double Step = std::round(Stride / E);
  if (Stride == 0 || Step < 1) {
    if (Stride == 0) {
      W.why = "stride 0 B (one element over and over): no kernel walks it";
      return W;
    }
    Step = 1;
  }
  W.stride = Step * E;
  if (Slice < 4 * Step) {
    W.why = "footprint " + formatNumber(T.footprintKiB) + " KiB holds fewer than 4 strides of " +
            formatNumber(W.stride) + " B" + (Th > 1 ? " per thread" : "") +
            " (the kernels' minimum for a strided stream)";
    return W;
  }
  W.kib = Slice * Th * E / 1024;
  // A window the phase walks again and again, and that spans well under
  // the slice (one spanning the slice, as nbody's walk of all particles at
  // every execution, is what a plain walk does already).
  if (S.windowAccesses && S.windowRepeats && *S.windowRepeats >= 2) {
    double Win = std::round(*S.windowAccesses);
    if (Win >= 1 && Win * Step * 2 <= Slice) {
      W.window = Win;
      W.repeats = std::clamp<long>(std::lround(*S.windowRepeats), 2, CloneRepeats);
    }
  }
  return W;
}

/// Whether operand \p Q of \p D declares the stream \p W (access, element
/// size, pattern), and whether its load/store is \p W's too.
bool declares(const UBenchDef &D, std::size_t Q, const Wanted &W, bool &SameOp) {
  const StreamTuple &T = W.stream->tuple;
  if ((D.access[Q] == 'p') != (T.access == Access::Private) || D.elemBytes(Q) != T.elemBytes ||
      D.pattern[Q] != W.pattern)
    return false;
  // A written shared stream's threads split its columns: a walk down whole
  // columns (no window, no span) of a stride with a column for every
  // thread of any node it is measured on.
  if (D.splitsColumns(Q) && (W.window > 0 || columnSpan(*W.stream, W.threads) != 0 ||
                             T.strideBytes < SplitColumnsMin * T.elemBytes))
    return false;
  std::vector<std::string> Ops = split(D.ops, ';');
  SameOp = Q < Ops.size() && Ops[Q] == W.op;
  return true;
}

/// Iterations of the phase per kernel iteration of a clone walking \p Ws
/// (UBenchConfig::every): the kernel touches each stream once per
/// iteration, so a phase whose iterations touch its streams less often
/// (the busiest of them \p Ws, at rate d < 1) gets one kernel iteration per
/// round(1/d) of its own. Unknown rates (hand-written files) keep 1.
long everyFor(const std::vector<Wanted> &Ws) {
  double Busiest = 0;
  for (const Wanted &W : Ws) {
    if (!W.stream->accessesPerIter)
      return 1;
    Busiest = std::max(Busiest, *W.stream->accessesPerIter);
  }
  if (!(Busiest > 0) || Busiest >= 1)
    return 1;
  return std::clamp<long>(std::lround(1 / Busiest), 1, MaxEvery);
}

/// The column span of a clone of \p Ws (UBenchConfig::span; none with
/// windows). A strided walk whose loop executions each span a small part
/// of the slice (the example bt's y sweep: 63 accesses 2560 B apart, one
/// plane of a 10 MiB stream) comes back to the lines of the next column
/// within that part, and its pages stay in the TLB; a clone whose columns
/// run over the whole slice does neither. On the Xeon VM such a clone took
/// 4.5 ns an access at one thread and 2.5 at two (10 MiB, 5 MiB a thread),
/// the same walk a plane at a time 0.73 and 0.69, and the loop scales as
/// the latter (bench/results/column-span-2026-11-25-xeon.txt). The matcher
/// asks the same of a phase's query (core's columnSpan).
/// \p Jumps: the span is walked in jumping runs (UBenchConfig::jumps), its
/// streams' loop executions starting at random places. RSBench's lookups
/// each read 9 poles, 72 B apart, at a random energy; a clone that walks
/// the same 9 accesses a column, block after block, re-reads each block's
/// lines nine times and lets the prefetcher bring the next: it came out
/// 94% padding.
long spanFor(const std::vector<Wanted> &Ws, bool &Jumps) {
  Jumps = false;
  std::vector<const PhaseStream *> Streams;
  for (const Wanted &W : Ws) {
    if (W.window > 0)
      return 0;
    Streams.push_back(W.stream);
  }
  return Ws.empty() ? 0 : columnSpan(Streams, Ws.front().threads, &Jumps);
}

/// The uBs of \p N streams that reproduce \p Ws (one per stream, in the
/// phase's order, at the phase's pace: everyFor): per uB the first operand
/// assignment that declares every stream, preferring the one whose loads
/// and stores match most streams.
/// Across uBs, only those with the most matching loads/stores count: where
/// the catalogue distinguishes (a private double that is written: upd1p or
/// st1p, not mbw1p), the one that does what the phase does wins; where it
/// does not, every uB that walks it does. A shared stream that is written
/// gets both (below): upd1c and the read-only walks.
std::vector<UBenchConfig> cloneStreams(const std::vector<Wanted> &Ws) {
  std::size_t N = Ws.size();
  const long Every = everyFor(Ws);
  std::vector<std::pair<std::size_t, UBenchConfig>> Found; // (matching ops, config)
  for (const UBenchDef &D : ubenchCatalog()) {
    if (D.compute() || isPricingUBench(D.name) || D.streams() != N)
      continue;
    std::vector<std::size_t> Perm(N); // Perm[i] = the operand phase stream i goes to
    std::iota(Perm.begin(), Perm.end(), 0);
    bool Any = false;
    std::size_t BestOps = 0;
    UBenchConfig Best;
    do {
      bool Ok = true;
      std::size_t Ops = 0;
      for (std::size_t I = 0; I < N && Ok; ++I) {
        bool SameOp = false;
        Ok = declares(D, Perm[I], Ws[I], SameOp);
        Ops += SameOp;
      }
      if (!Ok || (Any && Ops <= BestOps))
        continue;
      Any = true;
      BestOps = Ops;
      Best.def = &D;
      Best.every = Every;
      Best.footprintKiB.assign(N, 0);
      Best.strideBytes.assign(N, 0);
      Best.windowAccesses.assign(N, 0);
      Best.repeats = 1;
      Best.span = spanFor(Ws, Best.jumps);
      for (std::size_t I = 0; I < N; ++I) {
        bool G = D.gathered(Perm[I]);
        Best.footprintKiB[Perm[I]] = G ? Ws[I].gatheredKib : Ws[I].kib;
        Best.strideBytes[Perm[I]] = G ? Ws[I].gatheredStride : Ws[I].stride;
        if (Ws[I].window > 0) {
          // One count for the configuration: the fewest walks asked for.
          Best.repeats = Best.hasWindows() ? std::min(Best.repeats, Ws[I].repeats) : Ws[I].repeats;
          Best.windowAccesses[Perm[I]] = Ws[I].window;
        }
      }
      if (!Best.hasWindows())
        Best.windowAccesses.clear();
    } while (std::next_permutation(Perm.begin(), Perm.end()));
    if (Any)
      Found.emplace_back(BestOps, Best);
  }
  // A walk that writes a shared stream as the phase's threads do (upd1c)
  // comes with, not instead of, the read-only walk that stood in for it,
  // which stays the phase's own clone (padded to its tpi): on the AMD EPYC
  // the example bt's z sweep ran 11.9-12.7 ns an iteration in every run
  // while its upd1c walk ran 0.87-1.21x of that from hour to hour, and a
  // walk slower than its phase cannot be calibrated (run fs: +21% under
  // the absolute rule). Both are measured on every node, so that a run on
  // another CPU design can tell which of them carries the sweep there.
  auto Splits = [](const UBenchConfig &C) {
    for (std::size_t Q = 0; Q < C.def->streams(); ++Q)
      if (C.def->splitsColumns(Q))
        return true;
    return false;
  };
  std::size_t Max = 0;
  for (auto &F : Found)
    if (!Splits(F.second))
      Max = std::max(Max, F.first);
  std::vector<UBenchConfig> Out;
  for (auto &F : Found)
    if (F.first == Max || Splits(F.second))
      Out.push_back(F.second);
  return Out;
}

/// The program a phase file is a run of: its name and arguments.
std::string programOf(const PhaseFile &F) {
  std::string Program = F.program.name;
  for (std::size_t A = 1; A < F.program.argv.size(); ++A)
    Program += " " + F.program.argv[A];
  return Program;
}

/// \p Files with the runs of one program made without sampling beside
/// sampled ones (bench/accuracy's --base-timing unsampled) replaced by
/// those runs, each with the sampled runs' streams (timedRuns): their
/// times are the ones the estimator starts from (mergePhaseRuns), so a
/// padded clone is calibrated to them. Run gs: HPCCG's SpMV took 0.88 ns
/// an iteration in its sampled run and 0.75 in the median of the five
/// without, and its clone, padded to the sampled run, lost to its unpadded
/// twin (bench/results/accuracy-2026-11-27-quiet-gs-*/NOTE.md).
std::vector<ClonePhases> timedFiles(const std::vector<ClonePhases> &Files) {
  // Runs of one program on one node (sameProgram: what timedRuns merges).
  std::vector<std::vector<std::size_t>> Groups;
  for (std::size_t I = 0; I < Files.size(); ++I) {
    auto It = std::find_if(Groups.begin(), Groups.end(), [&](const auto &G) {
      return sameProgram(Files[G.front()].phases, Files[I].phases);
    });
    if (It == Groups.end())
      Groups.push_back({I});
    else
      It->push_back(I);
  }
  std::vector<ClonePhases> Out;
  for (const std::vector<std::size_t> &Members : Groups) {
    std::vector<PhaseFile> Runs;
    std::vector<std::string> Paths, Unsampled;
    for (std::size_t I : Members) {
      Runs.push_back(Files[I].phases);
      Paths.push_back(Files[I].file);
      if (Files[I].phases.program.sampling == false)
        Unsampled.push_back(Files[I].file);
    }
    std::vector<PhaseFile> Timed = timedRuns(Runs, Paths);
    if (Timed.size() == Runs.size() || Timed.size() != Unsampled.size()) {
      for (std::size_t I : Members)
        Out.push_back(Files[I]);
      continue;
    }
    for (std::size_t I = 0; I < Timed.size(); ++I)
      Out.push_back({Unsampled[I], std::move(Timed[I])});
  }
  return Out;
}

} // namespace

CloneSet clonePhases(const std::vector<ClonePhases> &Given, double L1dKiB) {
  const std::vector<ClonePhases> Files = timedFiles(Given);
  CloneSet Out;
  // Catalogue order, then footprints and strides numerically: deterministic
  // and readable, and equal configurations from several phases meet.
  std::map<std::tuple<std::size_t, long, std::vector<double>, std::vector<double>, long,
                      std::vector<double>, long, bool, long>,
           UBenchConfig>
      Configs;
  std::set<std::string> SeenNotes;
  auto Note = [&](const std::string &S) {
    if (SeenNotes.insert(S).second)
      Out.notes.push_back(S);
  };
  const UBenchDef *First = &ubenchCatalog().front();
  auto Keep = [&](const UBenchConfig &C) {
    Configs.emplace(std::make_tuple(std::size_t(C.def - First), C.every, C.footprintKiB,
                                    C.strideBytes, C.repeats, C.windowAccesses, C.span,
                                    C.jumps, C.copies),
                    C);
  };
  for (const ClonePhases &F : Files) {
    double Sig = L1dKiB > 0                                   ? L1dKiB
                 : F.phases.node && F.phases.node->l1dKiB > 0 ? F.phases.node->l1dKiB
                                                              : 0;
    std::string Program = programOf(F.phases);
    for (std::size_t PI : leafPhases(F.phases)) {
      const Phase &P = F.phases.phases[PI];
      std::string Where = F.file + ": " + P.id;
      // As much data between two walks of one copy as between two
      // executions of the phase (UBenchConfig::copies); the matcher asks
      // the same of the phase's queries.
      const long Copies = reuseCopies(F.phases, P);
      auto WithCopies = [&](std::vector<UBenchConfig> Cs) {
        for (UBenchConfig &C : Cs)
          C.copies = Copies;
        return Cs;
      };
      // The streams the matcher queries, in its order, L1-resident ones
      // included where a leaf has no other (LULESH's EOS loops, 1 KiB
      // streams, 5% of its time, kept their base time on every node while
      // the grid had no profile of their size).
      std::vector<unsigned> Idx = relaxedStreams(P, Sig);
      std::vector<Wanted> Ws;
      bool AllWalkable = true;
      // The clone of its largest walkable stream: the phase's own clone when
      // no uB walks all its streams together (the matcher's query [v1]).
      std::optional<UBenchConfig> Largest;
      for (std::size_t I : Idx) {
        Wanted W = roundStream(P.streams[I], P.threads);
        std::string Name = Where + " " + P.streams[I].id + ": ";
        if (!W.why.empty()) {
          Note(Name + W.why);
          AllWalkable = false;
          continue;
        }
        std::vector<UBenchConfig> Cs = WithCopies(cloneStreams({W}));
        if (Cs.empty())
          Note(Name + "no uB walks a " + describe(W));
        for (const UBenchConfig &C : Cs)
          Keep(C);
        if (!Cs.empty() && !Largest)
          Largest = Cs.front();
        if (Idx.size() == 1 && !Cs.empty())
          Out.targets.push_back({Where, Program, P.id, P.threads, P.tpiUs, Cs.front()});
        Ws.push_back(W);
      }
      if (Idx.size() < 2)
        continue;
      auto TargetLargest = [&] {
        if (Largest)
          Out.targets.push_back({Where, Program, P.id, P.threads, P.tpiUs, *Largest});
      };
      if (Idx.size() > 3) {
        Note(Where + ": " + std::to_string(Idx.size()) +
             " significant streams: no uB has more than 3 (its streams are cloned one by one, "
             "its largest stream's clone is its own)");
        TargetLargest();
        continue;
      }
      if (!AllWalkable) {
        Note(Where + ": its " + std::to_string(Idx.size()) +
             " streams together: one of them cannot be walked (above)");
        TargetLargest();
        continue;
      }
      std::vector<UBenchConfig> Cs = WithCopies(cloneStreams(Ws));
      if (Cs.empty()) {
        std::string L;
        for (const Wanted &W : Ws)
          L += (L.empty() ? "" : ", ") + describe(W) + (W.op != "load" ? " (" + W.op + ")" : "");
        Note(Where + ": no uB has " + std::to_string(Ws.size()) + " streams like its " + L);
        TargetLargest();
      } else {
        Out.targets.push_back({Where, Program, P.id, P.threads, P.tpiUs, Cs.front()});
      }
      for (const UBenchConfig &C : Cs)
        Keep(C);
    }
  }
  for (auto &KV : Configs)
    Out.configs.push_back(KV.second);
  return Out;
}

} // namespace phaseprobe
