//===- Evaluator.cpp - exact reference evaluation of qnn programs ---------===//

#include "QNN/Reference/Evaluator.h"
#include "QNN/IR/QNNOps.h"
#include "QNN/Utils/QuantMath.h"
#include "QNN/Utils/QuantUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

using namespace mlir;
using namespace mlir::qnn;
using namespace mlir::qnn::ref;

//===----------------------------------------------------------------------===//
// Tensor helpers
//===----------------------------------------------------------------------===//

Tensor::Tensor(Type elementType, ArrayRef<int64_t> shape)
    : elementType(elementType), shape(shape) {
  if (isFloat())
    floats.assign(numElements(), 0.0f);
  else
    ints.assign(numElements(), 0);
}

int64_t Tensor::numElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

SmallVector<int64_t> Tensor::strides() const {
  SmallVector<int64_t> s(shape.size(), 1);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d)
    s[d] = s[d + 1] * shape[d + 1];
  return s;
}

int64_t mlir::qnn::ref::wrapToType(int64_t value, Type elementType) {
  auto intType = cast<IntegerType>(elementType);
  unsigned width = intType.getWidth();
  if (width >= 64)
    return value;
  uint64_t mask = (uint64_t(1) << width) - 1;
  uint64_t bits = static_cast<uint64_t>(value) & mask;
  if (intType.isUnsigned() || width == 1)
    return static_cast<int64_t>(bits);
  if (bits & (uint64_t(1) << (width - 1)))
    return static_cast<int64_t>(bits) - (int64_t(1) << width);
  return static_cast<int64_t>(bits);
}

int64_t mlir::qnn::ref::saturateToType(int64_t value, Type elementType) {
  auto [qmin, qmax] = getStorageRange(elementType);
  return std::clamp(value, qmin, qmax);
}

int64_t mlir::qnn::ref::elementByteSize(Type type) {
  unsigned bits = type.getIntOrFloatBitWidth();
  return bits <= 8 ? 1 : bits / 8;
}

FailureOr<Tensor> mlir::qnn::ref::tensorFromBytes(RankedTensorType type,
                                                  ArrayRef<char> bytes,
                                                  std::string &error) {
  if (!type.hasStaticShape()) {
    error = "dynamic shapes are not supported";
    return failure();
  }
  Type element = type.getElementType();
  if (!element.isIntOrFloat() ||
      (isa<FloatType>(element) && !element.isF32() && !element.isF16())) {
    error = "unsupported element type";
    return failure();
  }
  Tensor t(element, type.getShape());
  int64_t size = elementByteSize(element);
  int64_t expected = size * t.numElements();
  if (static_cast<int64_t>(bytes.size()) != expected) {
    error = "expected " + std::to_string(expected) + " bytes, got " +
            std::to_string(bytes.size());
    return failure();
  }
  for (int64_t i = 0; i < t.numElements(); ++i) {
    const char *p = bytes.data() + i * size;
    if (element.isF16()) {
      uint16_t half;
      std::memcpy(&half, p, 2);
      t.floats[i] = llvm::APFloat(llvm::APFloat::IEEEhalf(),
                                  llvm::APInt(16, half))
                        .convertToFloat();
      continue;
    }
    if (t.isFloat()) {
      std::memcpy(&t.floats[i], p, 4);
      continue;
    }
    uint64_t raw = 0;
    std::memcpy(&raw, p, size); // little-endian host
    t.ints[i] = wrapToType(static_cast<int64_t>(raw), element);
  }
  return t;
}

std::vector<char> mlir::qnn::ref::tensorToBytes(const Tensor &t) {
  int64_t size = elementByteSize(t.elementType);
  std::vector<char> bytes(size * t.numElements());
  for (int64_t i = 0; i < t.numElements(); ++i) {
    char *p = bytes.data() + i * size;
    if (t.elementType.isF16()) {
      llvm::APFloat f(t.floats[i]);
      bool losesInfo = false;
      f.convert(llvm::APFloat::IEEEhalf(), llvm::APFloat::rmNearestTiesToEven,
                &losesInfo);
      uint16_t half =
          static_cast<uint16_t>(f.bitcastToAPInt().getZExtValue());
      std::memcpy(p, &half, 2);
    } else if (t.isFloat()) {
      std::memcpy(p, &t.floats[i], 4);
    } else {
      uint64_t raw = static_cast<uint64_t>(t.ints[i]);
      std::memcpy(p, &raw, size);
    }
  }
  return bytes;
}

/// Reads an integer element of an attribute honouring the type's signedness.
static int64_t apIntValue(const APInt &v, Type type) {
  auto intType = cast<IntegerType>(type);
  if (intType.isUnsigned() || intType.getWidth() == 1)
    return static_cast<int64_t>(v.getZExtValue());
  return v.getSExtValue();
}

static FailureOr<Tensor> tensorFromAttr(Operation *op, Attribute attr) {
  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    auto type = cast<ShapedType>(dense.getType());
    Tensor t(type.getElementType(), type.getShape());
    if (t.isFloat()) {
      if (!type.getElementType().isF32())
        return op->emitError("only f32 float constants are supported");
      int64_t i = 0;
      for (const APFloat &v : dense.getValues<APFloat>())
        t.floats[i++] = v.convertToFloat();
    } else if (isa<IntegerType>(type.getElementType())) {
      int64_t i = 0;
      for (const APInt &v : dense.getValues<APInt>())
        t.ints[i++] = apIntValue(v, type.getElementType());
    } else {
      return op->emitError("unsupported constant element type");
    }
    return t;
  }
  if (auto intAttr = dyn_cast<IntegerAttr>(attr)) {
    Tensor t(intAttr.getType(), {});
    if (isa<IndexType>(intAttr.getType())) {
      t.elementType = IntegerType::get(op->getContext(), 64);
      t.ints = {intAttr.getInt()};
    } else {
      t.ints = {apIntValue(intAttr.getValue(), intAttr.getType())};
    }
    return t;
  }
  if (auto floatAttr = dyn_cast<FloatAttr>(attr)) {
    Tensor t(floatAttr.getType(), {});
    t.floats = {static_cast<float>(floatAttr.getValueAsDouble())};
    return t;
  }
  if (isa<DenseResourceElementsAttr>(attr))
    return op->emitError(
        "dense_resource constants are not supported by the reference");
  return op->emitError("unsupported constant attribute");
}

static RankedTensorType resultType(Operation *op, unsigned i = 0) {
  return dyn_cast<RankedTensorType>(op->getResult(i).getType());
}

/// Index of the element at `index` of a tensor broadcast to `outShape`.
static int64_t broadcastIndex(const Tensor &t, ArrayRef<int64_t> outShape,
                              int64_t linear) {
  SmallVector<int64_t> strides = t.strides();
  int64_t rankDiff = static_cast<int64_t>(outShape.size()) - t.shape.size();
  int64_t offset = 0;
  for (int64_t d = outShape.size() - 1; d >= 0; --d) {
    int64_t coord = linear % outShape[d];
    linear /= outShape[d];
    int64_t td = d - rankDiff;
    if (td < 0)
      continue;
    if (t.shape[td] != 1)
      offset += coord * strides[td];
  }
  return offset;
}

/// For each element of `t`, the index in `r` (t's shape with `axes` reduced
/// to 1) that it reduces into.
static SmallVector<int64_t> reducedIndices(const Tensor &t, const Tensor &r,
                                           ArrayRef<int64_t> axes) {
  SmallVector<int64_t> inStrides = t.strides(), outStrides = r.strides();
  SmallVector<bool> reduced(t.shape.size(), false);
  for (int64_t a : axes)
    reduced[a] = true;
  SmallVector<int64_t> result(t.numElements());
  for (int64_t i = 0; i < t.numElements(); ++i) {
    int64_t o = 0, rest = i;
    for (size_t d = 0; d < t.shape.size(); ++d) {
      int64_t idx = rest / inStrides[d];
      rest %= inStrides[d];
      if (!reduced[d])
        o += idx * outStrides[d];
    }
    result[i] = o;
  }
  return result;
}

//===----------------------------------------------------------------------===//
// Windowed ops (convolution and pooling)
//===----------------------------------------------------------------------===//

namespace {
/// Accessor for a 4-D activation tensor in either layout.
struct Activation4D {
  const Tensor &t;
  ActivationDims dims;
  SmallVector<int64_t> strides;
  Activation4D(const Tensor &t, ActivationLayout layout)
      : t(t), dims(getActivationDims(layout)), strides(t.strides()) {}
  int64_t n() const { return t.shape[dims.n]; }
  int64_t h() const { return t.shape[dims.h]; }
  int64_t w() const { return t.shape[dims.w]; }
  int64_t c() const { return t.shape[dims.c]; }
  int64_t offset(int64_t n, int64_t h, int64_t w, int64_t c) const {
    return n * strides[dims.n] + h * strides[dims.h] + w * strides[dims.w] +
           c * strides[dims.c];
  }
};
} // namespace

