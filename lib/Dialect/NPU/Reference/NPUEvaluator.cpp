//===- NPUEvaluator.cpp - reference evaluation of npu ops -----------------===//

#include "NPU/Reference/NPUEvaluator.h"
#include "NPU/IR/NPUOps.h"
#include "QNN/Utils/QuantMath.h"
#include "QNN/Utils/QuantUtils.h"

#include <algorithm>
#include <limits>

using namespace mlir;
using namespace mlir::npu;
using qnn::ref::Tensor;
namespace math = mlir::qnn::math;

namespace {

/// The fused activation after the clamp to [act_min, act_max].
struct Epilogue {
  Activation kind;
  int64_t actMin, actMax, qmin, qmax;
  int32_t zeroPoint = 0; // of the requantize stage (leaky ReLU input)
  math::LeakyReluParams leaky;
  int32_t leakyZeroPoint = 0;
  /// The rule of the leaky ReLU stage (qnn::leakyEpilogueRounding).
  math::RoundingRule rule = math::RoundingRule::TFLite;
  SmallVector<int32_t> lut;

  int64_t apply(int64_t y) const {
    y = std::clamp(y, actMin, actMax);
    if (kind == Activation::leaky_relu)
      return math::leakyReluQuantized(y, zeroPoint, leaky, leakyZeroPoint,
                                      qmin, qmax, rule);
    if (kind == Activation::lut)
      return lut[static_cast<uint8_t>(y)];
    return y;
  }
};

FailureOr<Epilogue> makeEpilogue(Operation *op) {
  Epilogue e;
  e.kind = op->getAttrOfType<ActivationAttr>("activation").getValue();
  e.actMin = static_cast<int32_t>(
      op->getAttrOfType<IntegerAttr>("act_min").getInt());
  e.actMax = static_cast<int32_t>(
      op->getAttrOfType<IntegerAttr>("act_max").getInt());
  std::tie(e.qmin, e.qmax) =
      qnn::getStorageRange(getElementTypeOrSelf(op->getResult(0).getType()));
  if (auto zp = op->getAttrOfType<IntegerAttr>("output_zero_point"))
    e.zeroPoint = static_cast<int32_t>(zp.getInt());
  if (e.kind == Activation::leaky_relu) {
    if (!op->hasAttr("output_zero_point"))
      return op->emitError("leaky_relu epilogue needs an output zero point");
    ArrayRef<int32_t> p =
        op->getAttrOfType<DenseI32ArrayAttr>("leaky_params").asArrayRef();
    if (auto rounding = op->getAttrOfType<qnn::RoundingAttr>("rounding"))
      e.rule = qnn::toRoundingRule(
          qnn::leakyEpilogueRounding(rounding.getValue()));
    e.leaky.identity = {p[0], p[1]};
    e.leaky.alpha = {p[2], p[3]};
    e.leakyZeroPoint = p[4];
  }
  if (e.kind == Activation::lut) {
    ArrayRef<int32_t> t =
        op->getAttrOfType<DenseI32ArrayAttr>("lut").asArrayRef();
    e.lut.assign(t.begin(), t.end());
  }
  return e;
}

/// The requantize of the accumulators of one output channel: the
/// fixed-point multiplier of double(input_scale) * double(weight_scale[o]) /
/// double(output_scale), or the float32 factor of the ONNX rule.
struct ChannelRescale {
  math::QuantizedMultiplier multiplier;
  float onnxFactor;
};

/// Per-channel rescales of a conv-like npu op.
template <typename OpTy>
SmallVector<ChannelRescale> multipliers(OpTy op, int64_t numChannels) {
  SmallVector<ChannelRescale> m;
  ArrayRef<float> ws = op.getWeightScale();
  double in = op.getInputScale().convertToFloat();
  float out = op.getOutputScale().convertToFloat();
  for (int64_t o = 0; o < numChannels; ++o) {
    double product = in * static_cast<double>(ws.size() == 1 ? ws[0] : ws[o]);
    m.push_back({math::quantizeMultiplier(product / static_cast<double>(out)),
                 math::onnxRequantizeFactor(product, out)});
  }
  return m;
}

/// Requantizes one accumulator (bias added) of output channel `m`.
int64_t requantizeAcc(int64_t acc, const ChannelRescale &m, int64_t outZp,
                      int64_t qmin, int64_t qmax, math::RoundingRule rule) {
  if (rule == math::RoundingRule::ONNX)
    return math::requantizeONNX(acc, 0, m.onnxFactor, outZp, qmin, qmax);
  return math::requantize(acc, 0, m.multiplier, outZp, qmin, qmax, rule);
}

int64_t wrap32(int64_t v) {
  return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(v)));
}

