//===- phaseprobe/atomic_file.h - All-or-nothing file output ----*- C++ -*-===//
//
// Outputs are written to a temporary file beside the target and renamed over
// it, so a reader never sees half a file and a failure leaves the old one.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>

namespace phaseprobe {

/// Writes \p Content to \p Path atomically. Throws InputError naming \p Path
/// when the directory is not writable or the disk is full; nothing is left
/// behind in that case.
void writeFileAtomically(const std::string &Path, const std::string &Content);

/// Throws InputError when \p Path cannot be written (its folder is missing
/// or read-only, or it is a directory), so that a command fails before it
/// does any work.
void checkWritable(const std::string &Path);

/// Reads a whole file; throws InputError naming \p Path when it cannot.
std::string readFile(const std::string &Path);

} // namespace phaseprobe
