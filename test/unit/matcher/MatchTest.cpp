//===- MatchTest.cpp - Queries, candidates, ties, runners-up --------------===//
#include "phaseprobe/matcher.h"
#include "phaseprobe/phase_file.h"

#include <gtest/gtest.h>

#include <random>

using namespace phaseprobe;

namespace {

StreamTuple T(double Fp, double Stride, unsigned Elem, Access A) {
  StreamTuple S;
  S.footprintKiB = Fp;
  S.strideBytes = Stride;
  S.elemBytes = Elem;
  S.access = A;
  return S;
}
const Access Sh = Access::Shared, Pr = Access::Private;

Profile Prof(const std::string &Name, std::vector<StreamTuple> S, double Tpi,
             unsigned Threads = 4) {
  Profile P;
  P.node = "bn";
  P.ubench = Name;
  P.streams = std::move(S);
  P.tpiUs = Tpi;
  P.threads = Threads;
  return P;
}

/// The MM phase of METHOD.md, streams in file order v2 (small) then v1.
Phase mmPhase() {
  Phase P;
  P.id = "mm.c:42:1";
  P.threads = 4;
  P.timeS = 212.0254;
  P.iterations = 16e9;
  P.tpiUs = 0.01325;
  PhaseStream A, B;
  A.id = "v2";
  A.tuple = T(3906, 8, 8, Pr);
  B.id = "v1";
  B.tuple = T(15624, 32000, 8, Sh);
  P.streams = {A, B};
  return P;
}

std::vector<Profile> studyProfiles() {
  return {Prof("mbw1c", {T(16864, 32000, 8, Sh)}, 0.01006),
          Prof("mbw1cX", {T(15869, 30000, 8, Sh)}, 0.01242),
          Prof("mbw1hc", {T(16264, 32000, 8, Sh)}, 0.12454),
          Prof("mbwXA2hc", {T(15617, 32000, 8, Sh), T(3124, 8, 8, Sh)}, 0.01316),
          Prof("mbw1c", {T(16864, 32000, 8, Sh)}, 0.0001, /*Threads=*/8)};
}

/// NPB CG's SpMV as the Xeon VM measured it (cg.c:422): values, column
/// indices, the gathered vector; \p NStreams of them, largest first.
Phase cgSpmv(unsigned NStreams = 3) {
  Phase P;
  P.threads = 2;
  P.tpiUs = 0.000646;
  const StreamTuple Tuples[] = {T(14471.24, 8, 8, Pr), T(7235.62, 4, 4, Pr),
                                T(109.375, 37380, 8, Sh)};
  for (unsigned I = 0; I < NStreams; ++I) {
    PhaseStream S;
    S.id = "v" + std::to_string(I + 1);
    S.tuple = Tuples[I];
    P.streams.push_back(S);
  }
  return P;
}

MatchOptions opts(size_t Keep = 16) {
  MatchOptions O;
  O.keep = Keep;
  return O;
}

} // namespace

TEST(Match, StreamsOrderedByFootprintAndQueriesInMethodOrder) {
  Phase P;
  P.threads = 1;
  for (double Fp : {100.0, 300.0, 200.0, 10.0}) {
    PhaseStream S;
    S.id = "s" + std::to_string(int(Fp));
    S.tuple = T(Fp, 8, 8, Sh);
    P.streams.push_back(S);
  }
  std::vector<unsigned> Sig = significantStreams(P, 32); // 10 KiB fits in L1d
  EXPECT_EQ(Sig, (std::vector<unsigned>{1, 2, 0}));
  VectorProfileSource Empty({});
  PhaseMatch M = matchPhase(P, Sig, Empty, MatchConfig::defaults(), opts());
  std::vector<std::string> Names;
  for (auto &Q : M.queries)
    Names.push_back(queryName(P, Q.streams));
  EXPECT_EQ(Names, (std::vector<std::string>{"[s300]", "[s200]", "[s100]", "[s300,s200]",
                                             "[s300,s100]", "[s200,s100]", "[s300,s200,s100]"}));
  EXPECT_EQ(M.status, MatchStatus::NoProfile);
  EXPECT_FALSE(M.candidate.has_value());
}

TEST(Match, WorkedExampleCandidateAndQueries) {
  Phase P = mmPhase();
  VectorProfileSource Src(studyProfiles());
  std::vector<unsigned> Sig = significantStreams(P, 32);
  ASSERT_EQ(Sig, (std::vector<unsigned>{1, 0})); // v1 first
  PhaseMatch M = matchPhase(P, Sig, Src, MatchConfig::defaults(), opts());
  ASSERT_EQ(M.status, MatchStatus::Matched);
  ASSERT_EQ(M.queries.size(), 3u); // [v1], [v2], [v1,v2]
  ASSERT_TRUE(M.queries[0].best);
  EXPECT_EQ(M.queries[0].best->ubench, "mbw1cX");
  EXPECT_EQ(M.queries[0].best->score.index, 95);
  EXPECT_EQ(M.queries[0].compared, 2u); // mbw1hc is outside the tpi window
  EXPECT_FALSE(M.queries[1].best);      // nothing near 3906 KiB
  ASSERT_TRUE(M.queries[2].best);
  EXPECT_EQ(M.queries[2].best->ubench, "mbwXA2hc");
  ASSERT_TRUE(M.candidate);
  EXPECT_EQ(M.candidate->ubench, "mbwXA2hc");
  EXPECT_EQ(M.candidate->score.index, 100);
  EXPECT_EQ(M.candidate->query, 2u);
  EXPECT_TRUE(M.ties.empty());
  // Runners-up: distinct profiles, best first.
  ASSERT_EQ(M.ranked.size(), 3u);
  EXPECT_EQ(M.ranked[1].ubench, "mbw1cX");
  EXPECT_EQ(M.ranked[2].ubench, "mbw1c");
  EXPECT_EQ(M.ranked[2].score.index, 85);
}

