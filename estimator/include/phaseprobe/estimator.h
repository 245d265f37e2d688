//===- phaseprobe/estimator.h - Project phases onto other nodes --*- C++ -*-===//
//
// Stage 4 of METHOD.md: for every matched phase with chosen profile P,
//
//     T_phase(TN) = tpi_P(TN) * iterations_phase
//
// where tpi_P(TN) is the same uB, same streams and thread count measured on
// the target node. The program estimate adds the part of the base run that
// no matched phase covers, kept as measured on the base node (reported
// separately with the coverage). The base node is estimated by the same rule,
// which gives the self-check. Nodes are ranked by the estimate and shown
// relative to the base node's estimate.
//
// The thread count each node is projected onto is chosen by a
// ThreadProjection: each phase's own (the default), one global N
// (--threads N), or per node (--threads native: the phase's own where the
// node has profiles at it, else the node's largest). Iterations are scaled by
// phase threads / projected threads in every case.
//
// The time rule is a Projection: METHOD.md's absolute rule above (the
// default), or the ratio rule
//
//     T_phase(TN) = T_phase(BN) * tpi_P(TN) / tpi_P(BN)
//
// which uses the uB only for how much faster or slower the node runs it: the
// phase's own measured time per iteration replaces the uB's on the base
// node. It is the absolute estimate times the calibration factor
// tpi_phase(BN) / tpi_P(BN), so it corrects whatever the match left of the
// tpi difference (the index lets a profile 80% off in tpi win). The
// self-check always uses the absolute rule: under the ratio rule the base
// node reproduces its own measurement by construction.
//
// A node without the chosen profile falls back to the next-best profile of
// the phase's ranking that it has (said per phase); when it has none of them
// the phase is kept as measured on the base node and the node is marked
// incomplete.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "phaseprobe/matcher.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace phaseprobe {

/// Where the estimator finds a profile's tpi on a node.
class TpiLookup {
public:
  virtual ~TpiLookup();
  /// The tpi (µs) of uB \p UBench with exactly \p Streams at \p Threads on
  /// \p Node, if measured there.
  virtual std::optional<double> tpi(const std::string &Node, const std::string &UBench,
                                    const std::vector<StreamTuple> &Streams,
                                    unsigned Threads) const = 0;
  /// The distinct thread counts \p Node has profiles at, ascending (used by
  /// ThreadProjection::Native).
  virtual std::vector<unsigned> threadCounts(const std::string &Node) const = 0;
  /// Every one-stream profile of uB \p UBench on \p Node at \p Threads, as
  /// (stream, tpi µs), in no particular order (used to price barriers; the
  /// default has none, which leaves them unpriced).
  virtual std::vector<std::pair<StreamTuple, double>>
  family(const std::string &Node, const std::string &UBench, unsigned Threads) const;
  /// Every profile on \p Node at \p Threads with exactly \p Streams, as (uB
  /// name, tpi µs), in no particular order (used to pool a padded clone's
  /// ratio over its padding family; the default has none, which leaves each
  /// clone its own).
  virtual std::vector<std::pair<std::string, double>>
  sameStreams(const std::string &Node, const std::vector<StreamTuple> &Streams,
              unsigned Threads) const;
  /// \p Node's CPU design: its model (nodes.cpu) and, where known, its
  /// per-core L1d and L2 sizes, since a VM may name two designs alike
  /// ("AMD EPYC"); empty when unknown (the default). Estimates onto
  /// another design than the base node's are flagged where padded
  /// arithmetic carries them (NodeEstimate::paddingWarned).
  virtual std::string cpuDesign(const std::string &Node) const;
  /// Every node the lookup knows (the default: none), where a node's
  /// design-wide facts are sought on another configuration of its design
  /// (serialFaultCostUs).
  virtual std::vector<std::string> nodes() const;
};

/// TpiLookup over an NPPDB (Nppdb::find).
class NppdbTpiLookup : public TpiLookup {
public:
  explicit NppdbTpiLookup(const Nppdb &Db) : Db(Db) {}
  std::optional<double> tpi(const std::string &Node, const std::string &UBench,
                            const std::vector<StreamTuple> &Streams,
                            unsigned Threads) const override;
  std::vector<unsigned> threadCounts(const std::string &Node) const override;
  std::vector<std::pair<StreamTuple, double>> family(const std::string &Node,
                                                     const std::string &UBench,
                                                     unsigned Threads) const override;
  std::vector<std::pair<std::string, double>>
  sameStreams(const std::string &Node, const std::vector<StreamTuple> &Streams,
              unsigned Threads) const override;
  std::string cpuDesign(const std::string &Node) const override;
  std::vector<std::string> nodes() const override;

private:
  const Nppdb &Db;
  /// family() scans every one-stream profile of a node; the estimator asks
  /// for the same family per region and per footprint, so each is read once.
  mutable std::map<std::tuple<std::string, std::string, unsigned>,
                   std::vector<std::pair<StreamTuple, double>>>
      Families;
  /// Nppdb::streamsAt scans the profiles once per question, and a node at
  /// another thread count asks the same one per phase, fallback and
  /// padding family: each is asked once.
  std::optional<std::vector<StreamTuple>> streamsAt(const std::string &Node,
                                                    const std::string &UBench,
                                                    const std::vector<StreamTuple> &Streams,
                                                    unsigned Threads) const;
  mutable std::map<std::tuple<std::string, std::string, std::string, unsigned>,
                   std::optional<std::vector<StreamTuple>>>
      StreamsAt;
};

