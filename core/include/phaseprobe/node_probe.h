//===- phaseprobe/node_probe.h - This machine's description ----*- C++ -*-===//
//
// Reads the hardware description of the machine we run on from hwloc (CPU
// model, cores, PUs, sockets, NUMA nodes, cache sizes, memory) so that
// `phaseprobe-ubench run` can store it with the node's profiles and size its
// footprint grid from the real cache hierarchy.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "phaseprobe/model.h"

#include <string>

namespace phaseprobe {

/// Describes this machine; \p Label becomes NodeInfo::label. Throws
/// WorkError when hwloc cannot load the topology. Caches hwloc does not
/// report are 0 (l3KiB = 0 also means "no L3").
NodeInfo probeNode(const std::string &Label);

/// The host name (the default node label).
std::string hostName();

} // namespace phaseprobe
