//===- model.cpp - Small helpers of the shared model ----------------------===//
#include "phaseprobe/model.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

namespace phaseprobe {

const char *accessName(Access A) {
  return A == Access::Shared ? "shared" : "private";
}

std::optional<Access> parseAccess(const std::string &S) {
  // "C"/"P" are the original study's letters; accept them on input.
  if (S == "shared" || S == "C" || S == "c") return Access::Shared;
  if (S == "private" || S == "P" || S == "p") return Access::Private;
  return std::nullopt;
}

namespace {
/// Elements between consecutive accesses of a strided stream (at least 1).
double stepOf(const StreamTuple &T) {
  return std::max(1.0, std::round(std::fabs(T.strideBytes) / T.elemBytes));
}

/// The accesses of one loop execution of the strided stream \p S where
/// every execution walks a small part of a thread's slice at \p Threads:
/// at least 4 accesses, spanning at most an eighth of the slice, and no
/// reuse window walked again and again; else 0. Column spans and a
/// gathered product's rows both rest on it.
double shortExecution(const PhaseStream &S, unsigned Threads) {
  const StreamTuple &T = S.tuple;
  if (S.random || T.elemBytes == 0 || !S.accessesPerExec || *S.accessesPerExec < 4 ||
      (S.windowRepeats && *S.windowRepeats >= 2))
    return 0;
  double Th = T.access == Access::Private ? std::max(1u, Threads) : 1;
  double Slice = std::round(T.footprintKiB * 1024 / T.elemBytes / Th); // elements a thread
  if (*S.accessesPerExec * stepOf(T) * 8 > Slice)
    return 0;
  return *S.accessesPerExec;
}

/// The row length of \p Streams where they are a gathered product's (one
/// shared random stream read through private ones at element stride: a
/// CSR matrix and its column indices) and every private stream's loop
/// executions walk the same 4 or more accesses (within 10%), at most an
/// eighth of a thread's slice: each execution one row. Else 0.
long gatherRows(const std::vector<const PhaseStream *> &Streams, unsigned Threads) {
  std::size_t Random = 0;
  double Lo = 0, Hi = 0, Sum = 0, N = 0;
  for (const PhaseStream *S : Streams) {
    const StreamTuple &T = S->tuple;
    if (T.elemBytes == 0)
      return 0;
    if (S->random) {
      if (T.access != Access::Shared)
        return 0;
      ++Random;
      continue;
    }
    double Exec = T.access == Access::Private && stepOf(T) == 1 ? shortExecution(*S, Threads) : 0;
    if (Exec == 0)
      return 0;
    Lo = N ? std::min(Lo, Exec) : Exec;
    Hi = N ? std::max(Hi, Exec) : Exec;
    Sum += Exec, ++N;
  }
  if (Random != 1 || N == 0 || Hi - Lo > 0.1 * Hi)
    return 0;
  return std::lround(Sum / N);
}
} // namespace

long columnSpan(const PhaseStream &S, unsigned Threads) {
  double Exec = shortExecution(S, Threads);
  return Exec > 0 && stepOf(S.tuple) > 1 ? std::lround(Exec) : 0;
}

// Three in four: in-order walks whose pace changes between nested loops
// read up to 0.40 (NPB BT W's bt.c:3401), RSBench's lookups 0.94
// (bench/results/jump-shares-2026-12-02-emr.txt).
bool startsJump(const PhaseStream &S) { return S.jumpShare && *S.jumpShare > 0.75; }

long columnSpan(const std::vector<const PhaseStream *> &Streams, unsigned Threads,
                bool *Jumps) {
  // Every strided stream of a step above one element asks for the same
  // span, and all of them jump or none does.
  long Span = 0;
  bool Jump = false;
  if (Jumps)
    *Jumps = false;
  for (const PhaseStream *S : Streams) {
    if (S->random || S->tuple.elemBytes == 0 || stepOf(S->tuple) <= 1)
      continue;
    long Own = columnSpan(*S, Threads);
    if (Own == 0 || (Span && (Own != Span || startsJump(*S) != Jump)))
      return 0;
    Span = Own;
    Jump = startsJump(*S);
  }
  if (Jumps)
    *Jumps = Span != 0 && Jump;
  return Span ? Span : gatherRows(Streams, Threads);
}

namespace {
/// The whole number after \p Tag ("+c") in a uB name (UBenchConfig::name's
/// suffixes), or \p None where the name has no such suffix.
long suffixNumber(std::string_view Name, std::string_view Tag, long None) {
  std::size_t At = Name.find(Tag);
  if (At == std::string_view::npos)
    return None;
  long N = 0;
  for (std::size_t I = At + Tag.size(); I < Name.size() && Name[I] >= '0' && Name[I] <= '9'; ++I)
    N = N * 10 + (Name[I] - '0');
  return N;
}
} // namespace

long columnSpanOf(std::string_view Name) {
  return spanJumpsOf(Name) ? suffixNumber(Name, "+j", 0) : suffixNumber(Name, "+c", 0);
}

bool spanJumpsOf(std::string_view Name) { return suffixNumber(Name, "+j", -1) >= 0; }

long reuseCopiesOf(std::string_view Name) { return std::max(1L, suffixNumber(Name, "+k", 1)); }

namespace {
constexpr const char *OpText[] = {">", ">=", "<", "<=", "==", "!="};
} // namespace

bool allHold(const std::vector<ThreadTest> &Tests, unsigned Threads) {
  for (const ThreadTest &T : Tests)
    if (!T.holds(Threads))
      return false;
  return true;
}

bool ThreadTest::holds(unsigned Threads) const {
  long long T = Threads;
  switch (op) {
  case Gt:
    return T > value;
  case Ge:
    return T >= value;
  case Lt:
    return T < value;
  case Le:
    return T <= value;
  case Eq:
    return T == value;
  case Ne:
    return T != value;
  }
  return false;
}

std::string ThreadTest::text() const {
  return std::string("threads ") + OpText[op] + " " + std::to_string(value);
}

std::optional<ThreadTest> parseThreadTestText(const std::string &Text) {
  static const std::string Head = "threads ";
  if (Text.compare(0, Head.size(), Head) != 0)
    return std::nullopt;
  std::string Rest = Text.substr(Head.size());
  size_t Space = Rest.find(' ');
  if (Space == std::string::npos)
    return std::nullopt;
  std::string Op = Rest.substr(0, Space), Num = Rest.substr(Space + 1);
  ThreadTest T;
  bool Known = false;
  for (int I = 0; I < 6 && !Known; ++I)
    if (Op == OpText[I]) {
      T.op = ThreadTest::Op(I);
      Known = true;
    }
  if (!Known || Num.empty())
    return std::nullopt;
  size_t Used = 0;
  try {
    T.value = std::stoll(Num, &Used);
  } catch (const std::exception &) {
    return std::nullopt;
  }
  if (Used != Num.size())
    return std::nullopt;
  return T;
}

bool parseThreadTest(const std::string &Site, std::optional<ThreadTest> &Test) {
  Test.reset();
  static const std::string Open = " (threads ";
  size_t At = Site.rfind(Open);
  if (At == std::string::npos)
    return true;
  std::string Rest = Site.substr(At + 2); // "threads > 1)"
  if (Rest.back() != ')')
    return false;
  Rest.pop_back();
  Test = parseThreadTestText(Rest);
  return Test.has_value();
}

} // namespace phaseprobe
