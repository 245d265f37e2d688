//===- CounterTbaa.cpp - phaseprobe's counters, with their own alias tag --===//
#include "CounterTbaa.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace phaseprobe {

/// The root of a struct-path TBAA access tag: base type, then the chain of
/// parents up to the node with a single operand.
static MDNode *rootOf(const MDNode *Tag) {
  if (!Tag || Tag->getNumOperands() < 3)
    return nullptr;
  auto *Node = dyn_cast<MDNode>(Tag->getOperand(0));
  for (unsigned Depth = 0; Node && Depth < 64; ++Depth) {
    if (Node->getNumOperands() < 2)
      return Node;
    Node = dyn_cast<MDNode>(Node->getOperand(1));
  }
  return nullptr;
}

MDNode *counterTbaaTag(Module &M) {
  MDNode *Root = nullptr;
  for (Function &F : M) {
    for (BasicBlock &BB : F) {
      for (Instruction &I : BB)
        if (MDNode *Tag = I.getMetadata(LLVMContext::MD_tbaa))
          if ((Root = rootOf(Tag)))
            break;
      if (Root)
        break;
    }
    if (Root)
      break;
  }
  if (!Root)
    return nullptr;
  MDBuilder B(M.getContext());
  // clang's own node for char, the type that aliases everything; uniqued,
  // so this is the module's node when clang made one.
  MDNode *Char = B.createTBAAScalarTypeNode("omnipotent char", Root);
  MDNode *Counter = B.createTBAAScalarTypeNode("__phaseprobe counter", Char);
  return B.createTBAAStructTagNode(Counter, Counter, 0);
}

GlobalVariable *runtimeCounter(Module &M, const char *Name) {
  if (GlobalVariable *G = M.getGlobalVariable(Name))
    return G;
  return new GlobalVariable(M, Type::getInt64Ty(M.getContext()), false,
                            GlobalValue::ExternalLinkage, nullptr, Name, nullptr,
                            GlobalValue::InitialExecTLSModel);
}

Value *addToCounter(IRBuilder<> &B, Value *Counter, Value *Delta, MDNode *Tag) {
  LoadInst *Was = B.CreateLoad(Delta->getType(), Counter);
  Value *Now = B.CreateAdd(Was, Delta);
  StoreInst *St = B.CreateStore(Now, Counter);
  if (Tag) {
    Was->setMetadata(LLVMContext::MD_tbaa, Tag);
    St->setMetadata(LLVMContext::MD_tbaa, Tag);
  }
  return Now;
}

} // namespace phaseprobe
