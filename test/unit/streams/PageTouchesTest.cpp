//===- PageTouchesTest.cpp - Unit tests of the hand-over analysis ---------===//
//
// Marks pages the way sampled accesses and store ranges do, phases beginning
// in a known order, and checks the hand-over shares summarize() derives
// against the answers a cache would give: a sweep split otherwise than the
// one before finds half its pages another thread's, one split the same way
// none, and data written once and read ever after none once read.
//
//===----------------------------------------------------------------------===//
#include "page_touches.h"

#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <tuple>

using namespace __phaseprobe::streams;

namespace {

constexpr std::uint64_t T0 = 1, T1 = 2; // two threads' bits
constexpr std::uintptr_t Base = std::uintptr_t(1) << 30;
const char SiteA = 0, SiteB = 0, SiteC = 0; // identities only

std::uintptr_t page(int P) { return Base + std::uintptr_t(P) * 4096; }

struct Tables {
  // 8 MiB and 100 KiB: not on the stack.
  std::unique_ptr<PageTouches> Touches{new PageTouches};
  std::unique_ptr<PhaseOrder> Order{new PhaseOrder};
  /// A sampled access; the site's reservoir keeps the page (once here:
  /// a reservoir samples the pages a site moved onto, each read the same).
  void access(const char &Site, std::uint32_t Phase, int Page, std::uint64_t Bit, bool Store,
              std::uint32_t Offset = 64) {
    PageTouches::Entry *E = Touches->find(Phase, page(Page) + Offset);
    ASSERT_NE(E, nullptr);
    PageTouches::mark(*E, Bit, Store);
    Reads.insert({Phase, &Site, PageTouches::pageOf(page(Page)), Bit, Offset});
  }
  const SiteHandover *result(std::uint32_t Phase, const char &Site) {
    Vec<PageRead> R;
    for (const PageRead &P : Reads)
      R.push(P);
    Out.clear();
    Touches->summarize(*Order, R, Out);
    for (const SiteHandover &S : Out)
      if (S.Phase == Phase && S.Site == &Site)
        return &S;
    return nullptr;
  }
  struct ReadLess {
    bool operator()(const PageRead &A, const PageRead &B) const {
      return std::tie(A.Phase, A.Site, A.Page, A.Bit, A.Offset) <
             std::tie(B.Phase, B.Site, B.Page, B.Bit, B.Offset);
    }
  };
  std::set<PageRead, ReadLess> Reads;
  Vec<SiteHandover> Out;
};

/// Phase 0 updates 16 pages split in halves (thread 0 the first 8); phase 1
/// updates them dealt out (thread 0 the even pages), or in halves too.
void twoSweeps(Tables &X, bool Dealt, int Invocations = 3) {
  for (int Inv = 1; Inv <= Invocations; ++Inv) {
    X.Order->begin(0, Inv);
    for (int P = 0; P < 16; ++P)
      X.access(SiteA, 0, P, P < 8 ? T0 : T1, true);
    X.Order->begin(1, Inv);
    for (int P = 0; P < 16; ++P)
      X.access(SiteB, 1, P, (Dealt ? P % 2 == 0 : P < 8) ? T0 : T1, true);
  }
}

} // namespace

TEST(PageTouches, ASweepSplitOtherwiseFindsHalfItsPagesHandedOver) {
  Tables X;
  twoSweeps(X, true);
  const SiteHandover *B = X.result(1, SiteB);
  ASSERT_NE(B, nullptr);
  EXPECT_EQ(B->Known, 16);
  EXPECT_EQ(B->Handed, 8);
  // And the split sweep after the dealt one (of the invocation before).
  const SiteHandover *A = X.result(0, SiteA);
  ASSERT_NE(A, nullptr);
  EXPECT_EQ(A->Known, 16);
  EXPECT_EQ(A->Handed, 8);
}

TEST(PageTouches, ASweepSplitTheSameWayHandsNothingOver) {
  Tables X;
  twoSweeps(X, false);
  EXPECT_EQ(X.result(1, SiteB)->Handed, 0);
  EXPECT_EQ(X.result(0, SiteA)->Handed, 0);
  EXPECT_EQ(X.result(1, SiteB)->Known, 16);
}

TEST(PageTouches, OneThreadHandsNothingOver) {
  Tables X;
  for (int Inv = 1; Inv <= 3; ++Inv) {
    X.Order->begin(0, Inv);
    for (int P = 0; P < 16; ++P)
      X.access(SiteA, 0, P, T0, true);
    X.Order->begin(1, Inv);
    for (int P = 0; P < 16; ++P)
      X.access(SiteB, 1, P, T0, false);
  }
  EXPECT_EQ(X.result(1, SiteB)->Known, 16);
  EXPECT_EQ(X.result(1, SiteB)->Handed, 0);
}

