//===- stream_notation.cpp - Parse and format the stream notation ---------===//
#include "phaseprobe/stream_notation.h"
#include "phaseprobe/error.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace phaseprobe {

std::string formatNumber(double V) {
  char Buf[64];
  // Integral values (footprints, strides, iteration counts) read best plainly.
  if (V == std::floor(V) && std::fabs(V) < 1e15) {
    std::snprintf(Buf, sizeof Buf, "%.0f", V);
    return Buf;
  }
  // %.17g always round-trips; try shorter precisions first for readability.
  for (int Prec = 1; Prec <= 17; ++Prec) {
    std::snprintf(Buf, sizeof Buf, "%.*g", Prec, V);
    if (std::strtod(Buf, nullptr) == V) break;
  }
  return Buf;
}

std::string formatStreams(const std::vector<StreamTuple> &Streams) {
  std::string S;
  for (size_t I = 0; I < Streams.size(); ++I) {
    const StreamTuple &T = Streams[I];
    if (I) S += ';';
    S += formatNumber(T.footprintKiB) + ':' + formatNumber(T.strideBytes) + ':' +
         std::to_string(T.elemBytes) + ':' + accessName(T.access);
  }
  return S;
}

std::vector<std::string> split(const std::string &S, char Sep) {
  std::vector<std::string> Parts;
  size_t Start = 0;
  for (;;) {
    size_t End = S.find(Sep, Start);
    Parts.push_back(S.substr(Start, End == std::string::npos ? End : End - Start));
    if (End == std::string::npos) return Parts;
    Start = End + 1;
  }
}

static double parseNumber(const std::string &S, const std::string &File,
                          const std::string &Where, const char *Field) {
  const char *B = S.c_str();
  char *E = nullptr;
  double V = std::strtod(B, &E);
  if (S.empty() || *E != '\0' || !std::isfinite(V))
    throw InputError(File, Where, std::string(Field) + " '" + S + "' is not a number");
  return V;
}

std::vector<StreamTuple> parseStreams(const std::string &Text, const std::string &File,
                                      const std::string &Place) {
  if (Text.empty()) throw InputError(File, Place, "stream list is empty");
  std::vector<StreamTuple> Out;
  auto Streams = split(Text, ';');
  for (size_t I = 0; I < Streams.size(); ++I) {
    std::string Where = (Place.empty() ? "" : Place + ", ") + "stream " + std::to_string(I + 1);
    auto F = split(Streams[I], ':');
    if (F.size() != 4)
      throw InputError(File, Where,
                       "'" + Streams[I] + "' is not footprint_kib:stride_bytes:elem_bytes:access");
    StreamTuple T;
    T.footprintKiB = parseNumber(F[0], File, Where, "footprint_kib");
    if (T.footprintKiB <= 0) throw InputError(File, Where, "footprint_kib must be > 0");
    T.strideBytes = parseNumber(F[1], File, Where, "stride_bytes");
    double E = parseNumber(F[2], File, Where, "elem_bytes");
    if (E <= 0 || E != std::floor(E) || E > 4096)
      throw InputError(File, Where, "elem_bytes '" + F[2] + "' is not a positive integer");
    T.elemBytes = unsigned(E);
    auto A = parseAccess(F[3]);
    if (!A) throw InputError(File, Where, "access '" + F[3] + "' is neither shared nor private");
    T.access = *A;
    Out.push_back(T);
  }
  return Out;
}

} // namespace phaseprobe
