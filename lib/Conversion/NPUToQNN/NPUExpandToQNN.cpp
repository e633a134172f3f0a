//===- NPUExpandToQNN.cpp - npu operators back to qnn sequences -----------===//
//
// Each fused npu operator is rewritten into the qnn (and tosa) operators that
// compute the same integers, so that the CPU backend (convert-qnn-to-linalg)
// compiles programs produced by --qnn-to-npu. The arithmetic follows
// lib/Dialect/NPU/Reference/NPUEvaluator.cpp exactly:
//   conv/fc: qnn.conv2d|dense -> tosa.add bias -> qnn.requantize (8-bit,
//            per-channel scale double(in) * double(w[o])) -> epilogue
//   add:     qnn.add -> epilogue
//   pools:   qnn.avg_pool2d|max_pool2d (NHWC) -> epilogue
// The epilogue clamps to [act_min, act_max] (tosa.clamp, only when narrower
// than the storage range); leaky_relu and lut become one 256-entry table
// lookup, indexed by the low byte of the stored value, whose entries are the
// clamp followed by the activation computed at compile time.
//
//===----------------------------------------------------------------------===//

#include "NPU/IR/NPUDialect.h"
#include "NPU/IR/NPUOps.h"
#include "QNN/Conversion/Passes.h"
#include "QNN/IR/QNNDialect.h"
#include "QNN/IR/QNNOps.h"
#include "QNN/Utils/QuantMath.h"
#include "QNN/Utils/QuantUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <algorithm>

namespace mlir::qnn {
#define GEN_PASS_DEF_NPUEXPANDTOQNN
#include "QNN/Conversion/Passes.h.inc"
} // namespace mlir::qnn

using namespace mlir;
using namespace mlir::qnn;
namespace qmath = mlir::qnn::math;

namespace {

/// Reshapes a rank-1 i32 bias `[O]` to `rank` dimensions with O last.
Value expandBias(PatternRewriter &rewriter, Location loc, Value bias,
                 int64_t rank) {
  auto type = cast<RankedTensorType>(bias.getType());
  SmallVector<int64_t> shape(rank, 1);
  shape.back() = type.getDimSize(0);
  ReassociationIndices all;
  for (int64_t i = 0; i < rank; ++i)
    all.push_back(i);
  return tensor::ExpandShapeOp::create(
      rewriter, loc, RankedTensorType::get(shape, type.getElementType()), bias,
      ArrayRef<ReassociationIndices>{all});
}

/// The per-channel requantize of a conv or fully connected accumulator.
template <typename OpTy>
Value requantize(PatternRewriter &rewriter, OpTy op, Value acc, int64_t axis) {
  SmallVector<double> scales;
  double inputScale = op.getInputScale().convertToFloat();
  for (float ws : op.getWeightScale())
    scales.push_back(inputScale * static_cast<double>(ws));
  auto accType = cast<RankedTensorType>(acc.getType());
  auto resultType = RankedTensorType::get(
      accType.getShape(), op.getOutput().getType().getElementType());
  return RequantizeOp::create(
      rewriter, op.getLoc(), resultType, acc,
      rewriter.getDenseF64ArrayAttr(scales), rewriter.getI32IntegerAttr(0),
      op.getOutputScaleAttr(), op.getOutputZeroPointAttr(),
      scales.size() > 1 ? rewriter.getI64IntegerAttr(axis) : IntegerAttr(),
      RoundingAttr::get(op.getContext(), op.getRounding()));
}

/// The common tail of conv and fully connected: adds the optional bias to
/// the i32 accumulators `acc` (channels on `channelAxis`, the last axis),
/// requantizes, applies the activation epilogue and replaces `op`.
template <typename OpTy>
LogicalResult replaceWithRequantized(PatternRewriter &rewriter, OpTy op,
                                     Value acc, int64_t channelAxis) {
  if (Value bias = op.getBias())
    acc = tosa::AddOp::create(
        rewriter, op.getLoc(), acc.getType(), acc,
        expandBias(rewriter, op.getLoc(), bias, channelAxis + 1));
  Value y = requantize(rewriter, op, acc, channelAxis);
  rewriter.replaceOp(op, applyNPUActivation(rewriter, op, y));
  return success();
}

/// npu.conv2d (channels on axis 3) and npu.fully_connected (axis 1):
/// the qnn accumulator, then bias, requantize and activation.
template <typename OpTy, int64_t channelAxis>
struct ExpandConvLike : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    return replaceWithRequantized(rewriter, op, createNPUCore(rewriter, op),
                                  channelAxis);
  }
};

