//===- QNNEvaluators.cpp - evaluate functions of the qnn ops --------------===//
//
// Plain loops over the op semantics written in QNNOps.td; every integer rule
// is a call into QNN/Utils/QuantMath.h.
//
//===----------------------------------------------------------------------===//

#include "EvaluatorUtils.h"

#include "QNN/IR/QNNOps.h"
#include "QNN/Utils/QuantMath.h"
#include "QNN/Utils/QuantUtils.h"

using namespace mlir;
using namespace mlir::qnn;
using namespace mlir::qnn::reference;

namespace {

/// Index along `axis` of the element at row-major position `linear`.
int64_t channelOf(int64_t linear, ArrayRef<int64_t> strides,
                  ArrayRef<int64_t> shape, std::optional<uint64_t> axis) {
  if (!axis)
    return 0;
  return (linear / strides[*axis]) % shape[*axis];
}

template <typename T> T pick(ArrayRef<T> values, int64_t channel) {
  return values.size() == 1 ? values[0] : values[channel];
}

LogicalResult evalQuantize(Operation *op, ArrayRef<const Tensor *> operands,
                           SmallVectorImpl<Tensor> &results, Evaluator &) {
  auto q = cast<QuantizeOp>(op);
  FailureOr<RankedTensorType> type = staticResultType(op);
  if (failed(requireOperands(op, operands, 1)) || failed(type))
    return failure();
  const Tensor &in = *operands[0];
  Tensor out = Tensor::zeros(*type);
  auto [qmin, qmax] = getStorageRange(out.elementType);
  SmallVector<int64_t> strides = in.strides();
  for (int64_t i = 0, e = in.numElements(); i < e; ++i) {
    int64_t c = channelOf(i, strides, in.shape, q.getAxis());
    out.ints[i] = math::quantizeFloat(in.floats[i], pick(q.getScale(), c),
                                      pick(q.getZeroPoint(), c), qmin, qmax);
  }
  results.push_back(std::move(out));
  return success();
}

LogicalResult evalDequantize(Operation *op, ArrayRef<const Tensor *> operands,
                             SmallVectorImpl<Tensor> &results, Evaluator &) {
  auto dq = cast<DequantizeOp>(op);
  FailureOr<RankedTensorType> type = staticResultType(op);
  if (failed(requireOperands(op, operands, 1)) || failed(type))
    return failure();
  const Tensor &in = *operands[0];
  Tensor out = Tensor::zeros(*type);
  SmallVector<int64_t> strides = in.strides();
  for (int64_t i = 0, e = in.numElements(); i < e; ++i) {
    int64_t c = channelOf(i, strides, in.shape, dq.getAxis());
    out.floats[i] = math::dequantizeValue(in.ints[i], pick(dq.getScale(), c),
                                          pick(dq.getZeroPoint(), c));
  }
  results.push_back(std::move(out));
  return success();
}

LogicalResult evalRequantize(Operation *op, ArrayRef<const Tensor *> operands,
                             SmallVectorImpl<Tensor> &results, Evaluator &) {
  auto rq = cast<RequantizeOp>(op);
  FailureOr<RankedTensorType> type = staticResultType(op);
  if (failed(requireOperands(op, operands, 1)) || failed(type))
    return failure();
  const Tensor &in = *operands[0];
  Tensor out = Tensor::zeros(*type);
  auto [qmin, qmax] = getStorageRange(out.elementType);
  float outputScale = rq.getOutputScale().convertToFloat();
  SmallVector<math::QuantizedMultiplier> multipliers;
  for (double inputScale : rq.getInputScale())
    multipliers.push_back(math::requantizeMultiplier(inputScale, outputScale));
  math::RoundingRule rule = toRoundingRule(rq.getRounding());
  int32_t inZp = static_cast<int32_t>(rq.getInputZeroPoint());
  int32_t outZp = static_cast<int32_t>(rq.getOutputZeroPoint());
  SmallVector<int64_t> strides = in.strides();
  for (int64_t i = 0, e = in.numElements(); i < e; ++i) {
    int64_t c = channelOf(i, strides, in.shape, rq.getAxis());
    out.ints[i] = math::requantize(
        in.ints[i], inZp, pick<math::QuantizedMultiplier>(multipliers, c),
        outZp, qmin, qmax, rule);
  }
  results.push_back(std::move(out));
  return success();
}

/// Row-major offset of a 4-d element given its (n|o, h, w, c|i) indices and
/// the dimension positions of the layout.
int64_t offset4(ArrayRef<int64_t> strides, unsigned d0, int64_t i0, unsigned d1,
                int64_t i1, unsigned d2, int64_t i2, unsigned d3, int64_t i3) {
  return i0 * strides[d0] + i1 * strides[d1] + i2 * strides[d2] +
         i3 * strides[d3];
}

LogicalResult evalConv2D(Operation *op, ArrayRef<const Tensor *> operands,
                         SmallVectorImpl<Tensor> &results, Evaluator &) {
  auto conv = cast<Conv2DOp>(op);
  FailureOr<RankedTensorType> type = staticResultType(op);
  if (failed(requireOperands(op, operands, 2)) || failed(type))
    return failure();
  const Tensor &in = *operands[0], &w = *operands[1];
  Tensor out = Tensor::zeros(*type);
  ActivationDims ad = getActivationDims(conv.getDataLayout());
  KernelDims kd = getKernelDims(conv.getKernelLayout());
  int64_t inH = in.shape[ad.h], inW = in.shape[ad.w];
  int64_t kH = w.shape[kd.h], kW = w.shape[kd.w];
  int64_t channelsPerGroup = w.shape[kd.i];
  int64_t outChannels = w.shape[kd.o];
  int64_t groups = static_cast<int64_t>(conv.getGroups());
  int64_t outPerGroup = outChannels / groups;
  ArrayRef<int64_t> strides = conv.getStrides(), dil = conv.getDilations();
  ArrayRef<int64_t> pad = conv.getPadding();
  int64_t inZp = static_cast<int32_t>(conv.getInputZeroPoint());
  int64_t wZp = static_cast<int32_t>(conv.getWeightZeroPoint());
  SmallVector<int64_t> is = in.strides(), ws = w.strides(), os = out.strides();
  for (int64_t n = 0; n < out.shape[ad.n]; ++n)
    for (int64_t oh = 0; oh < out.shape[ad.h]; ++oh)
      for (int64_t ow = 0; ow < out.shape[ad.w]; ++ow)
        for (int64_t o = 0; o < outChannels; ++o) {
          int64_t g = o / outPerGroup;
          int64_t acc = 0;
          for (int64_t kh = 0; kh < kH; ++kh) {
            int64_t ih = oh * strides[0] + kh * dil[0] - pad[0];
            if (ih < 0 || ih >= inH)
              continue;
            for (int64_t kw = 0; kw < kW; ++kw) {
              int64_t iw = ow * strides[1] + kw * dil[1] - pad[1];
              if (iw < 0 || iw >= inW)
                continue;
              for (int64_t i = 0; i < channelsPerGroup; ++i) {
                int64_t x = in.ints[offset4(is, ad.n, n, ad.h, ih, ad.w, iw,
                                            ad.c, g * channelsPerGroup + i)];
                int64_t k =
                    w.ints[offset4(ws, kd.o, o, kd.h, kh, kd.w, kw, kd.i, i)];
                acc += (x - inZp) * (k - wZp);
              }
            }
          }
          out.ints[offset4(os, ad.n, n, ad.h, oh, ad.w, ow, ad.c, o)] =
              wrapToType(acc, out.elementType);
        }
  results.push_back(std::move(out));
  return success();
}

LogicalResult evalDense(Operation *op, ArrayRef<const Tensor *> operands,
                        SmallVectorImpl<Tensor> &results, Evaluator &) {
  auto dense = cast<DenseOp>(op);
  FailureOr<RankedTensorType> type = staticResultType(op);
  if (failed(requireOperands(op, operands, 2)) || failed(type))
    return failure();
  const Tensor &in = *operands[0], &w = *operands[1];
  Tensor out = Tensor::zeros(*type);
  int64_t depth = in.shape.back();
  int64_t rows = in.numElements() / depth;
  int64_t outChannels = w.shape[0];
  int64_t inZp = static_cast<int32_t>(dense.getInputZeroPoint());
  int64_t wZp = static_cast<int32_t>(dense.getWeightZeroPoint());
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t o = 0; o < outChannels; ++o) {
      int64_t acc = 0;
      for (int64_t k = 0; k < depth; ++k)
        acc += (in.ints[r * depth + k] - inZp) * (w.ints[o * depth + k] - wZp);
      out.ints[r * outChannels + o] = wrapToType(acc, out.elementType);
    }
  results.push_back(std::move(out));
  return success();
}

