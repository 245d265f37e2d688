//===- phase_file.cpp - The phaseprobe.phases/1 reader and writer ---------===//
//
// Validation walks the document once with the JSON path of every value at
// hand, so each error names exactly the field that is wrong. Unknown fields
// are ignored: newer runtimes may add fields without breaking older tools.
//
//===----------------------------------------------------------------------===//
#include "phaseprobe/phase_file.h"
#include "phaseprobe/atomic_file.h"
#include "phaseprobe/error.h"
#include "phaseprobe/stream_notation.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <set>

namespace phaseprobe {

using nlohmann::json;

std::string jsonErrorReason(const std::string &Msg) {
  // nlohmann's message repeats its own position prefix; keep the reason.
  std::string What = Msg;
  if (auto Pos = What.find(": syntax error"); Pos != std::string::npos)
    What = What.substr(Pos + 2);
  else if (auto Colon = What.rfind("] "); Colon != std::string::npos)
    What = What.substr(Colon + 2);
  return What;
}

std::string jsonErrorPlace(const std::string &Text, size_t Byte) {
  size_t Line = 1, Col = 1;
  for (size_t I = 0; I < Text.size() && I + 1 < Byte; ++I) {
    if (Text[I] == '\n') {
      ++Line;
      Col = 1;
    } else {
      ++Col;
    }
  }
  return "line " + std::to_string(Line) + ", column " + std::to_string(Col);
}

namespace {

const char *typeName(const json &V) {
  switch (V.type()) {
  case json::value_t::null:
    return "null";
  case json::value_t::object:
    return "an object";
  case json::value_t::array:
    return "an array";
  case json::value_t::string:
    return "a string";
  case json::value_t::boolean:
    return "a boolean";
  case json::value_t::binary:
    return "binary data";
  case json::value_t::discarded:
    return "nothing";
  default:
    return "a number";
  }
}

/// Field accessors that know the file and the JSON path of the object they
/// read from, so every complaint names both.
class Reader {
public:
  Reader(const std::string &File, const json &Obj, std::string Path)
      : File(File), Obj(Obj), Path(std::move(Path)) {}

  std::string at(const std::string &Key) const { return Path.empty() ? Key : Path + "." + Key; }
  [[noreturn]] void fail(const std::string &Key, const std::string &What) const {
    throw InputError(File, at(Key), What);
  }
  const json *find(const std::string &Key) const {
    auto It = Obj.find(Key);
    return It == Obj.end() ? nullptr : &*It;
  }
  const json &require(const std::string &Key) const {
    const json *V = find(Key);
    if (!V)
      fail(Key, "missing (required)");
    return *V;
  }

  double number(const json &V, const std::string &Key) const {
    if (!V.is_number())
      fail(Key, std::string("expected a number, found ") + typeName(V));
    double D = V.get<double>();
    if (!std::isfinite(D))
      fail(Key, "expected a finite number");
    return D;
  }
  double number(const std::string &Key) const { return number(require(Key), Key); }
  double atLeast(double D, double Min, const std::string &Key) const {
    if (!(D >= Min))
      fail(Key, "must be >= " + formatNumber(Min) + ", found " + formatNumber(D));
    return D;
  }
  double nonNegative(const std::string &Key) const { return atLeast(number(Key), 0, Key); }
  std::optional<double> optNumber(const std::string &Key) const {
    const json *V = find(Key);
    if (!V || V->is_null())
      return std::nullopt;
    return number(*V, Key);
  }
  /// An optional number, at least \p Min when present.
  std::optional<double> optAtLeast(const std::string &Key, double Min) const {
    std::optional<double> D = optNumber(Key);
    if (D)
      atLeast(*D, Min, Key);
    return D;
  }
  std::uint64_t count(const json &V, const std::string &Key) const {
    double D = number(V, Key);
    if (D < 0 || D != std::floor(D) || D > 1.8e19)
      fail(Key, "expected a non-negative integer, found " + V.dump());
    return V.is_number_unsigned() ? V.get<std::uint64_t>() : std::uint64_t(D);
  }
  std::optional<std::uint64_t> optCount(const std::string &Key) const {
    const json *V = find(Key);
    if (!V || V->is_null())
      return std::nullopt;
    return count(*V, Key);
  }
  unsigned positiveCount(const std::string &Key) const {
    std::uint64_t N = count(require(Key), Key);
    if (N == 0 || N > 1u << 20)
      fail(Key, "expected a positive integer, found " + std::to_string(N));
    return unsigned(N);
  }
  std::string string(const json &V, const std::string &Key) const {
    if (!V.is_string())
      fail(Key, std::string("expected a string, found ") + typeName(V));
    return V.get<std::string>();
  }
  std::string string(const std::string &Key) const { return string(require(Key), Key); }
  std::optional<std::string> optString(const std::string &Key) const {
    const json *V = find(Key);
    if (!V || V->is_null())
      return std::nullopt;
    return string(*V, Key);
  }
  std::optional<bool> optBool(const std::string &Key) const {
    const json *V = find(Key);
    if (!V || V->is_null())
      return std::nullopt;
    if (!V->is_boolean())
      fail(Key, std::string("expected true or false, found ") + typeName(*V));
    return V->get<bool>();
  }
  const json &object(const std::string &Key) const {
    const json &V = require(Key);
    if (!V.is_object())
      fail(Key, std::string("expected an object, found ") + typeName(V));
    return V;
  }
  const json &array(const std::string &Key) const {
    const json &V = require(Key);
    if (!V.is_array())
      fail(Key, std::string("expected an array, found ") + typeName(V));
    return V;
  }

