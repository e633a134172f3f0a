//===- Fuse.cpp - fuse qnn operator chains into npu operators -------------===//

#include "NPU/IR/NPUOps.h"
#include "NPU/Transforms/Passes.h"
#include "QNN/IR/QNNOps.h"
#include "QNN/Utils/QuantMath.h"
#include "QNN/Utils/QuantUtils.h"

#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Format.h"

#include <cmath>

namespace mlir::npu {
#define GEN_PASS_DEF_NPUFUSE
#include "NPU/Transforms/Passes.h.inc"
} // namespace mlir::npu

using namespace mlir;
using namespace mlir::npu;
namespace math = mlir::qnn::math;

namespace {

/// Emits each "not fused" remark once per operation, however often the
/// greedy driver retries the pattern.
struct RemarkOnce {
  llvm::DenseSet<Operation *> seen;
  /// Off in the CPU pipeline, where an unfused chain is not news.
  bool enabled = true;
  LogicalResult operator()(PatternRewriter &rewriter, Operation *op,
                           const Twine &why) {
    if (enabled && seen.insert(op).second)
      op->emitRemark() << why;
    return rewriter.notifyMatchFailure(op, why);
  }
};

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

bool isEightBit(Type type) {
  auto intType = dyn_cast<IntegerType>(getElementTypeOrSelf(type));
  return intType && intType.getWidth() == 8;
}

int64_t intValue(const APInt &v, Type type) {
  if (cast<IntegerType>(type).isUnsigned())
    return static_cast<int64_t>(v.getZExtValue());
  return v.getSExtValue();
}

/// The integer a scalar value holds when it is a constant: an integer
/// constant, or a `tensor.extract` of a splat constant.
std::optional<int64_t> getConstantInt(Value value) {
  IntegerAttr intAttr;
  if (matchPattern(value, m_Constant(&intAttr)))
    return intValue(intAttr.getValue(), intAttr.getType());
  if (auto extract = value.getDefiningOp<tensor::ExtractOp>()) {
    DenseElementsAttr dense;
    if (matchPattern(extract.getTensor(), m_Constant(&dense)) &&
        dense.isSplat() && isa<IntegerType>(dense.getElementType()))
      return intValue(dense.getSplatValue<APInt>(), dense.getElementType());
  }
  return std::nullopt;
}

SmallVector<int64_t> permuteShape(ArrayRef<int64_t> shape,
                                  ArrayRef<int64_t> perm) {
  SmallVector<int64_t> out;
  for (int64_t p : perm)
    out.push_back(shape[p]);
  return out;
}

/// `result[i0, ..] = source[...]` with result dimension `d` being source
/// dimension `perm[d]`.
DenseElementsAttr permuteConstant(DenseElementsAttr source,
                                  ArrayRef<int64_t> perm) {
  auto type = cast<RankedTensorType>(source.getType());
  ArrayRef<int64_t> shape = type.getShape();
  SmallVector<int64_t> outShape = permuteShape(shape, perm);
  int64_t rank = shape.size();
  SmallVector<int64_t> srcStrides(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d)
    srcStrides[d] = srcStrides[d + 1] * shape[d + 1];
  SmallVector<APInt> values(source.getValues<APInt>());
  SmallVector<APInt> out;
  out.reserve(values.size());
  SmallVector<int64_t> index(rank, 0);
  for (int64_t n = 0, e = type.getNumElements(); n < e; ++n) {
    int64_t srcLinear = 0;
    for (int64_t d = 0; d < rank; ++d)
      srcLinear += index[d] * srcStrides[perm[d]];
    out.push_back(values[srcLinear]);
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < outShape[d])
        break;
      index[d] = 0;
    }
  }
  return DenseElementsAttr::get(type.clone(outShape), out);
}

/// Transposes `value` by `perm`: at compile time for a constant, else with a
/// `tosa.transpose`.
Value transposeValue(PatternRewriter &rewriter, Location loc, Value value,
                     ArrayRef<int64_t> perm) {
  if (llvm::equal(perm, llvm::seq<int64_t>(0, perm.size())))
    return value;
  auto type = cast<RankedTensorType>(value.getType());
  DenseElementsAttr dense;
  if (matchPattern(value, m_Constant(&dense)))
    return arith::ConstantOp::create(rewriter, loc,
                                     permuteConstant(dense, perm));
  SmallVector<int32_t> perms(perm.begin(), perm.end());
  return tosa::TransposeOp::create(
      rewriter, loc, type.clone(permuteShape(type.getShape(), perm)), value,
      rewriter.getDenseI32ArrayAttr(perms));
}

constexpr int64_t kNCHWToNHWC[] = {0, 2, 3, 1};
constexpr int64_t kNHWCToNCHW[] = {0, 3, 1, 2};

/// Names the fused clamp the way TFLite would have fused it.
Activation classifyClamp(int64_t actMin, int64_t actMax, Type element,
                         std::optional<float> outputScale,
                         std::optional<int64_t> outputZeroPoint) {
  auto [qmin, qmax] = qnn::getStorageRange(element);
  if (actMin == qmin && actMax == qmax)
    return Activation::none;
  if (outputZeroPoint && actMin == std::max(qmin, *outputZeroPoint)) {
    if (actMax == qmax)
      return Activation::relu;
    if (outputScale &&
        actMax == qnn::relu6UpperBound(*outputScale, *outputZeroPoint, qmax))
      return Activation::relu6;
  }
  return Activation::clip;
}