// bar1p has mbw1p's tuples but a barrier after every sweep: the estimator
// prices barriers with it, so it is never a phase's twin, even a perfect one.
TEST(Match, SyncUBenchesAreNeverCandidates) {
  Phase P = mmPhase();
  std::vector<Profile> V = studyProfiles();
  V.push_back(Prof("bar1p", {T(15624, 32000, 8, Sh)}, 0.01325));
  VectorProfileSource Src(V);
  PhaseMatch M = matchPhase(P, significantStreams(P, 32), Src, MatchConfig::defaults(), opts());
  ASSERT_TRUE(M.candidate);
  EXPECT_EQ(M.candidate->ubench, "mbwXA2hc");
  for (const Candidate &C : M.ranked)
    EXPECT_NE(C.ubench, "bar1p");
}

TEST(Match, ExplainSeesEveryProfileIncludingDiscardedOnes) {
  Phase P = mmPhase();
  VectorProfileSource Src(studyProfiles());
  std::vector<std::tuple<size_t, std::string, double, bool>> Rows;
  MatchOptions O = opts();
  O.explain = [&](size_t Q, const ProfileRef &R, const Score &S) {
    Rows.emplace_back(Q, std::string(R.ubench), S.index, S.discarded);
  };
  PhaseMatch M = matchPhase(P, significantStreams(P, 32), Src, MatchConfig::defaults(), O);
  // Three 1-stream profiles at 4 threads, each against [v1] and [v2]; one
  // 2-stream profile against [v1,v2].
  ASSERT_EQ(Rows.size(), 7u);
  // Profiles in source order, each against the queries of its size.
  EXPECT_EQ(Rows[4], std::make_tuple(size_t(0), std::string("mbw1hc"), 90.0, true));
  EXPECT_EQ(M.queries[0].compared, 3u);
  EXPECT_EQ(M.queries[0].discarded, 1u);
  EXPECT_EQ(M.candidate->ubench, "mbwXA2hc");
}

TEST(Match, TiesAreBrokenDeterministicallyAndReported) {
  Phase P;
  P.threads = 2;
  P.tpiUs = 1;
  PhaseStream S;
  S.id = "v1";
  S.tuple = T(1000, 64, 8, Sh);
  P.streams = {S};
  // Same index 125 - 5 (tpi 3% -> 15 would be 115; use footprint bands).
  std::vector<Profile> Ps = {
      Prof("zeta", {T(1010, 64, 8, Sh)}, 1, 2),  // fp 1% -> 125, sum 1
      Prof("alpha", {T(1010, 64, 8, Sh)}, 1, 2), // identical numbers: name decides
      Prof("mid", {T(1015, 64, 8, Sh)}, 1, 2),   // 1.5% -> 125, sum 1.5
      Prof("low", {T(1100, 64, 8, Sh)}, 1, 2),   // 10% -> 110
  };
  VectorProfileSource Src(Ps);
  PhaseMatch M = matchPhase(P, {0}, Src, MatchConfig::defaults(), opts());
  ASSERT_TRUE(M.candidate);
  EXPECT_EQ(M.candidate->ubench, "alpha");
  ASSERT_EQ(M.ties.size(), 2u);
  EXPECT_EQ(M.ties[0].ubench, "zeta");
  EXPECT_STREQ(tieBreakRule(*M.candidate, M.ties[0]), "name");
  EXPECT_EQ(M.ties[1].ubench, "mid");
  EXPECT_STREQ(tieBreakRule(*M.candidate, M.ties[1]), "relative difference");
  EXPECT_FALSE(M.tiesTruncated);
  // The order of the source does not matter.
  std::reverse(Ps.begin(), Ps.end());
  VectorProfileSource Rev(Ps);
  EXPECT_EQ(matchPhase(P, {0}, Rev, MatchConfig::defaults(), opts()).candidate->ubench, "alpha");
}

TEST(Match, FewerStreamsWinAnExactTie) {
  Phase P;
  P.threads = 1;
  P.tpiUs = 1;
  PhaseStream A, B;
  A.id = "a";
  A.tuple = T(1000, 8, 8, Sh);
  B.id = "b";
  B.tuple = T(1000, 8, 8, Sh);
  P.streams = {A, B};
  VectorProfileSource Src({Prof("two", {T(1000, 8, 8, Sh), T(1000, 8, 8, Sh)}, 1, 1),
                           Prof("one", {T(1000, 8, 8, Sh)}, 1, 1)});
  PhaseMatch M = matchPhase(P, {0, 1}, Src, MatchConfig::defaults(), opts());
  ASSERT_TRUE(M.candidate);
  EXPECT_EQ(M.candidate->ubench, "one");
  ASSERT_EQ(M.ties.size(), 1u); // "one" appears in two queries: counted once
  EXPECT_EQ(M.ties[0].ubench, "two");
  EXPECT_STREQ(tieBreakRule(*M.candidate, M.ties[0]), "streams");
}

