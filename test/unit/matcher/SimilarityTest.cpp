//===- SimilarityTest.cpp - The similarity index of METHOD.md, stage 3 ----===//
//
// The worked example must come out exactly (95 / 85 / discarded); band edges
// are inclusive, the discard test strict; pairing, zero values and the
// configuration file behave as matcher/README.md documents.
//
//===----------------------------------------------------------------------===//
#include "phaseprobe/error.h"
#include "phaseprobe/matcher.h"

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
const MatchConfig Def = MatchConfig::defaults();

Score one(const StreamTuple &Q, double QTpi, const StreamTuple &P, double PTpi,
          const MatchConfig &C = Def) {
  return scoreQuery(C, Pairing::Ordered, &Q, 1, QTpi, &P, PTpi);
}

} // namespace

TEST(Similarity, WorkedExampleOfMethodMd) {
  StreamTuple V1 = T(15624, 32000, 8, Sh);
  const double Tpi = 0.01325;

  Score X = one(V1, Tpi, T(15869, 30000, 8, Sh), 0.01242); // mbw1cX
  EXPECT_FALSE(X.discarded);
  EXPECT_NEAR(X.footprintDiff, 1.57, 0.005);
  EXPECT_EQ(X.footprintPoints, 25);
  EXPECT_DOUBLE_EQ(X.strideDiff, 6.25);
  EXPECT_EQ(X.stridePoints, 10);
  EXPECT_EQ(X.elemPoints, 25);
  EXPECT_EQ(X.accessPoints, 25);
  EXPECT_NEAR(X.tpiDiff, 6.26, 0.005);
  EXPECT_EQ(X.tpiPoints, 10);
  EXPECT_EQ(X.index, 95);

  Score C = one(V1, Tpi, T(16864, 32000, 8, Sh), 0.01006); // mbw1c
  EXPECT_FALSE(C.discarded);
  EXPECT_NEAR(C.footprintDiff, 7.94, 0.005);
  EXPECT_EQ(C.footprintPoints, 10);
  EXPECT_EQ(C.strideDiff, 0);
  EXPECT_EQ(C.stridePoints, 25);
  EXPECT_GT(C.tpiDiff, 20);
  EXPECT_EQ(C.tpiPoints, 0);
  EXPECT_EQ(C.index, 85);

  Score H = one(V1, Tpi, T(16264, 32000, 8, Sh), 0.12454); // mbw1hc
  EXPECT_NEAR(H.tpiDiff, 839.92, 0.005);
  EXPECT_TRUE(H.discarded);
  EXPECT_STREQ(H.discardField, "tpi");
}

TEST(Similarity, TwoStreamProfileOfContractsMd) {
  // mbwXA2hc of CONTRACTS.md against [v1,v2] of the MM phase: 100.
  StreamTuple Q[] = {T(15624, 32000, 8, Sh), T(3906, 8, 8, Pr)};
  StreamTuple P[] = {T(15617, 32000, 8, Sh), T(3124, 8, 8, Sh)};
  Score S = scoreQuery(Def, Pairing::Ordered, Q, 2, 0.01325, P, 0.01316);
  EXPECT_FALSE(S.discarded);
  EXPECT_EQ(S.footprintPoints, 12.5); // (25 + 0) / 2: 3124 is 20.02% off
  EXPECT_EQ(S.stridePoints, 25);
  EXPECT_EQ(S.elemPoints, 25);
  EXPECT_EQ(S.accessPoints, 12.5);
  EXPECT_EQ(S.tpiPoints, 25); // compared once
  EXPECT_EQ(S.index, 100);
  EXPECT_EQ(S.nPairs, 2u);
  EXPECT_EQ(S.pairs[1].accessPoints, 0);
}