  const std::string &File;
  const json &Obj;
  const std::string Path;
};

/// An array of tests of the thread count ("threads > 1") at \p Where.
std::vector<ThreadTest> readTests(const Reader &R, const json &A, const std::string &Where) {
  if (!A.is_array())
    R.fail(Where, std::string("expected an array, found ") + typeName(A));
  std::vector<ThreadTest> Out;
  for (size_t I = 0; I < A.size(); ++I) {
    std::string At = Where + "[" + std::to_string(I) + "]";
    std::string Text = R.string(A[I], At);
    std::optional<ThreadTest> Test = parseThreadTestText(Text);
    if (!Test)
      R.fail(At, "'" + Text + "' is not a test of the thread count (expected \"threads OP N\", " +
                     "OP one of > >= < <= == !=, N an integer)");
    Out.push_back(*Test);
  }
  return Out;
}

/// Each object of the optional array \p Key of \p R, with a reader of it
/// and its tests under \p TestsKey, which must be there and not empty
/// (\p What: what they are the tests of).
template <typename Each>
void readTestedObjects(const Reader &R, const std::string &Key, const std::string &TestsKey,
                       const std::string &What, Each Fn) {
  const json *A = R.find(Key);
  if (!A || A->is_null())
    return;
  if (!A->is_array())
    R.fail(Key, std::string("expected an array, found ") + typeName(*A));
  for (size_t I = 0; I < A->size(); ++I) {
    std::string Where = Key + "[" + std::to_string(I) + "]";
    const json &G = (*A)[I];
    if (!G.is_object())
      R.fail(Where, std::string("expected an object, found ") + typeName(G));
    Reader GR(R.File, G, R.at(Where));
    const json *If = GR.find(TestsKey);
    if (!If || If->empty())
      GR.fail(TestsKey, "missing or empty: " + What);
    Fn(GR, readTests(R, *If, Where + "." + TestsKey));
  }
}

/// Serializes tests as readTests reads them.
nlohmann::ordered_json testTexts(const std::vector<ThreadTest> &Tests) {
  auto Out = nlohmann::ordered_json::array();
  for (const ThreadTest &T : Tests)
    Out.push_back(T.text());
  return Out;
}

ProgramInfo readProgram(const std::string &File, const json &Doc) {
  Reader Top(File, Doc, "");
  const json &P = Top.object("program");
  Reader R(File, P, "program");
  ProgramInfo Out;
  Out.totalTimeS = R.nonNegative("total_time_s");
  Out.threads = R.positiveCount("threads");
  Out.name = R.optString("name").value_or("");
  Out.started = R.optString("started").value_or("");
  if (const json *A = R.find("argv"); A && !A->is_null()) {
    if (!A->is_array())
      R.fail("argv", std::string("expected an array, found ") + typeName(*A));
    for (size_t I = 0; I < A->size(); ++I)
      Out.argv.push_back(R.string((*A)[I], "argv[" + std::to_string(I) + "]"));
  }
  if (const json *A = R.find("thread_branches"); A && !A->is_null()) {
    if (!A->is_array())
      R.fail("thread_branches", std::string("expected an array, found ") + typeName(*A));
    for (size_t I = 0; I < A->size(); ++I) {
      std::string Where = "thread_branches[" + std::to_string(I) + "]";
      std::string Site = R.string((*A)[I], Where);
      std::optional<ThreadTest> Test;
      if (!parseThreadTest(Site, Test))
        R.fail(Where, "'" + Site + "' ends in a malformed test (expected \" (threads OP N)\", " +
                          "OP one of > >= < <= == !=, N an integer)");
      Out.threadBranches.push_back(Site);
    }
  }
  Out.threadBranchesMore = unsigned(R.optCount("thread_branches_more").value_or(0));
  readTestedObjects(R, "guarded_serial", "runs_if", "the tests the code runs under",
                    [&](const Reader &G, std::vector<ThreadTest> Tests) {
                      Out.guardedSerial.push_back({std::move(Tests), G.nonNegative("time_s")});
                    });
  Out.sampling = R.optBool("sampling");
  Out.threadsShareCpus = R.optBool("threads_share_cpus");
  Out.threadsFloat = R.optBool("threads_float");
  Out.pageFaults = R.optCount("page_faults");
  return Out;
}

NodeInfo readNode(const std::string &File, const json &N) {
  Reader R(File, N, "node");
  NodeInfo Out;
  Out.label = R.optString("label").value_or("");
  Out.hostname = R.optString("hostname").value_or("");
  Out.cpu = R.optString("cpu").value_or("");
  Out.cores = unsigned(R.optCount("cores").value_or(0));
  Out.pus = unsigned(R.optCount("pus").value_or(0));
  Out.numaNodes = unsigned(R.optCount("numa_nodes").value_or(0));
  Out.sockets = unsigned(R.optCount("sockets").value_or(0));
  Out.memoryMiB = R.optNumber("memory_mib").value_or(0);
  if (const json *C = R.find("caches_kib"); C && !C->is_null()) {
    if (!C->is_object())
      R.fail("caches_kib", std::string("expected an object, found ") + typeName(*C));
    Reader CR(File, *C, "node.caches_kib");
    Out.l1dKiB = CR.optNumber("l1d").value_or(0);
    Out.l2KiB = CR.optNumber("l2").value_or(0);
    Out.l3KiB = CR.optNumber("l3").value_or(0);
  }
  return Out;
}

PhaseStream readStream(const std::string &File, const json &S, const std::string &Path,
                       size_t Index) {
  if (!S.is_object())
    throw InputError(File, Path, std::string("expected an object, found ") + typeName(S));
  Reader R(File, S, Path);
  PhaseStream Out;
  Out.id = R.optString("id").value_or("v" + std::to_string(Index + 1));
  if (Out.id.empty())
    R.fail("id", "must not be empty");
  Out.tuple.footprintKiB = R.number("footprint_kib");
  if (Out.tuple.footprintKiB <= 0)
    R.fail("footprint_kib", "must be > 0, found " + formatNumber(Out.tuple.footprintKiB));
  Out.tuple.strideBytes = R.number("stride_bytes");
  std::uint64_t Elem = R.count(R.require("elem_bytes"), "elem_bytes");
  if (Elem == 0 || Elem > 4096)
    R.fail("elem_bytes", "expected a positive integer up to 4096, found " + std::to_string(Elem));
  Out.tuple.elemBytes = unsigned(Elem);
  std::string Acc = R.string("access");
  auto A = parseAccess(Acc);
  if (!A)
    R.fail("access", "'" + Acc + "' is neither \"shared\" nor \"private\"");
  Out.tuple.access = *A;
  Out.op = R.optString("op").value_or("");
  Out.significant = R.optBool("significant");
  if (auto Site = R.optString("site"))
    Out.sites.push_back(*Site);
  if (const json *Sites = R.find("sites"); Sites && !Sites->is_null()) {
    if (!Sites->is_array())
      R.fail("sites", std::string("expected an array, found ") + typeName(*Sites));
    for (size_t I = 0; I < Sites->size(); ++I)
      Out.sites.push_back(R.string((*Sites)[I], "sites[" + std::to_string(I) + "]"));
  }
  Out.samples = R.optCount("samples").value_or(0);
  Out.accessesPerIter = R.optAtLeast("accesses_per_iteration", 0);
  Out.accessesPerExec = R.optAtLeast("accesses_per_execution", 0);
  if (auto Pattern = R.optString("pattern")) {
    if (*Pattern != "strided" && *Pattern != "random")
      R.fail("pattern", "'" + *Pattern + "' is not strided or random");
    Out.random = *Pattern == "random";
  }
  Out.windowAccesses = R.optAtLeast("window_accesses", 1);
  Out.windowRepeats = R.optAtLeast("window_repeats", 1);
  if (Out.windowAccesses.has_value() != Out.windowRepeats.has_value())
    R.fail(Out.windowAccesses ? "window_accesses" : "window_repeats",
           "window_accesses and window_repeats come together");
  Out.jumpShare = R.optAtLeast("jump_share", 0);
  if (Out.jumpShare && *Out.jumpShare > 1)
    R.fail("jump_share", "must be within 0 to 1, found " + formatNumber(*Out.jumpShare));
  Out.handoverShare = R.optAtLeast("handover_share", 0);
  if (Out.handoverShare && *Out.handoverShare > 1)
    R.fail("handover_share", "must be within 0 to 1, found " + formatNumber(*Out.handoverShare));
  Out.handoverRounds = R.optAtLeast("handover_rounds", 0);
  if (Out.handoverRounds && !Out.handoverShare)
    R.fail("handover_rounds", "comes with handover_share");
  return Out;
}

Phase readPhase(const std::string &File, const json &P, const std::string &Path) {
  if (!P.is_object())
    throw InputError(File, Path, std::string("expected an object, found ") + typeName(P));
  Reader R(File, P, Path);
  Phase Out;
  Out.id = R.string("id");
  if (Out.id.empty())
    R.fail("id", "must not be empty");
  Out.file = R.optString("file").value_or("");
  Out.line = unsigned(R.optCount("line").value_or(0));
  Out.column = unsigned(R.optCount("column").value_or(0));
  Out.kind = R.optString("kind").value_or("");
  Out.parent = R.optString("parent");
  Out.invocations = R.optCount("invocations").value_or(0);
  Out.barriers = R.optCount("barriers");
  Out.spinRounds = R.optCount("spin_rounds");
  Out.pageFaults = R.optCount("page_faults");
  if (const json *A = R.find("runs_if"); A && !A->is_null())
    Out.runsIf = readTests(R, *A, "runs_if");
  if (const json *O = R.find("ops"); O && !O->is_null()) {
    if (!O->is_object())
      R.fail("ops", std::string("expected an object, found ") + typeName(*O));
    Reader K(R.File, *O, R.at("ops"));
    OpCounts C;
    C.add = double(K.optCount("add").value_or(0));
    C.mul = double(K.optCount("mul").value_or(0));
    C.div = double(K.optCount("div").value_or(0));
    C.sqrt = double(K.optCount("sqrt").value_or(0));
    C.math = double(K.optCount("math").value_or(0));
    Out.ops = C;
  }
  std::uint64_t Sum = 0;
  readTestedObjects(R, "guarded_page_faults", "allocated_if",
                    "the tests the memory was allocated under",
                    [&](const Reader &G, std::vector<ThreadTest> Tests) {
                      std::uint64_t N = G.count(G.require("page_faults"), "page_faults");
                      Sum += N;
                      Out.guardedPageFaults.push_back({std::move(Tests), N});
                    });
  if (Sum > Out.pageFaults.value_or(0))
    R.fail("guarded_page_faults", "more faults (" + std::to_string(Sum) +
                                      ") than the region's page_faults (" +
                                      std::to_string(Out.pageFaults.value_or(0)) + ")");
  Out.threads = R.positiveCount("threads");
  Out.timeS = R.nonNegative("time_s");
  Out.weight = R.optNumber("weight");
  if (Out.weight && *Out.weight < 0)
    R.fail("weight", "must be >= 0");
  Out.iterations = R.nonNegative("iterations");
  Out.tpiUs = R.nonNegative("tpi_us");
  if (const json *T = R.find("thread_time_s"); T && !T->is_null()) {
    if (!T->is_object())
      R.fail("thread_time_s", std::string("expected an object, found ") + typeName(*T));
    Reader TR(File, *T, R.at("thread_time_s"));
    Phase::ThreadTimes TT{TR.nonNegative("min"), TR.nonNegative("median"),
                          TR.nonNegative("max")};
    if (!(TT.minS <= TT.medianS && TT.medianS <= TT.maxS))
      R.fail("thread_time_s", "expected min <= median <= max");
    Out.threadTimeS = TT;
  }
  const json &Streams = R.array("streams");
  std::set<std::string> Ids;
  for (size_t I = 0; I < Streams.size(); ++I) {
    std::string SPath = R.at("streams") + "[" + std::to_string(I) + "]";
    PhaseStream S = readStream(File, Streams[I], SPath, I);
    if (!Ids.insert(S.id).second)
      throw InputError(File, SPath + ".id", "stream id '" + S.id + "' appears twice in the phase");
    Out.streams.push_back(std::move(S));
  }
  return Out;
}

} // namespace

PhaseFile parsePhaseFile(const std::string &Text, const std::string &FileName) {
  json Doc;
  try {
    Doc = json::parse(Text);
  } catch (const json::parse_error &E) {
    throw InputError(FileName, jsonErrorPlace(Text, E.byte),
                     "malformed JSON: " + jsonErrorReason(E.what()));
  }
  if (!Doc.is_object())
    throw InputError(FileName, "", std::string("expected a JSON object, found ") + typeName(Doc));
  Reader Top(FileName, Doc, "");
  PhaseFile Out;
  Out.schema = Top.string("schema");
  if (Out.schema != PhaseFileSchema)
    Top.fail("schema", "'" + Out.schema + "' is not " + PhaseFileSchema);
  Out.program = readProgram(FileName, Doc);
  if (const json *N = Top.find("node"); N && !N->is_null()) {
    if (!N->is_object())
      Top.fail("node", std::string("expected an object, found ") + typeName(*N));
    Out.node = readNode(FileName, *N);
  }
  const json &Phases = Top.array("phases");
  std::set<std::string> Ids;
  for (size_t I = 0; I < Phases.size(); ++I) {
    std::string Path = "phases[" + std::to_string(I) + "]";
    Phase P = readPhase(FileName, Phases[I], Path);
    if (!Ids.insert(P.id).second)
      throw InputError(FileName, Path + ".id", "phase id '" + P.id + "' appears twice");
    Out.phases.push_back(std::move(P));
  }
  for (size_t I = 0; I < Out.phases.size(); ++I) {
    const Phase &P = Out.phases[I];
    if (!P.parent)
      continue;
    std::string Path = "phases[" + std::to_string(I) + "].parent";
    if (*P.parent == P.id)
      throw InputError(FileName, Path, "a phase cannot be its own parent");
    if (!Ids.count(*P.parent))
      throw InputError(FileName, Path, "no phase has the id '" + *P.parent + "'");
  }
  return Out;
}

PhaseFile readPhaseFile(const std::string &Path) { return parsePhaseFile(readFile(Path), Path); }

std::string formatPhaseFile(const PhaseFile &File) {
  using ojson = nlohmann::ordered_json;
  ojson Doc;
  Doc["schema"] = PhaseFileSchema;
  ojson Prog;
  if (!File.program.name.empty())
    Prog["name"] = File.program.name;
  if (!File.program.argv.empty())
    Prog["argv"] = File.program.argv;
  Prog["total_time_s"] = File.program.totalTimeS;
  Prog["threads"] = File.program.threads;
  if (!File.program.started.empty())
    Prog["started"] = File.program.started;
  if (!File.program.threadBranches.empty())
    Prog["thread_branches"] = File.program.threadBranches;
  if (File.program.threadBranchesMore)
    Prog["thread_branches_more"] = File.program.threadBranchesMore;
  if (!File.program.guardedSerial.empty()) {
    ojson G = ojson::array();
    for (const GuardedSerial &S : File.program.guardedSerial)
      G.push_back({{"runs_if", testTexts(S.runsIf)}, {"time_s", S.timeS}});
    Prog["guarded_serial"] = G;
  }
  if (File.program.sampling)
    Prog["sampling"] = *File.program.sampling;
  if (File.program.threadsShareCpus)
    Prog["threads_share_cpus"] = *File.program.threadsShareCpus;
  if (File.program.threadsFloat)
    Prog["threads_float"] = *File.program.threadsFloat;
  if (File.program.pageFaults)
    Prog["page_faults"] = *File.program.pageFaults;
  Doc["program"] = Prog;
  if (File.node) {
    const NodeInfo &N = *File.node;
    ojson J;
    J["label"] = N.label;
    if (!N.hostname.empty())
      J["hostname"] = N.hostname;
    if (!N.cpu.empty())
      J["cpu"] = N.cpu;
    if (N.cores)
      J["cores"] = N.cores;
    if (N.pus)
      J["pus"] = N.pus;
    if (N.numaNodes)
      J["numa_nodes"] = N.numaNodes;
    if (N.sockets)
      J["sockets"] = N.sockets;
    J["caches_kib"] = {{"l1d", N.l1dKiB}, {"l2", N.l2KiB}, {"l3", N.l3KiB}};
    if (N.memoryMiB)
      J["memory_mib"] = N.memoryMiB;
    Doc["node"] = J;
  }
  ojson Phases = ojson::array();
  for (const Phase &P : File.phases) {
    ojson J;
    J["id"] = P.id;
    if (!P.file.empty())
      J["file"] = P.file;
    if (P.line)
      J["line"] = P.line;
    if (P.column)
      J["column"] = P.column;
    if (!P.kind.empty())
      J["kind"] = P.kind;
    J["parent"] = P.parent ? ojson(*P.parent) : ojson(nullptr);
    if (P.invocations)
      J["invocations"] = P.invocations;
    if (P.barriers)
      J["barriers"] = *P.barriers;
    if (P.spinRounds)
      J["spin_rounds"] = *P.spinRounds;
    if (P.pageFaults)
      J["page_faults"] = *P.pageFaults;
    if (!P.guardedPageFaults.empty()) {
      ojson G = ojson::array();
      for (const GuardedFaults &F : P.guardedPageFaults)
        G.push_back({{"allocated_if", testTexts(F.allocatedIf)}, {"page_faults", F.pageFaults}});
      J["guarded_page_faults"] = G;
    }
    if (!P.runsIf.empty())
      J["runs_if"] = testTexts(P.runsIf);
    J["threads"] = P.threads;
    J["time_s"] = P.timeS;
    if (P.weight)
      J["weight"] = *P.weight;
    J["iterations"] = P.iterations;
    J["tpi_us"] = P.tpiUs;
    if (P.threadTimeS)
      J["thread_time_s"] = {{"min", P.threadTimeS->minS},
                            {"median", P.threadTimeS->medianS},
                            {"max", P.threadTimeS->maxS}};
    if (P.ops)
      J["ops"] = {{"add", std::uint64_t(P.ops->add)},   {"mul", std::uint64_t(P.ops->mul)},
                  {"div", std::uint64_t(P.ops->div)},   {"sqrt", std::uint64_t(P.ops->sqrt)},
                  {"math", std::uint64_t(P.ops->math)}};
    ojson Streams = ojson::array();
    for (const PhaseStream &S : P.streams) {
      ojson SJ;
      SJ["id"] = S.id;
      SJ["footprint_kib"] = S.tuple.footprintKiB;
      SJ["stride_bytes"] = S.tuple.strideBytes;
      SJ["elem_bytes"] = S.tuple.elemBytes;
      SJ["access"] = accessName(S.tuple.access);
      if (!S.op.empty())
        SJ["op"] = S.op;
      if (S.significant)
        SJ["significant"] = *S.significant;
      if (S.sites.size() == 1)
        SJ["site"] = S.sites.front();
      else if (!S.sites.empty())
        SJ["sites"] = S.sites;
      if (S.samples)
        SJ["samples"] = S.samples;
      if (S.accessesPerIter)
        SJ["accesses_per_iteration"] = *S.accessesPerIter;
      if (S.accessesPerExec)
        SJ["accesses_per_execution"] = *S.accessesPerExec;
      if (S.random)
        SJ["pattern"] = "random";
      if (S.jumpShare)
        SJ["jump_share"] = *S.jumpShare;
      if (S.windowAccesses && S.windowRepeats) {
        SJ["window_accesses"] = *S.windowAccesses;
        SJ["window_repeats"] = *S.windowRepeats;
      }
      if (S.handoverShare)
        SJ["handover_share"] = *S.handoverShare;
      if (S.handoverRounds)
        SJ["handover_rounds"] = *S.handoverRounds;
      Streams.push_back(std::move(SJ));
    }
    J["streams"] = std::move(Streams);
    Phases.push_back(std::move(J));
  }
  Doc["phases"] = std::move(Phases);
  return Doc.dump(2) + "\n";
}

std::vector<size_t> leafPhases(const PhaseFile &File) {
  std::set<std::string> Parents;
  for (const Phase &P : File.phases)
    if (P.parent)
      Parents.insert(*P.parent);
  std::vector<size_t> Leaves;
  // A leaf is a phase that no phase names as its parent: worksharing phases
  // (nothing nests in them) and regions without worksharing phases inside.
  // A nested region that has children of its own is therefore not a leaf
  // either, so no time is counted twice.
  for (size_t I = 0; I < File.phases.size(); ++I)
    if (!Parents.count(File.phases[I].id))
      Leaves.push_back(I);
  return Leaves;
}

long reuseCopies(const PhaseFile &F, const Phase &P) {
  constexpr long MaxCopies = 8;
  constexpr double MaxKiB = 1024.0 * 1024; // 1 GiB of copies
  // KiB of a phase's streams that matter for the cache (not marked
  // insignificant: no L1d threshold).
  auto DataKiB = [](const Phase &Q) {
    double K = 0;
    for (const PhaseStream &S : Q.streams)
      if (isSignificantStream(S, 0))
        K += S.tuple.footprintKiB;
    return K;
  };
  double Own = DataKiB(P);
  if (!(Own > 0) || P.invocations == 0)
    return 1;
  double Between = 0;
  for (size_t I : leafPhases(F)) {
    const Phase &Q = F.phases[I];
    if (Q.invocations > 0)
      Between += DataKiB(Q) * std::min(1.0, double(Q.invocations) / double(P.invocations));
  }
  long K = std::lround(std::max(Own, Between) / Own);
  K = std::min(K, std::max(1L, long(MaxKiB / Own)));
  return std::clamp(K, 1L, MaxCopies);
}

double phaseWeight(const Phase &P, const ProgramInfo &Program) {
  if (P.weight)
    return *P.weight;
  return Program.totalTimeS > 0 ? P.timeS / Program.totalTimeS : 0;
}

bool isSignificantStream(const PhaseStream &S, double L1dKiB) {
  if (S.significant)
    return *S.significant;
  return L1dKiB <= 0 || S.tuple.footprintKiB > L1dKiB;
}

std::vector<unsigned> significantStreams(const Phase &P, double StreamKiB, bool IgnoreFlags) {
  std::vector<unsigned> Out;
  for (unsigned I = 0; I < P.streams.size(); ++I)
    if (IgnoreFlags ? P.streams[I].tuple.footprintKiB > StreamKiB
                    : isSignificantStream(P.streams[I], StreamKiB))
      Out.push_back(I);
  std::stable_sort(Out.begin(), Out.end(), [&](unsigned A, unsigned B) {
    return P.streams[A].tuple.footprintKiB > P.streams[B].tuple.footprintKiB;
  });
  return Out;
}

std::vector<unsigned> relaxedStreams(const Phase &P, double StreamKiB, bool *L1Resident) {
  std::vector<unsigned> Out = significantStreams(P, StreamKiB);
  bool L1 = Out.empty();
  if (L1)
    Out = significantStreams(P, 0, /*IgnoreFlags=*/true);
  if (L1Resident)
    *L1Resident = L1;
  return Out;
}

} // namespace phaseprobe