/// npu.add and the pools: the qnn operator, then the activation.
template <typename OpTy> struct ExpandWithActivation : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOp(
        op, applyNPUActivation(rewriter, op, createNPUCore(rewriter, op)));
    return success();
  }
};

/// Checks what the patterns assume, with a precise diagnostic.
LogicalResult validate(Operation *op) {
  for (Type type : op->getOperandTypes())
    if (auto shaped = dyn_cast<ShapedType>(type);
        !shaped || !shaped.hasStaticShape())
      return op->emitError("npu-expand-to-qnn needs statically shaped "
                           "operands, got ")
             << type;
  if (auto conv = dyn_cast<npu::Conv2DOp>(op))
    if (static_cast<int32_t>(conv.getPadValue()) !=
            static_cast<int32_t>(conv.getInputZeroPoint()) &&
        llvm::any_of(conv.getPadding(), [](int64_t p) { return p != 0; }))
      return op->emitError("pad_value ")
             << static_cast<int32_t>(conv.getPadValue())
             << " differs from the input zero point "
             << static_cast<int32_t>(conv.getInputZeroPoint())
             << "; qnn.conv2d pads with the input zero point";
  auto kind = op->getAttrOfType<npu::ActivationAttr>("activation");
  if (kind && kind.getValue() == npu::Activation::leaky_relu) {
    auto params = op->getAttrOfType<DenseI32ArrayAttr>("leaky_params");
    if (!params || params.size() != 5 ||
        !op->getAttrOfType<IntegerAttr>("output_zero_point"))
      return op->emitError("leaky_relu epilogue needs leaky_params (5 "
                           "values) and an output zero point");
  }
  if (kind && kind.getValue() == npu::Activation::lut) {
    auto lut = op->getAttrOfType<DenseI32ArrayAttr>("lut");
    if (!lut || lut.size() != 256)
      return op->emitError("lut epilogue needs 256 table entries");
  }
  return success();
}