static LogicalResult evalConv2D(Conv2DOp op, ArrayRef<Tensor> operands,
                                SmallVectorImpl<Tensor> &results) {
  const Tensor &input = operands[0], &weight = operands[1];
  Activation4D in(input, op.getDataLayout());
  KernelDims kd = getKernelDims(op.getKernelLayout());
  SmallVector<int64_t> wStrides = weight.strides();
  Tensor out(resultType(op).getElementType(), resultType(op).getShape());
  Activation4D o(out, op.getDataLayout());
  int64_t groups = static_cast<int64_t>(op.getGroups());
  int64_t outChannels = weight.shape[kd.o];
  int64_t perGroupIn = weight.shape[kd.i];
  int64_t perGroupOut = outChannels / groups;
  int64_t kh = weight.shape[kd.h], kw = weight.shape[kd.w];
  ArrayRef<int64_t> s = op.getStrides(), p = op.getPadding(),
                    d = op.getDilations();
  int64_t inZp = static_cast<int32_t>(op.getInputZeroPoint());
  int64_t wZp = static_cast<int32_t>(op.getWeightZeroPoint());
  for (int64_t n = 0; n < o.n(); ++n)
    for (int64_t oh = 0; oh < o.h(); ++oh)
      for (int64_t ow = 0; ow < o.w(); ++ow)
        for (int64_t oc = 0; oc < outChannels; ++oc) {
          int64_t g = oc / perGroupOut;
          int64_t acc = 0;
          for (int64_t y = 0; y < kh; ++y) {
            int64_t ih = oh * s[0] + y * d[0] - p[0];
            if (ih < 0 || ih >= in.h())
              continue;
            for (int64_t x = 0; x < kw; ++x) {
              int64_t iw = ow * s[1] + x * d[1] - p[1];
              if (iw < 0 || iw >= in.w())
                continue;
              for (int64_t i = 0; i < perGroupIn; ++i) {
                int64_t a =
                    input.ints[in.offset(n, ih, iw, g * perGroupIn + i)] - inZp;
                int64_t b =
                    weight.ints[oc * wStrides[kd.o] + i * wStrides[kd.i] +
                                y * wStrides[kd.h] + x * wStrides[kd.w]] -
                    wZp;
                acc += a * b;
              }
            }
          }
          out.ints[o.offset(n, oh, ow, oc)] = wrapToType(acc, out.elementType);
        }
  results.push_back(std::move(out));
  return success();
}

template <typename PoolOp>
static LogicalResult evalPool(PoolOp op, ArrayRef<Tensor> operands,
                              SmallVectorImpl<Tensor> &results, bool average) {
  const Tensor &input = operands[0];
  Activation4D in(input, op.getDataLayout());
  Tensor out(resultType(op).getElementType(), resultType(op).getShape());
  Activation4D o(out, op.getDataLayout());
  ArrayRef<int64_t> k = op.getKernel(), s = op.getStrides(),
                    p = op.getPadding();
  for (int64_t n = 0; n < o.n(); ++n)
    for (int64_t oh = 0; oh < o.h(); ++oh)
      for (int64_t ow = 0; ow < o.w(); ++ow)
        for (int64_t c = 0; c < o.c(); ++c) {
          int64_t sum = 0, count = 0;
          int64_t best = std::numeric_limits<int64_t>::min();
          // Only the part of the window that overlaps the input counts (as
          // in TFLite's kernels); iterating over it alone keeps the cost
          // bounded by the input even for a window of 2^30 columns.
          WindowSpan hs = windowOverlap(oh * s[0] - p[0], k[0], in.h());
          WindowSpan ws = windowOverlap(ow * s[1] - p[1], k[1], in.w());
          for (int64_t ih = hs.begin; ih < hs.end; ++ih) {
            for (int64_t iw = ws.begin; iw < ws.end; ++iw) {
              int64_t v = input.ints[in.offset(n, ih, iw, c)];
              sum += v;
              best = std::max(best, v);
              ++count;
            }
          }
          int64_t value = average ? math::roundedAverage(sum, count) : best;
          out.ints[o.offset(n, oh, ow, c)] =
              saturateToType(value, out.elementType);
        }
  results.push_back(std::move(out));
  return success();
}

//===----------------------------------------------------------------------===//
// qnn ops
//===----------------------------------------------------------------------===//

static int64_t channelIndex(int64_t linear, ArrayRef<int64_t> shape,
                            std::optional<uint64_t> axis, size_t count) {
  if (count == 1 || !axis)
    return 0;
  int64_t stride = 1;
  for (size_t d = *axis + 1; d < shape.size(); ++d)
    stride *= shape[d];
  return (linear / stride) % shape[*axis];
}

