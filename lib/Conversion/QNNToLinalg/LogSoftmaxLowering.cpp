//===- LogSoftmaxLowering.cpp - qnn.log_softmax to linalg -----------------===//
//
// TFLite's int8/uint8 LOG_SOFTMAX (its optimized kernel, in float32) as four
// linalg.generic ops: the row maximum, the float32 sum of the exp table
// entries (a reduction, so it stays a sequential loop in index order, as
// TFLite adds them), the per-row offset with logf, and the per-element
// rescale. Bit-exact with the reference evaluator (QuantMath's
// logSoftmaxRow): the same table, the same operations without fastmath
// flags, the same C library logf.
//
//===----------------------------------------------------------------------===//

#include "QNNToLinalgInternal.h"

#include "QNN/IR/QNNOps.h"
#include "QNN/Utils/QuantMath.h"
#include "QNN/Utils/QuantUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::qnn;
using namespace mlir::qnn::lowering;

namespace {

struct LogSoftmaxLowering : OpConversionPattern<LogSoftmaxOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(LogSoftmaxOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = op.getInput().getType();
    if (!type.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shapes");
    bool isUnsigned = type.getElementType().isUnsignedInteger();
    int64_t qmin, qmax;
    std::tie(qmin, qmax) = getStorageRange(type.getElementType());
    Type i8 = rewriter.getI8Type(), i32 = rewriter.getI32Type(),
         f32 = rewriter.getF32Type();
    float inputScale = op.getInputScale().convertToFloat();
    float outputScale = op.getOutputScale().convertToFloat();
    RowIndexing rows = rowIndexing(rewriter, type.getShape());
    const SmallVector<int64_t> &rowShape = rows.rowShape;
    AffineMap identity = rows.identity, rowMap = rows.rowMap;
    ArrayRef<utils::IteratorType> parallel = rows.parallel,
                                  rowReduction = rows.rowReduction;
    auto fconst = [](OpBuilder &b, Location l, float v) {
      return arith::ConstantOp::create(b, l, b.getF32FloatAttr(v)).getResult();
    };
    auto widen = [&](OpBuilder &b, Location l, Value q) {
      return extendTo(b, l, q, i32, isUnsigned);
    };
    auto rowType = [&](Type t) { return RankedTensorType::get(rowShape, t); };

    // 1. The largest stored value of each row (i32).
    auto rowMax = linalg::GenericOp::create(
        rewriter, loc, TypeRange{rowType(i32)}, ValueRange{adaptor.getInput()},
        ValueRange{emptyFilled(rewriter, loc, rowShape, i32, qmin)},
        ArrayRef<AffineMap>{identity, rowMap}, rowReduction,
        [&](OpBuilder &b, Location l, ValueRange args) {
          linalg::YieldOp::create(
              b, l,
              arith::MaxSIOp::create(b, l, args[1], widen(b, l, args[0]))
                  .getResult());
        });
    // 2. sum += T[255 - (max - q)], in float32 and index order.
    std::array<float, 256> table = qnn::math::tfliteLogSoftmaxTable(inputScale);
    Value tableValue = arith::ConstantOp::create(
        rewriter, loc,
        DenseElementsAttr::get(RankedTensorType::get({256}, f32),
                               llvm::ArrayRef<float>(table)));
    Value zeroSum = linalg::FillOp::create(
                        rewriter, loc, fconst(rewriter, loc, 0.0f),
                        ValueRange{tensor::EmptyOp::create(rewriter, loc,
                                                           rowShape, f32)})
                        .getResult(0);
    auto sum = linalg::GenericOp::create(
        rewriter, loc, TypeRange{rowType(f32)},
        ValueRange{adaptor.getInput(), rowMax.getResult(0)},
        ValueRange{zeroSum}, ArrayRef<AffineMap>{identity, rowMap, rowMap},
        rowReduction, [&](OpBuilder &b, Location l, ValueRange args) {
          Value index = arith::SubIOp::create(
              b, l, intConst(b, l, i32, 255),
              arith::SubIOp::create(b, l, args[1], widen(b, l, args[0])));
          Value entry = tensor::ExtractOp::create(
              b, l, tableValue,
              ValueRange{arith::IndexCastOp::create(b, l, b.getIndexType(),
                                                    index)});
          linalg::YieldOp::create(
              b, l, arith::AddFOp::create(b, l, args[2], entry).getResult());
        });
    // 3. p = (input_scale * max + logf(sum)) / output_scale per row.
    auto offset = linalg::GenericOp::create(
        rewriter, loc, TypeRange{rowType(f32)},
        ValueRange{rowMax.getResult(0), sum.getResult(0)},
        ValueRange{tensor::EmptyOp::create(rewriter, loc, rowShape, f32)},
        ArrayRef<AffineMap>{identity, identity, identity}, parallel,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value m = arith::SIToFPOp::create(b, l, f32, args[0]);
          Value p = arith::MulFOp::create(b, l, fconst(b, l, inputScale), m);
          p = arith::AddFOp::create(b, l, p,
                                    mlir::math::LogOp::create(b, l, args[1]));
          p = arith::DivFOp::create(b, l, p, fconst(b, l, outputScale));
          linalg::YieldOp::create(b, l, p);
        });
    // 4. y = rint(scale * q - p) + zp, saturated.
    const float scale = inputScale / outputScale;
    auto result = linalg::GenericOp::create(
        rewriter, loc, TypeRange{RankedTensorType::get(type.getShape(), i8)},
        ValueRange{adaptor.getInput(), offset.getResult(0)},
        ValueRange{tensor::EmptyOp::create(rewriter, loc, type.getShape(), i8)},
        ArrayRef<AffineMap>{identity, rowMap, identity}, parallel,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value q = arith::SIToFPOp::create(b, l, f32, widen(b, l, args[0]));
          Value v = arith::MulFOp::create(b, l, fconst(b, l, scale), q);
          v = arith::SubFOp::create(b, l, v, args[1]);
          Value y = arith::AddFOp::create(
              b, l, mlir::math::RoundEvenOp::create(b, l, v),
              fconst(b, l,
                     static_cast<float>(
                         static_cast<int32_t>(op.getOutputZeroPoint()))));
          // The float32 saturation; maxnumf takes qmin for a NaN, as
          // logSoftmaxRow does.
          y = arith::MaxNumFOp::create(b, l, y,
                                       fconst(b, l, static_cast<float>(qmin)));
          y = arith::MinimumFOp::create(b, l, y,
                                        fconst(b, l, static_cast<float>(qmax)));
          Value n = arith::FPToSIOp::create(b, l, i32, y);
          linalg::YieldOp::create(
              b, l, arith::TruncIOp::create(b, l, i8, n).getResult());
        });
    rewriter.replaceOp(op, result.getResult(0));
    return success();
  }
};

} // namespace

void lowering::populateLogSoftmaxLowering(const TypeConverter &converter,
                                          RewritePatternSet &patterns) {
  patterns.add<LogSoftmaxLowering>(converter, patterns.getContext());
}
