//===- score.cpp - One query against one profile --------------------------===//
//
// The similarity index of METHOD.md, stage 3. This is the inner loop of the
// matcher (run once per query and scanned profile), so it works on fixed-size
// arrays and never allocates.
//
//===----------------------------------------------------------------------===//
#include "phaseprobe/matcher.h"

#include <algorithm>
#include <cmath>

namespace phaseprobe {

double relativeDifference(double Phase, double Profile) {
  if (Phase == 0)
    return Profile == 0 ? 0 : std::numeric_limits<double>::infinity();
  return std::fabs(Phase - Profile) / std::fabs(Phase) * 100.0;
}

/// Inclusive edge test with a relative tolerance: 15936.48 vs 15624 is 2%
/// in decimal but 2.0000000000000004 in binary, and belongs to the 2% band.
static bool withinEdge(double D, double Edge) { return D <= Edge + std::fabs(Edge) * 1e-9 + 1e-12; }

double bandPoints(const BandedField &F, double D, bool &Discard) {
  Discard = F.discardAbove && !withinEdge(D, *F.discardAbove);
  for (const auto &B : F.bands)
    if (withinEdge(D, B.first))
      return B.second;
  return F.otherwise;
}

/// Scores one assignment: query stream I meets profile stream Perm[I].
static void scoreAssignment(const MatchConfig &C, const StreamTuple *Q, unsigned N,
                            const StreamTuple *Prof, const unsigned *Perm, double TpiDiff,
                            double TpiPoints, bool TpiDiscard, Score &S) {
  S.nPairs = N;
  S.discarded = false;
  S.discardField = nullptr;
  double FpD = 0, StD = 0, FpP = 0, StP = 0, ElP = 0, AcP = 0;
  for (unsigned I = 0; I < N; ++I) {
    const StreamTuple &A = Q[I], &B = Prof[Perm[I]];
    PairDetail &D = S.pairs[I];
    D.profileStream = Perm[I];
    bool FpDiscard, StDiscard;
    D.footprintDiff = relativeDifference(A.footprintKiB, B.footprintKiB);
    D.footprintPoints = bandPoints(C.footprint, D.footprintDiff, FpDiscard);
    // Strides compare by magnitude: a loop walking an array backwards has
    // the memory behaviour of the same loop walking it forwards.
    D.strideDiff = relativeDifference(std::fabs(A.strideBytes), std::fabs(B.strideBytes));
    D.stridePoints = bandPoints(C.stride, D.strideDiff, StDiscard);
    D.elemPoints = A.elemBytes == B.elemBytes ? C.elem.equal : C.elem.different;
    D.accessPoints = A.access == B.access ? C.access.equal : C.access.different;
    D.discard = FpDiscard || StDiscard;
    if (D.discard && !S.discarded) {
      S.discarded = true;
      S.discardField = FpDiscard ? "footprint" : "stride";
      S.discardStream = I;
    }
    FpD += D.footprintDiff;
    StD += D.strideDiff;
    FpP += D.footprintPoints;
    StP += D.stridePoints;
    ElP += D.elemPoints;
    AcP += D.accessPoints;
  }
  S.footprintDiff = FpD / N;
  S.strideDiff = StD / N;
  S.footprintPoints = FpP / N;
  S.stridePoints = StP / N;
  S.elemPoints = ElP / N;
  S.accessPoints = AcP / N;
  S.tpiDiff = TpiDiff;
  S.tpiPoints = TpiPoints;
  if (TpiDiscard && !S.discarded) {
    S.discarded = true;
    S.discardField = "tpi";
    S.discardStream = 0;
  }
  S.index = S.footprintPoints + S.stridePoints + S.elemPoints + S.accessPoints + S.tpiPoints;
  S.sumDiff = S.footprintDiff + S.strideDiff + S.tpiDiff;
}

/// Whether assignment score A beats B: surviving first, then the index, then
/// the smaller summed difference; the earlier assignment (the ordered one
/// first) wins exact ties, so Best never departs from Ordered needlessly.
static bool betterAssignment(const Score &A, const Score &B) {
  if (A.discarded != B.discarded)
    return !A.discarded;
  if (std::fabs(A.index - B.index) > 1e-9)
    return A.index > B.index;
  return A.sumDiff < B.sumDiff - 1e-9;
}

void applyColumnSpan(Score &S, long QuerySpan, bool QueryJumps, std::string_view UBench) {
  S.querySpan = QuerySpan;
  S.profileSpan = columnSpanOf(UBench);
  S.queryJumps = QuerySpan > 0 && QueryJumps;
  S.profileJumps = S.profileSpan > 0 && spanJumpsOf(UBench);
  auto Near = [](long A, long B) { return std::labs(A - B) <= 0.1 * double(std::max(A, B)); };
  const bool SpansAgree =
      S.profileSpan == 0 ? QuerySpan == 0 : QuerySpan > 0 && Near(S.profileSpan, QuerySpan);
  S.shapeAgrees = SpansAgree && S.profileJumps == S.queryJumps;
  if (S.profileSpan > 0 && !S.shapeAgrees && !S.discarded) {
    S.discarded = true;
    S.discardField = SpansAgree ? "jumping runs" : "column span";
  }
}

void applyReuseCopies(Score &S, long QueryCopies, std::string_view UBench) {
  S.queryCopies = QueryCopies;
  S.profileCopies = reuseCopiesOf(UBench);
  S.shapeAgrees = S.shapeAgrees && S.profileCopies == QueryCopies;
  if (S.profileCopies > 1 && S.profileCopies != QueryCopies && !S.discarded) {
    S.discarded = true;
    S.discardField = "reuse copies";
  }
}

Score scoreQuery(const MatchConfig &C, Pairing P, const StreamTuple *Q, unsigned N, double QTpi,
                 const StreamTuple *Prof, double ProfTpi) {
  N = std::min(N, MaxQueryStreams);
  Score S;
  bool TpiDiscard;
  double TpiDiff = relativeDifference(QTpi, ProfTpi);
  double TpiPoints = bandPoints(C.tpi, TpiDiff, TpiDiscard);
  unsigned Perm[MaxQueryStreams] = {};
  for (unsigned I = 0; I < N; ++I)
    Perm[I] = I;
  scoreAssignment(C, Q, N, Prof, Perm, TpiDiff, TpiPoints, TpiDiscard, S);
  if (P == Pairing::Ordered || N < 2)
    return S;
  Score T;
  while (std::next_permutation(Perm, Perm + N)) {
    scoreAssignment(C, Q, N, Prof, Perm, TpiDiff, TpiPoints, TpiDiscard, T);
    if (betterAssignment(T, S))
      S = T;
  }
  return S;
}

} // namespace phaseprobe