void addActivationAttrs(Builder &b, NamedAttrList &attrs, Activation kind,
                        int64_t actMin, int64_t actMax) {
  attrs.set("activation", ActivationAttr::get(b.getContext(), kind));
  attrs.set("act_min", b.getI32IntegerAttr(actMin));
  attrs.set("act_max", b.getI32IntegerAttr(actMax));
}

Operation *createOp(PatternRewriter &rewriter, Location loc, StringRef name,
                    ValueRange operands, Type resultType,
                    const NamedAttrList &attrs) {
  OperationState state(loc, name);
  state.addOperands(operands);
  state.addTypes(resultType);
  state.addAttributes(attrs.getAttrs());
  return rewriter.create(state);
}

//===----------------------------------------------------------------------===//
// Accumulator chains: [pad] -> conv/dense -> [bias add] -> requantize [->
// clamp -> cast]
//===----------------------------------------------------------------------===//

/// The output end of a requantize: the value to replace, the 8-bit result
/// type and the clamp range.
struct RequantizeOutput {
  Value replaced;
  RankedTensorType type;
  int64_t actMin, actMax;
};

FailureOr<RequantizeOutput> matchRequantizeOutput(qnn::RequantizeOp rq,
                                                  PatternRewriter &rewriter,
                                                  RemarkOnce &remark) {
  auto rqType = rq.getOutput().getType();
  if (isEightBit(rqType)) {
    auto [qmin, qmax] = qnn::getStorageRange(rqType.getElementType());
    return RequantizeOutput{rq.getOutput(), rqType, qmin, qmax};
  }
  // A requantize to i32 becomes 8-bit through a clip and a cast.
  auto clamp = rq->hasOneUse()
                   ? dyn_cast<tosa::ClampOp>(*rq->getUsers().begin())
                   : tosa::ClampOp();
  auto castOp = clamp && clamp->hasOneUse()
                    ? dyn_cast<tosa::CastOp>(*clamp->getUsers().begin())
                    : tosa::CastOp();
  if (!clamp || !castOp || !isEightBit(castOp.getType()))
    return remark(rewriter, rq,
                  "not fused into an npu operator: the requantize result is " +
                      Twine("not 8-bit and is not followed by a single ") +
                      "'tosa.clamp' and a 'tosa.cast' to 8 bits");
  auto minAttr = dyn_cast<IntegerAttr>(clamp.getMinValAttr());
  auto maxAttr = dyn_cast<IntegerAttr>(clamp.getMaxValAttr());
  auto castType = cast<RankedTensorType>(castOp.getType());
  auto [qmin, qmax] = qnn::getStorageRange(castType.getElementType());
  if (!minAttr || !maxAttr)
    return failure();
  int64_t lo = intValue(minAttr.getValue(), minAttr.getType()),
          hi = intValue(maxAttr.getValue(), maxAttr.getType());
  if (lo < qmin || hi > qmax || lo > hi)
    return remark(rewriter, rq,
                  "not fused into an npu operator: the clamp [" + Twine(lo) +
                      ", " + Twine(hi) + "] before the cast to 8 bits is " +
                      "not inside the storage range [" + Twine(qmin) + ", " +
                      Twine(qmax) + "], so the cast would wrap");
  int64_t zp = static_cast<int32_t>(rq.getOutputZeroPoint());
  if (zp < qmin || zp > qmax)
    return remark(rewriter, rq,
                  "not fused into an npu operator: the output zero point " +
                      Twine(zp) + " is outside the 8-bit storage range");
  return RequantizeOutput{castOp.getResult(), castType, lo, hi};
}

/// Matches `requantize(main + bias)` or `requantize(main)`.
template <typename MainOp> struct AccumulatorChain {
  MainOp main;
  Value bias; // rank-matched bias, or null
};

template <typename MainOp>
FailureOr<AccumulatorChain<MainOp>>
matchAccumulatorChain(qnn::RequantizeOp rq, PatternRewriter &rewriter,
                      RemarkOnce &remark) {
  Value acc = rq.getInput();
  Value bias;
  if (auto add = acc.getDefiningOp<tosa::AddOp>()) {
    if (add.getInput1().getDefiningOp<MainOp>()) {
      acc = add.getInput1();
      bias = add.getInput2();
    } else if (add.getInput2().getDefiningOp<MainOp>()) {
      acc = add.getInput2();
      bias = add.getInput1();
    } else {
      return failure();
    }
    if (!add->hasOneUse())
      return remark(rewriter, add,
                    "not fused into an npu operator: the biased accumulator "
                    "has other users than the requantize");
    if (add.getType() != acc.getType())
      return remark(rewriter, add,
                    "not fused into an npu operator: the bias add broadcasts "
                    "the accumulator to a larger shape");
  }
  auto main = acc.getDefiningOp<MainOp>();
  if (!main)
    return failure();
  if (!main->hasOneUse())
    return remark(rewriter, main,
                  "not fused into an npu operator: the i32 accumulator has "
                  "other users");
  return AccumulatorChain<MainOp>{main, bias};
}