LogicalResult evalConv2D(Conv2DOp op, ArrayRef<Tensor> in,
                         SmallVectorImpl<Tensor> &results) {
  auto epilogue = makeEpilogue(op);
  if (failed(epilogue))
    return failure();
  const Tensor &x = in[0], &w = in[1];
  auto type = op.getOutput().getType();
  Tensor r(type.getElementType(), type.getShape());
  int64_t N = r.shape[0], OH = r.shape[1], OW = r.shape[2], O = r.shape[3];
  int64_t H = x.shape[1], W = x.shape[2], C = x.shape[3];
  int64_t KH = w.shape[1], KW = w.shape[2], I = w.shape[3];
  int64_t groups = op.getGroups(), outPerGroup = O / groups;
  ArrayRef<int64_t> s = op.getStrides(), d = op.getDilations(),
                    p = op.getPadding();
  int64_t inZp = static_cast<int32_t>(op.getInputZeroPoint());
  int64_t wZp = static_cast<int32_t>(op.getWeightZeroPoint());
  int64_t outZp = static_cast<int32_t>(op.getOutputZeroPoint());
  auto m = multipliers(op, O);
  math::RoundingRule rule = qnn::toRoundingRule(op.getRounding());
  const Tensor *bias = op.getBias() ? &in[2] : nullptr;
  for (int64_t n = 0; n < N; ++n)
    for (int64_t oh = 0; oh < OH; ++oh)
      for (int64_t ow = 0; ow < OW; ++ow)
        for (int64_t o = 0; o < O; ++o) {
          int64_t g = o / outPerGroup, acc = 0;
          for (int64_t kh = 0; kh < KH; ++kh) {
            int64_t ih = oh * s[0] + kh * d[0] - p[0];
            if (ih < 0 || ih >= H)
              continue;
            for (int64_t kw = 0; kw < KW; ++kw) {
              int64_t iw = ow * s[1] + kw * d[1] - p[1];
              if (iw < 0 || iw >= W)
                continue;
              for (int64_t i = 0; i < I; ++i)
                acc += (x.ints[((n * H + ih) * W + iw) * C + g * I + i] -
                        inZp) *
                       (w.ints[((o * KH + kh) * KW + kw) * I + i] - wZp);
            }
          }
          acc = wrap32(acc);
          if (bias)
            acc = wrap32(acc + bias->ints[o]);
          int64_t y = requantizeAcc(acc, m[o], outZp, epilogue->qmin,
                                    epilogue->qmax, rule);
          r.ints[((n * OH + oh) * OW + ow) * O + o] = epilogue->apply(y);
        }
  results.push_back(std::move(r));
  return success();
}

LogicalResult evalFullyConnected(FullyConnectedOp op, ArrayRef<Tensor> in,
                                 SmallVectorImpl<Tensor> &results) {
  auto epilogue = makeEpilogue(op);
  if (failed(epilogue))
    return failure();
  const Tensor &x = in[0], &w = in[1];
  auto type = op.getOutput().getType();
  Tensor r(type.getElementType(), type.getShape());
  int64_t N = x.shape[0], K = x.shape[1], O = w.shape[0];
  int64_t inZp = static_cast<int32_t>(op.getInputZeroPoint());
  int64_t wZp = static_cast<int32_t>(op.getWeightZeroPoint());
  int64_t outZp = static_cast<int32_t>(op.getOutputZeroPoint());
  auto m = multipliers(op, O);
  math::RoundingRule rule = qnn::toRoundingRule(op.getRounding());
  const Tensor *bias = op.getBias() ? &in[2] : nullptr;
  for (int64_t n = 0; n < N; ++n)
    for (int64_t o = 0; o < O; ++o) {
      int64_t acc = 0;
      for (int64_t k = 0; k < K; ++k)
        acc += (x.ints[n * K + k] - inZp) * (w.ints[o * K + k] - wZp);
      acc = wrap32(acc);
      if (bias)
        acc = wrap32(acc + bias->ints[o]);
      int64_t y = requantizeAcc(acc, m[o], outZp, epilogue->qmin,
                                epilogue->qmax, rule);
      r.ints[n * O + o] = epilogue->apply(y);
    }
  results.push_back(std::move(r));
  return success();
}

/// Row-major index into `t` of the result element `linear` of `shape`, with
/// size-1 dimensions of `t` broadcast.
int64_t broadcastIndex(const Tensor &t, ArrayRef<int64_t> shape,
                       int64_t linear) {
  int64_t index = 0, stride = 1;
  for (int64_t dim = shape.size() - 1; dim >= 0; --dim) {
    int64_t coord = linear % shape[dim];
    linear /= shape[dim];
    if (t.shape[dim] != 1)
      index += coord * stride;
    stride *= t.shape[dim];
  }
  return index;
}

