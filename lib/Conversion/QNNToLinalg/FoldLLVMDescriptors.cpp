//===- FoldLLVMDescriptors.cpp - qnn-fold-llvm-descriptors ----------------===//
//
// Folds the reads of memref descriptor fields (llvm.extractvalue of an
// llvm.insertvalue chain) to the inserted values, so that OpenMP regions
// use the kernels' pointer arguments instead of capturing whole
// descriptors, and erases the chains left unused.
//
//===----------------------------------------------------------------------===//

#include "QNN/Conversion/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::qnn {
#define GEN_PASS_DEF_FOLDLLVMDESCRIPTORS
#include "QNN/Conversion/Passes.h.inc"
} // namespace mlir::qnn

using namespace mlir;

namespace {
struct FoldLLVMDescriptorsPass
    : qnn::impl::FoldLLVMDescriptorsBase<FoldLLVMDescriptorsPass> {
  void runOnOperation() override {
    SmallVector<LLVM::InsertValueOp> inserts;
    getOperation().walk([&](Operation *op) {
      if (auto insert = dyn_cast<LLVM::InsertValueOp>(op)) {
        inserts.push_back(insert);
        return;
      }
      auto extract = dyn_cast<LLVM::ExtractValueOp>(op);
      if (!extract || !extract.getContainer().getDefiningOp<LLVM::InsertValueOp>())
        return;
      // The op's folder walks the chain back to the insertion of the field
      // (or to a smaller container, folding in place).
      SmallVector<OpFoldResult> folded;
      if (failed(extract->fold(folded)) || folded.size() != 1)
        return;
      auto value = dyn_cast<Value>(folded.front());
      if (!value || value == extract.getResult())
        return;
      extract.getResult().replaceAllUsesWith(value);
      extract->erase();
    });
    // Chains whose struct is no longer read: last insertion first, so
    // that each erasure leaves the one before it unused.
    for (LLVM::InsertValueOp insert : llvm::reverse(inserts))
      if (insert->use_empty())
        insert->erase();
  }
};
} // namespace
