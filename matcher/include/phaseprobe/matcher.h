//===- phaseprobe/matcher.h - The similarity index of METHOD.md ----*- C++ -*-===//
//
// Stage 3 of METHOD.md: for every significant leaf phase, compare each
// non-empty subset of its significant streams (a query) with every base-node
// profile that has exactly that many streams and the phase's thread count,
// score each comparison with the banded similarity index, and keep the best.
//
// The pieces, each usable alone:
//  - MatchConfig: every threshold, band and point value (defaults of
//    METHOD.md built in; a JSON file can override any of them);
//  - scoreQuery(): one query against one profile, with the per-field relative
//    differences and points that --explain prints;
//  - ProfileSource: where profiles come from (the NPPDB through
//    NppdbProfileSource, or a vector in tests), scanned once per stream count
//    with the discard windows pushed down so an index can prune;
//  - matchPhase(): queries, best per query, candidate, ties and runners-up.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "phaseprobe/model.h"
#include "phaseprobe/phase_file.h"
#include "phaseprobe/phase_runs.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace phaseprobe {

class Nppdb;

//===--- Configuration ----------------------------------------------------===//

/// How the streams of a multi-stream query meet the profile's streams.
enum class Pairing {
  Ordered, ///< query stream i with profile stream i (METHOD.md)
  Best     ///< the best of all assignments (never below Ordered)
};
const char *pairingName(Pairing P);
std::optional<Pairing> parsePairing(const std::string &S);

/// Points of a quantitative field (footprint, stride, tpi) by band of the
/// relative difference d = |phase - profile| / phase * 100.
struct BandedField {
  /// Ascending upper edges (inclusive) with their points.
  std::vector<std::pair<double, double>> bands;
  double otherwise = 0; ///< points above the last edge
  /// d strictly above this discards the profile; absent: never discard.
  std::optional<double> discardAbove;

  double maxPoints() const;
};

/// Points of a qualitative field (element size, access).
struct BooleanField {
  double equal = 25, different = 0;
};

/// Everything the similarity index and the phase selection depend on.
struct MatchConfig {
  BandedField footprint, stride, tpi;
  BooleanField elem, access;
  /// A phase takes part when its weight is at least this (0.01 = 1%).
  double significantWeight = 0.01;
  /// Streams whose footprint is at most this many KiB do not enter matching;
  /// absent: the base node's L1d from the NPPDB.
  std::optional<double> significantStreamKiB;
  /// Queries have at most this many streams (profiles with more streams
  /// than the largest query are never compared).
  unsigned maxQueryStreams = 4;
  /// Default pairing (--pairing overrides it).
  Pairing pairing = Pairing::Ordered;
  /// Rank a profile that reproduces every significant stream of the phase
  /// (every pair at the top points of footprint and stride, element and
  /// access equal) before the profiles of partial queries, whatever their
  /// index, after the walk shape (matcher/README.md, "Whole phase").
  /// Unset: the tool decides (phaseprobe-estimate --projection ratio turns
  /// it on; everything else leaves it off).
  std::optional<bool> wholePhaseFirst;
  /// A clone ranks first as the whole phase only where its tpi on the base
  /// node is within this many percent of the phase's; unset: whatever its
  /// tpi (matcher/README.md, "Whole phase").
  std::optional<double> wholePhaseMaxTpiPercent;
  /// A leaf without significant streams whose invocations last this many
  /// microseconds or more on average is matched on its L1-resident streams
  /// (matcher/README.md, "Phases on L1 data"); unset: left unmatched, as
  /// METHOD.md has it. Default 1000.
  std::optional<double> l1PhaseMinInvocationUs;

  /// METHOD.md's defaults: footprint 25/15/10/5 at 2/5/10/20%, stride
  /// 25/25/10/0, tpi 25/15/10/5, discard above 80%, booleans 25/0; and
  /// L1-resident leaves matched from 1000 us an invocation.
  static MatchConfig defaults();
  /// The highest index this configuration can give (125 by default).
  double maxIndex() const;
};