// NPB CG's SpMV (cg.c:422, 74% of the run on the Xeon VM): a row walk of
// the values (8 B) and column indices (4 B) and a gather from the shared
// vector. Its own clone walks all three as they are but runs 13% faster
// (index 105); a float update of some other phase's footprint near the
// indices' and padded to the phase's tpi scores 110 from one stream. On
// the EPYC the SpMV ran 2.2x as long, its clone 2.0x, the padded update
// 1.2x: by default METHOD.md's index picks the update; with
// whole_phase_first (the default of the ratio rule) the clone ranks first ("whole phase"), and a profile
// with every stream but one of them only near the phase's does not.
TEST(Match, WholePhaseFirstRanksTheProfileWithEveryStreamAsItIs) {
  Phase P = cgSpmv();
  std::vector<Profile> Ps = {
      Prof("spmv3", {T(14471.25, 8, 8, Pr), T(7235.625, 4, 4, Pr), T(109.375, 37464, 8, Sh)},
           0.000563, 2),
      Prof("upd1pf+w3/19", {T(6867.99, 4, 4, Pr)}, 0.000641, 2),
      // Every stream, the indices' footprint 4% off: not the phase's walk.
      Prof("spmv3", {T(14471.25, 8, 8, Pr), T(6950, 4, 4, Pr), T(109.375, 37464, 8, Sh)},
           0.000563, 2)};
  VectorProfileSource Src(Ps);
  PhaseMatch D = matchPhase(P, {0, 1, 2}, Src, MatchConfig::defaults(), opts());
  ASSERT_TRUE(D.candidate);
  EXPECT_EQ(D.candidate->ubench, "upd1pf+w3/19");
  EXPECT_EQ(D.candidate->score.index, 110);
  EXPECT_FALSE(D.candidate->score.wholePhase) << "off unless the configuration asks";
  // Whether it ranks by it or not, the clone is marked (the estimator may
  // take it on another CPU design), the 4%-off one is not.
  ASSERT_EQ(D.ranked.size(), 3u);
  EXPECT_TRUE(D.ranked[1].score.reproducesPhase && D.ranked[1].streams[1].footprintKiB == 7235.625);
  EXPECT_FALSE(D.ranked[2].score.reproducesPhase);
  EXPECT_FALSE(D.candidate->score.reproducesPhase);

  MatchConfig C = MatchConfig::defaults();
  C.wholePhaseFirst = true;
  PhaseMatch M = matchPhase(P, {0, 1, 2}, Src, C, opts());
  ASSERT_TRUE(M.candidate);
  EXPECT_EQ(M.candidate->ubench, "spmv3");
  EXPECT_EQ(M.candidate->streams[1].footprintKiB, 7235.625);
  EXPECT_EQ(M.candidate->score.index, 105);
  EXPECT_TRUE(M.candidate->score.wholePhase);
  ASSERT_GE(M.ranked.size(), 3u);
  EXPECT_EQ(M.ranked[1].ubench, "upd1pf+w3/19");
  EXPECT_STREQ(tieBreakRule(*M.candidate, M.ranked[1]), "whole phase");
  EXPECT_FALSE(M.ranked[2].score.wholePhase);
}

// A ranking cut short still holds the best profile that reproduces the
// phase, after the ranked ones: the clone of three streams below a single
// stream's profiles, with room for one.
TEST(Match, TheBestCloneStaysInAShortRanking) {
  Phase P = cgSpmv(2);
  std::vector<Profile> Ps;
  for (int I = 0; I < 30; ++I)
    Ps.push_back(Prof("mbw1p", {T(14471.25 + I, 8, 8, Pr)}, 0.000646, 2));
  Ps.push_back(Prof("axpy2p", {T(14471.25, 8, 8, Pr), T(7235.625, 4, 4, Pr)}, 0.000563, 2));
  VectorProfileSource Src(Ps);
  PhaseMatch M = matchPhase(P, {0, 1}, Src, MatchConfig::defaults(), opts(0));
  ASSERT_TRUE(M.candidate);
  EXPECT_EQ(M.candidate->ubench, "mbw1p");
  ASSERT_EQ(M.ranked.size(), 17u); // keep 0 + 16, then the clone
  EXPECT_EQ(M.ranked.back().ubench, "axpy2p");
  EXPECT_TRUE(M.ranked.back().score.reproducesPhase);
  EXPECT_EQ(wholePhaseFirstOrder(M.ranked).front(), 16u) << "the clone first where asked";
}

// whole_phase_max_tpi_percent: the clone above runs 12.8% off the phase's
// tpi, so a limit of 10% keeps METHOD.md's index (the padded update), and
// one of 15% lets the clone rank first again.
TEST(Match, WholePhaseTpiLimitKeepsTheIndexForACloneFarFromThePhase) {
  Phase P = cgSpmv();
  std::vector<Profile> Ps = {
      Prof("spmv3", {T(14471.25, 8, 8, Pr), T(7235.625, 4, 4, Pr), T(109.375, 37464, 8, Sh)},
           0.000563, 2),
      Prof("upd1pf+w3/19", {T(6867.99, 4, 4, Pr)}, 0.000641, 2)};
  VectorProfileSource Src(Ps);
  MatchConfig C = MatchConfig::defaults();
  C.wholePhaseFirst = true;
  C.wholePhaseMaxTpiPercent = 10;
  PhaseMatch Far = matchPhase(P, {0, 1, 2}, Src, C, opts());
  ASSERT_TRUE(Far.candidate);
  EXPECT_EQ(Far.candidate->ubench, "upd1pf+w3/19");
  ASSERT_EQ(Far.ranked.size(), 2u);
  EXPECT_FALSE(Far.ranked[1].score.wholePhase) << "12.8% off the phase's tpi";

  C.wholePhaseMaxTpiPercent = 15;
  PhaseMatch Near = matchPhase(P, {0, 1, 2}, Src, C, opts());
  ASSERT_TRUE(Near.candidate);
  EXPECT_EQ(Near.candidate->ubench, "spmv3");
  EXPECT_TRUE(Near.candidate->score.wholePhase);
}

