//===- phaseprobe/stream_notation.h - "k:s:e:access;..." --------*- C++ -*-===//
//
// The compact stream notation of CONTRACTS.md, used by the profile CSV and by
// the candidate of the estimate JSON so any profile can be named exactly:
// footprint_kib:stride_bytes:elem_bytes:access per stream, ';' between them.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "phaseprobe/model.h"

#include <string>
#include <vector>

namespace phaseprobe {

/// Formats streams in profile order; numbers are written in the shortest form
/// that reads back to the same double ("15869", "0.5").
std::string formatStreams(const std::vector<StreamTuple> &Streams);

/// Parses the notation. Throws InputError(File, Place, ...) naming the stream
/// and field that is wrong; an empty string is an error (a uB has >= 1 stream).
std::vector<StreamTuple> parseStreams(const std::string &Text,
                                      const std::string &File = "",
                                      const std::string &Place = "");

/// Shortest round-trip decimal form of a double ("0.01242", "15869").
std::string formatNumber(double V);

/// \p S cut at every \p Sep ("a;b;" → "a", "b", ""; "" → one empty part).
std::vector<std::string> split(const std::string &S, char Sep);

} // namespace phaseprobe
