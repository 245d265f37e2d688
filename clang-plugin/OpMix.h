//===- OpMix.h - The arithmetic a construct's loops do, by kind -*- C++ -*-===//
//
// A phase clone walks its phase's streams and is padded with dependent
// multiply-adds up to the phase's time per iteration on the base node. On
// a node of another CPU design the padding moves like a multiply-add chain
// while the phase's own arithmetic moves like its own mix: on the project's
// two VMs a dependent add got 1.65x faster from the AMD EPYC to the Intel
// Xeon, a multiply 1.13x, the padding step 1.16x, nbody's force loop 1.50x
// (bench/results/accuracy-2026-11-24-cross-du-*: padding-steps-compute.txt,
// phase-speedups.txt). So the plugin
// counts, per construct, the floating-point operations of the loop bodies
// it runs, by kind, and the estimator prices a padded clone's padding on
// another design with the compute uBs of the same kinds.
//
// Counted on clang's unoptimized IR, before any probe: per instruction (a
// vector one counts its lanes), in the innermost loops of the construct's
// code, and in the functions those loops call (defined in the object, a
// few calls deep; a loop-free function counts whole). Static counts: only
// the mix's proportions are meant, not the number of operations an
// iteration executes.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/PassManager.h"

#include <cstdint>

namespace llvm {
class BasicBlock;
class CallBase;
class Function;
} // namespace llvm

namespace phaseprobe {

/// Floating-point operations by kind; the order is the runtime's
/// (__phaseprobe_op_mix: PHASEPROBE_OP_KINDS counts per construct).
struct OpMix {
  uint32_t add = 0;  ///< fadd, fsub (a fused multiply-add counts here and in mul)
  uint32_t mul = 0;  ///< fmul
  uint32_t div = 0;  ///< fdiv, frem
  uint32_t sqrt = 0; ///< sqrt (the intrinsic or the C library's)
  uint32_t math = 0; ///< other C library math: exp, log, pow, sin, ...

  OpMix &operator+=(const OpMix &O);
};

class OpMixCounter {
public:
  explicit OpMixCounter(llvm::FunctionAnalysisManager &FAM) : FAM(FAM) {}

  /// A parallel region's: its outlined body and what it calls.
  OpMix ofFunction(llvm::Function &F) { return function(F, 0); }
  /// A worksharing construct's: the code from its init call \p Init up to
  /// its end call \p Fini (to the function's end without one).
  OpMix ofConstruct(llvm::CallBase &Init, llvm::CallBase *Fini);

private:
  OpMix function(llvm::Function &F, unsigned Depth);
  OpMix blocks(llvm::Function &F, const llvm::SmallPtrSetImpl<llvm::BasicBlock *> &Blocks,
               unsigned Depth);

  llvm::FunctionAnalysisManager &FAM;
  llvm::DenseMap<std::pair<llvm::Function *, unsigned>, OpMix> Memo; ///< by function and depth
  llvm::SmallPtrSet<llvm::Function *, 8> Open; ///< on the call path: recursion counts nothing
};

} // namespace phaseprobe
