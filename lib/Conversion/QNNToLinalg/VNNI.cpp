//===- VNNI.cpp - AVX512-VNNI kernels for pointwise convolutions ----------===//

#include "QNNToLinalgInternal.h"

using namespace mlir;
using namespace mlir::qnn;

FailureOr<Value> lowering::lowerPointwiseConvVNNI(RewriterBase &, Conv2DOp,
                                                  Value) {
  return failure();
}

FailureOr<Value> lowering::lowerDenseVNNI(RewriterBase &, DenseOp, Value) {
  return failure();
}
