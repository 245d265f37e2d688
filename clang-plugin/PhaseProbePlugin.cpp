//===- PhaseProbePlugin.cpp - Clang front-end side of libphaseprobe.so ----===//
//
// One shared library is both a Clang plugin and an LLVM pass plugin:
//  - the PluginASTAction below runs before the main action on every compile
//    that loads the library with -fplugin=. Before CodeGen exists it
//    (1) switches on location tracking (LocTrackingOnly: clang's OpenMP
//        ident_t strings then carry real file/line/column, yet no debug
//        info is emitted — the same thing -Rpass does), and
//    (2) adds this library's own path to CodeGenOpts.PassPlugins so that
//        clang's back end loads it again as a pass plugin and calls
//        llvmGetPassPluginInfo (PassPlugin.cpp);
//  - a RecursiveASTVisitor warns about OpenMP constructs that are not
//    instrumented as phases of their own.
// Plugin arguments (-fplugin-arg-phaseprobe-<arg>):
//   no-warn   silence phaseprobe's warnings.
//
//===----------------------------------------------------------------------===//
#include "Compat.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"

#include <dlfcn.h>

using namespace clang;

namespace phaseprobe {
namespace {

// Path of this shared library, from any of its symbols.
std::string ownPath() {
  Dl_info Info;
  if (dladdr(reinterpret_cast<void *>(&ownPath), &Info) && Info.dli_fname)
    return Info.dli_fname;
  return {};
}

class UnsupportedVisitor : public RecursiveASTVisitor<UnsupportedVisitor> {
public:
  UnsupportedVisitor(DiagnosticsEngine &D, bool Offloading) : Diags(D), Offloading(Offloading) {
    TaskId = D.getCustomDiagID(DiagnosticsEngine::Warning,
                               "phaseprobe: '%0' is not instrumented as a phase; its work is "
                               "counted in the phase of the thread that executes it");
    TargetId = D.getCustomDiagID(DiagnosticsEngine::Warning,
                                 "phaseprobe: '%0' offloaded to a device is not instrumented; only "
                                 "its host fallback is measured");
  }

  bool VisitOMPExecutableDirective(OMPExecutableDirective *D) {
    OpenMPDirectiveKind K = D->getDirectiveKind();
    switch (K) {
    case llvm::omp::OMPD_task:
    case llvm::omp::OMPD_taskloop:
    case llvm::omp::OMPD_taskloop_simd:
    case llvm::omp::OMPD_master_taskloop:
    case llvm::omp::OMPD_master_taskloop_simd:
    case llvm::omp::OMPD_parallel_master_taskloop:
    case llvm::omp::OMPD_parallel_master_taskloop_simd:
      Diags.Report(D->getBeginLoc(), TaskId) << llvm::omp::getOpenMPDirectiveName(K);
      break;
    default:
      if (Offloading && isOpenMPTargetExecutionDirective(K))
        Diags.Report(D->getBeginLoc(), TargetId) << llvm::omp::getOpenMPDirectiveName(K);
      break;
    }
    return true;
  }

private:
  DiagnosticsEngine &Diags;
  bool Offloading;
  unsigned TaskId, TargetId;
};

class Consumer : public ASTConsumer {
public:
  Consumer(CompilerInstance &CI, bool Warn) : CI(CI), Warn(Warn) {}
  void HandleTranslationUnit(ASTContext &Ctx) override {
    if (!Warn || !CI.getLangOpts().OpenMP)
      return;
    UnsupportedVisitor V(CI.getDiagnostics(), !CI.getLangOpts().OMPTargetTriples.empty());
    V.TraverseDecl(Ctx.getTranslationUnitDecl());
  }

private:
  CompilerInstance &CI;
  bool Warn;
};

class PhaseProbeAction : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI, StringRef) override {
    // Device compilations of offloaded code are not instrumented.
    if (!CI.getLangOpts().OpenMPIsDevice) {
      CodeGenOptions &CG = CI.getCodeGenOpts();
      if (CG.getDebugInfo() == compat::NoDebugInfo)
        CG.setDebugInfo(compat::LocTrackingOnly);
      std::string Self = ownPath();
      if (!Self.empty() &&
          std::find(CG.PassPlugins.begin(), CG.PassPlugins.end(), Self) == CG.PassPlugins.end())
        CG.PassPlugins.push_back(Self);
    }
    return std::make_unique<Consumer>(CI, Warn && !CI.getLangOpts().OpenMPIsDevice);
  }

  bool ParseArgs(const CompilerInstance &CI, const std::vector<std::string> &Args) override {
    for (const std::string &A : Args) {
      if (A == "no-warn") {
        Warn = false;
      } else {
        DiagnosticsEngine &D = CI.getDiagnostics();
        D.Report(D.getCustomDiagID(DiagnosticsEngine::Error,
                                   "phaseprobe: unknown plugin argument '%0' "
                                   "(known: no-warn)"))
            << A;
        return false;
      }
    }
    return true;
  }

  ActionType getActionType() override { return AddBeforeMainAction; }

private:
  bool Warn = true;
};

} // namespace
} // namespace phaseprobe

static clang::FrontendPluginRegistry::Add<phaseprobe::PhaseProbeAction>
    X("phaseprobe", "instrument OpenMP phases for phaseprobe");