// Written once by phase 0 split in halves, then read whole by both threads
// in every invocation of phase 1: half of each thread's pages were the
// other's at its first read, and only then (one round: the writer's one
// invocation), though phase 1 read them in five invocations.
TEST(PageTouches, DataWrittenOnceIsNotHandedOverAtEveryRead) {
  Tables X;
  X.Order->begin(0, 1);
  for (int P = 0; P < 16; ++P)
    X.access(SiteA, 0, P, P < 8 ? T0 : T1, true);
  for (int Inv = 1; Inv <= 5; ++Inv) {
    X.Order->begin(1, Inv);
    for (int P = 0; P < 16; ++P) {
      X.access(SiteB, 1, P, T0, false);
      X.access(SiteB, 1, P, T1, false);
    }
  }
  EXPECT_EQ(X.result(1, SiteB)->Known, 32);
  EXPECT_EQ(X.result(1, SiteB)->Handed, 16);
  EXPECT_EQ(X.result(1, SiteB)->Rounds, 1);
  // Run once, it was handed over: half of each thread's reads.
  Tables Y;
  Y.Order->begin(0, 1);
  for (int P = 0; P < 16; ++P)
    Y.access(SiteA, 0, P, P < 8 ? T0 : T1, true);
  Y.Order->begin(1, 1);
  for (int P = 0; P < 16; ++P) {
    Y.access(SiteB, 1, P, T0, false);
    Y.access(SiteB, 1, P, T1, false);
  }
  EXPECT_EQ(Y.result(1, SiteB)->Handed, 16);
}

// A phase that rewrites its pages in every invocation (four a round, in
// halves) is their last writer, in its own split; another phase that
// rewrites them between its rounds split the other way (NPB SP's solver
// sweeps between lhsx's time steps) hands each page over at phase 1's first
// touch after it: that phase is the writer, three rounds. Split as phase 1
// is, it hands nothing over.
TEST(PageTouches, AWriterBetweenTheRoundsOfASelfWriterHandsOver) {
  for (bool Flipped : {true, false}) {
    Tables X;
    int Inv = 0;
    auto Round = [&] {
      for (int K = 0; K < 4; ++K) {
        X.Order->begin(1, ++Inv);
        for (int P = 0; P < 16; ++P)
          X.access(SiteB, 1, P, P < 8 ? T0 : T1, true);
      }
    };
    for (int R = 1; R <= 3; ++R) {
      Round();
      X.Order->begin(0, R);
      for (int P = 0; P < 16; ++P)
        X.access(SiteA, 0, P, (P < 8) != Flipped ? T0 : T1, true);
    }
    Round();
    ASSERT_NE(X.result(1, SiteB), nullptr);
    EXPECT_EQ(X.result(1, SiteB)->Known, 16);
    EXPECT_EQ(X.result(1, SiteB)->Handed, Flipped ? 16 : 0);
    EXPECT_EQ(X.result(1, SiteB)->Rounds, 3);
  }
}

// Data nobody wrote in a phase (the serial code's) has no known writer.
TEST(PageTouches, PagesNoPhaseWroteAreUnknown) {
  Tables X;
  for (int Inv = 1; Inv <= 3; ++Inv) {
    X.Order->begin(1, Inv);
    for (int P = 0; P < 16; ++P)
      X.access(SiteB, 1, P, P % 2 ? T1 : T0, false);
  }
  EXPECT_EQ(X.result(1, SiteB), nullptr);
}

// Arrays share their edge pages: a later phase that wrote the neighbour
// array's end (one page of the site's 16) does not decide who wrote the
// site's data last; the split sweep does.
TEST(PageTouches, AWriterSeenOnAnEdgePageDoesNotDecide) {
  Tables X;
  for (int Inv = 1; Inv <= 3; ++Inv) {
    X.Order->begin(0, Inv);
    for (int P = 0; P < 16; ++P)
      X.access(SiteA, 0, P, P < 8 ? T0 : T1, true);
    X.Order->begin(2, Inv);
    X.access(SiteC, 2, 15, T0, true); // the neighbour's end
    X.Order->begin(1, Inv);
    for (int P = 0; P < 16; ++P)
      X.access(SiteB, 1, P, P % 2 == 0 ? T0 : T1, false);
  }
  EXPECT_EQ(X.result(1, SiteB)->Known, 16);
  EXPECT_EQ(X.result(1, SiteB)->Handed, 8);
}