/// Which compute uBs price a phase's adds and multiplies in its op mix
/// (PaddingAcross::Mix). The compute uBs cadd and cmul are latency: four
/// chains of dependent operations. A loop whose iterations are independent
/// work (miniBUDE's poses) runs at the pipes' throughput instead, and two
/// designs can move the two apart. The Zen 4 and Emerald Rapids VMs did:
/// an add 3 cycles against 2, a multiply 3 against 4. miniBUDE's padding
/// priced by latency was -23...-33% and +22...+33% off in the two directions
/// (runs ie, ig).
enum class MixPricing {
  Latency,   ///< cadd, cmul (the default)
  /// tadd, tmul (16 independent chains), where both nodes have both kinds
  /// the mix needs; else Latency. Divisions and square roots keep cdiv and
  /// csqrt, whose units are barely pipelined.
  Throughput
};
const char *mixPricingName(MixPricing P);
std::optional<MixPricing> parseMixPricing(const std::string &S);

/// How one matched phase was projected onto one node.
struct PhaseEstimate {
  size_t match = 0; ///< index into the matches (and the phase file's phases)
  enum Kind {
    Chosen,   ///< the candidate's profile exists on the node
    Fallback, ///< a lower-ranked profile of the phase was used
    Missing,  ///< none exists: the phase is kept as measured on the base node
    NotRun    ///< its region does not run at the node's thread count (a runs_if
              ///< test fails there): 0 s, with no profile
  } kind = Chosen;
  /// A profile gave the estimate (tpiUs, rank and calibration say which).
  bool hasProfile() const { return kind == Chosen || kind == Fallback; }
  size_t rank = 0;       ///< index into PhaseMatch::ranked (0 = the candidate)
  double tpiUs = 0;      ///< on the node (0 when Missing)
  double iterations = 0; ///< the phase's, scaled for a thread projection
  unsigned threads = 0;  ///< the thread count the profiles were looked up at
  /// tpi of the phase / tpi of the profile, both on the base node at the
  /// phase's thread count: 1 under Projection::Absolute.
  double calibration = 1;
  double timeS = 0;
  /// The profile is a padded phase clone ("<uB>+w<N>[/<M>]"): arithmetic
  /// added until it took the phase's time per iteration on the base node.
  bool padded = false;
  /// Of a padded profile's tpi on the node, the share its padding adds:
  /// 1 - tpi of the same clone unpadded / tpi padded (the node's pair, else
  /// the base node's); unset where neither node has the unpadded twin.
  std::optional<double> paddingShare;
  /// PaddedRatio::Family: the padded clones whose node / base ratios were
  /// pooled into tpiUs (the profile's own among them); 0 where the
  /// profile's own ratio was used.
  size_t paddingFamily = 0;
  /// paddingFamily came from the clone and its nearest relatives on either
  /// side (no family near it), not from its family.
  bool paddingNeighbours = false;
  /// OtherCpuProfile::WholePhase: the profile (ranked[rank]) is the phase's
  /// clone, taken before the ranking's candidate on this node of another
  /// CPU design (kind Chosen).
  bool wholePhase = false;
  /// PaddingAcross::Mix on a node of another CPU design: the node / base
  /// ratio of the phase's op mix priced by the compute uBs, which its
  /// clone's padding got instead of the padding's own; unset where the
  /// padding was carried.
  std::optional<double> paddingMixRatio;
  /// With paddingMixRatio: the compute uBs that priced it (Throughput only
  /// where both nodes had tadd and tmul).
  MixPricing paddingMixPricing = MixPricing::Latency;
  /// HandOverRule::Priced: the phase's hand-overs at this node's cost per
  /// line less what the base run's became in the projection (in timeS;
  /// 0 on the base node and where the phase hands nothing over).
  double handOverS = 0;
  /// InvocationRule::Priced: the phase's invocations at this node's fixed
  /// cost each less what the base run's became in the projection (in
  /// timeS; 0 on the base node and for phases that are not worksharing).
  double invocationS = 0;
};
const char *phaseEstimateKindName(PhaseEstimate::Kind K);

/// Which node / base ratio a padded phase clone carries. A phase's padded
/// clones accumulate in an NPPDB (the clone step pads afresh whenever the
/// phase's time per iteration moved), each measured at another time; on a
/// shared machine their ratios between two nodes then differ by more than
/// their paddings make them differ (XSBench's on the Xeon VM: 1.99-2.30,
/// two of them 1.95 and 1.97 measured side by side).
enum class PaddedRatio {
  Own,   ///< the chosen clone's own profiles
  Family ///< the median ratio of the clone's padding family (same unpadded
         ///< uB, same streams) within PaddingFamilyBand of its base tpi; with
         ///< fewer than two there, the median of its own and of its nearest
         ///< relatives by base tpi on either side (the unpadded twin the
         ///< nearest below the least padded), where it has both
};
/// How far from the chosen clone's base tpi a sibling's may lie to be
/// pooled (relative).
inline constexpr double PaddingFamilyBand = 0.25;
const char *paddedRatioName(PaddedRatio R);
std::optional<PaddedRatio> parsePaddedRatio(const std::string &S);