/// Reads a configuration file (JSON, documented in matcher/README.md); fields
/// it leaves out keep their defaults. Throws InputError naming the file and
/// the JSON path of a bad value.
MatchConfig readMatchConfig(const std::string &Path);
MatchConfig parseMatchConfig(const std::string &Text, const std::string &FileName);
/// The configuration as a complete JSON document (same format as the file).
std::string formatMatchConfig(const MatchConfig &C);

//===--- Scoring ----------------------------------------------------------===//

/// The most streams one query may have (bounds the fixed-size arrays that
/// keep the hot loop free of allocations).
inline constexpr unsigned MaxQueryStreams = 8;

/// Relative difference of a profile value to the phase's, in percent:
/// |phase - profile| / |phase| * 100. A zero phase value gives 0 when the
/// profile's is zero too and +infinity otherwise (no band can hold it).
double relativeDifference(double Phase, double Profile);

/// The points \p D earns in \p F, and whether it discards the profile.
/// Band edges and the discard threshold are compared with a relative
/// tolerance of 1e-9, so a decimal input exactly on an edge lands in it.
double bandPoints(const BandedField &F, double D, bool &Discard);

/// One (query stream, profile stream) pair.
struct PairDetail {
  unsigned profileStream = 0; ///< index into the profile's streams
  double footprintDiff = 0, strideDiff = 0;
  double footprintPoints = 0, stridePoints = 0, elemPoints = 0, accessPoints = 0;
  bool discard = false;
};

/// The similarity of one query to one profile.
struct Score {
  bool discarded = false;
  /// Which field discarded ("footprint", "stride", "tpi", "column span")
  /// and, for a stream field, which query stream (index into the query).
  const char *discardField = nullptr;
  unsigned discardStream = 0;
  /// Walk shape (outside the index): the column span the query's phase
  /// asks of a clone (core's columnSpan) and the profile's ("+c<N>"; 0:
  /// none). A profile with a span is discarded unless the query asks for
  /// it (within 10%); profiles whose spans agree with the query's rank
  /// before the others, whatever their index (applyColumnSpan).
  long querySpan = 0, profileSpan = 0;
  /// Whether those spans are walked in jumping runs (core's columnSpan; the
  /// profile's "+j<N>"): spans that agree but jump in one and not the
  /// other are discarded ("jumping runs").
  bool queryJumps = false, profileJumps = false;
  /// The same for reuse copies (core's reuseCopies; the profile's "+k<N>",
  /// 1: none): a profile with copies is discarded unless the query's phase
  /// asks for as many ("reuse copies"), and the shape agrees only where
  /// both span and copies do.
  long queryCopies = 1, profileCopies = 1;
  bool shapeAgrees = true;
  /// The query is every significant stream of its phase and every pair
  /// earns the top points of each stream field (set by matchPhase, only
  /// where MatchConfig::wholePhaseFirst is true).
  bool wholePhase = false;
  /// The profile reproduces every significant stream of its phase as
  /// wholePhase asks (and its tpi is within wholePhaseMaxTpiPercent where
  /// set), whether or not the configuration ranks by it: the estimator may
  /// prefer it on nodes of another CPU design.
  bool reproducesPhase = false;
  /// Fields averaged over the pairs (tpi compared once).
  double footprintDiff = 0, strideDiff = 0, tpiDiff = 0;
  double footprintPoints = 0, stridePoints = 0, elemPoints = 0, accessPoints = 0, tpiPoints = 0;
  double index = 0;   ///< the sum of the points
  double sumDiff = 0; ///< footprintDiff + strideDiff + tpiDiff: first tie-break
  unsigned nPairs = 0;
  std::array<PairDetail, MaxQueryStreams> pairs{};
};

