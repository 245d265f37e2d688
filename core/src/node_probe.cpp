//===- node_probe.cpp - hwloc → NodeInfo ------------------------------------===//
#include "phaseprobe/node_probe.h"
#include "phaseprobe/error.h"

#include <hwloc.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace phaseprobe {

std::string hostName() {
  char Buf[256] = {0};
  if (::gethostname(Buf, sizeof Buf - 1) != 0 || !Buf[0])
    return "localhost";
  return Buf;
}

static double cacheKiB(hwloc_topology_t T, hwloc_obj_type_t Type, bool Largest) {
  double Best = 0;
  int N = hwloc_get_nbobjs_by_type(T, Type);
  for (int I = 0; I < N; ++I) {
    hwloc_obj_t O = hwloc_get_obj_by_type(T, Type, unsigned(I));
    if (!O->attr)
      continue;
    double K = double(O->attr->cache.size) / 1024.0;
    // Per-core caches are the same on every core of a homogeneous node; on a
    // hybrid one the first core's (a performance core on current parts) is
    // the one threads are pinned to first.
    if (!Largest)
      return K;
    Best = std::max(Best, K);
  }
  return Best;
}

NodeInfo probeNode(const std::string &Label) {
  hwloc_topology_t T;
  if (hwloc_topology_init(&T) != 0 || hwloc_topology_load(T) != 0)
    throw WorkError("hwloc: cannot read this machine's topology");
  NodeInfo N;
  N.label = Label;
  N.hostname = hostName();
  hwloc_obj_t Root = hwloc_get_root_obj(T);
  if (const char *M = hwloc_obj_get_info_by_name(Root, "CPUModel"))
    N.cpu = M;
  if (N.cpu.empty()) {
    hwloc_obj_t Pkg = hwloc_get_obj_by_type(T, HWLOC_OBJ_PACKAGE, 0);
    if (Pkg)
      if (const char *M = hwloc_obj_get_info_by_name(Pkg, "CPUModel"))
        N.cpu = M;
  }
  N.cores = unsigned(std::max(0, hwloc_get_nbobjs_by_type(T, HWLOC_OBJ_CORE)));
  N.pus = unsigned(std::max(0, hwloc_get_nbobjs_by_type(T, HWLOC_OBJ_PU)));
  N.sockets = unsigned(std::max(0, hwloc_get_nbobjs_by_type(T, HWLOC_OBJ_PACKAGE)));
  N.numaNodes = unsigned(std::max(0, hwloc_get_nbobjs_by_type(T, HWLOC_OBJ_NUMANODE)));
  if (N.cores == 0)
    N.cores = N.pus;
  N.l1dKiB = cacheKiB(T, HWLOC_OBJ_L1CACHE, false);
  N.l2KiB = cacheKiB(T, HWLOC_OBJ_L2CACHE, false);
  N.l3KiB = cacheKiB(T, HWLOC_OBJ_L3CACHE, true);
  N.memoryMiB = double(Root->total_memory) / (1024.0 * 1024.0);
  hwloc_topology_destroy(T);
  return N;
}

std::string corePlaces() {
  hwloc_topology_t T;
  if (hwloc_topology_init(&T) != 0)
    return "";
  if (hwloc_topology_load(T) != 0) {
    hwloc_topology_destroy(T);
    return "";
  }
  hwloc_bitmap_t Allowed = hwloc_bitmap_alloc();
  std::string Out;
  if (Allowed && hwloc_get_cpubind(T, Allowed, HWLOC_CPUBIND_PROCESS) == 0) {
    int N = hwloc_get_nbobjs_by_type(T, HWLOC_OBJ_CORE);
    for (int I = 0; I < N; ++I) {
      hwloc_obj_t C = hwloc_get_obj_by_type(T, HWLOC_OBJ_CORE, unsigned(I));
      std::string Place;
      for (int P = hwloc_bitmap_first(C->cpuset); P >= 0; P = hwloc_bitmap_next(C->cpuset, P))
        if (hwloc_bitmap_isset(Allowed, unsigned(P)))
          Place += (Place.empty() ? "" : ",") + std::to_string(P);
      if (!Place.empty())
        Out += (Out.empty() ? "{" : ",{") + Place + "}";
    }
  }
  if (Allowed)
    hwloc_bitmap_free(Allowed);
  hwloc_topology_destroy(T);
  return Out;
}

// hwloc pads some model strings with blanks (the Turin-like VM's).
static std::string trimmed(const std::string &S) {
  std::size_t B = S.find_first_not_of(" \t"), E = S.find_last_not_of(" \t");
  return B == std::string::npos ? std::string() : S.substr(B, E - B + 1);
}

std::string designDifference(const NodeInfo &Stored, const NodeInfo &Here) {
  if (trimmed(Stored.cpu).empty() && Stored.l1dKiB == 0 && Stored.l2KiB == 0)
    return "";
  if (trimmed(Stored.cpu) == trimmed(Here.cpu) && Stored.l1dKiB == Here.l1dKiB &&
      Stored.l2KiB == Here.l2KiB)
    return "";
  auto Text = [](const NodeInfo &N) {
    char Buf[96];
    std::snprintf(Buf, sizeof Buf, " (L1d %g KiB, L2 %g KiB)", N.l1dKiB, N.l2KiB);
    return "'" + (trimmed(N.cpu).empty() ? std::string("unknown CPU") : trimmed(N.cpu)) + "'" + Buf;
  };
  return "characterized on " + Text(Stored) + ", this machine is " + Text(Here);
}

} // namespace phaseprobe