/// How a padded phase clone's padding reaches a node of another CPU design
/// than the base node's (TpiLookup::cpuDesign). The padding is dependent
/// multiply-add chains; across designs they speed up like a multiply-add,
/// not like the phase's own arithmetic (EPYC -> Xeon: a dependent add
/// 1.65x, a multiply 1.13x, the padding 1.16x, nbody 1.50x; runs du, dx).
enum class PaddingAcross {
  Carried, ///< as the clone's profile on the node has it
  /// The clone's tpi on the node is its unpadded twin's there plus its
  /// padding on the base node (padded - unpadded tpi) times the node /
  /// base ratio of the phase's op mix (Phase::ops) priced by the compute
  /// uBs of its kinds (an add by cadd, a multiply by cmul, a division by
  /// cdiv and a square root by csqrt where both nodes have those, each at
  /// the thread count of its side; other math is left out of the price); a
  /// phase without add or multiply, or an NPPDB without the twins or cadd
  /// and cmul, keeps Carried. On every node but the base node at the
  /// phase's own thread count: on one CPU too the clone's own profiles at
  /// other thread counts and placements carry their noise and how padding
  /// and walk happened to combine there, where the compute uBs and the
  /// twin, measured side by side, say what its arithmetic and its walk do
  /// (the recorded Xeon runs, ratio rule: 90th percentile 9.2% -> 5.6%;
  /// estimator/README.md).
  Mix,
  /// Mix only on nodes of another CPU design than the base node's; the
  /// others carry the clone's profiles (the default until 2026-11-27).
  MixOtherCpu
};
const char *paddingAcrossName(PaddingAcross A);
std::optional<PaddingAcross> parsePaddingAcross(const std::string &S);

/// The node / base ratio of op mix \p Ops priced by the compute uBs on
/// \p Node at \p Threads and on \p Base at \p BaseThreads
/// (PaddingAcross::Mix); absent without an add or a multiply, or where
/// cadd or cmul, for kinds the mix has, is not measured on both. Under
/// MixPricing::Throughput, tadd and tmul where both nodes have them;
/// \p Used, if given, says which uBs priced it.
std::optional<double> opMixRatio(const TpiLookup &L, const OpCounts &Ops, const std::string &Node,
                                 unsigned Threads, const std::string &Base, unsigned BaseThreads,
                                 MixPricing Pricing = MixPricing::Latency,
                                 MixPricing *Used = nullptr);

/// The unpadded twin of a padded phase clone's uB name ("upd1p+e2+w8/3" ->
/// "upd1p+e2"); empty when \p UBench has no padding suffix.
std::string unpaddedName(const std::string &UBench);

/// One top-level region's part of a node's estimate: where the program
/// estimate's time sits (the parts add up to timeS with the serial code).
struct RegionEstimate {
  size_t phase = 0;      ///< index of the region in the phase file's phases
  double phasesS = 0;    ///< its matched leaves' estimates (missing ones as measured)
  double uncoveredS = 0; ///< its time outside them, as the uncovered rule projects it
  double syncS = 0;      ///< its synchronization term, page faults included
  double faultS = 0;     ///< the page faults' part of syncS
  /// False where a runs_if test of the region fails at the thread count
  /// it is projected onto: the program does not run it there, and every
  /// part is 0.
  bool runs = true;
  unsigned threads = 0; ///< the count it is projected onto
  double timeS() const { return phasesS + uncoveredS + syncS; }
};

