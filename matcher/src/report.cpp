//===- report.cpp - The phaseprobe.estimate/1 document, matching part -----===//
//
// CONTRACTS.md fixes the names of this document; everything beyond them
// (status, ties, needs_ubench, per-query counts) is added, never renamed, so
// scripts written against the contract keep working.
//
//===----------------------------------------------------------------------===//
#include "phaseprobe/matcher.h"
#include "phaseprobe/phase_file.h"
#include "phaseprobe/stream_notation.h"

#include <cmath>

namespace phaseprobe {

using ojson = nlohmann::ordered_json;

/// Similarities are sums of averaged points (17.5, 8.333...); rounding to
/// 1e-6 keeps the JSON readable and stable across summation orders.
static double tidy(double V) { return std::round(V * 1e6) / 1e6; }

static ojson profileJson(const Candidate &C) {
  ojson J;
  J["ubench"] = C.ubench;
  J["streams"] = formatStreams(C.streams);
  J["threads"] = C.threads;
  J["similarity"] = tidy(C.score.index);
  J["tpi_us"] = C.tpiUs;
  return J;
}

static ojson queryStreamsJson(const Phase &P, const std::vector<unsigned> &S) {
  ojson A = ojson::array();
  for (unsigned I : S)
    A.push_back(P.streams[I].id);
  return A;
}

double coverage(const PhaseFile &F, const std::vector<PhaseMatch> &M) {
  if (F.program.totalTimeS <= 0)
    return 0;
  double Covered = 0;
  for (const PhaseMatch &PM : M)
    if (PM.matched())
      Covered += F.phases[PM.phaseIndex].timeS;
  return Covered / F.program.totalTimeS;
}

ojson matchReportJson(const PhaseFile &F, const std::string &Base, const std::vector<PhaseMatch> &M,
                      const MatchConfig &C, Pairing Pair, size_t Top) {
  ojson Doc;
  Doc["schema"] = "phaseprobe.estimate/1";
  Doc["base"] = Base;
  Doc["pairing"] = pairingName(Pair);
  Doc["max_similarity"] = tidy(C.maxIndex());
  Doc["total_time_s"] = F.program.totalTimeS;
  ojson Phases = ojson::array();
  for (const PhaseMatch &PM : M) {
    const Phase &P = F.phases[PM.phaseIndex];
    ojson J;
    J["id"] = P.id;
    J["matched"] = PM.matched();
    J["status"] = matchStatusName(PM.status);
    if (PM.relaxed)
      J["relaxed"] = true;
    J["weight"] = PM.weight;
    J["time_s"] = P.timeS;
    J["iterations"] = P.iterations;
    J["tpi_us"] = P.tpiUs;
    J["threads"] = P.threads;
    if (PM.candidate) {
      ojson Cand = profileJson(*PM.candidate);
      Cand["query"] = queryStreamsJson(P, PM.queries[PM.candidate->query].streams);
      J["candidate"] = Cand;
      ojson Ties = ojson::array();
      for (const Candidate &T : PM.ties) {
        ojson TJ = profileJson(T);
        TJ["decided_by"] = tieBreakRule(*PM.candidate, T);
        Ties.push_back(TJ);
      }
      J["ties"] = Ties;
      J["ties_truncated"] = PM.tiesTruncated;
      if (Top > 0) {
        ojson Up = ojson::array();
        for (size_t I = 1; I <= Top && I < PM.ranked.size(); ++I) {
          ojson RJ = profileJson(PM.ranked[I]);
          RJ["query"] = queryStreamsJson(P, PM.queries[PM.ranked[I].query].streams);
          Up.push_back(RJ);
        }
        J["runners_up"] = Up;
      }
    }
    if (!PM.queries.empty()) {
      ojson Qs = ojson::array();
      for (const QueryResult &Q : PM.queries) {
        ojson QJ;
        QJ["streams"] = queryStreamsJson(P, Q.streams);
        QJ["compared"] = Q.compared;
        QJ["discarded"] = Q.discarded;
        if (Q.best) {
          ojson B;
          B["ubench"] = Q.best->ubench;
          B["streams"] = formatStreams(Q.best->streams);
          B["similarity"] = tidy(Q.best->score.index);
          QJ["best"] = B;
        } else {
          QJ["best"] = nullptr;
        }
        Qs.push_back(QJ);
      }
      J["queries"] = Qs;
    }
    if (PM.status == MatchStatus::NoProfile) {
      // What a new uB would have to look like: the phase's significant
      // streams (footprint order) at its thread count and tpi.
      J["needs_ubench"] = {
          {"streams", queryNotation(P, PM.streams)}, {"threads", P.threads}, {"tpi_us", P.tpiUs}};
    }
    if (!PM.notes.empty())
      J["notes"] = PM.notes;
    Phases.push_back(J);
  }
  Doc["phases"] = Phases;
  Doc["coverage"] = coverage(F, M);
  return Doc;
}

} // namespace phaseprobe
