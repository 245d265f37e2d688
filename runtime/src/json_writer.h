//===- json_writer.h - Minimal streaming JSON writer ------------*- C++ -*-===//
//
// Internal to the runtime. The runtime lives inside the user's program, so it
// avoids iostreams, exceptions and the C++ library's allocating containers:
// this writer appends to one buffer (rt_memory.h) and tracks commas itself. It is
// shared by every unit that writes part of the phase file (the phase writer,
// stream sampling), each writing a complete JSON value where asked.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <cstdint>

namespace __phaseprobe {

class JsonWriter {
public:
  JsonWriter();
  ~JsonWriter();
  JsonWriter(const JsonWriter &) = delete;
  JsonWriter &operator=(const JsonWriter &) = delete;

  void beginObject();
  void endObject();
  void beginArray();
  void endArray();
  /// Writes an object key; the next call writes its value.
  void key(const char *K);

  void string(const char *S);
  void number(double V); ///< non-finite values are written as null
  void integer(int64_t V);
  void unsignedInteger(uint64_t V);
  void boolean(bool V);
  void null();

  /// Pretty printing: a newline and indentation before each array element
  /// and object member up to this nesting depth (0 = one line).
  void setIndentDepth(unsigned D) { IndentDepth = D; }

  const char *data() const { return Buf ? Buf : ""; }
  size_t size() const { return Len; }
  /// False once an allocation failed; the content is then incomplete.
  bool ok() const { return Ok; }

private:
  void separate(); ///< comma/newline before a value or key
  void raw(const char *S, size_t N);
  void raw(const char *S);
  void put(char C) { raw(&C, 1); }
  void quoted(const char *S); ///< escaped string, no separator

  char *Buf = nullptr;
  size_t Len = 0, Cap = 0;
  bool Ok = true;
  static constexpr unsigned MaxNest = 32;
  bool First[MaxNest]; ///< no element written yet at this level
  unsigned Nest = 0;
  bool AfterKey = false;
  unsigned IndentDepth = 0;
};

} // namespace __phaseprobe