/// Checks the requantize against the main op's scales: its input scale must
/// be the exact double product input_scale * weight_scale[c] per channel,
/// its input zero point 0, its axis the channel dimension.
LogicalResult checkRequantizeScales(qnn::RequantizeOp rq, float inputScale,
                                    ArrayRef<float> weightScale,
                                    int64_t numChannels, int64_t channelDim,
                                    PatternRewriter &rewriter,
                                    RemarkOnce &remark) {
  if (static_cast<int32_t>(rq.getInputZeroPoint()) != 0)
    return remark(rewriter, rq,
                  "not fused into an npu operator: the requantize input zero "
                  "point is " +
                      Twine(static_cast<int32_t>(rq.getInputZeroPoint())) +
                      ", expected 0 for an accumulator");
  ArrayRef<double> rqScale = rq.getInputScale();
  if (rqScale.size() != 1 &&
      (!rq.getAxis() || static_cast<int64_t>(*rq.getAxis()) != channelDim))
    return remark(rewriter, rq,
                  "not fused into an npu operator: the per-channel requantize "
                  "axis is not the output channel dimension " +
                      Twine(channelDim));
  for (int64_t c = 0; c < numChannels; ++c) {
    double ws = weightScale.size() == 1 ? weightScale[0] : weightScale[c];
    double expected = static_cast<double>(inputScale) * ws;
    double actual = rqScale.size() == 1 ? rqScale[0] : rqScale[c];
    if (actual != expected) {
      std::string msg;
      llvm::raw_string_ostream os(msg);
      os << "not fused into an npu operator: requantize input_scale[" << c
         << "] = " << llvm::format("%.17g", actual)
         << " differs from input_scale * weight_scale[" << c
         << "] = " << llvm::format("%.17g", expected)
         << " (product of the two float32 scales in double)";
      return remark(rewriter, rq, msg);
    }
  }
  return success();
}

/// The bias as a 1-D tensor of `numChannels` i32 values: a reshaped constant
/// or a `tensor.collapse_shape` of the value.
FailureOr<Value> makeBias1D(PatternRewriter &rewriter, Location loc, Value bias,
                            int64_t numChannels, int64_t channelDim,
                            Operation *anchor, RemarkOnce &remark) {
  auto type = dyn_cast<RankedTensorType>(bias.getType());
  if (!type || !type.hasStaticShape() || !type.getElementType().isInteger(32))
    return remark(rewriter, anchor,
                  "not fused into an npu operator: the bias is not a static "
                  "i32 tensor");
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (type.getDimSize(d) != 1 &&
        (d != channelDim || type.getDimSize(d) != numChannels))
      return remark(rewriter, anchor,
                    "not fused into an npu operator: the bias does not hold "
                    "one value per output channel");
  auto type1D = RankedTensorType::get({numChannels}, type.getElementType());
  DenseElementsAttr dense;
  if (matchPattern(bias, m_Constant(&dense))) {
    if (dense.isSplat() || type.getNumElements() == 1)
      return Value(arith::ConstantOp::create(
          rewriter, loc,
          DenseElementsAttr::get(type1D, *dense.getValues<APInt>().begin())));
    return Value(
        arith::ConstantOp::create(rewriter, loc, dense.reshape(type1D)));
  }
  if (type.getNumElements() != numChannels)
    return remark(rewriter, anchor,
                  "not fused into an npu operator: a non-constant bias must "
                  "have one value per output channel (no broadcast)");
  ReassociationIndices all;
  for (int64_t d = 0; d < type.getRank(); ++d)
    all.push_back(d);
  return Value(tensor::CollapseShapeOp::create(
      rewriter, loc, type1D, bias, ArrayRef<ReassociationIndices>{all}));
}

void addRescaleAttrs(Builder &b, NamedAttrList &attrs, float inputScale,
                     int32_t inputZp, ArrayRef<float> weightScale,
                     int32_t weightZp, qnn::RequantizeOp rq) {
  attrs.set("input_scale", b.getF32FloatAttr(inputScale));
  attrs.set("input_zero_point", b.getI32IntegerAttr(inputZp));
  attrs.set("weight_scale", b.getDenseF32ArrayAttr(weightScale));
  attrs.set("weight_zero_point", b.getI32IntegerAttr(weightZp));
  attrs.set("output_scale", rq.getOutputScaleAttr());
  attrs.set("output_zero_point",
            b.getI32IntegerAttr(static_cast<int32_t>(rq.getOutputZeroPoint())));
  attrs.set("rounding", rq.getRoundingAttr());
}

/// [tensor.pad] -> qnn.conv2d -> [tosa.add bias] -> qnn.requantize
/// [-> tosa.clamp -> tosa.cast] => npu.conv2d (NHWC/OHWI).
struct FuseConv2DPattern : OpRewritePattern<qnn::RequantizeOp> {
  FuseConv2DPattern(MLIRContext *ctx, RemarkOnce &remark)
      : OpRewritePattern(ctx), remark(remark) {}

