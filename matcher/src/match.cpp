//===- match.cpp - Queries, best profile per query, candidate, ties -------===//
//
// One scan of the source per query size: every profile with p streams is
// scored against all queries of p streams while it is at hand, so a phase
// with three significant streams costs three scans (sizes 1, 2, 3), not seven.
// The scans carry the discard windows (footprint of the first profile stream,
// tpi) so that an indexed source only returns profiles that can survive.
//
//===----------------------------------------------------------------------===//
#include "phaseprobe/matcher.h"
#include "phaseprobe/phase_file.h"
#include "phaseprobe/stream_notation.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <set>

namespace phaseprobe {

ProfileSource::~ProfileSource() = default;

VectorProfileSource::VectorProfileSource(std::vector<Profile> Ps) : Profiles(std::move(Ps)) {
  for (size_t I = 0; I < Profiles.size(); ++I)
    if (Profiles[I].id == 0)
      Profiles[I].id = std::int64_t(I + 1);
}

void VectorProfileSource::scan(const ScanRequest &R,
                               const std::function<void(const ProfileRef &)> &Fn) const {
  for (const Profile &P : Profiles) {
    if (P.threads != R.threads || P.streams.size() != R.nStreams)
      continue;
    if (R.tpiUs && (P.tpiUs < R.tpiUs->first || P.tpiUs > R.tpiUs->second))
      continue;
    if (R.firstFootprintKiB && (P.streams[0].footprintKiB < R.firstFootprintKiB->first ||
                                P.streams[0].footprintKiB > R.firstFootprintKiB->second))
      continue;
    ProfileRef Ref;
    Ref.id = P.id;
    Ref.ubench = P.ubench;
    Ref.threads = P.threads;
    Ref.streams = P.streams.data();
    Ref.nStreams = unsigned(P.streams.size());
    Ref.tpiUs = P.tpiUs;
    Fn(Ref);
  }
}

const char *matchStatusName(MatchStatus S) {
  switch (S) {
  case MatchStatus::Matched:
    return "matched";
  case MatchStatus::NotLeaf:
    return "not a leaf";
  case MatchStatus::NotSignificant:
    return "not significant";
  case MatchStatus::NoStreams:
    return "no significant stream";
  case MatchStatus::NoProfile:
    return "unmatched";
  }
  return "?";
}

namespace {

/// The ranking key of a scored profile, without copying it.
struct Key {
  double index;
  bool shape; ///< the profile's column span agrees with the query's
  bool whole; ///< the profile reproduces every significant stream (Score::wholePhase)
  double sumDiff;
  unsigned n;
  std::string_view ubench;
  const StreamTuple *streams;
  std::int64_t id;
};

Key keyOf(const Candidate &C) {
  return {C.score.index,   C.score.shapeAgrees, C.score.wholePhase,
          C.score.sumDiff, unsigned(C.streams.size()), C.ubench,
          C.streams.data(), C.profileId};
}

int compareStreams(const StreamTuple *A, const StreamTuple *B, unsigned N) {
  for (unsigned I = 0; I < N; ++I) {
    auto Cmp = [](double X, double Y) { return X < Y ? -1 : X > Y ? 1 : 0; };
    if (int C = Cmp(A[I].footprintKiB, B[I].footprintKiB))
      return C;
    if (int C = Cmp(A[I].strideBytes, B[I].strideBytes))
      return C;
    if (int C = Cmp(A[I].elemBytes, B[I].elemBytes))
      return C;
    if (int C = Cmp(int(A[I].access), int(B[I].access)))
      return C;
  }
  return 0;
}

/// The rules that rank two candidates, in the numbering of tieBreakRule's
/// names (their order of application is compareKeys').
enum RankRule : int {
  BySimilarity = 0,
  ByWalkShape = 1,
  ByRelativeDifference = 2,
  ByStreamCount = 3,
  ByName = 4,
  ByParameters = 5,
  ById = 6,
  Identical = 7,
  ByWholePhase = 8
};

/// The rule that separated A and B, and the direction.
int compareKeys(const Key &A, const Key &B, int *Rule = nullptr) {
  auto Ret = [&](RankRule R, int V) {
    if (Rule)
      *Rule = R;
    return V;
  };
  // The walk shape first: a clone that walks like the phase scales like it
  // from node to node, which a closer tpi on the base node does not buy
  // (the padded clones' tpi moves by 10% between calibration and rounds).
  if (A.shape != B.shape)
    return Ret(ByWalkShape, A.shape ? -1 : 1);
  // Then, where the configuration asks for it, a profile with all of the
  // phase's streams: on other nodes it scales like the phase's traffic,
  // which a profile of some of them with a closer tpi need not.
  if (A.whole != B.whole)
    return Ret(ByWholePhase, A.whole ? -1 : 1);
  if (std::fabs(A.index - B.index) > 1e-9)
    return Ret(BySimilarity, A.index > B.index ? -1 : 1);
  // Summed differences can be infinite (a zero phase value without discard).
  if (!(A.sumDiff == B.sumDiff) && std::fabs(A.sumDiff - B.sumDiff) > 1e-9)
    return Ret(ByRelativeDifference, A.sumDiff < B.sumDiff ? -1 : 1);
  if (A.n != B.n)
    return Ret(ByStreamCount, A.n < B.n ? -1 : 1);
  if (int C = A.ubench.compare(B.ubench))
    return Ret(ByName, C < 0 ? -1 : 1);
  if (int C = compareStreams(A.streams, B.streams, A.n))
    return Ret(ByParameters, C);
  if (A.id != B.id)
    return Ret(ById, A.id < B.id ? -1 : 1);
  return Ret(Identical, 0);
}

/// Distinct profiles, best first, at most Cap of them.
class RankedList {
public:
  explicit RankedList(size_t Cap) : Cap(std::max<size_t>(Cap, 1)) {}