struct NodeEstimate {
  std::string node;
  std::vector<PhaseEstimate> phases; ///< one per matched phase, file order
  double phasesS = 0;                ///< sum of the phase estimates
  /// The uncovered part on this node: the base run's under
  /// UncoveredRule::Kept, projected under UncoveredRule::Scaled.
  double uncoveredS = 0;
  double timeS = 0;                  ///< phasesS + uncoveredS + syncS
  /// The program estimate by METHOD.md's absolute rule (timeS under
  /// Projection::Absolute): what the self-check compares.
  double absoluteS = 0;
  double relativeToBase = 0; ///< timeS / the base node's timeS
  unsigned rank = 0;         ///< 1 = fastest
  size_t fallbacks = 0, missing = 0;
  size_t regionsNotRun = 0; ///< top-level regions left out (RegionEstimate::runs)
  /// Synchronization (SyncRule::Barriers): the top-level regions' barriers
  /// and spin-wait rounds priced at this node's cost per barrier (round)
  /// minus the base node's, added to timeS and absoluteS (0 on the base
  /// node by construction).
  double syncS = 0;
  /// Barrier-weighted mean cost of one barrier on this node (µs), over the
  /// regions priced.
  double barrierCostUs = 0;
  /// Round-weighted mean cost of one spin-wait round on this node (µs),
  /// over the regions priced.
  double spinCostUs = 0;
  /// Regions with barriers or spin waits that could not be priced (the node
  /// or the base lacks the sync uB/mbw1p pair at the thread count): their
  /// synchronization stays in their measured time, as without the rule.
  size_t syncUnpriced = 0;
  /// HandOverRule::Priced: the phases' PhaseEstimate::handOverS summed
  /// (in phasesS and timeS), the line-weighted mean cost of one line handed
  /// over on this node (µs; 0 at one thread), and the phases with
  /// hand-overs the node could not price (no ho1p/hk1p pair there or on
  /// the base node: kept in their projected time).
  double handOverS = 0;
  double handOverCostUs = 0;
  size_t handOverUnpriced = 0;
  /// InvocationRule::Priced: the phases' PhaseEstimate::invocationS summed
  /// (in phasesS) with the unmatched worksharing phases' change
  /// (invocationUnmatchedS, in uncoveredS), this node's fixed cost of one
  /// invocation (µs, invocation-weighted over its thread counts), and the
  /// phases it could not price (no inv1p/mbw1p pair there: kept in their
  /// projected or measured time).
  double invocationS = 0;
  double invocationUnmatchedS = 0;
  double invocationCostUs = 0;
  size_t invocationUnpriced = 0;
  /// Page faults (SyncRule::Barriers; part of syncS): the top-level
  /// regions' first-touch faults at this node's cost, less what the base
  /// run's faults became in the projection (scaled with the region's
  /// matched phases, which they sat in, or kept). 0 on the base node.
  double faultS = 0;
  /// Fault-weighted mean wall cost of one page fault of a team on this
  /// node (µs): pf1p's time per fault of one thread over the thread count.
  double faultCostUs = 0;
  /// Give-backs (SyncRule::Barriers; part of syncS, in no region's part):
  /// the pages of the priced faults, given back to the system by the
  /// serial code between the regions (a page faults again only after it
  /// was given back), at this node's cost per page less the base run's
  /// (gb1p), no more than the serial code's time taken away. 0 on the base
  /// node and where either lacks gb1p.
  double giveBackS = 0;
  /// Page-weighted mean cost of giving one page back on this node (µs).
  double giveBackCostUs = 0;
  /// Serial page faults (Estimate::serialPageFaults; SyncRule::Barriers,
  /// part of syncS, in no region's part) on a node of another CPU design
  /// than the base node's: at one thread's cost per fault on this design
  /// (serialFaultCostUs) less the base design's, no more than the serial
  /// code's time taken away. 0 on nodes of the base design, where a thread
  /// faulting alone costs what it cost in the base run, and where either
  /// design lacks pf1p (serialFaultsUnpriced).
  double serialFaultS = 0;
  double serialFaultCostUs = 0;
  bool serialFaultsUnpriced = false;
  /// Of the base run's faults, those on memory the program allocates only
  /// under tests of the thread count that fail at this node's count
  /// (guarded_page_faults): not priced here, as they do not happen.
  double faultsNotAllocated = 0;
  /// Of the serial code (Estimate::serialS), the time spent only under
  /// tests of the thread count that fail at this node's count
  /// (program.guarded_serial): left out of uncoveredS and timeS.
  double serialNotRunS = 0;
  /// The top-level regions' parts of timeS, in the phase file's order; the
  /// rest is the serial code (Estimate::serialS, kept on every node less
  /// serialNotRunS), but
  /// where a region's leaves outlast it in the base file (medians of several
  /// runs, a hand-written file) and its part outside them is 0, not negative.
  std::vector<RegionEstimate> regions;
  /// The distinct thread counts its phases were projected onto, ascending
  /// (one value unless phases of different thread counts are projected
  /// differently; empty without matched phases).
  std::vector<unsigned> threads;
  /// With several base runs: this node's estimate from each run alone
  /// (matched and projected like the merged one), in the order the files
  /// were given; empty with one run. Their spread is what the base runs'
  /// noise leaves in the estimate.
  std::vector<double> runTimesS;
  /// The node's CPU design (TpiLookup::cpuDesign) and whether it is known
  /// to differ from the base node's.
  std::string cpu;
  bool otherCpu = false;
  /// Of timeS, the padding's part: each phase on a padded profile times its
  /// padding share; paddedUnknownS: phases on padded profiles whose share is
  /// unknown (no unpadded twin), left out of paddedS.
  double paddedS = 0, paddedUnknownS = 0;
  /// Of paddedS, the padding priced by the phases' op mix
  /// (PaddingAcross::Mix) rather than carried by the clones' profiles.
  double paddedMixS = 0;
  /// paddedS / timeS, at most 1 (a node's cheaper synchronization or page
  /// faults can take timeS below its phases' sum).
  double paddedShare() const { return timeS > 0 ? std::min(1.0, paddedS / timeS) : 0; }
  /// A padding step is four chains of dependent multiply-adds: across CPU
  /// designs it speeds up like those, not like the arithmetic it stands for
  /// (EPYC -> Xeon: 1.16x against nbody's 1.5x and bt's 1.7-1.9x, runs du
  /// and dx, README "Across two CPU designs"). Estimates onto another CPU
  /// with at least this share of padding are flagged. Runs dt, du, dw and
  /// dx re-estimated (their rules-padding-warning.txt): the shares of their
  /// 60 cross-CPU rows fall in two groups, 0-7.3% (mm, NPB CG; absolute
  /// rule within 9.0%) and 42-100% (nbody, the bt's, XSBench, LULESH;
  /// -24...+87%), and any threshold between them flags the same rows.
  static constexpr double PaddedShareWarning = 0.2;
  /// The share of padding carried by the clones' profiles (paddedS less
  /// paddedMixS, over timeS).
  double paddedCarriedShare() const {
    return timeS > 0 ? std::clamp((paddedS - paddedMixS) / timeS, 0.0, 1.0) : 0;
  }
  /// Priced by the op mix or carried, padding on another design stays a
  /// stand-in: the mix prices adds and multiplies, not divisions, square
  /// roots or the stalls a padding may stand for (XSBench's search), so
  /// the warning counts both.
  bool paddingWarned() const { return otherCpu && paddedShare() >= PaddedShareWarning; }
};

