//===- QNNDialect.h - qnn dialect -------------------------------*- C++ -*-===//

#ifndef QNN_IR_QNNDIALECT_H
#define QNN_IR_QNNDIALECT_H

#include "mlir/IR/Dialect.h"

#include "QNN/IR/QNNDialect.h.inc"

#endif // QNN_IR_QNNDIALECT_H
