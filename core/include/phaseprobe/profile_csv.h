//===- phaseprobe/profile_csv.h - The profile CSV of CONTRACTS.md -*- C++ -*-===//
//
// `phaseprobe-db import` and `export` exchange profiles with other tools in a
// small CSV: node,ubench,threads,time_s,iterations,tpi_us,streams. Parsing is
// strict and complete before anything is stored, so an import is all or
// nothing: the first bad row stops it with the file, row and field named.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "phaseprobe/model.h"

#include <cstddef>
#include <string>
#include <vector>

namespace phaseprobe {

/// One parsed row and where it came from (its line in the file, header = 1).
struct CsvProfileRow {
  Profile profile;
  std::size_t row = 0;
};

/// The header export writes and import requires (columns may come in any
/// order; these seven must all be present, no others).
extern const char *const ProfileCsvColumns[7];

/// Parses \p Text (the content of \p File). Throws InputError(File,
/// "row N, field F", ...) for a wrong header, a malformed or missing value,
/// or a profile key (node, ubench, threads, streams) repeated in the file.
/// `tpi_us` may be empty only when `time_s` and `iterations` give it.
std::vector<CsvProfileRow> parseProfileCsv(const std::string &Text, const std::string &File);

/// Formats profiles as CSV (header + one row each), numbers in shortest
/// round-trip form so export → import reproduces the same values.
std::string formatProfileCsv(const std::vector<Profile> &Profiles);

} // namespace phaseprobe