// The example bt's y sweep walks a plane at a time (63 accesses 2560 B
// apart an execution, a 10 MiB stream): among profiles of one index its
// clone that walks blocks of 63 accesses a column ranks first ("walk
// shape"); for a phase whose executions span the whole slice that clone
// is discarded and the plain walk stays.
TEST(Match, ColumnSpansRankTheCloneThatWalksLikeThePhase) {
  Phase P;
  P.threads = 2;
  P.tpiUs = 3.8;
  PhaseStream S;
  S.id = "v1";
  S.tuple = T(10239.4375, 2560, 8, Pr);
  S.accessesPerExec = 63.2;
  P.streams = {S};
  // The clone that walks like the phase, its tpi 10.5% off (105 points),
  // beats the older whole-column clone 3% off (115).
  std::vector<Profile> Ps = {Prof("upd1p+w13/7", {T(10239.4375, 2560, 8, Pr)}, 3.69, 2),
                             Prof("upd1p+c63+w16/7", {T(10239.4375, 2560, 8, Pr)}, 3.4, 2),
                             Prof("upd1p+c95+w51/26", {T(10239.4375, 2560, 8, Pr)}, 3.8, 2)};
  VectorProfileSource Src(Ps);
  PhaseMatch M = matchPhase(P, {0}, Src, MatchConfig::defaults(), opts());
  ASSERT_TRUE(M.candidate);
  EXPECT_EQ(M.candidate->ubench, "upd1p+c63+w16/7");
  EXPECT_EQ(M.candidate->score.index, 105);
  ASSERT_EQ(M.ranked.size(), 2u) << "the clone of a 95-access walk is discarded";
  EXPECT_EQ(M.ranked[1].ubench, "upd1p+w13/7");
  EXPECT_EQ(M.ranked[1].score.index, 115);
  EXPECT_STREQ(tieBreakRule(*M.candidate, M.ranked[1]), "walk shape");
  EXPECT_EQ(M.queries[0].discarded, 1u);

  // Whole-slice executions (a z sweep through every plane), or no count:
  // no span asked, the spanned clones discarded.
  for (std::optional<double> Exec : {std::optional<double>(2560), std::optional<double>()}) {
    P.streams[0].accessesPerExec = Exec;
    PhaseMatch W = matchPhase(P, {0}, Src, MatchConfig::defaults(), opts());
    ASSERT_TRUE(W.candidate);
    EXPECT_EQ(W.candidate->ubench, "upd1p+w13/7");
    EXPECT_TRUE(W.ties.empty());
    EXPECT_EQ(W.queries[0].discarded, 2u);
  }
  // A unit stride has one column: nothing to confine.
  P.streams[0].accessesPerExec = 63;
  P.streams[0].tuple.strideBytes = 8;
  EXPECT_EQ(columnSpan(P.streams[0], 2), 0);
  P.streams[0].tuple.strideBytes = 2560;
  EXPECT_EQ(columnSpan(P.streams[0], 2), 63);
  P.streams[0].random = true;
  EXPECT_EQ(columnSpan(P.streams[0], 2), 0);
  EXPECT_EQ(columnSpanOf("upd1p+e2+c63+w16/7"), 63);
  EXPECT_EQ(columnSpanOf("mbw1c+w9/5"), 0);
}

// RSBench's lookups: 9 poles 72 B apart an execution, each at a random
// place of a 5 MiB table (jump_share near 1). Its clone walks jumping runs
// (+j9); the clone that walks the blocks' columns in order (+c9) is a
// clone of another loop, and discarded, as the +j9 clone is for a phase
// whose executions walk on.
TEST(Match, JumpingRunsRankTheCloneWhoseExecutionsJump) {
  Phase P;
  P.threads = 2;
  P.tpiUs = 0.0194;
  PhaseStream S;
  S.id = "v1";
  S.tuple = T(5052.734375, 72, 8, Sh);
  S.accessesPerExec = 9.05;
  S.jumpShare = 0.98;
  P.streams = {S};
  std::vector<Profile> Ps = {Prof("mbw1c+e2+c9+w22", {T(5052.734375, 72, 8, Sh)}, 0.0194, 2),
                             Prof("mbw1c+e2+j9+w15", {T(5052.734375, 72, 8, Sh)}, 0.0201, 2),
                             Prof("mbw1c+w20", {T(5052.734375, 72, 8, Sh)}, 0.0194, 2)};
  VectorProfileSource Src(Ps);
  PhaseMatch M = matchPhase(P, {0}, Src, MatchConfig::defaults(), opts());
  ASSERT_TRUE(M.candidate);
  EXPECT_EQ(M.candidate->ubench, "mbw1c+e2+j9+w15");
  EXPECT_TRUE(M.candidate->score.queryJumps);
  EXPECT_TRUE(M.candidate->score.profileJumps);
  EXPECT_EQ(M.queries[0].discarded, 1u) << "the in-order clone";
  ASSERT_EQ(M.ranked.size(), 2u);
  EXPECT_EQ(M.ranked[1].ubench, "mbw1c+w20");

  // Executions that walk on (or no share measured): the in-order clone.
  for (std::optional<double> Share : {std::optional<double>(0.02), std::optional<double>()}) {
    P.streams[0].jumpShare = Share;
    PhaseMatch W = matchPhase(P, {0}, Src, MatchConfig::defaults(), opts());
    ASSERT_TRUE(W.candidate);
    EXPECT_EQ(W.candidate->ubench, "mbw1c+e2+c9+w22");
    EXPECT_EQ(W.queries[0].discarded, 1u) << "the jumping clone";
  }
  P.streams[0].jumpShare = 0.98;
  std::vector<const PhaseStream *> Qs{&P.streams[0]};
  bool Jumps = false;
  EXPECT_EQ(columnSpan(Qs, 2, &Jumps), 9);
  EXPECT_TRUE(Jumps);
  EXPECT_TRUE(startsJump(P.streams[0]));
  EXPECT_EQ(columnSpanOf("mbw1c+e2+j9+w15"), 9);
  EXPECT_TRUE(spanJumpsOf("mbw1c+e2+j9+w15"));
  EXPECT_FALSE(spanJumpsOf("mbw1c+e2+c9+w22"));
  // Two strided streams of one span, one jumping and one not: no span.
  PhaseStream Other = P.streams[0];
  Other.id = "v2";
  Other.jumpShare = 0.01;
  Qs.push_back(&Other);
  Jumps = true;
  EXPECT_EQ(columnSpan(Qs, 2, &Jumps), 0);
  EXPECT_FALSE(Jumps);
}

