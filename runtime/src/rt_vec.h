//===- rt_vec.h - A growable array on the runtime's own memory --*- C++ -*-===//
#pragma once

#include "rt_memory.h"

#include <cstddef>
#include <cstring>

namespace __phaseprobe {
namespace streams {

/// A growable array of trivially copyable values on the runtime's own
/// memory (rt_memory.h, not the program's heap): the runtime
/// lives inside the user's program and must not need libstdc++ at run time,
/// so std::vector (operator new) is out. Growth failures drop the element
/// and set Failed; nothing here ever throws.
template <typename T> struct Vec {
  T *Data = nullptr;
  std::size_t Size = 0, Cap = 0;
  bool Failed = false;

  Vec() = default;
  Vec(const Vec &) = delete;
  Vec &operator=(const Vec &) = delete;
  Vec(Vec &&O) noexcept { *this = static_cast<Vec &&>(O); }
  Vec &operator=(Vec &&O) noexcept {
    if (this != &O) {
      rtFree(Data);
      Data = O.Data, Size = O.Size, Cap = O.Cap, Failed = O.Failed;
      O.Data = nullptr, O.Size = O.Cap = 0;
    }
    return *this;
  }
  ~Vec() { rtFree(Data); }

  bool push(const T &V) {
    if (Size == Cap) {
      std::size_t N = Cap ? Cap * 2 : 8;
      T *D = static_cast<T *>(rtRealloc(Data, N * sizeof(T)));
      if (!D) {
        Failed = true;
        return false;
      }
      Data = D, Cap = N;
    }
    std::memcpy(static_cast<void *>(Data + Size), &V, sizeof(T));
    ++Size;
    return true;
  }
  T &operator[](std::size_t I) { return Data[I]; }
  const T &operator[](std::size_t I) const { return Data[I]; }
  T *begin() { return Data; }
  T *end() { return Data + Size; }
  const T *begin() const { return Data; }
  const T *end() const { return Data + Size; }
  bool empty() const { return Size == 0; }
  void clear() { Size = 0; }
};

} // namespace streams
} // namespace __phaseprobe
