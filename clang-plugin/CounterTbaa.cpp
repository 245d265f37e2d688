//===- CounterTbaa.cpp - Type-based alias tag for phaseprobe's counters ---===//
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

void tagCounterAccess(Instruction *I, MDNode *Tag) {
  if (I && Tag)
    I->setMetadata(LLVMContext::MD_tbaa, Tag);
}

} // namespace phaseprobe