// NPB CG A's SpMV: a CSR matrix and its column indices (private, element
// stride, 135 accesses an execution: one row) and the vector gathered
// through them (shared, random). Its rows are its span (core's
// columnSpan): spmv3+c<row> walks them, each summed on its own.
TEST(Match, AGatheredProductsRowsAreItsSpan) {
  auto Stream = [](double KiB, unsigned Elem, Access A, bool Random, std::optional<double> Exec) {
    PhaseStream S;
    S.tuple = {KiB, Random ? 37380.0 : double(Elem), Elem, A};
    S.random = Random;
    S.accessesPerExec = Exec;
    return S;
  };
  std::vector<PhaseStream> V = {Stream(14471.25, 8, Access::Private, false, 135.54),
                                Stream(7235.625, 4, Access::Private, false, 135.54),
                                Stream(109.375, 8, Access::Shared, true, std::nullopt)};
  auto Span = [&](std::vector<std::size_t> Pick, unsigned Threads = 2) {
    std::vector<const PhaseStream *> Q;
    for (std::size_t I : Pick)
      Q.push_back(&V[I]);
    return columnSpan(Q, Threads);
  };
  EXPECT_EQ(Span({0, 1, 2}), 136);
  EXPECT_EQ(Span({0, 2}), 136);
  EXPECT_EQ(Span({0, 1}), 0) << "no gathered stream: a contiguous walk has no span";
  EXPECT_EQ(Span({2}), 0);
  EXPECT_EQ(columnSpan(V[0], 2), 0) << "one stream alone: a unit stride has one column";
  V[1].accessesPerExec = 120; // two loops' executions, not one row
  EXPECT_EQ(Span({0, 1, 2}), 0);
  V[1].accessesPerExec = 135.54;
  V[0].accessesPerExec = 3; // rows of fewer than 4
  V[1].accessesPerExec = 3;
  EXPECT_EQ(Span({0, 1, 2}), 0);
  V[0].accessesPerExec = 200000; // an execution over more than an eighth of a slice
  V[1].accessesPerExec = 200000;
  EXPECT_EQ(Span({0, 1, 2}), 0);
  V[0].accessesPerExec = V[1].accessesPerExec = 135.54;
  V[2].tuple.access = Access::Private; // a private random stream is not spmv3's x
  EXPECT_EQ(Span({0, 1, 2}), 0);
  V[2].tuple.access = Access::Shared;
  V[1].accessesPerExec.reset(); // no count (hand-written files)
  EXPECT_EQ(Span({0, 1, 2}), 0);
}

