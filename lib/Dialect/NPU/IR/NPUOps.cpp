//===- NPUOps.cpp - npu operator verifiers --------------------------------===//

#include "NPU/IR/NPUOps.h"
#include "QNN/Utils/QuantMath.h"
#include "QNN/Utils/QuantUtils.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::npu;

static LogicalResult verifyScale(Operation *op, StringRef name, double scale) {
  if (!std::isfinite(scale) || scale <= 0.0)
    return op->emitOpError()
           << "'" << name << "' must be finite and positive, got " << scale;
  return success();
}

static LogicalResult verifyZeroPoint(Operation *op, StringRef name,
                                     int64_t zeroPoint, Type elementType) {
  auto [qmin, qmax] = qnn::getStorageRange(elementType);
  if (zeroPoint < qmin || zeroPoint > qmax)
    return op->emitOpError()
           << "'" << name << "' " << zeroPoint << " is outside the range ["
           << qmin << ", " << qmax << "] of element type " << elementType;
  return success();
}

/// The fused-activation attributes shared by every npu operator.
static LogicalResult
verifyActivation(Operation *op, Activation kind, int32_t actMin, int32_t actMax,
                 std::optional<ArrayRef<int32_t>> leakyParams,
                 std::optional<ArrayRef<int32_t>> lut, Type resultElement) {
  auto [qmin, qmax] = qnn::getStorageRange(resultElement);
  if (actMin > actMax)
    return op->emitOpError()
           << "'act_min' " << actMin << " must not exceed 'act_max' " << actMax;
  if (actMin < qmin || actMax > qmax)
    return op->emitOpError() << "activation range [" << actMin << ", " << actMax
                             << "] must lie inside the result storage range ["
                             << qmin << ", " << qmax << "]";
  // The named clamps must be the clamps TFLite fuses under those names.
  auto scaleAttr = op->getAttrOfType<FloatAttr>("output_scale");
  auto zpAttr = op->getAttrOfType<IntegerAttr>("output_zero_point");
  if (kind == Activation::none && (actMin != qmin || actMax != qmax))
    return op->emitOpError()
           << "activation 'none' needs the full storage "
              "range ["
           << qmin << ", " << qmax << "] as [act_min, "
           << "act_max], got [" << actMin << ", " << actMax << "] (use 'clip')";
  if (kind == Activation::relu || kind == Activation::relu6 ||
      kind == Activation::leaky_relu) {
    if (!scaleAttr || !zpAttr)
      return op->emitOpError() << "activation '" << stringifyActivation(kind)
                               << "' needs an output scale and zero point "
                                  "(not available on pooling operators)";
    int64_t zp = static_cast<int32_t>(zpAttr.getInt());
    int64_t relu6Max = qnn::relu6UpperBound(
        scaleAttr.getValue().convertToFloat(), zp, qmax);
    if (kind == Activation::relu &&
        (actMin != std::max(qmin, zp) || actMax != qmax))
      return op->emitOpError()
             << "activation 'relu' needs [act_min, act_max] = ["
             << std::max(qmin, zp) << ", " << qmax << "], got [" << actMin
             << ", " << actMax << "] (use 'clip')";
    if (kind == Activation::relu6 &&
        (actMin != std::max(qmin, zp) || actMax != relu6Max))
      return op->emitOpError()
             << "activation 'relu6' needs [act_min, act_max] = ["
             << std::max(qmin, zp) << ", " << relu6Max << "], got [" << actMin
             << ", " << actMax << "] (use 'clip')";
  }
  if (kind == Activation::leaky_relu) {
    if (!leakyParams)
      return op->emitOpError(
          "activation 'leaky_relu' needs 'leaky_params' [identity_multiplier, "
          "identity_shift, alpha_multiplier, alpha_shift, output_zero_point]");
    if (leakyParams->size() != 5)
      return op->emitOpError() << "'leaky_params' must have 5 entries, got "
                               << leakyParams->size();
    ArrayRef<int32_t> p = *leakyParams;
    if (p[0] < 0 || p[2] < 0)
      return op->emitOpError("'leaky_params' multipliers must be "
                             "non-negative");
    for (int i : {1, 3})
      if (p[i] < -31 || p[i] > 30)
        return op->emitOpError()
               << "'leaky_params' shift " << p[i] << " must lie in [-31, 30]";
    if (failed(verifyZeroPoint(op, "leaky_params[4] (output zero point)", p[4],
                               resultElement)))
      return failure();
  } else if (leakyParams) {
    return op->emitOpError(
        "'leaky_params' is only allowed with activation 'leaky_relu'");
  }
  if (kind == Activation::lut) {
    if (!lut)
      return op->emitOpError("activation 'lut' needs a 256-entry 'lut'");
    if (lut->size() != 256)
      return op->emitOpError()
             << "'lut' must have 256 entries, got " << lut->size();
    for (auto [i, v] : llvm::enumerate(*lut))
      if (v < qmin || v > qmax)
        return op->emitOpError() << "'lut' entry " << i << " = " << v
                                 << " is outside the result storage range ["
                                 << qmin << ", " << qmax << "]";
  } else if (lut) {
    return op->emitOpError("'lut' is only allowed with activation 'lut'");
  }
  return success();
}