template <typename OpTy>
LogicalResult
evalBinary(Operation *op, ArrayRef<const Tensor *> operands,
           SmallVectorImpl<Tensor> &results,
           llvm::function_ref<int64_t(OpTy, int64_t, int64_t, int64_t, int64_t)>
               compute) {
  auto binary = cast<OpTy>(op);
  FailureOr<RankedTensorType> type = staticResultType(op);
  if (failed(requireOperands(op, operands, 2)) || failed(type))
    return failure();
  const Tensor &lhs = *operands[0], &rhs = *operands[1];
  Tensor out = Tensor::zeros(*type);
  if (failed(checkBroadcast(op, lhs, out.shape)) ||
      failed(checkBroadcast(op, rhs, out.shape)))
    return failure();
  auto [qmin, qmax] = getStorageRange(out.elementType);
  SmallVector<int64_t> ls = lhs.strides(), rs = rhs.strides();
  forEachIndex(out.shape, [&](ArrayRef<int64_t> index, int64_t linear) {
    out.ints[linear] =
        compute(binary, lhs.ints[broadcastIndex(lhs, index, ls)],
                rhs.ints[broadcastIndex(rhs, index, rs)], qmin, qmax);
  });
  results.push_back(std::move(out));
  return success();
}

LogicalResult evalAdd(Operation *op, ArrayRef<const Tensor *> operands,
                      SmallVectorImpl<Tensor> &results, Evaluator &) {
  auto add = cast<AddOp>(op);
  math::AddParams params =
      math::computeAddParams(add.getLhsScale().convertToFloat(),
                             static_cast<int32_t>(add.getLhsZeroPoint()),
                             add.getRhsScale().convertToFloat(),
                             static_cast<int32_t>(add.getRhsZeroPoint()),
                             add.getOutputScale().convertToFloat(),
                             static_cast<int32_t>(add.getOutputZeroPoint()));
  return evalBinary<AddOp>(
      op, operands, results,
      [&](AddOp, int64_t a, int64_t b, int64_t qmin, int64_t qmax) {
        return math::addQuantized(a, b, params, qmin, qmax);
      });
}