TEST(Similarity, BandEdgesAreInclusiveAndDiscardIsStrict) {
  StreamTuple Q = T(100, 100, 8, Sh);
  auto Fp = [&](double Prof) { return one(Q, 1, T(Prof, 100, 8, Sh), 1); };
  EXPECT_EQ(Fp(102).footprintPoints, 25); // exactly 2%
  EXPECT_EQ(Fp(98).footprintPoints, 25);
  EXPECT_EQ(Fp(102.001).footprintPoints, 15); // just above
  EXPECT_EQ(Fp(105).footprintPoints, 15);
  EXPECT_EQ(Fp(110).footprintPoints, 10);
  EXPECT_EQ(Fp(120).footprintPoints, 5);
  EXPECT_EQ(Fp(120.01).footprintPoints, 0);
  EXPECT_FALSE(Fp(180).discarded); // exactly 80%: kept
  EXPECT_FALSE(Fp(20).discarded);
  EXPECT_TRUE(Fp(180.01).discarded);
  EXPECT_TRUE(Fp(19.99).discarded);
  // Decimal inputs on an edge whose binary quotient lands a hair above it.
  StreamTuple V1 = T(15624, 32000, 8, Sh);
  EXPECT_EQ(one(V1, 1, T(15624 * 1.02, 32000, 8, Sh), 1).footprintPoints, 25);
  EXPECT_EQ(one(V1, 0.01325, V1, 0.01325 * 1.05).tpiPoints, 15);
  EXPECT_EQ(one(V1, 0.01325, V1, 0.01325 * 1.8).discarded, false);
  // Stride bands: 25 up to 5%, 10 up to 10%, 0 beyond.
  auto St = [&](double Prof) { return one(Q, 1, T(100, Prof, 8, Sh), 1).stridePoints; };
  EXPECT_EQ(St(105), 25);
  EXPECT_EQ(St(110), 10);
  EXPECT_EQ(St(111), 0);
  EXPECT_EQ(St(180), 0);
}

TEST(Similarity, QualitativeFields) {
  StreamTuple Q = T(100, 8, 8, Sh);
  EXPECT_EQ(one(Q, 1, T(100, 8, 4, Sh), 1).elemPoints, 0);
  EXPECT_EQ(one(Q, 1, T(100, 8, 8, Pr), 1).accessPoints, 0);
  EXPECT_EQ(one(Q, 1, Q, 1).index, 125);
}

TEST(Similarity, ZeroPhaseValuesAndNegativeStrides) {
  // A zero phase value: equal only to zero, infinitely far from the rest.
  Score Z = one(T(100, 0, 8, Sh), 1, T(100, 0, 8, Sh), 1);
  EXPECT_EQ(Z.strideDiff, 0);
  EXPECT_EQ(Z.stridePoints, 25);
  Score NZ = one(T(100, 0, 8, Sh), 1, T(100, 8, 8, Sh), 1);
  EXPECT_TRUE(NZ.discarded);
  EXPECT_STREQ(NZ.discardField, "stride");
  Score TZ = one(T(100, 8, 8, Sh), 0, T(100, 8, 8, Sh), 0.5);
  EXPECT_TRUE(TZ.discarded);
  EXPECT_STREQ(TZ.discardField, "tpi");
  EXPECT_EQ(one(T(100, 8, 8, Sh), 0, T(100, 8, 8, Sh), 0).tpiPoints, 25);
  // Without a discard threshold an infinite difference earns "otherwise".
  MatchConfig C = Def;
  C.stride.discardAbove.reset();
  Score NoDiscard = one(T(100, 0, 8, Sh), 1, T(100, 8, 8, Sh), 1, C);
  EXPECT_FALSE(NoDiscard.discarded);
  EXPECT_EQ(NoDiscard.stridePoints, 0);
  // Strides compare by magnitude.
  EXPECT_EQ(one(T(100, -8, 8, Sh), 1, T(100, 8, 8, Sh), 1).strideDiff, 0);
}

TEST(Similarity, AnyPairDiscardDiscardsTheProfile) {
  StreamTuple Q[] = {T(1000, 8, 8, Sh), T(500, 8, 8, Sh)};
  StreamTuple P[] = {T(1000, 8, 8, Sh), T(5000, 8, 8, Sh)};
  Score S = scoreQuery(Def, Pairing::Ordered, Q, 2, 1, P, 1);
  EXPECT_TRUE(S.discarded);
  EXPECT_STREQ(S.discardField, "footprint");
  EXPECT_EQ(S.discardStream, 1u);
}

TEST(Similarity, BestPairingFindsTheSwappedAssignment) {
  StreamTuple Q[] = {T(4000, 8, 8, Sh), T(1000, 64, 4, Pr)};
  StreamTuple P[] = {T(1000, 64, 4, Pr), T(4000, 8, 8, Sh)}; // stored swapped
  Score O = scoreQuery(Def, Pairing::Ordered, Q, 2, 1, P, 1);
  Score B = scoreQuery(Def, Pairing::Best, Q, 2, 1, P, 1);
  EXPECT_TRUE(O.discarded);
  EXPECT_FALSE(B.discarded);
  EXPECT_EQ(B.index, 125);
  EXPECT_EQ(B.pairs[0].profileStream, 1u);
  EXPECT_EQ(B.pairs[1].profileStream, 0u);
}

