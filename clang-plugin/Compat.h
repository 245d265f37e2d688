//===- Compat.h - LLVM/Clang version-specific API in one place --*- C++ -*-===//
//
// phaseprobe targets LLVM/Clang 14 (Debian 12). Every API whose spelling
// changed in later releases is used only through this header, so a port to a
// newer LLVM edits this file and nothing else. Known changes ahead:
//  - LLVM 15+: opaque pointers (pointer element types disappear; i8* becomes
//    ptr), so typed-pointer helpers below become plain `ptr`.
//  - LLVM 16+: clang::codegenoptions::DebugInfoKind moves to
//    llvm::codegenoptions; the memory attributes of a function
//    (InaccessibleMemOnly, ...) become MemoryEffects.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clang/Basic/CodeGenOptions.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Type.h"

namespace phaseprobe {
namespace compat {

#if LLVM_VERSION_MAJOR < 16
using DebugInfoKind = clang::codegenoptions::DebugInfoKind;
constexpr DebugInfoKind NoDebugInfo = clang::codegenoptions::NoDebugInfo;
constexpr DebugInfoKind LocTrackingOnly = clang::codegenoptions::LocTrackingOnly;
#else
using DebugInfoKind = llvm::codegenoptions::DebugInfoKind;
constexpr DebugInfoKind NoDebugInfo = llvm::codegenoptions::NoDebugInfo;
constexpr DebugInfoKind LocTrackingOnly = llvm::codegenoptions::LocTrackingOnly;
#endif

/// The type of a generic byte pointer (i8* before opaque pointers).
inline llvm::PointerType *bytePtrTy(llvm::LLVMContext &C) {
#if LLVM_VERSION_MAJOR < 15
  return llvm::Type::getInt8PtrTy(C);
#else
  return llvm::PointerType::getUnqual(C);
#endif
}

/// A pointer to \p T in address space 0.
inline llvm::PointerType *pointerTo(llvm::Type *T) {
#if LLVM_VERSION_MAJOR < 15
  return llvm::PointerType::getUnqual(T);
#else
  return llvm::PointerType::getUnqual(T->getContext());
#endif
}

/// Declares that \p F reads or writes no memory the module can name, except
/// through its pointer arguments (whose own attributes can narrow that).
inline void accessesOnlyOwnOrArgMemory(llvm::Function &F) {
#if LLVM_VERSION_MAJOR < 16
  F.addFnAttr(llvm::Attribute::InaccessibleMemOrArgMemOnly);
#else
  F.setMemoryEffects(llvm::MemoryEffects::inaccessibleOrArgMemOnly());
#endif
}

/// Declares that \p F reads or writes no memory the module can name.
inline void accessesOnlyOwnMemory(llvm::Function &F) {
#if LLVM_VERSION_MAJOR < 16
  F.addFnAttr(llvm::Attribute::InaccessibleMemOnly);
#else
  F.setMemoryEffects(llvm::MemoryEffects::inaccessibleMemOnly());
#endif
}

} // namespace compat
} // namespace phaseprobe
