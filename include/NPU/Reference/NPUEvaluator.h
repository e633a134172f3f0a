//===- NPUEvaluator.h - reference evaluation of npu ops ---------*- C++ -*-===//

#ifndef NPU_REFERENCE_NPUEVALUATOR_H
#define NPU_REFERENCE_NPUEVALUATOR_H

#include "QNN/Reference/Evaluator.h"

namespace mlir::npu {

/// Registers the npu operators with the reference evaluator: each is the
/// plain-loop form of its ODS description, with the arithmetic of
/// QNN/Utils/QuantMath.h.
void registerReferenceOps(qnn::ref::Evaluator &evaluator);

} // namespace mlir::npu

#endif // NPU_REFERENCE_NPUEVALUATOR_H