  void offer(const Key &K, const ProfileRef &R, size_t Query, const Score &S) {
    if (List.size() == Cap && compareKeys(K, keyOf(List.back())) >= 0)
      return;
    for (size_t I = 0; I < List.size(); ++I) {
      if (List[I].profileId != R.id)
        continue;
      if (compareKeys(keyOf(List[I]), K) <= 0)
        return; // already there, as good
      List.erase(List.begin() + long(I));
      break;
    }
    auto Pos = std::find_if(List.begin(), List.end(),
                            [&](const Candidate &C) { return compareKeys(K, keyOf(C)) < 0; });
    List.insert(Pos, makeCandidate(R, Query, S));
    if (List.size() > Cap)
      List.pop_back();
  }

  static Candidate makeCandidate(const ProfileRef &R, size_t Query, const Score &S) {
    Candidate C;
    C.profileId = R.id;
    C.ubench = std::string(R.ubench);
    C.streams.assign(R.streams, R.streams + R.nStreams);
    C.threads = R.threads;
    C.tpiUs = R.tpiUs;
    C.query = Query;
    C.score = S;
    return C;
  }

  size_t Cap;
  std::vector<Candidate> List;
};

/// All size-P subsets of {0..N-1} in lexicographic order.
void combinations(unsigned N, unsigned P, std::vector<std::vector<unsigned>> &Out) {
  std::vector<unsigned> C(P);
  for (unsigned I = 0; I < P; ++I)
    C[I] = I;
  for (;;) {
    Out.push_back(C);
    int I = int(P) - 1;
    while (I >= 0 && C[unsigned(I)] == N - P + unsigned(I))
      --I;
    if (I < 0)
      return;
    ++C[unsigned(I)];
    for (unsigned J = unsigned(I) + 1; J < P; ++J)
      C[J] = C[J - 1] + 1;
  }
}

double binomial(unsigned N, unsigned K) {
  double R = 1;
  for (unsigned I = 1; I <= K; ++I)
    R = R * (N - K + I) / I;
  return R;
}

/// The inclusive window of profile values that can survive a discard
/// threshold around phase value V, widened a little so the SQL filter never
/// cuts what the exact test would keep.
std::optional<std::pair<double, double>> window(const BandedField &F, double Lo, double Hi) {
  if (!F.discardAbove)
    return std::nullopt;
  double D = *F.discardAbove / 100.0;
  double Low = std::max(0.0, Lo * (1 - D)) * (1 - 1e-6);
  double High = Hi * (1 + D) * (1 + 1e-6);
  return std::make_pair(Low, High);
}

/// Whether every pair of \p S earns the top points of footprint and stride
/// and the equal points of element and access: the profile walks the
/// query's streams as they are, not streams near them.
bool reproducesStreams(const MatchConfig &C, const Score &S) {
  for (unsigned I = 0; I < S.nPairs; ++I) {
    const PairDetail &D = S.pairs[I];
    if (D.footprintPoints < C.footprint.maxPoints() || D.stridePoints < C.stride.maxPoints() ||
        D.elemPoints < C.elem.equal || D.accessPoints < C.access.equal)
      return false;
  }
  return S.nPairs > 0;
}

/// Under the absolute rule a clone's base tpi enters every estimate, so a
/// configuration may ask that it be close before the clone outranks the index.
bool tpiCloseEnoughForWhole(const MatchConfig &C, const Score &S) {
  return !C.wholePhaseMaxTpiPercent || S.tpiDiff <= *C.wholePhaseMaxTpiPercent * (1 + 1e-9);
}

/// Queries beyond this many are not generated (the count grows as 2^n).
constexpr double MaxQueries = 20000;

} // namespace

int compareCandidates(const Candidate &A, const Candidate &B) {
  return compareKeys(keyOf(A), keyOf(B));
}

std::vector<size_t> wholePhaseFirstOrder(const std::vector<Candidate> &Ranked) {
  std::vector<size_t> Order(Ranked.size());
  std::iota(Order.begin(), Order.end(), size_t(0));
  auto WholeKey = [&](size_t I) {
    Key K = keyOf(Ranked[I]);
    K.whole = Ranked[I].score.reproducesPhase;
    return K;
  };
  std::stable_sort(Order.begin(), Order.end(),
                   [&](size_t A, size_t B) { return compareKeys(WholeKey(A), WholeKey(B)) < 0; });
  return Order;
}

const char *tieBreakRule(const Candidate &Winner, const Candidate &Other) {
  int Rule = 0;
  compareKeys(keyOf(Winner), keyOf(Other), &Rule);
  static const char *Names[] = {"similarity", "walk shape", "relative difference",
                                "streams",    "name",       "parameters",
                                "id",         "identical",  "whole phase"};
  return Names[Rule];
}

PhaseMatch matchPhase(const Phase &P, const std::vector<unsigned> &Streams,
                      const ProfileSource &Src, const MatchConfig &C, const MatchOptions &O,
                      long Copies) {
  PhaseMatch M;
  M.streams = Streams;
  M.status = MatchStatus::NoProfile;
  unsigned N = unsigned(Streams.size());
  unsigned MaxP = std::min({N, C.maxQueryStreams, MaxQueryStreams});
  if (MaxP < N)
    M.notes.push_back("the phase has " + std::to_string(N) +
                      " significant streams; queries are limited to " + std::to_string(MaxP) +
                      " streams (max_query_streams)");
  // Query sizes in increasing order, as METHOD.md lists them.
  std::vector<std::pair<unsigned, size_t>> SizeStart; // (size, first query index)
  double Total = 0;
  for (unsigned Sz = 1; Sz <= MaxP; ++Sz) {
    Total += binomial(N, Sz);
    if (Total > MaxQueries) {
      M.notes.push_back("queries of " + std::to_string(Sz) + " or more streams left out (over " +
                        std::to_string(size_t(MaxQueries)) + " queries)");
      break;
    }
    SizeStart.emplace_back(Sz, M.queries.size());
    std::vector<std::vector<unsigned>> Combos;
    combinations(N, Sz, Combos);
    for (auto &Co : Combos) {
      QueryResult Q;
      for (unsigned Pos : Co)
        Q.streams.push_back(Streams[Pos]);
      M.queries.push_back(std::move(Q));
    }
  }

  const bool WholeFirst = C.wholePhaseFirst.value_or(false);
  RankedList Ranked(O.keep + 16);
  std::optional<Candidate> BestWhole; // the best profile that reproduces the phase
  for (size_t S = 0; S < SizeStart.size(); ++S) {
    unsigned Sz = SizeStart[S].first;
    size_t First = SizeStart[S].second;
    size_t Last = S + 1 < SizeStart.size() ? SizeStart[S + 1].second : M.queries.size();
    // The query tuples, contiguous per query for the scoring loop.
    std::vector<StreamTuple> Tuples;
    std::vector<long> Spans; // the column span each query asks of a clone
    std::vector<char> Jumps; // and whether it is walked in jumping runs
    for (size_t Q = First; Q < Last; ++Q) {
      std::vector<const PhaseStream *> Qs;
      for (unsigned Idx : M.queries[Q].streams) {
        Tuples.push_back(P.streams[Idx].tuple);
        Qs.push_back(&P.streams[Idx]);
      }
      bool Jump = false;
      Spans.push_back(columnSpan(Qs, P.threads, &Jump));
      Jumps.push_back(Jump);
    }

    ScanRequest R;
    R.threads = P.threads;
    R.nStreams = Sz;
    if (!O.explain) {
      R.tpiUs = window(C.tpi, P.tpiUs, P.tpiUs);
      // Ordered pairing puts a query's largest stream first; the queries of
      // this size start with sorted positions 0..N-Sz. Best pairing may
      // pair the profile's first stream with any phase stream.
      double Largest = P.streams[Streams[0]].tuple.footprintKiB;
      unsigned LowPos = O.pairing == Pairing::Ordered ? N - Sz : N - 1;
      double Smallest = P.streams[Streams[LowPos]].tuple.footprintKiB;
      R.firstFootprintKiB = window(C.footprint, Smallest, Largest);
    }
    Src.scan(R, [&](const ProfileRef &Ref) {
      if (isPricingUBench(Ref.ubench))
        return; // priced apart by the estimator, never a phase's twin
      for (size_t Q = First; Q < Last; ++Q) {
        const StreamTuple *QT = Tuples.data() + (Q - First) * Sz;
        Score Sc = scoreQuery(C, O.pairing, QT, Sz, P.tpiUs, Ref.streams, Ref.tpiUs);
        applyColumnSpan(Sc, Spans[Q - First], Jumps[Q - First] != 0, Ref.ubench);
        applyReuseCopies(Sc, Copies, Ref.ubench);
        Sc.reproducesPhase = Sz == N && !Sc.discarded && reproducesStreams(C, Sc) &&
                             tpiCloseEnoughForWhole(C, Sc);
        Sc.wholePhase = WholeFirst && Sc.reproducesPhase;
        QueryResult &QR = M.queries[Q];
        ++QR.compared;
        if (O.explain)
          O.explain(Q, Ref, Sc);
        if (Sc.discarded) {
          ++QR.discarded;
          continue;
        }
        Key K{Sc.index, Sc.shapeAgrees, Sc.wholePhase, Sc.sumDiff, Sz, Ref.ubench, Ref.streams,
              Ref.id};
        if (!QR.best || compareKeys(K, keyOf(*QR.best)) < 0)
          QR.best = RankedList::makeCandidate(Ref, Q, Sc);
        if (Sc.reproducesPhase && (!BestWhole || compareKeys(K, keyOf(*BestWhole)) < 0))
          BestWhole = RankedList::makeCandidate(Ref, Q, Sc);
        Ranked.offer(K, Ref, Q, Sc);
      }
    });
  }
  if (Ranked.List.empty())
    return M;
  M.status = MatchStatus::Matched;
  M.candidate = Ranked.List.front();
  if (M.candidate->score.wholePhase)
    for (const Candidate &R : Ranked.List)
      if (!R.score.wholePhase && R.score.index > M.candidate->score.index + 1e-9) {
        M.notes.push_back("ranked first as the whole phase (every significant stream as it is, "
                          "whole_phase_first) over " + R.ubench + " of " +
                          std::to_string(R.streams.size()) + " stream" +
                          (R.streams.size() == 1 ? "" : "s") + " at similarity " +
                          formatNumber(R.score.index));
        break;
      }
  for (size_t I = 1; I < Ranked.List.size(); ++I)
    if (std::fabs(Ranked.List[I].score.index - M.candidate->score.index) <= 1e-9)
      M.ties.push_back(Ranked.List[I]);
  M.tiesTruncated = Ranked.List.size() == Ranked.Cap &&
                    std::fabs(Ranked.List.back().score.index - M.candidate->score.index) <= 1e-9;
  M.ranked = std::move(Ranked.List);
  // Below the ranked ones it stays last, but a node of another CPU design
  // may be estimated with it (the estimator's whole phase on another CPU).
  if (BestWhole && std::none_of(M.ranked.begin(), M.ranked.end(), [&](const Candidate &R) {
        return R.profileId == BestWhole->profileId;
      }))
    M.ranked.push_back(std::move(*BestWhole));
  return M;
}

namespace {
/// A leaf whose streams all fit in L1 is not waiting for memory: where each
/// invocation is long enough that its fork, barriers and join are a small
/// part of it (miniBUDE bm1's kernel: 455 ms an invocation, not LULESH's
/// 2.5-11 us EOS loops), its arithmetic decides its time, and the uB that
/// walks the same L1-resident streams at its tpi (its calibrated clone)
/// scales like it. Matched with the same rules as any phase, tpi discard
/// included; nothing when the configuration leaves it off, the phase's
/// invocations are shorter, or no profile survives.
std::optional<PhaseMatch> matchOnL1Data(const Phase &P, size_t Index, const ProfileSource &Src,
                                        const MatchConfig &C, double StreamKiB,
                                        const MatchOptions &O, long Copies) {
  if (!C.l1PhaseMinInvocationUs || P.invocations == 0 || P.streams.empty())
    return std::nullopt;
  double PerInvocationUs = P.timeS / double(P.invocations) * 1e6;
  if (PerInvocationUs < *C.l1PhaseMinInvocationUs)
    return std::nullopt;
  // The streams `clone` makes this leaf's clone of, in the same order.
  std::vector<unsigned> Streams = relaxedStreams(P, StreamKiB);
  if (O.onPhase)
    O.onPhase(Index);
  PhaseMatch R = matchPhase(P, Streams, Src, C, O, Copies);
  if (!R.matched())
    return std::nullopt;
  R.notes.push_back("no significant stream; its invocations last " + formatNumber(PerInvocationUs) +
                    " us on average (at least " + formatNumber(*C.l1PhaseMinInvocationUs) +
                    ", l1_phase_min_invocation_us): matched on its L1-resident streams");
  return R;
}
} // namespace

std::vector<PhaseMatch> matchPhases(const PhaseFile &F, const ProfileSource &Src,
                                    const MatchConfig &C, double StreamKiB, const MatchOptions &O) {
  std::vector<PhaseMatch> Out(F.phases.size());
  std::vector<size_t> Leaves = leafPhases(F);
  std::set<size_t> LeafSet(Leaves.begin(), Leaves.end());
  for (size_t I = 0; I < F.phases.size(); ++I) {
    const Phase &P = F.phases[I];
    PhaseMatch &M = Out[I];
    double W = phaseWeight(P, F.program);
    if (!LeafSet.count(I)) {
      M.status = MatchStatus::NotLeaf;
    } else if (W < C.significantWeight - 1e-12) {
      M.status = MatchStatus::NotSignificant;
    } else {
      std::vector<unsigned> S = significantStreams(P, StreamKiB);
      if (S.empty()) {
        M.status = MatchStatus::NoStreams;
        if (std::optional<PhaseMatch> L1 =
                matchOnL1Data(P, I, Src, C, StreamKiB, O, reuseCopies(F, P)))
          M = std::move(*L1);
      } else {
        if (O.onPhase)
          O.onPhase(I);
        M = matchPhase(P, S, Src, C, O, reuseCopies(F, P));
      }
    }
    M.phaseIndex = I;
    M.weight = W;
  }
  return Out;
}

namespace {
/// The relaxed candidate replaces the strict one only where the ranking's
/// rules up to the index put it first (walk shape, whole phase, higher
/// index), not by a tie-break: a closer sum of differences is not worth a
/// tpi outside the discard.
bool outranksByIndex(const Candidate &R, const Candidate &S) {
  int Rule = Identical;
  return compareKeys(keyOf(R), keyOf(S), &Rule) < 0 &&
         (Rule == ByWalkShape || Rule == ByWholePhase || Rule == BySimilarity);
}
} // namespace

void relaxUnmatched(const PhaseFile &F, const ProfileSource &Src, const MatchConfig &C,
                    double StreamKiB, const MatchOptions &O, std::vector<PhaseMatch> &M) {
  MatchConfig Relaxed = C;
  Relaxed.tpi.discardAbove.reset();
  for (PhaseMatch &PM : M) {
    const Phase &P = F.phases[PM.phaseIndex];
    std::vector<unsigned> Streams = PM.streams;
    std::string Why; // what the note says before "(relaxed)"
    if (PM.matched() && !PM.relaxed) {
      // The discard may have left only profiles that share little with the
      // phase but its tpi (the base run and the uBs measured minutes apart
      // on a drifting machine, or a phase with more work per iteration than
      // the uBs that walk its streams): a profile it threw out that scores
      // higher, tpi points and all, is the better guide for the ratio rule.
      Why = "the best profile inside the tpi discard scores " +
            formatNumber(PM.candidate->score.index) + "; one outside it scores more";
    } else if (PM.status == MatchStatus::NoProfile) {
      Why = "no profile within the tpi discard";
    } else if (PM.status == MatchStatus::NoStreams || PM.status == MatchStatus::NotSignificant) {
      // A leaf left out for its weight or for streams that fit in L1 still
      // runs on every node; under the ratio rule its own streams say more
      // about how it scales than keeping its base time would.
      bool L1Resident = false;
      Streams = relaxedStreams(P, StreamKiB, &L1Resident);
      if (PM.status == MatchStatus::NotSignificant)
        Why = "weight below the significance threshold";
      if (L1Resident)
        Why += std::string(Why.empty() ? "" : "; ") +
               "no significant stream, queried with its L1-resident ones";
    } else {
      continue;
    }
    if (Streams.empty())
      continue;
    if (O.onPhase)
      O.onPhase(PM.phaseIndex);
    PhaseMatch R = matchPhase(P, Streams, Src, Relaxed, O, reuseCopies(F, P));
    if (!R.matched() || (PM.matched() && !outranksByIndex(*R.candidate, *PM.candidate)))
      continue;
    char Diff[32];
    std::snprintf(Diff, sizeof Diff, "%.1f%%", R.candidate->score.tpiDiff);
    R.notes.push_back(Why + "; matched with the tpi discard off (relaxed, similarity " +
                      formatNumber(R.candidate->score.index) +
                      "): the candidate's tpi differs from the phase's by " + Diff);
    R.phaseIndex = PM.phaseIndex;
    R.weight = PM.weight;
    R.relaxed = true;
    PM = std::move(R);
  }
}

std::string queryNotation(const Phase &P, const std::vector<unsigned> &Streams) {
  std::vector<StreamTuple> T;
  for (unsigned I : Streams)
    T.push_back(P.streams[I].tuple);
  return formatStreams(T);
}

std::string queryName(const Phase &P, const std::vector<unsigned> &Streams) {
  std::string S = "[";
  for (size_t I = 0; I < Streams.size(); ++I) {
    if (I)
      S += ',';
    S += P.streams[Streams[I]].id;
  }
  return S + "]";
}

} // namespace phaseprobe