/// Scores query streams \p Q (in query order: footprint, largest first) with
/// tpi \p QTpi against a profile with the same number of streams.
Score scoreQuery(const MatchConfig &C, Pairing P, const StreamTuple *Q, unsigned N, double QTpi,
                 const StreamTuple *Prof, double ProfTpi);

/// Compares the walk shapes of a query whose phase asks for column span
/// \p QuerySpan and a profile named \p UBench (its "+c<N>", 0: none):
/// a profile with a span that is not the query's (within 10%) is a clone
/// of a loop that walks otherwise, and is discarded ("column span"); spans
/// that agree (both none, or within 10%) mark the score shapeAgrees. A
/// phase that asks for a span still matches profiles without one (the
/// grid), after those that walk like it. \p QueryJumps: the query's span
/// is walked in jumping runs (core's columnSpan); a profile whose span
/// agrees but that jumps otherwise ("+j<N>" or not) is discarded
/// ("jumping runs").
void applyColumnSpan(Score &S, long QuerySpan, bool QueryJumps, std::string_view UBench);

/// The same for reuse copies: a profile with copies (its "+k<N>") that are
/// not \p QueryCopies is a clone of a phase with other data around it, and
/// is discarded ("reuse copies"); one without copies, where the query asks
/// for some, is kept but its shape does not agree. After applyColumnSpan.
void applyReuseCopies(Score &S, long QueryCopies, std::string_view UBench);

//===--- Profile sources --------------------------------------------------===//

/// A profile as the scan sees it; valid only during the callback.
struct ProfileRef {
  std::int64_t id = 0;
  std::string_view ubench;
  unsigned threads = 0;
  const StreamTuple *streams = nullptr;
  unsigned nStreams = 0;
  double tpiUs = 0;
};

/// What one scan visits: profiles of the source's node with exactly
/// nStreams streams and `threads` threads; the optional inclusive windows
/// let the source prune (they are a promise that anything outside them
/// would be discarded, so a source may also ignore them).
struct ScanRequest {
  unsigned threads = 0;
  unsigned nStreams = 0;
  std::optional<std::pair<double, double>> tpiUs, firstFootprintKiB;
};

/// The base node's profiles, as the matcher needs them.
class ProfileSource {
public:
  virtual ~ProfileSource();
  virtual void scan(const ScanRequest &R,
                    const std::function<void(const ProfileRef &)> &Fn) const = 0;
};

/// Profiles held in memory (tests, benchmarks of the scoring alone).
class VectorProfileSource : public ProfileSource {
public:
  explicit VectorProfileSource(std::vector<Profile> Profiles);
  void scan(const ScanRequest &R, const std::function<void(const ProfileRef &)> &Fn) const override;

private:
  std::vector<Profile> Profiles;
};

/// One node's profiles in an NPPDB.
class NppdbProfileSource : public ProfileSource {
public:
  NppdbProfileSource(const Nppdb &Db, std::string Node);
  void scan(const ScanRequest &R, const std::function<void(const ProfileRef &)> &Fn) const override;

private:
  const Nppdb &Db;
  std::string Node;
};

//===--- Matching ---------------------------------------------------------===//

/// A profile kept as (part of) a result.
struct Candidate {
  std::int64_t profileId = 0;
  std::string ubench;
  std::vector<StreamTuple> streams; ///< in the profile's stream order
  unsigned threads = 0;
  double tpiUs = 0;
  size_t query = 0; ///< index into PhaseMatch::queries
  Score score;
};

/// -1 when \p A ranks before \p B, 1 after, 0 the same profile and score.
/// Order: walk shape (a column span that agrees with the query's first),
/// higher index, smaller summed relative difference, fewer streams, ubench
/// name, stream notation, profile id.
int compareCandidates(const Candidate &A, const Candidate &B);
/// The indices of \p Ranked in the order whole_phase_first would have
/// ranked them: compareCandidates() with every profile that reproduces its
/// phase (Score::reproducesPhase) taken as the whole phase (the estimator's
/// whole phase on another CPU design).
std::vector<size_t> wholePhaseFirstOrder(const std::vector<Candidate> &Ranked);
/// The first rule of compareCandidates() that separates two candidates with
/// the same index ("walk shape", "relative difference", "streams", "name",
/// "parameters", "id").
const char *tieBreakRule(const Candidate &Winner, const Candidate &Other);

