//===- model.cpp - Small helpers of the shared model ----------------------===//
#include "phaseprobe/model.h"

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
