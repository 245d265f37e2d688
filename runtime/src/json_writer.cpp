//===- json_writer.cpp - Minimal streaming JSON writer --------------------===//
//
// See json_writer.h. Numbers use %.10g: enough digits for nanosecond-derived
// seconds over days, and stable text for tests.
//
//===----------------------------------------------------------------------===//
#include "json_writer.h"
#include "rt_memory.h"

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace __phaseprobe {

JsonWriter::JsonWriter() { First[0] = true; }
JsonWriter::~JsonWriter() { rtFree(Buf); }

void JsonWriter::raw(const char *S, size_t N) {
  if (!Ok)
    return;
  if (Len + N + 1 > Cap) {
    size_t NewCap = Cap ? Cap * 2 : 4096;
    while (NewCap < Len + N + 1)
      NewCap *= 2;
    char *NewBuf = static_cast<char *>(rtRealloc(Buf, NewCap));
    if (!NewBuf) {
      Ok = false;
      return;
    }
    Buf = NewBuf;
    Cap = NewCap;
  }
  memcpy(Buf + Len, S, N);
  Len += N;
  Buf[Len] = '\0';
}

void JsonWriter::raw(const char *S) { raw(S, strlen(S)); }

void JsonWriter::separate() {
  if (AfterKey) {
    AfterKey = false;
    return;
  }
  if (Nest == 0)
    return;
  if (!First[Nest])
    put(',');
  First[Nest] = false;
  if (Nest <= IndentDepth) {
    put('\n');
    for (unsigned I = 0; I < Nest; ++I)
      raw("  ");
  } else if (Len && Buf[Len - 1] == ',') {
    put(' ');
  }
}

void JsonWriter::beginObject() {
  separate();
  put('{');
  if (Nest + 1 < MaxNest)
    First[++Nest] = true;
}

void JsonWriter::endObject() {
  bool Empty = First[Nest];
  if (Nest > 0)
    --Nest;
  if (!Empty && Nest + 1 <= IndentDepth) {
    put('\n');
    for (unsigned I = 0; I < Nest; ++I)
      raw("  ");
  }
  put('}');
}

void JsonWriter::beginArray() {
  separate();
  put('[');
  if (Nest + 1 < MaxNest)
    First[++Nest] = true;
}

void JsonWriter::endArray() {
  bool Empty = First[Nest];
  if (Nest > 0)
    --Nest;
  if (!Empty && Nest + 1 <= IndentDepth) {
    put('\n');
    for (unsigned I = 0; I < Nest; ++I)
      raw("  ");
  }
  put(']');
}

void JsonWriter::key(const char *K) {
  separate();
  quoted(K);
  raw(": ");
  AfterKey = true;
}

void JsonWriter::string(const char *S) {
  separate();
  quoted(S);
}

void JsonWriter::quoted(const char *S) {
  put('"');
  for (const unsigned char *P = reinterpret_cast<const unsigned char *>(S); *P; ++P) {
    unsigned char C = *P;
    switch (C) {
    case '"':
      raw("\\\"");
      break;
    case '\\':
      raw("\\\\");
      break;
    case '\n':
      raw("\\n");
      break;
    case '\t':
      raw("\\t");
      break;
    case '\r':
      raw("\\r");
      break;
    default:
      if (C < 0x20) {
        char Esc[8];
        snprintf(Esc, sizeof Esc, "\\u%04x", C);
        raw(Esc);
      } else {
        put(static_cast<char>(C));
      }
    }
  }
  put('"');
}

void JsonWriter::number(double V) {
  separate();
  if (!std::isfinite(V)) {
    raw("null");
    return;
  }
  char B[40];
  snprintf(B, sizeof B, "%.10g", V);
  raw(B);
}

void JsonWriter::integer(int64_t V) {
  separate();
  char B[32];
  snprintf(B, sizeof B, "%" PRId64, V);
  raw(B);
}

void JsonWriter::unsignedInteger(uint64_t V) {
  separate();
  char B[32];
  snprintf(B, sizeof B, "%" PRIu64, V);
  raw(B);
}

void JsonWriter::boolean(bool V) {
  separate();
  raw(V ? "true" : "false");
}

void JsonWriter::null() {
  separate();
  raw("null");
}

} // namespace __phaseprobe