  LogicalResult matchAndRewrite(qnn::RequantizeOp rq,
                                PatternRewriter &rewriter) const override {
    auto chain = matchAccumulatorChain<qnn::Conv2DOp>(rq, rewriter, remark);
    if (failed(chain))
      return failure();
    qnn::Conv2DOp conv = chain->main;
    bool nchw = conv.getDataLayout() == qnn::ActivationLayout::NCHW;
    qnn::ActivationDims dims = qnn::getActivationDims(conv.getDataLayout());
    auto convType = conv.getOutput().getType();
    int64_t numChannels = convType.getDimSize(dims.c);
    if (!convType.hasStaticShape())
      return remark(rewriter, conv,
                    "not fused into npu.conv2d: dynamic shapes are not "
                    "supported");
    if (failed(checkRequantizeScales(rq, conv.getInputScale().convertToFloat(),
                                     conv.getWeightScale(), numChannels, dims.c,
                                     rewriter, remark)))
      return failure();
    auto output = matchRequantizeOutput(rq, rewriter, remark);
    if (failed(output))
      return failure();

    Location loc = rq.getLoc();
    int32_t inputZp = static_cast<int32_t>(conv.getInputZeroPoint());
    Value input = conv.getInput();
    SmallVector<int64_t> padding(conv.getPadding());
    // Fold an explicit pad that holds the input zero point.
    if (auto pad = input.getDefiningOp<tensor::PadOp>()) {
      ArrayRef<int64_t> low = pad.getStaticLow(), high = pad.getStaticHigh();
      std::optional<int64_t> padValue;
      if (Value v = pad.getConstantPaddingValue())
        padValue = getConstantInt(v);
      bool spatialOnly = low.size() == 4 && low[dims.n] == 0 &&
                         low[dims.c] == 0 && high[dims.n] == 0 &&
                         high[dims.c] == 0 &&
                         llvm::none_of(low, ShapedType::isDynamic) &&
                         llvm::none_of(high, ShapedType::isDynamic);
      if (spatialOnly && padValue && *padValue == inputZp) {
        padding[0] += low[dims.h];
        padding[1] += low[dims.w];
        padding[2] += high[dims.h];
        padding[3] += high[dims.w];
        input = pad.getSource();
      }
    }
    if (nchw)
      input = transposeValue(rewriter, loc, input, kNCHWToNHWC);
    qnn::KernelDims kd = qnn::getKernelDims(conv.getKernelLayout());
    Value weight = transposeValue(rewriter, loc, conv.getWeight(),
                                  {kd.o, kd.h, kd.w, kd.i});
    Value bias;
    if (chain->bias) {
      auto bias1D = makeBias1D(rewriter, loc, chain->bias, numChannels, dims.c,
                               rq, remark);
      if (failed(bias1D))
        return failure();
      bias = *bias1D;
    }

    NamedAttrList attrs;
    addRescaleAttrs(rewriter, attrs, conv.getInputScale().convertToFloat(),
                    inputZp, conv.getWeightScale(),
                    static_cast<int32_t>(conv.getWeightZeroPoint()), rq);
    attrs.set("strides", conv.getStridesAttr());
    attrs.set("padding", rewriter.getDenseI64ArrayAttr(padding));
    attrs.set("dilations", conv.getDilationsAttr());
    attrs.set("groups", conv.getGroupsAttr());
    attrs.set("pad_value", rewriter.getI32IntegerAttr(inputZp));
    Type element = output->type.getElementType();
    addActivationAttrs(
        rewriter, attrs,
        classifyClamp(output->actMin, output->actMax, element,
                      rq.getOutputScale().convertToFloat(),
                      static_cast<int32_t>(rq.getOutputZeroPoint())),
        output->actMin, output->actMax);
    SmallVector<Value> operands = {input, weight};
    if (bias)
      operands.push_back(bias);
    SmallVector<int64_t> nhwcShape = {convType.getDimSize(dims.n),
                                      convType.getDimSize(dims.h),
                                      convType.getDimSize(dims.w), numChannels};
    Operation *fused = createOp(rewriter, loc, Conv2DOp::getOperationName(),
                                operands, output->type.clone(nhwcShape), attrs);
    Value result = fused->getResult(0);
    if (nchw)
      result = transposeValue(rewriter, loc, result, kNHWCToNCHW);
    rewriter.replaceAllUsesWith(output->replaced, result);
    return success();
  }

  RemarkOnce &remark;
};

/// qnn.dense -> [tosa.add bias] -> qnn.requantize [-> clamp -> cast]
/// => npu.fully_connected.
struct FuseDensePattern : OpRewritePattern<qnn::RequantizeOp> {
  FuseDensePattern(MLIRContext *ctx, RemarkOnce &remark)
      : OpRewritePattern(ctx), remark(remark) {}