TEST(Similarity, BestPairingNeverScoresBelowOrdered) {
  std::mt19937 Rng(42);
  std::uniform_real_distribution<double> Fp(500, 1500), Tpi(0.5, 1.5);
  std::uniform_int_distribution<int> Stride(1, 4), Bit(0, 1);
  for (int Trial = 0; Trial < 2000; ++Trial) {
    unsigned N = 1 + unsigned(Trial % 3);
    StreamTuple Q[3], P[3];
    for (unsigned I = 0; I < N; ++I) {
      Q[I] = T(Fp(Rng), 8.0 * Stride(Rng), Bit(Rng) ? 8 : 4, Bit(Rng) ? Sh : Pr);
      P[I] = T(Fp(Rng), 8.0 * Stride(Rng), Bit(Rng) ? 8 : 4, Bit(Rng) ? Sh : Pr);
    }
    double QT = Tpi(Rng), PT = Tpi(Rng);
    Score O = scoreQuery(Def, Pairing::Ordered, Q, N, QT, P, PT);
    Score B = scoreQuery(Def, Pairing::Best, Q, N, QT, P, PT);
    if (!O.discarded) {
      ASSERT_FALSE(B.discarded);
      ASSERT_GE(B.index, O.index - 1e-12) << "trial " << Trial;
    }
  }
}

TEST(MatchConfigFile, OverridesAndDefaults) {
  MatchConfig C = parseMatchConfig(R"({
    "schema": "phaseprobe.match-config/1",
    "significant_weight": 0.05,
    "footprint": {"bands": [{"max_percent": 1, "points": 30}], "otherwise": 1,
                  "discard_above_percent": null},
    "tpi": {"discard_above_percent": 50},
    "access": {"equal": 10},
    "whole_phase_max_tpi_percent": 5
  })",
                                   "cfg.json");
  EXPECT_EQ(C.significantWeight, 0.05);
  ASSERT_EQ(C.footprint.bands.size(), 1u);
  EXPECT_EQ(C.footprint.bands[0], std::make_pair(1.0, 30.0));
  EXPECT_FALSE(C.footprint.discardAbove.has_value());
  EXPECT_EQ(*C.tpi.discardAbove, 50);
  EXPECT_EQ(C.tpi.bands, Def.tpi.bands); // untouched parts keep the defaults
  EXPECT_EQ(C.access.equal, 10);
  EXPECT_EQ(C.wholePhaseMaxTpiPercent, 5.0);
  EXPECT_FALSE(Def.wholePhaseMaxTpiPercent.has_value());
  EXPECT_EQ(C.maxIndex(), 30 + 25 + 25 + 25 + 10);
  EXPECT_EQ(Def.maxIndex(), 125);
  StreamTuple Q = T(100, 8, 8, Sh);
  Score S = one(Q, 1, T(100.5, 8, 8, Sh), 1.6, C);
  EXPECT_EQ(S.footprintPoints, 30);
  EXPECT_TRUE(S.discarded); // tpi 60% > 50%
  // The formatted defaults read back to the same configuration.
  MatchConfig D = parseMatchConfig(formatMatchConfig(Def), "d.json");
  EXPECT_EQ(formatMatchConfig(D), formatMatchConfig(Def));
}

TEST(MatchConfigFile, ErrorsNameTheKey) {
  auto Err = [](const std::string &Text) -> std::string {
    try {
      parseMatchConfig(Text, "cfg.json");
    } catch (const InputError &E) {
      return E.what();
    }
    return "(no error)";
  };
  EXPECT_EQ(Err(R"({"footprnt": {}})"), "cfg.json: footprnt: unknown key");
  EXPECT_EQ(
      Err(R"({"tpi": {"bands": [{"max_percent": 5, "points": 1}, {"max_percent": 2, "points": 1}]}})"),
      "cfg.json: tpi.bands[1].max_percent: band edges must increase (2 follows 5)");
  EXPECT_EQ(Err(R"({"stride": {"otherwise": "x"}})"),
            "cfg.json: stride.otherwise: expected a number, found \"x\"");
  EXPECT_EQ(Err(R"({"pairing": "greedy"})"),
            "cfg.json: pairing: expected \"ordered\" or \"best\", found \"greedy\"");
  EXPECT_EQ(Err(R"({"schema": "x"})"),
            "cfg.json: schema: \"x\" is not \"phaseprobe.match-config/1\"");
  EXPECT_NE(Err("{").find("malformed JSON"), std::string::npos);
}
