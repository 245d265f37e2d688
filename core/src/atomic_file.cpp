//===- atomic_file.cpp - Temporary file + rename --------------------------===//
#include "phaseprobe/atomic_file.h"
#include "phaseprobe/error.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace phaseprobe {

void checkWritable(const std::string &Path) {
  if (Path.empty())
    throw InputError("", "", "an output path is empty");
  struct stat St;
  if (::stat(Path.c_str(), &St) == 0 && S_ISDIR(St.st_mode))
    throw InputError(Path, "", "is a directory, not a file");
  auto Slash = Path.rfind('/');
  std::string Dir = Slash == std::string::npos ? "." : Slash == 0 ? "/" : Path.substr(0, Slash);
  if (::access(Dir.c_str(), W_OK) != 0)
    throw InputError(Path, "", std::string("cannot write: ") + std::strerror(errno));
}

void writeFileAtomically(const std::string &Path, const std::string &Content) {
  std::string Tmp = Path + ".tmp.XXXXXX";
  int Fd = mkstemp(Tmp.data());
  if (Fd < 0)
    throw InputError(Path, "", std::string("cannot write: ") + std::strerror(errno));
  auto Fail = [&](int Err) {
    ::close(Fd);
    ::unlink(Tmp.c_str());
    throw InputError(Path, "", std::string("cannot write: ") + std::strerror(Err));
  };
  const char *P = Content.data();
  size_t Left = Content.size();
  while (Left > 0) {
    ssize_t N = ::write(Fd, P, Left);
    if (N < 0) {
      if (errno == EINTR) continue;
      Fail(errno);
    }
    P += N;
    Left -= size_t(N);
  }
  // mkstemp creates 0600; outputs are ordinary user files.
  mode_t Mask = umask(0);
  umask(Mask);
  if (::fchmod(Fd, 0666 & ~Mask) != 0 || ::fsync(Fd) != 0) Fail(errno);
  if (::close(Fd) != 0) {
    int Err = errno;
    ::unlink(Tmp.c_str());
    throw InputError(Path, "", std::string("cannot write: ") + std::strerror(Err));
  }
  if (::rename(Tmp.c_str(), Path.c_str()) != 0) {
    int Err = errno;
    ::unlink(Tmp.c_str());
    throw InputError(Path, "", std::string("cannot write: ") + std::strerror(Err));
  }
}

std::string readFile(const std::string &Path) {
  struct stat St;
  if (::stat(Path.c_str(), &St) != 0)
    throw InputError(Path, "", std::string("cannot read: ") + std::strerror(errno));
  if (S_ISDIR(St.st_mode)) throw InputError(Path, "", "is a directory, not a file");
  std::ifstream In(Path, std::ios::binary);
  if (!In) throw InputError(Path, "", std::string("cannot read: ") + std::strerror(errno));
  std::ostringstream S;
  S << In.rdbuf();
  if (In.bad()) throw InputError(Path, "", "read error");
  return S.str();
}

} // namespace phaseprobe