/// Which thread count every node's profiles are looked up at.
struct ThreadProjection {
  enum Mode {
    Own,   ///< each phase's own thread count, on every node
    Fixed, ///< one global count (--threads N), on every node, the base too
    Native ///< per target node: the phase's own if the node has profiles at
           ///< it, else the node's largest; the base node keeps the phase's
  } mode = Own;
  unsigned threads = 0; ///< the count for Fixed
  static ThreadProjection own() { return {}; }
  static ThreadProjection fixed(unsigned N) { return {Fixed, N}; }
  static ThreadProjection native() { return {Native, 0}; }
};

/// How a matched phase's time on a node follows from its profile there.
enum class Projection {
  Absolute, ///< tpi_P(TN) * iterations (METHOD.md)
  Ratio     ///< T_phase(BN) * tpi_P(TN) / tpi_P(BN)
};
const char *projectionName(Projection P);
/// Whether synchronization is priced apart from work. A region's barriers
/// (phase file `barriers`: implicit and explicit ones plus the join) cost
/// what one barrier costs on a node with about as much work between
/// barriers, from the uB bar1p (mbw1p with a barrier after every sweep)
/// minus mbw1p at the same footprint: on two idle cores a microsecond, on
/// two threads sharing a core tens (a time slice), which no stream tuple
/// shows. Each node's estimate gets barriers x (its cost - the base node's
/// cost). Spin-wait rounds (phase file `spin_rounds`: the handoffs of a
/// pipeline whose threads spin on flags) are priced the same way per round
/// with spin1p: a spinning thread that shares a core with the one it waits
/// for holds the core for the rest of its time slice. Page faults (phase
/// file `page_faults`: first touches of memory a program maps afresh, such
/// as temporaries allocated and freed every step) are priced with pf1p,
/// whose cost per fault no stream uB has and which does not scale with the
/// work: the region's base fault time leaves its projection and each
/// node's own comes in.
enum class SyncRule {
  Off,     ///< METHOD.md: barriers and spin waits stay inside the measured times
  Barriers ///< the default where the phase file and the NPPDB allow it
};
const char *syncRuleName(SyncRule R);
std::optional<SyncRule> parseSyncRule(const std::string &S);
/// What a sync uB prices.
enum class SyncKind {
  Barrier,   ///< bar1p: a barrier after every sweep
  SpinWait,  ///< spin1p: a spin-wait handoff between neighbours after every sweep
  Invocation ///< inv1p: every sweep an invocation of a worksharing loop (nowait)
};
/// The uB that prices \p K ("bar1p", "spin1p", "inv1p").
const char *syncUBenchName(SyncKind K);
/// The cost of one synchronization of kind \p K (µs) on \p Node at
/// \p Threads from the sync uB's and mbw1p's profiles whose footprint is
/// within 5% of \p FootprintKiB; absent when the node lacks either. Never
/// negative (a noisy difference is 0).
std::optional<double> syncCostUs(SyncKind K, const TpiLookup &L, const std::string &Node,
                                 unsigned Threads, double FootprintKiB);
/// Where a region's work between synchronizations falls among the sync
/// uB's footprints: cost = (1 - weight) x cost(loKiB) + weight x cost(hiKiB).
struct SyncPoint {
  double loKiB = 0, hiKiB = 0, weight = 0;
};
/// The sync uB's footprints whose sweeps on \p Base at \p Threads (mbw1p's
/// time per sweep of one thread) bracket \p IntervalUs of work between
/// synchronizations, interpolated in log time (the nearest end outside the
/// range; sweeps over 100 us are left out, their difference being noise);
/// absent without sync uB/mbw1p pairs there.
std::optional<SyncPoint> syncPoint(SyncKind K, const TpiLookup &L, const std::string &Base,
                                   unsigned Threads, double IntervalUs);
/// The wall time of one page fault (µs) of a team of \p Threads on \p Node:
/// the median of pf1p's times per fault of one thread over the thread count
/// (the team's faults are spread over its threads); absent without pf1p.
std::optional<double> faultCostUs(const TpiLookup &L, const std::string &Node, unsigned Threads);
/// What one page fault costs a thread faulting alone (µs) on \p Node's CPU
/// design: pf1p at one thread on \p Node, else on another node of its
/// design (L.nodes(), the first by name), else \p Node's own per thread
/// of its team (its threads faulting together: an upper bound); absent
/// without pf1p. The serial code's faults are priced at it.
std::optional<double> serialFaultCostUs(const TpiLookup &L, const std::string &Node);
/// The wall time (µs) of giving one page back to the system after a team of
/// \p Threads on \p Node touched it, the same way from gb1p; absent without
/// gb1p.
std::optional<double> giveBackCostUs(const TpiLookup &L, const std::string &Node,
                                     unsigned Threads);
/// syncCostUs at a SyncPoint; absent when the node lacks either end.
std::optional<double> syncCostUs(SyncKind K, const TpiLookup &L, const std::string &Node,
                                 unsigned Threads, const SyncPoint &P);
