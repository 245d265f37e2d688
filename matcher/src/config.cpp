//===- config.cpp - The matcher's thresholds, bands and points -----------===//
//
// Defaults are METHOD.md's; a JSON file overrides any subset. Unknown keys
// are errors rather than silently ignored: a misspelt band would otherwise
// leave the default in force without the user noticing.
//
//===----------------------------------------------------------------------===//
#include "phaseprobe/atomic_file.h"
#include "phaseprobe/error.h"
#include "phaseprobe/matcher.h"
#include "phaseprobe/phase_file.h"
#include "phaseprobe/stream_notation.h"

#include <cmath>
#include <set>

namespace phaseprobe {

using nlohmann::json;

static const char *ConfigSchema = "phaseprobe.match-config/1";

const char *pairingName(Pairing P) { return P == Pairing::Ordered ? "ordered" : "best"; }

std::optional<Pairing> parsePairing(const std::string &S) {
  if (S == "ordered")
    return Pairing::Ordered;
  if (S == "best")
    return Pairing::Best;
  return std::nullopt;
}

double BandedField::maxPoints() const {
  double M = otherwise;
  for (const auto &B : bands)
    M = std::max(M, B.second);
  return M;
}

MatchConfig MatchConfig::defaults() {
  MatchConfig C;
  C.footprint.bands = {{2, 25}, {5, 15}, {10, 10}, {20, 5}};
  C.stride.bands = {{2, 25}, {5, 25}, {10, 10}, {20, 0}};
  C.tpi.bands = {{2, 25}, {5, 15}, {10, 10}, {20, 5}};
  C.footprint.discardAbove = C.stride.discardAbove = C.tpi.discardAbove = 80;
  // Not METHOD.md's (which leaves such phases unmatched): validated on the
  // project's stored runs, matcher/README.md, "Phases on L1 data".
  C.l1PhaseMinInvocationUs = 1000;
  return C;
}

double MatchConfig::maxIndex() const {
  return footprint.maxPoints() + stride.maxPoints() + tpi.maxPoints() +
         std::max(elem.equal, elem.different) + std::max(access.equal, access.different);
}

namespace {

struct ConfigReader {
  const std::string &File;

  [[noreturn]] void fail(const std::string &Path, const std::string &What) const {
    throw InputError(File, Path, What);
  }
  void onlyKeys(const json &Obj, const std::string &Path,
                std::initializer_list<const char *> Keys) const {
    std::set<std::string> Allowed(Keys.begin(), Keys.end());
    for (auto It = Obj.begin(); It != Obj.end(); ++It)
      if (!Allowed.count(It.key()))
        fail(Path.empty() ? It.key() : Path + "." + It.key(), "unknown key");
  }
  double number(const json &V, const std::string &Path, bool NonNegative = true) const {
    if (!V.is_number())
      fail(Path, "expected a number, found " + V.dump());
    double D = V.get<double>();
    if (!std::isfinite(D) || (NonNegative && D < 0))
      fail(Path, "expected a non-negative number, found " + V.dump());
    return D;
  }
  const json &object(const json &V, const std::string &Path) const {
    if (!V.is_object())
      fail(Path, "expected an object, found " + V.dump());
    return V;
  }

  void banded(const json &V, const std::string &Path, BandedField &F) const {
    object(V, Path);
    onlyKeys(V, Path, {"bands", "otherwise", "discard_above_percent"});
    if (auto It = V.find("bands"); It != V.end()) {
      if (!It->is_array())
        fail(Path + ".bands", "expected an array, found " + It->dump());
      F.bands.clear();
      for (size_t I = 0; I < It->size(); ++I) {
        std::string BP = Path + ".bands[" + std::to_string(I) + "]";
        const json &B = object((*It)[I], BP);
        onlyKeys(B, BP, {"max_percent", "points"});
        if (!B.contains("max_percent"))
          fail(BP + ".max_percent", "missing (required)");
        if (!B.contains("points"))
          fail(BP + ".points", "missing (required)");
        double Edge = number(B["max_percent"], BP + ".max_percent");
        double Pts = number(B["points"], BP + ".points");
        if (!F.bands.empty() && Edge <= F.bands.back().first)
          fail(BP + ".max_percent", "band edges must increase (" + formatNumber(Edge) +
                                        " follows " + formatNumber(F.bands.back().first) + ")");
        F.bands.emplace_back(Edge, Pts);
      }
    }
    if (auto It = V.find("otherwise"); It != V.end())
      F.otherwise = number(*It, Path + ".otherwise");
    if (auto It = V.find("discard_above_percent"); It != V.end()) {
      if (It->is_null())
        F.discardAbove.reset();
      else
        F.discardAbove = number(*It, Path + ".discard_above_percent");
    }
  }

