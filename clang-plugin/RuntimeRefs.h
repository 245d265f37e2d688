//===- RuntimeRefs.h - What instrumented code refers to in the runtime -*- C++ -*-===//
//
// Strings the runtime is given (private constants, one per distinct text in
// a module) and entry points added after the ABI version was fixed, which
// an object references weakly so that an older runtime still links it
// (runtime/include/phaseprobe/interface.h).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Compat.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

namespace phaseprobe {

/// NUL-terminated string constants of a module, one per distinct text.
class StringPool {
public:
  explicit StringPool(llvm::Module &M) : M(M) {}
  /// A byte pointer to \p S.
  llvm::Constant *get(const std::string &S) {
    llvm::Constant *&C = Strings[S];
    if (!C) {
      llvm::Constant *Text = llvm::ConstantDataArray::getString(M.getContext(), S);
      C = llvm::ConstantExpr::getBitCast(
          new llvm::GlobalVariable(M, Text->getType(), true, llvm::GlobalValue::PrivateLinkage,
                                   Text, "__phaseprobe.str"),
          compat::bytePtrTy(M.getContext()));
    }
    return C;
  }

private:
  llvm::Module &M;
  llvm::StringMap<llvm::Constant *> Strings;
};

/// A pointer to the first of \p Elems, kept in a private constant array
/// \p Name (how the runtime is handed lists: sites, tests, regions).
inline llvm::Constant *constArrayPtr(llvm::Module &M, llvm::Type *Elem,
                                     llvm::ArrayRef<llvm::Constant *> Elems, const char *Name) {
  auto *Ty = llvm::ArrayType::get(Elem, Elems.size());
  auto *G = new llvm::GlobalVariable(M, Ty, true, llvm::GlobalValue::PrivateLinkage,
                                     llvm::ConstantArray::get(Ty, Elems), Name);
  llvm::Type *I32 = llvm::Type::getInt32Ty(M.getContext());
  llvm::Constant *Idx[] = {llvm::ConstantInt::get(I32, 0), llvm::ConstantInt::get(I32, 0)};
  return llvm::ConstantExpr::getInBoundsGetElementPtr(Ty, G, Idx);
}

/// The void runtime function \p Name, declared extern_weak if the module
/// does not declare it yet: null at run time where the runtime lacks it.
inline llvm::Function *weakRuntimeFunction(llvm::Module &M, llvm::StringRef Name,
                                           llvm::ArrayRef<llvm::Type *> Params) {
  if (llvm::Function *F = M.getFunction(Name))
    return F;
  return llvm::Function::Create(
      llvm::FunctionType::get(llvm::Type::getVoidTy(M.getContext()), Params, false),
      llvm::GlobalValue::ExternalWeakLinkage, Name, M);
}

/// Calls \p Fn(\p Args) before \p At where the weak \p Fn resolved at run
/// time (a branch around the call).
inline void callIfResolved(llvm::Instruction *At, llvm::Function *Fn,
                           llvm::ArrayRef<llvm::Value *> Args, const llvm::DebugLoc &DL) {
  llvm::IRBuilder<> B(At);
  llvm::Value *Resolved = B.CreateICmpNE(Fn, llvm::ConstantPointerNull::get(Fn->getType()));
  llvm::Instruction *Then = llvm::SplitBlockAndInsertIfThen(Resolved, At, false);
  B.SetInsertPoint(Then);
  B.CreateCall(Fn, Args)->setDebugLoc(DL);
}

} // namespace phaseprobe