/// Which sweeps of the sync uB price a synchronization.
enum class SyncSweeps {
  /// The sweep as long as the region's work between synchronizations (its
  /// SyncPoint), interpolated: the default.
  Interval,
  /// All sweeps up to 100 us, each cost weighted by the inverse square of
  /// its sweep's time (the difference of two sweeps' times has a noise
  /// about proportional to them, so the shortest sweeps, where it is mostly
  /// the synchronization, decide): one cost per node and thread count.
  Short
};
const char *syncSweepsName(SyncSweeps S);
std::optional<SyncSweeps> parseSyncSweeps(const std::string &S);

/// Whether hand-overs are priced apart. A phase's streams say which share
/// of their accesses find data another thread wrote last
/// (PhaseStream::handoverShare); each such line waits for a cache-to-cache
/// transfer that one thread never pays and that costs what the node's
/// caches make it. The base run's hand-over time (lines x ho1p's cost on
/// the base node) went into the projection with the phase's work; it is
/// taken out again and the node's own put in: lines x (T-1)/T over the
/// base's (T_b-1)/T_b (a flip hands over a share (T-1)/T at T threads, none
/// at one) x the node's cost.
enum class HandOverRule {
  /// Inside the measured phase times (METHOD.md): the default since
  /// 2026-11-29, priced losing to it on the shared core in runs hp and hs.
  Kept,
  Priced ///< apart, where the phase file and the NPPDB allow it
};
/// Which profile of its ranking a phase takes on a node of another CPU
/// design than the base node's (estimator/README.md, "Whole phase on
/// another CPU"). The ranking's candidate may walk some of the phase's
/// streams at a tpi that matched it on the base design; on another design
/// only a profile that walks all of them as they are (its clone) need scale
/// like the phase.
enum class OtherCpuProfile {
  Ranked,    ///< the candidate, as on every node (METHOD.md)
  WholePhase ///< the best ranked profile that reproduces the phase, else the candidate
};
const char *otherCpuProfileName(OtherCpuProfile P);
std::optional<OtherCpuProfile> parseOtherCpuProfile(const std::string &S);

/// Whether a worksharing loop's invocations are priced apart. Each
/// invocation costs a thread a fixed time beside its rows (the loop's
/// bounds, the runtime's entry and exit), which does not shrink when the
/// rows are shared by more threads nor grow with the work: NPB SP W's lhs
/// loops run 463,556 invocations of 0.4-0.5 us, as long at two threads as
/// at one, where the long-loop uBs they match halve. The base run's fixed
/// time (invocations x inv1p's cost on the base node, at most the phase's
/// work) went into the projection with the phase's work; it is taken out
/// again and the node's own put in (invocations x its cost).
enum class InvocationRule {
  Kept, ///< inside the measured phase times (METHOD.md)
  /// Apart, for worksharing phases, where the NPPDB has inv1p: the default
  /// since 2026-11-29 (estimator/README.md, "Invocations").
  Priced
};
const char *invocationRuleName(InvocationRule R);
std::optional<InvocationRule> parseInvocationRule(const std::string &S);
/// Whether \p P is a worksharing construct whose every invocation each
/// thread of its team enters (for, sections, distribute; not a region,
/// single or master).
bool pricesInvocations(const Phase &P);

const char *handOverRuleName(HandOverRule R);
std::optional<HandOverRule> parseHandOverRule(const std::string &S);
/// The bytes of \p S one invocation of \p P reaches, over its team: its
/// footprint, or less where the invocation's accesses (iterations a thread
/// x accesses an iteration x threads, each moving on by its stride, a line
/// at most) cannot reach that far.
double invocationReachBytes(const Phase &P, const PhaseStream &S);
/// Cache lines of \p P handed over in the run, over its team: each
/// stream's footprint in lines times its handoverShare times its
/// handoverRounds, at most as many rounds as the invocations walk the
/// footprint (invocations x invocationReachBytes / footprint); without
/// rounds (older files), its reach in lines times the share times the
/// invocations.
double handedLines(const Phase &P);
/// The footprint that picks the hand-over uBs' profile for \p P: its
/// handing-over streams' footprints summed (KiB).
double handOverFootprintKiB(const Phase &P);
/// The wall cost (µs) of one line handed over to a thread of a team of
/// \p Threads on \p Node: (ho1p - hk1p tpi) x elements per line at the
/// footprints where both are measured, interpolated in log footprint at
/// \p FootprintKiB (the nearest one's outside them); 0 at one thread;
/// absent without the pair. Never negative.
std::optional<double> handOverCostUs(const TpiLookup &L, const std::string &Node,
                                     unsigned Threads, double FootprintKiB);
/// SyncSweeps::Short's cost of one synchronization of kind \p K (µs) on
/// \p Node at \p Threads; absent without a sync uB / mbw1p pair there.
/// Never negative.
std::optional<double> syncCostShortUs(SyncKind K, const TpiLookup &L, const std::string &Node,
                                      unsigned Threads);
std::optional<Projection> parseProjection(const std::string &S);
/// What the part of the base run outside matched phases becomes on a node.
enum class UncoveredRule {
  Kept,  ///< METHOD.md's default: as measured on the base node, on every node
  /// The time inside each top-level region outside its matched phases
  /// (unmatched and insignificant leaves, code between leaves) follows the
  /// region's matched phases: times their node estimate / base estimate.
  /// Its barriers are left out of the scaled time when SyncRule::Barriers
  /// prices them. Serial code (outside every top-level region) and regions
  /// without a matched phase stay as measured.
  Scaled
};
const char *uncoveredRuleName(UncoveredRule R);
std::optional<UncoveredRule> parseUncoveredRule(const std::string &S);

