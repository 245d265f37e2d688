//===- profile_csv.cpp - Read and write the profile CSV --------------------===//
#include "phaseprobe/profile_csv.h"
#include "phaseprobe/error.h"
#include "phaseprobe/stream_notation.h"

#include <cmath>
#include <cstdlib>
#include <map>
#include <set>
#include <tuple>

namespace phaseprobe {

const char *const ProfileCsvColumns[7] = {"node",       "ubench", "threads", "time_s",
                                          "iterations", "tpi_us", "streams"};

/// Splits one CSV record (RFC 4180 quoting, no embedded newlines: profile
/// fields never need them).
static std::vector<std::string> splitRecord(const std::string &Line, const std::string &File,
                                            const std::string &Row) {
  std::vector<std::string> F;
  std::string Cur;
  std::size_t I = 0;
  bool AtStart = true;
  while (I <= Line.size()) {
    if (I == Line.size()) {
      F.push_back(Cur);
      break;
    }
    char C = Line[I];
    if (AtStart && C == '"') {
      ++I;
      for (;;) {
        if (I >= Line.size())
          throw InputError(File, Row, "unterminated quoted field " + std::to_string(F.size() + 1));
        if (Line[I] == '"') {
          if (I + 1 < Line.size() && Line[I + 1] == '"') {
            Cur += '"';
            I += 2;
            continue;
          }
          ++I;
          break;
        }
        Cur += Line[I++];
      }
      if (I < Line.size() && Line[I] != ',')
        throw InputError(File, Row,
                         "text after the closing quote of field " + std::to_string(F.size() + 1));
      AtStart = false;
      continue;
    }
    if (C == ',') {
      F.push_back(Cur);
      Cur.clear();
      AtStart = true;
    } else {
      Cur += C;
      AtStart = false;
    }
    ++I;
  }
  return F;
}

static std::string trim(const std::string &S) {
  std::size_t B = S.find_first_not_of(" \t"), E = S.find_last_not_of(" \t");
  return B == std::string::npos ? std::string() : S.substr(B, E - B + 1);
}

static double number(const std::string &S, const std::string &File, const std::string &Place,
                     bool Positive) {
  char *End = nullptr;
  double V = std::strtod(S.c_str(), &End);
  if (S.empty() || *End != '\0' || !std::isfinite(V))
    throw InputError(File, Place, "'" + S + "' is not a number");
  if (Positive ? !(V > 0) : V < 0)
    throw InputError(File, Place, "'" + S + "' must be " + (Positive ? "> 0" : ">= 0"));
  return V;
}

std::vector<CsvProfileRow> parseProfileCsv(const std::string &Text, const std::string &File) {
  std::vector<std::string> Lines;
  {
    std::size_t Start = 0;
    while (Start < Text.size()) {
      std::size_t End = Text.find('\n', Start);
      if (End == std::string::npos)
        End = Text.size();
      std::string L = Text.substr(Start, End - Start);
      if (!L.empty() && L.back() == '\r')
        L.pop_back();
      Lines.push_back(L);
      Start = End + 1;
    }
  }
  if (Lines.empty() || trim(Lines[0]).empty())
    throw InputError(File, "row 1",
                     "empty file: expected the header " + std::string("node,ubench,threads,time_s,"
                                                                      "iterations,tpi_us,streams"));
  // Header: the seven columns, any order, nothing else.
  std::map<std::string, std::size_t> Col;
  std::vector<std::string> Head = splitRecord(Lines[0], File, "row 1");
  if (!Head.empty() && Head[0].size() >= 3 && Head[0].compare(0, 3, "\xEF\xBB\xBF") == 0)
    Head[0] = Head[0].substr(3); // spreadsheet BOM
  for (std::size_t I = 0; I < Head.size(); ++I) {
    std::string H = trim(Head[I]);
    bool Known = false;
    for (const char *C : ProfileCsvColumns)
      Known |= H == C;
    if (!Known)
      throw InputError(File, "row 1, column " + std::to_string(I + 1),
                       "unknown column '" + H + "'");
    if (!Col.emplace(H, I).second)
      throw InputError(File, "row 1, column " + std::to_string(I + 1),
                       "column '" + H + "' appears twice");
  }
  for (const char *C : ProfileCsvColumns)
    if (!Col.count(C))
      throw InputError(File, "row 1", std::string("missing column '") + C + "'");

  std::vector<CsvProfileRow> Rows;
  std::map<std::tuple<std::string, std::string, unsigned, std::string>, std::size_t> Seen;
  for (std::size_t L = 1; L < Lines.size(); ++L) {
    if (trim(Lines[L]).empty())
      continue;
    std::string Row = "row " + std::to_string(L + 1);
    std::vector<std::string> F = splitRecord(Lines[L], File, Row);
    if (F.size() != Head.size())
      throw InputError(File, Row,
                       "has " + std::to_string(F.size()) + " fields, the header " +
                           std::to_string(Head.size()));
    auto Get = [&](const char *Name) { return trim(F[Col[Name]]); };
    auto Place = [&](const char *Name) { return Row + ", field " + Name; };
    CsvProfileRow R;
    R.row = L + 1;
    Profile &P = R.profile;
    P.node = Get("node");
    if (P.node.empty())
      throw InputError(File, Place("node"), "is empty");
    P.ubench = Get("ubench");
    if (P.ubench.empty())
      throw InputError(File, Place("ubench"), "is empty");
    std::string T = Get("threads");
    double Th = number(T, File, Place("threads"), true);
    if (Th != std::floor(Th) || Th > 1e6)
      throw InputError(File, Place("threads"), "'" + T + "' is not a thread count");
    P.threads = unsigned(Th);
    if (!Get("time_s").empty())
      P.timeS = number(Get("time_s"), File, Place("time_s"), false);
    if (!Get("iterations").empty())
      P.iterations = number(Get("iterations"), File, Place("iterations"), true);
    if (!Get("tpi_us").empty()) {
      P.tpiUs = number(Get("tpi_us"), File, Place("tpi_us"), true);
    } else if (P.timeS && P.iterations && *P.timeS > 0) {
      P.tpiUs = *P.timeS * 1e6 / *P.iterations;
    } else {
      throw InputError(File, Place("tpi_us"), "is empty and time_s/iterations do not give it");
    }
    P.streams = parseStreams(Get("streams"), File, Place("streams"));
    std::string Key = formatStreams(P.streams);
    auto Ins = Seen.emplace(std::make_tuple(P.node, P.ubench, P.threads, Key), R.row);
    if (!Ins.second)
      throw InputError(File, Row,
                       "repeats the profile of row " + std::to_string(Ins.first->second) + " (" +
                           P.node + "," + P.ubench + "," + T + "," + Key + ")");
    Rows.push_back(std::move(R));
  }
  return Rows;
}

static std::string quoted(const std::string &S) {
  if (S.find_first_of(",\"\n\r") == std::string::npos)
    return S;
  std::string Q = "\"";
  for (char C : S) {
    if (C == '"')
      Q += '"';
    Q += C;
  }
  return Q + '"';
}

std::string formatProfileCsv(const std::vector<Profile> &Profiles) {
  std::string Out = "node,ubench,threads,time_s,iterations,tpi_us,streams\n";
  for (const Profile &P : Profiles) {
    Out += quoted(P.node) + ',' + quoted(P.ubench) + ',' + std::to_string(P.threads) + ',';
    if (P.timeS)
      Out += formatNumber(*P.timeS);
    Out += ',';
    if (P.iterations)
      Out += formatNumber(*P.iterations);
    Out += ',' + formatNumber(P.tpiUs) + ',' + formatStreams(P.streams) + '\n';
  }
  return Out;
}

} // namespace phaseprobe