LogicalResult evalMul(Operation *op, ArrayRef<const Tensor *> operands,
                      SmallVectorImpl<Tensor> &results, Evaluator &) {
  auto mul = cast<MulOp>(op);
  math::QuantizedMultiplier m = math::computeMulMultiplier(
      mul.getLhsScale().convertToFloat(), mul.getRhsScale().convertToFloat(),
      mul.getOutputScale().convertToFloat());
  int32_t lhsZp = static_cast<int32_t>(mul.getLhsZeroPoint());
  int32_t rhsZp = static_cast<int32_t>(mul.getRhsZeroPoint());
  int32_t outZp = static_cast<int32_t>(mul.getOutputZeroPoint());
  return evalBinary<MulOp>(
      op, operands, results,
      [&](MulOp, int64_t a, int64_t b, int64_t qmin, int64_t qmax) {
        return math::mulQuantized(a, b, lhsZp, rhsZp, m, outZp, qmin, qmax);
      });
}

LogicalResult evalPool(Operation *op, ArrayRef<const Tensor *> operands,
                       SmallVectorImpl<Tensor> &results, bool isAverage) {
  FailureOr<RankedTensorType> type = staticResultType(op);
  if (failed(requireOperands(op, operands, 1)) || failed(type))
    return failure();
  ArrayRef<int64_t> kernel, strides, pad;
  ActivationLayout layout;
  if (auto avg = dyn_cast<AvgPool2DOp>(op)) {
    kernel = avg.getKernel(), strides = avg.getStrides(),
    pad = avg.getPadding(), layout = avg.getDataLayout();
  } else {
    auto max = cast<MaxPool2DOp>(op);
    kernel = max.getKernel(), strides = max.getStrides(),
    pad = max.getPadding(), layout = max.getDataLayout();
  }
  const Tensor &in = *operands[0];
  Tensor out = Tensor::zeros(*type);
  ActivationDims ad = getActivationDims(layout);
  SmallVector<int64_t> is = in.strides(), os = out.strides();
  int64_t inH = in.shape[ad.h], inW = in.shape[ad.w];
  for (int64_t n = 0; n < out.shape[ad.n]; ++n)
    for (int64_t oh = 0; oh < out.shape[ad.h]; ++oh)
      for (int64_t ow = 0; ow < out.shape[ad.w]; ++ow)
        for (int64_t c = 0; c < out.shape[ad.c]; ++c) {
          int64_t sum = 0, count = 0, maxValue = 0;
          for (int64_t kh = 0; kh < kernel[0]; ++kh) {
            int64_t ih = oh * strides[0] + kh - pad[0];
            if (ih < 0 || ih >= inH)
              continue;
            for (int64_t kw = 0; kw < kernel[1]; ++kw) {
              int64_t iw = ow * strides[1] + kw - pad[1];
              if (iw < 0 || iw >= inW)
                continue;
              int64_t x =
                  in.ints[offset4(is, ad.n, n, ad.h, ih, ad.w, iw, ad.c, c)];
              maxValue = count == 0 ? x : std::max(maxValue, x);
              sum += x;
              ++count;
            }
          }
          if (count == 0)
            return op->emitError()
                   << "reference evaluator: pooling window at (" << oh << ", "
                   << ow << ") lies entirely in the padding";
          out.ints[offset4(os, ad.n, n, ad.h, oh, ad.w, ow, ad.c, c)] =
              isAverage ? math::roundedAverage(sum, count) : maxValue;
        }
  results.push_back(std::move(out));
  return success();
}

