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

bool parseThreadTest(const std::string &Site, std::optional<ThreadTest> &Test) {
  Test.reset();
  static const std::string Open = " (threads ";
  size_t At = Site.rfind(Open);
  if (At == std::string::npos)
    return true;
  std::string Rest = Site.substr(At + Open.size());
  if (Rest.empty() || Rest.back() != ')')
    return false;
  Rest.pop_back();
  size_t Space = Rest.find(' ');
  if (Space == std::string::npos)
    return false;
  std::string Op = Rest.substr(0, Space), Num = Rest.substr(Space + 1);
  ThreadTest T;
  bool Known = false;
  for (int I = 0; I < 6 && !Known; ++I)
    if (Op == OpText[I]) {
      T.op = ThreadTest::Op(I);
      Known = true;
    }
  if (!Known || Num.empty())
    return false;
  size_t Used = 0;
  try {
    T.value = std::stoll(Num, &Used);
  } catch (const std::exception &) {
    return false;
  }
  if (Used != Num.size())
    return false;
  Test = T;
  return true;
}

} // namespace phaseprobe
