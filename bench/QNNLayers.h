//===- QNNLayers.h - MobileNet layers compiled by qnn-mlir ---------------===//
//
// A MobileNet v1 convolution written as a qnn program (uint8 NHWC input,
// or int8 with QNN_BENCH_ACTIVATIONS=i8; constant int8 OHWI weights with
// per-channel scales, int32 bias, requantize to the input's type) and
// JIT-compiled with QNNCompiler, behind an interface free of
// MLIR types (the benchmark binary is built with RTTI and exceptions for the
// peers, the compiler without).
//
//===----------------------------------------------------------------------===//

#ifndef QNN_BENCH_QNNLAYERS_H
#define QNN_BENCH_QNNLAYERS_H

#include "MobileNetLayers.h"

#include <memory>
#include <string>
#include <vector>

namespace qnn::bench {

/// The qnn program of one layer (function @main, deterministic data).
std::string layerProgram(const ConvLayer &layer);

/// The layers chained as one program: @main calls each layer's program
/// (a private function named after the layer) on the previous result.
std::string chainProgram(const std::vector<ConvLayer> &layers);

class QnnConv {
public:
  /// Compiles the layer for `target` (empty: the host's best target) and
  /// `threads` (CompileOptions::threads); aborts with a message if
  /// compilation fails.
  QnnConv(const ConvLayer &layer, const std::string &target,
          unsigned threads = 1);
  /// Compiles `program` (its @main takes one input of `inputBytes` and
  /// returns one result of `outputBytes`) in the same way.
  QnnConv(const std::string &name, const std::string &program,
          size_t inputBytes, size_t outputBytes, const std::string &target,
          unsigned threads = 1);
  ~QnnConv();
  void run();
  /// Runs the layer once and compares its output bytes with the reference
  /// evaluator's on the same program; returns an empty string when they are
  /// identical, else a description of the first difference.
  std::string checkAgainstReference();
  /// The target actually used, and the CPU its code was generated for
  /// when not the host (the int16 targets: see QNN_BENCH_CPU).
  const std::string &target() const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl;
};

} // namespace qnn::bench

#endif // QNN_BENCH_QNNLAYERS_H