// The example bt's y sweep (34 MiB) runs in a region whose loops walk
// about seven times as much between two of its executions: its clone
// rotates over that many copies (reuseCopies). Among profiles of one index
// the clone with as many copies ranks first ("walk shape"), one with other
// copies is discarded, the grid's plain walk stays a fallback.
TEST(Match, ReuseCopiesRankTheCloneWithThePhasesDataAround) {
  auto Leaf = [](const char *Id, double KiB, std::uint64_t Inv) {
    Phase Q;
    Q.id = Id;
    Q.parent = "r";
    Q.kind = "for";
    Q.threads = 2;
    Q.invocations = Inv;
    Q.tpiUs = 4.4;
    PhaseStream S;
    S.id = "v1";
    S.tuple = T(KiB, 3840, 8, Pr);
    Q.streams = {S};
    return Q;
  };
  PhaseFile F;
  Phase R;
  R.id = "r";
  R.kind = "parallel";
  R.invocations = 1;
  F.phases = {R, Leaf("y", 34560, 10), Leaf("x", 34560, 10), Leaf("z", 34560, 10),
              Leaf("rhs", 69120, 10), Leaf("add", 69120, 10), Leaf("init", 34560, 1)};
  const Phase &Y = F.phases[1];
  // (3 x 34560 + 2 x 69120 + 34560 / 10) / 34560 = 7.1; for rhs 3.55
  EXPECT_EQ(reuseCopies(F, Y), 7);
  EXPECT_EQ(reuseCopies(F, F.phases[4]), 4);
  EXPECT_EQ(reuseCopies(F, R), 1) << "no streams of its own";
  PhaseFile Alone;
  Alone.phases = {Leaf("y", 34560, 10)};
  EXPECT_EQ(reuseCopies(Alone, Alone.phases[0]), 1);
  PhaseFile Big = F;
  Big.phases[2].streams[0].tuple.footprintKiB = 10 * 1024 * 1024.0;
  EXPECT_EQ(reuseCopies(Big, Big.phases[1]), 8) << "at most 8";
  Big.phases[1].streams[0].tuple.footprintKiB = 300 * 1024.0;
  EXPECT_EQ(reuseCopies(Big, Big.phases[1]), 3) << "at most 1 GiB of copies";
  Big.phases[1].streams[0].tuple.footprintKiB = 2048 * 1024.0;
  EXPECT_EQ(reuseCopies(Big, Big.phases[1]), 1);
  EXPECT_EQ(reuseCopiesOf("upd1p+c95+k7+w19/9"), 7);
  EXPECT_EQ(reuseCopiesOf("upd1p+c95+w19/9"), 1);

  std::vector<Profile> Ps = {Prof("upd1p+w20/9", {T(34560, 3840, 8, Pr)}, 4.4, 2),
                             Prof("upd1p+k7+w19/9", {T(34560, 3840, 8, Pr)}, 4.0, 2),
                             Prof("upd1p+k3+w19/9", {T(34560, 3840, 8, Pr)}, 4.4, 2)};
  VectorProfileSource Src(Ps);
  PhaseMatch M = matchPhase(Y, {0}, Src, MatchConfig::defaults(), opts(), reuseCopies(F, Y));
  ASSERT_TRUE(M.candidate);
  EXPECT_EQ(M.candidate->ubench, "upd1p+k7+w19/9");
  ASSERT_EQ(M.ranked.size(), 2u) << "the clone of another phase's copies is discarded";
  EXPECT_EQ(M.ranked[1].ubench, "upd1p+w20/9");
  EXPECT_GT(M.ranked[1].score.index, M.candidate->score.index);
  EXPECT_STREQ(tieBreakRule(*M.candidate, M.ranked[1]), "walk shape");
  EXPECT_EQ(M.queries[0].discarded, 1u);
  // A phase that asks for none: the clones with copies are discarded.
  PhaseMatch N = matchPhase(Y, {0}, Src, MatchConfig::defaults(), opts());
  ASSERT_TRUE(N.candidate);
  EXPECT_EQ(N.candidate->ubench, "upd1p+w20/9");
  EXPECT_EQ(N.queries[0].discarded, 2u);
}

TEST(Match, PushedDownWindowsNeverChangeTheResult) {
  // The source prunes by the windows; explain mode scans without them. Both
  // must pick the same candidate and the same per-query bests.
  std::mt19937 Rng(7);
  std::lognormal_distribution<double> Fp(8, 1.2), Tpi(-4, 0.6);
  std::uniform_int_distribution<int> N(1, 3), Bit(0, 1), Stride(0, 3);
  std::vector<Profile> Ps;
  for (int I = 0; I < 3000; ++I) {
    std::vector<StreamTuple> S;
    int K = N(Rng);
    for (int J = 0; J < K; ++J)
      S.push_back(T(Fp(Rng), 8 << Stride(Rng), Bit(Rng) ? 8 : 4, Bit(Rng) ? Sh : Pr));
    Ps.push_back(Prof("u" + std::to_string(I % 50), S, Tpi(Rng), 4));
  }
  VectorProfileSource Src(Ps);
  for (Pairing Pair : {Pairing::Ordered, Pairing::Best}) {
    for (int Trial = 0; Trial < 20; ++Trial) {
      Phase P;
      P.threads = 4;
      P.tpiUs = Tpi(Rng);
      for (int J = 0; J < 3; ++J) {
        PhaseStream S;
        S.id = "v" + std::to_string(J);
        S.tuple = T(Fp(Rng), 8 << Stride(Rng), Bit(Rng) ? 8 : 4, Bit(Rng) ? Sh : Pr);
        P.streams.push_back(S);
      }
      auto Sig = significantStreams(P, 0);
      MatchOptions Fast = opts(4), Slow = opts(4);
      Fast.pairing = Slow.pairing = Pair;
      Slow.explain = [](size_t, const ProfileRef &, const Score &) {};
      PhaseMatch A = matchPhase(P, Sig, Src, MatchConfig::defaults(), Fast);
      PhaseMatch B = matchPhase(P, Sig, Src, MatchConfig::defaults(), Slow);
      ASSERT_EQ(A.status, B.status);
      ASSERT_EQ(A.ranked.size(), B.ranked.size());
      for (size_t I = 0; I < A.ranked.size(); ++I)
        EXPECT_EQ(A.ranked[I].profileId, B.ranked[I].profileId);
      for (size_t Q = 0; Q < A.queries.size(); ++Q) {
        ASSERT_EQ(A.queries[Q].best.has_value(), B.queries[Q].best.has_value());
        if (A.queries[Q].best) {
          EXPECT_EQ(A.queries[Q].best->profileId, B.queries[Q].best->profileId);
        }
        EXPECT_LE(A.queries[Q].compared, B.queries[Q].compared);
      }
    }
  }
}