struct EstimateOptions {
  /// Nodes to estimate (the base node is always added); empty: all.
  std::vector<std::string> nodes;
  /// Project onto this thread count's profiles (0: each phase's own).
  unsigned threads = 0;
};

struct Estimate {
  std::string base;
  unsigned threads = 0;        ///< the projection's thread count; 0 = the phases' own
                               ///< (also under Native, see projection)
  ThreadProjection projection; ///< how the thread counts were chosen
  Projection rule = Projection::Absolute;
  double measuredS = 0;            ///< program.total_time_s of the base run
  double coveredS = 0;             ///< base time of the matched phases
  double uncoveredS = 0;           ///< measuredS - coveredS: the base node's uncovered part
  double coverage = 0;             ///< coveredS / measuredS
  UncoveredRule uncovered = UncoveredRule::Kept; ///< how uncoveredS reaches the nodes
  PaddedRatio padded = PaddedRatio::Family;      ///< as asked
  PaddingAcross across = PaddingAcross::Mix;     ///< as asked
  MixPricing mixPricing = MixPricing::Latency;   ///< as asked
  OtherCpuProfile otherCpu = OtherCpuProfile::Ranked; ///< as asked
  /// The parts of uncoveredS: outside every top-level region (serial code),
  /// and inside regions outside their matched phases.
  double serialS = 0, inRegionsS = 0;
  std::vector<NodeEstimate> nodes; ///< ranked, fastest first
  SyncRule sync = SyncRule::Off;   ///< as asked
  SyncSweeps sweeps = SyncSweeps::Interval; ///< as asked
  HandOverRule handOver = HandOverRule::Kept; ///< as asked
  InvocationRule invocations = InvocationRule::Priced; ///< as asked
  /// InvocationRule::Priced: the worksharing phases' invocations (all of
  /// the base run) priced, their phases (of which unmatched ones, whose
  /// time is in the uncovered part), and the base node's
  /// invocation-weighted cost of one (µs).
  double invocationCount = 0;
  size_t invocationPhases = 0;
  size_t invocationUnmatchedPhases = 0;
  double invocationBaseCostUs = 0;
  /// Lines the matched phases hand over in the base run (all invocations)
  /// and the phases that hand any over (HandOverRule::Priced).
  double handedLines = 0;
  size_t handOverPhases = 0;
  /// Barriers of the top-level regions (0 when the phase file has none).
  double barriers = 0;
  /// Spin-wait rounds of the top-level regions (0 when the phase file has none).
  double spinRounds = 0;
  /// Page faults of the top-level regions (0 when the phase file has none).
  double pageFaults = 0;
  /// Page faults of the serial code: the program's (program.page_faults)
  /// less the top-level regions'; 0 where the phase file has no program
  /// count. Under SyncRule::Barriers priced on nodes of another CPU design
  /// (NodeEstimate::serialFaultS) at one thread's cost per fault, the base
  /// design's being serialFaultBaseCostUs (µs; 0: unpriced).
  double serialPageFaults = 0;
  double serialFaultBaseCostUs = 0;
  /// SyncRule::Barriers: of the matched top-level regions that are their own
  /// phase, the base time beyond their slowest thread's own (their forks and
  /// joins), in uncoveredS and kept rather than scaled with their work; only
  /// where the base run's threads had CPUs of their own.
  double forkJoinS = 0;
  unsigned forkJoinRegions = 0;
  /// The base run's cost of one of them (µs, fault-weighted over the regions
  /// priced, at their own thread counts): what the fault term takes out.
  double faultBaseCostUs = 0;
  /// The base run's cost of giving one page back (µs, weighted as
  /// faultBaseCostUs; 0 without gb1p): what the give-back term takes out.
  double giveBackBaseCostUs = 0;
  /// scaleToPlainBuild: the plain build's time on the base node (s), and
  /// the factor plainS / measuredS every node's program estimate (timeS,
  /// runTimesS) was multiplied by; absent, and 1, without it.
  std::optional<double> plainS;
  double plainScale = 1;
  const NodeEstimate *baseNode() const;
  /// (base estimate by the absolute rule - measured) / measured * 100
  /// (under the ratio rule the base estimate equals the measurement for
  /// every covered phase, so only the absolute one checks the match); absent when the
  /// projection changes the base node's thread count (--threads N: the base
  /// run is not comparable). Native keeps the base at the phases' own.
  std::optional<double> selfCheckPercent() const;
};

/// Projects the matched phases of \p F onto \p Nodes (which must include
/// \p Base). Throws InputError on a thread count of 0 in a phase.
Estimate estimate(const PhaseFile &F, const std::vector<PhaseMatch> &M, const TpiLookup &L,
                  const std::string &Base, const std::vector<std::string> &Nodes, unsigned Threads);