  LogicalResult matchAndRewrite(qnn::RequantizeOp rq,
                                PatternRewriter &rewriter) const override {
    auto chain = matchAccumulatorChain<qnn::DenseOp>(rq, rewriter, remark);
    if (failed(chain))
      return failure();
    qnn::DenseOp dense = chain->main;
    auto denseType = dense.getOutput().getType();
    int64_t numChannels = denseType.getDimSize(1);
    if (!denseType.hasStaticShape())
      return remark(rewriter, dense,
                    "not fused into npu.fully_connected: dynamic shapes are "
                    "not supported");
    if (failed(checkRequantizeScales(rq, dense.getInputScale().convertToFloat(),
                                     dense.getWeightScale(), numChannels, 1,
                                     rewriter, remark)))
      return failure();
    auto output = matchRequantizeOutput(rq, rewriter, remark);
    if (failed(output))
      return failure();
    Location loc = rq.getLoc();
    Value bias;
    if (chain->bias) {
      auto bias1D =
          makeBias1D(rewriter, loc, chain->bias, numChannels, 1, rq, remark);
      if (failed(bias1D))
        return failure();
      bias = *bias1D;
    }
    NamedAttrList attrs;
    addRescaleAttrs(rewriter, attrs, dense.getInputScale().convertToFloat(),
                    static_cast<int32_t>(dense.getInputZeroPoint()),
                    dense.getWeightScale(),
                    static_cast<int32_t>(dense.getWeightZeroPoint()), rq);
    addActivationAttrs(
        rewriter, attrs,
        classifyClamp(output->actMin, output->actMax,
                      output->type.getElementType(),
                      rq.getOutputScale().convertToFloat(),
                      static_cast<int32_t>(rq.getOutputZeroPoint())),
        output->actMin, output->actMax);
    SmallVector<Value> operands = {dense.getInput(), dense.getWeight()};
    if (bias)
      operands.push_back(bias);
    Operation *fused =
        createOp(rewriter, loc, FullyConnectedOp::getOperationName(), operands,
                 output->type, attrs);
    rewriter.replaceAllUsesWith(output->replaced, fused->getResult(0));
    return success();
  }

  RemarkOnce &remark;
};

//===----------------------------------------------------------------------===//
// Pools and add
//===----------------------------------------------------------------------===//

template <typename NPUPoolOp>
Value createPool(PatternRewriter &rewriter, Location loc, Value input,
                 qnn::ActivationLayout layout, ArrayRef<int64_t> kernel,
                 ArrayRef<int64_t> strides, ArrayRef<int64_t> padding,
                 RankedTensorType resultType) {
  bool nchw = layout == qnn::ActivationLayout::NCHW;
  if (nchw) {
    input = transposeValue(rewriter, loc, input, kNCHWToNHWC);
    resultType =
        resultType.clone(permuteShape(resultType.getShape(), kNCHWToNHWC));
  }
  auto [qmin, qmax] = qnn::getStorageRange(resultType.getElementType());
  NamedAttrList attrs;
  attrs.set("kernel", rewriter.getDenseI64ArrayAttr(kernel));
  attrs.set("strides", rewriter.getDenseI64ArrayAttr(strides));
  attrs.set("padding", rewriter.getDenseI64ArrayAttr(padding));
  addActivationAttrs(rewriter, attrs, Activation::none, qmin, qmax);
  Value result = createOp(rewriter, loc, NPUPoolOp::getOperationName(), input,
                          resultType, attrs)
                     ->getResult(0);
  if (nchw)
    result = transposeValue(rewriter, loc, result, kNHWCToNCHW);
  return result;
}

/// tosa.cast (8 -> i32) -> qnn.avg_pool2d -> tosa.cast (i32 -> 8)
/// => npu.avg_pool2d. The average of 8-bit values is in range, so the
/// narrowing cast is exact.
struct FuseAvgPoolPattern : OpRewritePattern<tosa::CastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::CastOp narrow,
                                PatternRewriter &rewriter) const override {
    auto pool = narrow.getInput().getDefiningOp<qnn::AvgPool2DOp>();
    if (!pool || !pool->hasOneUse() || !isEightBit(narrow.getType()))
      return failure();
    auto widen = pool.getInput().getDefiningOp<tosa::CastOp>();
    if (!widen || widen.getInput().getType().getElementType() !=
                      getElementTypeOrSelf(narrow.getType()))
      return failure();
    auto poolInputType = pool.getInput().getType();
    if (!poolInputType.getElementType().isInteger(32) ||
        !poolInputType.hasStaticShape())
      return failure();
    Value result = createPool<AvgPool2DOp>(
        rewriter, narrow.getLoc(), widen.getInput(), pool.getDataLayout(),
        pool.getKernel(), pool.getStrides(), pool.getPadding(),
        cast<RankedTensorType>(narrow.getType()));
    rewriter.replaceOp(narrow, result);
    return success();
  }
};

/// qnn.avg_pool2d / qnn.max_pool2d on 8-bit data => npu pool.
template <typename QNNPoolOp, typename NPUPoolOp>
struct FusePoolPattern : OpRewritePattern<QNNPoolOp> {
  using OpRewritePattern<QNNPoolOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(QNNPoolOp pool,
                                PatternRewriter &rewriter) const override {
    auto type = pool.getOutput().getType();
    if (!isEightBit(type) || !type.hasStaticShape())
      return failure();
    Value result = createPool<NPUPoolOp>(
        rewriter, pool.getLoc(), pool.getInput(), pool.getDataLayout(),
        pool.getKernel(), pool.getStrides(), pool.getPadding(), type);
    rewriter.replaceOp(pool, result);
    return success();
  }
};

