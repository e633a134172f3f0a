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
/// A fixed-point rescale of i32 lanes through i64,
/// trunci(shrsi(addi(muli(extsi(x), M), R), S)) with splat M (within 32
/// signed bits), R and 0 < S < 64, computed on the i32 vector x as it is
/// (little-endian lanes): its i64 view holds lane 2i in the low word and
/// lane 2i + 1 in the high word of element i, so sign-extending the low
/// words ((v << 32) >> 32) and shifting the high words down (v >> 32)
/// gives the even and the odd lanes as i64, and each product plus R is
/// the original's i64 sum. The result is bits S to S + 31 of that sum
/// (above bit 63, its sign). For S <= 32 they are the low word of the
/// sum shifted right by S (even lanes) and the high word of the sum
/// shifted left by 32 - S (odd lanes); for S > 32, the sum's high word
/// (the even lanes' moved down by 32) shifted right by S - 32 as an i32,
/// floor(floor(sum / 2^32) / 2^(S - 32)) being floor(sum / 2^S). A blend
/// takes each lane from its own half. On x86 (logical i64 shifts, which
/// AVX2 has): two vpmuldq, two adds, two shifts and a blend, where the
/// widened form unpacked both halves of x to i64 lanes and packed the
/// results back (vpmovzxdq, vextracti64x4, vpmovqd, vinserti64x4), most
/// of a TFLite ADD's time.
struct EvenOddRescale : OpRewritePattern<arith::TruncIOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::TruncIOp trunc,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<VectorType>(trunc.getType());
    if (!type || type.getRank() != 1 || type.isScalable() ||
        type.getNumElements() % 2 != 0 || !type.getElementType().isInteger(32))
      return failure();
    auto shift = trunc.getIn().getDefiningOp<arith::ShRSIOp>();
    APInt s, r, m;
    if (!shift || !matchPattern(shift.getRhs(), m_ConstantInt(&s)) ||
        s.getBitWidth() != 64 || s.isZero() || s.getZExtValue() > 63)
      return failure();
    // The operand of a commutative `op` beside its splat constant (read
    // into `c`), or null.
    auto beside = [](Operation *op, APInt &c) -> Value {
      if (!op)
        return Value();
      if (matchPattern(op->getOperand(1), m_ConstantInt(&c)))
        return op->getOperand(0);
      if (matchPattern(op->getOperand(0), m_ConstantInt(&c)))
        return op->getOperand(1);
      return Value();
    };
    Value product =
        beside(shift.getLhs().getDefiningOp<arith::AddIOp>(), r);
    Value widened =
        product ? beside(product.getDefiningOp<arith::MulIOp>(), m) : Value();
    auto ext = widened ? widened.getDefiningOp<arith::ExtSIOp>() : nullptr;
    // A power of two is a shift, which LLVM's own folds keep in i32 lanes.
    if (!ext || ext.getIn().getType() != type || !m.isSignedIntN(32) ||
        m.isPowerOf2())
      return failure();

    Location loc = trunc.getLoc();
    int64_t n = type.getNumElements();
    Type i64 = rewriter.getI64Type();
    auto wide = VectorType::get({n / 2}, i64);
    auto splat64 = [&](int64_t v) -> Value {
      return arith::ConstantOp::create(
          rewriter, loc, DenseElementsAttr::get(wide, APInt(64, v, true)));
    };
    Value c32 = splat64(32);
    Value multiplier = splat64(m.getSExtValue());
    Value rounding = splat64(r.getSExtValue());
    Value view = vector::BitCastOp::create(rewriter, loc, wide, ext.getIn());
    Value low = arith::ShLIOp::create(rewriter, loc, view, c32);
    Value even = arith::ShRSIOp::create(rewriter, loc, low, c32);
    Value odd = arith::ShRSIOp::create(rewriter, loc, view, c32);
    Value evenProduct = arith::MulIOp::create(rewriter, loc, even, multiplier);
    Value evenSum = arith::AddIOp::create(rewriter, loc, evenProduct, rounding);
    Value oddProduct = arith::MulIOp::create(rewriter, loc, odd, multiplier);
    Value oddSum = arith::AddIOp::create(rewriter, loc, oddProduct, rounding);
    int64_t bits = s.getZExtValue();
    Value evenShifted = arith::ShRUIOp::create(
        rewriter, loc, evenSum, bits < 32 ? splat64(bits) : c32);
    Value oddShifted = bits < 32 ? arith::ShLIOp::create(rewriter, loc, oddSum,
                                                         splat64(32 - bits))
                                 : oddSum;
    Value evenWords =
        vector::BitCastOp::create(rewriter, loc, type, evenShifted);
    Value oddWords = vector::BitCastOp::create(rewriter, loc, type, oddShifted);
    SmallVector<int64_t> mask;
    for (int64_t i = 0; i < n; ++i)
      mask.push_back(i % 2 == 0 ? i : n + i);
    Value result =
        vector::ShuffleOp::create(rewriter, loc, evenWords, oddWords, mask);
    if (bits > 32) {
      Value amount = arith::ConstantOp::create(
          rewriter, loc, DenseElementsAttr::get(type, APInt(32, bits - 32)));
      result = arith::ShRSIOp::create(rewriter, loc, result, amount);
    }
    rewriter.replaceOp(trunc, result);
    return success();
  }
};

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
    if (evenOddProducts)
      patterns.add<EvenOddRescale>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
