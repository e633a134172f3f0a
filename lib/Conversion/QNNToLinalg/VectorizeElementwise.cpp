//===- VectorizeElementwise.cpp - qnn-vectorize-elementwise
//----------------===//
//
// Tiles every elementwise linalg.generic (all loops parallel, static
// shapes, on tensors) along its innermost dimension and vectorizes the
// tiles with the upstream linalg vectorizer: requantize epilogues, bias
// additions, clamps, activations (lookup tables become vector.gather),
// binary ops. The integers are unchanged: the same scalar body is applied
// lane by lane. Reductions along an innermost parallel dimension (NHWC
// pools, MEAN) are vectorized along it too. Ops the vectorizer rejects
// stay as they are (scalar loops later).
//
//===----------------------------------------------------------------------===//

#include "QNN/Conversion/Passes.h"
#include "QNNToLinalgInternal.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <algorithm>

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

/// The widest integer or float type among the op's operands and the
/// values its body computes.
static int64_t widestBits(linalg::LinalgOp op) {
  int64_t bits = 0;
  auto note = [&](Type t) {
    t = getElementTypeOrSelf(t);
    if (t.isIntOrFloat())
      bits = std::max<int64_t>(bits, t.getIntOrFloatBitWidth());
    else
      bits = 64; // index and others: the narrowest tiles
  };
  for (Value v : op->getOperands())
    note(v.getType());
  op->walk([&](Operation *inner) {
    if (inner != op.getOperation())
      for (Type t : inner->getResultTypes())
        note(t);
  });
  return bits;
}

/// Whether `v` is a slice of a larger tensor, possibly behind reshapes
/// (an NCHW input of one channel is an expand_shape of the NHWC slice it
/// is copied into): its buffer need not be contiguous, nor its rows whole.
static bool isSliceOrReshapedSlice(Value v) {
  while (true) {
    if (v.getDefiningOp<tensor::ExtractSliceOp>())
      return true;
    if (auto expand = v.getDefiningOp<tensor::ExpandShapeOp>())
      v = expand.getSrc();
    else if (auto collapse = v.getDefiningOp<tensor::CollapseShapeOp>())
      v = collapse.getSrc();
    else
      return false;
  }
}

/// For a generic with reduction loops (pooling windows, sums over H and W):
/// the loop that indexes the innermost dimension of its output, when it is
/// a parallel loop that every operand using it reads as its own innermost
/// dimension (and nowhere else), so that a tile of it is a contiguous vector
/// of every operand; -1 otherwise.
static int64_t contiguousParallelLoop(linalg::GenericOp op) {
  if (op.getNumDpsInits() != 1)
    return -1;
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (outMap.getNumResults() == 0)
    return -1;
  auto last = dyn_cast<AffineDimExpr>(outMap.getResults().back());
  if (!last || op.getIteratorTypesArray()[last.getPosition()] !=
                   utils::IteratorType::parallel)
    return -1;
  unsigned dim = last.getPosition();
  for (AffineMap map : op.getIndexingMapsArray()) {
    ArrayRef<AffineExpr> results = map.getResults();
    for (size_t r = 0; r < results.size(); ++r)
      if (results[r].isFunctionOfDim(dim) &&
          (r + 1 != results.size() || results[r] != last))
        return -1;
  }
  return dim;
}