/// qnn.add => npu.add.
/// qnn.add => npu.add. A lower-rank operand (NumPy broadcasting aligns
/// shapes on the right) gets leading unit dimensions with
/// tensor.expand_shape.
struct FuseAddPattern : OpRewritePattern<qnn::AddOp> {
  FuseAddPattern(MLIRContext *ctx, RemarkOnce &remark)
      : OpRewritePattern(ctx), remark(remark) {}
  LogicalResult matchAndRewrite(qnn::AddOp add,
                                PatternRewriter &rewriter) const override {
    if (add.getRounding() == qnn::Rounding::upward ||
        add.getRounding() == qnn::Rounding::tonearest)
      return remark(rewriter, add,
                    "not fused into npu.add: TVM's add sequence (rounding "
                    "upward/tonearest) has no npu form");
    auto type = add.getOutput().getType();
    SmallVector<Value> operands;
    for (Value operand : {add.getLhs(), add.getRhs()}) {
      auto operandType = cast<RankedTensorType>(operand.getType());
      int64_t rank = operandType.getRank(), missing = type.getRank() - rank;
      if (missing == 0) {
        operands.push_back(operand);
        continue;
      }
      if (rank == 0 || !operandType.hasStaticShape())
        return remark(rewriter, add,
                      "not fused into npu.add: an operand of rank 0 or of "
                      "dynamic shape would need a broadcast of lower rank");
      SmallVector<ReassociationIndices> reassociation(rank);
      for (int64_t d = 0; d <= missing; ++d)
        reassociation[0].push_back(d);
      for (int64_t d = 1; d < rank; ++d)
        reassociation[d].push_back(d + missing);
      SmallVector<int64_t> shape(missing, 1);
      llvm::append_range(shape, operandType.getShape());
      operands.push_back(tensor::ExpandShapeOp::create(rewriter, add.getLoc(),
                                                       operandType.clone(shape),
                                                       operand, reassociation));
    }
    auto [qmin, qmax] = qnn::getStorageRange(type.getElementType());
    NamedAttrList attrs;
    for (StringRef name :
         {"lhs_scale", "lhs_zero_point", "rhs_scale", "rhs_zero_point",
          "output_scale", "output_zero_point"})
      attrs.set(name, add->getAttr(name));
    attrs.set("rounding", add.getRoundingAttr());
    addActivationAttrs(rewriter, attrs, Activation::none, qmin, qmax);
    Operation *fused =
        createOp(rewriter, add.getLoc(), AddOp::getOperationName(), operands,
                 type, attrs);
    rewriter.replaceOp(add, fused->getResults());
    return success();
  }
  RemarkOnce &remark;
};

//===----------------------------------------------------------------------===//
// Activation epilogues
//===----------------------------------------------------------------------===//

bool isNPUOp(Operation *op) {
  return op &&
         isa<Conv2DOp, FullyConnectedOp, AddOp, AvgPool2DOp, MaxPool2DOp>(op);
}

/// The output scale and zero point of the requantize stage, when the op has
/// them.
std::pair<std::optional<float>, std::optional<int64_t>>
outputParams(Operation *op) {
  auto scale = op->getAttrOfType<FloatAttr>("output_scale");
  auto zp = op->getAttrOfType<IntegerAttr>("output_zero_point");
  std::optional<float> s;
  std::optional<int64_t> z;
  if (scale)
    s = scale.getValue().convertToFloat();
  if (zp)
    z = static_cast<int32_t>(zp.getInt());
  return {s, z};
}

bool isClampKind(Activation kind) {
  return kind == Activation::none || kind == Activation::relu ||
         kind == Activation::relu6 || kind == Activation::clip;
}

