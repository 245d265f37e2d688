//===- phaseprobe/error.h - Errors users can act on -------------*- C++ -*-===//
//
// CONTRACTS.md: every command exits 0 on success, 1 when the work failed, 2 on
// bad usage or bad input, and reports one line naming the file, the place in
// it and what is wrong. These exception types carry exactly those three parts
// so the one catch site in runTool() (cli.h) can print them uniformly.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <stdexcept>
#include <string>

namespace phaseprobe {

enum ExitCode : int { ExitOk = 0, ExitWorkFailed = 1, ExitBadInput = 2 };

/// Bad input or usage: a file that cannot be read or parsed, a wrong value, a
/// node that is not there, an output that cannot be written. Exit code 2.
class InputError : public std::runtime_error {
public:
  /// \p File may be empty (a command-line value); \p Place is "line 3",
  /// "row 7, field tpi_us", "phases[2].streams[0].stride_bytes", or empty.
  InputError(std::string File, std::string Place, const std::string &What)
      : std::runtime_error(format(File, Place, What)), File(std::move(File)),
        Place(std::move(Place)) {}

  const std::string File, Place;

private:
  static std::string format(const std::string &F, const std::string &P,
                            const std::string &W) {
    std::string S;
    if (!F.empty()) S += F + ": ";
    if (!P.empty()) S += P + ": ";
    return S + W;
  }
};

/// The input was fine but the work could not be done (a measurement failed,
/// a regression gate tripped). Exit code 1.
class WorkError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

} // namespace phaseprobe