/// A tile of a reduction generic whose loops all have extent 1 but the last:
/// the same body as a one-dimensional elementwise generic over that loop
/// (a reduction over one element is one application of the body), each
/// operand collapsed to the vector it is when it uses the last loop, else
/// its one element as a scalar input; the result expanded back. The
/// vectorizer takes elementwise ops whatever their operands' original maps
/// were (a pooling window's strided input is no projected permutation).
/// Null when an operand is not of that shape.
static linalg::GenericOp asElementwiseTile(RewriterBase &rewriter,
                                           linalg::GenericOp op) {
  MLIRContext *ctx = op.getContext();
  int64_t last = op.getNumLoops() - 1;
  int64_t tile = op.getStaticLoopRanges().back();
  Location loc = op.getLoc();
  auto usesLast = [&](OpOperand &operand) {
    return op.getMatchingIndexingMap(&operand).isFunctionOfDim(last);
  };
  // Every operand first, so that a rejected op leaves no new operations.
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<RankedTensorType>(operand.get().getType());
    if (!type || (!usesLast(operand) && op.isDpsInit(&operand)))
      return nullptr;
    ArrayRef<int64_t> shape = type.getShape();
    for (size_t d = 0; d < shape.size(); ++d)
      if (shape[d] != (usesLast(operand) && d + 1 == shape.size() ? tile : 1))
        return nullptr;
  }
  SmallVector<Value> operands;
  SmallVector<AffineMap> maps;
  rewriter.setInsertionPoint(op);
  for (OpOperand &operand : op->getOpOperands()) {
    int64_t rank = cast<RankedTensorType>(operand.get().getType()).getRank();
    if (!usesLast(operand)) {
      // One element: a scalar input (the vectorizer broadcasts it).
      SmallVector<Value> zeros(rank,
                               arith::ConstantIndexOp::create(rewriter, loc, 0));
      operands.push_back(
          tensor::ExtractOp::create(rewriter, loc, operand.get(), zeros));
      maps.push_back(AffineMap::get(1, 0, {}, ctx));
      continue;
    }
    operands.push_back(
        rank == 1 ? operand.get()
                  : tensor::CollapseShapeOp::create(
                        rewriter, loc, operand.get(),
                        SmallVector<ReassociationIndices>{
                            llvm::to_vector(llvm::seq<int64_t>(0, rank))})
                        .getResult());
    maps.push_back(AffineMap::getMultiDimIdentityMap(1, ctx));
  }
  int64_t numInputs = op.getNumDpsInputs();
  auto flat = linalg::GenericOp::create(
      rewriter, loc,
      TypeRange{operands.back().getType()},
      ArrayRef<Value>(operands).take_front(numInputs),
      ArrayRef<Value>(operands).drop_front(numInputs), maps,
      {utils::IteratorType::parallel});
  rewriter.cloneRegionBefore(op.getRegion(), flat.getRegion(),
                             flat.getRegion().end());
  Value result = flat.getResult(0);
  auto resultType = cast<RankedTensorType>(op.getResult(0).getType());
  if (resultType.getRank() != 1)
    result = tensor::ExpandShapeOp::create(
        rewriter, loc, resultType, result,
        SmallVector<ReassociationIndices>{llvm::to_vector(
            llvm::seq<int64_t>(0, resultType.getRank()))});
  rewriter.replaceOp(op, result);
  return flat;
}

/// Tiles `op` along its last loop by up to `maxLanes` (innerTile) and
/// every other loop by 1, as `scf.forall` loops when `forall`, and
/// replaces it; the tile's op, or null when there is no tile or the
/// tiling fails.
static Operation *tileInnermost(RewriterBase &rewriter, linalg::LinalgOp op,
                                int64_t maxLanes, bool forall) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t tile = innerTile(ranges.back(), maxLanes);
  if (tile == 0)
    return nullptr;
  SmallVector<OpFoldResult> sizes(ranges.size() - 1, rewriter.getIndexAttr(1));
  sizes.push_back(rewriter.getIndexAttr(tile));
  scf::SCFTilingOptions options;
  options.setTileSizes(sizes);
  if (forall)
    options.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
      rewriter, cast<TilingInterface>(op.getOperation()), options);
  if (failed(tiled))
    return nullptr;
  rewriter.replaceOp(op, tiled->replacements);
  return tiled->tiledOps.back();
}

/// Replaces `op` by its vector form when the upstream vectorizer takes it.
static void vectorizeTile(RewriterBase &rewriter, Operation *op) {
  rewriter.setInsertionPoint(op);
  FailureOr<linalg::VectorizationResult> vectorized =
      linalg::vectorize(rewriter, op, /*inputVectorSizes=*/{},
                        /*inputScalableVecDims=*/{},
                        /*vectorizeNDExtract=*/true);
  if (succeeded(vectorized))
    rewriter.replaceOp(op, vectorized->replacements);
}