/// tosa.clamp after an npu op narrows its clamp range (or its table). An
/// elementwise clamp commutes with a transpose, so it is also taken through
/// the layout transpose after an NCHW npu op (ONNX's and PyTorch's form).
struct FuseClampPattern : OpRewritePattern<tosa::ClampOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::ClampOp clamp,
                                PatternRewriter &rewriter) const override {
    Operation *producer = clamp.getInput().getDefiningOp();
    Value replacement = clamp.getInput();
    if (auto transpose = dyn_cast_if_present<tosa::TransposeOp>(producer);
        transpose && transpose->hasOneUse())
      producer = transpose.getInput1().getDefiningOp();
    if (!isNPUOp(producer) || !producer->hasOneUse() ||
        getElementTypeOrSelf(producer->getResult(0).getType()) !=
            getElementTypeOrSelf(clamp.getType()))
      return failure();
    auto minAttr = dyn_cast<IntegerAttr>(clamp.getMinValAttr());
    auto maxAttr = dyn_cast<IntegerAttr>(clamp.getMaxValAttr());
    if (!minAttr || !maxAttr)
      return failure();
    int64_t lo = intValue(minAttr.getValue(), minAttr.getType()),
            hi = intValue(maxAttr.getValue(), maxAttr.getType());
    auto kind =
        producer->getAttrOfType<ActivationAttr>("activation").getValue();
    Type element = getElementTypeOrSelf(clamp.getType());
    if (kind == Activation::lut) {
      auto lut = producer->getAttrOfType<DenseI32ArrayAttr>("lut");
      SmallVector<int32_t> table(lut.asArrayRef());
      for (int32_t &v : table)
        v = static_cast<int32_t>(std::clamp<int64_t>(v, lo, hi));
      rewriter.modifyOpInPlace(producer, [&] {
        producer->setAttr("lut", rewriter.getDenseI32ArrayAttr(table));
      });
    } else if (isClampKind(kind)) {
      int64_t actMin = std::max<int64_t>(
          lo, producer->getAttrOfType<IntegerAttr>("act_min").getInt());
      int64_t actMax = std::min<int64_t>(
          hi, producer->getAttrOfType<IntegerAttr>("act_max").getInt());
      if (actMin > actMax)
        return failure();
      std::optional<float> scale;
      std::optional<int64_t> zp;
      std::tie(scale, zp) = outputParams(producer);
      rewriter.modifyOpInPlace(producer, [&] {
        NamedAttrList attrs(producer->getAttrDictionary());
        addActivationAttrs(rewriter, attrs,
                           classifyClamp(actMin, actMax, element, scale, zp),
                           actMin, actMax);
        producer->setAttrs(attrs.getDictionary(rewriter.getContext()));
      });
    } else {
      return failure();
    }
    rewriter.replaceOp(clamp, replacement);
    return success();
  }
};

/// qnn.leaky_relu after an npu op => leaky_relu epilogue.
struct FuseLeakyReluPattern : OpRewritePattern<qnn::LeakyReluOp> {
  FuseLeakyReluPattern(MLIRContext *ctx, RemarkOnce &remark)
      : OpRewritePattern(ctx), remark(remark) {}
  LogicalResult matchAndRewrite(qnn::LeakyReluOp leaky,
                                PatternRewriter &rewriter) const override {
    if (leaky.getRounding() == qnn::Rounding::onnx)
      return failure(); // a table: FuseTablePattern
    Operation *producer = leaky.getInput().getDefiningOp();
    if (!isNPUOp(producer) || !producer->hasOneUse() ||
        leaky.getInput().getType() != leaky.getOutput().getType())
      return failure();
    auto kind =
        producer->getAttrOfType<ActivationAttr>("activation").getValue();
    auto [scale, zp] = outputParams(producer);
    if (!isClampKind(kind) || !scale || !zp)
      return failure();
    if (*scale != leaky.getInputScale().convertToFloat() ||
        *zp != static_cast<int32_t>(leaky.getInputZeroPoint()))
      return remark(rewriter, leaky,
                    "not fused: the leaky ReLU input scale and zero point "
                    "differ from the producer's output scale and zero point");
    // The epilogue's leaky stage rounds as leakyEpilogueRounding says.
    auto rounding = producer->getAttrOfType<qnn::RoundingAttr>("rounding");
    qnn::Rounding stageRule = qnn::leakyEpilogueRounding(
        rounding ? rounding.getValue() : qnn::Rounding::tflite);
    if (stageRule != leaky.getRounding())
      return remark(rewriter, leaky,
                    "not fused: the leaky ReLU rounds with " +
                        qnn::stringifyRounding(leaky.getRounding()) +
                        " but an epilogue after a " +
                        qnn::stringifyRounding(rounding
                                                   ? rounding.getValue()
                                                   : qnn::Rounding::tflite) +
                        " rescale rounds with " +
                        qnn::stringifyRounding(stageRule));
    math::LeakyReluParams p =
        math::computeLeakyReluParams(leaky.getInputScale().convertToFloat(),
                                     leaky.getAlpha().convertToFloat(),
                                     leaky.getOutputScale().convertToFloat());
    rewriter.modifyOpInPlace(producer, [&] {
      producer->setAttr(
          "activation",
          ActivationAttr::get(getContext(), Activation::leaky_relu));
      producer->setAttr(
          "leaky_params",
          rewriter.getDenseI32ArrayAttr(
              {p.identity.multiplier, p.identity.shift, p.alpha.multiplier,
               p.alpha.shift,
               static_cast<int32_t>(leaky.getOutputZeroPoint())}));
    });
    rewriter.replaceOp(leaky, producer->getResults());
    return success();
  }
  RemarkOnce &remark;
};

