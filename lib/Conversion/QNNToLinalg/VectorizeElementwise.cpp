//===- VectorizeElementwise.cpp - qnn-vectorize-elementwise
//----------------===//
//
// Tiles every elementwise linalg.generic (all loops parallel, static
// shapes, on tensors) along its innermost dimension and vectorizes the
// tiles with the upstream linalg vectorizer: requantize epilogues, bias
// additions, clamps, activations (lookup tables become vector.gather),
// binary ops. The integers are unchanged: the same scalar body is applied
// lane by lane. Ops the vectorizer rejects stay as they are (scalar loops
// later).
//
//===----------------------------------------------------------------------===//

#include "QNN/Conversion/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::qnn {
#define GEN_PASS_DEF_VECTORIZEELEMENTWISE
#include "QNN/Conversion/Passes.h.inc"
} // namespace mlir::qnn

using namespace mlir;

/// The tile of the innermost dimension, or 0 to leave the op alone.
static int64_t innerTile(int64_t size, int64_t maxWidth) {
  if (size < 4)
    return 0;
  if (size <= maxWidth)
    return size;
  for (int64_t v = maxWidth; v >= 4; v /= 2)
    if (size % v == 0)
      return v;
  return 0;
}

namespace {
struct VectorizeElementwisePass
    : qnn::impl::VectorizeElementwiseBase<VectorizeElementwisePass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<linalg::GenericOp> candidates;
    getOperation().walk([&](linalg::GenericOp op) {
      if (!op.hasPureTensorSemantics() || op.getNumLoops() == 0 ||
          op.getNumParallelLoops() != op.getNumLoops() || op.hasDynamicShape())
        return;
      candidates.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp op : candidates) {
      SmallVector<int64_t> ranges = op.getStaticLoopRanges();
      int64_t tile = innerTile(ranges.back(), width);
      if (tile == 0)
        continue;
      SmallVector<OpFoldResult> sizes(ranges.size() - 1,
                                      rewriter.getIndexAttr(1));
      sizes.push_back(rewriter.getIndexAttr(tile));
      scf::SCFTilingOptions options;
      options.setTileSizes(sizes);
      rewriter.setInsertionPoint(op);
      FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
          rewriter, cast<TilingInterface>(op.getOperation()), options);
      if (failed(tiled))
        continue;
      rewriter.replaceOp(op, tiled->replacements);
      Operation *inner = tiled->tiledOps.back();
      rewriter.setInsertionPoint(inner);
      FailureOr<linalg::VectorizationResult> vectorized =
          linalg::vectorize(rewriter, inner, /*inputVectorSizes=*/{},
                            /*inputScalableVecDims=*/{},
                            /*vectorizeNDExtract=*/true);
      if (succeeded(vectorized))
        rewriter.replaceOp(inner, vectorized->replacements);
    }
    // Drop the unit dimensions of the tiles' vectors.
    RewritePatternSet patterns(&getContext());
    vector::populateCastAwayVectorLeadingOneDimPatterns(patterns);
    vector::populateVectorTransferDropUnitDimsPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
