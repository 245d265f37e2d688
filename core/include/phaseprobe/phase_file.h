//===- phaseprobe/phase_file.h - Read, validate, write phase files -*- C++ -*-===//
//
// The phase file (schema phaseprobe.phases/1, CONTRACTS.md) is written by the
// runtime and read by the matcher and the estimator; hand-written files in its
// minimal form are valid input too. This is the one place that parses it, so
// the rules below hold for every tool:
//
//  - required: schema, program.total_time_s, program.threads and, per phase,
//    id, threads, time_s, iterations, tpi_us, streams[] with footprint_kib,
//    stride_bytes, elem_bytes, access;
//  - every error is an InputError naming the file and the JSON path
//    ("phases[2].streams[0].stride_bytes: expected a number");
//  - optional fields are kept absent in the model and derived on demand
//    (weight = time_s / total_time_s, significance from the base node's L1d,
//    kind/parent absent = a parallel region).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "phaseprobe/model.h"

#include <string>
#include <vector>

namespace phaseprobe {

/// The schema string this reader accepts and the writer stamps.
inline constexpr const char *PhaseFileSchema = "phaseprobe.phases/1";

/// Parses and validates the text of a phase file. \p FileName is only used in
/// error messages. Throws InputError.
PhaseFile parsePhaseFile(const std::string &Text, const std::string &FileName);

/// Reads and validates \p Path (readFile + parsePhaseFile).
PhaseFile readPhaseFile(const std::string &Path);

/// Serializes \p File in the phaseprobe.phases/1 format; absent optional
/// fields are left out so a read/write round trip keeps the file's meaning.
std::string formatPhaseFile(const PhaseFile &File);

/// "line L, column C" of byte offset \p Byte of \p Text (nlohmann's
/// parse_error::byte), for the errors of every JSON input.
std::string jsonErrorPlace(const std::string &Text, size_t Byte);
/// The reason of an nlohmann parse error without its own position prefix.
std::string jsonErrorReason(const std::string &What);

/// METHOD.md's leaf phases: worksharing phases, and regions with no
/// worksharing phase inside — i.e. the phases no phase names as parent.
/// Indices into File.phases, in file order.
std::vector<size_t> leafPhases(const PhaseFile &File);

/// The reuse copies a clone of leaf phase \p P of \p F walks
/// (ubench/README.md, "Reuse copies"): the data the program touches between
/// two executions of \p P over \p P's own, rounded, from 1 to 8, and at
/// most 1 GiB of copies. That data is estimated from the leaf phases'
/// streams (leafPhases; all but those marked not significant): each leaf
/// Q's footprint, times its executions over P's where it runs less often;
/// arrays that several leaves walk are counted with each. 1 for a phase
/// without streams.
long reuseCopies(const PhaseFile &F, const Phase &P);

/// The phase's weight: the stored one, else time_s / total_time_s (0 when the
/// total is 0).
double phaseWeight(const Phase &P, const ProgramInfo &Program);

/// Whether a stream enters matching: the stored flag, else footprint strictly
/// greater than \p L1dKiB (METHOD.md: a stream that fits in L1d does not
/// decide performance). \p L1dKiB <= 0 means unknown: every stream counts.
bool isSignificantStream(const PhaseStream &S, double L1dKiB);

/// Significant streams of \p P, ordered by footprint, largest first (stable:
/// equal footprints keep file order): the matcher's queries and the clones
/// that grow the grid for them. \p IgnoreFlags: every stream larger than
/// \p StreamKiB, whatever the phase file's `significant` says.
std::vector<unsigned> significantStreams(const Phase &P, double StreamKiB,
                                         bool IgnoreFlags = false);

/// The streams a leaf is queried with under --relax-unmatched: its
/// significant ones or, where it has none, every stream it touched (those
/// that fit in L1; \p L1Resident, when given, says which). The clones that
/// grow the grid walk the same streams, or a relaxed query of an
/// L1-resident leaf finds no profile of its size.
std::vector<unsigned> relaxedStreams(const Phase &P, double StreamKiB,
                                     bool *L1Resident = nullptr);

} // namespace phaseprobe
