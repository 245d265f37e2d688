//===- check.cpp - The CI regression gate (--check) -----------------------===//
//
// A build's estimate is compared with a stored one, node by node: a node whose
// program estimate grew by more than the tolerance is a regression. The report
// then says which phases moved and why (another candidate, another tpi), and,
// from the estimates' per-region split, which regions moved and how much of
// that was priced synchronization or page faults (time that is no phase's),
// so the gate's failure is actionable without rerunning anything. A node
// projected onto other thread counts than in the baseline (--threads native
// after the NPPDB gained profiles, another --threads N) is not compared at
// all: the two numbers answer different questions, so the gate fails and
// says so instead of passing or failing on a meaningless ratio.
//
//===----------------------------------------------------------------------===//
#include "phaseprobe/error.h"
#include "phaseprobe/estimator.h"
#include "phaseprobe/phase_file.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

namespace phaseprobe {

using ojson = nlohmann::ordered_json;

namespace {

std::string num(double V, const char *F = "%.6g") {
  char B[64];
  std::snprintf(B, sizeof B, F, V);
  return B;
}

std::string signedPct(double Base, double Cur) {
  if (Base == 0)
    return Cur == 0 ? "+0%" : "new";
  return num((Cur - Base) / Base * 100, "%+.2f%%");
}

struct PhaseEstimateView {
  double timeS = 0;
  std::string profile;
  std::string threads; // "" when the document does not say (older baselines)
};

struct PhaseView {
  std::string candidate;                              // "ubench streams" or "" when unmatched
  std::map<std::string, PhaseEstimateView> estimates; // by node
};

/// A top-level region's part of a node's estimate (`nodes[].regions`).
struct RegionView {
  double timeS = 0, syncS = 0;
};

struct NodeView {
  double timeS = 0;
  std::optional<std::string> threads; // "4", "1,2", "none"; absent in older baselines
  std::optional<double> syncS;        // absent in older baselines
  std::map<std::string, RegionView> regions; // empty in older baselines
};

/// A number field of \p Obj, or absent; anything else is an input error.
std::optional<double> optNumber(const ojson &Obj, const char *Key, const std::string &Path,
                                const std::string &Where) {
  auto It = Obj.find(Key);
  if (It == Obj.end())
    return std::nullopt;
  if (!It->is_number())
    throw InputError(Path, Where + "." + Key, "expected a number");
  return It->get<double>();
}

/// A number field \p Obj must have (an object or not); else an input error.
double number(const ojson &Obj, const char *Key, const std::string &Path,
              const std::string &Where) {
  if (std::optional<double> V = optNumber(Obj, Key, Path, Where))
    return *V;
  throw InputError(Path, Where + "." + Key, "expected a number");
}

/// A string field \p Obj must have (an object or not); else an input error.
std::string text(const ojson &Obj, const char *Key, const std::string &Path,
                 const std::string &Where) {
  auto It = Obj.find(Key);
  if (It == Obj.end() || !It->is_string())
    throw InputError(Path, Where + "." + Key, "expected a string");
  return It->get<std::string>();
}

/// The text of a `threads` value: a count, a list of counts or null.
std::optional<std::string> threadsText(const ojson &Obj, const std::string &Path,
                                       const std::string &Where) {
  auto It = Obj.find("threads");
  if (It == Obj.end())
    return std::nullopt;
  if (It->is_null())
    return std::string("none");
  auto IsCount = [](const ojson &T) { return T.is_number_integer() && T.get<long long>() >= 0; };
  if (IsCount(*It))
    return std::to_string(It->get<unsigned>());
  if (It->is_array()) {
    std::string S;
    for (const ojson &T : *It) {
      if (!IsCount(T))
        throw InputError(Path, Where + ".threads", "expected thread counts");
      S += (S.empty() ? "" : ",") + std::to_string(T.get<unsigned>());
    }
    return S;
  }
  throw InputError(Path, Where + ".threads", "expected a thread count, a list of them or null");
}

/// Reads the per-phase candidates and estimates of a document. \p Path is
/// empty for the current document (built here, so trusted).
std::map<std::string, PhaseView> phasesOf(const ojson &Doc, const std::string &Path) {
  std::map<std::string, PhaseView> Out;
  auto It = Doc.find("phases");
  if (It == Doc.end() || !It->is_array()) {
    if (!Path.empty())
      throw InputError(Path, "phases", "expected an array");
    return Out;
  }
  for (size_t I = 0; I < It->size(); ++I) {
    const ojson &P = (*It)[I];
    std::string Where = "phases[" + std::to_string(I) + "]";
    std::string Id = text(P, "id", Path, Where);
    PhaseView V;
    if (P.contains("candidate") && P["candidate"].is_object()) {
      const ojson &C = P["candidate"];
      V.candidate = C.value("ubench", std::string()) + " " + C.value("streams", std::string());
    }
    if (P.contains("estimates") && P["estimates"].is_object()) {
      for (auto E = P["estimates"].begin(); E != P["estimates"].end(); ++E) {
        double T = number(*E, "time_s", Path, Where + ".estimates." + E.key());
        std::string Profile = V.candidate;
        if (E->contains("profile") && (*E)["profile"].is_object())
          Profile = (*E)["profile"].value("ubench", std::string()) + " " +
                    (*E)["profile"].value("streams", std::string()) + " (fallback)";
        if (E->value("status", std::string()) == "missing")
          Profile = "(no profile: base time)";
        V.estimates[E.key()] = {
            T, Profile,
            threadsText(*E, Path, Where + ".estimates." + E.key()).value_or(std::string())};
      }
    }
    Out[Id] = V;
  }
  return Out;
}

std::map<std::string, NodeView> nodesOf(const ojson &Doc, const std::string &Path) {
  std::map<std::string, NodeView> Out;
  auto It = Doc.find("nodes");
  if (It == Doc.end())
    throw InputError(Path, "nodes", "missing: not an estimate (a phaseprobe-match result?)");
  if (!It->is_array())
    throw InputError(Path, "nodes", "expected an array");
  for (size_t I = 0; I < It->size(); ++I) {
    const ojson &N = (*It)[I];
    std::string Where = "nodes[" + std::to_string(I) + "]";
    if (!N.is_object())
      throw InputError(Path, Where, "expected an object");
    std::string Node = text(N, "node", Path, Where);
    NodeView V{number(N, "time_s", Path, Where), threadsText(N, Path, Where),
               optNumber(N, "sync_s", Path, Where), {}};
    if (auto R = N.find("regions"); R != N.end()) {
      if (!R->is_array())
        throw InputError(Path, Where + ".regions", "expected an array");
      for (size_t J = 0; J < R->size(); ++J) {
        const ojson &G = (*R)[J];
        std::string At = Where + ".regions[" + std::to_string(J) + "]";
        V.regions[text(G, "id", Path, At)] = {number(G, "time_s", Path, At),
                                              optNumber(G, "sync_s", Path, At).value_or(0)};
      }
    }
    Out[Node] = V;
  }
  return Out;
}

} // namespace

CheckResult checkAgainstBaseline(const ojson &Current, const std::string &BaselineText,
                                 const std::string &BaselinePath, double Tolerance) {
  ojson Base;
  try {
    Base = ojson::parse(BaselineText);
  } catch (const ojson::parse_error &E) {
    throw InputError(BaselinePath, jsonErrorPlace(BaselineText, E.byte),
                     std::string("malformed JSON: ") + jsonErrorReason(E.what()));
  }
  if (!Base.is_object())
    throw InputError(BaselinePath, "", "expected a JSON object");
  if (!Base.contains("schema") || Base["schema"] != "phaseprobe.estimate/1")
    throw InputError(BaselinePath, "schema",
                     "expected \"phaseprobe.estimate/1\", found " +
                         (Base.contains("schema") ? Base["schema"].dump() : std::string("none")));
  // Estimates by different time rules answer different questions; older
  // baselines (no "projection") were all made by the absolute rule.
  if (Base.contains("projection") && !Base["projection"].is_string())
    throw InputError(BaselinePath, "projection", "expected \"absolute\" or \"ratio\"");
  std::string BaseRule = Base.value("projection", std::string("absolute"));
  std::string CurRule = Current.value("projection", std::string("absolute"));
  if (BaseRule != CurRule)
    throw InputError(BaselinePath, "projection",
                     "the baseline was estimated with --projection " + BaseRule +
                         ", this run with --projection " + CurRule +
                         ": use the same rule, or refresh the baseline");
  // So do two rules for the uncovered part; documents without "by" kept it.
  auto UncoveredBy = [&](const ojson &D, const std::string &Path) {
    if (!D.contains("uncovered") || !D["uncovered"].is_object() || !D["uncovered"].contains("by"))
      return std::string("kept");
    const ojson &By = D["uncovered"]["by"];
    if (!By.is_string() || !parseUncoveredRule(By.get<std::string>()))
      throw InputError(Path, "uncovered.by", "expected \"kept\" or \"scaled\"");
    return By.get<std::string>();
  };
  std::string BaseBy = UncoveredBy(Base, BaselinePath), CurBy = UncoveredBy(Current, "");
  if (BaseBy != CurBy)
    throw InputError(BaselinePath, "uncovered.by",
                     "the baseline was estimated with --uncovered " + BaseBy +
                         ", this run with --uncovered " + CurBy +
                         ": use the same rule, or refresh the baseline");
  // Priced synchronization adds a term the other estimate lacks. A document
  // prices a kind when its rule is "barriers" and its phase file counted
  // some; older documents (no "sync", or no "spin_rounds") never did. Forks
  // and joins kept apart move time out of the phases' projection the same
  // way (older runtimes wrote no threads_share_cpus, older estimators no
  // fork_join_regions).
  auto Prices = [](const auto &D, const char *Key) {
    if (!D.contains("sync") || !D["sync"].is_object())
      return false;
    const auto &S = D["sync"];
    return S.value("rule", std::string()) == "barriers" && S.contains(Key) &&
           S[Key].is_number() && S[Key].template get<double>() > 0;
  };
  struct SyncKindView {
    const char *key, *did, *didNot, *noun, *advice;
  };
  for (const SyncKindView &K :
       {SyncKindView{"barriers", "priced", "did not price", "barriers",
                     "(and a runtime that counts barriers for both)"},
        SyncKindView{"spin_rounds", "priced", "did not price", "spin-wait rounds",
                     "and phaseprobe version for both"},
        SyncKindView{"fork_join_regions", "kept", "did not keep",
                     "the forks and joins of regions that are their own phase",
                     "and a runtime that writes threads_share_cpus for both"}}) {
    bool InBase = Prices(Base, K.key), InCurrent = Prices(Current, K.key);
    if (InBase != InCurrent)
      throw InputError(BaselinePath, "sync",
                       std::string("the baseline ") + (InBase ? K.did : K.didNot) + " " +
                           K.noun + " apart, this run " + (InCurrent ? "does" : "does not") +
                           ": use the same --sync " + K.advice + ", or refresh the baseline");
  }
  // Program estimates scaled to the plain build's time and unscaled ones
  // differ by the instrumentation's own effect, not by the program's.
  bool BasePlain = Base.contains("plain_build"), CurPlain = Current.contains("plain_build");
  if (BasePlain != CurPlain)
    throw InputError(BaselinePath, "plain_build",
                     std::string("the baseline's estimates were ") + (BasePlain ? "" : "not ") +
                         "scaled to the plain build's time, this run's " +
                         (CurPlain ? "are" : "are not") +
                         ": give --plain-time to both or neither, or refresh the baseline");
  std::map<std::string, NodeView> BaseNodes = nodesOf(Base, BaselinePath);
  std::map<std::string, PhaseView> BasePhases = phasesOf(Base, BaselinePath);
  std::map<std::string, NodeView> CurNodes = nodesOf(Current, "");
  std::map<std::string, PhaseView> CurPhases = phasesOf(Current, "");

  CheckResult R;
  bool Unknown = false; // a baseline node without thread counts (older documents)
  for (const auto &[Node, CurV] : CurNodes) {
    auto B = BaseNodes.find(Node);
    if (B == BaseNodes.end()) {
      R.lines.push_back("node " + Node + ": not in the baseline (not checked)");
      continue;
    }
    double Was = B->second.timeS, Cur = CurV.timeS;
    if (!B->second.threads)
      Unknown = true;
    bool Changed = B->second.threads && CurV.threads && *B->second.threads != *CurV.threads;
    bool Slower = !Changed && (Was > 0 ? (Cur - Was) / Was * 100 > Tolerance + 1e-9 : Cur > 0);
    if (Changed) {
      ++R.threadsChanged;
      R.lines.push_back("node " + Node + ": " + num(Was) + " s at " + *B->second.threads +
                        " threads -> " + num(Cur) + " s at " + *CurV.threads +
                        " threads: THREAD COUNT CHANGED, not compared (refresh the baseline)");
    } else {
      R.lines.push_back("node " + Node + ": " + num(Was) + " s -> " + num(Cur) + " s (" +
                        signedPct(Was, Cur) + ", tolerance " + num(Tolerance) +
                        "%): " + (Slower ? "SLOWER beyond the tolerance" : "ok"));
      if (Slower)
        ++R.slower;
    }
    if (!Slower && !Changed)
      continue;
    R.regressed = true;
    // Which phases moved on this node, and how.
    std::map<std::string, double> PhaseMoved; // by id, seconds, both documents estimated
    std::map<std::string, bool> Ids;
    for (const auto &P : CurPhases)
      Ids[P.first] = true;
    for (const auto &P : BasePhases)
      Ids[P.first] = true;
    for (const auto &[Id, Unused] : Ids) {
      (void)Unused;
      auto C = CurPhases.find(Id), O = BasePhases.find(Id);
      const PhaseEstimateView *CE = nullptr, *OE = nullptr;
      if (C != CurPhases.end())
        if (auto It = C->second.estimates.find(Node); It != C->second.estimates.end())
          CE = &It->second;
      if (O != BasePhases.end())
        if (auto It = O->second.estimates.find(Node); It != O->second.estimates.end())
          OE = &It->second;
      if (!CE && !OE)
        continue;
      if (!OE) {
        R.lines.push_back("  phase " + Id + ": new estimate " + num(CE->timeS) + " s with " +
                          CE->profile + " (not estimated in the baseline)");
      } else if (!CE) {
        R.lines.push_back("  phase " + Id + ": no longer estimated (was " + num(OE->timeS) +
                          " s with " + OE->profile + "); its time is now in the uncovered part");
      } else {
        PhaseMoved[Id] = CE->timeS - OE->timeS;
        bool ThreadsMoved = !OE->threads.empty() && OE->threads != CE->threads;
        if (CE->timeS == OE->timeS && CE->profile == OE->profile && !ThreadsMoved)
          continue;
        std::string L = "  phase " + Id + ": " + num(OE->timeS) + " s -> " + num(CE->timeS) +
                        " s (" + signedPct(OE->timeS, CE->timeS) + ")";
        if (CE->profile != OE->profile)
          L += ", profile " + OE->profile + " -> " + CE->profile;
        if (ThreadsMoved)
          L += ", threads " + OE->threads + " -> " + CE->threads;
        R.lines.push_back(L);
      }
    }
    double CurUnc = Current.contains("uncovered") ? Current["uncovered"].value("time_s", 0.0) : 0;
    double OldUnc = Base.contains("uncovered") && Base["uncovered"].is_object()
                        ? Base["uncovered"].value("time_s", 0.0)
                        : 0;
    if (CurUnc != OldUnc)
      R.lines.push_back("  uncovered part: " + num(OldUnc) + " s -> " + num(CurUnc) + " s");
    // Time that is no phase's: the priced synchronization and page faults,
    // and where it and the rest moved, region by region (both documents
    // must say; older baselines do not).
    const NodeView &Old = B->second;
    if (Old.syncS && CurV.syncS && *Old.syncS != *CurV.syncS)
      R.lines.push_back("  synchronization and page faults: " + num(*Old.syncS) + " s -> " +
                        num(*CurV.syncS) + " s");
    if (Old.regions.empty() || CurV.regions.empty())
      continue;
    for (const auto &[Id, G] : CurV.regions) {
      auto O = Old.regions.find(Id);
      if (O == Old.regions.end()) {
        R.lines.push_back("  region " + Id + ": new, " + num(G.timeS) + " s");
        continue;
      }
      // A region that is its own leaf moved with the phase line above.
      auto P = PhaseMoved.find(Id);
      bool Said = P != PhaseMoved.end() && G.syncS == O->second.syncS &&
                  std::fabs(G.timeS - O->second.timeS - P->second) <=
                      1e-9 * std::max(1.0, std::fabs(G.timeS));
      if (G.timeS == O->second.timeS || Said)
        continue;
      std::string L = "  region " + Id + ": " + num(O->second.timeS) + " s -> " + num(G.timeS) +
                      " s (" + signedPct(O->second.timeS, G.timeS) + ")";
      if (G.syncS != O->second.syncS)
        L += ", its synchronization and page faults " + num(O->second.syncS) + " s -> " +
             num(G.syncS) + " s";
      R.lines.push_back(L);
    }
    for (const auto &[Id, G] : Old.regions)
      if (!CurV.regions.count(Id))
        R.lines.push_back("  region " + Id + ": no longer a region (was " + num(G.timeS) + " s)");
  }
  for (const auto &[Node, Was] : BaseNodes)
    if (!CurNodes.count(Node))
      R.lines.push_back("node " + Node + ": in the baseline (" + num(Was.timeS) +
                        " s) but not estimated now");
  if (Unknown)
    R.lines.push_back("(the baseline does not say which thread counts its nodes were projected "
                      "onto: written by an older phaseprobe-estimate; thread counts not compared)");
  return R;
}

} // namespace phaseprobe
