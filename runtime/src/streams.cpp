//===- streams.cpp - Memory-stream sampling and analysis ------------------===//
//
// Per-thread recording of sampled addresses and the exit-time merge into the
// streams of each phase. See streams.h for the model; the choices that decide
// the numbers are explained where they are made.
//
//===----------------------------------------------------------------------===//
#include "streams.h"
#include "rt_memory.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <new>
#include <unistd.h>

namespace __phaseprobe {
namespace streams {

//===----------------------------------------------------------------------===//
// Configuration
//===----------------------------------------------------------------------===//

static bool parseCount(const char *S, std::uint64_t Lo, std::uint64_t Hi,
                       std::uint64_t &Out) {
  if (!S || !*S || *S == '-' || *S == '+' || *S == ' ')
    return false;
  char *End = nullptr;
  errno = 0;
  unsigned long long V = std::strtoull(S, &End, 10);
  if (errno || *End || V < Lo || V > Hi)
    return false;
  Out = V;
  return true;
}

static bool equalsIgnoreCase(const char *A, const char *B) {
  for (; *A && *B; ++A, ++B)
    if ((*A | 0x20) != (*B | 0x20))
      return false;
  return *A == *B;
}

Config Config::fromEnvironment(char *Warning, std::size_t Cap) {
  Config C;
  if (Cap)
    Warning[0] = '\0';
  auto Warn = [&](const char *Var, const char *Val, const char *What) {
    if (Cap && !Warning[0])
      std::snprintf(Warning, Cap, "%s='%s' %s", Var, Val, What);
  };
  if (const char *S = std::getenv("PHASEPROBE_SAMPLING")) {
    if (equalsIgnoreCase(S, "off") || equalsIgnoreCase(S, "0") ||
        equalsIgnoreCase(S, "no") || equalsIgnoreCase(S, "false"))
      C.Enabled = false;
    else if (!(!*S || equalsIgnoreCase(S, "on") || equalsIgnoreCase(S, "1") ||
               equalsIgnoreCase(S, "yes") || equalsIgnoreCase(S, "true")))
      Warn("PHASEPROBE_SAMPLING", S, "is not on or off; sampling stays on");
  }
  long Pages = sysconf(_SC_PHYS_PAGES), PageSize = sysconf(_SC_PAGESIZE);
  if (Pages > 0 && PageSize > 0)
    C.FarGapBytes = std::uint64_t(Pages) * std::uint64_t(PageSize);
  std::uint64_t V;
  if (const char *S = std::getenv("PHASEPROBE_SAMPLE_PERIOD")) {
    if (parseCount(S, 1, 1ull << 40, V))
      C.Period = V;
    else
      Warn("PHASEPROBE_SAMPLE_PERIOD", S,
           "is not an integer in [1, 2^40]; using 1000");
  }
  if (const char *S = std::getenv("PHASEPROBE_SAMPLE_BURST")) {
    if (parseCount(S, 1, 1u << 20, V))
      C.Burst = std::uint32_t(V);
    else
      Warn("PHASEPROBE_SAMPLE_BURST", S,
           "is not an integer in [1, 1048576]; using 128");
  }
  if (const char *S = std::getenv("PHASEPROBE_SAMPLE_INVOCATIONS")) {
    if (parseCount(S, 1, 1ull << 40, V))
      C.Invocations = V;
    else
      Warn("PHASEPROBE_SAMPLE_INVOCATIONS", S,
           "is not an integer in [1, 2^40]; using 16");
  }
  return C;
}

//===----------------------------------------------------------------------===//
// ThreadSampler: the hot path
//===----------------------------------------------------------------------===//

void SiteRecord::countDiff(std::uint64_t D) {
  ++Diffs;
  SumAbsDiff += double(D);
  int Free = -1;
  for (int I = 0; I < HistSlots; ++I) {
    if (HistCount[I] && HistStride[I] == D) {
      ++HistCount[I];
      return;
    }
    if (!HistCount[I] && Free < 0)
      Free = I;
  }
  if (Free >= 0) {
    HistStride[Free] = D;
    HistCount[Free] = 1;
    return;
  }
  // Misra-Gries: a value that finds no slot decrements every slot, so only
  // strides frequent enough to matter survive.
  for (int I = 0; I < HistSlots; ++I)
    --HistCount[I];
}

/// Threads' bits in PageTouches, in the order they first sample (past 64
/// threads, bits are shared: such threads read as one).
static std::uint64_t nextSamplerBit() {
  static std::atomic<std::uint32_t> Count{0};
  return std::uint64_t(1) << (Count.fetch_add(1, std::memory_order_relaxed) % 64);
}

ThreadSampler::ThreadSampler(const Config &C, PageTouches &Touches)
    : Cfg(C), Touches(Touches), Bit(nextSamplerBit()), LoopPeriod(C.Period) {
  Table = static_cast<SiteRecord **>(rtCalloc(TableSize, sizeof(void *)));
}

bool ThreadSampler::beginInvocation(const std::int64_t *Root, std::int64_t *Next) {
  if (!Cfg.Enabled) {
    *Next = INT64_MAX; // never again for this root and thread
    return false;
  }
  // Counted, not timed: every thread of a team makes the same decision for
  // the same invocation, so its threads' samples can be compared (shared or
  // private) and its footprint is the whole team's.
  RootSampled *R = nullptr;
  for (std::size_t I = 0; I < NumRoots && !R; ++I)
    if (Roots[I].Root == Root)
      R = &Roots[I];
  if (!R && NumRoots < RootSlots) {
    R = &Roots[NumRoots++];
    R->Root = Root;
  }
  // The first FullInvocations are sampled as before the copies (a root run a
  // few times, like a uB kernel's timed repetitions, keeps its coverage);
  // then the gaps widen to Invocations. Without a slot (more roots than
  // RootSlots): the sparsest schedule.
  std::uint64_t K = R ? ++R->Invocations : FullInvocations + Cfg.Invocations;
  std::uint64_t StandsFor =
      K <= FullInvocations ? 1 : std::min<std::uint64_t>(K - FullInvocations + 1, Cfg.Invocations);
  *Next = std::int64_t(StandsFor); // at most Invocations <= 2^40
  LoopPeriod = std::max<std::uint64_t>(Cfg.Period / StandsFor, 1);
  return true;
}

ThreadSampler::~ThreadSampler() {
  for (SiteRecord *R = Records; R;) {
    SiteRecord *N = R->Next;
    R->~SiteRecord();
    rtFree(R);
    R = N;
  }
  rtFree(Table);
}

ThreadSampler::LoopClean *ThreadSampler::loopClean(const std::int64_t *Countdown) {
  std::uintptr_t H = reinterpret_cast<std::uintptr_t>(Countdown) * 0x9E3779B97F4A7C15ull;
  std::size_t I = std::size_t(H >> 40) & (LoopSlots - 1);
  for (int Probe = 0; Probe < 8; ++Probe, I = (I + 1) & (LoopSlots - 1)) {
    LoopClean &L = Loops[I];
    if (L.Loop == Countdown)
      return &L;
    if (!L.Loop) {
      L.Loop = Countdown;
      return &L;
    }
  }
  return nullptr; // crowded: this loop's bursts are priced per sample
}

SiteRecord *ThreadSampler::lookup(const SiteDesc *Site) {
  if (!Table)
    return nullptr;
  std::uintptr_t H = reinterpret_cast<std::uintptr_t>(Site) ^
                     (std::uintptr_t(Exec.Ctx.Phase) * 0x100000001b3ull);
  H ^= H >> 17;
  H *= 0x9E3779B97F4A7C15ull;
  std::size_t I = std::size_t(H >> 40) & (TableSize - 1);
  for (std::size_t Probe = 0; Probe < TableSize; ++Probe) {
    SiteRecord *R = Table[I];
    if (R && R->Site == Site && R->Phase == Exec.Ctx.Phase)
      return R;
    if (!R) {
      // First sample of this (phase, site) in this thread: the only
      // allocation, once per site.
      if (NumRecords >= TableSize * 3 / 4)
        return nullptr;
      void *Mem = rtCalloc(1, sizeof(SiteRecord));
      if (!Mem)
        return nullptr;
      R = new (Mem) SiteRecord();
      R->Phase = Exec.Ctx.Phase;
      R->Site = Site;
      R->Next = Records;
      Records = R;
      ++NumRecords;
      Table[I] = R;
      return R;
    }
    I = (I + 1) & (TableSize - 1);
  }
  return nullptr;
}

BurstCost &ThreadSampler::costOf(std::uint32_t Phase) {
  for (BurstCost &C : Costs)
    if (C.Phase == Phase)
      return C;
  BurstCost C;
  C.Phase = Phase;
  if (Costs.push(C))
    return Costs[Costs.Size - 1];
  static BurstCost Sink; // out of memory: count nowhere
  return Sink;
}

std::uint32_t ThreadSampler::beginBurst(const PhaseContext &C,
                                        const std::int64_t *Loop,
                                        std::int64_t *Next, std::uint64_t NowNs) {
  if (!Cfg.Enabled) {
    *Next = INT64_MAX; // never again for this loop and thread
    return 0;
  }
  std::int64_t Pause = std::int64_t(std::min<std::uint64_t>(Cfg.Period,
                                                            INT64_MAX));
  if (C.Phase == NoPhaseKey || (Active && (Clone || Controlled || HasOuter))) {
    // Outside every phase (serial code), or nested in a caller's loop that
    // is sampling or timing itself (or already suspended): look again after
    // a period.
    *Next = Pause;
    return 0;
  }
  if (Active) {
    // Inside a caller's loop whose burst is over: it waits for its end.
    Outer = Exec;
    HasOuter = true;
    TouchedBase = NumTouched;
    Active = false;
  }
  Exec.NestedOverNs = 0;
  Exec.CurLoop = loopClean(Loop);
  if (Exec.CurLoop && Exec.CurLoop->WantControl) {
    // A control: the plain loop, timed (see endExecution).
    Exec.CurLoop->WantControl = false;
    Active = Controlled = true;
    Exec.BurstStartNs = Exec.BurstStopNs = NowNs;
    *Next = Pause;
    return Control;
  }
  Active = Clone = true;
  if (Exec.Ctx.Phase != C.Phase)
    std::memset(Cache, 0, sizeof Cache); // cached records are per phase
  Exec.Ctx = C;
  Exec.Serial = ++Serials;
  NumTouched = TouchedBase;
  Exec.BurstStartNs = Exec.BurstStopNs = NowNs;
  Exec.BurstSamples = 0;
  Exec.BurstLen = Cfg.Burst;
  // Should the loop be left without reporting its end (longjmp, exit), the
  // loop still samples again after a period.
  *Next = Pause;
  return Exec.BurstLen;
}

void ThreadSampler::sample(const SiteDesc *Site, std::uintptr_t Addr) {
  if (!Clone)
    return;
  SiteRecord *&Slot =
      Cache[(reinterpret_cast<std::uintptr_t>(Site) >> 4) & (CacheSize - 1)];
  SiteRecord *R = Slot;
  if (!R || R->Site != Site) {
    R = lookup(Site);
    if (!R) {
      ++Dropped;
      return;
    }
    Slot = R;
  }
  if (R->ExecSerial != Exec.Serial) {
    if (NumTouched == MaxTouched || (HasOuter && R->ExecSerial == Outer.Serial)) {
      // (A site of the suspended execution: recursion. Its record is busy.)
      ++Dropped;
      return;
    }
    Touched[NumTouched++] = R;
    R->ExecSerial = Exec.Serial;
    R->First = R->Last = R->Min = R->Max = Addr;
    R->ExecSamples = 1;
    R->ExecStride = 0;
    R->ExecConsistent = true;
  } else {
    // The element just sampled, again, at a site of the loop around an
    // inner loop unrolled whole: the optimizer makes that access once
    // (LULESH's x8n[i3] in its 4-iteration loop).
    if (Addr == R->Last && (Site->Flags & SiteOuter))
      return;
    std::int64_t D = std::int64_t(Addr - R->Last);
    R->countDiff(std::uint64_t(D < 0 ? -D : D));
    if (R->ExecSamples == 1)
      R->ExecStride = D;
    else if (D != R->ExecStride)
      R->ExecConsistent = false;
    R->Last = Addr;
    if (Addr < R->Min)
      R->Min = Addr;
    if (Addr > R->Max)
      R->Max = Addr;
    ++R->ExecSamples;
  }
  // Consecutive samples of a site mostly stay on one page: one lookup per
  // page, then two bit tests.
  const std::uintptr_t Page = PageTouches::pageOf(Addr);
  if (R->TouchPage != Page) {
    R->Touch = Touches.find(R->Phase, Addr);
    R->TouchPage = Page;
    ++R->PageVisits;
    if (R->NumPages < SiteRecord::PageReservoir) {
      R->Pages[R->NumPages++] = Addr;
    } else {
      Random ^= Random << 13, Random ^= Random >> 7, Random ^= Random << 17;
      if (std::uint64_t J = Random % R->PageVisits; J < SiteRecord::PageReservoir)
        R->Pages[J] = Addr;
    }
  }
  if (R->Touch)
    PageTouches::mark(*R->Touch, Bit, Site->Flags & SiteStore);
  ++R->Samples;
  ++Exec.BurstSamples;
}

void ThreadSampler::pageReads(Vec<PageRead> &Out) const {
  for (const SiteRecord *R = Records; R; R = R->Next)
    for (std::uint32_t I = 0; I < R->NumPages; ++I)
      Out.push({R->Phase, R->Site, PageTouches::pageOf(R->Pages[I]), Bit,
                std::uint32_t(R->Pages[I] & ((std::uintptr_t(1) << PageTouches::PageShift) - 1))});
}

namespace {

struct SiteRange {
  SiteKey Key;
  std::uint64_t Invocation;
  std::uintptr_t Lo, Hi;
  std::size_t Thread;
};

} // namespace

Vec<SiteKey> interleavedSites(const ThreadSampler *const *All, std::size_t N) {
  // Extrapolated ends may overshoot a block's by a little; interleaved
  // spans overlap by whole rows of the other threads.
  constexpr std::uintptr_t Slack = std::uintptr_t(1) << PageTouches::PageShift;
  Vec<SiteRange> Ranges;
  for (std::size_t T = 0; T < N; ++T)
    for (const SiteRecord *R = All[T]->records(); R; R = R->Next) {
      if (!(R->Site->Flags & SiteStore) || !R->HasInv)
        continue;
      const SiteKey K{R->Phase, R->Site};
      R->eachRange([&](const SiteRecord::InvRange &E) {
        Ranges.push({K, E.Invocation, E.Lo, E.Hi, T});
      });
    }
  std::sort(Ranges.begin(), Ranges.end(), [](const SiteRange &A, const SiteRange &B) {
    if (!(A.Key == B.Key))
      return A.Key < B.Key;
    return A.Invocation != B.Invocation ? A.Invocation < B.Invocation : A.Lo < B.Lo;
  });
  Vec<SiteKey> Out;
  for (std::size_t I = 0; I < Ranges.Size;) {
    std::size_t J = I;
    // One invocation's ranges by address: another thread's beginning
    // before the farthest end seen so far overlaps it (blocks of a static
    // split only meet).
    std::uintptr_t End = Ranges[I].Hi;
    std::size_t EndThread = Ranges[I].Thread;
    bool Overlap = false;
    for (++J; J < Ranges.Size && Ranges[J].Key == Ranges[I].Key &&
              Ranges[J].Invocation == Ranges[I].Invocation;
         ++J) {
      Overlap |= Ranges[J].Thread != EndThread && Ranges[J].Lo + Slack < End;
      if (Ranges[J].Hi > End)
        End = Ranges[J].Hi, EndThread = Ranges[J].Thread;
    }
    if (Overlap && (!Out.Size || !(Out[Out.Size - 1] == Ranges[I].Key)))
      Out.push(Ranges[I].Key);
    I = J;
  }
  return Out;
}

void ThreadSampler::markWrittenRanges(PageTouches &T, const Vec<SiteKey> &Interleaved) const {
  Vec<SiteRecord::InvRange> Ranges;
  for (const SiteRecord *R = Records; R; R = R->Next) {
    if (!(R->Site->Flags & SiteStore) || !R->HasInv ||
        std::binary_search(Interleaved.begin(), Interleaved.end(), SiteKey{R->Phase, R->Site}))
      continue;
    // Every sampled invocation's ranges, merged where they overlap: the
    // same share again and again is one range, marked once.
    Ranges.clear();
    R->eachRange([&](const SiteRecord::InvRange &E) { Ranges.push(E); });
    std::sort(Ranges.begin(), Ranges.end(),
              [](const SiteRecord::InvRange &A, const SiteRecord::InvRange &B) {
                return A.Lo < B.Lo;
              });
    const std::uintptr_t Elem = std::max<std::uint32_t>(R->Site->ElemBytes, 1);
    for (std::size_t I = 0; I < Ranges.Size;) {
      std::uintptr_t Lo = Ranges[I].Lo, Hi = Ranges[I].Hi + Elem;
      for (++I; I < Ranges.Size && Ranges[I].Lo <= Hi; ++I)
        Hi = std::max(Hi, Ranges[I].Hi + Elem);
      T.markWritten(R->Phase, Lo, Hi, Bit);
    }
  }
}

void ThreadSampler::stopBurst(std::uint64_t NowNs) {
  if (!Clone)
    return;
  Clone = false;
  Exec.BurstStopNs = NowNs;
}

/// Distance between two ranges (0 when they overlap).
static std::uint64_t gapBetween(std::uintptr_t ALo, std::uintptr_t AHi,
                                std::uintptr_t BLo, std::uintptr_t BHi) {
  if (BLo > AHi)
    return BLo - AHi;
  if (ALo > BHi)
    return ALo - BHi;
  return 0;
}

/// Adds \p E to the clusters \p C (\p N of at most \p Max): merged into
/// every cluster nearer than \p Far, else a new cluster; when full, the two
/// closest clusters merge.
static void addCluster(SiteRecord::InvRange *C, int &N, int Max,
                       SiteRecord::InvRange E, std::uint64_t Far) {
  for (int I = 0; I < N;) {
    if (gapBetween(C[I].Lo, C[I].Hi, E.Lo, E.Hi) <= Far) {
      E.Lo = std::min(E.Lo, C[I].Lo);
      E.Hi = std::max(E.Hi, C[I].Hi);
      C[I] = C[--N]; // absorbed; E may now reach others
    } else {
      ++I;
    }
  }
  if (N == Max) {
    int BI = 0, BJ = 1;
    std::uint64_t Best = UINT64_MAX;
    for (int I = 0; I < N; ++I)
      for (int J = I + 1; J < N; ++J) {
        std::uint64_t G = gapBetween(C[I].Lo, C[I].Hi, C[J].Lo, C[J].Hi);
        if (G < Best)
          Best = G, BI = I, BJ = J;
      }
    C[BI].Lo = std::min(C[BI].Lo, C[BJ].Lo);
    C[BI].Hi = std::max(C[BI].Hi, C[BJ].Hi);
    C[BJ] = C[--N];
  }
  C[N++] = E;
}

std::uintptr_t ThreadSampler::clampToMapped(SiteRecord &R, std::uintptr_t End,
                                            double Execs) {
  if (!Cfg.IsMapped)
    return End;
  const std::uintptr_t Page = 4096;
  auto Known = [&](std::uintptr_t A) {
    return A / Page >= R.MappedLo && A / Page <= R.MappedHi;
  };
  auto Learn = [&](std::uintptr_t A) {
    if (R.MappedLo > R.MappedHi)
      R.MappedLo = R.MappedHi = A / Page;
    R.MappedLo = std::min(R.MappedLo, A / Page);
    R.MappedHi = std::max(R.MappedHi, A / Page);
  };
  if (Known(End) && Known(R.First))
    return End;
  if (Cfg.IsMapped(End)) {
    // Both ends mapped: taken as one allocation in between.
    Learn(R.First);
    Learn(End);
    return End;
  }
  // Not mapped: find the furthest mapped element of the walk (the mapping
  // is taken as contiguous from the first address).
  double Good = 0, Bad = Execs - 1;
  while (Bad - Good > 1) {
    double Mid = std::floor((Good + Bad) / 2);
    std::uintptr_t A =
        std::uintptr_t(double(R.First) + double(R.ExecStride) * Mid);
    (Cfg.IsMapped(A) ? Good : Bad) = Mid;
  }
  return std::uintptr_t(double(R.First) + double(R.ExecStride) * Good);
}

void ThreadSampler::foldExecution(SiteRecord &R, std::uint64_t Backedges) {
  std::uintptr_t Lo = R.Min, Hi = R.Max;
  // The burst ran B = min(Backedges, BurstLen) iterations of the execution.
  // A site that kept one stride through the burst is assumed to keep it for
  // the rest: its executions scale with the iterations, and its last address
  // follows from the first, the stride and that count. Anything irregular
  // keeps what was seen (random streams converge over many bursts).
  std::uint64_t B = std::min<std::uint64_t>(Backedges, Exec.BurstLen);
  if (R.ExecSamples >= 2 && R.ExecConsistent && B > 0 && Backedges > B) {
    double Execs =
        std::round(double(R.ExecSamples) * double(Backedges) / double(B));
    double End = double(R.First) + double(R.ExecStride) * (Execs - 1);
    if (End > 0 && End < 1.8e19) {
      std::uintptr_t E = clampToMapped(R, std::uintptr_t(End), Execs);
      Lo = std::min(Lo, E);
      Hi = std::max(Hi, E);
    }
  }
  if (!R.HasInv || R.CurInv != Exec.Ctx.Invocation) {
    for (int I = 0; R.HasInv && I < R.NumCur; ++I)
      if (R.Done.Size < MaxInvocations * SiteRecord::MaxClusters)
        R.Done.push(R.Cur[I]);
    SiteRecord::InvRange Half[2][SiteRecord::MaxClusters];
    int NumHalf[2] = {};
    R.halves(Half, NumHalf, Cfg.FarGapBytes);
    for (int H = 0; H < 2; ++H)
      for (int I = 0; I < NumHalf[H]; ++I)
        if (R.HalfDone[H].Size < MaxInvocations * SiteRecord::MaxClusters)
          R.HalfDone[H].push(Half[H][I]);
    for (int B = 0; B < SiteRecord::Buckets; ++B)
      R.NumBucket[B] = 0;
    R.InvExecs = 0;
    R.BucketShift = 0;
    R.HasInv = true;
    R.CurInv = Exec.Ctx.Invocation;
    R.NumCur = 0;
  }
  const SiteRecord::InvRange E{Exec.Ctx.Invocation, Lo, Hi};
  addCluster(R.Cur, R.NumCur, SiteRecord::MaxClusters, E, Cfg.FarGapBytes);
  if ((R.InvExecs >> R.BucketShift) >= std::uint64_t(SiteRecord::Buckets)) {
    // Full: neighbours merge, each bucket now holds twice the executions.
    for (int B = 0; B < SiteRecord::Buckets / 2; ++B) {
      SiteRecord::InvRange M[SiteRecord::MaxClusters];
      int N = 0;
      for (int S = 2 * B; S <= 2 * B + 1; ++S)
        for (int K = 0; K < R.NumBucket[S]; ++K)
          addCluster(M, N, SiteRecord::MaxClusters, R.Bucket[S][K], Cfg.FarGapBytes);
      std::memcpy(R.Bucket[B], M, sizeof M);
      R.NumBucket[B] = N;
    }
    for (int B = SiteRecord::Buckets / 2; B < SiteRecord::Buckets; ++B)
      R.NumBucket[B] = 0;
    ++R.BucketShift;
  }
  int Slot = int(R.InvExecs >> R.BucketShift);
  addCluster(R.Bucket[Slot], R.NumBucket[Slot], SiteRecord::MaxClusters, E, Cfg.FarGapBytes);
  ++R.InvExecs;
}

void SiteRecord::halves(InvRange Out[2][MaxClusters], int N[2],
                        std::uint64_t Far) const {
  N[0] = N[1] = 0;
  if (InvExecs < 2)
    return;
  // Buckets [0, Used) hold the executions; the first half of them (by
  // bucket: the middle one, if any, counts as the second) is the first.
  int Used = int(((InvExecs - 1) >> BucketShift) + 1);
  for (int B = 0; B < Used; ++B)
    for (int K = 0; K < NumBucket[B]; ++K)
      addCluster(Out[B < Used / 2 ? 0 : 1], N[B < Used / 2 ? 0 : 1], MaxClusters,
                 Bucket[B][K], Far);
}

std::uint64_t ThreadSampler::endExecution(std::uint64_t Backedges,
                                          std::int64_t *Next,
                                          std::uint64_t NowNs) {
  if (!Active)
    return 0;
  // The trip count is the difference of the function's iteration counter at
  // loop exit and entry; a probe inside the loop body flushes (zeroes) that
  // counter, which shows as a negative count: then only the burst is known.
  if (std::int64_t(Backedges) < 0)
    Backedges = 0;
  if (Controlled) {
    Controlled = Active = false;
    if (LoopClean *L = Exec.CurLoop; L && Backedges) {
      ++L->Controls;
      double Ns = double(NowNs - Exec.BurstStartNs) / double(Backedges);
      L->NsPerIter = L->NsPerIter > 0 ? 0.75 * L->NsPerIter + 0.25 * Ns : Ns;
    }
    // The pause its sampled execution earned, less this execution: the
    // loop's sampled executions are those it would have without controls.
    *Next = Exec.CurLoop ? std::max<std::int64_t>(Exec.CurLoop->PendingPause - 1, 1) : 1;
    resumeOuter(0);
    return 0;
  }
  bool WholeInBurst = Clone;
  if (Clone)
    stopBurst(NowNs);
  std::uint64_t B = std::min<std::uint64_t>(Backedges, Exec.BurstLen);
  // Aim at one instrumented iteration in LoopPeriod: an execution of T
  // iterations that ran S of them instrumented earns a pause of S*period/T
  // executions. Long loops are thus sampled at every execution (a burst is a
  // tiny part of them, and a single huge loop must not be missed), short
  // ones rarely.
  double S = double(B) + 1;
  double T = double(Backedges) + 1;
  double NextPause = std::ceil(S * double(LoopPeriod) / T);
  std::int64_t Pause = std::int64_t(std::min(std::max(NextPause, 1.0), 9.0e18));
  // What the burst's samples stand for: the execution (its B sampled
  // iterations of Backedges) and the Pause executions until the next burst
  // (the control among them), in the sampled invocations of the loop's
  // root: accesses in sampling copies, as the phase's iterations in them
  // that analyzePhase divides by. Without a trip count the burst stands for
  // nothing.
  double PerSample = B ? double(Backedges) / double(B) : 0.0; // in the execution
  double Weight = double(Pause) * PerSample;
  for (std::size_t I = TouchedBase; I < NumTouched; ++I) {
    SiteRecord &R = *Touched[I];
    R.Accesses += double(R.ExecSamples) * Weight;
    if (B) {
      R.Window.AccSum += double(R.ExecSamples) * PerSample;
      ++R.Window.Execs;
      // The previous sampled execution is the newest start kept.
      const bool Paired = R.NumStarts > 0 && R.PrevExecInv == Exec.Ctx.Invocation;
      if (Paired) {
        ++R.Window.Pairs;
        R.Window.GapSum += double(R.PrevExecPause);
        R.Window.Repeats += R.First == R.Starts[R.NumStarts - 1].Addr;
      } else {
        R.NumStarts = 0;
      }
      // Which kept start's walk this execution continues (the pace it goes
      // on at): the one that continues, else the nearest (a walk's first
      // pairs, or another array's turn).
      int From = -1;
      bool Known = false, InOrder = false;
      double Nearest = 0;
      for (int I = 0; I < R.NumStarts; ++I) {
        SiteRecord::ExecStart &S = R.Starts[I];
        S.Since += R.PrevExecPause;
        const double D = std::fabs(double(R.First) - double(S.Addr));
        if (S.HasPace) {
          Known = true;
          if (!InOrder && continuesWalk(S.Addr, R.First, S.Since, S.Pace, S.Extent))
            InOrder = true, From = I;
        }
        if (!InOrder && (From < 0 || D < Nearest))
          From = I, Nearest = D;
      }
      if (Known) {
        ++R.Window.WalkPairs;
        R.Window.Jumps += !InOrder;
      }
      SiteRecord::ExecStart New{R.First,
                                double(R.Max - R.Min) * PerSample + double(R.Site->ElemBytes), 0,
                                0, From >= 0};
      if (From >= 0)
        New.Pace = (double(R.First) - double(R.Starts[From].Addr)) / double(R.Starts[From].Since);
      // The newest of the few kept.
      if (R.NumStarts == SiteRecord::StartMemory) {
        std::memmove(R.Starts, R.Starts + 1, sizeof R.Starts - sizeof R.Starts[0]);
        --R.NumStarts;
      }
      R.Starts[R.NumStarts++] = New;
      R.PrevExecInv = Exec.Ctx.Invocation;
      R.PrevExecPause = std::uint64_t(Pause);
    }
    foldExecution(R, Backedges);
  }
  NumTouched = TouchedBase;
  Active = false;

  // Sampling overhead. When a long plain remainder followed the burst, it
  // gives this execution's clean time per iteration, and the burst's excess
  // over it is the overhead; that also teaches the cost of one sample.
  // Otherwise (the loop ran whole, or nearly, in its clone) the clean time
  // per iteration comes from control executions of the same loop: the plain
  // loop, timed, right after a sampled one. A clone is neither vectorized
  // nor unrolled, so pricing only its samples left most of its cost in the
  // phase (NPB BT class W: 0.02 s removed of 0.3 s). Until a control has
  // run, the learnt cost per sample prices the burst.
  double Burst = double(Exec.BurstStopNs - Exec.BurstStartNs);
  double Over;
  if (!WholeInBurst && Backedges >= 2 * B && B > 0) {
    double Plain = double(NowNs - Exec.BurstStopNs) - double(Exec.NestedOverNs);
    double Clean = std::max(0.0, Plain) / double(Backedges - B);
    Over = std::max(0.0, Burst - Clean * double(B));
    if (Exec.BurstSamples)
      NsPerSample = 0.875 * NsPerSample + 0.125 * (Over / Exec.BurstSamples);
  } else {
    double InBurst = double(WholeInBurst ? Backedges : B);
    if (Exec.CurLoop && Exec.CurLoop->NsPerIter > 0)
      Over = std::min(Burst, std::max(0.0, Burst - Exec.CurLoop->NsPerIter * InBurst));
    else
      Over = std::min(Burst, NsPerSample * double(Exec.BurstSamples));
    // Four controls teach the clean time, then one in 16 bursts keeps it
    // current; each is the execution right after a sampled one.
    if (Exec.CurLoop && (Exec.CurLoop->Controls < 4 || ++Exec.CurLoop->Priced % 16 == 0))
      Exec.CurLoop->WantControl = true;
  }
  BurstCost &C = costOf(Exec.Ctx.Phase);
  ++C.Bursts;
  C.Iterations += B;
  C.WeightedIterations += double(B) * Weight;
  C.Samples += Exec.BurstSamples;
  C.Seconds += Burst * 1e-9;
  C.OverheadSeconds += Over * 1e-9;

  if (Exec.CurLoop && Exec.CurLoop->WantControl) {
    // The control comes next and hands the pause on (see the control's end).
    Exec.CurLoop->PendingPause = Pause;
    Pause = 1;
  }
  *Next = Pause; // written once, never read: the plugin declares it so
  resumeOuter(std::uint64_t(Over));
  return std::uint64_t(Over);
}

void ThreadSampler::resumeOuter(std::uint64_t NestedOver) {
  if (!HasOuter)
    return;
  HasOuter = false;
  if (Exec.Ctx.Phase != Outer.Ctx.Phase)
    std::memset(Cache, 0, sizeof Cache); // cached records are per phase
  Exec = Outer;
  Exec.NestedOverNs += NestedOver;
  Active = true;
  Clone = Controlled = false;
  TouchedBase = 0;
}

//===----------------------------------------------------------------------===//
// The merge: threads -> sites -> streams
//===----------------------------------------------------------------------===//

namespace {

struct Range {
  std::uintptr_t Lo, Hi;
};
struct InvEntry {
  std::uint64_t Inv;
  std::uintptr_t Lo, Hi;
  std::size_t Thread;
};
struct StrideCount {
  std::uint64_t Stride, Count;
};

/// A stream being built: one site, or several merged.
struct Candidate {
  std::uint32_t Elem = 0;
  bool HasLoad = false, HasStore = false;
  std::uint64_t Samples = 0;
  double HandoverKnown = 0, Handed = 0; ///< its sites' (SiteHandover)
  double HandoverRounds = 0;            ///< their Rounds, weighted by Known
  double LoadAccesses = 0, StoreAccesses = 0; ///< estimated, in sampling copies
  WindowCounts Window; ///< its sites', every thread's
  Vec<StrideCount> Hist; ///< sorted by stride, unique
  std::uint64_t Diffs = 0;
  double SumAbsDiff = 0;
  Vec<InvEntry> InvUnion; ///< sorted by invocation: all threads' union
  bool Shared = false;
  Vec<const char *> Sites;
  // Derived:
  double Footprint = 0; ///< bytes
  std::uint64_t Stride = 0, Second = 0;
  double Share = 0;
  bool Random = false;
  Range Overall{UINTPTR_MAX, 0};
};

/// Sorts and sums equal strides.
void normalizeHist(Vec<StrideCount> &H) {
  std::sort(H.begin(), H.end(), [](const StrideCount &A,
                                   const StrideCount &B) {
    return A.Stride < B.Stride;
  });
  std::size_t Out = 0;
  for (std::size_t I = 0; I < H.Size; ++I) {
    if (Out && H[Out - 1].Stride == H[I].Stride)
      H[Out - 1].Count += H[I].Count;
    else
      H[Out++] = H[I];
  }
  H.Size = Out;
}

void deriveStride(Candidate &C) {
  std::uint64_t Best = 0, BestN = 0, Sec = 0, SecN = 0;
  for (const StrideCount &E : C.Hist) {
    if (E.Count > BestN) {
      Sec = Best, SecN = BestN;
      Best = E.Stride, BestN = E.Count;
    } else if (E.Count > SecN) {
      Sec = E.Stride, SecN = E.Count;
    }
  }
  C.Share = C.Diffs ? double(BestN) / double(C.Diffs) : 0;
  // A stride that holds under half of the differences is no stride: report
  // the mean jump instead (a random stream's typical distance).
  C.Random = C.Diffs >= 8 && C.Share < 0.5;
  C.Stride = C.Random ? std::uint64_t(std::llround(C.SumAbsDiff /
                                                   double(C.Diffs)))
                      : Best;
  // A second stride is worth showing when it holds 5% of the differences.
  C.Second = (!C.Random && SecN && SecN * 20 >= C.Diffs) ? Sec : 0;
}

bool byInvThenLo(const InvEntry &A, const InvEntry &B) {
  return A.Inv != B.Inv ? A.Inv < B.Inv : A.Lo < B.Lo;
}

/// Appends to \p Out the union of [B, E) (one invocation, sorted by Lo),
/// joining ranges less than \p Gap apart.
void unionOf(const InvEntry *B, const InvEntry *E, std::uint64_t Gap,
             Vec<InvEntry> &Out) {
  while (B != E) {
    InvEntry U = *B++;
    while (B != E && B->Lo <= U.Hi + Gap)
      U.Hi = std::max(U.Hi, (B++)->Hi);
    Out.push(U);
  }
}

/// A range that several threads' ranges were united into.
constexpr std::size_t ManyThreads = SIZE_MAX;

bool byThreadThenLo(const InvEntry &A, const InvEntry &B) {
  return A.Thread != B.Thread ? A.Thread < B.Thread : A.Lo < B.Lo;
}

/// What normalizeInvocations needs of sites merged into one stream.
struct SiteGaps {
  double Accesses; ///< the sites', in all the sampled invocations
  double Step;     ///< bytes an access stands for
};

/// Sorts \p V by invocation and address and unites each invocation's ranges
/// that are one allocation. One thread's ranges closer than \p Far are: the
/// sampled pieces of an array lie far apart in a long loop. Ranges of two
/// threads are only when the gap between them is no wider than the data the
/// two threads touch around them over the whole phase: the threads' slices
/// of one array, but not two threads' stack arrays, tiny and gigabytes apart
/// (XSBench's per-lookup arrays measured 14 GB with one rule for both).
///
/// Ranges of several sites merged into one stream (\p Sites) come each
/// site's already united, so a gap between them is also no wider than the
/// data they hold (a plane and its neighbour, rhs[i] and rhs[i+1], whose
/// union over the invocations is the array the sweep walks) or than the
/// data the sites touch in an invocation that its samples do not show (the
/// pieces of a short row loop sampled out of many). Wider gaps are other
/// allocations: HPCCG's waxpby reads x and y at two sites bound to other
/// vectors each call, every element seen, and bridging them as one site's
/// pieces spanned the matrix between them (571 MB for three 12 MiB vectors).
void normalizeInvocations(Vec<InvEntry> &V, std::uint64_t Far,
                          const SiteGaps *Sites = nullptr) {
  // Each thread's extent: its ranges of every invocation, united within Far
  // (sorted by thread and address, as unionOf leaves each thread's).
  Vec<InvEntry> ByThread, Ext;
  for (const InvEntry &E : V)
    ByThread.push(E);
  std::sort(ByThread.begin(), ByThread.end(), byThreadThenLo);
  for (std::size_t I = 0; I < ByThread.Size;) {
    std::size_t J = I;
    while (J < ByThread.Size && ByThread[J].Thread == ByThread[I].Thread)
      ++J;
    unionOf(&ByThread[I], &ByThread[J - 1] + 1, Far, Ext);
    I = J;
  }
  auto Reach = [&](const InvEntry &E) -> std::uint64_t {
    const InvEntry *P = std::upper_bound(
        Ext.begin(), Ext.end(), E, byThreadThenLo); // first past E
    if (P == Ext.begin() || (P - 1)->Thread != E.Thread)
      return E.Hi - E.Lo;
    return (P - 1)->Hi - (P - 1)->Lo;
  };

  std::sort(V.begin(), V.end(), byInvThenLo);
  // The bytes the sites touch in a sampled invocation, on average.
  double Touched = 0;
  if (Sites) {
    std::size_t Invocations = 0;
    for (std::size_t I = 0; I < V.Size; ++I)
      Invocations += I == 0 || V[I - 1].Inv != V[I].Inv;
    Touched = Invocations ? Sites->Accesses / double(Invocations) * Sites->Step : 0;
  }
  std::size_t Out = 0;
  std::uint64_t UReach = 0;
  double Unseen = 0;
  for (std::size_t I = 0; I < V.Size; ++I) {
    const InvEntry E = V[I];
    std::uint64_t R = Reach(E);
    if (Sites && (!Out || V[Out - 1].Inv != E.Inv)) {
      double Seen = 0;
      for (std::size_t J = I; J < V.Size && V[J].Inv == E.Inv; ++J)
        Seen += double(V[J].Hi - V[J].Lo);
      Unseen = std::max(0.0, Touched - Seen);
    }
    if (Out && V[Out - 1].Inv == E.Inv) {
      InvEntry &U = V[Out - 1];
      std::uint64_t Gap = E.Lo > U.Hi ? E.Lo - U.Hi : 0;
      std::uint64_t Allowed =
          U.Thread == E.Thread ? Far : std::min<std::uint64_t>(Far, UReach + R);
      if (Sites)
        Allowed = std::min<std::uint64_t>(
            Allowed, std::uint64_t(std::max(
                         Unseen, double((U.Hi - U.Lo) + (E.Hi - E.Lo)) + Sites->Step)));
      if (Gap <= Allowed) {
        U.Hi = std::max(U.Hi, E.Hi);
        if (U.Thread != E.Thread)
          U.Thread = ManyThreads;
        UReach = std::max({UReach, R, std::uint64_t(U.Hi - U.Lo)});
        continue;
      }
    }
    V[Out++] = E;
    UReach = R;
  }
  V.Size = Out;
}

/// The footprint is "one invocation's span", but one invocation sees only a
/// few bursts when its loop executions are short and many (a row loop inside
/// a worksharing loop). Ranges of different invocations that overlap are the
/// same data visited again, so they are pooled; an invocation's footprint is
/// the span of the pools it touches (summed when a site walks several
/// allocations), and the largest over invocations is the stream's. Buffers
/// swapped between time steps stay apart: each invocation touches one.
void deriveFootprint(Candidate &C) {
  C.Footprint = 0;
  C.Overall = Range{UINTPTR_MAX, 0};
  Vec<Range> Pools;
  for (const InvEntry &E : C.InvUnion) {
    Pools.push({E.Lo, E.Hi});
    C.Overall.Lo = std::min(C.Overall.Lo, E.Lo);
    C.Overall.Hi = std::max(C.Overall.Hi, E.Hi);
  }
  std::sort(Pools.begin(), Pools.end(),
            [](const Range &A, const Range &B) { return A.Lo < B.Lo; });
  std::size_t N = 0;
  for (std::size_t I = 0; I < Pools.Size;) {
    Range P = Pools[I++];
    while (I < Pools.Size && Pools[I].Lo <= P.Hi)
      P.Hi = std::max(P.Hi, Pools[I++].Hi);
    Pools[N++] = P;
  }
  Pools.Size = N;
  for (std::size_t I = 0; I < C.InvUnion.Size;) {
    std::size_t J = I;
    double Sum = 0;
    std::size_t Last = SIZE_MAX;
    for (; J < C.InvUnion.Size && C.InvUnion[J].Inv == C.InvUnion[I].Inv; ++J) {
      // Ranges of one invocation come sorted by address: equal pools are
      // consecutive.
      const Range *P = std::upper_bound(
          Pools.begin(), Pools.end(), C.InvUnion[J].Lo,
          [](std::uintptr_t A, const Range &R) { return A < R.Lo; });
      std::size_t K = std::size_t(P - Pools.begin()) - 1;
      if (K != Last)
        Sum += double(Pools[K].Hi - Pools[K].Lo) + C.Elem;
      Last = K;
    }
    C.Footprint = std::max(C.Footprint, Sum);
    I = J;
  }
}

/// How much the threads' ranges coincide, per invocation with at least two
/// threads sampled: 1 when every thread spans the same memory, 0 when the
/// spans are disjoint; averaged. \p Per is sorted by invocation and address.
/// Returns -1 without evidence.
double sharedScore(const Vec<InvEntry> &Per, std::uint32_t Elem) {
  double Sum = 0;
  int N = 0;
  for (std::size_t I = 0; I < Per.Size;) {
    std::size_t J = I;
    double Spans = 0;
    std::size_t Threads[64];
    int K = 0;
    for (; J < Per.Size && Per[J].Inv == Per[I].Inv; ++J) {
      Spans += double(Per[J].Hi - Per[J].Lo) + Elem;
      bool Seen = false;
      for (int T = 0; T < K; ++T)
        Seen |= Threads[T] == Per[J].Thread;
      if (!Seen && K < 64)
        Threads[K++] = Per[J].Thread;
    }
    if (K >= 2) {
      Vec<InvEntry> U;
      unionOf(&Per[I], &Per[J - 1] + 1, Elem, U);
      double Union = 0;
      for (const InvEntry &E : U)
        Union += double(E.Hi - E.Lo) + Elem;
      double Overlap = std::max(0.0, (Spans - Union) / Spans);
      Sum += std::min(1.0, Overlap / ((K - 1.0) / K));
      ++N;
    }
    I = J;
  }
  return N ? Sum / N : -1;
}

bool overlapsMostly(Range A, Range B) {
  std::uintptr_t Lo = std::max(A.Lo, B.Lo), Hi = std::min(A.Hi, B.Hi);
  if (Lo > Hi)
    return false;
  double Inter = double(Hi - Lo);
  double Smaller = double(std::min(A.Hi - A.Lo, B.Hi - B.Lo));
  return Inter >= 0.5 * Smaller;
}

/// Whether two sites' candidates walk the same array: their extents over the
/// phase mostly coincide (overlapsMostly) and so do their ranges call by
/// call, or one lies a fixed distance from the other (rhs[i] and rhs[i+1]
/// of a sweep, a plane apart in every invocation), in most invocations both
/// were sampled in. The extents alone are not enough where a helper is
/// called on other arrays each time: HPCCG's waxpby writes w, now x, now r,
/// now p, and reads x and y, so all three sites span the same vectors over
/// the run while each call walks two or three different ones (w is x in two
/// calls of three, y is w in one). Without a common invocation, the extents
/// decide.
bool sameArray(const Candidate &A, const Candidate &B) {
  if (!overlapsMostly(A.Overall, B.Overall))
    return false;
  const Vec<InvEntry> &U = A.InvUnion, &V = B.InvUnion;
  const double Elem = double(std::max(A.Elem, B.Elem));
  std::size_t Common = 0, Agree = 0;
  Vec<std::int64_t> Offsets;
  for (std::size_t I = 0, J = 0; I < U.Size && J < V.Size;) {
    if (U[I].Inv != V[J].Inv) {
      (U[I].Inv < V[J].Inv ? I : J) += 1;
      continue;
    }
    const std::uint64_t Inv = U[I].Inv;
    std::size_t IE = I, JE = J;
    double LenU = 0, LenV = 0, Inter = 0;
    for (; IE < U.Size && U[IE].Inv == Inv; ++IE)
      LenU += double(U[IE].Hi - U[IE].Lo) + Elem;
    for (; JE < V.Size && V[JE].Inv == Inv; ++JE)
      LenV += double(V[JE].Hi - V[JE].Lo) + Elem;
    // Each side's ranges are sorted by address and disjoint.
    for (std::size_t P = I, Q = J; P < IE && Q < JE;) {
      double Lo = double(std::max(U[P].Lo, V[Q].Lo));
      double Hi = double(std::min(U[P].Hi, V[Q].Hi)) + Elem;
      Inter += std::max(0.0, Hi - Lo);
      (U[P].Hi < V[Q].Hi ? P : Q) += 1;
    }
    ++Common;
    Agree += Inter >= 0.5 * std::min(LenU, LenV);
    Offsets.push(std::int64_t(V[J].Lo - U[I].Lo));
    I = IE, J = JE;
  }
  if (!Common || 2 * Agree >= Common)
    return true;
  std::sort(Offsets.begin(), Offsets.end());
  std::size_t Run = 0, Most = 0;
  for (std::size_t K = 0; K < Offsets.Size; ++K) {
    Run = K && Offsets[K] == Offsets[K - 1] ? Run + 1 : 1;
    Most = std::max(Most, Run);
  }
  return 2 * Most >= Common;
}

bool siteLess(const char *A, const char *B) { return std::strcmp(A, B) < 0; }

struct ThreadRecord {
  const SiteRecord *R;
  std::size_t Thread;
};

/// The ranges of \p Recs split by half share (SiteRecord::HalfDone and the
/// current invocation's halves), each thread's halves two threads of their
/// own, sorted as sharedScore wants.
void halfShares(const ThreadRecord *Recs, std::size_t N, std::uint64_t Far,
                Vec<InvEntry> &Out) {
  for (std::size_t I = 0; I < N; ++I) {
    const SiteRecord &R = *Recs[I].R;
    SiteRecord::InvRange Cur[2][SiteRecord::MaxClusters];
    int NumCur[2];
    R.halves(Cur, NumCur, Far);
    for (std::size_t H = 0; H < 2; ++H) {
      std::size_t Thread = 2 * Recs[I].Thread + H;
      for (const SiteRecord::InvRange &E : R.HalfDone[H])
        Out.push({E.Invocation, E.Lo, E.Hi, Thread});
      for (int K = 0; K < NumCur[H]; ++K)
        Out.push({R.CurInv, Cur[H][K].Lo, Cur[H][K].Hi, Thread});
    }
  }
  std::sort(Out.begin(), Out.end(), byInvThenLo);
}

/// Builds the candidate of one site from its records (one per thread).
bool buildCandidate(const ThreadRecord *Recs, std::size_t N, std::uint64_t Far,
                    bool SplitsIterations, Candidate &C) {
  const SiteDesc *D = Recs[0].R->Site;
  C.Elem = D->ElemBytes ? D->ElemBytes : 1;
  (D->Flags & SiteStore ? C.HasStore : C.HasLoad) = true;
  Vec<InvEntry> Per;
  for (std::size_t I = 0; I < N; ++I) {
    const SiteRecord &R = *Recs[I].R;
    C.Samples += R.Samples;
    (D->Flags & SiteStore ? C.StoreAccesses : C.LoadAccesses) += R.Accesses;
    C.Window += R.Window;
    C.Diffs += R.Diffs;
    C.SumAbsDiff += R.SumAbsDiff;
    for (int S = 0; S < SiteRecord::HistSlots; ++S)
      if (R.HistCount[S])
        C.Hist.push({R.HistStride[S], R.HistCount[S]});
    R.eachRange([&](const SiteRecord::InvRange &E) {
      Per.push({E.Invocation, E.Lo, E.Hi, Recs[I].Thread});
    });
  }
  normalizeHist(C.Hist);
  std::sort(Per.begin(), Per.end(), byInvThenLo);
  for (const InvEntry &E : Per)
    C.InvUnion.push(E);
  normalizeInvocations(C.InvUnion, Far);
  // One address in every invocation: a scalar the optimizer keeps in a
  // register, not a stream.
  bool Scalar = true;
  for (std::size_t I = 0; I < C.InvUnion.Size; ++I)
    Scalar &= C.InvUnion[I].Lo == C.InvUnion[I].Hi &&
              (I == 0 || C.InvUnion[I - 1].Inv != C.InvUnion[I].Inv);
  if (Scalar)
    return false;
  double Score = sharedScore(Per, C.Elem);
  if (Score < 0 && SplitsIterations) {
    // No invocation with two threads sampled (one thread ran it): the
    // halves of the iteration space a team would split.
    Vec<InvEntry> Halves;
    halfShares(Recs, N, Far, Halves);
    Score = sharedScore(Halves, C.Elem);
  }
  C.Shared = Score >= 0.5;
  C.Sites.push(D->Loc ? D->Loc : "?");
  deriveStride(C);
  deriveFootprint(C);
  return true;
}

void mergeInto(Candidate &Into, Candidate &C, std::uint64_t Far) {
  Into.HasLoad |= C.HasLoad;
  Into.HasStore |= C.HasStore;
  Into.Samples += C.Samples;
  Into.HandoverKnown += C.HandoverKnown;
  Into.Handed += C.Handed;
  Into.HandoverRounds += C.HandoverRounds;
  Into.LoadAccesses += C.LoadAccesses;
  Into.StoreAccesses += C.StoreAccesses;
  Into.Window += C.Window;
  for (const StrideCount &E : C.Hist)
    Into.Hist.push(E);
  normalizeHist(Into.Hist);
  Into.Diffs += C.Diffs;
  Into.SumAbsDiff += C.SumAbsDiff;
  for (const InvEntry &E : C.InvUnion)
    Into.InvUnion.push(E);
  // A load and a store of one element are one touch (as AccessesPerIter).
  deriveStride(Into);
  const SiteGaps Sites{std::max(Into.LoadAccesses, Into.StoreAccesses),
                       double(std::max<std::uint64_t>(Into.Elem, Into.Stride))};
  normalizeInvocations(Into.InvUnion, Far, &Sites);
  for (const char *L : C.Sites) {
    bool Dup = false;
    for (const char *M : Into.Sites)
      Dup |= std::strcmp(L, M) == 0;
    if (!Dup)
      Into.Sites.push(L);
  }
  deriveStride(Into);
  deriveFootprint(Into);
}

/// The window one execution of a stream's sites walks (its accesses) and
/// for how many consecutive executions it is walked (StreamResult), from
/// its counts \p W. Few pairs are no evidence; under half of them repeating
/// is no reuse at the sampling's distance (such windows may still repeat a
/// few times, unseen).
void windowReuse(const WindowCounts &W, double &Accesses, double &Repeats) {
  constexpr std::uint64_t MinPairs = 8;
  Accesses = W.Execs ? W.AccSum / double(W.Execs) : 0;
  Repeats = 0;
  if (W.Pairs < MinPairs || 2 * W.Repeats < W.Pairs)
    return;
  // A window kept for R executions changes between two executions G apart
  // with probability G / R: R = mean gap / share changed = GapSum / changes.
  // No change seen in all the pairs: at least all their executions.
  double Changed = double(W.Pairs - W.Repeats);
  Repeats = Changed > 0 ? W.GapSum / Changed : W.GapSum + 1;
  if (Repeats < 2)
    Repeats = 0;
}

/// The share of a stream's pairs of sampled executions (with a known pace)
/// whose second start jumped (WindowCounts::Jumps), or -1 where few pairs
/// say nothing.
double jumpShare(const WindowCounts &W) {
  constexpr std::uint64_t MinPairs = 8;
  return W.WalkPairs < MinPairs ? -1.0 : double(W.Jumps) / double(W.WalkPairs);
}

} // namespace

Vec<StreamResult> analyzePhase(std::uint32_t Phase,
                               const ThreadSampler *const *Threads,
                               std::size_t NumThreads, double L1dKiB,
                               std::uint64_t Far, double IterationsInCopies,
                               bool SplitsIterations,
                               const Vec<SiteHandover> *Handovers) {
  // 1. The phase's records of all threads, grouped by site.
  Vec<ThreadRecord> Recs;
  for (std::size_t T = 0; T < NumThreads; ++T)
    for (const SiteRecord *R = Threads[T]->records(); R; R = R->Next)
      if (R->Phase == Phase && R->HasInv)
        Recs.push({R, T});
  std::sort(Recs.begin(), Recs.end(),
            [](const ThreadRecord &A, const ThreadRecord &B) {
              return A.R->Site != B.R->Site ? A.R->Site < B.R->Site
                                            : A.Thread < B.Thread;
            });

  // 2. One candidate per site, largest footprint first.
  Candidate *Cands = static_cast<Candidate *>(
      rtCalloc(Recs.Size ? Recs.Size : 1, sizeof(Candidate)));
  std::size_t NumCands = 0;
  for (std::size_t I = 0; Cands && I < Recs.Size;) {
    std::size_t J = I;
    while (J < Recs.Size && Recs[J].R->Site == Recs[I].R->Site)
      ++J;
    Candidate *C = new (&Cands[NumCands]) Candidate();
    if (buildCandidate(&Recs[I], J - I, Far, SplitsIterations, *C)) {
      ++NumCands;
      const SiteHandover Key{Phase, Recs[I].R->Site};
      const SiteHandover *H =
          Handovers ? std::lower_bound(Handovers->begin(), Handovers->end(), Key,
                                       siteHandoverLess)
                    : nullptr;
      if (H && H != Handovers->end() && H->Phase == Phase && H->Site == Key.Site)
        C->HandoverKnown = H->Known, C->Handed = H->Handed,
        C->HandoverRounds = H->Known * H->Rounds;
    } else
      C->~Candidate();
    I = J;
  }
  Candidate **Order = static_cast<Candidate **>(
      rtCalloc(NumCands ? NumCands : 1, sizeof(Candidate *)));
  Vec<StreamResult> Out;
  if (!Order) {
    Out.Failed = true;
    NumCands = 0;
  }
  for (std::size_t I = 0; I < NumCands; ++I)
    Order[I] = &Cands[I];
  std::sort(Order, Order + NumCands, [](const Candidate *A,
                                        const Candidate *B) {
    if (A->Footprint != B->Footprint)
      return A->Footprint > B->Footprint;
    return siteLess(A->Sites[0], B->Sites[0]);
  });

  // 3. Merge sites over the same array with the same pattern: same element
  // size, same stride (or both random), same sharing, and ranges that
  // mostly coincide (a[i] and a[i+1]; the load and the store of a[i] += x)
  // call by call (sameArray).
  Vec<Candidate *> Streams;
  for (std::size_t I = 0; I < NumCands; ++I) {
    Candidate *C = Order[I];
    Candidate *Into = nullptr;
    for (Candidate *S : Streams)
      if (S->Elem == C->Elem && S->Random == C->Random &&
          (C->Random || S->Stride == C->Stride) && S->Shared == C->Shared &&
          sameArray(*S, *C)) {
        Into = S;
        break;
      }
    if (Into)
      mergeInto(*Into, *C, Far);
    else
      Streams.push(C);
  }

  // Accesses per iteration, among all the iterations of the phase's shares
  // run in sampling copies: those of loops with nothing to sample too (lud's
  // multiply on stack arrays), which only the phase's counter sees. The
  // sampled loops' iterations, weighted as their samples are, stand in
  // where they are more: a run that ends in the middle of a loop's pause
  // weights its samples and iterations alike (nbody's update loop, 2
  // executions per thread and a pause of 63; NPB CG's dot products, one
  // burst in 35 sampled invocations weighted as 37).
  const double PerIterOf =
      std::max(totalCost(Phase, Threads, NumThreads).WeightedIterations, IterationsInCopies);
  for (Candidate *C : Streams) {
    StreamResult R;
    // A load and a store of one element (a[i] += x) are one touch, two
    // loads of different elements two: the larger of its loads and stores.
    if (PerIterOf > 0)
      R.AccessesPerIter = std::max(C->LoadAccesses, C->StoreAccesses) / PerIterOf;
    // A random stream's first address says nothing of the rest of its
    // execution (every binary search starts in the middle), and one that
    // stays put (stride 0) is no walk: windows of strided walks only.
    if (!C->Random && C->Stride > 0) {
      windowReuse(C->Window, R.WindowAccesses, R.WindowRepeats);
      R.JumpShare = jumpShare(C->Window);
    }
    R.FootprintKiB = C->Footprint / 1024.0;
    R.StrideBytes = C->Stride;
    R.SecondStrideBytes = C->Second;
    R.DominantShare = C->Share;
    R.Random = C->Random;
    R.ElemBytes = C->Elem;
    R.Shared = C->Shared;
    R.HasLoad = C->HasLoad;
    R.HasStore = C->HasStore;
    R.Significant = R.FootprintKiB > L1dKiB;
    std::sort(C->Sites.begin(), C->Sites.end(), siteLess);
    for (const char *L : C->Sites) {
      if (R.NumSites < StreamResult::MaxSites)
        R.Sites[R.NumSites++] = L;
      else
        ++R.MoreSites;
    }
    R.Samples = C->Samples;
    R.HandoverKnown = C->HandoverKnown;
    if (C->HandoverKnown >= StreamResult::MinHandoverKnown) {
      R.HandoverShare = C->Handed / C->HandoverKnown;
      R.HandoverRounds = C->HandoverRounds / C->HandoverKnown;
    }
    Out.push(R);
  }
  // Merging can grow a stream past an earlier one. (std::sort, not
  // stable_sort: that one allocates through libstdc++.)
  std::sort(Out.begin(), Out.end(),
            [](const StreamResult &A, const StreamResult &B) {
              if (A.FootprintKiB != B.FootprintKiB)
                return A.FootprintKiB > B.FootprintKiB;
              return siteLess(A.Sites[0], B.Sites[0]);
            });
  for (std::size_t I = 0; I < NumCands; ++I)
    Cands[I].~Candidate();
  rtFree(Cands);
  rtFree(Order);
  return Out;
}

BurstCost totalCost(std::uint32_t Phase, const ThreadSampler *const *Threads,
                    std::size_t NumThreads) {
  BurstCost Sum;
  Sum.Phase = Phase;
  for (std::size_t T = 0; T < NumThreads; ++T)
    for (const BurstCost &C : Threads[T]->costs())
      if (C.Phase == Phase) {
        Sum.Bursts += C.Bursts;
        Sum.Iterations += C.Iterations;
        Sum.WeightedIterations += C.WeightedIterations;
        Sum.Samples += C.Samples;
        Sum.Seconds += C.Seconds;
        Sum.OverheadSeconds += C.OverheadSeconds;
      }
  return Sum;
}

} // namespace streams
} // namespace __phaseprobe