static void registerQNNOps(Evaluator &e) {
  e.registerOp(
      "qnn.quantize",
      [](Operation *raw, ArrayRef<Tensor> in,
         SmallVectorImpl<Tensor> &out) -> LogicalResult {
        auto op = cast<QuantizeOp>(raw);
        Tensor r(resultType(op).getElementType(), resultType(op).getShape());
        auto [qmin, qmax] = getStorageRange(r.elementType);
        for (int64_t i = 0; i < r.numElements(); ++i) {
          int64_t cs =
              channelIndex(i, r.shape, op.getAxis(), op.getScale().size());
          int64_t cz =
              channelIndex(i, r.shape, op.getAxis(), op.getZeroPoint().size());
          r.ints[i] = math::quantizeFloat(
              in[0].floats[i], op.getScale()[cs], op.getZeroPoint()[cz], qmin,
              qmax, op.getRounding() == Rounding::onnx);
        }
        out.push_back(std::move(r));
        return success();
      });
  e.registerOp(
      "qnn.dequantize",
      [](Operation *raw, ArrayRef<Tensor> in,
         SmallVectorImpl<Tensor> &out) -> LogicalResult {
        auto op = cast<DequantizeOp>(raw);
        Tensor r(resultType(op).getElementType(), resultType(op).getShape());
        for (int64_t i = 0; i < r.numElements(); ++i) {
          int64_t cs =
              channelIndex(i, r.shape, op.getAxis(), op.getScale().size());
          int64_t cz =
              channelIndex(i, r.shape, op.getAxis(), op.getZeroPoint().size());
          r.floats[i] =
              r.elementType.isF16()
                  ? math::dequantizeValueF16(in[0].ints[i], op.getScale()[cs],
                                             op.getZeroPoint()[cz])
                  : math::dequantizeValue(in[0].ints[i], op.getScale()[cs],
                                          op.getZeroPoint()[cz]);
        }
        out.push_back(std::move(r));
        return success();
      });
  e.registerOp(
      "qnn.requantize",
      [](Operation *raw, ArrayRef<Tensor> in,
         SmallVectorImpl<Tensor> &out) -> LogicalResult {
        auto op = cast<RequantizeOp>(raw);
        Tensor r(resultType(op).getElementType(), resultType(op).getShape());
        auto [qmin, qmax] = getStorageRange(r.elementType);
        float outputScale = op.getOutputScale().convertToFloat();
        SmallVector<math::QuantizedMultiplier> multipliers;
        SmallVector<float> onnxFactors;
        for (double scale : op.getInputScale()) {
          multipliers.push_back(math::requantizeMultiplier(scale, outputScale));
          onnxFactors.push_back(
              math::onnxRequantizeFactor(scale, outputScale));
        }
        math::RoundingRule rule = toRoundingRule(op.getRounding());
        auto inZp = static_cast<int32_t>(op.getInputZeroPoint());
        auto outZp = static_cast<int32_t>(op.getOutputZeroPoint());
        for (int64_t i = 0; i < r.numElements(); ++i) {
          int64_t c =
              channelIndex(i, r.shape, op.getAxis(), multipliers.size());
          r.ints[i] = rule == math::RoundingRule::ONNX
                          ? math::requantizeONNX(in[0].ints[i], inZp,
                                                 onnxFactors[c], outZp, qmin,
                                                 qmax)
                          : math::requantize(in[0].ints[i], inZp,
                                             multipliers[c], outZp, qmin,
                                             qmax, rule);
        }
        out.push_back(std::move(r));
        return success();
      });
  e.registerOp("qnn.conv2d",
               [](Operation *raw, ArrayRef<Tensor> in,
                  SmallVectorImpl<Tensor> &out) -> LogicalResult {
                 return evalConv2D(cast<Conv2DOp>(raw), in, out);
               });
  e.registerOp(
      "qnn.dense",
      [](Operation *raw, ArrayRef<Tensor> in,
         SmallVectorImpl<Tensor> &out) -> LogicalResult {
        auto op = cast<DenseOp>(raw);
        const Tensor &x = in[0], &w = in[1];
        Tensor r(resultType(op).getElementType(), resultType(op).getShape());
        int64_t batch = x.shape[0], depth = x.shape[1], outC = w.shape[0];
        int64_t inZp = static_cast<int32_t>(op.getInputZeroPoint());
        int64_t wZp = static_cast<int32_t>(op.getWeightZeroPoint());
        for (int64_t n = 0; n < batch; ++n)
          for (int64_t o = 0; o < outC; ++o) {
            int64_t acc = 0;
            for (int64_t k = 0; k < depth; ++k)
              acc += (x.ints[n * depth + k] - inZp) *
                     (w.ints[o * depth + k] - wZp);
            r.ints[n * outC + o] = wrapToType(acc, r.elementType);
          }
        out.push_back(std::move(r));
        return success();
      });
  // qnn.add and qnn.subtract: TFLite's ADD sequence (SUB negates the rhs
  // multiplier).
  auto addLike = [](auto op, ArrayRef<Tensor> in, SmallVectorImpl<Tensor> &out,
                    bool subtract) -> LogicalResult {
    Tensor r(resultType(op).getElementType(), resultType(op).getShape());
    auto [qmin, qmax] = getStorageRange(r.elementType);
    auto params = subtract ? math::computeSubParams : math::computeAddParams;
    math::AddParams p = params(op.getLhsScale().convertToFloat(),
                               static_cast<int32_t>(op.getLhsZeroPoint()),
                               op.getRhsScale().convertToFloat(),
                               static_cast<int32_t>(op.getRhsZeroPoint()),
                               op.getOutputScale().convertToFloat(),
                               static_cast<int32_t>(op.getOutputZeroPoint()));
    math::RoundingRule rule = toRoundingRule(op.getRounding());
    for (int64_t i = 0; i < r.numElements(); ++i) {
      int64_t lhs = in[0].ints[broadcastIndex(in[0], r.shape, i)];
      int64_t rhs = in[1].ints[broadcastIndex(in[1], r.shape, i)];
      if (rule == math::RoundingRule::Upward ||
          rule == math::RoundingRule::ToNearest) {
        r.ints[i] = math::addQuantizedTVM(
            lhs, rhs, op.getLhsScale().convertToFloat(),
            static_cast<int32_t>(op.getLhsZeroPoint()),
            op.getRhsScale().convertToFloat(),
            static_cast<int32_t>(op.getRhsZeroPoint()),
            op.getOutputScale().convertToFloat(),
            static_cast<int32_t>(op.getOutputZeroPoint()), qmin, qmax, rule,
            subtract);
        continue;
      }
      r.ints[i] =
          rule == math::RoundingRule::ONNX
              ? math::addQuantizedONNX(
                    lhs, rhs, op.getLhsScale().convertToFloat(),
                    static_cast<int32_t>(op.getLhsZeroPoint()),
                    op.getRhsScale().convertToFloat(),
                    static_cast<int32_t>(op.getRhsZeroPoint()),
                    op.getOutputScale().convertToFloat(),
                    static_cast<int32_t>(op.getOutputZeroPoint()), qmin,
                    qmax, subtract)
              : math::addQuantized(lhs, rhs, p, qmin, qmax, rule);
    }
    out.push_back(std::move(r));
    return success();
  };
  e.registerOp("qnn.add",
               [addLike](Operation *raw, ArrayRef<Tensor> in,
                         SmallVectorImpl<Tensor> &out) -> LogicalResult {
                 return addLike(cast<AddOp>(raw), in, out, false);
               });
  e.registerOp("qnn.subtract",
               [addLike](Operation *raw, ArrayRef<Tensor> in,
                         SmallVectorImpl<Tensor> &out) -> LogicalResult {
                 return addLike(cast<SubtractOp>(raw), in, out, true);
               });
  e.registerOp(
      "qnn.mul",
      [](Operation *raw, ArrayRef<Tensor> in,
         SmallVectorImpl<Tensor> &out) -> LogicalResult {
        auto op = cast<MulOp>(raw);
        Tensor r(resultType(op).getElementType(), resultType(op).getShape());
        auto [qmin, qmax] = getStorageRange(r.elementType);
        math::RoundingRule rule = toRoundingRule(op.getRounding());
        bool tvm = rule == math::RoundingRule::Upward ||
                   rule == math::RoundingRule::ToNearest;
        math::QuantizedMultiplier m =
            math::computeMulMultiplier(op.getLhsScale().convertToFloat(),
                                       op.getRhsScale().convertToFloat(),
                                       op.getOutputScale().convertToFloat());
        auto lhsZp = static_cast<int32_t>(op.getLhsZeroPoint());
        auto rhsZp = static_cast<int32_t>(op.getRhsZeroPoint());
        auto outZp = static_cast<int32_t>(op.getOutputZeroPoint());
        bool onnx = op.getRounding() == Rounding::onnx;
        for (int64_t i = 0; i < r.numElements(); ++i) {
          int64_t lhs = in[0].ints[broadcastIndex(in[0], r.shape, i)];
          int64_t rhs = in[1].ints[broadcastIndex(in[1], r.shape, i)];
          if (tvm) {
            r.ints[i] = math::mulQuantizedTVM(
                lhs, rhs, op.getLhsScale().convertToFloat(), lhsZp,
                op.getRhsScale().convertToFloat(), rhsZp,
                op.getOutputScale().convertToFloat(), outZp, qmin, qmax, rule);
            continue;
          }
          r.ints[i] =
              onnx ? math::mulQuantizedONNX(
                         lhs, rhs, op.getLhsScale().convertToFloat(), lhsZp,
                         op.getRhsScale().convertToFloat(), rhsZp,
                         op.getOutputScale().convertToFloat(), outZp, qmin,
                         qmax)
                   : math::mulQuantized(lhs, rhs, lhsZp, rhsZp, m, outZp, qmin,
                                        qmax, toRoundingRule(op.getRounding()));
        }
        out.push_back(std::move(r));
        return success();
      });
  e.registerOp("qnn.avg_pool2d",
               [](Operation *raw, ArrayRef<Tensor> in,
                  SmallVectorImpl<Tensor> &out) -> LogicalResult {
                 return evalPool(cast<AvgPool2DOp>(raw), in, out,
                                 /*average=*/true);
               });
  e.registerOp("qnn.max_pool2d",
               [](Operation *raw, ArrayRef<Tensor> in,
                  SmallVectorImpl<Tensor> &out) -> LogicalResult {
                 return evalPool(cast<MaxPool2DOp>(raw), in, out,
                                 /*average=*/false);
               });
  e.registerOp(
      "qnn.resize_bilinear",
      [](Operation *raw, ArrayRef<Tensor> in,
         SmallVectorImpl<Tensor> &out) -> LogicalResult {
        auto op = cast<ResizeBilinearOp>(raw);
        const Tensor &t = in[0];
        Tensor r(resultType(op).getElementType(), resultType(op).getShape());
        int64_t n = t.shape[0], h = t.shape[1], w = t.shape[2],
                c = t.shape[3], oh = r.shape[1], ow = r.shape[2];
        if (op.getArithmetic() == ResizeArithmetic::float32) {
          auto ya = ResizeBilinearOp::computeFloatAxis(
              h, oh, op.getAlignCorners(), op.getHalfPixelCenters());
          auto xa = ResizeBilinearOp::computeFloatAxis(
              w, ow, op.getAlignCorners(), op.getHalfPixelCenters());
          auto at = [&](int64_t b, int64_t y, int64_t x, int64_t ch) {
            return static_cast<float>(t.ints[((b * h + y) * w + x) * c + ch]);
          };
          for (int64_t b = 0; b < n; ++b)
            for (int64_t y = 0; y < oh; ++y)
              for (int64_t x = 0; x < ow; ++x)
                for (int64_t ch = 0; ch < c; ++ch) {
                  // One float32 rounding per operation, in TFLite's order.
                  float fy = ya.frac[y], fx = xa.frac[x];
                  float gy = 1.0f - fy, gx = 1.0f - fx;
                  float t00 = at(b, ya.lower[y], xa.lower[x], ch) * gy;
                  t00 = t00 * gx;
                  float t10 = at(b, ya.upper[y], xa.lower[x], ch) * fy;
                  t10 = t10 * gx;
                  float t01 = at(b, ya.lower[y], xa.upper[x], ch) * gy;
                  t01 = t01 * fx;
                  float t11 = at(b, ya.upper[y], xa.upper[x], ch) * fy;
                  t11 = t11 * fx;
                  float sum = t00 + t10;
                  sum = sum + t01;
                  sum = sum + t11;
                  r.ints[((b * oh + y) * ow + x) * c + ch] = wrapToType(
                      static_cast<int32_t>(std::trunc(sum)), r.elementType);
                }
          out.push_back(std::move(r));
          return success();
        }
        auto ya = ResizeBilinearOp::computeAxis(h, oh, op.getAlignCorners(),
                                                op.getHalfPixelCenters());
        auto xa = ResizeBilinearOp::computeAxis(w, ow, op.getAlignCorners(),
                                                op.getHalfPixelCenters());
        auto at = [&](int64_t b, int64_t y, int64_t x, int64_t ch) {
          return t.ints[((b * h + y) * w + x) * c + ch];
        };
        const int64_t one = 1 << 10;
        for (int64_t b = 0; b < n; ++b)
          for (int64_t y = 0; y < oh; ++y)
            for (int64_t x = 0; x < ow; ++x)
              for (int64_t ch = 0; ch < c; ++ch) {
                int64_t wy = ya.weight[y], wx = xa.weight[x];
                int64_t s =
                    at(b, ya.lower[y], xa.lower[x], ch) * (one - wy) *
                        (one - wx) +
                    at(b, ya.upper[y], xa.lower[x], ch) * wy * (one - wx) +
                    at(b, ya.lower[y], xa.upper[x], ch) * (one - wy) * wx +
                    at(b, ya.upper[y], xa.upper[x], ch) * wy * wx;
                int64_t round = s > 0 ? (1 << 19) : -(1 << 19);
                r.ints[((b * oh + y) * ow + x) * c + ch] =
                    wrapToType((s + round) / (1 << 20), r.elementType);
              }
        out.push_back(std::move(r));
        return success();
      });
  // qnn.reduce_max / qnn.reduce_min: the extreme stored integer over `axes`.
  auto reduce = [](Operation *raw, ArrayRef<int64_t> axes, bool isMax,
                   ArrayRef<Tensor> in, SmallVectorImpl<Tensor> &out) {
    const Tensor &t = in[0];
    Tensor r(resultType(raw).getElementType(), resultType(raw).getShape());
    SmallVector<bool> seen(r.numElements(), false);
    SmallVector<int64_t> outIndex = reducedIndices(t, r, axes);
    for (int64_t i = 0; i < t.numElements(); ++i) {
      int64_t o = outIndex[i];
      int64_t v = t.ints[i];
      if (!seen[o] || (isMax ? v > r.ints[o] : v < r.ints[o]))
        r.ints[o] = v;
      seen[o] = true;
    }
    out.push_back(std::move(r));
    return success();
  };
  e.registerOp("qnn.reduce_max",
               [reduce](Operation *raw, ArrayRef<Tensor> in,
                        SmallVectorImpl<Tensor> &out) -> LogicalResult {
                 return reduce(raw, cast<ReduceMaxOp>(raw).getAxes(), true, in,
                               out);
               });
  e.registerOp("qnn.reduce_min",
               [reduce](Operation *raw, ArrayRef<Tensor> in,
                        SmallVectorImpl<Tensor> &out) -> LogicalResult {
                 return reduce(raw, cast<ReduceMinOp>(raw).getAxes(), false,
                               in, out);
               });
  // qnn.reduce_sum: TFLite's QuantizedMeanOrSum, the centred i32 sum over
  // `axes` rescaled once (the count folded in for a mean).
  e.registerOp(
      "qnn.reduce_sum",
      [](Operation *raw, ArrayRef<Tensor> in,
         SmallVectorImpl<Tensor> &out) -> LogicalResult {
        auto op = cast<ReduceSumOp>(raw);
        const Tensor &t = in[0];
        Tensor r(resultType(op).getElementType(), resultType(op).getShape());
        auto [qmin, qmax] = getStorageRange(r.elementType);
        int64_t count = 1;
        for (int64_t a : op.getAxes())
          count *= t.shape[a];
        SmallVector<int64_t> outIndex = reducedIndices(t, r, op.getAxes());
        SmallVector<int64_t> sums(r.numElements(), 0);
        for (int64_t i = 0; i < t.numElements(); ++i)
          sums[outIndex[i]] += t.ints[i];
        math::QuantizedMultiplier m = math::tfliteSumMultiplier(
            op.getInputScale().convertToFloat(),
            op.getOutputScale().convertToFloat(), count, op.getAverage());
        int64_t zpIn = static_cast<int32_t>(op.getInputZeroPoint());
        int64_t zpOut = static_cast<int32_t>(op.getOutputZeroPoint());
        for (int64_t o = 0; o < r.numElements(); ++o) {
          int32_t centered = static_cast<int32_t>(sums[o] - zpIn * count);
          r.ints[o] = std::clamp<int64_t>(
              static_cast<int64_t>(math::multiplyByQuantizedMultiplier(
                  centered, m, toRoundingRule(op.getRounding()))) +
                  zpOut,
              qmin, qmax);
        }
        out.push_back(std::move(r));
        return success();
      });
  e.registerOp(
      "qnn.batch_matmul",
      [](Operation *raw, ArrayRef<Tensor> in,
         SmallVectorImpl<Tensor> &out) -> LogicalResult {
        auto op = cast<BatchMatMulOp>(raw);
        Tensor r(resultType(op).getElementType(), resultType(op).getShape());
        size_t rank = r.shape.size();
        int64_t m = r.shape[rank - 2], n = r.shape[rank - 1];
        int64_t k = in[0].shape[rank - 1];
        int64_t batches = r.numElements() / std::max<int64_t>(m * n, 1);
        int64_t lzp = static_cast<int32_t>(op.getLhsZeroPoint());
        int64_t rzp = static_cast<int32_t>(op.getRhsZeroPoint());
        // The operand's batch (flat) of result batch `b`: size-1 batch
        // dimensions broadcast.
        auto operandBatch = [&](const Tensor &t, int64_t b) {
          int64_t index = 0, stride = 1;
          for (int64_t d = static_cast<int64_t>(rank) - 3; d >= 0; --d) {
            int64_t coord = b % r.shape[d];
            b /= r.shape[d];
            if (t.shape[d] != 1)
              index += coord * stride;
            stride *= t.shape[d];
          }
          return index;
        };
        for (int64_t b = 0; b < batches; ++b) {
          int64_t lb = operandBatch(in[0], b), rb = operandBatch(in[1], b);
          for (int64_t i = 0; i < m; ++i)
            for (int64_t j = 0; j < n; ++j) {
              int64_t acc = 0;
              for (int64_t t = 0; t < k; ++t)
                acc += (in[0].ints[(lb * m + i) * k + t] - lzp) *
                       (in[1].ints[(rb * k + t) * n + j] - rzp);
              r.ints[(b * m + i) * n + j] = wrapToType(acc, r.elementType);
            }
        }
        out.push_back(std::move(r));
        return success();
      });
  e.registerOp(
      "qnn.div",
      [](Operation *raw, ArrayRef<Tensor> in,
         SmallVectorImpl<Tensor> &out) -> LogicalResult {
        auto op = cast<DivOp>(raw);
        Tensor r(resultType(op).getElementType(), resultType(op).getShape());
        auto [qmin, qmax] = getStorageRange(r.elementType);
        math::QuantizedMultiplier m = math::tfliteDivMultiplier(
            op.getLhsScale().convertToFloat(),
            op.getRhsScale().convertToFloat(),
            op.getOutputScale().convertToFloat());
        for (int64_t i = 0; i < r.numElements(); ++i)
          r.ints[i] = math::divQuantized(
              in[0].ints[broadcastIndex(in[0], r.shape, i)],
              in[1].ints[broadcastIndex(in[1], r.shape, i)],
              static_cast<int32_t>(op.getLhsZeroPoint()),
              static_cast<int32_t>(op.getRhsZeroPoint()), m,
              static_cast<int32_t>(op.getOutputZeroPoint()), qmin, qmax);
        out.push_back(std::move(r));
        return success();
      });
  e.registerOp(
      "qnn.squared_difference",
      [](Operation *raw, ArrayRef<Tensor> in,
         SmallVectorImpl<Tensor> &out) -> LogicalResult {
        auto op = cast<SquaredDifferenceOp>(raw);
        Tensor r(resultType(op).getElementType(), resultType(op).getShape());
        auto [qmin, qmax] = getStorageRange(r.elementType);
        math::AddParams p = math::computeSquaredDifferenceParams(
            op.getLhsScale().convertToFloat(),
            static_cast<int32_t>(op.getLhsZeroPoint()),
            op.getRhsScale().convertToFloat(),
            static_cast<int32_t>(op.getRhsZeroPoint()),
            op.getOutputScale().convertToFloat(),
            static_cast<int32_t>(op.getOutputZeroPoint()));
        for (int64_t i = 0; i < r.numElements(); ++i)
          r.ints[i] = math::squaredDifferenceQuantized(
              in[0].ints[broadcastIndex(in[0], r.shape, i)],
              in[1].ints[broadcastIndex(in[1], r.shape, i)], p, qmin, qmax,
              toRoundingRule(op.getRounding()));
        out.push_back(std::move(r));
        return success();
      });
  e.registerOp(
      "qnn.prelu",
      [](Operation *raw, ArrayRef<Tensor> in,
         SmallVectorImpl<Tensor> &out) -> LogicalResult {
        auto op = cast<PReluOp>(raw);
        Tensor r(resultType(op).getElementType(), resultType(op).getShape());
        auto [qmin, qmax] = getStorageRange(r.elementType);
        math::PReluParams p = math::computePReluParams(
            op.getInputScale().convertToFloat(),
            op.getAlphaScale().convertToFloat(),
            op.getOutputScale().convertToFloat());
        for (int64_t i = 0; i < r.numElements(); ++i)
          r.ints[i] = math::preluQuantized(
              in[0].ints[i], in[1].ints[broadcastIndex(in[1], r.shape, i)],
              static_cast<int32_t>(op.getInputZeroPoint()),
              static_cast<int32_t>(op.getAlphaZeroPoint()), p,
              static_cast<int32_t>(op.getOutputZeroPoint()), qmin, qmax,
              toRoundingRule(op.getRounding()));
        out.push_back(std::move(r));
        return success();
      });
  e.registerOp(
      "qnn.rescale_avg_pool2d",
      [](Operation *raw, ArrayRef<Tensor> in,
         SmallVectorImpl<Tensor> &out) -> LogicalResult {
        // ONNX Runtime's QLinearAveragePool: a float32 sum of dequantized
        // values over the window clipped to the input, in row order.
        auto op = cast<RescaleAvgPool2DOp>(raw);
        const Tensor &input = in[0];
        Activation4D x(input, op.getDataLayout());
        Tensor r(resultType(op).getElementType(), resultType(op).getShape());
        Activation4D o(r, op.getDataLayout());
        auto [qmin, qmax] = getStorageRange(r.elementType);
        ArrayRef<int64_t> k = op.getKernel(), s = op.getStrides(),
                          p = op.getPadding();
        float inScale = op.getInputScale().convertToFloat();
        auto inZp = static_cast<int32_t>(op.getInputZeroPoint());
        float outScale = op.getOutputScale().convertToFloat();
        auto outZp = static_cast<int32_t>(op.getOutputZeroPoint());
        for (int64_t n = 0; n < o.n(); ++n)
          for (int64_t oh = 0; oh < o.h(); ++oh)
            for (int64_t ow = 0; ow < o.w(); ++ow)
              for (int64_t c = 0; c < o.c(); ++c) {
                WindowSpan hs = windowOverlap(oh * s[0] - p[0], k[0], x.h());
                WindowSpan ws = windowOverlap(ow * s[1] - p[1], k[1], x.w());
                float sum = 0.0f;
                for (int64_t ih = hs.begin; ih < hs.end; ++ih)
                  for (int64_t iw = ws.begin; iw < ws.end; ++iw)
                    sum += inScale * static_cast<float>(
                                         input.ints[x.offset(n, ih, iw, c)] -
                                         inZp);
                int64_t count = op.getCountIncludePad()
                                    ? k[0] * k[1]
                                    : hs.count() * ws.count();
                r.ints[o.offset(n, oh, ow, c)] = math::onnxAvgPoolOutput(
                    sum, count, outScale, outZp, qmin, qmax);
              }
        out.push_back(std::move(r));
        return success();
      });
  e.registerOp(
      "qnn.global_avg_pool",
      [](Operation *raw, ArrayRef<Tensor> in,
         SmallVectorImpl<Tensor> &out) -> LogicalResult {
        auto op = cast<GlobalAvgPoolOp>(raw);
        const Tensor &t = in[0];
        Tensor r(resultType(op).getElementType(), resultType(op).getShape());
        auto [qmin, qmax] = getStorageRange(r.elementType);
        ActivationDims d = getActivationDims(op.getDataLayout());
        int64_t count = t.shape[d.h] * t.shape[d.w];
        float factor = math::onnxGlobalAvgPoolFactor(
            op.getInputScale().convertToFloat(),
            op.getOutputScale().convertToFloat(), count);
        int64_t zpIn = static_cast<int32_t>(op.getInputZeroPoint());
        int64_t zpOut = static_cast<int32_t>(op.getOutputZeroPoint());
        SmallVector<int64_t> strides = t.strides();
        SmallVector<int64_t> rStrides = r.strides();
        for (int64_t n = 0; n < t.shape[d.n]; ++n)
          for (int64_t c = 0; c < t.shape[d.c]; ++c) {
            int64_t sum = 0;
            for (int64_t h = 0; h < t.shape[d.h]; ++h)
              for (int64_t w = 0; w < t.shape[d.w]; ++w)
                sum += t.ints[n * strides[d.n] + c * strides[d.c] +
                              h * strides[d.h] + w * strides[d.w]];
            int64_t &y = r.ints[n * rStrides[d.n] + c * rStrides[d.c]];
            if (op.getRounding() == Rounding::onnx) {
              y = math::requantizeONNX(sum - zpIn * count, 0, factor,
                                       static_cast<int32_t>(zpOut), qmin, qmax);
              continue;
            }
            // TFLite's QuantizedMeanOrSum: the centred sum (cast to i32)
            // rescaled once by the multiplier with the count folded in.
            math::QuantizedMultiplier m = math::tfliteMeanMultiplier(
                op.getInputScale().convertToFloat(),
                op.getOutputScale().convertToFloat(), count);
            int32_t centered = static_cast<int32_t>(sum - zpIn * count);
            y = std::clamp<int64_t>(
                static_cast<int64_t>(math::multiplyByQuantizedMultiplier(
                    centered, m, toRoundingRule(op.getRounding()))) +
                    zpOut,
                qmin, qmax);
          }
        out.push_back(std::move(r));
        return success();
      });
  // Arg max / min: the first extreme index along the axis.
  auto argExtremum = [](Operation *op, ArrayRef<Tensor> in,
                        SmallVectorImpl<Tensor> &out, int64_t axis,
                        bool isMax) -> LogicalResult {
    const Tensor &t = in[0];
    Tensor r(resultType(op).getElementType(), resultType(op).getShape());
    int64_t outer = 1, inner = 1, n = t.shape[axis];
    for (int64_t d = 0; d < axis; ++d)
      outer *= t.shape[d];
    for (int64_t d = axis + 1; d < static_cast<int64_t>(t.shape.size()); ++d)
      inner *= t.shape[d];
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i) {
        int64_t best = 0;
        for (int64_t k = 1; k < n; ++k) {
          int64_t v = t.ints[(o * n + k) * inner + i];
          int64_t b = t.ints[(o * n + best) * inner + i];
          if (isMax ? v > b : v < b)
            best = k;
        }
        r.ints[o * inner + i] = best;
      }
    out.push_back(std::move(r));
    return success();
  };
  e.registerOp("qnn.argmax",
               [argExtremum](Operation *op, ArrayRef<Tensor> in,
                             SmallVectorImpl<Tensor> &out) -> LogicalResult {
                 return argExtremum(op, in, out,
                                    static_cast<int64_t>(
                                        cast<ArgMaxOp>(op).getAxis()),
                                    true);
               });
  e.registerOp("qnn.argmin",
               [argExtremum](Operation *op, ArrayRef<Tensor> in,
                             SmallVectorImpl<Tensor> &out) -> LogicalResult {
                 return argExtremum(op, in, out,
                                    static_cast<int64_t>(
                                        cast<ArgMinOp>(op).getAxis()),
                                    false);
               });
  e.registerOp(
      "qnn.concatenate",
      [](Operation *raw, ArrayRef<Tensor> in,
         SmallVectorImpl<Tensor> &out) -> LogicalResult {
        auto op = cast<ConcatenateOp>(raw);
        Tensor r(resultType(op).getElementType(), resultType(op).getShape());
        auto [qmin, qmax] = getStorageRange(r.elementType);
        int64_t axis = static_cast<int64_t>(op.getAxis());
        float outScale = op.getOutputScale().convertToFloat();
        int32_t outZp = static_cast<int32_t>(op.getOutputZeroPoint());
        int64_t outer = 1, inner = 1;
        for (int64_t d = 0; d < axis; ++d)
          outer *= r.shape[d];
        for (size_t d = axis + 1; d < r.shape.size(); ++d)
          inner *= r.shape[d];
        int64_t offset = 0;
        for (auto [i, t] : llvm::enumerate(in)) {
          float inScale = op.getInputScales()[i];
          int32_t inZp = op.getInputZeroPoints()[i];
          bool copy = inScale == outScale && inZp == outZp;
          math::ConcatRescaleParams params =
              math::computeConcatRescaleParams(inScale, inZp, outScale);
          bool onnx = op.getRounding() == Rounding::onnx;
          // TVM's rules: qnn.requantize of the input to the output's
          // parameters.
          bool tvm = op.getRounding() == Rounding::upward ||
                     op.getRounding() == Rounding::tonearest;
          math::QuantizedMultiplier m =
              tvm ? math::requantizeMultiplier(inScale, outScale)
                  : math::QuantizedMultiplier{};
          math::RoundingRule rule = toRoundingRule(op.getRounding());
          std::array<int32_t, 256> table{};
          if (onnx)
            table = math::buildRescaleTableONNX(
                !t.elementType.isUnsignedInteger(), inScale, inZp, outScale,
                outZp);
          int64_t slab = t.shape[axis] * inner;
          for (int64_t o = 0; o < outer; ++o)
            for (int64_t j = 0; j < slab; ++j) {
              int64_t v = t.ints[o * slab + j];
              r.ints[o * r.shape[axis] * inner + offset + j] =
                  copy ? v
                  : tvm
                      ? math::requantize(v, inZp, m, outZp, qmin, qmax, rule)
                  : onnx ? std::clamp<int64_t>(table[static_cast<uint8_t>(v)],
                                               qmin, qmax)
                         : math::concatRescale(v, params, outZp, qmin, qmax);
            }
          offset += slab;
        }
        out.push_back(std::move(r));
        return success();
      });
  // The table activations (and leaky ReLU with ONNX's rule): the table is
  // indexed by the input byte and built with the input's signedness; the
  // output range is the result type's (equal for every imported model).
  auto evalTable = [](Operation *op, ArrayRef<Tensor> in,
                      SmallVectorImpl<Tensor> &out) -> LogicalResult {
    std::optional<std::array<int32_t, 256>> table = buildActivationTable(op);
    if (!table)
      return op->emitError("no lookup table for this operation");
    Tensor r(resultType(op).getElementType(), resultType(op).getShape());
    auto [qmin, qmax] = getStorageRange(r.elementType);
    for (int64_t i = 0; i < r.numElements(); ++i)
      r.ints[i] = std::clamp<int64_t>(
          (*table)[static_cast<uint8_t>(in[0].ints[i])], qmin, qmax);
    out.push_back(std::move(r));
    return success();
  };
  e.registerOp(
      "qnn.leaky_relu",
      [evalTable](Operation *raw, ArrayRef<Tensor> in,
         SmallVectorImpl<Tensor> &out) -> LogicalResult {
        auto op = cast<LeakyReluOp>(raw);
        if (op.getRounding() == Rounding::onnx)
          return evalTable(raw, in, out);
        Tensor r(resultType(op).getElementType(), resultType(op).getShape());
        auto [qmin, qmax] = getStorageRange(r.elementType);
        math::LeakyReluParams params = math::computeLeakyReluParams(
            op.getInputScale().convertToFloat(), op.getAlpha().convertToFloat(),
            op.getOutputScale().convertToFloat());
        for (int64_t i = 0; i < r.numElements(); ++i)
          r.ints[i] = math::leakyReluQuantized(
              in[0].ints[i], static_cast<int32_t>(op.getInputZeroPoint()),
              params, static_cast<int32_t>(op.getOutputZeroPoint()), qmin,
              qmax, toRoundingRule(op.getRounding()));
        out.push_back(std::move(r));
        return success();
      });
  e.registerOp("qnn.hardswish", evalTable);
  e.registerOp("qnn.sigmoid", evalTable);
  e.registerOp("qnn.tanh", evalTable);
  e.registerOp("qnn.elu", evalTable);
  e.registerOp("qnn.rsqrt", evalTable);
  // qnn.log_softmax: TFLite's int8/uint8 LOG_SOFTMAX, row by row along the
  // last dimension.
  e.registerOp(
      "qnn.log_softmax",
      [](Operation *raw, ArrayRef<Tensor> in,
         SmallVectorImpl<Tensor> &out) -> LogicalResult {
        auto op = cast<LogSoftmaxOp>(raw);
        const Tensor &t = in[0];
        Tensor r(t.elementType, t.shape);
        float inputScale = op.getInputScale().convertToFloat();
        auto table = math::tfliteLogSoftmaxTable(inputScale);
        auto [qmin, qmax] = getStorageRange(t.elementType);
        int64_t depth = t.shape.back();
        for (int64_t row = 0; row < t.numElements(); row += depth)
          math::logSoftmaxRow(
              t.ints.data() + row, depth, table, inputScale,
              op.getOutputScale().convertToFloat(),
              static_cast<int32_t>(op.getOutputZeroPoint()), qmin, qmax,
              r.ints.data() + row);
        out.push_back(std::move(r));
        return success();
      });
  // qnn.l2_normalize: TFLite's integer L2_NORMALIZATION, row by row along
  // the last dimension.
  e.registerOp(
      "qnn.l2_normalize",
      [](Operation *raw, ArrayRef<Tensor> in,
         SmallVectorImpl<Tensor> &out) -> LogicalResult {
        auto op = cast<L2NormalizeOp>(raw);
        const Tensor &t = in[0];
        Tensor r(t.elementType, t.shape);
        bool isUnsigned = t.elementType.isUnsignedInteger();
        int64_t zp = static_cast<int32_t>(op.getInputZeroPoint());
        math::RoundingRule rule = toRoundingRule(op.getRounding());
        int64_t depth = t.shape.back();
        for (int64_t row = 0; row < t.numElements(); row += depth) {
          int64_t acc = 0;
          for (int64_t i = row; i < row + depth; ++i)
            acc += (t.ints[i] - zp) * (t.ints[i] - zp);
          math::QuantizedMultiplier inv =
              math::tfliteInvSqrtMultiplier(static_cast<int32_t>(acc));
          for (int64_t i = row; i < row + depth; ++i)
            r.ints[i] = math::l2NormalizeQuantized(
                static_cast<int32_t>(t.ints[i] - zp), inv, isUnsigned, rule);
        }
        out.push_back(std::move(r));
        return success();
      });
}