struct QueryResult {
  std::vector<unsigned> streams; ///< indices into Phase::streams, query order
  std::optional<Candidate> best;
  std::size_t compared = 0, discarded = 0;
};

/// Why a phase has no candidate (or None).
enum class MatchStatus {
  Matched,
  NotLeaf,        ///< a region with worksharing phases inside
  NotSignificant, ///< weight below the threshold
  NoStreams,      ///< no significant stream (all fit in L1d, or none)
  NoProfile       ///< no profile survived any query
};
const char *matchStatusName(MatchStatus S);

struct PhaseMatch {
  size_t phaseIndex = 0;
  MatchStatus status = MatchStatus::NoProfile;
  double weight = 0;
  /// Significant streams, ordered by footprint (largest first): indices
  /// into Phase::streams.
  std::vector<unsigned> streams;
  std::vector<QueryResult> queries;
  std::optional<Candidate> candidate;
  /// Distinct profiles, best first (the candidate is ranked[0]); at most
  /// MatchOptions::keep of them. Runners-up and the estimator's fallbacks.
  std::vector<Candidate> ranked;
  /// Other profiles with the candidate's index, and whether there may be
  /// more than ranked could hold.
  std::vector<Candidate> ties;
  bool tiesTruncated = false;
  /// Notes for the user (queries left out because of maxQueryStreams).
  std::vector<std::string> notes;
  /// Matched only with the tpi discard off (relaxUnmatched()).
  bool relaxed = false;

  bool matched() const { return status == MatchStatus::Matched; }
};

struct MatchOptions {
  Pairing pairing = Pairing::Ordered;
  /// How many distinct profiles to keep in PhaseMatch::ranked.
  size_t keep = 16;
  /// Called for every compared profile of every query (also discarded
  /// ones). When set, the discard windows are not pushed to the source so
  /// that --explain shows every profile with the reason it lost.
  std::function<void(size_t Query, const ProfileRef &, const Score &)> explain;
  /// matchPhases() calls this before matching phase \p PhaseIndex (to group
  /// the explain rows by phase).
  std::function<void(size_t PhaseIndex)> onPhase;
};

/// Matches one phase (already known to be a significant leaf) against \p Src.
/// \p Copies: the reuse copies its clone walks (core's reuseCopies of its
/// phase file; applyReuseCopies).
PhaseMatch matchPhase(const Phase &P, const std::vector<unsigned> &Streams,
                      const ProfileSource &Src, const MatchConfig &C, const MatchOptions &O,
                      long Copies = 1);

/// Matches every phase of \p F: leaves with weight >= the threshold are
/// matched; the rest get their status. \p StreamKiB is the significance
/// threshold for streams (config override, else the base node's L1d).
std::vector<PhaseMatch> matchPhases(const PhaseFile &F, const ProfileSource &Src,
                                    const MatchConfig &C, double StreamKiB, const MatchOptions &O);

/// Matches again, with the tpi discard switched off, every leaf that
/// METHOD.md's rule leaves unmatched and marks those that match now as
/// relaxed: phases that no profile survived (NoProfile), phases under the
/// weight threshold (NotSignificant; their significant streams) and phases
/// whose streams all fit in L1 (NoStreams, or NotSignificant without
/// significant streams: queried with all their streams, largest first);
/// and a matched phase whose candidate a profile thrown out by the tpi
/// discard outscores (tpi points included) takes that profile, relaxed.
/// Meant for the ratio projection, which takes the time per iteration from
/// the phase itself and only the node-to-node ratio from the uB: a uB that
/// walks the same streams is then a better guide than none, however much
/// faster or slower per iteration it is, and a phase it covers is projected
/// instead of kept at its base time. The tpi still scores. \p StreamKiB is
/// the significance threshold matchPhases() used.
void relaxUnmatched(const PhaseFile &F, const ProfileSource &Src, const MatchConfig &C,
                    double StreamKiB, const MatchOptions &O, std::vector<PhaseMatch> &M);