struct NPUExpandToQNNPass : qnn::impl::NPUExpandToQNNBase<NPUExpandToQNNPass> {
  void runOnOperation() override {
    WalkResult valid = getOperation().walk([](Operation *op) {
      if (isa<npu::NPUDialect>(op->getDialect()) && failed(validate(op)))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (valid.wasInterrupted()) {
      signalPassFailure();
      return;
    }
    RewritePatternSet patterns(&getContext());
    patterns.add<ExpandConvLike<npu::Conv2DOp, 3>,
                 ExpandConvLike<npu::FullyConnectedOp, 1>,
                 ExpandWithActivation<npu::AddOp>,
                 ExpandWithActivation<npu::AvgPool2DOp>,
                 ExpandWithActivation<npu::MaxPool2DOp>>(&getContext());
    GreedyRewriteConfig config;
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns),
                                     config))) {
      signalPassFailure();
      return;
    }
    // Anything left (an op a pattern refused) is an error with a location.
    WalkResult walk = getOperation().walk([](Operation *op) {
      if (isa<npu::NPUDialect>(op->getDialect())) {
        op->emitError("npu-expand-to-qnn: cannot expand this operator");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace

Value qnn::applyNPUActivation(OpBuilder &rewriter, Operation *op, Value value) {
  Location loc = op->getLoc();
  auto type = cast<RankedTensorType>(value.getType());
  Type element = type.getElementType();
  auto [qmin, qmax] = getStorageRange(element);
  npu::Activation kind =
      op->getAttrOfType<npu::ActivationAttr>("activation").getValue();
  int64_t actMin =
      static_cast<int32_t>(op->getAttrOfType<IntegerAttr>("act_min").getInt());
  int64_t actMax =
      static_cast<int32_t>(op->getAttrOfType<IntegerAttr>("act_max").getInt());

  if (kind != npu::Activation::leaky_relu && kind != npu::Activation::lut) {
    if (actMin <= qmin && actMax >= qmax)
      return value;
    return tosa::ClampOp::create(
               rewriter, loc, type, value,
               rewriter.getIntegerAttr(element, std::max(actMin, qmin)),
               rewriter.getIntegerAttr(element, std::min(actMax, qmax)))
        .getResult();
  }

  // The whole epilogue as a function of the stored byte (validate()
  // checked the attributes it reads).
  SmallVector<int32_t> table = *npu::getActivationTable(op);

  // tosa.cast to i32, lookup in a linalg.generic on signless i32, cast back.
  Type i32 = rewriter.getI32Type();
  auto wideType = RankedTensorType::get(type.getShape(), i32);
  Value wide = tosa::CastOp::create(rewriter, loc, wideType, value);
  auto tableType = RankedTensorType::get({256}, i32);
  Value tableValue = arith::ConstantOp::create(
      rewriter, loc, DenseElementsAttr::get(tableType, ArrayRef(table)));
  Value init = tensor::EmptyOp::create(rewriter, loc, type.getShape(), i32);
  int64_t rank = type.getRank();
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      rewriter, loc, TypeRange{wideType}, ValueRange{wide}, ValueRange{init},
      ArrayRef<AffineMap>{rewriter.getMultiDimIdentityMap(rank),
                          rewriter.getMultiDimIdentityMap(rank)},
      iterators, [&](OpBuilder &b, Location l, ValueRange args) {
        Value mask = arith::ConstantIntOp::create(b, l, i32, 255);
        Value low = arith::AndIOp::create(b, l, args[0], mask);
        Value index = arith::IndexCastOp::create(b, l, b.getIndexType(), low);
        Value entry =
            tensor::ExtractOp::create(b, l, tableValue, ValueRange{index});
        linalg::YieldOp::create(b, l, entry);
      });
  return tosa::CastOp::create(rewriter, loc, type, generic.getResult(0))
      .getResult();
}

Value qnn::createNPUCore(OpBuilder &b, Operation *op) {
  Location loc = op->getLoc();
  if (auto conv = dyn_cast<npu::Conv2DOp>(op))
    return Conv2DOp::create(
        b, loc, conv.getInput(), conv.getWeight(),
        conv.getInputScale().convertToFloat(),
        static_cast<int32_t>(conv.getInputZeroPoint()), conv.getWeightScale(),
        static_cast<int32_t>(conv.getWeightZeroPoint()), conv.getStrides(),
        conv.getPadding(), conv.getDilations(), conv.getGroups(),
        ActivationLayout::NHWC, KernelLayout::OHWI);
  if (auto fc = dyn_cast<npu::FullyConnectedOp>(op))
    return DenseOp::create(b, loc, fc.getInput(), fc.getWeight(),
                           fc.getInputScale().convertToFloat(),
                           static_cast<int32_t>(fc.getInputZeroPoint()),
                           fc.getWeightScale(),
                           static_cast<int32_t>(fc.getWeightZeroPoint()));
  if (auto add = dyn_cast<npu::AddOp>(op))
    return AddOp::create(b, loc, add.getOutput().getType(), add.getLhs(),
                         add.getRhs(), add.getLhsScaleAttr(),
                         add.getLhsZeroPointAttr(), add.getRhsScaleAttr(),
                         add.getRhsZeroPointAttr(), add.getOutputScaleAttr(),
                         add.getOutputZeroPointAttr(), add.getRoundingAttr());
  auto pool = [&](auto p, auto tag) -> Value {
    using QNNPool = decltype(tag);
    return QNNPool::create(b, loc, p.getOutput().getType(), p.getInput(),
                           p.getKernel(), p.getStrides(), p.getPadding(),
                           ActivationLayout::NHWC);
  };
  if (auto avg = dyn_cast<npu::AvgPool2DOp>(op))
    return pool(avg, AvgPool2DOp());
  if (auto max = dyn_cast<npu::MaxPool2DOp>(op))
    return pool(max, MaxPool2DOp());
  return {};
}