template <typename OpTy> static LogicalResult verifyActivationOf(OpTy op) {
  return verifyActivation(
      op, op.getActivation(), static_cast<int32_t>(op.getActMin()),
      static_cast<int32_t>(op.getActMax()), op.getLeakyParams(), op.getLut(),
      op.getOutput().getType().getElementType());
}

/// Scales, zero points, weight layout and bias of conv2d/fully_connected.
template <typename OpTy>
static LogicalResult verifyRescaleArgs(OpTy op, int64_t numOutputChannels) {
  Type inElement = op.getInput().getType().getElementType();
  Type wElement = op.getWeight().getType().getElementType();
  Type outElement = op.getOutput().getType().getElementType();
  if (failed(verifyScale(op, "input_scale",
                         op.getInputScale().convertToDouble())) ||
      failed(verifyScale(op, "output_scale",
                         op.getOutputScale().convertToDouble())) ||
      failed(verifyZeroPoint(op, "input_zero_point",
                             static_cast<int32_t>(op.getInputZeroPoint()),
                             inElement)) ||
      failed(verifyZeroPoint(op, "weight_zero_point",
                             static_cast<int32_t>(op.getWeightZeroPoint()),
                             wElement)) ||
      failed(verifyZeroPoint(op, "output_zero_point",
                             static_cast<int32_t>(op.getOutputZeroPoint()),
                             outElement)))
    return failure();
  ArrayRef<float> ws = op.getWeightScale();
  if (ws.empty())
    return op.emitOpError("'weight_scale' must not be empty");
  for (auto [i, s] : llvm::enumerate(ws))
    if (!std::isfinite(s) || s <= 0)
      return op.emitOpError() << "'weight_scale' must be finite and positive, "
                                 "got "
                              << s << " at index " << i;
  if (ws.size() != 1 && !ShapedType::isDynamic(numOutputChannels) &&
      static_cast<int64_t>(ws.size()) != numOutputChannels)
    return op.emitOpError()
           << "'weight_scale' has " << ws.size()
           << " entries; expected 1 or one per output channel ("
           << numOutputChannels << ")";
  for (float s : ws)
    if (failed(qnn::verifyMultiplier(
            op, "input_scale * weight_scale / output_scale",
            op.getInputScale().convertToDouble() * static_cast<double>(s) /
                op.getOutputScale().convertToDouble())))
      return failure();
  if (Value bias = op.getBias()) {
    auto biasType = cast<RankedTensorType>(bias.getType());
    if (biasType.getRank() != 1 ||
        (!ShapedType::isDynamic(numOutputChannels) &&
         !biasType.isDynamicDim(0) &&
         biasType.getDimSize(0) != numOutputChannels))
      return op.emitOpError()
             << "bias must be a 1-D tensor of " << numOutputChannels
             << " i32 values (one per output channel), got " << biasType;
  }
  return verifyActivationOf(op);
}

static bool differ(int64_t a, int64_t b) {
  return !ShapedType::isDynamic(a) && !ShapedType::isDynamic(b) && a != b;
}

static LogicalResult
verifyWindow(Operation *op, ArrayRef<int64_t> kernel, ArrayRef<int64_t> strides,
             ArrayRef<int64_t> padding, ArrayRef<int64_t> dilations,
             RankedTensorType inType, RankedTensorType outType) {
  if (strides.size() != 2 ||
      llvm::any_of(strides, [](int64_t s) { return s < 1; }))
    return op->emitOpError("'strides' must be two positive integers [h, w]");
  if (padding.size() != 4 ||
      llvm::any_of(padding, [](int64_t p) { return p < 0; }))
    return op->emitOpError("'padding' must be four non-negative integers "
                           "[top, left, bottom, right]");
  if (dilations.size() != 2 ||
      llvm::any_of(dilations, [](int64_t d) { return d < 1; }))
    return op->emitOpError("'dilations' must be two positive integers [h, w]");
  if (inType.getRank() != 4 || outType.getRank() != 4)
    return op->emitOpError("input and result must be rank-4 NHWC tensors");
  qnn::WindowGeometry g{
      inType.getDimSize(1), inType.getDimSize(2), kernel[0],    kernel[1],
      strides[0],           strides[1],           dilations[0], dilations[1],
      padding[0],           padding[1],           padding[2],   padding[3]};
  if (ShapedType::isDynamic(g.inH) || ShapedType::isDynamic(g.inW) ||
      ShapedType::isDynamic(g.kH) || ShapedType::isDynamic(g.kW))
    return success();
  if (g.outH() < 1 || g.outW() < 1)
    return op->emitOpError() << "window of " << g.kH << "x" << g.kW
                             << " does not fit the padded input";
  if (differ(outType.getDimSize(1), g.outH()) ||
      differ(outType.getDimSize(2), g.outW()))
    return op->emitOpError()
           << "result spatial size " << outType.getDimSize(1) << "x"
           << outType.getDimSize(2) << " does not match the expected "
           << g.outH() << "x" << g.outW()
           << " computed from input size, kernel, strides, padding and "
              "dilations";
  if (differ(outType.getDimSize(0), inType.getDimSize(0)))
    return op->emitOpError("input and result batch sizes differ");
  return success();
}