  void boolean(const json &V, const std::string &Path, BooleanField &F) const {
    object(V, Path);
    onlyKeys(V, Path, {"equal", "different"});
    if (auto It = V.find("equal"); It != V.end())
      F.equal = number(*It, Path + ".equal");
    if (auto It = V.find("different"); It != V.end())
      F.different = number(*It, Path + ".different");
  }
};

json bandedJson(const BandedField &F) {
  json Bands = json::array();
  for (const auto &B : F.bands)
    Bands.push_back({{"max_percent", B.first}, {"points", B.second}});
  return {{"bands", Bands},
          {"otherwise", F.otherwise},
          {"discard_above_percent", F.discardAbove ? json(*F.discardAbove) : json(nullptr)}};
}

} // namespace

MatchConfig parseMatchConfig(const std::string &Text, const std::string &FileName) {
  json Doc;
  try {
    Doc = json::parse(Text);
  } catch (const json::parse_error &E) {
    throw InputError(FileName, jsonErrorPlace(Text, E.byte),
                     std::string("malformed JSON: ") + jsonErrorReason(E.what()));
  }
  ConfigReader R{FileName};
  if (!Doc.is_object())
    R.fail("", "expected a JSON object");
  R.onlyKeys(Doc, "",
             {"schema", "significant_weight", "significant_stream_kib", "max_query_streams",
              "pairing", "whole_phase_first", "whole_phase_max_tpi_percent",
              "l1_phase_min_invocation_us", "footprint", "stride",
              "tpi", "elem", "access"});
  MatchConfig C = MatchConfig::defaults();
  if (auto It = Doc.find("schema"); It != Doc.end())
    if (!It->is_string() || It->get<std::string>() != ConfigSchema)
      R.fail("schema", It->dump() + " is not \"" + ConfigSchema + "\"");
  if (auto It = Doc.find("significant_weight"); It != Doc.end()) {
    C.significantWeight = R.number(*It, "significant_weight");
    if (C.significantWeight > 1)
      R.fail("significant_weight", "is a fraction (0.01 = 1%), found " + It->dump());
  }
  if (auto It = Doc.find("significant_stream_kib"); It != Doc.end()) {
    if (It->is_null())
      C.significantStreamKiB.reset();
    else
      C.significantStreamKiB = R.number(*It, "significant_stream_kib");
  }
  if (auto It = Doc.find("max_query_streams"); It != Doc.end()) {
    double N = R.number(*It, "max_query_streams");
    if (N < 1 || N > MaxQueryStreams || N != std::floor(N))
      R.fail("max_query_streams", "expected an integer from 1 to " +
                                      std::to_string(MaxQueryStreams) + ", found " + It->dump());
    C.maxQueryStreams = unsigned(N);
  }
  if (auto It = Doc.find("pairing"); It != Doc.end()) {
    auto P = It->is_string() ? parsePairing(It->get<std::string>()) : std::nullopt;
    if (!P)
      R.fail("pairing", "expected \"ordered\" or \"best\", found " + It->dump());
    C.pairing = *P;
  }
  if (auto It = Doc.find("whole_phase_first"); It != Doc.end()) {
    if (It->is_null())
      C.wholePhaseFirst.reset();
    else if (It->is_boolean())
      C.wholePhaseFirst = It->get<bool>();
    else
      R.fail("whole_phase_first", "expected true, false or null, found " + It->dump());
  }
  if (auto It = Doc.find("whole_phase_max_tpi_percent"); It != Doc.end()) {
    if (It->is_null())
      C.wholePhaseMaxTpiPercent.reset();
    else
      C.wholePhaseMaxTpiPercent = R.number(*It, "whole_phase_max_tpi_percent");
  }
  if (auto It = Doc.find("l1_phase_min_invocation_us"); It != Doc.end()) {
    if (It->is_null())
      C.l1PhaseMinInvocationUs.reset();
    else if (double U = R.number(*It, "l1_phase_min_invocation_us"); U > 0)
      C.l1PhaseMinInvocationUs = U;
    else
      R.fail("l1_phase_min_invocation_us",
             "expected microseconds above 0 or null, found " + It->dump());
  }
  if (auto It = Doc.find("footprint"); It != Doc.end())
    R.banded(*It, "footprint", C.footprint);
  if (auto It = Doc.find("stride"); It != Doc.end())
    R.banded(*It, "stride", C.stride);
  if (auto It = Doc.find("tpi"); It != Doc.end())
    R.banded(*It, "tpi", C.tpi);
  if (auto It = Doc.find("elem"); It != Doc.end())
    R.boolean(*It, "elem", C.elem);
  if (auto It = Doc.find("access"); It != Doc.end())
    R.boolean(*It, "access", C.access);
  return C;
}

MatchConfig readMatchConfig(const std::string &Path) {
  return parseMatchConfig(readFile(Path), Path);
}

std::string formatMatchConfig(const MatchConfig &C) {
  nlohmann::ordered_json J;
  J["schema"] = ConfigSchema;
  J["significant_weight"] = C.significantWeight;
  J["significant_stream_kib"] =
      C.significantStreamKiB ? json(*C.significantStreamKiB) : json(nullptr);
  J["max_query_streams"] = C.maxQueryStreams;
  J["pairing"] = pairingName(C.pairing);
  J["whole_phase_first"] = C.wholePhaseFirst ? json(*C.wholePhaseFirst) : json(nullptr);
  J["whole_phase_max_tpi_percent"] =
      C.wholePhaseMaxTpiPercent ? json(*C.wholePhaseMaxTpiPercent) : json(nullptr);
  J["l1_phase_min_invocation_us"] =
      C.l1PhaseMinInvocationUs ? json(*C.l1PhaseMinInvocationUs) : json(nullptr);
  J["footprint"] = bandedJson(C.footprint);
  J["stride"] = bandedJson(C.stride);
  J["tpi"] = bandedJson(C.tpi);
  J["elem"] = {{"equal", C.elem.equal}, {"different", C.elem.different}};
  J["access"] = {{"equal", C.access.equal}, {"different", C.access.different}};
  return J.dump(2) + "\n";
}

} // namespace phaseprobe
