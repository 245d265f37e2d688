//===- model.cpp - Small helpers of the shared model ----------------------===//
#include "phaseprobe/model.h"

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

} // namespace phaseprobe
