//===- node_info.h - Description of the machine we run on -------*- C++ -*-===//
//
// Internal to the runtime. The phase file's "node" object, from hwloc (CPU
// model, cores, PUs, caches, memory, NUMA nodes) plus the hostname and the
// label ($PHASEPROBE_NODE, else the hostname). Called once, at exit.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "json_writer.h"

namespace __phaseprobe {

/// What hwloc says about this machine. Zeros/"unknown" where it could not
/// tell.
struct NodeFacts {
  char Cpu[128] = "unknown";
  long Cores = 0, Pus = 0, Packages = 0, NumaNodes = 0;
  unsigned long L1dKiB = 0, L2KiB = 0, L3KiB = 0, MemoryMiB = 0;
  bool Known = false; ///< hwloc succeeded
};

/// The machine's description, discovered once (the first call pays one
/// hwloc topology load, ~10 ms; later calls are free). Thread-safe. Other
/// runtime units (stream sampling's L1d size) should use this rather than
/// load hwloc again.
const NodeFacts &nodeFacts();

/// Writes the "node" object (one JSON value) into \p W.
void writeNodeInfo(JsonWriter &W);

} // namespace __phaseprobe
