//===- CopiesToLinalg.cpp - qnn-copies-to-linalg
//---------------------------===//
//
// Rewrites memref.copy between buffers that are not both contiguous into
// linalg.copy, so that convert-linalg-to-loops turns it into loops that
// LLVM optimizes; finalize-memref-to-llvm would otherwise call the
// runtime's generic memrefCopy, which copies element by element. Copies of
// contiguous buffers stay memref.copy (a memcpy). A copy of a buffer onto
// itself (left by in-place bufferization of an insert_slice into the slice
// it was computed in) is erased.
//
//===----------------------------------------------------------------------===//

#include "QNN/Conversion/Passes.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::qnn {
#define GEN_PASS_DEF_COPIESTOLINALG
#include "QNN/Conversion/Passes.h.inc"
} // namespace mlir::qnn

using namespace mlir;

namespace {
struct EraseSelfCopy : OpRewritePattern<memref::CopyOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(memref::CopyOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getSource() != op.getTarget())
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

struct StridedCopyToLinalg : OpRewritePattern<memref::CopyOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(memref::CopyOp op,
                                PatternRewriter &rewriter) const override {
    auto source = dyn_cast<MemRefType>(op.getSource().getType());
    auto target = dyn_cast<MemRefType>(op.getTarget().getType());
    if (!source || !target || source.getRank() == 0 ||
        op.getSource() == op.getTarget())
      return failure();
    if (source.getLayout().isIdentity() && target.getLayout().isIdentity())
      return failure();
    rewriter.replaceOpWithNewOp<linalg::CopyOp>(op, op.getSource(),
                                                op.getTarget());
    return success();
  }
};

struct CopiesToLinalgPass : qnn::impl::CopiesToLinalgBase<CopiesToLinalgPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<EraseSelfCopy, StridedCopyToLinalg>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
