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

/// Writes the "node" object (one JSON value) into \p W.
void writeNodeInfo(JsonWriter &W);

} // namespace __phaseprobe