//===----------------------------------------------------------------------===//
// Upstream ops
//===----------------------------------------------------------------------===//

/// Shape of a result that keeps the data and only renames the shape.
static LogicalResult reshapeLike(Operation *op, ArrayRef<Tensor> in,
                                 SmallVectorImpl<Tensor> &out) {
  RankedTensorType type = resultType(op);
  if (!type || !type.hasStaticShape())
    return op->emitError("reference needs a static result shape");
  Tensor r = in[0];
  r.shape.assign(type.getShape().begin(), type.getShape().end());
  if (r.numElements() != in[0].numElements())
    return op->emitError("reshape changes the number of elements");
  out.push_back(std::move(r));
  return success();
}

template <typename Fn>
static LogicalResult elementwiseBinary(Operation *op, ArrayRef<Tensor> in,
                                       SmallVectorImpl<Tensor> &out, Fn fn) {
  RankedTensorType type = resultType(op);
  Tensor r(type.getElementType(), type.getShape());
  for (int64_t i = 0; i < r.numElements(); ++i) {
    int64_t a = broadcastIndex(in[0], r.shape, i);
    int64_t b = broadcastIndex(in[1], r.shape, i);
    if (r.isFloat())
      r.floats[i] =
          static_cast<float>(fn(static_cast<double>(in[0].floats[a]),
                                static_cast<double>(in[1].floats[b])));
    else
      r.ints[i] =
          wrapToType(static_cast<int64_t>(fn(in[0].ints[a], in[1].ints[b])),
                     r.elementType);
  }
  out.push_back(std::move(r));
  return success();
}

