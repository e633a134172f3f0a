//===- InlinerInterface.h - inlining of side-effect-free dialects -*- C++ -*-===//
//
// The inliner interface of the qnn and npu dialects: every operation of
// either is free of side effects and regions, so calls to functions of
// them may always be inlined (a network written as one function per layer
// then fuses across the layers' boundaries).
//
//===----------------------------------------------------------------------===//

#ifndef QNN_UTILS_INLINERINTERFACE_H
#define QNN_UTILS_INLINERINTERFACE_H

#include "mlir/Transforms/InliningUtils.h"

namespace mlir::qnn {

struct AlwaysInlinableInterface : DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Region *, bool,
                       IRMapping &) const final {
    return true;
  }
};

} // namespace mlir::qnn

#endif // QNN_UTILS_INLINERINTERFACE_H
