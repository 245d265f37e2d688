//===- match_text.cpp - phaseprobe-match's readable output ----------------===//
#include "match_text.h"

#include "phaseprobe/stream_notation.h"

#include <cmath>

namespace phaseprobe {

namespace {

std::string fmt(const char *F, double V) {
  char B[64];
  std::snprintf(B, sizeof B, F, V);
  return B;
}

std::string pct(double D) { return std::isinf(D) ? "inf%" : fmt("%.2f%%", D); }
std::string pts(double P) { return fmt("%.4g", P); }

std::string profileName(const Candidate &C) { return C.ubench + " " + formatStreams(C.streams); }

} // namespace

void printMatchTable(std::FILE *Out, const MatchInputs &In, const std::vector<PhaseMatch> &M,
                     size_t Top) {
  const PhaseFile &F = In.phases;
  std::fprintf(Out, "%s: base node %s (%s), pairing %s, max similarity %s\n", In.phasesPath.c_str(),
               In.base.c_str(), In.dbPath.c_str(), pairingName(In.pairing),
               pts(In.config.maxIndex()).c_str());
  if (std::string Runs = baseRunsLine(In); !Runs.empty())
    std::fprintf(Out, "%s\n", Runs.c_str());
  if (std::string W = placementWarning(In); !W.empty())
    std::fprintf(Out, "warning: %s\n", W.c_str());
  std::string Streams =
      In.streamKiB > 0 ? "footprint > " + fmt("%g", In.streamKiB) + " KiB" : std::string("all");
  std::fprintf(Out, "significant streams: %s (%s); significant phases: weight >= %s%%\n\n",
               Streams.c_str(), In.streamKiBSource.c_str(),
               fmt("%g", In.config.significantWeight * 100).c_str());
  std::fprintf(Out, "%-24s %8s %4s  %-22s %10s  %s\n", "phase", "weight", "th", "status",
               "similarity", "candidate (query)");
  for (const PhaseMatch &PM : M) {
    const Phase &P = F.phases[PM.phaseIndex];
    std::string Status = matchStatusName(PM.status);
    if (PM.relaxed)
      Status += " (relaxed)";
    std::fprintf(Out, "%-24s %7.2f%% %4u  %-22s", P.id.c_str(), PM.weight * 100, P.threads,
                 Status.c_str());
    if (PM.candidate) {
      std::fprintf(Out, " %10s  %s %s\n", pts(PM.candidate->score.index).c_str(),
                   profileName(*PM.candidate).c_str(),
                   queryName(P, PM.queries[PM.candidate->query].streams).c_str());
      for (const Candidate &T : PM.ties)
        std::fprintf(Out, "%-24s   tie at %s with %s %s: decided by %s\n", "",
                     pts(T.score.index).c_str(), profileName(T).c_str(),
                     queryName(P, PM.queries[T.query].streams).c_str(),
                     tieBreakRule(*PM.candidate, T));
      if (PM.tiesTruncated)
        std::fprintf(Out, "%-24s   (more ties than listed)\n", "");
      for (size_t I = 1; I <= Top && I < PM.ranked.size(); ++I) {
        const Candidate &R = PM.ranked[I];
        std::fprintf(Out, "%-24s   #%zu %s %s %s (sum of differences %s)\n", "", I + 1,
                     pts(R.score.index).c_str(), profileName(R).c_str(),
                     queryName(P, PM.queries[R.query].streams).c_str(),
                     pct(R.score.sumDiff).c_str());
      }
    } else {
      std::fprintf(Out, " %10s\n", "-");
    }
    for (const std::string &N : PM.notes)
      std::fprintf(Out, "%-24s   note: %s\n", "", N.c_str());
  }
  double Cov = coverage(F, M);
  std::fprintf(Out, "\ncoverage: %.2f%% of the base run (%s s of %s s) is in matched phases\n",
               Cov * 100, fmt("%.6g", Cov * F.program.totalTimeS).c_str(),
               fmt("%.6g", F.program.totalTimeS).c_str());
  bool Header = false;
  for (const PhaseMatch &PM : M) {
    if (PM.status != MatchStatus::NoProfile)
      continue;
    const Phase &P = F.phases[PM.phaseIndex];
    if (!Header) {
      std::fprintf(Out, "\nunmatched phases: no profile survives; a new uB would need\n");
      Header = true;
    }
    std::fprintf(Out, "  %s: streams %s, %u threads, tpi %s us\n", P.id.c_str(),
                 queryNotation(P, PM.streams).c_str(), P.threads, formatNumber(P.tpiUs).c_str());
  }
}

void ExplainLog::attach(MatchOptions &O) {
  O.onPhase = [this](size_t I) { Current = I; };
  O.explain = [this](size_t Q, const ProfileRef &R, const Score &S) {
    std::vector<Row> &V = Rows[Current][Q];
    // --explain on a full-size NPPDB would hold every comparison in memory
    // and print millions of lines; the counts of the query stay exact.
    if (V.size() >= MaxRowsPerQuery)
      return;
    V.push_back(
        {std::string(R.ubench), formatStreams({R.streams, R.streams + R.nStreams}), R.tpiUs, S});
  };
}

void ExplainLog::print(std::FILE *Out, const MatchInputs &In,
                       const std::vector<PhaseMatch> &M) const {
  const PhaseFile &F = In.phases;
  for (const PhaseMatch &PM : M) {
    if (PM.queries.empty())
      continue;
    const Phase &P = F.phases[PM.phaseIndex];
    std::fprintf(Out, "\n== phase %s: tpi %s us, %u threads\n", P.id.c_str(),
                 formatNumber(P.tpiUs).c_str(), P.threads);
    auto PhaseIt = Rows.find(PM.phaseIndex);
    for (size_t Q = 0; Q < PM.queries.size(); ++Q) {
      const QueryResult &QR = PM.queries[Q];
      std::fprintf(Out, "\nquery %s = %s: %zu compared, %zu discarded",
                   queryName(P, QR.streams).c_str(), queryNotation(P, QR.streams).c_str(),
                   QR.compared, QR.discarded);
      if (QR.best)
        std::fprintf(Out, ", best %s %s (%s)\n", QR.best->ubench.c_str(),
                     formatStreams(QR.best->streams).c_str(), pts(QR.best->score.index).c_str());
      else
        std::fprintf(Out, ", no survivor\n");
      if (PhaseIt == Rows.end())
        continue;
      auto QIt = PhaseIt->second.find(Q);
      if (QIt == PhaseIt->second.end())
        continue;
      std::fprintf(Out, "  %-40s %-16s %-16s %5s %6s %-16s %s\n", "profile (tpi us)", "footprint",
                   "stride", "elem", "access", "tpi", "index");
      if (QR.streams.size() > 1)
        std::fprintf(Out, "  (stream fields averaged over the pairs listed below each profile)\n");
      for (const Row &R : QIt->second) {
        const Score &S = R.score;
        std::string Name = R.ubench + " " + R.streams + " (" + formatNumber(R.tpiUs) + ")";
        std::string Result = pts(S.index);
        if (S.discarded && std::string(S.discardField) == "column span") {
          Result += " discarded: column span " + std::to_string(S.profileSpan) +
                    (S.querySpan ? ", the phase's " + std::to_string(S.querySpan)
                                 : ", the phase walks whole columns");
        } else if (S.discarded && std::string(S.discardField) == "jumping runs") {
          Result += std::string(" discarded: ") +
                    (S.profileJumps ? "jumping runs, the phase's executions walk on"
                                    : "runs in order, the phase's executions jump");
        } else if (S.discarded && std::string(S.discardField) == "reuse copies") {
          Result += " discarded: reuse copies " + std::to_string(S.profileCopies) +
                    ", the phase's " + std::to_string(S.queryCopies);
        } else if (S.discarded) {
          Result += std::string(" discarded: ") + S.discardField;
          if (std::string(S.discardField) != "tpi")
            Result += " of " + P.streams[QR.streams[S.discardStream]].id;
          Result +=
              " > " +
              pts(std::string(S.discardField) == "footprint" ? *In.config.footprint.discardAbove
                  : std::string(S.discardField) == "stride"  ? *In.config.stride.discardAbove
                                                             : *In.config.tpi.discardAbove) +
              "%";
        }
        std::fprintf(Out, "  %-40s %-16s %-16s %5s %6s %-16s %s\n", Name.c_str(),
                     (pct(S.footprintDiff) + " " + pts(S.footprintPoints)).c_str(),
                     (pct(S.strideDiff) + " " + pts(S.stridePoints)).c_str(),
                     pts(S.elemPoints).c_str(), pts(S.accessPoints).c_str(),
                     (pct(S.tpiDiff) + " " + pts(S.tpiPoints)).c_str(), Result.c_str());
        if (S.nPairs > 1)
          for (unsigned I = 0; I < S.nPairs; ++I) {
            const PairDetail &D = S.pairs[I];
            std::fprintf(
                Out,
                "    %s ~ profile stream %u: footprint %s %s, stride %s %s, elem %s, access %s\n",
                P.streams[QR.streams[I]].id.c_str(), D.profileStream + 1,
                pct(D.footprintDiff).c_str(), pts(D.footprintPoints).c_str(),
                pct(D.strideDiff).c_str(), pts(D.stridePoints).c_str(), pts(D.elemPoints).c_str(),
                pts(D.accessPoints).c_str());
          }
      }
      if (QR.compared > QIt->second.size())
        std::fprintf(
            Out, "  ... %zu more compared profiles not listed (--explain lists %zu per query)\n",
            QR.compared - QIt->second.size(), MaxRowsPerQuery);
    }
  }
}

} // namespace phaseprobe
