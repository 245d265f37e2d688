//===- phase_writer.h - The phase file (phaseprobe.phases/1) ----*- C++ -*-===//
//
// Internal to the runtime. Turns the per-thread accumulators into one record
// per phase and writes the phase file at exit (see runtime/README.md for the
// aggregation rules). Units that describe phases further (stream sampling)
// plug in through setStreamsWriter() instead of editing the writer.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "json_writer.h"

#include <cstdint>

namespace __phaseprobe {

/// Writes one JSON value, the "streams" array of phase \p Phase.
/// \p SplitsIterations: the phase is a worksharing loop, whose team splits
/// one iteration space (so a thread's halves of it stand for two threads'
/// shares, where only one thread was sampled).
using StreamsWriterFn = void (*)(JsonWriter &W, uint32_t Phase, bool SplitsIterations);

/// Installs the writer of each phase's "streams" array. Without one, every
/// phase gets "streams": [].
void setStreamsWriter(StreamsWriterFn Fn);

/// Whether this run samples memory streams (PHASEPROBE_SAMPLING).
using SamplingQueryFn = bool (*)();

/// Installs the answer behind program.sampling; without one the field is
/// left out.
void setSamplingQuery(SamplingQueryFn Fn);
/// The installed answer, asked once and kept (false without one).
bool samplingEnabled();

/// Registers the exit hook once (atexit). It writes the phase file, in the
/// process that started the runtime only (a fork child writes nothing).
void installExitHook();

/// Builds the whole phase file into \p W; \p TotalNs is the program time,
/// \p PageFaults the process's minor faults over it.
void buildPhaseFile(JsonWriter &W, uint64_t TotalNs, uint64_t PageFaults);

/// Where the phase file goes: $PHASEPROBE_OUT with %p replaced by the pid,
/// else <program-name>.phases.json in the working directory. Writes at most
/// \p Cap bytes into \p Out; false if it did not fit.
bool phaseFilePath(char *Out, unsigned long Cap);

/// Writes \p Len bytes to \p Path through a temporary file and a rename.
/// On failure returns false with errno set; nothing is left behind.
bool writeFileAtomically(const char *Path, const char *Data, unsigned long Len);

} // namespace __phaseprobe