/// The same with any ThreadProjection (the overload above is Own for 0,
/// Fixed otherwise) and time rule.
Estimate estimate(const PhaseFile &F, const std::vector<PhaseMatch> &M, const TpiLookup &L,
                  const std::string &Base, const std::vector<std::string> &Nodes,
                  const ThreadProjection &T, Projection Rule = Projection::Absolute,
                  SyncRule Sync = SyncRule::Barriers,
                  UncoveredRule Uncovered = UncoveredRule::Kept,
                  PaddedRatio Padded = PaddedRatio::Family,
                  PaddingAcross Across = PaddingAcross::Mix,
                  SyncSweeps Sweeps = SyncSweeps::Interval,
                  HandOverRule HandOver = HandOverRule::Kept,
                  OtherCpuProfile OtherCpu = OtherCpuProfile::Ranked,
                  InvocationRule Invocations = InvocationRule::Priced,
                  MixPricing Pricing = MixPricing::Latency);

/// METHOD.md's "instrumentation noise": the instrumented build's code does
/// not run as fast as the plain build's (miniBUDE's 5-7% faster, RSBench's
/// 8-12% slower on the project's VM: the iteration counters change what the
/// back end makes of a loop), and every estimate carries the difference
/// from the base run. Given the plain build's time on the base node
/// (\p PlainS, seconds, the user's own run of it), every node's program
/// estimate is scaled by PlainS / the base run's time; rankings and ratios
/// to the base node do not move, and the phases' estimates and the parts
/// of the sum stay the instrumented build's. Throws InputError unless
/// \p PlainS is positive and finite and the base run has a time.
void scaleToPlainBuild(Estimate &E, double PlainS);

/// "4", or "1,2" for a node whose phases were projected onto several counts.
std::string formatThreadList(const std::vector<unsigned> &Threads);

/// What the branches on the thread count (program.thread_branches, found
/// by the plugin) say of the other thread counts \p E projects onto. A
/// projection assumes the same code runs there: where a branch's test goes
/// the other way it does not (otherCodeThreads); where a branch has no test
/// the plugin could tell, it may not (unknownThreads).
struct ThreadBranchVerdict {
  std::vector<unsigned> otherCodeThreads;
  std::vector<unsigned> unknownThreads;
  std::vector<std::string> flippedSites;  ///< tested sites that flip at some of them
  std::vector<std::string> untestedSites; ///< sites without a test
  /// Top-level regions some node does not run (RegionEstimate::runs), as
  /// "id (threads > 1)", and the thread counts where that happens.
  std::vector<std::string> regionsNotRun;
  std::vector<unsigned> notRunThreads;
};
ThreadBranchVerdict threadBranchVerdict(const PhaseFile &F, const Estimate &E);

/// The warning for a program whose code branches on its thread count when
/// an estimate projects it onto a thread count where that code may differ
/// (\p V, threadBranchVerdict's); "" when none does.
std::string threadBranchesWarning(const ProgramInfo &P, const ThreadBranchVerdict &V);

/// The warning of a node whose estimate padding carries onto another CPU
/// design (NodeEstimate::paddingWarned); empty when there is none.
std::string paddingWarning(const Estimate &E, const NodeEstimate &N);

/// Of \p N's estimate, the share that is serial code kept at the base
/// node's time (METHOD.md: the part no matched phase covers, outside the
/// parallel regions; less what does not run at the node's thread count),
/// at most 1.
double serialKeptShare(const Estimate &E, const NodeEstimate &N);

/// Serial code keeps its base time on every node, and across CPU designs
/// its speed differs: on the lent Xeon (runs go, gq) NPB CG A's and
/// XSBench's set-up code ran 1.2-2.6x as long as on the EPYC base, LULESH's
/// 0.7-0.8x; at 16 threads those parts were 23-43% of the estimates.
/// Estimates onto another CPU design with at least this share are flagged.
inline constexpr double SerialShareWarning = 0.2;

/// Whether \p N is of another CPU design and at least SerialShareWarning
/// of its estimate is serial code kept at the base node's time.
bool serialWarned(const Estimate &E, const NodeEstimate &N);

/// serialWarned's warning; empty when there is none.
std::string serialWarning(const Estimate &E, const NodeEstimate &N);

/// The full phaseprobe.estimate/1 document: the matcher's part plus per-phase
/// `estimates` and the ranked `nodes` (CONTRACTS.md), `uncovered` and
/// `self_check`.
nlohmann::ordered_json estimateReportJson(const MatchInputs &In, const std::vector<PhaseMatch> &M,
                                          const Estimate &E);

/// One row per node and phase (and per node the uncovered and the program
/// totals): node,rank,relative_to_base,phase,time_s,tpi_us,iterations,
/// ubench,streams,status,threads.
std::string estimateCsv(const PhaseFile &F, const std::vector<PhaseMatch> &M, const Estimate &E);

/// The outcome of comparing an estimate with a stored baseline document.
struct CheckResult {
  bool regressed = false;         ///< the gate fails (slower, or other thread counts)
  size_t slower = 0;              ///< nodes slower beyond the tolerance
  size_t threadsChanged = 0;      ///< nodes projected onto other thread counts than in the baseline
  std::vector<std::string> lines; ///< what changed, for the user
};

/// Compares \p Current (an estimateReportJson document) with \p Baseline
/// (read from \p BaselinePath, validated: InputError when it is not a
/// phaseprobe.estimate/1 document with nodes). A node regresses when its
/// estimate grew by more than \p TolerancePercent, or when it was projected
/// onto other thread counts than in the baseline (not like with like).
CheckResult checkAgainstBaseline(const nlohmann::ordered_json &Current,
                                 const std::string &BaselineText, const std::string &BaselinePath,
                                 double TolerancePercent);

} // namespace phaseprobe
