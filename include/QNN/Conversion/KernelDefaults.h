//===- KernelDefaults.h - defaults of the kernel lowering -------*- C++ -*-===//
//
// Defaults shared by the conversion passes' options and the compiler API
// (QNN/Compiler/Compiler.h), without the passes' headers.
//
//===----------------------------------------------------------------------===//

#ifndef QNN_CONVERSION_KERNELDEFAULTS_H
#define QNN_CONVERSION_KERNELDEFAULTS_H

#include <cstdint>

namespace mlir::qnn {

/// The default of convert-qnn-to-linalg's depthwise-self-padding-min-bytes:
/// the int16 and generic targets' depthwise kernels pad by themselves (no
/// padded copy of their input) from inputs of this many bytes.
constexpr int64_t kDefaultDepthwiseSelfPaddingMinBytes = 256 * 1024;

} // namespace mlir::qnn

#endif // QNN_CONVERSION_KERNELDEFAULTS_H
