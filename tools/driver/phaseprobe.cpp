//===- phaseprobe.cpp - The umbrella command ------------------------------===//
//
// `phaseprobe <command> args...` runs `phaseprobe-<command> args...`, as git
// does, so scripts can use one entry point and new commands need no change
// here. The command is looked up beside this executable first (an installed or
// build tree is self-consistent even when another phaseprobe is on PATH), then
// on PATH.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <limits.h>
#include <set>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#ifndef PHASEPROBE_VERSION
#define PHASEPROBE_VERSION "unknown"
#endif

static std::string selfDir() {
  char Buf[PATH_MAX];
  ssize_t N = readlink("/proc/self/exe", Buf, sizeof Buf - 1);
  if (N <= 0) return "";
  Buf[N] = '\0';
  std::string P(Buf);
  return P.substr(0, P.rfind('/'));
}

static bool isExecutable(const std::string &P) {
  struct stat St;
  return stat(P.c_str(), &St) == 0 && S_ISREG(St.st_mode) && access(P.c_str(), X_OK) == 0;
}

static std::vector<std::string> searchDirs() {
  std::vector<std::string> Dirs;
  std::string Self = selfDir();
  if (!Self.empty()) Dirs.push_back(Self);
  if (const char *Path = getenv("PATH")) {
    std::string S(Path);
    size_t Start = 0;
    for (;;) {
      size_t End = S.find(':', Start);
      std::string D = S.substr(Start, End == std::string::npos ? End : End - Start);
      if (!D.empty()) Dirs.push_back(D);
      if (End == std::string::npos) break;
      Start = End + 1;
    }
  }
  return Dirs;
}

static std::set<std::string> availableCommands() {
  std::set<std::string> Cmds;
  for (const std::string &D : searchDirs()) {
    DIR *Dir = opendir(D.c_str());
    if (!Dir) continue;
    while (dirent *E = readdir(Dir)) {
      std::string Name = E->d_name;
      // The compiler wrappers share the prefix but are not subcommands.
      if (Name.rfind("phaseprobe-", 0) == 0 && Name != "phaseprobe-cc" &&
          Name != "phaseprobe-c++" && Name.find(".tmp") == std::string::npos &&
          isExecutable(D + "/" + Name))
        Cmds.insert(Name.substr(strlen("phaseprobe-")));
    }
    closedir(Dir);
  }
  return Cmds;
}

static void usage(FILE *Out) {
  std::fprintf(Out,
               "usage: phaseprobe <command> [args...]\n"
               "       phaseprobe --help | --version\n\n"
               "Runs phaseprobe-<command>. `phaseprobe <command> --help` describes one.\n"
               "Commands found:\n");
  for (const std::string &C : availableCommands()) std::fprintf(Out, "  %s\n", C.c_str());
}

int main(int Argc, char **Argv) {
  if (Argc < 2) {
    usage(stderr);
    return 2;
  }
  std::string Cmd = Argv[1];
  if (Cmd == "--help" || Cmd == "-h" || Cmd == "help") {
    if (Cmd == "help" && Argc > 2) {
      Cmd = Argv[2]; // `phaseprobe help estimate` == `phaseprobe estimate --help`
      static char HelpFlag[] = "--help";
      Argv[1] = Argv[2];
      Argv[2] = HelpFlag;
    } else {
      usage(stdout);
      return 0;
    }
  }
  if (Cmd == "--version") {
    std::printf("phaseprobe %s\n", PHASEPROBE_VERSION);
    return 0;
  }
  if (Cmd.empty() || Cmd[0] == '-' || Cmd.find('/') != std::string::npos) {
    std::fprintf(stderr, "phaseprobe: '%s' is not a command (see phaseprobe --help)\n", Cmd.c_str());
    return 2;
  }
  std::string Exe = "phaseprobe-" + Cmd;
  for (const std::string &D : searchDirs()) {
    std::string P = D + "/" + Exe;
    if (!isExecutable(P)) continue;
    std::vector<char *> Args;
    Args.push_back(const_cast<char *>(Exe.c_str()));
    for (int I = 2; I < Argc; ++I) Args.push_back(Argv[I]);
    Args.push_back(nullptr);
    execv(P.c_str(), Args.data());
    std::fprintf(stderr, "phaseprobe: cannot run %s: %s\n", P.c_str(), std::strerror(errno));
    return 1;
  }
  std::fprintf(stderr, "phaseprobe: '%s' is not a phaseprobe command (see phaseprobe --help)\n",
               Cmd.c_str());
  return 2;
}