LogicalResult evalAdd(AddOp op, ArrayRef<Tensor> in,
                      SmallVectorImpl<Tensor> &results) {
  auto epilogue = makeEpilogue(op);
  if (failed(epilogue))
    return failure();
  auto type = op.getOutput().getType();
  Tensor r(type.getElementType(), type.getShape());
  math::AddParams params = math::computeAddParams(
      op.getLhsScale().convertToFloat(),
      static_cast<int32_t>(op.getLhsZeroPoint()),
      op.getRhsScale().convertToFloat(),
      static_cast<int32_t>(op.getRhsZeroPoint()),
      op.getOutputScale().convertToFloat(),
      static_cast<int32_t>(op.getOutputZeroPoint()));
  math::RoundingRule rule = qnn::toRoundingRule(op.getRounding());
  for (int64_t i = 0; i < r.numElements(); ++i) {
    int64_t lhs = in[0].ints[broadcastIndex(in[0], r.shape, i)];
    int64_t rhs = in[1].ints[broadcastIndex(in[1], r.shape, i)];
    r.ints[i] = epilogue->apply(
        rule == math::RoundingRule::ONNX
            ? math::addQuantizedONNX(
                  lhs, rhs, op.getLhsScale().convertToFloat(),
                  static_cast<int32_t>(op.getLhsZeroPoint()),
                  op.getRhsScale().convertToFloat(),
                  static_cast<int32_t>(op.getRhsZeroPoint()),
                  op.getOutputScale().convertToFloat(),
                  static_cast<int32_t>(op.getOutputZeroPoint()),
                  epilogue->actMin, epilogue->actMax, /*subtract=*/false)
            : math::addQuantized(lhs, rhs, params, epilogue->actMin,
                                 epilogue->actMax, rule));
  }
  results.push_back(std::move(r));
  return success();
}

template <typename PoolOp>
LogicalResult evalPool(PoolOp op, ArrayRef<Tensor> in,
                       SmallVectorImpl<Tensor> &results, bool average) {
  auto epilogue = makeEpilogue(op);
  if (failed(epilogue))
    return failure();
  const Tensor &x = in[0];
  auto type = op.getOutput().getType();
  Tensor r(type.getElementType(), type.getShape());
  int64_t N = r.shape[0], OH = r.shape[1], OW = r.shape[2], C = r.shape[3];
  int64_t H = x.shape[1], W = x.shape[2];
  ArrayRef<int64_t> k = op.getKernel(), s = op.getStrides(),
                    p = op.getPadding();
  for (int64_t n = 0; n < N; ++n)
    for (int64_t oh = 0; oh < OH; ++oh)
      for (int64_t ow = 0; ow < OW; ++ow)
        for (int64_t c = 0; c < C; ++c) {
          int64_t sum = 0, count = 0;
          int64_t best = std::numeric_limits<int64_t>::min();
          // Only the window's overlap with the input is visited (a window
          // may be far larger than the input).
          qnn::WindowSpan hs = qnn::windowOverlap(oh * s[0] - p[0], k[0], H);
          qnn::WindowSpan ws = qnn::windowOverlap(ow * s[1] - p[1], k[1], W);
          for (int64_t ih = hs.begin; ih < hs.end; ++ih) {
            for (int64_t iw = ws.begin; iw < ws.end; ++iw) {
              int64_t v = x.ints[((n * H + ih) * W + iw) * C + c];
              sum += v;
              ++count;
              best = std::max(best, v);
            }
          }
          if (count == 0)
            return op.emitError("a pooling window lies entirely in the "
                                "padding");
          int64_t y = average ? math::roundedAverage(sum, count) : best;
          r.ints[((n * OH + oh) * OW + ow) * C + c] = epilogue->apply(y);
        }
  results.push_back(std::move(r));
  return success();
}

} // namespace

void mlir::npu::registerReferenceOps(qnn::ref::Evaluator &e) {
  e.registerOp("npu.conv2d", [](Operation *op, ArrayRef<Tensor> in,
                                SmallVectorImpl<Tensor> &out) {
    return evalConv2D(cast<Conv2DOp>(op), in, out);
  });
  e.registerOp("npu.fully_connected", [](Operation *op, ArrayRef<Tensor> in,
                                         SmallVectorImpl<Tensor> &out) {
    return evalFullyConnected(cast<FullyConnectedOp>(op), in, out);
  });
  e.registerOp("npu.add", [](Operation *op, ArrayRef<Tensor> in,
                             SmallVectorImpl<Tensor> &out) {
    return evalAdd(cast<AddOp>(op), in, out);
  });
  e.registerOp("npu.avg_pool2d", [](Operation *op, ArrayRef<Tensor> in,
                                    SmallVectorImpl<Tensor> &out) {
    return evalPool(cast<AvgPool2DOp>(op), in, out, /*average=*/true);
  });
  e.registerOp("npu.max_pool2d", [](Operation *op, ArrayRef<Tensor> in,
                                    SmallVectorImpl<Tensor> &out) {
    return evalPool(cast<MaxPool2DOp>(op), in, out, /*average=*/false);
  });
}