/// The lanes of a tile: `width` lanes of the widest type the op computes
/// with (32 bits for the requantize epilogues); an op on bytes only
/// (padding fills and copies, the sign flip of an int8 input) moves 4 *
/// width bytes per step, one on 16 bits 2 * width lanes.
static int64_t laneCount(linalg::LinalgOp op, int64_t width) {
  return width * 32 / std::clamp<int64_t>(widestBits(op), 8, 32);
}

namespace {
struct VectorizeElementwisePass
    : qnn::impl::VectorizeElementwiseBase<VectorizeElementwisePass> {
  using Base::Base;

  void runOnOperation() override {
    // Statically shaped pads by a constant become fill + copy, which the
    // loop below vectorizes like the kernels' own padding.
    IRRewriter rewriter(&getContext());
    getOperation().walk([&](tensor::PadOp pad) {
      Value padValue = pad.getConstantPaddingValue();
      if (!padValue || !pad.getResultType().hasStaticShape() ||
          !pad.getSourceType().hasStaticShape() || pad.getNofold() ||
          llvm::any_of(pad.getStaticLow(), ShapedType::isDynamic) ||
          llvm::any_of(pad.getStaticHigh(), ShapedType::isDynamic))
        return;
      rewriter.setInsertionPoint(pad);
      // A constant yielded from inside the pad's body moves out with it.
      if (padValue.getParentRegion() == &pad.getRegion())
        padValue = rewriter.clone(*padValue.getDefiningOp())->getResult(0);
      rewriter.replaceOp(pad, qnn::lowering::padWithFillAndCopy(
                                  rewriter, pad.getLoc(), pad.getSource(),
                                  pad.getStaticLow(), pad.getStaticHigh(),
                                  padValue));
    });
    // Elementwise generics, and the fills and copies that pad activations.
    SmallVector<linalg::LinalgOp> candidates;
    // Reductions, with the loop to vectorize (contiguousParallelLoop).
    SmallVector<std::pair<linalg::GenericOp, int64_t>> reductions;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (!isa<linalg::GenericOp, linalg::CopyOp, linalg::FillOp>(
              op.getOperation()))
        return;
      if (!op.hasPureTensorSemantics() || op.getNumLoops() == 0 ||
          op.hasDynamicShape())
        return;
      if (op.getNumParallelLoops() == op.getNumLoops())
        candidates.push_back(op);
      else if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
               generic && !generic.hasIndexSemantics())
        if (int64_t dim = contiguousParallelLoop(generic); dim >= 0)
          reductions.push_back({generic, dim});
    });
    // Reductions along an innermost parallel dimension (average and max
    // pools, MEAN): that loop moves innermost and is tiled by up to
    // `width` lanes, every other loop by 1, all as scf.for (a reduction
    // loop carries its output, so no forall): each step reads a vector of
    // the input and combines it into a vector of the output. As scalar
    // loops, MobileNet v2's 7x7x1280 mean took 1.4% of the network.
    for (auto [op, dim] : reductions) {
      int64_t lanes = laneCount(op, width);
      if (innerTile(op.getStaticLoopRanges()[dim], lanes) == 0)
        continue;
      if (dim + 1 != int64_t(op.getNumLoops())) {
        SmallVector<unsigned> order;
        for (unsigned d = 0; d < op.getNumLoops(); ++d)
          if (d != dim)
            order.push_back(d);
        order.push_back(dim);
        rewriter.setInsertionPoint(op);
        FailureOr<linalg::GenericOp> moved =
            linalg::interchangeGenericOp(rewriter, op, order);
        if (failed(moved))
          continue;
        op = *moved;
      }
      Operation *tile = tileInnermost(rewriter, op, lanes, /*forall=*/false);
      if (!tile)
        continue;
      if (linalg::GenericOp inner =
              asElementwiseTile(rewriter, cast<linalg::GenericOp>(tile)))
        vectorizeTile(rewriter, inner);
    }
    // Candidates may grow: the tail of a split op is one more.
    for (size_t i = 0; i < candidates.size(); ++i) {
      linalg::LinalgOp op = candidates[i];
      // An op on whole tensors: identity maps, new outputs, no operand that
      // is a slice, so every buffer is contiguous.
      auto wholeTensor = [](Value v) { return !isSliceOrReshapedSlice(v); };
      auto newTensor = [](Value v) {
        while (auto reshape = v.getDefiningOp<tensor::ExpandShapeOp>())
          v = reshape.getSrc();
        return static_cast<bool>(v.getDefiningOp<tensor::EmptyOp>());
      };
      int64_t opWidth = laneCount(op, width);
      int64_t innerSize = op.getStaticLoopRanges().back();
      // Identity maps on whole tensors run over one flattened dimension
      // (no index arithmetic per tile: 56x56x128 in tiles of one row's
      // channels took a division per vector); so does a narrow innermost
      // dimension (3 input channels; a padded row of 900 bytes).
      if (op.getNumLoops() > 1 &&
          isa<linalg::GenericOp, linalg::FillOp>(op.getOperation()) &&
          llvm::all_of(op.getIndexingMapsArray(),
                       [](AffineMap m) {
                         return m.isIdentity() || m.getNumResults() == 0;
                       }) &&
          llvm::all_of(op.getDpsInits(), newTensor) &&
          llvm::all_of(op.getDpsInputs(), wholeTensor)) {
        ReassociationIndices all =
            llvm::to_vector(llvm::seq<int64_t>(0, op.getNumLoops()));
        rewriter.setInsertionPoint(op);
        FailureOr<linalg::CollapseResult> collapsed =
            linalg::collapseOpIterationDims(op, {all}, rewriter);
        if (succeeded(collapsed)) {
          rewriter.replaceOp(op, collapsed->results);
          op = collapsed->collapsedOp;
        }
      }
      // A copy into (or out of) whole rows of a padded tensor: every
      // operand spans its tensor's last dimension, so the last two
      // dimensions are contiguous and run as one (a row of W * C bytes
      // rather than W steps of C).
      if (auto copy = dyn_cast<linalg::CopyOp>(op.getOperation());
          copy && op.getNumLoops() >= 2 &&
          innerTile(op.getStaticLoopRanges().back(), opWidth) < opWidth) {
        auto fullRows = [](Value v) {
          auto type = cast<RankedTensorType>(v.getType());
          auto slice = v.getDefiningOp<tensor::ExtractSliceOp>();
          if (!slice)
            return !isSliceOrReshapedSlice(v);
          ArrayRef<int64_t> strides = slice.getStaticStrides();
          return slice.getSourceType().getShape().back() ==
                     type.getShape().back() &&
                 strides.size() >= 2 && strides.back() == 1 &&
                 strides[strides.size() - 2] == 1;
        };
        if (fullRows(copy.getInputs()[0]) && fullRows(copy.getOutputs()[0])) {
          SmallVector<ReassociationIndices> groups;
          int64_t rank = op.getNumLoops();
          for (int64_t d = 0; d + 2 < rank; ++d)
            groups.push_back({d});
          groups.push_back({rank - 2, rank - 1});
          rewriter.setInsertionPoint(op);
          FailureOr<linalg::CollapseResult> collapsed =
              linalg::collapseOpIterationDims(op, groups, rewriter);
          if (succeeded(collapsed)) {
            rewriter.replaceOp(op, collapsed->results);
            op = collapsed->collapsedOp;
          }
        }
      }
      // A long dimension that no wide tile divides: full-width tiles up to
      // the last multiple of `width`, the rest as an op of its own.
      innerSize = op.getStaticLoopRanges().back();
      if (op.getNumLoops() == 1 && innerSize > opWidth &&
          innerSize % opWidth != 0 && innerTile(innerSize, opWidth) < opWidth) {
        rewriter.setInsertionPoint(op);
        auto [head, tail] = linalg::splitOp(
            rewriter, cast<TilingInterface>(op.getOperation()), 0,
            rewriter.getIndexAttr(innerSize - innerSize % opWidth));
        if (head && tail) {
          op = cast<linalg::LinalgOp>(head.getOperation());
          candidates.push_back(cast<linalg::LinalgOp>(tail.getOperation()));
        }
      }
      int64_t elements = 1;
      for (int64_t r : op.getStaticLoopRanges())
        elements *= r;
      if (Operation *tile =
              tileInnermost(rewriter, op, opWidth,
                            parallel && elements >= parallelMinElements))
        vectorizeTile(rewriter, tile);
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