LogicalResult Conv2DOp::verify() {
  auto inType = getInput().getType();
  auto wType = getWeight().getType();
  auto outType = getOutput().getType();
  if (wType.getRank() != 4)
    return emitOpError("weight must be a rank-4 OHWI tensor");
  int64_t groups = getGroups();
  if (groups < 1)
    return emitOpError("'groups' must be positive");
  if (failed(verifyWindow(*this, {wType.getDimSize(1), wType.getDimSize(2)},
                          getStrides(), getPadding(), getDilations(), inType,
                          outType)))
    return failure();
  int64_t c = inType.getDimSize(3), o = wType.getDimSize(0),
          i = wType.getDimSize(3);
  if (!ShapedType::isDynamic(c) && c % groups != 0)
    return emitOpError() << "input channels " << c
                         << " are not divisible by 'groups' " << groups;
  if (!ShapedType::isDynamic(o) && o % groups != 0)
    return emitOpError() << "output channels " << o
                         << " are not divisible by 'groups' " << groups;
  if (!ShapedType::isDynamic(c) && differ(i, c / groups))
    return emitOpError() << "weight (OHWI) has " << i
                         << " input channels per group; expected " << c / groups
                         << " (input channels / groups)";
  if (differ(outType.getDimSize(3), o))
    return emitOpError() << "result has " << outType.getDimSize(3)
                         << " channels but the weight has " << o
                         << " output channels";
  if (static_cast<int32_t>(getPadValue()) !=
      static_cast<int32_t>(getInputZeroPoint()))
    return emitOpError() << "'pad_value' "
                         << static_cast<int32_t>(getPadValue())
                         << " must equal the input zero point "
                         << static_cast<int32_t>(getInputZeroPoint());
  return verifyRescaleArgs(*this, o);
}

LogicalResult FullyConnectedOp::verify() {
  auto inType = getInput().getType();
  auto wType = getWeight().getType();
  auto outType = getOutput().getType();
  if (inType.getRank() != 2 || wType.getRank() != 2 || outType.getRank() != 2)
    return emitOpError("input [N, K], weight [O, K] and result [N, O] must be "
                       "rank 2");
  if (differ(inType.getDimSize(1), wType.getDimSize(1)))
    return emitOpError() << "input has " << inType.getDimSize(1)
                         << " features but the weight has "
                         << wType.getDimSize(1);
  if (differ(outType.getDimSize(1), wType.getDimSize(0)) ||
      differ(outType.getDimSize(0), inType.getDimSize(0)))
    return emitOpError() << "result shape " << outType
                         << " does not match [N, O] of input and weight";
  return verifyRescaleArgs(*this, wType.getDimSize(0));
}

LogicalResult AddOp::verify() {
  Type lhsElement = getLhs().getType().getElementType();
  Type rhsElement = getRhs().getType().getElementType();
  Type outElement = getOutput().getType().getElementType();
  if (lhsElement != outElement || rhsElement != outElement)
    return emitOpError("operands and result must have the same element type");
  for (auto [name, scale] :
       {std::pair<StringRef, double>{"lhs_scale",
                                     getLhsScale().convertToDouble()},
        {"rhs_scale", getRhsScale().convertToDouble()},
        {"output_scale", getOutputScale().convertToDouble()}})
    if (failed(verifyScale(*this, name, scale)))
      return failure();
  if (failed(qnn::verifyAddRounding(*this, getRounding())))
    return failure();
  if (failed(qnn::verifyAddOutputMultiplier(
          *this, getLhsScale().convertToDouble(),
          getRhsScale().convertToDouble(), getOutputScale().convertToDouble())))
    return failure();
  if (failed(verifyZeroPoint(*this, "lhs_zero_point",
                             static_cast<int32_t>(getLhsZeroPoint()),
                             outElement)) ||
      failed(verifyZeroPoint(*this, "rhs_zero_point",
                             static_cast<int32_t>(getRhsZeroPoint()),
                             outElement)) ||
      failed(verifyZeroPoint(*this, "output_zero_point",
                             static_cast<int32_t>(getOutputZeroPoint()),
                             outElement)))
    return failure();
  auto outType = getOutput().getType();
  for (auto operandType : {getLhs().getType(), getRhs().getType()}) {
    if (operandType.getRank() != outType.getRank())
      return emitOpError("operands must have the rank of the result");
    for (int64_t d = 0; d < outType.getRank(); ++d)
      if (operandType.getDimSize(d) != 1 &&
          differ(operandType.getDimSize(d), outType.getDimSize(d)))
        return emitOpError() << "operand " << operandType
                             << " does not broadcast to the result " << outType;
  }
  return verifyActivationOf(*this);
}