TEST(Match, PhaseSelectionByLeafWeightAndStreams) {
  PhaseFile F;
  F.program.totalTimeS = 100;
  F.program.threads = 4;
  auto Add = [&](const std::string &Id, double Time, std::optional<std::string> Parent, double Fp) {
    Phase P = mmPhase();
    P.id = Id;
    P.timeS = Time;
    P.parent = std::move(Parent);
    P.kind = P.parent ? "for" : "parallel";
    P.streams[0].tuple.footprintKiB = Fp;
    P.streams[1].tuple.footprintKiB = Fp;
    F.phases.push_back(P);
  };
  Add("region", 90, std::nullopt, 15624); // has a child: not a leaf
  Add("loop", 80, std::string("region"), 15624);
  Add("tiny", 0.5, std::nullopt, 15624); // 0.5% < 1%
  Add("cached", 5, std::nullopt, 16);    // all streams fit in L1d
  Add("odd", 4, std::nullopt, 300);      // nothing like it
  VectorProfileSource Src(studyProfiles());
  auto M = matchPhases(F, Src, MatchConfig::defaults(), 32, opts());
  ASSERT_EQ(M.size(), 5u);
  EXPECT_EQ(M[0].status, MatchStatus::NotLeaf);
  EXPECT_EQ(M[1].status, MatchStatus::Matched);
  EXPECT_EQ(M[2].status, MatchStatus::NotSignificant);
  EXPECT_EQ(M[3].status, MatchStatus::NoStreams);
  EXPECT_EQ(M[4].status, MatchStatus::NoProfile);
  EXPECT_DOUBLE_EQ(coverage(F, M), 0.8);
  auto J = matchReportJson(F, "bn", M, MatchConfig::defaults(), Pairing::Ordered);
  EXPECT_EQ(J["schema"], "phaseprobe.estimate/1");
  EXPECT_EQ(J["phases"][1]["matched"], true);
  EXPECT_EQ(J["phases"][4]["needs_ubench"]["streams"],
            "300:8:8:private;300:32000:8:shared"); // equal footprints keep file order
  EXPECT_FALSE(J["phases"][4].contains("candidate"));
}

TEST(Match, RelaxUnmatchedLiftsOnlyTheTpiDiscard) {
  PhaseFile F;
  F.program.totalTimeS = 100;
  F.program.threads = 4;
  Phase P = mmPhase(); // tpi 0.01325
  P.timeS = 50;
  F.phases.push_back(P);
  P.id = "odd";
  P.streams[0].tuple.footprintKiB = P.streams[1].tuple.footprintKiB = 300;
  F.phases.push_back(P);
  // Streams like the phase's, but ten times faster per iteration (755%:
  // discarded), and a footprint far off (discarded by the footprint).
  VectorProfileSource Src({Prof("fast", {T(15600, 32000, 8, Sh)}, 0.001325 * 1.1),
                           Prof("far", {T(1, 8, 8, Pr)}, 0.01325)});
  MatchConfig C = MatchConfig::defaults();
  auto M = matchPhases(F, Src, C, 32, opts());
  ASSERT_EQ(M[0].status, MatchStatus::NoProfile);
  ASSERT_EQ(M[1].status, MatchStatus::NoProfile);
  relaxUnmatched(F, Src, C, 32, opts(), M);
  ASSERT_TRUE(M[0].matched());
  EXPECT_TRUE(M[0].relaxed);
  EXPECT_EQ(M[0].phaseIndex, 0u);
  EXPECT_DOUBLE_EQ(M[0].weight, 0.5);
  EXPECT_EQ(M[0].candidate->ubench, "fast");
  EXPECT_EQ(M[0].candidate->score.tpiPoints, 0); // the tpi still scores
  ASSERT_FALSE(M[0].notes.empty());
  EXPECT_NE(M[0].notes.back().find("relaxed"), std::string::npos);
  // Other discards stay: nothing walks 300 KiB.
  EXPECT_EQ(M[1].status, MatchStatus::NoProfile);
  EXPECT_FALSE(M[1].relaxed);
  auto J = matchReportJson(F, "bn", M, C, Pairing::Ordered);
  EXPECT_EQ(J["phases"][0]["relaxed"], true);
  EXPECT_FALSE(J["phases"][1].contains("relaxed"));
}

TEST(Match, RelaxUnmatchedAlsoCoversLightAndL1ResidentLeaves) {
  PhaseFile F;
  F.program.totalTimeS = 100;
  F.program.threads = 4;
  Phase P = mmPhase(); // streams 15624 and 3906 KiB, tpi 0.01325
  P.timeS = 0.5;       // 0.5%: under the 1% weight threshold
  F.phases.push_back(P);
  P.id = "inL1";
  P.timeS = 30;
  P.streams[0].tuple.footprintKiB = 24; // both below the 32 KiB L1d
  P.streams[1].tuple.footprintKiB = 12;
  P.streams[1].significant = false; // as the runtime writes it
  F.phases.push_back(P);
  VectorProfileSource Src({Prof("mbw1cX", {T(15869, 30000, 8, Sh)}, 0.01242),
                           Prof("l1", {T(24, 8, 8, Pr)}, 0.002)});
  MatchConfig C = MatchConfig::defaults();
  auto M = matchPhases(F, Src, C, 32, opts());
  ASSERT_EQ(M[0].status, MatchStatus::NotSignificant);
  ASSERT_EQ(M[1].status, MatchStatus::NoStreams);
  relaxUnmatched(F, Src, C, 32, opts(), M);
  ASSERT_TRUE(M[0].matched());
  EXPECT_TRUE(M[0].relaxed);
  EXPECT_EQ(M[0].candidate->ubench, "mbw1cX"); // its significant stream decides
  EXPECT_DOUBLE_EQ(M[0].weight, 0.005);
  EXPECT_NE(M[0].notes.back().find("weight below"), std::string::npos);
  ASSERT_TRUE(M[1].matched());
  EXPECT_TRUE(M[1].relaxed);
  EXPECT_EQ(M[1].candidate->ubench, "l1"); // 84% off in tpi, kept by the relaxation
  EXPECT_EQ(M[1].streams, (std::vector<unsigned>{0, 1}));
  EXPECT_NE(M[1].notes.back().find("L1-resident"), std::string::npos);
}