//===--- Loading the inputs of a command -----------------------------------===//

/// What phaseprobe-match and phaseprobe-estimate both start from, validated:
/// the phase file, the NPPDB (opened read-only, never created), the base node
/// (present in the NPPDB), the configuration and the stream threshold.
struct MatchInputs {
  MatchInputs();
  ~MatchInputs();
  MatchInputs(MatchInputs &&);

  /// The phase file, or "A, B, C (median of 3 runs)" for several runs.
  std::string phasesPath, dbPath, base;
  PhaseFile phases; ///< several runs: merged by mergePhaseRuns
  size_t runs = 1;  ///< base run files merged into phases
  /// Each of several runs whose times count (timedRuns: the unsampled ones
  /// with the sampled runs' streams, when both kinds were given), in the
  /// order given (empty for one run): phaseprobe-estimate also estimates
  /// every run alone.
  std::vector<PhaseFile> runFiles;
  RunSpread runSpread; ///< their program times
  std::unique_ptr<Nppdb> db;
  MatchConfig config;
  Pairing pairing = Pairing::Ordered;
  /// Streams up to this footprint (KiB) are not significant; 0: unknown.
  double streamKiB = 0;
  /// Where streamKiB came from, for the report ("L1d of bn in the NPPDB").
  std::string streamKiBSource;
};

/// Loads and validates everything; throws InputError naming the file and
/// what is wrong. \p PhasesPaths are one or several runs of one program on
/// the base node, merged into per-phase medians (phaseprobe/phase_runs.h).
/// \p ConfigPath may be empty (defaults); \p PairingArg may be empty (the
/// configuration's pairing).
MatchInputs loadMatchInputs(const std::vector<std::string> &PhasesPaths,
                            const std::string &DbPath, const std::string &Base,
                            const std::string &ConfigPath, const std::string &PairingArg);

/// "" for one base run; else one line on how far the runs' program times are
/// apart, with a warning above \p WarnPct that every estimate inherits it.
std::string baseRunsLine(const MatchInputs &In, double WarnPct = 10);

/// "" unless the base run's threads floated (phase file `threads_float`:
/// two of them had overlapping affinity masks, as unbound threads have);
/// else one line saying that the uBs were measured pinned and how to pin
/// the program alike. A floating team's times are partly the scheduler's
/// (two threads now and then on one CPU), which no pinned profile measured.
std::string placementWarning(const MatchInputs &In);

/// Adds a note to every phase that found no profile while the base node has
/// no profile at all at its thread count (the usual cause: the uB suite was
/// run with other thread counts).
void noteMissingThreadCounts(const MatchInputs &In, std::vector<PhaseMatch> &M);

//===--- Reporting --------------------------------------------------------===//

/// The `phaseprobe.estimate/1` document without `estimates` and `nodes`
/// (CONTRACTS.md); the estimator adds those.
/// \p Top > 0 adds `runners_up`: the next \p Top distinct profiles.
nlohmann::ordered_json matchReportJson(const PhaseFile &F, const std::string &Base,
                                       const std::vector<PhaseMatch> &M, const MatchConfig &C,
                                       Pairing P, size_t Top = 0);

/// The fraction of the base run's time that matched phases account for.
double coverage(const PhaseFile &F, const std::vector<PhaseMatch> &M);

/// The stream tuples of a query in the CSV notation.
std::string queryNotation(const Phase &P, const std::vector<unsigned> &Streams);
/// "[v1,v2]".
std::string queryName(const Phase &P, const std::vector<unsigned> &Streams);

} // namespace phaseprobe