template <typename PoolOp> static LogicalResult verifyPool(PoolOp op) {
  auto inType = op.getInput().getType();
  auto outType = op.getOutput().getType();
  if (inType.getElementType() != outType.getElementType())
    return op.emitOpError("input and result must have the same element type");
  ArrayRef<int64_t> kernel = op.getKernel();
  if (kernel.size() != 2 || kernel[0] < 1 || kernel[1] < 1)
    return op.emitOpError("'kernel' must be two positive integers [h, w]");
  ArrayRef<int64_t> padding = op.getPadding();
  if (padding.size() == 4 &&
      (padding[0] >= kernel[0] || padding[2] >= kernel[0] ||
       padding[1] >= kernel[1] || padding[3] >= kernel[1]))
    return op.emitOpError("'padding' must be smaller than the kernel on "
                          "every side, so that every window overlaps the "
                          "input");
  int64_t ones[2] = {1, 1};
  if (failed(verifyWindow(op, kernel, op.getStrides(), op.getPadding(), ones,
                          inType, outType)))
    return failure();
  if (differ(inType.getDimSize(3), outType.getDimSize(3)))
    return op.emitOpError("input and result channel counts differ");
  return verifyActivationOf(op);
}

LogicalResult AvgPool2DOp::verify() { return verifyPool(*this); }
LogicalResult MaxPool2DOp::verify() { return verifyPool(*this); }

#define GET_OP_CLASSES
#include "NPU/IR/NPUOps.cpp.inc"

std::optional<SmallVector<int32_t>>
mlir::npu::getActivationTable(Operation *op) {
  Activation kind = op->getAttrOfType<ActivationAttr>("activation").getValue();
  if (kind != Activation::leaky_relu && kind != Activation::lut)
    return std::nullopt;
  Type element = cast<ShapedType>(op->getResult(0).getType()).getElementType();
  auto [qmin, qmax] = qnn::getStorageRange(element);
  int64_t actMin =
      static_cast<int32_t>(op->getAttrOfType<IntegerAttr>("act_min").getInt());
  int64_t actMax =
      static_cast<int32_t>(op->getAttrOfType<IntegerAttr>("act_max").getInt());
  qnn::math::LeakyReluParams leaky;
  int32_t leakyZeroPoint = 0, zeroPoint = 0;
  // The leaky ReLU stage's rule follows the op's (leakyEpilogueRounding).
  qnn::math::RoundingRule rule = qnn::math::RoundingRule::TFLite;
  if (auto rounding = op->getAttrOfType<qnn::RoundingAttr>("rounding"))
    rule = qnn::toRoundingRule(qnn::leakyEpilogueRounding(rounding.getValue()));
  ArrayRef<int32_t> lut;
  if (kind == Activation::leaky_relu) {
    ArrayRef<int32_t> p =
        op->getAttrOfType<DenseI32ArrayAttr>("leaky_params").asArrayRef();
    leaky.identity = {p[0], p[1]};
    leaky.alpha = {p[2], p[3]};
    leakyZeroPoint = p[4];
    zeroPoint = static_cast<int32_t>(
        op->getAttrOfType<IntegerAttr>("output_zero_point").getInt());
  } else {
    lut = op->getAttrOfType<DenseI32ArrayAttr>("lut").asArrayRef();
  }
  SmallVector<int32_t> table(256, 0);
  for (int64_t y = qmin; y <= qmax; ++y) {
    int64_t c = std::clamp(y, actMin, actMax);
    int64_t r = kind == Activation::leaky_relu
                    ? qnn::math::leakyReluQuantized(
                          c, zeroPoint, leaky, leakyZeroPoint, qmin, qmax, rule)
                    : lut[static_cast<uint8_t>(c)];
    table[static_cast<uint8_t>(y)] = static_cast<int32_t>(r);
  }
  return table;
}
