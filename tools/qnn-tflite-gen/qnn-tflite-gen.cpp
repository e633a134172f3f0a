//===- qnn-tflite-gen.cpp - deterministic TFLite test models
//---------------===//
//
// Writes tiny quantized .tflite models, one per supported operator, plus a
// small MobileNet-style model and deliberately malformed models, with the
// flatbuffers builder of the same schema subset the importer reads. Weights
// come from a fixed linear congruential generator, so every run writes the
// same bytes. Also corrupts existing files (truncation, byte flips) and
// fuzzes the importer in-process.
//
//   qnn-tflite-gen --model=conv2d -o conv2d.tflite
//   qnn-tflite-gen --list
//   qnn-tflite-gen --truncate=100 in.tflite -o out.tflite
//   qnn-tflite-gen --flip=40 in.tflite -o out.tflite
//   qnn-tflite-gen --fuzz=500 in.tflite
//
//===----------------------------------------------------------------------===//

#include "QNN/Target/TFLite/TFLiteImport.h"
#include "QNN/Target/TFLite/schema_subset_generated.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace tfl = ::qnn::tflite;
using tfl::ActivationFunctionType;
using tfl::BuiltinOperator;
using tfl::BuiltinOptions;
using tfl::Padding;
using tfl::TensorType;

namespace {

/// Numerical Recipes LCG: a deterministic stream of pseudo-random values.
class Random {
public:
  explicit Random(uint32_t seed) : state(seed) {}
  uint32_t next() {
    state = state * 1664525u + 1013904223u;
    return state >> 8;
  }
  int64_t range(int64_t lo, int64_t hi) {
    return lo +
           static_cast<int64_t>(next() % static_cast<uint32_t>(hi - lo + 1));
  }

private:
  uint32_t state;
};

struct Quant {
  std::vector<float> scales;
  std::vector<int64_t> zeroPoints;
  int32_t dimension = 0;
};

Quant perTensor(float scale, int64_t zp) { return {{scale}, {zp}, 0}; }

/// Collects tensors, buffers and operators, then serializes one model.
class ModelWriter {
public:
  ModelWriter() { buffers.push_back(tfl::CreateBufferDirect(fbb)); }

  int tensor(const std::string &name, std::vector<int32_t> shape,
             TensorType type, const Quant *quant = nullptr,
             uint32_t buffer = 0) {
    flatbuffers::Offset<tfl::QuantizationParameters> q = 0;
    if (quant)
      q = tfl::CreateQuantizationParametersDirect(
          fbb, nullptr, nullptr, &quant->scales, &quant->zeroPoints,
          quant->dimension);
    tensors.push_back(
        tfl::CreateTensorDirect(fbb, &shape, type, buffer, name.c_str(), q));
    return static_cast<int>(tensors.size()) - 1;
  }
  int activation(const std::string &name, std::vector<int32_t> shape,
                 TensorType type, Quant quant) {
    return tensor(name, shape, type, &quant);
  }
  uint32_t buffer(const std::vector<uint8_t> &bytes) {
    buffers.push_back(tfl::CreateBufferDirect(fbb, &bytes));
    return static_cast<uint32_t>(buffers.size()) - 1;
  }
  template <typename T>
  int constant(const std::string &name, std::vector<int32_t> shape,
               TensorType type, const std::vector<T> &values,
               const Quant *quant = nullptr) {
    std::vector<uint8_t> bytes(values.size() * sizeof(T));
    std::memcpy(bytes.data(), values.data(), bytes.size());
    return tensor(name, shape, type, quant, buffer(bytes));
  }
  /// Deterministic int8/uint8 weights in [lo, hi].
  int weights(const std::string &name, std::vector<int32_t> shape,
              TensorType type, Quant quant, int64_t lo, int64_t hi) {
    size_t n = 1;
    for (int32_t d : shape)
      n *= d;
    std::vector<uint8_t> data(n);
    for (auto &v : data)
      v = static_cast<uint8_t>(random.range(lo, hi));
    return tensor(name, shape, type, &quant, buffer(data));
  }
  int bias(const std::string &name, int32_t channels, int64_t lo, int64_t hi,
           Quant quant) {
    std::vector<int32_t> values(channels);
    for (auto &v : values)
      v = static_cast<int32_t>(random.range(lo, hi));
    return constant<int32_t>(name, {channels}, TensorType::INT32, values,
                             &quant);
  }

  void op(BuiltinOperator code, std::vector<int32_t> inputs,
          std::vector<int32_t> outputs,
          BuiltinOptions optionsType = BuiltinOptions::NONE,
          flatbuffers::Offset<void> options = 0) {
    int32_t c = static_cast<int32_t>(code);
    if (!opcodeIndex.count(c)) {
      opcodeIndex[c] = static_cast<uint32_t>(opcodes.size());
      // As the TFLite converter: the byte field saturates at 127
      // (PLACEHOLDER_FOR_GREATER_OP_CODES), the int field has the code.
      opcodes.push_back(tfl::CreateOperatorCodeDirect(
          fbb, static_cast<int8_t>(std::min(c, 127)), nullptr, 1, c));
    }
    operators.push_back(tfl::CreateOperatorDirect(
        fbb, opcodeIndex[c], &inputs, &outputs, optionsType, options));
  }

  std::vector<uint8_t> finish(std::vector<int32_t> inputs,
                              std::vector<int32_t> outputs,
                              uint32_t version = 3) {
    std::vector<flatbuffers::Offset<tfl::SubGraph>> subgraphs = {
        tfl::CreateSubGraphDirect(fbb, &tensors, &inputs, &outputs, &operators,
                                  "main")};
    auto model = tfl::CreateModelDirect(fbb, version, &opcodes, &subgraphs,
                                        "qnn-tflite-gen", &buffers);
    tfl::FinishModelBuffer(fbb, model);
    return std::vector<uint8_t>(fbb.GetBufferPointer(),
                                fbb.GetBufferPointer() + fbb.GetSize());
  }