// Bursts sample the start of loop executions: the split sweep's samples
// saw only its first pages, its store range covers them all.
TEST(PageTouches, StoreRangesMarkThePagesBurstsMissed) {
  Tables X;
  for (int Inv = 1; Inv <= 3; ++Inv) {
    X.Order->begin(0, Inv);
    X.access(SiteA, 0, 0, T0, true);
    X.access(SiteA, 0, 8, T1, true);
    X.Touches->markWritten(0, page(0), page(8), T0);
    X.Touches->markWritten(0, page(8), page(16), T1);
    X.Order->begin(1, Inv);
    for (int P = 0; P < 16; ++P)
      X.access(SiteB, 1, P, P % 2 == 0 ? T0 : T1, false);
  }
  EXPECT_EQ(X.result(1, SiteB)->Known, 16);
  EXPECT_EQ(X.result(1, SiteB)->Handed, 8);
  // A range too long to be one array is left out.
  EXPECT_EQ(X.Touches->dropped(), 0u);
  X.Touches->markWritten(5, page(0), page(0) + (PageTouches::MaxRangePages + 1) * 4096, T0);
  EXPECT_EQ(X.result(5, SiteA), nullptr);
}

// A static split the writer shared: thread 1's block starts in the middle
// of page 8, whose first half thread 0 wrote. Bursts sample the start of
// each thread's share, so thread 1 reads page 8 in every sampled
// invocation: its own lines, not thread 0's (HPCCG's vector updates read
// 0.25 handed over). A read of page 8's first half by thread 1 is thread
// 0's lines; pages dealt out (both threads' stores everywhere, no range
// edge) stay shared by all their writers.
TEST(PageTouches, TheSplitPageSaysWhoseLinesAReadFoundThere) {
  Tables X;
  for (int Inv = 1; Inv <= 3; ++Inv) {
    X.Order->begin(0, Inv);
    X.access(SiteA, 0, 0, T0, true);
    X.access(SiteA, 0, 8, T1, true, 2048);
    X.Touches->markWritten(0, page(0), page(8) + 2048, T0);
    X.Touches->markWritten(0, page(8) + 2048, page(16), T1);
    X.Order->begin(1, Inv);
    X.access(SiteB, 1, 0, T0, false);
    X.access(SiteB, 1, 8, T1, false, 2048);
    X.access(SiteB, 1, 4, T0, false);
    X.access(SiteB, 1, 12, T1, false);
  }
  EXPECT_EQ(X.result(1, SiteB)->Known, 4);
  EXPECT_EQ(X.result(1, SiteB)->Handed, 0);
  X.access(SiteB, 1, 8, T1, false, 1024);
  EXPECT_EQ(X.result(1, SiteB)->Known, 5);
  EXPECT_EQ(X.result(1, SiteB)->Handed, 1);
  Tables Y;
  for (int Inv = 1; Inv <= 3; ++Inv) {
    Y.Order->begin(0, Inv);
    for (int P = 0; P < 16; ++P) {
      Y.access(SiteA, 0, P, T0, true);
      Y.access(SiteA, 0, P, T1, true);
    }
    Y.Order->begin(1, Inv);
    for (int P = 0; P < 16; ++P)
      Y.access(SiteB, 1, P, P < 8 ? T0 : T1, false);
  }
  EXPECT_EQ(Y.result(1, SiteB)->Known, 16);
  EXPECT_EQ(Y.result(1, SiteB)->Handed, 8);
  // Ranges that edge at several places in one page say nothing there.
  Tables Z;
  Z.Order->begin(0, 1);
  Z.Touches->markWritten(0, page(0), page(8) + 2048, T0);
  Z.Touches->markWritten(0, page(8) + 3072, page(16), T1);
  Z.Touches->markWritten(0, page(8) + 1024, page(8) + 3072, T1);
  Z.Order->begin(1, 1);
  for (int P = 0; P < 16; ++P)
    Z.access(SiteB, 1, P, P < 8 ? T0 : T1, false, 2560);
  EXPECT_EQ(Z.result(1, SiteB)->Known, 16);
  EXPECT_EQ(Z.result(1, SiteB)->Handed, 0.5);
}

TEST(PhaseOrder, TheFirstThreadOfAnInvocationTicksTheClock) {
  PhaseOrder O;
  O.begin(3, 1);
  O.begin(3, 1); // the team's other thread
  O.begin(4, 1);
  O.begin(3, 2);
  EXPECT_EQ(O.last(3), 3u);
  EXPECT_EQ(O.previous(3), 1u);
  EXPECT_EQ(O.last(4), 2u);
  EXPECT_EQ(O.latestBefore(3, 3), 1u);
  EXPECT_EQ(O.latestBefore(4, 3), 2u);
  EXPECT_EQ(O.latestBefore(3, 1), 0u);
  O.begin(PhaseOrder::MaxPhases, 1); // out of range: ignored
  EXPECT_EQ(O.last(PhaseOrder::MaxPhases), 0u);
}
