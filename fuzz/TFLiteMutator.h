//===- TFLiteMutator.h - structure-aware mutations of .tflite files -*- C++ -*-===//
//
// Byte flips mostly break the flatbuffer, which the verifier then rejects;
// the dangerous inputs are well-formed files with hostile values. This
// mutator unpacks a model with the flatbuffers object API, sets one field to
// a value that a careless importer would trust (a zero, NaN, infinite or
// denormal scale; a zero point out of range; a shape entry of 0, -1 or
// 2^31-1; a stride, dilation or filter size of 0; a tensor index pointing at
// another or no tensor; an opcode index out of range; a fused activation out
// of its enum; ...) and packs it again. Inputs that do not verify, and one
// mutation in four, get libFuzzer's byte-level mutations instead.
//
//===----------------------------------------------------------------------===//

#ifndef QNN_FUZZ_TFLITEMUTATOR_H
#define QNN_FUZZ_TFLITEMUTATOR_H

#include "QNN/Target/TFLite/schema_subset_generated.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size,
                                   size_t maxSize);

namespace qnn_fuzz {

namespace tfl = qnn::tflite;

template <typename T, size_t N>
T pick(std::mt19937 &rng, const T (&values)[N]) {
  return values[rng() % N];
}

/// Applies one hostile field mutation to `model`; returns false when the
/// model has nothing the chosen mutation can touch.
inline bool mutateField(tfl::ModelT &model, std::mt19937 &rng) {
  if (model.subgraphs.empty())
    return false;
  tfl::SubGraphT &graph = *model.subgraphs[rng() % model.subgraphs.size()];
  const int32_t numTensors = static_cast<int32_t>(graph.tensors.size());
  auto anyTensor = [&]() -> tfl::TensorT * {
    return numTensors ? graph.tensors[rng() % numTensors].get() : nullptr;
  };
  auto anyOperator = [&]() -> tfl::OperatorT * {
    return graph.operators.empty()
               ? nullptr
               : graph.operators[rng() % graph.operators.size()].get();
  };
  const float scales[] = {0.0f,
                          -1.0f,
                          std::numeric_limits<float>::quiet_NaN(),
                          std::numeric_limits<float>::infinity(),
                          std::numeric_limits<float>::denorm_min(),
                          1e-30f,
                          1e30f,
                          std::numeric_limits<float>::max()};
  const int64_t zeroPoints[] = {-129, 128, 256, -32769, INT32_MIN,
                                int64_t(1) << 40, INT64_MAX};
  const int32_t dims[] = {0, -1, 2, 65536, INT32_MAX, 3, 1};
  const int32_t smallInts[] = {0, -1, 2, 3, 1 << 30, INT32_MIN, 100};
  const int32_t activations[] = {-1, 4, 5, 6, 100};

  switch (rng() % 11) {
  case 0: { // scale
    tfl::TensorT *t = anyTensor();
    if (!t || !t->quantization || t->quantization->scale.empty())
      return false;
    auto &s = t->quantization->scale;
    s[rng() % s.size()] = pick(rng, scales);
    return true;
  }
  case 1: { // zero point
    tfl::TensorT *t = anyTensor();
    if (!t || !t->quantization)
      return false;
    auto &z = t->quantization->zero_point;
    if (z.empty())
      z.push_back(0);
    z[rng() % z.size()] = pick(rng, zeroPoints);
    return true;
  }
  case 2: { // per-channel dimension or counts
    tfl::TensorT *t = anyTensor();
    if (!t || !t->quantization)
      return false;
    if (rng() % 2)
      t->quantization->quantized_dimension = pick(rng, smallInts);
    else
      t->quantization->scale.push_back(0.5f);
    return true;
  }
  case 3: { // shape entry
    tfl::TensorT *t = anyTensor();
    if (!t)
      return false;
    if (t->shape.empty() || rng() % 8 == 0)
      t->shape.push_back(pick(rng, dims));
    else
      t->shape[rng() % t->shape.size()] = pick(rng, dims);
    return true;
  }
  case 4: { // element type
    tfl::TensorT *t = anyTensor();
    if (!t)
      return false;
    t->type = static_cast<tfl::TensorType>(rng() % 12);
    return true;
  }
  case 5: { // tensor index of an operator
    tfl::OperatorT *op = anyOperator();
    if (!op)
      return false;
    auto &list = (rng() % 2 && !op->outputs.empty()) ? op->outputs
                                                     : op->inputs;
    int32_t index = rng() % 3 == 0 ? -1
                    : rng() % 2    ? numTensors + static_cast<int32_t>(rng() % 3)
                                   : static_cast<int32_t>(rng() % (numTensors + 1));
    if (list.empty() || rng() % 8 == 0)
      list.push_back(index);
    else
      list[rng() % list.size()] = index;
    return true;
  }
  case 6: { // opcode index
    tfl::OperatorT *op = anyOperator();
    if (!op)
      return false;
    op->opcode_index = static_cast<uint32_t>(model.operator_codes.size() +
                                             rng() % 3);
    return true;
  }
  case 7: { // operator code
    if (model.operator_codes.empty())
      return false;
    auto &code = model.operator_codes[rng() % model.operator_codes.size()];
    code->builtin_code = static_cast<int32_t>(rng() % 160);
    code->deprecated_builtin_code =
        static_cast<int8_t>(std::min<int32_t>(127, code->builtin_code));
    return true;
  }
  case 8: { // operator options: strides, dilations, filters, activations
    tfl::OperatorT *op = anyOperator();
    if (!op)
      return false;
    int32_t v = pick(rng, smallInts);
    auto act = static_cast<tfl::ActivationFunctionType>(pick(rng, activations));
    if (auto *o = op->builtin_options.AsConv2DOptions()) {
      switch (rng() % 5) {
      case 0: o->stride_w = v; break;
      case 1: o->stride_h = v; break;
      case 2: o->dilation_w_factor = v; break;
      case 3: o->dilation_h_factor = v; break;
      default: o->fused_activation_function = act;
      }
    } else if (auto *o = op->builtin_options.AsDepthwiseConv2DOptions()) {
      switch (rng() % 4) {
      case 0: o->stride_w = v; break;
      case 1: o->depth_multiplier = v; break;
      case 2: o->dilation_h_factor = v; break;
      default: o->fused_activation_function = act;
      }
    } else if (auto *o = op->builtin_options.AsPool2DOptions()) {
      switch (rng() % 4) {
      case 0: o->stride_h = v; break;
      case 1: o->filter_width = v; break;
      case 2: o->filter_height = v; break;
      default: o->fused_activation_function = act;
      }
    } else if (auto *o = op->builtin_options.AsFullyConnectedOptions()) {
      o->fused_activation_function = act;
    } else if (auto *o = op->builtin_options.AsAddOptions()) {
      o->fused_activation_function = act;
    } else if (auto *o = op->builtin_options.AsConcatenationOptions()) {
      o->axis = v;
    } else if (auto *o = op->builtin_options.AsSoftmaxOptions()) {
      o->beta = pick(rng, scales);
    } else if (auto *o = op->builtin_options.AsReshapeOptions()) {
      o->new_shape.push_back(v);
    } else if (auto *o = op->builtin_options.AsSplitOptions()) {
      o->num_splits = v;
    } else if (auto *o = op->builtin_options.AsLeakyReluOptions()) {
      o->alpha = pick(rng, scales);
    } else {
      op->builtin_options.Reset();
    }
    return true;
  }
  case 9: { // constant data: resize a buffer
    if (model.buffers.size() < 2)
      return false;
    auto &buffer = model.buffers[1 + rng() % (model.buffers.size() - 1)];
    if (rng() % 2 && !buffer->data.empty())
      buffer->data.resize(rng() % buffer->data.size());
    else
      buffer->data.resize(buffer->data.size() + 1 + rng() % 64,
                          static_cast<uint8_t>(rng()));
    return true;
  }
  default: { // constant values: extreme weights and biases
    if (model.buffers.size() < 2)
      return false;
    auto &buffer = model.buffers[1 + rng() % (model.buffers.size() - 1)];
    if (buffer->data.empty())
      return false;
    const uint8_t bytes[] = {0x00, 0x7f, 0x80, 0xff};
    for (int k = 0; k < 8; ++k)
      buffer->data[rng() % buffer->data.size()] = pick(rng, bytes);
    return true;
  }
  }
}

/// Whether every 64-bit vector the object API reads is 8-byte aligned (the
/// verifier checks only 4 bytes; unpacking a misaligned one is undefined).
inline bool hasAlignedWideVectors(const tfl::Model *model) {
  if (!model->subgraphs())
    return true;
  for (const tfl::SubGraph *graph : *model->subgraphs()) {
    if (!graph->tensors())
      continue;
    for (const tfl::Tensor *tensor : *graph->tensors())
      if (const auto *q = tensor->quantization())
        if (const auto *zps = q->zero_point())
          if (reinterpret_cast<uintptr_t>(zps->Data()) % 8 != 0)
            return false;
  }
  return true;
}

inline size_t mutateTFLite(uint8_t *data, size_t size, size_t maxSize,
                           unsigned seed) {
  std::mt19937 rng(seed);
  if (rng() % 4 == 0 || size < 8)
    return LLVMFuzzerMutate(data, size, maxSize);
  // Flatbuffers reads scalars in place: work on a 16-byte aligned copy.
  std::vector<uint64_t> storage((size + 15) / 8);
  auto *aligned = reinterpret_cast<uint8_t *>(storage.data());
  std::memcpy(aligned, data, size);
  flatbuffers::Verifier verifier(aligned, size);
  if (!flatbuffers::BufferHasIdentifier(aligned, tfl::ModelIdentifier()) ||
      !tfl::VerifyModelBuffer(verifier) ||
      !hasAlignedWideVectors(tfl::GetModel(aligned)))
    return LLVMFuzzerMutate(data, size, maxSize);
  std::unique_ptr<tfl::ModelT> model(tfl::GetModel(aligned)->UnPack());
  // A union whose type is set but whose table is absent verifies and
  // unpacks to a null value, which Pack would dereference: drop the type.
  for (auto &subgraph : model->subgraphs)
    if (subgraph)
      for (auto &op : subgraph->operators)
        if (op && op->builtin_options.type != tfl::BuiltinOptions::NONE &&
            !op->builtin_options.value)
          op->builtin_options.Reset();
  bool mutated = false;
  for (int tries = 0; tries < 8 && !mutated; ++tries)
    mutated = mutateField(*model, rng);
  if (!mutated)
    return LLVMFuzzerMutate(data, size, maxSize);
  flatbuffers::FlatBufferBuilder fbb;
  tfl::FinishModelBuffer(fbb, tfl::Model::Pack(fbb, model.get()));
  if (fbb.GetSize() > maxSize)
    return LLVMFuzzerMutate(data, size, maxSize);
  std::memcpy(data, fbb.GetBufferPointer(), fbb.GetSize());
  return fbb.GetSize();
}

} // namespace qnn_fuzz

/// Defines libFuzzer's custom mutator hook with the structure-aware
/// mutations (one use per fuzz target).
#define QNN_FUZZ_DEFINE_TFLITE_MUTATOR()                                      \
  extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,       \
                                            size_t maxSize, unsigned seed) {  \
    return qnn_fuzz::mutateTFLite(data, size, maxSize, seed);                 \
  }

#endif // QNN_FUZZ_TFLITEMUTATOR_H
