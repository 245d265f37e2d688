//===- page_touches.cpp - Hand-over from per-phase page touches -----------===//
#include "page_touches.h"

#include <algorithm>

namespace __phaseprobe {
namespace streams {

// Constant-initialized static storage: no constructor runs at load, and the
// pages of the tables are only paged in where phases and samples land.
static PhaseOrder TheOrder;
static PageTouches TheTouches;

PhaseOrder &PhaseOrder::process() { return TheOrder; }
PageTouches &PageTouches::process() { return TheTouches; }

void PhaseOrder::begin(std::uint32_t Phase, std::uint64_t Invocation) {
  if (Phase >= MaxPhases)
    return;
  Entry &E = Phases[Phase];
  std::uint64_t Seen = E.Invocation.load(std::memory_order_relaxed);
  // Read first: the team's other threads find the invocation counted.
  if (Invocation <= Seen ||
      !E.Invocation.compare_exchange_strong(Seen, Invocation,
                                            std::memory_order_relaxed))
    return;
  E.Previous.store(E.Last.load(std::memory_order_relaxed),
                   std::memory_order_relaxed);
  const std::uint64_t Tick = Clock.fetch_add(1, std::memory_order_relaxed) + 1;
  E.Last.store(Tick, std::memory_order_relaxed);
  if (!E.First.load(std::memory_order_relaxed))
    E.First.store(Tick, std::memory_order_relaxed);
}

std::uint64_t PhaseOrder::last(std::uint32_t Phase) const {
  return Phase < MaxPhases ? Phases[Phase].Last.load(std::memory_order_relaxed) : 0;
}

std::uint64_t PhaseOrder::previous(std::uint32_t Phase) const {
  return Phase < MaxPhases ? Phases[Phase].Previous.load(std::memory_order_relaxed)
                           : 0;
}

std::uint64_t PhaseOrder::first(std::uint32_t Phase) const {
  return Phase < MaxPhases ? Phases[Phase].First.load(std::memory_order_relaxed) : 0;
}

std::uint64_t PhaseOrder::invocations(std::uint32_t Phase) const {
  return Phase < MaxPhases ? Phases[Phase].Invocation.load(std::memory_order_relaxed) : 0;
}

std::uint64_t PhaseOrder::latestBefore(std::uint32_t Phase,
                                       std::uint64_t Before) const {
  std::uint64_t L = last(Phase);
  if (L && L < Before)
    return L;
  std::uint64_t P = previous(Phase);
  return P && P < Before ? P : 0;
}

void PhaseOrder::clear() {
  Clock.store(0, std::memory_order_relaxed);
  for (Entry &E : Phases) {
    E.Invocation.store(0, std::memory_order_relaxed);
    E.Last.store(0, std::memory_order_relaxed);
    E.Previous.store(0, std::memory_order_relaxed);
    E.First.store(0, std::memory_order_relaxed);
  }
}

static std::uint64_t tagOf(std::uint32_t Phase, std::uint64_t Page) {
  std::uint64_t H = (Page + (std::uint64_t(Phase) << 44)) * 0x9E3779B97F4A7C15ull;
  H ^= H >> 29;
  return H | 1; // 0 marks a free slot
}

PageTouches::Entry *PageTouches::find(std::uint32_t Phase, std::uintptr_t Addr) {
  const std::uint64_t Page = pageOf(Addr);
  const std::uint64_t Tag = tagOf(Phase, Page);
  std::size_t I = std::size_t(Tag >> (64 - SlotBits));
  for (std::size_t Probe = 0; Probe < MaxProbes; ++Probe, I = (I + 1) & (NumSlots - 1)) {
    Entry &E = Slots[I];
    std::uint64_t T = E.Tag.load(std::memory_order_acquire);
    if (T == Tag)
      return &E;
    if (T != 0)
      continue;
    // Claim the slot and then fill in its key: a thread that finds the tag
    // before the key is written only marks bits, which the key does not
    // need; summarize() runs after every thread is done.
    if (E.Tag.compare_exchange_strong(T, Tag, std::memory_order_acq_rel)) {
      E.Page = Page;
      E.Phase = Phase;
      return &E;
    }
    if (T == Tag)
      return &E;
  }
  Dropped.fetch_add(1, std::memory_order_relaxed);
  return nullptr;
}

/// Two splits seen on one page as one: two threads' ranges meet within a
/// line of each other (the one before ends after its last element, the
/// next begins at its first); further apart, the page's ranges edge at
/// several places.
static std::uint32_t joinSplits(std::uint32_t A, std::uint32_t B) {
  if (A == PageTouches::NoSplit)
    return B;
  if (B == PageTouches::NoSplit || A == PageTouches::ConflictingSplits)
    return A;
  if (B == PageTouches::ConflictingSplits || (A > B ? A - B : B - A) >= 64)
    return PageTouches::ConflictingSplits;
  return A;
}

void PageTouches::markWritten(std::uint32_t Phase, std::uintptr_t Lo, std::uintptr_t Hi,
                              std::uint64_t Bit) {
  if (Hi <= Lo || pageOf(Hi - 1) - pageOf(Lo) >= MaxRangePages)
    return;
  for (std::uintptr_t P = pageOf(Lo); P <= pageOf(Hi - 1); ++P)
    if (Entry *E = find(Phase, P << PageShift))
      mark(*E, Bit, true);
  // Called at exit, one thread at a time: plain fields suffice.
  auto Edge = [&](std::uintptr_t At, bool Begins) {
    const std::uint32_t Off = std::uint32_t(At & ((std::uintptr_t(1) << PageShift) - 1));
    if (Off == 0)
      return;
    Entry *E = find(Phase, At);
    if (!E)
      return;
    E->Split = joinSplits(E->Split, Off);
    (Begins ? E->Above : E->Below) |= Bit;
  };
  Edge(Lo, true);
  Edge(Hi, false);
}

void PageTouches::clear() {
  Dropped.store(0, std::memory_order_relaxed);
  for (Entry &E : Slots) {
    E.Tag.store(0, std::memory_order_relaxed);
    E.Wrote.store(0, std::memory_order_relaxed);
    E.Accessed.store(0, std::memory_order_relaxed);
    E.Split = NoSplit;
    E.Above = E.Below = 0;
  }
}

namespace {

/// One phase's touches of one page.
struct PhaseTouch {
  std::uint64_t Page;
  std::uint32_t Phase;
  std::uint64_t Wrote, Accessed;
  std::uint32_t Split;
  std::uint64_t Above, Below;
};

int bits(std::uint64_t M) { return __builtin_popcountll(M); }

constexpr double MinWriterPages = 3, MinWriterShare = 0.02;

/// A phase (Writer) that wrote pages of the site being summarized: its
/// latest invocation before the site's phase's last (At), and on how many
/// of the site's pages it was seen.
struct SiteWriter {
  std::uint32_t Writer;
  std::uint64_t At;
  double Pages;
};

/// The thread (its bit) whose block holds byte \p Offset of a page where
/// two blocks meet, or 0 where the page says nothing of it.
std::uint64_t splitOwner(const PhaseTouch &T, std::uint32_t Offset) {
  if (T.Split >= PageTouches::ConflictingSplits)
    return 0;
  std::uint64_t Side = Offset >= T.Split ? T.Above : T.Below;
  return bits(Side) == 1 ? Side : 0;
}

bool bySiteKey(std::uint32_t PA, const void *SA, std::uint32_t PB, const void *SB) {
  return PA != PB ? PA < PB : SA < SB;
}

} // namespace

void PageTouches::summarize(const PhaseOrder &Order, Vec<PageRead> &Reads,
                            Vec<SiteHandover> &Out) const {
  // Every page's phases, by page (racing first touches may have made two
  // entries of one phase and page: merged).
  Vec<PhaseTouch> All;
  for (const Entry &E : Slots)
    if (E.Tag.load(std::memory_order_relaxed))
      All.push({E.Page, E.Phase, E.Wrote.load(std::memory_order_relaxed),
                E.Accessed.load(std::memory_order_relaxed), E.Split, E.Above, E.Below});
  std::sort(All.begin(), All.end(), [](const PhaseTouch &A, const PhaseTouch &B) {
    return A.Page != B.Page ? A.Page < B.Page : A.Phase < B.Phase;
  });
  std::size_t NumAll = 0;
  for (std::size_t I = 0; I < All.Size; ++I)
    if (NumAll && All[NumAll - 1].Page == All[I].Page && All[NumAll - 1].Phase == All[I].Phase) {
      PhaseTouch &T = All[NumAll - 1];
      T.Wrote |= All[I].Wrote;
      T.Accessed |= All[I].Accessed;
      T.Split = joinSplits(T.Split, All[I].Split);
      T.Above |= All[I].Above;
      T.Below |= All[I].Below;
    } else {
      All[NumAll++] = All[I];
    }
  All.Size = NumAll;
  // The phases of a read's page: [first, last).
  auto PhasesOf = [&](std::uint64_t Page) {
    const PhaseTouch *Lo = std::lower_bound(
        All.begin(), All.end(), Page, [](const PhaseTouch &T, std::uint64_t P) { return T.Page < P; });
    const PhaseTouch *Hi = Lo;
    while (Hi != All.end() && Hi->Page == Page)
      ++Hi;
    return std::make_pair(Lo, Hi);
  };
  std::sort(Reads.begin(), Reads.end(), [](const PageRead &A, const PageRead &B) {
    return bySiteKey(A.Phase, A.Site, B.Phase, B.Site);
  });

  // Site by site (Reads is sorted by phase and site):
  // 1. Which phase wrote its data last. Bursts cover the start of a loop's
  // executions, so a writer's samples may miss pages it wrote (markWritten
  // fills in part of them): on those, an older writer would pass for the
  // last one. The writer is decided over all of the site's pages, and only
  // the pages it is seen on are read. Arrays share their edge pages: a
  // writer seen on fewer than MinWriterPages or MinWriterShare of the
  // site's written pages (the neighbour array's, 1-2 of NPB CG's 27-page
  // vectors) does not decide; BT's y sweep is seen on 10% of the pages of
  // the array it writes (8 MiB, bursts of 128 iterations over 22-iteration
  // loops).
  // 2. Each thread's access to a page that writer wrote is handed over by
  // the share of the writer's threads that are not it, unless the thread
  // touched the page in another phase run in between. On a page where two of the
  // writer's threads' blocks meet (one thread's store range ends at the
  // page's Split, the next one's begins there), the side of the Split the
  // access fell on says whose lines it read: bursts sample the start of a
  // thread's share, so under a static split the writer shared every thread
  // but the first reads such a page in every sampled invocation, its own
  // lines (HPCCG's vector updates read 0.25 handed over, two threads, one
  // split throughout).
  Vec<SiteWriter> Seen; // the site's writers
  for (std::size_t G0 = 0, G1; G0 < Reads.Size; G0 = G1) {
    const PageRead &Key = Reads[G0];
    for (G1 = G0; G1 < Reads.Size && Reads[G1].Phase == Key.Phase && Reads[G1].Site == Key.Site;)
      ++G1;
    const std::uint64_t Now = Order.last(Key.Phase);
    Seen.clear();
    double Pages = 0;
    for (std::size_t I = G0; I < G1; ++I) {
      bool Any = false;
      auto [Lo, Hi] = PhasesOf(Reads[I].Page);
      for (const PhaseTouch *P = Lo; P != Hi; ++P) {
        std::uint64_t At = Order.latestBefore(P->Phase, Now);
        if (!P->Wrote || !At)
          continue;
        Any = true;
        std::size_t K = 0;
        while (K < Seen.Size && Seen[K].Writer != P->Phase)
          ++K;
        if (K == Seen.Size)
          Seen.push({P->Phase, At, 0});
        Seen[K].Pages += 1;
      }
      Pages += Any;
    }
    auto Decides = [&](const SiteWriter &C) {
      return C.Pages >= MinWriterPages && C.Pages >= MinWriterShare * Pages;
    };
    SiteWriter W{0, 0, 0};
    for (const SiteWriter &C : Seen)
      if (Decides(C) && C.At > W.At)
        W = C;
    if (!W.At)
      continue;
    // 3. A phase that rewrites its pages every invocation is their last
    // writer, in its own split; another phase that writes them between its
    // runs (NPB SP's solver sweeps between the time steps of lhsx's short
    // loops, split over another index) hands each line over at its first
    // touch after that: that phase is the writer.
    if (W.Writer == Key.Phase) {
      const std::uint64_t Began = Order.first(Key.Phase);
      SiteWriter Other{0, 0, 0};
      for (const SiteWriter &C : Seen)
        if (C.Writer != Key.Phase && Decides(C) && C.At > Began && C.At > Other.At)
          Other = C;
      if (Other.At)
        W = Other;
    }
    SiteHandover S{Key.Phase, Key.Site, 0, 0, double(Order.invocations(W.Writer))};
    for (std::size_t I = G0; I < G1; ++I) {
      const PageRead &R = Reads[I];
      auto [Lo, Hi] = PhasesOf(R.Page);
      std::uint64_t Wrote = 0, Owner = 0;
      bool Since = false;
      for (const PhaseTouch *P = Lo; P != Hi; ++P) {
        if (P->Phase == W.Writer) {
          Wrote = P->Wrote;
          Owner = splitOwner(*P, R.Offset);
        }
        // The phase's own earlier touches are not a copy since: its first
        // touch after the writer's paid (a share of its pages, once a
        // round of the two).
        Since |= P->Phase != Key.Phase && (P->Accessed & R.Bit) &&
                 Order.latestBefore(P->Phase, Now) > W.At;
      }
      if (!Wrote)
        continue;
      S.Known += 1;
      if (Since)
        continue;
      if (bits(Wrote) > 1 && Owner)
        S.Handed += Owner == R.Bit ? 0 : 1;
      else
        S.Handed += double(bits(Wrote & ~R.Bit)) / bits(Wrote);
    }
    if (S.Known > 0)
      Out.push(S);
  }
}

} // namespace streams
} // namespace __phaseprobe