LogicalResult evalConcatenate(Operation *op, ArrayRef<const Tensor *> operands,
                              SmallVectorImpl<Tensor> &results, Evaluator &) {
  auto concat = cast<ConcatenateOp>(op);
  FailureOr<RankedTensorType> type = staticResultType(op);
  if (failed(requireOperands(op, operands, operands.size())) || failed(type))
    return failure();
  Tensor out = Tensor::zeros(*type);
  auto [qmin, qmax] = getStorageRange(out.elementType);
  int64_t axis = static_cast<int64_t>(concat.getAxis());
  float outScale = concat.getOutputScale().convertToFloat();
  int32_t outZp = static_cast<int32_t>(concat.getOutputZeroPoint());
  SmallVector<int64_t> os = out.strides();
  int64_t axisOffset = 0;
  for (auto [k, operand] : llvm::enumerate(operands)) {
    const Tensor &in = *operand;
    float inScale = concat.getInputScales()[k];
    int32_t inZp = concat.getInputZeroPoints()[k];
    bool copy = inScale == outScale && inZp == outZp;
    forEachIndex(in.shape, [&](ArrayRef<int64_t> index, int64_t linear) {
      int64_t o = 0;
      for (size_t d = 0; d < index.size(); ++d)
        o += (index[d] + (static_cast<int64_t>(d) == axis ? axisOffset : 0)) *
             os[d];
      out.ints[o] = copy ? in.ints[linear]
                         : math::concatRescale(in.ints[linear], inScale, inZp,
                                               outScale, outZp, qmin, qmax);
    });
    axisOffset += in.shape[axis];
  }
  results.push_back(std::move(out));
  return success();
}