// l1_phase_min_invocation_us: a leaf on L1 data whose invocations are long
// (compute decides its time) is matched on its L1-resident streams, tpi
// discard and all; short invocations (fork and barriers decide) stay out.
TEST(Match, L1ResidentLeavesWithLongInvocationsAreMatched) {
  PhaseFile F;
  F.program.totalTimeS = 100;
  F.program.threads = 4;
  Phase P = mmPhase(); // tpi 0.01325
  P.streams[0].tuple.footprintKiB = 24;
  P.streams[1].tuple.footprintKiB = 12;
  auto Add = [&](const std::string &Id, double Time, std::uint64_t Invocations, double Tpi) {
    P.id = Id;
    P.timeS = Time;
    P.invocations = Invocations;
    P.tpiUs = Tpi;
    F.phases.push_back(P);
  };
  Add("long", 30, 4, 0.01325);        // 7.5 s an invocation
  Add("short", 30, 3000000, 0.01325); // 10 us an invocation
  Add("slow", 30, 4, 0.1);            // long, but no profile within the tpi discard
  VectorProfileSource Src({Prof("l1", {T(24, 8, 8, Pr), T(12, 32000, 8, Sh)}, 0.013)});
  MatchConfig C = MatchConfig::defaults();
  ASSERT_EQ(C.l1PhaseMinInvocationUs, 1000.0);
  MatchConfig Method = C;
  Method.l1PhaseMinInvocationUs.reset(); // METHOD.md's rule
  for (const PhaseMatch &M : matchPhases(F, Src, Method, 32, opts()))
    EXPECT_EQ(M.status, MatchStatus::NoStreams);
  auto M = matchPhases(F, Src, C, 32, opts());
  ASSERT_TRUE(M[0].matched());
  EXPECT_FALSE(M[0].relaxed);
  EXPECT_EQ(M[0].candidate->ubench, "l1");
  EXPECT_EQ(M[0].candidate->score.index, 125);
  EXPECT_EQ(M[0].phaseIndex, 0u);
  EXPECT_DOUBLE_EQ(M[0].weight, 0.3);
  ASSERT_FALSE(M[0].notes.empty());
  EXPECT_NE(M[0].notes.back().find("l1_phase_min_invocation_us"), std::string::npos);
  EXPECT_EQ(M[1].status, MatchStatus::NoStreams);
  EXPECT_EQ(M[2].status, MatchStatus::NoStreams);
  EXPECT_DOUBLE_EQ(coverage(F, M), 0.3);
}

TEST(Match, RelaxUnmatchedReplacesACandidateOnlyItsTpiKeptIn) {
  PhaseFile F;
  F.program.totalTimeS = 100;
  F.program.threads = 4;
  Phase P = mmPhase(); // v1 15624 KiB stride 32000 shared, tpi 0.01325
  P.timeS = 50;
  P.streams.erase(P.streams.begin()); // v1 only
  F.phases.push_back(P);
  // "weak" shares only the element size and the tpi (index 50); "same" walks
  // v1 exactly but ten times faster (discarded by the tpi: index 100 without).
  VectorProfileSource Src({Prof("weak", {T(10900, 48000, 8, Pr)}, 0.01325),
                           Prof("same", {T(15624, 32000, 8, Sh)}, 0.001325)});
  MatchConfig C = MatchConfig::defaults();
  auto M = matchPhases(F, Src, C, 32, opts());
  ASSERT_TRUE(M[0].matched());
  EXPECT_EQ(M[0].candidate->ubench, "weak");
  EXPECT_EQ(M[0].candidate->score.index, 50);
  relaxUnmatched(F, Src, C, 32, opts(), M);
  ASSERT_TRUE(M[0].matched());
  EXPECT_TRUE(M[0].relaxed);
  EXPECT_EQ(M[0].candidate->ubench, "same");
  EXPECT_EQ(M[0].candidate->score.index, 100);
  EXPECT_NE(M[0].notes.back().find("inside the tpi discard scores 50; one outside it scores "
                                    "more; matched with the tpi discard off (relaxed, "
                                    "similarity 100)"),
            std::string::npos);
  // A strict candidate that scores at least as well stays, not relaxed.
  VectorProfileSource Good({Prof("same", {T(15624, 32000, 8, Sh)}, 0.01325),
                            Prof("fast", {T(15624, 32000, 8, Sh)}, 0.001325)});
  auto G = matchPhases(F, Good, C, 32, opts());
  relaxUnmatched(F, Good, C, 32, opts(), G);
  ASSERT_TRUE(G[0].matched());
  EXPECT_FALSE(G[0].relaxed);
  EXPECT_EQ(G[0].candidate->ubench, "same");
}
