//===- match_text.h - phaseprobe-match's readable output --------*- C++ -*-===//
//
// The table of candidates and the --explain listing, kept apart from main()
// so the estimator's table can follow the same layout.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "phaseprobe/matcher.h"

#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace phaseprobe {

/// Prints the header, one row per phase, ties, runners-up (\p Top), the
/// coverage and what a new uB would need for each unmatched phase.
void printMatchTable(std::FILE *Out, const MatchInputs &In, const std::vector<PhaseMatch> &M,
                     size_t Top);

/// Collects every compared profile while matching, then prints them per
/// phase and query like the tables of the original study.
class ExplainLog {
public:
  void attach(MatchOptions &O);
  void print(std::FILE *Out, const MatchInputs &In, const std::vector<PhaseMatch> &M) const;

private:
  struct Row {
    std::string ubench, streams;
    double tpiUs;
    Score score;
  };
  static constexpr size_t MaxRowsPerQuery = 2000;
  size_t Current = 0;
  std::map<size_t, std::map<size_t, std::vector<Row>>> Rows; // phase -> query -> rows
};

} // namespace phaseprobe
