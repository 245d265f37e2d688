//===- rt_memory.h - The runtime's memory, apart from the program's heap --===//
//
// Internal to the runtime. The runtime lives inside the program it measures,
// and a block it keeps on the program's malloc heap changes how that program
// runs: a sampler record allocated mid-run lands at the top of the heap and
// stops glibc from giving the heap's free top back to the kernel, so a
// program that frees and reallocates large temporaries (LULESH) stopped
// paying the page faults it pays without phaseprobe: LULESH -s 30 on two
// threads ran 0.86 s plain and 0.55-0.65 s instrumented (27 brk calls
// instead of 615). Everything the runtime allocates therefore comes from
// mappings of its own. These functions behave like calloc/realloc/free and
// never call them; they are async-signal-unsafe like them.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>

namespace __phaseprobe {

/// Zeroed memory for \p N elements of \p Size bytes; nullptr on overflow or
/// when no memory can be mapped.
void *rtCalloc(std::size_t N, std::size_t Size);

/// Like realloc: keeps the contents up to the smaller size; the grown part is
/// not zeroed. nullptr (and \p P untouched) on failure.
void *rtRealloc(void *P, std::size_t Size);

/// Gives back a block of rtCalloc/rtRealloc; nullptr is ignored.
void rtFree(void *P);

} // namespace __phaseprobe