/// qnn.hardswish/sigmoid/tanh after an npu op => 256-entry table epilogue.
template <typename TableOp>
struct FuseTablePattern : OpRewritePattern<TableOp> {
  FuseTablePattern(MLIRContext *ctx, RemarkOnce &remark)
      : OpRewritePattern<TableOp>(ctx), remark(remark) {}
  LogicalResult matchAndRewrite(TableOp op,
                                PatternRewriter &rewriter) const override {
    // Elementwise, so it commutes with the layout transpose after an NCHW
    // npu op (ONNX's and PyTorch's form), as a clamp does.
    Operation *producer = op.getInput().getDefiningOp();
    if (auto transpose = dyn_cast_if_present<tosa::TransposeOp>(producer);
        transpose && transpose->hasOneUse())
      producer = transpose.getInput1().getDefiningOp();
    if (!isNPUOp(producer) || !producer->hasOneUse() ||
        op.getInput().getType() != op.getOutput().getType())
      return failure();
    // The op's own table, with its rounding rule (none for a leaky ReLU
    // under TFLite's rules: FuseLeakyReluPattern takes those).
    std::optional<std::array<int32_t, 256>> table = buildActivationTable(op);
    if (!table)
      return failure();
    auto kind =
        producer->getAttrOfType<ActivationAttr>("activation").getValue();
    auto [scale, zp] = outputParams(producer);
    if (!isClampKind(kind) || !scale || !zp)
      return failure();
    if (*scale != op.getInputScale().convertToFloat() ||
        *zp != static_cast<int32_t>(op.getInputZeroPoint()))
      return remark(rewriter, op,
                    "not fused: the activation input scale and zero point "
                    "differ from the producer's output scale and zero point");
    rewriter.modifyOpInPlace(producer, [&] {
      producer->setAttr("activation", ActivationAttr::get(this->getContext(),
                                                          Activation::lut));
      producer->setAttr("lut", rewriter.getDenseI32ArrayAttr(*table));
    });
    rewriter.replaceOp(op, op.getInput());
    return success();
  }
  RemarkOnce &remark;
};

//===----------------------------------------------------------------------===//
// Layout clean-up
//===----------------------------------------------------------------------===//

/// transpose(transpose(x, p), q) with q o p = identity => x.
struct CancelTransposesPattern : OpRewritePattern<tosa::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::TransposeOp outer,
                                PatternRewriter &rewriter) const override {
    auto inner = outer.getInput1().getDefiningOp<tosa::TransposeOp>();
    if (!inner)
      return failure();
    ArrayRef<int32_t> p = inner.getPerms(), q = outer.getPerms();
    for (size_t i = 0; i < q.size(); ++i)
      if (p[q[i]] != static_cast<int32_t>(i))
        return failure();
    rewriter.replaceOp(outer, inner.getInput1());
    return success();
  }
};

/// collapse_shape(transpose(x)) where the transpose only moves unit
/// dimensions => collapse_shape(x).
struct CollapseOfUnitTransposePattern
    : OpRewritePattern<tensor::CollapseShapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::CollapseShapeOp collapse,
                                PatternRewriter &rewriter) const override {
    auto transpose = collapse.getSrc().getDefiningOp<tosa::TransposeOp>();
    if (!transpose)
      return failure();
    auto srcType = cast<RankedTensorType>(transpose.getInput1().getType());
    if (!srcType.hasStaticShape())
      return failure();
    SmallVector<int32_t> nonUnit;
    for (int32_t p : transpose.getPerms())
      if (srcType.getDimSize(p) != 1)
        nonUnit.push_back(p);
    if (!llvm::is_sorted(nonUnit))
      return failure();
    auto resultType = collapse.getResultType();
    auto reassociation = getReassociationIndicesForCollapse(
        srcType.getShape(), resultType.getShape());
    if (!reassociation)
      return failure();
    rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(
        collapse, resultType, transpose.getInput1(), *reassociation);
    return success();
  }
};

/// Gives every static collapse_shape the canonical reassociation, so
/// equivalent programs print the same.
struct CanonicalCollapsePattern : OpRewritePattern<tensor::CollapseShapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::CollapseShapeOp collapse,
                                PatternRewriter &rewriter) const override {
    auto srcType = collapse.getSrcType();
    auto resultType = collapse.getResultType();
    if (!srcType.hasStaticShape() || !resultType.hasStaticShape())
      return failure();
    auto reassociation = getReassociationIndicesForCollapse(
        srcType.getShape(), resultType.getShape());
    if (!reassociation || *reassociation == collapse.getReassociationIndices())
      return failure();
    rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(
        collapse, resultType, collapse.getSrc(), *reassociation);
    return success();
  }
};

struct NPUFusePass : npu::impl::NPUFuseBase<NPUFusePass> {
  using Base::Base;
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    RemarkOnce remark;
    remark.enabled = remarks;
    RewritePatternSet patterns(ctx);
    patterns.add<FuseConv2DPattern, FuseDensePattern, FuseLeakyReluPattern,
                 FuseAddPattern>(ctx, remark);
    patterns.add<FuseTablePattern<qnn::HardSwishOp>,
                 FuseTablePattern<qnn::SigmoidOp>,
                 FuseTablePattern<qnn::TanhOp>, FuseTablePattern<qnn::EluOp>,
                 FuseTablePattern<qnn::RsqrtOp>,
                 FuseTablePattern<qnn::LeakyReluOp>>(ctx, remark);
    patterns.add<FuseAvgPoolPattern, FuseClampPattern,
                 FusePoolPattern<qnn::MaxPool2DOp, MaxPool2DOp>,
                 CancelTransposesPattern, CollapseOfUnitTransposePattern,
                 CanonicalCollapsePattern>(ctx);
    // An 8-bit avg pool not between casts.
    patterns.add<FusePoolPattern<qnn::AvgPool2DOp, AvgPool2DOp>>(ctx,
                                                                 /*benefit=*/0);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
