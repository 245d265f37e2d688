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

/// Why \p Here is not the machine design \p Stored was characterized on: a
/// different CPU model, L1d or L2; "" when they match, or when \p Stored
/// carries no description (a node created by `phaseprobe-db import`). The
/// host name, memory and L3 may differ: a label names a design in one
/// configuration, not one host, and VMs of one design report different L3s.
std::string designDifference(const NodeInfo &Stored, const NodeInfo &Here);

/// One OpenMP place per core this process may run on, each holding the
/// core's PUs by OS index: "{0},{1}" on two cores, "{0,8},{1,9},..." with
/// SMT; "" when hwloc cannot say. What OMP_PLACES=cores means, spelled out
/// from the OS's topology: libomp reads the cores from CPUID instead, and
/// on the Oxide Turin-like VM takes its two vCPUs (two cores to Linux and
/// hwloc) for one core's threads, one place {0,1} in which two threads
/// float (run hk's two-thread uBs then often ran on one vCPU).
std::string corePlaces();

/// The host name (the default node label).
std::string hostName();

} // namespace phaseprobe