static void registerUpstreamOps(Evaluator &e) {
  e.registerOp("arith.constant",
               [](Operation *op, ArrayRef<Tensor>,
                  SmallVectorImpl<Tensor> &out) -> LogicalResult {
                 FailureOr<Tensor> t =
                     tensorFromAttr(op, cast<arith::ConstantOp>(op).getValue());
                 if (failed(t))
                   return failure();
                 out.push_back(std::move(*t));
                 return success();
               });
  e.registerOp("tosa.const",
               [](Operation *op, ArrayRef<Tensor>,
                  SmallVectorImpl<Tensor> &out) -> LogicalResult {
                 FailureOr<Tensor> t =
                     tensorFromAttr(op, op->getAttr("values"));
                 if (failed(t))
                   return failure();
                 out.push_back(std::move(*t));
                 return success();
               });
  e.registerOp("tensor.empty",
               [](Operation *op, ArrayRef<Tensor>,
                  SmallVectorImpl<Tensor> &out) -> LogicalResult {
                 RankedTensorType type = resultType(op);
                 if (!type.hasStaticShape())
                   return op->emitError(
                       "reference needs a static result shape");
                 out.push_back(Tensor(type.getElementType(), type.getShape()));
                 return success();
               });
  e.registerOp("tensor.extract",
               [](Operation *, ArrayRef<Tensor> in,
                  SmallVectorImpl<Tensor> &out) -> LogicalResult {
                 const Tensor &t = in[0];
                 SmallVector<int64_t> strides = t.strides();
                 int64_t offset = 0;
                 for (size_t d = 0; d < strides.size(); ++d)
                   offset += in[d + 1].ints[0] * strides[d];
                 Tensor r(t.elementType, {});
                 if (t.isFloat())
                   r.floats = {t.floats[offset]};
                 else
                   r.ints = {t.ints[offset]};
                 out.push_back(std::move(r));
                 return success();
               });
  // A static slice (offsets, sizes, strides all constants); a rank-reducing
  // slice drops unit dimensions, which does not change the element order.
  e.registerOp(
      "tensor.extract_slice",
      [](Operation *raw, ArrayRef<Tensor> in,
         SmallVectorImpl<Tensor> &out) -> LogicalResult {
        auto op = cast<tensor::ExtractSliceOp>(raw);
        ArrayRef<int64_t> offsets = op.getStaticOffsets(),
                          sizes = op.getStaticSizes(),
                          strides = op.getStaticStrides();
        if (ShapedType::isDynamicShape(offsets) ||
            ShapedType::isDynamicShape(sizes) ||
            ShapedType::isDynamicShape(strides))
          return op.emitError("reference needs a static slice");
        const Tensor &t = in[0];
        int64_t rank = static_cast<int64_t>(t.shape.size());
        for (int64_t d = 0; d < rank; ++d)
          if (offsets[d] < 0 || sizes[d] < 0 ||
              (sizes[d] > 0 &&
               offsets[d] + (sizes[d] - 1) * strides[d] >= t.shape[d]))
            return op.emitError("slice out of bounds in dimension ") << d;
        Tensor r(t.elementType, op.getType().getShape());
        SmallVector<int64_t> inStrides = t.strides();
        SmallVector<int64_t> index(rank, 0);
        for (int64_t i = 0; i < r.numElements(); ++i) {
          int64_t source = 0;
          for (int64_t d = 0; d < rank; ++d)
            source += (offsets[d] + index[d] * strides[d]) * inStrides[d];
          if (t.isFloat())
            r.floats[i] = t.floats[source];
          else
            r.ints[i] = t.ints[source];
          for (int64_t d = rank - 1; d >= 0; --d) {
            if (++index[d] < sizes[d])
              break;
            index[d] = 0;
          }
        }
        out.push_back(std::move(r));
        return success();
      });
  e.registerOp("tensor.collapse_shape", reshapeLike);
  e.registerOp("tensor.expand_shape", reshapeLike);
  e.registerOp("tensor.reshape", reshapeLike);
  e.registerOp("tosa.reshape", reshapeLike);
  e.registerOp("tosa.const_shape",
               [](Operation *op, ArrayRef<Tensor>,
                  SmallVectorImpl<Tensor> &out) -> LogicalResult {
                 out.push_back(
                     Tensor(IntegerType::get(op->getContext(), 64), {0}));
                 return success();
               });
  e.registerOp("tosa.add",
               [](Operation *op, ArrayRef<Tensor> in,
                  SmallVectorImpl<Tensor> &out) -> LogicalResult {
                 return elementwiseBinary(op, in, out,
                                          [](auto a, auto b) { return a + b; });
               });
  e.registerOp(
      "tosa.gather",
      [](Operation *op, ArrayRef<Tensor> in,
         SmallVectorImpl<Tensor> &out) -> LogicalResult {
        const Tensor &values = in[0], &indices = in[1];
        Tensor r(resultType(op).getElementType(), resultType(op).getShape());
        int64_t n = values.shape[0], k = values.shape[1], c = values.shape[2];
        int64_t w = indices.shape[1];
        for (int64_t b = 0; b < n; ++b)
          for (int64_t i = 0; i < w; ++i) {
            int64_t row = indices.ints[b * w + i];
            if (row < 0 || row >= k)
              return op->emitError("tosa.gather index ")
                     << row << " is outside [0, " << k << ")";
            for (int64_t j = 0; j < c; ++j) {
              int64_t from = (b * k + row) * c + j, to = (b * w + i) * c + j;
              if (r.isFloat())
                r.floats[to] = values.floats[from];
              else
                r.ints[to] = values.ints[from];
            }
          }
        out.push_back(std::move(r));
        return success();
      });
  // Integers are held sign- or zero-extended, so std::max/min compare them
  // as their types say (also ui8).
  e.registerOp("tosa.maximum",
               [](Operation *op, ArrayRef<Tensor> in,
                  SmallVectorImpl<Tensor> &out) -> LogicalResult {
                 return elementwiseBinary(op, in, out, [](auto a, auto b) {
                   return std::max(a, b);
                 });
               });
  e.registerOp("tosa.minimum",
               [](Operation *op, ArrayRef<Tensor> in,
                  SmallVectorImpl<Tensor> &out) -> LogicalResult {
                 return elementwiseBinary(op, in, out, [](auto a, auto b) {
                   return std::min(a, b);
                 });
               });
  e.registerOp("tosa.sub",
               [](Operation *op, ArrayRef<Tensor> in,
                  SmallVectorImpl<Tensor> &out) -> LogicalResult {
                 return elementwiseBinary(op, in, out,
                                          [](auto a, auto b) { return a - b; });
               });
  e.registerOp("tosa.mul",
               [](Operation *op, ArrayRef<Tensor> in,
                  SmallVectorImpl<Tensor> &out) -> LogicalResult {
                 // TOSA MUL on i32 with shift > 0: (a * b + 2^(shift-1)) >>
                 // shift.
                 int64_t shift =
                     in.size() > 2 && !in[2].ints.empty() ? in[2].ints[0] : 0;
                 if (shift < 0 || shift > 62)
                   return op->emitError()
                          << "reference evaluator: tosa.mul shift " << shift
                          << " is out of range";
                 return elementwiseBinary(op, in, out, [shift](auto a, auto b) {
                   auto product = a * b;
                   if constexpr (std::is_integral_v<decltype(product)>)
                     if (shift > 0)
                       product =
                           (product + (int64_t(1) << (shift - 1))) >> shift;
                   return product;
                 });
               });
  e.registerOp("tosa.clamp",
               [](Operation *op, ArrayRef<Tensor> in,
                  SmallVectorImpl<Tensor> &out) -> LogicalResult {
                 Tensor r = in[0];
                 Attribute minAttr = op->getAttr("min_val"),
                           maxAttr = op->getAttr("max_val");
                 if (r.isFloat()) {
                   float lo = cast<FloatAttr>(minAttr).getValueAsDouble();
                   float hi = cast<FloatAttr>(maxAttr).getValueAsDouble();
                   for (float &v : r.floats)
                     v = std::min(std::max(v, lo), hi);
                 } else {
                   int64_t lo = apIntValue(
                       cast<IntegerAttr>(minAttr).getValue(), r.elementType);
                   int64_t hi = apIntValue(
                       cast<IntegerAttr>(maxAttr).getValue(), r.elementType);
                   for (int64_t &v : r.ints)
                     v = std::clamp(v, lo, hi);
                 }
                 out.push_back(std::move(r));
                 return success();
               });
  e.registerOp("tosa.cast",
               [](Operation *op, ArrayRef<Tensor> in,
                  SmallVectorImpl<Tensor> &out) -> LogicalResult {
                 RankedTensorType type = resultType(op);
                 Tensor r(type.getElementType(), type.getShape());
                 const Tensor &x = in[0];
                 for (int64_t i = 0; i < r.numElements(); ++i) {
                   if (r.isFloat())
                     r.floats[i] = x.isFloat() ? x.floats[i]
                                               : static_cast<float>(x.ints[i]);
                   else if (!x.isFloat())
                     r.ints[i] =
                         wrapToType(x.ints[i], r.elementType); // TOSA: truncate
                   else {
                     auto [qmin, qmax] = getStorageRange(r.elementType);
                     r.ints[i] = math::castFloatToInt(x.floats[i], qmin, qmax);
                   }
                 }
                 out.push_back(std::move(r));
                 return success();
               });
  // Elementwise on float tensors (TFLite CAST from float truncates).
  e.registerOp("math.trunc",
               [](Operation *op, ArrayRef<Tensor> in,
                  SmallVectorImpl<Tensor> &out) -> LogicalResult {
                 if (!in[0].isFloat())
                   return op->emitError("reference evaluator: math.trunc "
                                        "needs a float tensor");
                 Tensor r = in[0];
                 for (float &v : r.floats)
                   v = std::trunc(v);
                 out.push_back(std::move(r));
                 return success();
               });
  auto transpose = [](Operation *op, const Tensor &x, ArrayRef<int64_t> perm,
                      SmallVectorImpl<Tensor> &out) -> LogicalResult {
    RankedTensorType type = resultType(op);
    Tensor r(type.getElementType(), type.getShape());
    SmallVector<int64_t> inStrides = x.strides();
    for (int64_t i = 0; i < r.numElements(); ++i) {
      int64_t linear = i, offset = 0;
      for (int64_t d = r.shape.size() - 1; d >= 0; --d) {
        int64_t coord = linear % r.shape[d];
        linear /= r.shape[d];
        offset += coord * inStrides[perm[d]];
      }
      if (r.isFloat())
        r.floats[i] = x.floats[offset];
      else
        r.ints[i] = x.ints[offset];
    }
    out.push_back(std::move(r));
    return success();
  };
  e.registerOp("tosa.transpose",
               [transpose](Operation *op, ArrayRef<Tensor> in,
                           SmallVectorImpl<Tensor> &out) -> LogicalResult {
                 auto perms = op->getAttrOfType<DenseI32ArrayAttr>("perms");
                 if (!perms)
                   return op->emitError("tosa.transpose without 'perms'");
                 SmallVector<int64_t> perm(perms.asArrayRef().begin(),
                                           perms.asArrayRef().end());
                 return transpose(op, in[0], perm, out);
               });
  e.registerOp("linalg.transpose",
               [transpose](Operation *op, ArrayRef<Tensor> in,
                           SmallVectorImpl<Tensor> &out) -> LogicalResult {
                 auto t = cast<linalg::TransposeOp>(op);
                 return transpose(op, in[0], t.getPermutation(), out);
               });
  e.registerOp("linalg.softmax",
               [](Operation *op, ArrayRef<Tensor> in,
                  SmallVectorImpl<Tensor> &out) -> LogicalResult {
                 auto softmax = cast<linalg::SoftmaxOp>(op);
                 Tensor r = in[0];
                 if (!r.isFloat())
                   return op->emitError("softmax needs a float input");
                 int64_t dim = softmax.getDimension();
                 int64_t inner = 1;
                 for (size_t d = dim + 1; d < r.shape.size(); ++d)
                   inner *= r.shape[d];
                 int64_t len = r.shape[dim];
                 int64_t outer = r.numElements() / (len * inner);
                 for (int64_t o = 0; o < outer; ++o)
                   for (int64_t j = 0; j < inner; ++j) {
                     auto at = [&](int64_t k) -> float & {
                       return r.floats[(o * len + k) * inner + j];
                     };
                     float maxValue = -std::numeric_limits<float>::infinity();
                     for (int64_t k = 0; k < len; ++k)
                       maxValue = std::max(maxValue, at(k));
                     float sum = 0.0f;
                     for (int64_t k = 0; k < len; ++k) {
                       at(k) = std::exp(at(k) - maxValue);
                       sum += at(k);
                     }
                     for (int64_t k = 0; k < len; ++k)
                       at(k) /= sum;
                   }
                 out.push_back(std::move(r));
                 return success();
               });
}