LogicalResult evalLeakyRelu(Operation *op, ArrayRef<const Tensor *> operands,
                            SmallVectorImpl<Tensor> &results, Evaluator &) {
  auto relu = cast<LeakyReluOp>(op);
  FailureOr<RankedTensorType> type = staticResultType(op);
  if (failed(requireOperands(op, operands, 1)) || failed(type))
    return failure();
  Tensor out = Tensor::zeros(*type);
  auto [qmin, qmax] = getStorageRange(out.elementType);
  math::LeakyReluParams params = math::computeLeakyReluParams(
      relu.getInputScale().convertToFloat(), relu.getAlpha().convertToFloat(),
      relu.getOutputScale().convertToFloat());
  int32_t inZp = static_cast<int32_t>(relu.getInputZeroPoint());
  int32_t outZp = static_cast<int32_t>(relu.getOutputZeroPoint());
  for (int64_t i = 0, e = out.numElements(); i < e; ++i)
    out.ints[i] = math::leakyReluQuantized(operands[0]->ints[i], inZp, params,
                                           outZp, qmin, qmax);
  results.push_back(std::move(out));
  return success();
}

/// The 8-bit table activations (hardswish, sigmoid, tanh).
template <typename OpTy>
LogicalResult evalTable(Operation *op, ArrayRef<const Tensor *> operands,
                        SmallVectorImpl<Tensor> &results,
                        float (*function)(float)) {
  auto act = cast<OpTy>(op);
  FailureOr<RankedTensorType> type = staticResultType(op);
  if (failed(requireOperands(op, operands, 1)) || failed(type))
    return failure();
  Tensor out = Tensor::zeros(*type);
  bool isSigned = getStorageRange(out.elementType).first < 0;
  std::array<int32_t, 256> table = math::buildLookupTable(
      isSigned, act.getInputScale().convertToFloat(),
      static_cast<int32_t>(act.getInputZeroPoint()),
      act.getOutputScale().convertToFloat(),
      static_cast<int32_t>(act.getOutputZeroPoint()), function);
  for (int64_t i = 0, e = out.numElements(); i < e; ++i)
    out.ints[i] = table[static_cast<uint8_t>(operands[0]->ints[i])];
  results.push_back(std::move(out));
  return success();
}

float tanhFunction(float x) { return std::tanh(x); }

} // namespace

void mlir::qnn::reference::registerQNNEvaluators(Evaluator &evaluator) {
  evaluator.registerOp(QuantizeOp::getOperationName(), evalQuantize);
  evaluator.registerOp(DequantizeOp::getOperationName(), evalDequantize);
  evaluator.registerOp(RequantizeOp::getOperationName(), evalRequantize);
  evaluator.registerOp(Conv2DOp::getOperationName(), evalConv2D);
  evaluator.registerOp(DenseOp::getOperationName(), evalDense);
  evaluator.registerOp(AddOp::getOperationName(), evalAdd);
  evaluator.registerOp(MulOp::getOperationName(), evalMul);
  evaluator.registerOp(AvgPool2DOp::getOperationName(),
                       [](Operation *op, ArrayRef<const Tensor *> operands,
                          SmallVectorImpl<Tensor> &results, Evaluator &) {
                         return evalPool(op, operands, results, true);
                       });
  evaluator.registerOp(MaxPool2DOp::getOperationName(),
                       [](Operation *op, ArrayRef<const Tensor *> operands,
                          SmallVectorImpl<Tensor> &results, Evaluator &) {
                         return evalPool(op, operands, results, false);
                       });
  evaluator.registerOp(ConcatenateOp::getOperationName(), evalConcatenate);
  evaluator.registerOp(LeakyReluOp::getOperationName(), evalLeakyRelu);
  evaluator.registerOp(HardSwishOp::getOperationName(),
                       [](Operation *op, ArrayRef<const Tensor *> operands,
                          SmallVectorImpl<Tensor> &results, Evaluator &) {
                         return evalTable<HardSwishOp>(op, operands, results,
                                                       math::hardSwish);
                       });
  evaluator.registerOp(SigmoidOp::getOperationName(),
                       [](Operation *op, ArrayRef<const Tensor *> operands,
                          SmallVectorImpl<Tensor> &results, Evaluator &) {
                         return evalTable<SigmoidOp>(op, operands, results,
                                                     math::sigmoid);
                       });
  evaluator.registerOp(TanhOp::getOperationName(),
                       [](Operation *op, ArrayRef<const Tensor *> operands,
                          SmallVectorImpl<Tensor> &results, Evaluator &) {
                         return evalTable<TanhOp>(op, operands, results,
                                                  tanhFunction);
                       });
}