  flatbuffers::FlatBufferBuilder fbb;
  Random random{12345};

private:
  std::vector<flatbuffers::Offset<tfl::Tensor>> tensors;
  std::vector<flatbuffers::Offset<tfl::Buffer>> buffers;
  std::vector<flatbuffers::Offset<tfl::Operator>> operators;
  std::vector<flatbuffers::Offset<tfl::OperatorCode>> opcodes;
  std::map<int32_t, uint32_t> opcodeIndex;
};

constexpr TensorType I8 = TensorType::INT8;
constexpr TensorType U8 = TensorType::UINT8;
constexpr TensorType F32 = TensorType::FLOAT32;

/// Per-channel symmetric int8 weight quantization with distinct scales.
Quant perChannel(int channels, float base, int32_t dimension) {
  Quant q;
  for (int c = 0; c < channels; ++c) {
    q.scales.push_back(base * static_cast<float>(c + 1));
    q.zeroPoints.push_back(0);
  }
  q.dimension = dimension;
  return q;
}

//===----------------------------------------------------------------------===//
// One model per operator
//===----------------------------------------------------------------------===//

using Model = std::vector<uint8_t>;

Model conv2d() {
  // int8 per-channel, SAME padding, stride 2, fused RELU6.
  ModelWriter w;
  int in = w.activation("input", {1, 5, 5, 3}, I8, perTensor(0.5f, -1));
  int f =
      w.weights("filter", {4, 3, 3, 3}, I8, perChannel(4, 0.01f, 0), -127, 127);
  int b = w.bias("bias", 4, -100, 100, perChannel(4, 0.005f, 0));
  int out = w.activation("output", {1, 3, 3, 4}, I8, perTensor(0.05f, -128));
  w.op(BuiltinOperator::CONV_2D, {in, f, b}, {out},
       BuiltinOptions::Conv2DOptions,
       tfl::CreateConv2DOptions(w.fbb, Padding::SAME, 2, 2,
                                ActivationFunctionType::RELU6)
           .Union());
  return w.finish({in}, {out});
}

Model conv2dValidU8() {
  // uint8 per-tensor weights with a zero point, VALID, dilation 2, RELU.
  ModelWriter w;
  int in = w.activation("input", {1, 7, 6, 2}, U8, perTensor(0.25f, 128));
  int f = w.weights("filter", {3, 2, 2, 2}, U8, perTensor(0.02f, 120), 0, 255);
  int b = w.bias("bias", 3, -50, 50, perTensor(0.005f, 0));
  int out = w.activation("output", {1, 5, 4, 3}, U8, perTensor(0.1f, 10));
  w.op(BuiltinOperator::CONV_2D, {in, f, b}, {out},
       BuiltinOptions::Conv2DOptions,
       tfl::CreateConv2DOptions(w.fbb, Padding::VALID, 1, 1,
                                ActivationFunctionType::RELU, 2, 2)
           .Union());
  return w.finish({in}, {out});
}

Model depthwise() {
  // int8 per-channel, channel multiplier 2, SAME, stride 1, RELU.
  ModelWriter w;
  int in = w.activation("input", {1, 4, 4, 2}, I8, perTensor(0.1f, 3));
  int f =
      w.weights("filter", {1, 3, 3, 4}, I8, perChannel(4, 0.02f, 3), -127, 127);
  // Bias quantized_dimension copied from the filter (3) on a 1-D tensor, as
  // person_detect has it: must be ignored.
  int b = w.bias("bias", 4, -20, 20, perChannel(4, 0.002f, 3));
  int out = w.activation("output", {1, 4, 4, 4}, I8, perTensor(0.07f, -5));
  w.op(BuiltinOperator::DEPTHWISE_CONV_2D, {in, f, b}, {out},
       BuiltinOptions::DepthwiseConv2DOptions,
       tfl::CreateDepthwiseConv2DOptions(w.fbb, Padding::SAME, 1, 1, 2,
                                         ActivationFunctionType::RELU)
           .Union());
  return w.finish({in}, {out});
}

Model fullyConnected() {
  // A rank-4 input flattened to [1, 8]; RELU_N1_TO_1.
  ModelWriter w;
  int in = w.activation("input", {1, 2, 2, 2}, I8, perTensor(0.2f, 0));
  int f = w.weights("weights", {3, 8}, I8, perTensor(0.01f, 0), -127, 127);
  int b = w.bias("bias", 3, -30, 30, perTensor(0.002f, 0));
  int out = w.activation("output", {1, 3}, I8, perTensor(0.02f, 2));
  w.op(BuiltinOperator::FULLY_CONNECTED, {in, f, b}, {out},
       BuiltinOptions::FullyConnectedOptions,
       tfl::CreateFullyConnectedOptions(w.fbb,
                                        ActivationFunctionType::RELU_N1_TO_1)
           .Union());
  return w.finish({in}, {out});
}

Model fullyConnectedUniform() {
  // Constants of one repeated value (weights 3, bias -5): the importer
  // makes them splats.
  ModelWriter w;
  int in = w.activation("input", {1, 8}, I8, perTensor(0.2f, 0));
  int f = w.weights("weights", {3, 8}, I8, perTensor(0.01f, 0), 3, 3);
  int b = w.bias("bias", 3, -5, -5, perTensor(0.002f, 0));
  int out = w.activation("output", {1, 3}, I8, perTensor(0.02f, 2));
  w.op(BuiltinOperator::FULLY_CONNECTED, {in, f, b}, {out},
       BuiltinOptions::FullyConnectedOptions,
       tfl::CreateFullyConnectedOptions(w.fbb, ActivationFunctionType::NONE)
           .Union());
  return w.finish({in}, {out});
}

Model fullyConnectedNoBias() {
  ModelWriter w;
  int in = w.activation("input", {2, 4}, U8, perTensor(0.2f, 128));
  int f = w.weights("weights", {5, 4}, U8, perTensor(0.01f, 127), 0, 255);
  int out = w.activation("output", {2, 5}, U8, perTensor(0.02f, 100));
  w.op(BuiltinOperator::FULLY_CONNECTED, {in, f, -1}, {out},
       BuiltinOptions::FullyConnectedOptions,
       tfl::CreateFullyConnectedOptions(w.fbb).Union());
  return w.finish({in}, {out});
}

Model add() {
  ModelWriter w;
  int a = w.activation("a", {1, 2, 2, 3}, I8, perTensor(0.1f, 1));
  int b = w.activation("b", {1, 2, 2, 3}, I8, perTensor(0.2f, -2));
  int out = w.activation("sum", {1, 2, 2, 3}, I8, perTensor(0.3f, -100));
  w.op(BuiltinOperator::ADD, {a, b}, {out}, BuiltinOptions::AddOptions,
       tfl::CreateAddOptions(w.fbb, ActivationFunctionType::RELU).Union());
  return w.finish({a, b}, {out});
}

Model sub() {
  // SUB with fused RELU6 and a broadcast [3] rhs; an rhs scale larger than
  // the lhs's.
  ModelWriter w;
  int a = w.activation("a", {1, 2, 2, 3}, I8, perTensor(0.1f, 1));
  int b = w.activation("b", {3}, I8, perTensor(0.3f, -5));
  int out = w.activation("difference", {1, 2, 2, 3}, I8,
                         perTensor(0.25f, -20));
  w.op(BuiltinOperator::SUB, {a, b}, {out}, BuiltinOptions::SubOptions,
       tfl::CreateSubOptions(w.fbb, ActivationFunctionType::RELU6).Union());
  return w.finish({a, b}, {out});
}

Model mul() {
  // Broadcast of a constant [3] operand.
  ModelWriter w;
  int a = w.activation("a", {1, 2, 2, 3}, U8, perTensor(0.1f, 128));
  Quant cq = perTensor(0.05f, 0);
  int c = w.constant<uint8_t>("c", {3}, U8, {10, 20, 30}, &cq);
  int out = w.activation("product", {1, 2, 2, 3}, U8, perTensor(0.4f, 5));
  w.op(BuiltinOperator::MUL, {a, c}, {out}, BuiltinOptions::MulOptions,
       tfl::CreateMulOptions(w.fbb).Union());
  return w.finish({a}, {out});
}

Model averagePool() {
  ModelWriter w;
  int in = w.activation("input", {1, 5, 5, 2}, I8, perTensor(0.1f, -3));
  int out = w.activation("output", {1, 3, 3, 2}, I8, perTensor(0.1f, -3));
  w.op(BuiltinOperator::AVERAGE_POOL_2D, {in}, {out},
       BuiltinOptions::Pool2DOptions,
       tfl::CreatePool2DOptions(w.fbb, Padding::SAME, 2, 2, 3, 3).Union());
  return w.finish({in}, {out});
}

Model maxPool() {
  ModelWriter w;
  int in = w.activation("input", {1, 4, 6, 2}, U8, perTensor(0.05f, 100));
  int out = w.activation("output", {1, 2, 3, 2}, U8, perTensor(0.05f, 100));
  w.op(BuiltinOperator::MAX_POOL_2D, {in}, {out}, BuiltinOptions::Pool2DOptions,
       tfl::CreatePool2DOptions(w.fbb, Padding::VALID, 2, 2, 2, 2,
                                ActivationFunctionType::RELU6)
           .Union());
  return w.finish({in}, {out});
}

Model concatenation() {
  ModelWriter w;
  int a = w.activation("a", {1, 2, 2, 3}, I8, perTensor(0.1f, 0));
  int b = w.activation("b", {1, 2, 2, 5}, I8, perTensor(0.2f, 4));
  int out = w.activation("cat", {1, 2, 2, 8}, I8, perTensor(0.2f, 4));
  w.op(BuiltinOperator::CONCATENATION, {a, b}, {out},
       BuiltinOptions::ConcatenationOptions,
       tfl::CreateConcatenationOptions(w.fbb, -1).Union());
  return w.finish({a, b}, {out});
}

Model reshapeSqueeze() {
  // RESHAPE [1,2,3,4] -> [1,24] (collapse), SQUEEZE [1,24] -> [24]... and a
  // RESHAPE that neither collapses nor expands ([24] -> [4,6]).
  ModelWriter w;
  Quant q = perTensor(0.5f, 7);
  int in = w.activation("input", {1, 2, 3, 4}, I8, q);
  int shape = w.constant<int32_t>("shape", {2}, TensorType::INT32, {1, 24});
  int flat = w.activation("flat", {1, 24}, I8, q);
  int squeezed = w.activation("squeezed", {24}, I8, q);
  int out = w.activation("output", {4, 6}, I8, q);
  int expanded = w.activation("expanded", {1, 4, 6, 1}, I8, q);
  w.op(BuiltinOperator::RESHAPE, {in, shape}, {flat});
  w.op(BuiltinOperator::SQUEEZE, {flat}, {squeezed},
       BuiltinOptions::SqueezeOptions,
       tfl::CreateSqueezeOptionsDirect(w.fbb, nullptr).Union());
  w.op(BuiltinOperator::RESHAPE, {squeezed}, {out});
  w.op(BuiltinOperator::RESHAPE, {out}, {expanded});
  return w.finish({in}, {expanded});
}

Model softmax() {
  ModelWriter w;
  int in = w.activation("logits", {1, 10}, U8, perTensor(0.1f, 128));
  int out = w.activation("probs", {1, 10}, U8, perTensor(1.0f / 256, 0));
  w.op(BuiltinOperator::SOFTMAX, {in}, {out}, BuiltinOptions::SoftmaxOptions,
       tfl::CreateSoftmaxOptions(w.fbb, 1.0f).Union());
  return w.finish({in}, {out});
}

Model pad() {
  ModelWriter w;
  Quant q = perTensor(0.1f, -14);
  int in = w.activation("input", {1, 3, 3, 2}, I8, q);
  int pads = w.constant<int32_t>("paddings", {4, 2}, TensorType::INT32,
                                 {0, 0, 1, 2, 2, 1, 0, 0});
  int out = w.activation("padded", {1, 6, 6, 2}, I8, q);
  w.op(BuiltinOperator::PAD, {in, pads}, {out}, BuiltinOptions::PadOptions,
       tfl::CreatePadOptions(w.fbb).Union());
  return w.finish({in}, {out});
}

/// QUANTIZE int8 -> int8 (a requantize) by exactly a quarter (scale 0.1 ->
/// 0.4; multiplier 2^30, shift -1): gemmlowp's double rounding rounds x / 2
/// first, so x = 4k + 1 (e.g. 5 / 4 = 1.25) rounds up where TFLite's single
/// rounding does not. Feed 0..255 to see which one a runtime uses.
Model requantizeTies() {
  ModelWriter w;
  int in = w.activation("input", {1, 256}, I8, perTensor(0.1f, 0));
  int out = w.activation("quarter", {1, 256}, I8, perTensor(0.4f, 0));
  w.op(BuiltinOperator::QUANTIZE, {in}, {out});
  return w.finish({in}, {out});
}

Model quantizeDequantize() {
  // float -> int8 (QUANTIZE), int8 -> uint8 (QUANTIZE as requantize),
  // uint8 -> float (DEQUANTIZE).
  ModelWriter w;
  int in = w.tensor("input", {1, 4}, F32);
  int q8 = w.activation("q8", {1, 4}, I8, perTensor(0.02f, -3));
  int qu8 = w.activation("qu8", {1, 4}, U8, perTensor(0.03f, 120));
  int out = w.tensor("output", {1, 4}, F32);
  w.op(BuiltinOperator::QUANTIZE, {in}, {q8});
  w.op(BuiltinOperator::QUANTIZE, {q8}, {qu8});
  w.op(BuiltinOperator::DEQUANTIZE, {qu8}, {out});
  return w.finish({in}, {out});
}

Model relus() {
  // Standalone RELU (same parameters), RELU6 (different parameters: a
  // requantize first), RELU_N1_TO_1.
  ModelWriter w;
  int in = w.activation("input", {1, 8}, I8, perTensor(0.05f, -10));
  int r = w.activation("relu", {1, 8}, I8, perTensor(0.05f, -10));
  int r6 = w.activation("relu6", {1, 8}, I8, perTensor(0.03f, -128));
  int r1 = w.activation("relu1", {1, 8}, I8, perTensor(0.03f, -128));
  w.op(BuiltinOperator::RELU, {in}, {r});
  w.op(BuiltinOperator::RELU6, {r}, {r6});
  w.op(BuiltinOperator::RELU_N1_TO_1, {r6}, {r1});
  return w.finish({in}, {r1});
}

Model tableActivations() {
  ModelWriter w;
  int in = w.activation("input", {1, 8}, I8, perTensor(0.1f, 0));
  int s = w.activation("sigmoid", {1, 8}, I8, perTensor(1.0f / 256, -128));
  int t = w.activation("tanh", {1, 8}, I8, perTensor(1.0f / 128, 0));
  int h = w.activation("hardswish", {1, 8}, I8, perTensor(0.02f, -100));
  int l = w.activation("leaky", {1, 8}, I8, perTensor(0.03f, 5));
  w.op(BuiltinOperator::LOGISTIC, {in}, {s});
  w.op(BuiltinOperator::TANH, {s}, {t});
  w.op(BuiltinOperator::HARD_SWISH, {t}, {h}, BuiltinOptions::HardSwishOptions,
       tfl::CreateHardSwishOptions(w.fbb).Union());
  w.op(BuiltinOperator::LEAKY_RELU, {h}, {l}, BuiltinOptions::LeakyReluOptions,
       tfl::CreateLeakyReluOptions(w.fbb, 0.125f).Union());
  return w.finish({in}, {l});
}

/// TRANSPOSE_CONV with weights and biases given by formulas, so that a test
/// can recompute TFLite's scatter-accumulate independently:
/// w[o][y][x][i] = (o * 7 + y * 5 + x * 3 + i) % 11 - 5, bias[o] = 10 * o - 20.
Model transposeConvModel(std::vector<int32_t> inShape, int32_t o, int32_t kh,
                         int32_t kw, int32_t sh, int32_t sw, Padding padding,
                         std::vector<int32_t> outShape, bool withBias,
                         ActivationFunctionType act) {
  ModelWriter w;
  int32_t c = inShape[3];
  std::vector<int8_t> weights;
  for (int32_t oc = 0; oc < o; ++oc)
    for (int32_t y = 0; y < kh; ++y)
      for (int32_t x = 0; x < kw; ++x)
        for (int32_t i = 0; i < c; ++i)
          weights.push_back(static_cast<int8_t>((oc * 7 + y * 5 + x * 3 + i) % 11 - 5));
  Quant wq = perChannel(o, 0.02f, 0);
  int shape = w.constant<int32_t>("output_shape", {4}, TensorType::INT32,
                                  outShape);
  int f = w.constant<int8_t>("filter", {o, kh, kw, c}, I8, weights, &wq);
  int in = w.activation("input", inShape, I8, perTensor(0.05f, -3));
  int out = w.activation("output", outShape, I8, perTensor(0.04f, 5));
  std::vector<int32_t> inputs = {shape, f, in};
  if (withBias) {
    std::vector<int32_t> bias;
    for (int32_t oc = 0; oc < o; ++oc)
      bias.push_back(10 * oc - 20);
    Quant bq = perChannel(o, 0.001f, 0);
    inputs.push_back(w.constant<int32_t>("bias", {o}, TensorType::INT32, bias, &bq));
  }
  w.op(BuiltinOperator::TRANSPOSE_CONV, inputs, {out},
       BuiltinOptions::TransposeConvOptions,
       tfl::CreateTransposeConvOptions(w.fbb, padding, sw, sh, act).Union());
  return w.finish({in}, {out});
}

Model transposeConvSame() {
  // 3x3, stride 2, SAME: 1x3x4x5 -> 1x6x8x6, bias, RELU.
  return transposeConvModel({1, 3, 4, 5}, 6, 3, 3, 2, 2, Padding::SAME,
                            {1, 6, 8, 6}, true, ActivationFunctionType::RELU);
}

Model transposeConvValid() {
  // 2x4, strides 3x2, VALID: 1x3x3x2 -> 1x8x8x3 ((3 - 1) * 3 + 2, (3 - 1) * 2 + 4), no bias.
  return transposeConvModel({1, 3, 3, 2}, 3, 2, 4, 3, 2, Padding::VALID,
                            {1, 8, 8, 3}, false, ActivationFunctionType::NONE);
}

Model badTransposeConv() {
  // A 5x5 input whose scatter (stride 2, 2x2) reaches row 9 of a 4x4
  // output: refused (TFLite would drop the excess; no converter writes it).
  return transposeConvModel({1, 5, 5, 2}, 3, 2, 2, 2, 2, Padding::VALID,
                            {1, 4, 4, 3}, false, ActivationFunctionType::NONE);
}

/// REDUCE_MAX over axes [1, -1] without keep_dims (int8) and REDUCE_MIN
/// over axis 2 with keep_dims (uint8 after a CAST-free second input).
Model reduceMaxMin() {
  ModelWriter w;
  Quant q = perTensor(0.1f, 3);
  int axesMax = w.constant<int32_t>("axes_max", {2}, TensorType::INT32, {1, -1});
  int axisMin = w.constant<int32_t>("axis_min", {1}, TensorType::INT32, {2});
  int a = w.activation("a", {2, 3, 4, 5}, I8, q);
  int mx = w.activation("max", {2, 4}, I8, q);
  Quant uq = perTensor(0.2f, 128);
  int b = w.activation("b", {2, 3, 4}, U8, uq);
  int mn = w.activation("min", {2, 3, 1}, U8, uq);
  w.op(BuiltinOperator::REDUCE_MAX, {a, axesMax}, {mx},
       BuiltinOptions::ReducerOptions,
       tfl::CreateReducerOptions(w.fbb, false).Union());
  w.op(BuiltinOperator::REDUCE_MIN, {b, axisMin}, {mn},
       BuiltinOptions::ReducerOptions,
       tfl::CreateReducerOptions(w.fbb, true).Union());
  return w.finish({a, b}, {mx, mn});
}

/// BATCH_MATMUL of two activations [2, 3, 4, 5] x [2, 3, 6, 5] with adj_y
/// (the rhs transposed): [2, 3, 4, 6].
Model batchMatMul() {
  ModelWriter w;
  int lhs = w.activation("lhs", {2, 3, 4, 5}, I8, perTensor(0.04f, -6));
  int rhs = w.activation("rhs", {2, 3, 6, 5}, I8, perTensor(0.03f, 9));
  int out = w.activation("output", {2, 3, 4, 6}, I8, perTensor(0.3f, -2));
  w.op(BuiltinOperator::BATCH_MATMUL, {lhs, rhs}, {out},
       BuiltinOptions::BatchMatMulOptions,
       tfl::CreateBatchMatMulOptions(w.fbb, false, true).Union());
  return w.finish({lhs, rhs}, {out});
}

/// BATCH_MATMUL with broadcast batch dimensions: activations [2, 1, 4, 5] x
/// [3, 5, 6] -> [2, 3, 4, 6] (the rhs gets a leading 1, then both
/// broadcast), and an activation [2, 4, 5] x a constant [6, 5] weight with
/// adj_y -> [2, 4, 6] (a transformer's projection).
Model batchMatMulBroadcast() {
  ModelWriter w;
  int a = w.activation("a", {2, 1, 4, 5}, I8, perTensor(0.04f, -6));
  int b = w.activation("b", {3, 5, 6}, I8, perTensor(0.03f, 9));
  int ab = w.activation("ab", {2, 3, 4, 6}, I8, perTensor(0.3f, -2));
  w.op(BuiltinOperator::BATCH_MATMUL, {a, b}, {ab},
       BuiltinOptions::BatchMatMulOptions,
       tfl::CreateBatchMatMulOptions(w.fbb, false, false).Union());
  std::vector<int8_t> weights;
  for (int i = 0; i < 30; ++i)
    weights.push_back(static_cast<int8_t>((i * 37) % 255 - 127));
  Quant wq = perTensor(0.02f, 0);
  int wt = w.constant<int8_t>("weights", {6, 5}, I8, weights, &wq);
  int c = w.activation("c", {2, 4, 5}, I8, perTensor(0.05f, 4));
  int cw = w.activation("cw", {2, 4, 6}, I8, perTensor(0.4f, 1));
  w.op(BuiltinOperator::BATCH_MATMUL, {c, wt}, {cw},
       BuiltinOptions::BatchMatMulOptions,
       tfl::CreateBatchMatMulOptions(w.fbb, false, true).Union());
  return w.finish({a, b, c}, {ab, cw});
}

/// DIV of two [1, 256, 256] activations (feed every pair of bytes: lhs =
/// i / 256, rhs = i % 256): uint8 and int8 (second input pair), TFLite's
/// integer DIV.
Model div() {
  ModelWriter w;
  int a = w.activation("a", {1, 256, 256}, U8, perTensor(0.05f, 128));
  int b = w.activation("b", {1, 256, 256}, U8, perTensor(0.03f, 100));
  int q = w.activation("quotient", {1, 256, 256}, U8, perTensor(0.1f, 128));
  w.op(BuiltinOperator::DIV, {a, b}, {q}, BuiltinOptions::DivOptions,
       tfl::CreateDivOptions(w.fbb, ActivationFunctionType::NONE).Union());
  int c = w.activation("c", {1, 256, 256}, I8, perTensor(0.02f, -3));
  int d = w.activation("d", {1, 256, 256}, I8, perTensor(0.07f, 10));
  int r = w.activation("ratio", {1, 256, 256}, I8, perTensor(0.01f, -5));
  w.op(BuiltinOperator::DIV, {c, d}, {r}, BuiltinOptions::DivOptions,
       tfl::CreateDivOptions(w.fbb, ActivationFunctionType::NONE).Union());
  return w.finish({a, b, c, d}, {q, r});
}

Model squaredDifference() {
  // Every int8 value (input 1x16x16: feed 0..255) minus a constant [16]
  // (-120, -100, ..., 180) broadcast over the last dimension, squared.
  ModelWriter w;
  std::vector<int8_t> rhs;
  for (int i = 0; i < 16; ++i)
    rhs.push_back(static_cast<int8_t>(-120 + 16 * i));
  Quant rq = perTensor(0.08f, 3);
  int r = w.constant<int8_t>("rhs", {16}, I8, rhs, &rq);
  int in = w.activation("input", {1, 16, 16}, I8, perTensor(0.05f, -5));
  int out = w.activation("output", {1, 16, 16}, I8, perTensor(0.2f, -120));
  w.op(BuiltinOperator::SQUARED_DIFFERENCE, {in, r}, {out});
  return w.finish({in}, {out});
}

Model prelu() {
  // Every int8 value (input 1x64x4: feed 0..255) against a per-channel alpha
  // [4] = (-8, 3, 40, -100) broadcast over the last dimension.
  ModelWriter w;
  Quant aq = perTensor(0.01f, 2);
  int alpha = w.constant<int8_t>("alpha", {4}, I8, {-8, 3, 40, -100}, &aq);
  int in = w.activation("input", {1, 64, 4}, I8, perTensor(0.06f, -4));
  int out = w.activation("output", {1, 64, 4}, I8, perTensor(0.05f, 7));
  w.op(BuiltinOperator::PRELU, {in, alpha}, {out});
  return w.finish({in}, {out});
}

Model elu() {
  // Every int8 value through ELU (input 1x256: feed 0..255): TFLite's int8
  // table of x < 0 ? exp(x) - 1 : x.
  ModelWriter w;
  int in = w.activation("input", {1, 256}, I8, perTensor(0.03f, 10));
  int e = w.activation("elu", {1, 256}, I8, perTensor(0.025f, 30));
  w.op(BuiltinOperator::ELU, {in}, {e});
  return w.finish({in}, {e});
}

Model rsqrt() {
  // Every int8 value through RSQRT (input 1x256: feed 0..255): values at or
  // below the zero point -100 give 127; 1 / sqrt(x) for x in (0, 11.35]
  // spans the output range.
  ModelWriter w;
  int in = w.activation("input", {1, 256}, I8, perTensor(0.05f, -100));
  int r = w.activation("rsqrt", {1, 256}, I8, perTensor(0.02f, -128));
  w.op(BuiltinOperator::RSQRT, {in}, {r});
  return w.finish({in}, {r});
}

Model badRsqrtUint8() {
  // RSQRT of uint8: TFLite has no such integer kernel; refused.
  ModelWriter w;
  int in = w.activation("input", {4}, U8, perTensor(0.05f, 0));
  int r = w.activation("rsqrt", {4}, U8, perTensor(0.02f, 0));
  w.op(BuiltinOperator::RSQRT, {in}, {r});
  return w.finish({in}, {r});
}

/// L2_NORMALIZATION along the last axis: int8 [2, 3, 8] and uint8 [4, 16],
/// outputs at TFLite's fixed 1/128 (zero point 0 / 128); `outScale`
/// other than 1/128 makes the model TFLite (and the importer) refuses.
static Model l2NormModel(float outScale) {
  ModelWriter w;
  int a = w.activation("a", {2, 3, 8}, I8, perTensor(0.05f, -3));
  int na = w.activation("a_normalized", {2, 3, 8}, I8, perTensor(outScale, 0));
  int b = w.activation("b", {4, 16}, U8, perTensor(0.1f, 120));
  int nb = w.activation("b_normalized", {4, 16}, U8, perTensor(outScale, 128));
  for (auto [in, out] : {std::pair{a, na}, std::pair{b, nb}})
    w.op(BuiltinOperator::L2_NORMALIZATION, {in}, {out},
         BuiltinOptions::L2NormOptions,
         tfl::CreateL2NormOptions(w.fbb, ActivationFunctionType::NONE).Union());
  return w.finish({a, b}, {na, nb});
}

Model l2Norm() { return l2NormModel(1.0f / 128.0f); }
Model badL2NormScale() { return l2NormModel(1.0f / 256.0f); }

Model logSoftmaxModel(float outputScale) {
  // LOG_SOFTMAX of int8 [4, 16] (input scale 0.1) and of uint8 [3, 50]
  // (input scale 0.37: low log probabilities saturate at the bottom).
  ModelWriter w;
  int a = w.activation("input_i8", {4, 16}, I8, perTensor(0.1f, -10));
  int b = w.activation("input_u8", {3, 50}, U8, perTensor(0.37f, 128));
  int la = w.activation("log_softmax_i8", {4, 16}, I8,
                        perTensor(outputScale, 127));
  int lb = w.activation("log_softmax_u8", {3, 50}, U8,
                        perTensor(outputScale, 255));
  w.op(BuiltinOperator::LOG_SOFTMAX, {a}, {la});
  w.op(BuiltinOperator::LOG_SOFTMAX, {b}, {lb});
  return w.finish({a, b}, {la, lb});
}

Model logSoftmax() { return logSoftmaxModel(16.0f / 256.0f); }
Model badLogSoftmaxScale() { return logSoftmaxModel(1.0f / 8.0f); }

Model leakyRelu() {
  // Every int8 value through LEAKY_RELU with multipliers whose single and
  // double roundings differ on near-ties (input 1x256: feed 0..255).
  ModelWriter w;
  int in = w.activation("input", {1, 256}, I8, perTensor(0.0625f, -3));
  int l = w.activation("leaky", {1, 256}, I8, perTensor(0.07f, 4));
  w.op(BuiltinOperator::LEAKY_RELU, {in}, {l}, BuiltinOptions::LeakyReluOptions,
       tfl::CreateLeakyReluOptions(w.fbb, 0.3f).Union());
  return w.finish({in}, {l});
}

Model slicing() {
  // SPACE_TO_DEPTH, DEPTH_TO_SPACE, STRIDED_SLICE (a shrunk axis, a negative
  // begin, an end mask, stride 2) and SLICE (-1 sizes) of one input, each an
  // output of its own.
  ModelWriter w;
  Quant q = perTensor(0.1f, 3);
  int in = w.activation("input", {1, 6, 8, 4}, I8, q);
  int s2d = w.activation("space_to_depth", {1, 3, 4, 16}, I8, q);
  w.op(BuiltinOperator::SPACE_TO_DEPTH, {in}, {s2d},
       BuiltinOptions::SpaceToDepthOptions,
       tfl::CreateSpaceToDepthOptions(w.fbb, 2).Union());
  int d2s = w.activation("depth_to_space", {1, 12, 16, 1}, I8, q);
  w.op(BuiltinOperator::DEPTH_TO_SPACE, {in}, {d2s},
       BuiltinOptions::DepthToSpaceOptions,
       tfl::CreateDepthToSpaceOptions(w.fbb, 2).Union());
  int begin = w.constant<int32_t>("ss/begin", {4}, TensorType::INT32,
                                  std::vector<int32_t>{0, 1, -7, 0});
  int end = w.constant<int32_t>("ss/end", {4}, TensorType::INT32,
                                std::vector<int32_t>{1, 6, 8, 0});
  int strides = w.constant<int32_t>("ss/strides", {4}, TensorType::INT32,
                                    std::vector<int32_t>{1, 2, 1, 1});
  int ss = w.activation("strided_slice", {3, 7, 4}, I8, q);
  w.op(BuiltinOperator::STRIDED_SLICE, {in, begin, end, strides}, {ss},
       BuiltinOptions::StridedSliceOptions,
       tfl::CreateStridedSliceOptions(w.fbb, /*begin_mask=*/0,
                                      /*end_mask=*/0b1000, 0, 0,
                                      /*shrink_axis_mask=*/0b0001)
           .Union());
  int sbegin = w.constant<int32_t>("slice/begin", {4}, TensorType::INT32,
                                   std::vector<int32_t>{0, 2, 1, 1});
  int ssize = w.constant<int32_t>("slice/size", {4}, TensorType::INT32,
                                  std::vector<int32_t>{-1, 3, -1, 2});
  int sl = w.activation("slice", {1, 3, 7, 2}, I8, q);
  w.op(BuiltinOperator::SLICE, {in, sbegin, ssize}, {sl},
       BuiltinOptions::SliceOptions, tfl::CreateSliceOptions(w.fbb).Union());
  return w.finish({in}, {s2d, d2s, ss, sl});
}

Model maximumMinimum() {
  // uint8 (the unsigned comparison matters above 127): MAXIMUM with a
  // per-channel constant of rank 4, then MINIMUM with a rank-1 constant.
  ModelWriter w;
  Quant q = perTensor(0.05f, 128);
  int in = w.activation("input", {1, 2, 3, 4}, U8, q);
  int lo = w.constant<uint8_t>("lo", {1, 1, 1, 4}, U8,
                               std::vector<uint8_t>{10, 128, 200, 0}, &q);
  int hi = w.constant<uint8_t>("hi", {4}, U8,
                               std::vector<uint8_t>{250, 130, 255, 100}, &q);
  int mx = w.activation("max", {1, 2, 3, 4}, U8, q);
  int mn = w.activation("min", {1, 2, 3, 4}, U8, q);
  w.op(BuiltinOperator::MAXIMUM, {in, lo}, {mx},
       BuiltinOptions::MaximumMinimumOptions,
       tfl::CreateMaximumMinimumOptions(w.fbb).Union());
  w.op(BuiltinOperator::MINIMUM, {mx, hi}, {mn},
       BuiltinOptions::MaximumMinimumOptions,
       tfl::CreateMaximumMinimumOptions(w.fbb).Union());
  return w.finish({in}, {mn});
}

Model argMaxMin() {
  // ARG_MAX over the channels (INT64, as segmentation models write it) and
  // ARG_MIN over the width (INT32) of a uint8 tensor: values above 127 and
  // ties (first index wins) decide.
  ModelWriter w;
  int in = w.activation("input", {1, 4, 5, 6}, U8, perTensor(0.02f, 128));
  int cAxis = w.constant<int32_t>("channel_axis", {1}, TensorType::INT32,
                                  std::vector<int32_t>{3});
  int wAxis = w.constant<int32_t>("width_axis", {1}, TensorType::INT32,
                                  std::vector<int32_t>{-2});
  int amax = w.tensor("argmax", {1, 4, 5}, TensorType::INT64);
  int amin = w.tensor("argmin", {1, 4, 6}, TensorType::INT32);
  w.op(BuiltinOperator::ARG_MAX, {in, cAxis}, {amax},
       BuiltinOptions::ArgMaxOptions,
       tfl::CreateArgMaxOptions(w.fbb, TensorType::INT64).Union());
  w.op(BuiltinOperator::ARG_MIN, {in, wAxis}, {amin},
       BuiltinOptions::ArgMinOptions,
       tfl::CreateArgMinOptions(w.fbb, TensorType::INT32).Union());
  return w.finish({in}, {amax, amin});
}

Model packUnpack() {
  // UNPACK [2, 3, 4] along axis 1 into three [2, 4], PACK them back along
  // axis 0 ([3, 2, 4]: a transpose), and SPLIT_V along axis 2 with sizes
  // [1, -1, 2].
  ModelWriter w;
  Quant q = perTensor(0.1f, -5);
  int in = w.activation("input", {2, 3, 4}, I8, q);
  std::vector<int32_t> parts;
  for (int i = 0; i < 3; ++i)
    parts.push_back(w.activation("part" + std::to_string(i), {2, 4}, I8, q));
  w.op(BuiltinOperator::UNPACK, {in}, parts, BuiltinOptions::UnpackOptions,
       tfl::CreateUnpackOptions(w.fbb, 3, 1).Union());
  int packed = w.activation("packed", {3, 2, 4}, I8, q);
  w.op(BuiltinOperator::PACK, parts, {packed}, BuiltinOptions::PackOptions,
       tfl::CreatePackOptions(w.fbb, 3, 0).Union());
  int sizes = w.constant<int32_t>("split/sizes", {3}, TensorType::INT32,
                                  std::vector<int32_t>{1, -1, 2});
  int axis = w.constant<int32_t>("split/axis", {1}, TensorType::INT32,
                                 std::vector<int32_t>{2});
  int s0 = w.activation("split0", {2, 3, 1}, I8, q);
  int s1 = w.activation("split1", {2, 3, 1}, I8, q);
  int s2 = w.activation("split2", {2, 3, 2}, I8, q);
  w.op(BuiltinOperator::SPLIT_V, {in, sizes, axis}, {s0, s1, s2},
       BuiltinOptions::SplitVOptions,
       tfl::CreateSplitVOptions(w.fbb, 3).Union());
  return w.finish({in}, {packed, s0, s1, s2});
}

Model cast() {
  // CAST uint8 -> int8 (the bits kept: 200 -> -56), uint8 -> float32 and
  // int8 -> int32.
  ModelWriter w;
  Quant q = perTensor(0.1f, 128);
  int in = w.activation("input", {2, 4}, U8, q);
  int s8 = w.tensor("as_int8", {2, 4}, I8);
  int f = w.tensor("as_float", {2, 4}, F32);
  int s32 = w.tensor("as_int32", {2, 4}, TensorType::INT32);
  w.op(BuiltinOperator::CAST, {in}, {s8});
  w.op(BuiltinOperator::CAST, {in}, {f});
  w.op(BuiltinOperator::CAST, {s8}, {s32});
  return w.finish({in}, {s8, f, s32});
}

Model castFloat() {
  // CAST float32 -> int8, uint8 and int32: TFLite's static_cast truncates
  // toward zero (tosa.cast alone would round to nearest).
  ModelWriter w;
  int in = w.tensor("input", {2, 5}, F32);
  int s8 = w.tensor("as_int8", {2, 5}, I8);
  int u8 = w.tensor("as_uint8", {2, 5}, U8);
  int s32 = w.tensor("as_int32", {2, 5}, TensorType::INT32);
  w.op(BuiltinOperator::CAST, {in}, {s8});
  w.op(BuiltinOperator::CAST, {in}, {u8});
  w.op(BuiltinOperator::CAST, {in}, {s32});
  return w.finish({in}, {s8, u8, s32});
}

Model resizeNearest() {
  // RESIZE_NEAREST_NEIGHBOR of one uint8 input three ways: 2x up, up with
  // align_corners, down with half_pixel_centers.
  ModelWriter w;
  Quant q = perTensor(0.1f, 128);
  int in = w.activation("input", {1, 3, 4, 2}, U8, q);
  struct Case {
    const char *name;
    int32_t h, w;
    bool align, half;
  };
  std::vector<int32_t> outs;
  for (Case c : {Case{"up2", 6, 8, false, false},
                 Case{"align", 5, 7, true, false},
                 Case{"half_pixel", 5, 3, false, true}}) {
    int size = w.constant<int32_t>(std::string(c.name) + "/size", {2},
                                   TensorType::INT32,
                                   std::vector<int32_t>{c.h, c.w});
    int out = w.activation(c.name, {1, c.h, c.w, 2}, U8, q);
    w.op(BuiltinOperator::RESIZE_NEAREST_NEIGHBOR, {in, size}, {out},
         BuiltinOptions::ResizeNearestNeighborOptions,
         tfl::CreateResizeNearestNeighborOptions(w.fbb, c.align, c.half)
             .Union());
    outs.push_back(out);
  }
  return w.finish({in}, outs);
}

Model gather() {
  // GATHER of an int8 [2, 5, 3] tensor along axis 1 with [2, 2] constant
  // indices (a repeat included) -> [2, 2, 2, 3], and along axis -1 -> [2, 5, 2].
  ModelWriter w;
  Quant q = perTensor(0.1f, 0);
  int in = w.activation("input", {2, 5, 3}, I8, q);
  int i1 = w.constant<int32_t>("indices1", {2, 2}, TensorType::INT32,
                               std::vector<int32_t>{4, 0, 2, 4});
  int i2 = w.constant<int32_t>("indices2", {2}, TensorType::INT32,
                               std::vector<int32_t>{2, 1});
  int g1 = w.activation("gather_axis1", {2, 2, 2, 3}, I8, q);
  int g2 = w.activation("gather_last", {2, 5, 2}, I8, q);
  w.op(BuiltinOperator::GATHER, {in, i1}, {g1}, BuiltinOptions::GatherOptions,
       tfl::CreateGatherOptions(w.fbb, 1, 0).Union());
  w.op(BuiltinOperator::GATHER, {in, i2}, {g2}, BuiltinOptions::GatherOptions,
       tfl::CreateGatherOptions(w.fbb, -1, 0).Union());
  return w.finish({in}, {g1, g2});
}

Model gatherRuntime() {
  // GATHER with indices that are model inputs: int32 [3] indices along axis
  // 1 of a uint8 [2, 5, 3] tensor, int64 [2, 2] indices along axis 0.
  ModelWriter w;
  Quant q = perTensor(0.1f, 128);
  int in = w.activation("input", {2, 5, 3}, U8, q);
  int i1 = w.tensor("indices_i32", {3}, TensorType::INT32);
  int i2 = w.tensor("indices_i64", {2, 2}, TensorType::INT64);
  int g1 = w.activation("gather_axis1", {2, 3, 3}, U8, q);
  int g2 = w.activation("gather_axis0", {2, 2, 5, 3}, U8, q);
  w.op(BuiltinOperator::GATHER, {in, i1}, {g1}, BuiltinOptions::GatherOptions,
       tfl::CreateGatherOptions(w.fbb, 1, 0).Union());
  w.op(BuiltinOperator::GATHER, {in, i2}, {g2}, BuiltinOptions::GatherOptions,
       tfl::CreateGatherOptions(w.fbb, 0, 0).Union());
  return w.finish({in, i1, i2}, {g1, g2});
}

Model mirrorPad() {
  // MIRROR_PAD of a uint8 [1, 3, 4, 2] tensor, REFLECT (H by [2, 1], W by
  // [1, 3]) and SYMMETRIC (H by [3, 0], W by [0, 4]).
  ModelWriter w;
  Quant q = perTensor(0.1f, 128);
  int in = w.activation("input", {1, 3, 4, 2}, U8, q);
  int p1 = w.constant<int32_t>("reflect/paddings", {4, 2}, TensorType::INT32,
                               std::vector<int32_t>{0, 0, 2, 1, 1, 3, 0, 0});
  int p2 = w.constant<int32_t>("symmetric/paddings", {4, 2},
                               TensorType::INT32,
                               std::vector<int32_t>{0, 0, 3, 0, 0, 4, 0, 0});
  int r = w.activation("reflect", {1, 6, 8, 2}, U8, q);
  int s = w.activation("symmetric", {1, 6, 8, 2}, U8, q);
  w.op(BuiltinOperator::MIRROR_PAD, {in, p1}, {r},
       BuiltinOptions::MirrorPadOptions,
       tfl::CreateMirrorPadOptions(w.fbb, tfl::MirrorPadMode::REFLECT).Union());
  w.op(BuiltinOperator::MIRROR_PAD, {in, p2}, {s},
       BuiltinOptions::MirrorPadOptions,
       tfl::CreateMirrorPadOptions(w.fbb, tfl::MirrorPadMode::SYMMETRIC)
           .Union());
  return w.finish({in}, {r, s});
}

struct ResizeCase {
  const char *name;
  int32_t h, w;
  bool align, half;
};

/// RESIZE_BILINEAR of one [1, 3, 4, 2] input of type `type` to each case.
Model resizeBilinearModel(TensorType type, Quant q,
                          std::initializer_list<ResizeCase> cases) {
  ModelWriter w;
  int in = w.activation("input", {1, 3, 4, 2}, type, q);
  std::vector<int32_t> outs;
  for (ResizeCase c : cases) {
    int size = w.constant<int32_t>(std::string(c.name) + "/size", {2},
                                   TensorType::INT32,
                                   std::vector<int32_t>{c.h, c.w});
    int out = w.activation(c.name, {1, c.h, c.w, 2}, type, q);
    w.op(BuiltinOperator::RESIZE_BILINEAR, {in, size}, {out},
         BuiltinOptions::ResizeBilinearOptions,
         tfl::CreateResizeBilinearOptions(w.fbb, c.align, c.half).Union());
    outs.push_back(out);
  }
  return w.finish({in}, outs);
}

Model resizeBilinear() {
  // int8 (TFLite's fixed-point rule): up to 7x9, up with align_corners,
  // down to 2x3 with half_pixel_centers.
  return resizeBilinearModel(I8, perTensor(0.1f, 3),
                             {{"up", 7, 9, false, false},
                              {"align", 5, 7, true, false},
                              {"half_pixel", 2, 3, false, true}});
}

Model resizeBilinearU8() {
  // uint8 (TFLite's float32 rule): the same three, and up to 6x7 with
  // half_pixel_centers (negative fractions at the borders).
  return resizeBilinearModel(U8, perTensor(0.1f, 128),
                             {{"up", 7, 9, false, false},
                              {"align", 5, 7, true, false},
                              {"half_pixel", 2, 3, false, true},
                              {"half_pixel_up", 6, 7, false, true}});
}

Model transpose() {
  ModelWriter w;
  Quant q = perTensor(0.1f, -14);
  int in = w.activation("nchw", {1, 3, 4, 5}, I8, q);
  int perm = w.constant<int32_t>("perm", {4}, TensorType::INT32, {0, 2, 3, 1});
  int out = w.activation("nhwc", {1, 4, 5, 3}, I8, q);
  w.op(BuiltinOperator::TRANSPOSE, {in, perm}, {out});
  return w.finish({in}, {out});
}

Model mean() {
  // MEAN over H, W with different output parameters, keep_dims = false.
  ModelWriter w;
  int in = w.activation("input", {1, 3, 3, 4}, I8, perTensor(0.1f, -9));
  int axes = w.constant<int32_t>("axes", {2}, TensorType::INT32, {1, 2});
  int out = w.activation("mean", {1, 4}, I8, perTensor(0.05f, -20));
  w.op(BuiltinOperator::MEAN, {in, axes}, {out}, BuiltinOptions::ReducerOptions,
       tfl::CreateReducerOptions(w.fbb, false).Union());
  return w.finish({in}, {out});
}

Model sumMean() {
  // SUM (int8, axes [1, -1], keep_dims false) and MEAN over an axis other
  // than H, W (uint8, axis 1, keep_dims true): qnn.reduce_sum.
  ModelWriter w;
  int axesSum = w.constant<int32_t>("axes_sum", {2}, TensorType::INT32, {1, -1});
  int axisMean = w.constant<int32_t>("axis_mean", {1}, TensorType::INT32, {1});
  int a = w.activation("a", {2, 5, 3, 4}, I8, perTensor(0.02f, -7));
  int sum = w.activation("sum", {2, 3}, I8, perTensor(0.3f, 4));
  int b = w.activation("b", {2, 6, 5}, U8, perTensor(0.05f, 120));
  int mean = w.activation("mean", {2, 1, 5}, U8, perTensor(0.04f, 100));
  w.op(BuiltinOperator::SUM, {a, axesSum}, {sum},
       BuiltinOptions::ReducerOptions,
       tfl::CreateReducerOptions(w.fbb, false).Union());
  w.op(BuiltinOperator::MEAN, {b, axisMean}, {mean},
       BuiltinOptions::ReducerOptions,
       tfl::CreateReducerOptions(w.fbb, true).Union());
  return w.finish({a, b}, {sum, mean});
}

Model sumSameParams() {
  // SUM with equal input and output parameters (int8 [2, 6, 5] over axes
  // [1, 2]; uint8 [3, 40] over axis 1, keep_dims): TFLite 2.x rescales the
  // centred sum like any other SUM (by exactly 1).
  ModelWriter w;
  Quant qa = perTensor(0.1f, 3), qb = perTensor(0.2f, 128);
  int axesA = w.constant<int32_t>("axes_a", {2}, TensorType::INT32, {1, 2});
  int axisB = w.constant<int32_t>("axis_b", {1}, TensorType::INT32, {-1});
  int a = w.activation("a", {2, 6, 5}, I8, qa);
  int sa = w.activation("sum_a", {2}, I8, qa);
  int b = w.activation("b", {3, 40}, U8, qb);
  int sb = w.activation("sum_b", {3, 1}, U8, qb);
  w.op(BuiltinOperator::SUM, {a, axesA}, {sa}, BuiltinOptions::ReducerOptions,
       tfl::CreateReducerOptions(w.fbb, false).Union());
  w.op(BuiltinOperator::SUM, {b, axisB}, {sb}, BuiltinOptions::ReducerOptions,
       tfl::CreateReducerOptions(w.fbb, true).Union());
  return w.finish({a, b}, {sa, sb});
}

Model split() {
  ModelWriter w;
  Quant q = perTensor(0.1f, 128);
  int axis = w.constant<int32_t>("axis", {}, TensorType::INT32, {3});
  int in = w.activation("input", {1, 2, 2, 6}, U8, q);
  int a = w.activation("part0", {1, 2, 2, 3}, U8, q);
  int b = w.activation("part1", {1, 2, 2, 3}, U8, q);
  w.op(BuiltinOperator::SPLIT, {axis, in}, {a, b}, BuiltinOptions::SplitOptions,
       tfl::CreateSplitOptions(w.fbb, 2).Union());
  return w.finish({in}, {a, b});
}

/// The bundled example: conv 3x3/2 + depthwise 3x3 + pointwise 1x1 (all
/// RELU6) + average pool + fully connected + softmax, int8 per-channel.
/// conv 3x3/2 + RELU6, depthwise 3x3 + RELU6, pointwise + RELU6 on a
/// 1x32x32x3 int8 input: the layers that mobilenet_block and
/// mobilenet_convs share (the same weights, drawn first from the stream).
/// Returns the input and the pointwise output tensors.
std::pair<int, int> addMobilenetConvs(ModelWriter &w) {
  int in = w.activation("input", {1, 32, 32, 3}, I8, perTensor(1.0f / 128, 0));
  int f0 = w.weights("conv0/filter", {8, 3, 3, 3}, I8, perChannel(8, 0.004f, 0),
                     -127, 127);
  int b0 = w.bias("conv0/bias", 8, -500, 500, perChannel(8, 0.00003f, 0));
  int a0 =
      w.activation("conv0", {1, 16, 16, 8}, I8, perTensor(6.0f / 255, -128));
  w.op(BuiltinOperator::CONV_2D, {in, f0, b0}, {a0},
       BuiltinOptions::Conv2DOptions,
       tfl::CreateConv2DOptions(w.fbb, Padding::SAME, 2, 2,
                                ActivationFunctionType::RELU6)
           .Union());
  int f1 = w.weights("dw1/filter", {1, 3, 3, 8}, I8, perChannel(8, 0.01f, 3),
                     -127, 127);
  int b1 = w.bias("dw1/bias", 8, -500, 500, perChannel(8, 0.0002f, 3));
  int a1 = w.activation("dw1", {1, 16, 16, 8}, I8, perTensor(6.0f / 255, -128));
  w.op(BuiltinOperator::DEPTHWISE_CONV_2D, {a0, f1, b1}, {a1},
       BuiltinOptions::DepthwiseConv2DOptions,
       tfl::CreateDepthwiseConv2DOptions(w.fbb, Padding::SAME, 1, 1, 1,
                                         ActivationFunctionType::RELU6)
           .Union());
  int f2 = w.weights("pw2/filter", {16, 1, 1, 8}, I8, perChannel(16, 0.005f, 0),
                     -127, 127);
  int b2 = w.bias("pw2/bias", 16, -500, 500, perChannel(16, 0.0001f, 0));
  int a2 =
      w.activation("pw2", {1, 16, 16, 16}, I8, perTensor(6.0f / 255, -128));
  w.op(BuiltinOperator::CONV_2D, {a1, f2, b2}, {a2},
       BuiltinOptions::Conv2DOptions,
       tfl::CreateConv2DOptions(w.fbb, Padding::SAME, 1, 1,
                                ActivationFunctionType::RELU6)
           .Union());
  return {in, a2};
}

Model mobilenetBlock() {
  ModelWriter w;
  auto [in, a2] = addMobilenetConvs(w);
  int a3 = w.activation("pool", {1, 1, 1, 16}, I8, perTensor(6.0f / 255, -128));
  w.op(BuiltinOperator::AVERAGE_POOL_2D, {a2}, {a3},
       BuiltinOptions::Pool2DOptions,
       tfl::CreatePool2DOptions(w.fbb, Padding::VALID, 16, 16, 16, 16).Union());
  int f4 = w.weights("fc/weights", {10, 16}, I8, perChannel(10, 0.003f, 0),
                     -127, 127);
  int b4 = w.bias("fc/bias", 10, -200, 200, perChannel(10, 0.0001f, 0));
  int a4 = w.activation("logits", {1, 10}, I8, perTensor(0.1f, 10));
  w.op(BuiltinOperator::FULLY_CONNECTED, {a3, f4, b4}, {a4},
       BuiltinOptions::FullyConnectedOptions,
       tfl::CreateFullyConnectedOptions(w.fbb).Union());
  int out = w.activation("probs", {1, 10}, I8, perTensor(1.0f / 256, -128));
  w.op(BuiltinOperator::SOFTMAX, {a4}, {out}, BuiltinOptions::SoftmaxOptions,
       tfl::CreateSoftmaxOptions(w.fbb, 1.0f).Union());
  return w.finish({in}, {out});
}

/// The first three layers of mobilenet_block (the same weights: they are
/// drawn first from the same stream), ending at the pointwise convolution:
/// the twin of test/Target/ONNX/Inputs/onnx_models.py's
/// mobilenet_convs_twin, which writes the same layers as a PyTorch-style
/// QDQ ONNX model.
Model mobilenetConvs() {
  ModelWriter w;
  auto [in, a2] = addMobilenetConvs(w);
  return w.finish({in}, {a2});
}

/// Per-channel int8 weight scales that vary around `base` (0.75x to 1.25x)
/// without growing with the channel count.
Quant perChannelAround(int channels, float base, int32_t dimension) {
  Quant q;
  for (int c = 0; c < channels; ++c) {
    q.scales.push_back(base *
                       (0.75f + 0.5f * static_cast<float>((c * 5) % 8) / 7));
    q.zeroPoints.push_back(0);
  }
  q.dimension = dimension;
  return q;
}

/// Bias quantization as TFLite requires it: scale = input * weight scale.
Quant biasQuant(float inputScale, const Quant &weights) {
  Quant q;
  for (float s : weights.scales) {
    q.scales.push_back(inputScale * s);
    q.zeroPoints.push_back(0);
  }
  return q;
}

/// The classifier head of the whole-network models: FULLY_CONNECTED to
/// `logits` (per-channel weights `fq`, bias scale input * weight scale),
/// then SOFTMAX to int8 probabilities (scale 1/256, zero point -128).
/// Returns {logits, probs}.
std::pair<int, int> classifierHead(ModelWriter &w, int flat, float flatScale,
                                   int channels, int classes, const Quant &fq,
                                   Quant logitsQuant) {
  int f = w.weights("fc/weights", {classes, channels}, I8, fq, -127, 127);
  int b = w.bias("fc/bias", classes, -2000, 2000, biasQuant(flatScale, fq));
  int logits = w.activation("logits", {1, classes}, I8, logitsQuant);
  w.op(BuiltinOperator::FULLY_CONNECTED, {flat, f, b}, {logits},
       BuiltinOptions::FullyConnectedOptions,
       tfl::CreateFullyConnectedOptions(w.fbb).Union());
  int out =
      w.activation("probs", {1, classes}, I8, perTensor(1.0f / 256, -128));
  w.op(BuiltinOperator::SOFTMAX, {logits}, {out},
       BuiltinOptions::SoftmaxOptions,
       tfl::CreateSoftmaxOptions(w.fbb, 1.0f).Union());
  return {logits, out};
}

/// MobileNet v1 (width multiplier `alpha`, `resolution`^2 input, 1000
/// classes), int8 per-channel, with deterministic pseudo-random weights: the
/// bundled end-to-end example (0.25/128) and a whole-network benchmark the
/// project owns (1.0/224). Weight scales are chosen so that every layer's
/// activations spread over the RELU6 range instead of collapsing to a
/// constant.
Model mobilenetV1(int alphaPercent, int resolution) {
  ModelWriter w;
  const float actScale = 6.0f / 255;
  const int actZp = -128;
  const int input = w.activation("input", {1, resolution, resolution, 3}, I8,
                                 perTensor(1.0f / 128, 0));
  int x = input;
  float xScale = 1.0f / 128;
  int size = resolution;
  auto scaled = [&](int c) { return c * alphaPercent / 100; };
  int channels = 3;
  auto conv = [&](const std::string &name, int outChannels, int stride,
                  bool depthwise) {
    int k = depthwise ? 9 : (channels * (name == "conv0" ? 9 : 1));
    int kernel = (depthwise || name == "conv0") ? 3 : 1;
    Quant wq =
        perChannelAround(outChannels, 0.026f / std::sqrt(static_cast<float>(k)),
                         depthwise ? 3 : 0);
    std::vector<int32_t> shape =
        depthwise ? std::vector<int32_t>{1, kernel, kernel, outChannels}
                  : std::vector<int32_t>{outChannels, kernel, kernel, channels};
    int f = w.weights(name + "/filter", shape, I8, wq, -127, 127);
    Quant bq = biasQuant(xScale, wq);
    int b = w.bias(name + "/bias", outChannels, -2000, 4000, bq);
    size = (size + stride - 1) / stride;
    int y = w.activation(name, {1, size, size, outChannels}, I8,
                         perTensor(actScale, actZp));
    if (depthwise)
      w.op(BuiltinOperator::DEPTHWISE_CONV_2D, {x, f, b}, {y},
           BuiltinOptions::DepthwiseConv2DOptions,
           tfl::CreateDepthwiseConv2DOptions(w.fbb, Padding::SAME, stride,
                                             stride, 1,
                                             ActivationFunctionType::RELU6)
               .Union());
    else
      w.op(BuiltinOperator::CONV_2D, {x, f, b}, {y},
           BuiltinOptions::Conv2DOptions,
           tfl::CreateConv2DOptions(w.fbb, Padding::SAME, stride, stride,
                                    ActivationFunctionType::RELU6)
               .Union());
    x = y;
    xScale = actScale;
    channels = outChannels;
  };
  conv("conv0", scaled(32), 2, false);
  const std::pair<int, int> blocks[] = {
      {1, 64},  {2, 128}, {1, 128}, {2, 256}, {1, 256},  {2, 512}, {1, 512},
      {1, 512}, {1, 512}, {1, 512}, {1, 512}, {2, 1024}, {1, 1024}};
  int index = 1;
  for (auto [stride, outChannels] : blocks) {
    std::string id = std::to_string(index++);
    conv("dw" + id, channels, stride, true);
    conv("pw" + id, scaled(outChannels), 1, false);
  }
  int pooled =
      w.activation("pool", {1, 1, 1, channels}, I8, perTensor(actScale, actZp));
  w.op(BuiltinOperator::AVERAGE_POOL_2D, {x}, {pooled},
       BuiltinOptions::Pool2DOptions,
       tfl::CreatePool2DOptions(w.fbb, Padding::VALID, size, size, size, size)
           .Union());
  const int classes = 1000;
  int shape = w.constant<int32_t>("flatten/shape", {2}, TensorType::INT32,
                                  {1, channels});
  int flat =
      w.activation("flatten", {1, channels}, I8, perTensor(actScale, actZp));
  w.op(BuiltinOperator::RESHAPE, {pooled, shape}, {flat});
  Quant fq = perChannelAround(
      classes, 0.01f / std::sqrt(static_cast<float>(channels)), 0);
  int out = classifierHead(w, flat, actScale, channels, classes, fq,
                           perTensor(0.08f, 0))
                .second;
  return w.finish({input}, {out});
}

/// A ResNet-8 for 32x32x3 images shaped like MLPerf Tiny's image
/// classification model: raw pixels as int8 with scale 1.0 and zero point
/// -128 (so the first convolution's requantize multipliers exceed 1), three
/// residual stages whose ADDs carry a fused RELU, 1x1 stride-2 shortcut
/// convolutions, an 8x8 average pool, a fully connected layer and softmax.
/// All weights int8 per-channel with deterministic pseudo-random values;
/// output scales are derived from the estimated spread of each layer.
Model resnet8() {
  ModelWriter w;
  const int input =
      w.activation("input", {1, 32, 32, 3}, I8, perTensor(1.0f, -128));
  // A tensor with the root mean square of its real values, from which each
  // output scale is derived so that activations spread over the int8 range.
  struct Value {
    int tensor;
    float scale;
    int zp;
    int size, channels;
    float rms;
  };
  const auto RELU = ActivationFunctionType::RELU;
  const auto NONE = ActivationFunctionType::NONE;
  // RELU outputs cover [0, 3 sigma] with zero point -128; others +-3 sigma.
  auto outputQuant = [](float sigma, bool relu, int zp) {
    return relu ? std::make_pair(3 * sigma / 255, -128)
                : std::make_pair(6 * sigma / 255, zp);
  };
  auto conv = [&](const std::string &name, Value x, int outChannels,
                  int kernel, int stride, ActivationFunctionType act,
                  int outZp) {
    int k = kernel * kernel * x.channels;
    // A gain of about one per layer keeps the scales in a realistic range.
    float base = 0.015f / std::sqrt(static_cast<float>(k));
    Quant wq = perChannelAround(outChannels, base, 0);
    int f = w.weights(name + "/filter",
                      {outChannels, kernel, kernel, x.channels}, I8, wq, -127,
                      127);
    // Uniform weights in [-127, 127] have a standard deviation of 127/sqrt(3).
    float sigma = std::sqrt(static_cast<float>(k)) * base * 73.3f * x.rms;
    auto [outScale, zp] = outputQuant(sigma, act == RELU, outZp);
    int b = w.bias(name + "/bias", outChannels,
                   -static_cast<int64_t>(sigma / (x.scale * base)),
                   static_cast<int64_t>(sigma / (x.scale * base)),
                   biasQuant(x.scale, wq));
    int size = (x.size + stride - 1) / stride;
    int y = w.activation(name, {1, size, size, outChannels}, I8,
                         perTensor(outScale, zp));
    w.op(BuiltinOperator::CONV_2D, {x.tensor, f, b}, {y},
         BuiltinOptions::Conv2DOptions,
         tfl::CreateConv2DOptions(w.fbb, Padding::SAME, stride, stride, act)
             .Union());
    return Value{y, outScale, zp, size, outChannels,
                 act == RELU ? sigma / std::sqrt(2.0f) : sigma};
  };
  auto add = [&](const std::string &name, Value a, Value b) {
    float sigma = std::sqrt(a.rms * a.rms + b.rms * b.rms);
    auto [outScale, zp] = outputQuant(sigma, true, 0);
    int y = w.activation(name, {1, a.size, a.size, a.channels}, I8,
                         perTensor(outScale, zp));
    w.op(BuiltinOperator::ADD, {a.tensor, b.tensor}, {y},
         BuiltinOptions::AddOptions,
         tfl::CreateAddOptions(w.fbb, RELU).Union());
    return Value{y, outScale, zp, a.size, a.channels, sigma / std::sqrt(2.0f)};
  };
  // Raw pixels 0..255: root mean square about 147.
  Value x{input, 1.0f, -128, 32, 3, 147.0f};
  x = conv("stem", x, 16, 3, 1, RELU, 0);
  Value y = conv("s1/conv1", x, 16, 3, 1, RELU, 0);
  y = conv("s1/conv2", y, 16, 3, 1, NONE, 3);
  x = add("s1/add", x, y);
  int channels = 16;
  for (int stage = 2; stage <= 3; ++stage) {
    channels *= 2;
    std::string id = "s" + std::to_string(stage);
    Value r = conv(id + "/conv1", x, channels, 3, 2, RELU, 0);
    r = conv(id + "/conv2", r, channels, 3, 1, NONE, -7);
    Value s = conv(id + "/shortcut", x, channels, 1, 2, NONE, 11);
    x = add(id + "/add", s, r);
  }
  int pooled = w.activation("pool", {1, 1, 1, channels}, I8,
                            perTensor(x.scale, x.zp));
  w.op(BuiltinOperator::AVERAGE_POOL_2D, {x.tensor}, {pooled},
       BuiltinOptions::Pool2DOptions,
       tfl::CreatePool2DOptions(w.fbb, Padding::VALID, x.size, x.size, x.size,
                                x.size)
           .Union());
  int shape = w.constant<int32_t>("flatten/shape", {2}, TensorType::INT32,
                                  {1, channels});
  int flat =
      w.activation("flatten", {1, channels}, I8, perTensor(x.scale, x.zp));
  w.op(BuiltinOperator::RESHAPE, {pooled, shape}, {flat});
  const int classes = 10;
  // Logits with a standard deviation of about 3 so that softmax separates
  // the classes.
  Quant fq = perChannelAround(
      classes,
      3.0f / (std::sqrt(static_cast<float>(channels)) * 73.3f * x.rms), 0);
  auto [logits, out] = classifierHead(w, flat, x.scale, channels, classes,
                                      fq, perTensor(0.07f, 5));
  // The logits are a second output: they show every rounding difference
  // that the saturating softmax would hide.
  return w.finish({input}, {out, logits});
}

//===----------------------------------------------------------------------===//
// Malformed models: each must be rejected with a clear error
//===----------------------------------------------------------------------===//

Model badVersion() {
  ModelWriter w;
  int in = w.activation("input", {1, 4}, I8, perTensor(0.1f, 0));
  int out = w.activation("output", {1, 4}, I8, perTensor(0.1f, 0));
  w.op(BuiltinOperator::RELU, {in}, {out});
  return w.finish({in}, {out}, /*version=*/2);
}

Model unsupportedOp() {
  // Two unsupported kinds, one used twice: the importer lists them all.
  ModelWriter w;
  int a = w.activation("a", {1, 4}, I8, perTensor(0.1f, 0));
  int r = w.activation("r", {1, 4}, I8, perTensor(0.1f, 0));
  int s1 = w.activation("s1", {1, 4}, I8, perTensor(0.1f, 0));
  int l = w.activation("l", {1, 4}, I8, perTensor(0.1f, 0));
  int out = w.activation("output", {1, 4}, I8, perTensor(0.1f, 0));
  w.op(BuiltinOperator::RELU, {a}, {r});
  w.op(BuiltinOperator::SVDF, {r}, {s1});
  w.op(BuiltinOperator::LSH_PROJECTION, {s1}, {l});
  w.op(BuiltinOperator::SVDF, {l}, {out});
  return w.finish({a}, {out});
}

Model badCastShape() {
  // CAST whose output shape is not its input's.
  ModelWriter w;
  int in = w.tensor("input", {4}, F32);
  int out = w.tensor("output", {2, 2}, I8);
  w.op(BuiltinOperator::CAST, {in}, {out});
  return w.finish({in}, {out});
}

Model extendedOpCode() {
  // A code above 127, stored only in the int field (GELU = 150).
  ModelWriter w;
  int in = w.activation("input", {1, 4}, I8, perTensor(0.1f, 0));
  int out = w.activation("output", {1, 4}, I8, perTensor(0.1f, 0));
  w.op(BuiltinOperator::GELU, {in}, {out});
  return w.finish({in}, {out});
}

Model missingBuffer() {
  ModelWriter w;
  int in = w.activation("input", {1, 4}, I8, perTensor(0.1f, 0));
  Quant q = perTensor(0.01f, 0);
  int f = w.tensor("weights", {2, 4}, I8, &q, /*buffer=*/77);
  int out = w.activation("output", {1, 2}, I8, perTensor(0.1f, 0));
  w.op(BuiltinOperator::FULLY_CONNECTED, {in, f, -1}, {out});
  return w.finish({in}, {out});
}

Model shortBuffer() {
  ModelWriter w;
  int in = w.activation("input", {1, 4}, I8, perTensor(0.1f, 0));
  Quant q = perTensor(0.01f, 0);
  int f = w.constant<int8_t>("weights", {2, 4}, I8, {1, 2, 3, 4, 5}, &q);
  int out = w.activation("output", {1, 2}, I8, perTensor(0.1f, 0));
  w.op(BuiltinOperator::FULLY_CONNECTED, {in, f, -1}, {out});
  return w.finish({in}, {out});
}

Model noDataWeights() {
  ModelWriter w;
  int in = w.activation("input", {1, 4}, I8, perTensor(0.1f, 0));
  int f = w.activation("weights", {2, 4}, I8, perTensor(0.01f, 0));
  int out = w.activation("output", {1, 2}, I8, perTensor(0.1f, 0));
  w.op(BuiltinOperator::FULLY_CONNECTED, {in, f, -1}, {out});
  return w.finish({in}, {out});
}

Model tensorIndexOutOfRange() {
  ModelWriter w;
  int in = w.activation("input", {1, 4}, I8, perTensor(0.1f, 0));
  int out = w.activation("output", {1, 4}, I8, perTensor(0.1f, 0));
  w.op(BuiltinOperator::RELU, {in}, {out});
  w.op(BuiltinOperator::RELU, {in + 42}, {out});
  return w.finish({in}, {out});
}

Model badPerChannel() {
  // 3 scales for a filter with 4 output channels.
  ModelWriter w;
  int in = w.activation("input", {1, 3, 3, 2}, I8, perTensor(0.5f, 0));
  Quant wq = perChannel(3, 0.01f, 0);
  int f = w.weights("filter", {4, 1, 1, 2}, I8, wq, -127, 127);
  int out = w.activation("output", {1, 3, 3, 4}, I8, perTensor(0.05f, 0));
  w.op(BuiltinOperator::CONV_2D, {in, f, -1}, {out},
       BuiltinOptions::Conv2DOptions,
       tfl::CreateConv2DOptions(w.fbb, Padding::VALID, 1, 1).Union());
  return w.finish({in}, {out});
}

Model badConvShape() {
  ModelWriter w;
  int in = w.activation("input", {1, 5, 5, 2}, I8, perTensor(0.5f, 0));
  int f = w.weights("filter", {4, 3, 3, 2}, I8, perTensor(0.01f, 0), -127, 127);
  int out = w.activation("output", {1, 5, 5, 4}, I8, perTensor(0.05f, 0));
  w.op(BuiltinOperator::CONV_2D, {in, f, -1}, {out},
       BuiltinOptions::Conv2DOptions,
       tfl::CreateConv2DOptions(w.fbb, Padding::VALID, 1, 1).Union());
  return w.finish({in}, {out});
}

Model badZeroPoint() {
  ModelWriter w;
  int in = w.activation("input", {1, 4}, I8, perTensor(0.1f, 300));
  int out = w.activation("output", {1, 4}, I8, perTensor(0.1f, 0));
  w.op(BuiltinOperator::RELU, {in}, {out});
  return w.finish({in}, {out});
}

Model badScale() {
  ModelWriter w;
  int in = w.activation("input", {1, 4}, I8, perTensor(0.1f, 0));
  int out = w.activation("output", {1, 4}, I8, perTensor(-1.0f, 0));
  w.op(BuiltinOperator::RELU, {in}, {out});
  return w.finish({in}, {out});
}

Model missingOptions() {
  ModelWriter w;
  int in = w.activation("input", {1, 3, 3, 2}, I8, perTensor(0.5f, 0));
  int f = w.weights("filter", {4, 1, 1, 2}, I8, perTensor(0.01f, 0), -127, 127);
  int out = w.activation("output", {1, 3, 3, 4}, I8, perTensor(0.05f, 0));
  w.op(BuiltinOperator::CONV_2D, {in, f, -1}, {out});
  return w.finish({in}, {out});
}

/// An AVERAGE_POOL_2D whose options union names Pool2DOptions but has no
/// table: valid for the flatbuffers verifier, refused by the importer (and
/// it once crashed the fuzz mutator's repacking).
Model optionsWithoutTable() {
  ModelWriter w;
  int in = w.activation("input", {1, 4, 4, 2}, I8, perTensor(0.5f, 0));
  int out = w.activation("output", {1, 2, 2, 2}, I8, perTensor(0.5f, 0));
  w.op(BuiltinOperator::AVERAGE_POOL_2D, {in}, {out},
       BuiltinOptions::Pool2DOptions, 0);
  return w.finish({in}, {out});
}

const std::map<std::string, std::function<Model()>> &models() {
  static const std::map<std::string, std::function<Model()>> table = {
      {"conv2d", conv2d},
      {"conv2d_valid_u8", conv2dValidU8},
      {"depthwise", depthwise},
      {"fully_connected", fullyConnected},
      {"fully_connected_uniform", fullyConnectedUniform},
      {"fully_connected_u8_nobias", fullyConnectedNoBias},
      {"add", add},
      {"mul", mul},
      {"sub", sub},
      {"average_pool", averagePool},
      {"max_pool", maxPool},
      {"concatenation", concatenation},
      {"reshape", reshapeSqueeze},
      {"softmax", softmax},
      {"pad", pad},
      {"quantize", quantizeDequantize},
      {"requantize_ties", requantizeTies},
      {"relu", relus},
      {"activations", tableActivations},
      {"leaky_relu", leakyRelu},
      {"elu", elu},
      {"prelu", prelu},
      {"squared_difference", squaredDifference},
      {"batch_matmul", batchMatMul},
      {"reduce_max_min", reduceMaxMin},
      {"transpose_conv_same", transposeConvSame},
      {"transpose_conv_valid", transposeConvValid},
      {"bad_transpose_conv", badTransposeConv},
      {"bad_rsqrt_uint8", badRsqrtUint8},
      {"bad_l2_norm_scale", badL2NormScale},
      {"transpose", transpose},
      {"slicing", slicing},
      {"maximum_minimum", maximumMinimum},
      {"arg_max_min", argMaxMin},
      {"pack_unpack", packUnpack},
      {"cast", cast},
      {"resize_nearest", resizeNearest},
      {"gather", gather},
      {"mirror_pad", mirrorPad},
      {"resize_bilinear", resizeBilinear},
      {"resize_bilinear_u8", resizeBilinearU8},
      {"cast_float", castFloat},
      {"sum_same_params", sumSameParams},
      {"log_softmax", logSoftmax},
      {"gather_runtime", gatherRuntime},
      {"mean", mean},
      {"sum_mean", sumMean},
      {"rsqrt", rsqrt},
      {"l2_norm", l2Norm},
      {"batch_matmul_broadcast", batchMatMulBroadcast},
      {"div", div},
      {"split", split},
      {"mobilenet_block", mobilenetBlock},
      {"mobilenet_convs", mobilenetConvs},
      {"mobilenet_v1", [] { return mobilenetV1(25, 128); }},
      {"mobilenet_v1_1.0_224", [] { return mobilenetV1(100, 224); }},
      {"resnet8", resnet8},
      {"bad_version", badVersion},
      {"bad_unsupported_op", unsupportedOp},
      {"bad_cast_shape", badCastShape},
      {"bad_log_softmax_scale", badLogSoftmaxScale},
      {"bad_extended_opcode", extendedOpCode},
      {"bad_missing_buffer", missingBuffer},
      {"bad_short_buffer", shortBuffer},
      {"bad_no_data_weights", noDataWeights},
      {"bad_tensor_index", tensorIndexOutOfRange},
      {"bad_per_channel", badPerChannel},
      {"bad_conv_shape", badConvShape},
      {"bad_zero_point", badZeroPoint},
      {"bad_scale", badScale},
      {"bad_missing_options", missingOptions},
      {"bad_options_without_table", optionsWithoutTable},
  };
  return table;
}

//===----------------------------------------------------------------------===//
// Corruption and fuzzing
//===----------------------------------------------------------------------===//

/// Imports `bytes` with diagnostics swallowed; returns whether it imported.
bool tryImport(const std::vector<uint8_t> &bytes) {
  mlir::MLIRContext context;
  mlir::ScopedDiagnosticHandler handler(
      &context, [](mlir::Diagnostic &) { return mlir::success(); });
  llvm::StringRef buffer(reinterpret_cast<const char *>(bytes.data()),
                         bytes.size());
  return static_cast<bool>(mlir::qnn::importTFLite(buffer, &context, "fuzz"));
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::cl::OptionCategory category("qnn-tflite-gen options");
  llvm::cl::opt<std::string> modelName(
      "model", llvm::cl::desc("model to write (see --list)"),
      llvm::cl::cat(category));
  llvm::cl::opt<bool> list("list", llvm::cl::desc("list the models"),
                           llvm::cl::cat(category));
  llvm::cl::opt<std::string> inputFile(llvm::cl::Positional,
                                       llvm::cl::desc("<input .tflite>"),
                                       llvm::cl::cat(category));
  llvm::cl::opt<std::string> outputFile("o", llvm::cl::desc("output file"),
                                        llvm::cl::init("-"),
                                        llvm::cl::cat(category));
  llvm::cl::opt<int64_t> truncate(
      "truncate", llvm::cl::desc("keep only the first N bytes of the input"),
      llvm::cl::init(-1), llvm::cl::cat(category));
  llvm::cl::list<int64_t> flip(
      "flip", llvm::cl::desc("invert all bits of the byte at this offset"),
      llvm::cl::cat(category));
  llvm::cl::opt<int64_t> fuzz(
      "fuzz",
      llvm::cl::desc("import N corrupted variants of the input "
                     "in-process and report how many were rejected"),
      llvm::cl::init(0), llvm::cl::cat(category));
  llvm::cl::HideUnrelatedOptions(category);
  llvm::cl::ParseCommandLineOptions(argc, argv,
                                    "qnn-mlir TFLite test models\n");

  if (list) {
    for (const auto &entry : models())
      llvm::outs() << entry.first << "\n";
    return 0;
  }

  std::vector<uint8_t> bytes;
  if (!modelName.empty()) {
    auto it = models().find(modelName);
    if (it == models().end()) {
      llvm::errs() << "error: unknown model '" << modelName << "'\n";
      return 1;
    }
    bytes = it->second();
  } else {
    auto file = llvm::MemoryBuffer::getFileOrSTDIN(inputFile);
    if (!file) {
      llvm::errs() << "error: cannot read '" << inputFile << "'\n";
      return 1;
    }
    bytes.assign((*file)->getBufferStart(), (*file)->getBufferEnd());
  }

  if (fuzz > 0) {
    // Truncations at evenly spread lengths, then single-byte and multi-byte
    // corruptions at pseudo-random offsets. A crash fails the test.
    Random random(7);
    int64_t imported = 0, rejected = 0;
    for (int64_t i = 0; i < fuzz; ++i) {
      std::vector<uint8_t> variant = bytes;
      if (i % 4 == 0) {
        variant.resize(static_cast<size_t>((static_cast<uint64_t>(i) * 7919) %
                                           bytes.size()));
      } else {
        int flips = 1 + static_cast<int>(i % 3);
        for (int k = 0; k < flips; ++k) {
          size_t offset = random.next() % variant.size();
          variant[offset] ^= static_cast<uint8_t>(1 + random.next() % 255);
        }
      }
      (tryImport(variant) ? imported : rejected) += 1;
    }
    llvm::outs() << "fuzz: " << fuzz << " variants, " << imported
                 << " imported, " << rejected << " rejected, no crash\n";
    return 0;
  }

  if (truncate >= 0 && static_cast<size_t>(truncate) < bytes.size())
    bytes.resize(truncate);
  for (int64_t offset : flip) {
    if (offset < 0 || static_cast<size_t>(offset) >= bytes.size()) {
      llvm::errs() << "error: --flip offset " << offset << " is outside the "
                   << bytes.size() << "-byte file\n";
      return 1;
    }
    bytes[offset] ^= 0xFF;
  }

  std::error_code ec;
  llvm::raw_fd_ostream os(outputFile, ec, llvm::sys::fs::OF_None);
  if (ec) {
    llvm::errs() << "error: cannot write '" << outputFile << "'\n";
    return 1;
  }
  os.write(reinterpret_cast<const char *>(bytes.data()), bytes.size());
  return 0;
}