//===----------------------------------------------------------------------===//
// Evaluator
//===----------------------------------------------------------------------===//

Evaluator::Evaluator() {
  registerQNNOps(*this);
  registerUpstreamOps(*this);
}

void Evaluator::registerOp(StringRef name, OpEvaluator evaluator) {
  evaluators[name] = std::move(evaluator);
}

FailureOr<SmallVector<Tensor>> Evaluator::run(func::FuncOp func,
                                              ArrayRef<Tensor> inputs) {
  if (func.isExternal())
    return func.emitError("cannot evaluate an external function");
  if (inputs.size() != func.getNumArguments())
    return func.emitError() << "expected " << func.getNumArguments()
                            << " inputs, got " << inputs.size();
  llvm::DenseMap<Value, Tensor> values;
  Block &entry = func.getBody().front();
  for (auto [arg, input] : llvm::zip(entry.getArguments(), inputs))
    values[arg] = input;

  // The pad value of a tensor.pad comes from its region's yield.
  auto evalPad = [&](tensor::PadOp pad) -> LogicalResult {
    Value yielded = pad.getConstantPaddingValue();
    if (!yielded)
      return pad.emitError("reference supports only a constant pad value");
    Tensor padValue;
    if (auto it = values.find(yielded); it != values.end()) {
      padValue = it->second;
    } else if (auto constant = yielded.getDefiningOp<arith::ConstantOp>()) {
      FailureOr<Tensor> t = tensorFromAttr(constant, constant.getValue());
      if (failed(t))
        return failure();
      padValue = *t;
    } else {
      return pad.emitError("reference cannot evaluate the pad value");
    }
    const Tensor &x = values[pad.getSource()];
    RankedTensorType type = pad.getResultType();
    if (!type.hasStaticShape())
      return pad.emitError("reference needs a static result shape");
    Tensor r(type.getElementType(), type.getShape());
    if (r.isFloat())
      std::fill(r.floats.begin(), r.floats.end(), padValue.floats[0]);
    else
      std::fill(r.ints.begin(), r.ints.end(), padValue.ints[0]);
    SmallVector<int64_t> low = llvm::to_vector(pad.getStaticLow());
    if (llvm::any_of(low, ShapedType::isDynamic))
      return pad.emitError("reference needs static padding");
    SmallVector<int64_t> outStrides = r.strides();
    for (int64_t i = 0; i < x.numElements(); ++i) {
      int64_t linear = i, offset = 0;
      for (int64_t d = x.shape.size() - 1; d >= 0; --d) {
        int64_t coord = linear % x.shape[d];
        linear /= x.shape[d];
        offset += (coord + low[d]) * outStrides[d];
      }
      if (r.isFloat())
        r.floats[offset] = x.floats[i];
      else
        r.ints[offset] = x.ints[i];
    }
    values[pad.getResult()] = std::move(r);
    return success();
  };

  for (Operation &op : entry) {
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      SmallVector<Tensor> results;
      for (Value v : ret.getOperands())
        results.push_back(values[v]);
      return results;
    }
    if (auto pad = dyn_cast<tensor::PadOp>(op)) {
      if (failed(evalPad(pad)))
        return failure();
      continue;
    }
    SmallVector<Tensor> operands;
    for (Value v : op.getOperands()) {
      auto it = values.find(v);
      if (it == values.end())
        return op.emitError("operand has no value (not defined before use)");
      operands.push_back(it->second);
    }
    SmallVector<Tensor> results;
    if (auto call = dyn_cast<func::CallOp>(op)) {
      auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
          &op, call.getCalleeAttr());
      if (!callee)
        return op.emitError("unknown callee");
      FailureOr<SmallVector<Tensor>> r = run(callee, operands);
      if (failed(r))
        return failure();
      results = std::move(*r);
    } else {
      auto it = evaluators.find(op.getName().getStringRef());
      if (it == evaluators.end())
        return op.emitError() << "the reference evaluator does not support '"
                              << op.getName() << "'";
      if (failed(it->second(&op, operands, results)))
        return failure();
    }
    if (results.size() != op.getNumResults())
      return op.emitError("evaluation produced the wrong number of results");
    for (auto [value, tensor] : llvm::zip(op.getResults(), results))
      values[value] = std::move(tensor);
  }
  return func.emitError("function body has no func.return");
}
