//===- QNNToLinalg.cpp - qnn operators to exact integer linalg code
//--------===//
//
// Every pattern here generates code that computes the integers of
// QNN/Utils/QuantMath.h bit for bit; the compile-time constants (multipliers,
// zero-point corrections, packed weights) are computed by calling
// QuantMath itself.
//
//===----------------------------------------------------------------------===//

#include "NPU/IR/NPUDialect.h"
#include "QNN/Conversion/Passes.h"
#include "QNN/IR/QNNOps.h"
#include "QNN/Utils/QuantMath.h"
#include "QNN/Utils/QuantUtils.h"
#include "QNNToLinalgInternal.h"

#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/DialectConversion.h"

#include <limits>
#include <map>
#include <tuple>

namespace mlir::qnn {
#define GEN_PASS_DEF_CONVERTQNNTOLINALG
#include "QNN/Conversion/Passes.h.inc"
} // namespace mlir::qnn

using namespace mlir;
using namespace mlir::qnn;
using namespace mlir::qnn::lowering;
namespace qmath = mlir::qnn::math;

//===----------------------------------------------------------------------===//
// Scalar arithmetic emitted inside linalg bodies
//===----------------------------------------------------------------------===//

Value lowering::intConst(OpBuilder &b, Location loc, Type type, int64_t value) {
  return arith::ConstantOp::create(
      b, loc,
      IntegerAttr::get(type, APInt(type.getIntOrFloatBitWidth(), value,
                                   /*isSigned=*/true,
                                   /*implicitTrunc=*/true)));
}

/// Extends (or truncates) an integer to `type`, zero-extending when the
/// original storage type was unsigned.
Value lowering::extendTo(OpBuilder &b, Location loc, Value v, Type type,
                         bool isUnsigned) {
  unsigned from = v.getType().getIntOrFloatBitWidth();
  unsigned to = type.getIntOrFloatBitWidth();
  if (from == to)
    return v;
  if (from > to)
    return arith::TruncIOp::create(b, loc, type, v);
  if (isUnsigned)
    return arith::ExtUIOp::create(b, loc, type, v);
  return arith::ExtSIOp::create(b, loc, type, v);
}

Value lowering::emitRoundingDoublingHighMul(OpBuilder &b, Location loc,
                                            Value x, Value y) {
  // gemmlowp adds a nudge of 2^30 (1 - 2^30 for a negative product) and
  // divides by 2^31 truncating toward zero. For a negative product that
  // quotient is ceil((p + 1 - 2^30) / 2^31) = floor((p + 2^30) / 2^31), the
  // same as for a non-negative one, so the whole function is one add and
  // an arithmetic shift (no compare, select or division fix-up).
  Type i64 = b.getI64Type();
  Value product = arith::MulIOp::create(b, loc, x, y);
  Value nudged = arith::AddIOp::create(b, loc, product,
                                       intConst(b, loc, i64, 1LL << 30));
  return arith::ShRSIOp::create(b, loc, nudged, intConst(b, loc, i64, 31));
}

Value lowering::emitRoundingDivideByPOT(OpBuilder &b, Location loc, Value x,
                                        Value exponent) {
  Type type = x.getType();
  Value one = intConst(b, loc, type, 1);
  Value mask = arith::SubIOp::create(
      b, loc, arith::ShLIOp::create(b, loc, one, exponent), one);
  Value remainder = arith::AndIOp::create(b, loc, x, mask);
  Value negative = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x,
                                         intConst(b, loc, type, 0));
  Value threshold =
      arith::AddIOp::create(b, loc, arith::ShRSIOp::create(b, loc, mask, one),
                            arith::ExtUIOp::create(b, loc, type, negative));
  Value roundUp = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt,
                                        remainder, threshold);
  return arith::AddIOp::create(b, loc,
                               arith::ShRSIOp::create(b, loc, x, exponent),
                               arith::ExtUIOp::create(b, loc, type, roundUp));
}

/// gemmlowp's SaturatingRoundingDoublingHighMul followed by
/// RoundingDivideByPOT, i.e. TFLite's MultiplyByQuantizedMultiplier.
/// `x`: i32; `multiplier`: i64 in [0, 2^31); `leftShift`: i32;
/// `rightShift` e: i64 in [0, 31]. The two roundings are one shift of the
/// 64-bit product p = (x << leftShift) * multiplier (docs/Arithmetic.md,
/// "Double rounding as one shift"):
///
///   f = (p + 2^30 + [e >= 1] 2^(30+e) - [e >= 1][p < -2^30] 2^31) >> (31+e)
///
/// exactly the integers of QuantMath's two-step computation for every x
/// (the saturating case INT32_MIN * INT32_MIN cannot occur because
/// multipliers are non-negative). The rounding term is
/// (1 << (30 + e)) | (1 << 30) and the correction min(e, 1) << 31; with a
/// constant e they fold, and with e = 0 the form is the rounding doubling
/// high multiply alone. Kernel epilogues compute it on even and odd i32
/// lanes (ConvKernelEpilogue.cpp, doubleRoundedProduct).
Value lowering::emitMultiplyByQuantizedMultiplier(OpBuilder &b, Location loc,
                                                  Value x, Value multiplier,
                                                  Value leftShift,
                                                  Value rightShift) {
  Type i64 = b.getI64Type();
  Value shifted = arith::ShLIOp::create(b, loc, x, leftShift);
  Value product = arith::MulIOp::create(
      b, loc, arith::ExtSIOp::create(b, loc, i64, shifted), multiplier);
  Value c30 = intConst(b, loc, i64, 30), c31 = intConst(b, loc, i64, 31);
  Value half = intConst(b, loc, i64, 1LL << 30);
  Value one = intConst(b, loc, i64, 1);
  Value round = arith::OrIOp::create(
      b, loc,
      arith::ShLIOp::create(b, loc, one,
                            arith::AddIOp::create(b, loc, rightShift, c30)),
      half);
  Value correction = arith::ShLIOp::create(
      b, loc, arith::MinUIOp::create(b, loc, rightShift, one), c31);
  // One statement per op: the IR's order must not depend on the
  // compiler's order of evaluating arguments.
  Value negative =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, product,
                            intConst(b, loc, i64, -(1LL << 30)));
  Value corrected = arith::SelectOp::create(b, loc, negative, correction,
                                            intConst(b, loc, i64, 0));
  Value rounded = arith::AddIOp::create(b, loc, product, round);
  Value sum = arith::SubIOp::create(b, loc, rounded, corrected);
  Value total = arith::AddIOp::create(b, loc, rightShift, c31);
  return arith::TruncIOp::create(b, loc, b.getI32Type(),
                                 arith::ShRSIOp::create(b, loc, sum, total));
}

Value lowering::saturateToI32(OpBuilder &b, Location loc, Value v) {
  Type type = v.getType();
  v = arith::MaxSIOp::create(
      b, loc, v, intConst(b, loc, type, std::numeric_limits<int32_t>::min()));
  v = arith::MinSIOp::create(
      b, loc, v, intConst(b, loc, type, std::numeric_limits<int32_t>::max()));
  return arith::TruncIOp::create(b, loc, b.getI32Type(), v);
}

Value lowering::emitSingleRoundingMultiply(OpBuilder &b, Location loc,
                                           Value x, Value multiplier,
                                           Value leftShift, Value rightShift) {
  Type i64 = b.getI64Type();
  // |x| < 2^31 and m < 2^31: the product fits in 63 bits; t is in [1, 62]
  // because verified multipliers have shifts of at most 30.
  Value product = arith::MulIOp::create(
      b, loc, arith::ExtSIOp::create(b, loc, i64, x), multiplier);
  Value total = arith::AddIOp::create(
      b, loc,
      arith::SubIOp::create(b, loc, intConst(b, loc, i64, 31),
                            arith::ExtSIOp::create(b, loc, i64, leftShift)),
      rightShift);
  Value one = intConst(b, loc, i64, 1);
  Value round = arith::ShLIOp::create(
      b, loc, one, arith::SubIOp::create(b, loc, total, one));
  Value shifted = arith::ShRSIOp::create(
      b, loc, arith::AddIOp::create(b, loc, product, round), total);
  return saturateToI32(b, loc, shifted);
}

/// TVM's single-rounding UPWARD/TONEAREST rescale of an i64 value on the
/// exact product (in 128 bits), saturated to i32. Shift operands are i64.
static Value emitSingleRoundingRescale(OpBuilder &b, Location loc, Value x,
                                       Value multiplier, Value leftShift,
                                       Value rightShift, bool toNearest) {
  Type i128 = b.getIntegerType(128);
  Value x128 = arith::ExtSIOp::create(b, loc, i128, x);
  Value left = arith::ExtSIOp::create(b, loc, i128, leftShift);
  Value right = arith::AddIOp::create(
      b, loc, arith::ExtSIOp::create(b, loc, i128, rightShift),
      intConst(b, loc, i128, 31));
  Value product =
      arith::MulIOp::create(b, loc, arith::ShLIOp::create(b, loc, x128, left),
                            arith::ExtSIOp::create(b, loc, i128, multiplier));
  Value one = intConst(b, loc, i128, 1);
  Value round = arith::ShLIOp::create(
      b, loc, one, arith::SubIOp::create(b, loc, right, one));
  if (toNearest) {
    Value negative = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                           product, intConst(b, loc, i128, 0));
    round = arith::SubIOp::create(
        b, loc, round, arith::ExtUIOp::create(b, loc, i128, negative));
  }
  Value shifted = arith::ShRSIOp::create(
      b, loc, arith::AddIOp::create(b, loc, product, round), right);
  return saturateToI32(b, loc, shifted);
}

/// Clamps an i64 to [qmin, qmax] and narrows it to `storage` (signless).
static Value clampAndNarrow(OpBuilder &b, Location loc, Value v, int64_t qmin,
                            int64_t qmax, Type storage) {
  Type i64 = b.getI64Type();
  v = arith::MaxSIOp::create(b, loc, v, intConst(b, loc, i64, qmin));
  v = arith::MinSIOp::create(b, loc, v, intConst(b, loc, i64, qmax));
  return extendTo(b, loc, v, storage, /*isUnsigned=*/false);
}

/// clamp(v + zeroPoint, qmin, qmax) of an i32 `v`, narrowed to `storage`.
/// For 8- and 16-bit results it stays in 32-bit lanes: clamping v to
/// [qmin - zeroPoint, qmax - zeroPoint] first and adding the zero point
/// after gives the same integers without the overflow of v + zeroPoint.
static Value addZeroPointClampAndNarrow(OpBuilder &b, Location loc, Value v,
                                        int64_t zeroPoint, int64_t qmin,
                                        int64_t qmax, Type storage) {
  if (storage.getIntOrFloatBitWidth() > 16) {
    Type i64 = b.getI64Type();
    Value y = arith::AddIOp::create(b, loc,
                                    arith::ExtSIOp::create(b, loc, i64, v),
                                    intConst(b, loc, i64, zeroPoint));
    return clampAndNarrow(b, loc, y, qmin, qmax, storage);
  }
  Type i32 = b.getI32Type();
  v = arith::MaxSIOp::create(b, loc, v,
                             intConst(b, loc, i32, qmin - zeroPoint));
  v = arith::MinSIOp::create(b, loc, v,
                             intConst(b, loc, i32, qmax - zeroPoint));
  v = arith::AddIOp::create(b, loc, v, intConst(b, loc, i32, zeroPoint));
  return extendTo(b, loc, v, storage, /*isUnsigned=*/false);
}

//===----------------------------------------------------------------------===//
// Tensor helpers
//===----------------------------------------------------------------------===//

static Type signless(Type type) {
  if (auto intType = dyn_cast<IntegerType>(type))
    return IntegerType::get(type.getContext(), intType.getWidth());
  return type;
}

RankedTensorType lowering::signlessTensor(RankedTensorType type) {
  return RankedTensorType::get(type.getShape(),
                               signless(type.getElementType()));
}

static bool isUnsignedElement(Type shapedOrElement) {
  Type element = getElementTypeOrSelf(shapedOrElement);
  return element.isUnsignedInteger();
}

RowIndexing lowering::rowIndexing(OpBuilder &b, ArrayRef<int64_t> shape) {
  RowIndexing r;
  int64_t rank = static_cast<int64_t>(shape.size());
  r.rowShape.assign(shape.begin(), shape.end());
  r.rowShape.back() = 1;
  r.identity = b.getMultiDimIdentityMap(rank);
  SmallVector<AffineExpr> rowExprs;
  for (int64_t d = 0; d + 1 < rank; ++d)
    rowExprs.push_back(b.getAffineDimExpr(d));
  rowExprs.push_back(b.getAffineConstantExpr(0));
  r.rowMap = AffineMap::get(rank, 0, rowExprs, b.getContext());
  r.parallel.assign(rank, utils::IteratorType::parallel);
  r.rowReduction = r.parallel;
  r.rowReduction.back() = utils::IteratorType::reduction;
  return r;
}

Value lowering::emptyFilled(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                            Type elementType, int64_t fill) {
  Value empty = tensor::EmptyOp::create(b, loc, shape, elementType);
  Value value = intConst(b, loc, elementType, fill);
  return linalg::FillOp::create(b, loc, value, empty).getResult(0);
}

/// A 1-D integer constant of `elementType` (values wrapped to its width).
static DenseElementsAttr intTable(Type elementType, ArrayRef<int64_t> values) {
  auto type =
      RankedTensorType::get({static_cast<int64_t>(values.size())}, elementType);
  SmallVector<APInt> ints;
  for (int64_t v : values)
    ints.push_back(APInt(elementType.getIntOrFloatBitWidth(), v,
                         /*isSigned=*/true, /*implicitTrunc=*/true));
  return DenseElementsAttr::get(type, ints);
}

static Value constTensor(OpBuilder &b, Location loc, Type elementType,
                         ArrayRef<int64_t> values) {
  return arith::ConstantOp::create(b, loc, intTable(elementType, values));
}

static Value constTensorF32(OpBuilder &b, Location loc,
                            ArrayRef<float> values) {
  auto type = RankedTensorType::get({static_cast<int64_t>(values.size())},
                                    b.getF32Type());
  return arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(type, llvm::ArrayRef(values)));
}

Value lowering::padWithFillAndCopy(OpBuilder &b, Location loc, Value input,
                                  ArrayRef<int64_t> low, ArrayRef<int64_t> high,
                                  Value padValue) {
  auto type = cast<RankedTensorType>(input.getType());
  int64_t rank = type.getRank();
  SmallVector<int64_t> shape(type.getShape());
  SmallVector<OpFoldResult> offsets, sizes, ones(rank, b.getIndexAttr(1));
  for (int64_t d = 0; d < rank; ++d) {
    shape[d] += low[d] + high[d];
    offsets.push_back(b.getIndexAttr(low[d]));
    sizes.push_back(b.getIndexAttr(type.getDimSize(d)));
  }
  Value empty = tensor::EmptyOp::create(b, loc, shape, type.getElementType());
  Value filled =
      linalg::FillOp::create(b, loc, padValue, empty).getResult(0);
  Value slice =
      tensor::ExtractSliceOp::create(b, loc, filled, offsets, sizes, ones);
  Value copied = linalg::CopyOp::create(b, loc, input, slice).getResult(0);
  return tensor::InsertSliceOp::create(b, loc, copied, filled, offsets, sizes,
                                       ones);
}

/// Pads the spatial dimensions of an activation with `value`.
static Value padSpatial(OpBuilder &b, Location loc, Value input,
                        ActivationDims dims, ArrayRef<int64_t> padding,
                        int64_t value) {
  if (llvm::all_of(padding, [](int64_t p) { return p == 0; }))
    return input;
  auto type = cast<RankedTensorType>(input.getType());
  SmallVector<int64_t> low(4, 0), high(4, 0), shape(type.getShape());
  low[dims.h] = padding[0];
  low[dims.w] = padding[1];
  high[dims.h] = padding[2];
  high[dims.w] = padding[3];
  shape[dims.h] += padding[0] + padding[2];
  shape[dims.w] += padding[1] + padding[3];
  SmallVector<OpFoldResult> lowOfr, highOfr;
  for (int i = 0; i < 4; ++i) {
    lowOfr.push_back(b.getIndexAttr(low[i]));
    highOfr.push_back(b.getIndexAttr(high[i]));
  }
  Value padValue =
      isa<FloatType>(type.getElementType())
          ? arith::ConstantOp::create(
                b, loc,
                b.getFloatAttr(type.getElementType(),
                               static_cast<double>(value)))
                .getResult()
          : intConst(b, loc, type.getElementType(), value);
  return tensor::PadOp::create(
      b, loc, RankedTensorType::get(shape, type.getElementType()), input,
      lowOfr, highOfr, padValue);
}

/// Constant integer contents of `value` as int64, read with the signedness
/// of its original element type.
static std::optional<SmallVector<int64_t>> getConstantInts(Value value) {
  DenseIntElementsAttr attr;
  if (!matchPattern(value, m_Constant(&attr)))
    return std::nullopt;
  bool isUnsigned = isUnsignedElement(value.getType());
  SmallVector<int64_t> result;
  result.reserve(attr.getNumElements());
  for (const APInt &v : attr.getValues<APInt>())
    result.push_back(isUnsigned ? static_cast<int64_t>(v.getZExtValue())
                                : v.getSExtValue());
  return result;
}

static SmallVector<utils::IteratorType> iterators(int parallel, int reduction) {
  SmallVector<utils::IteratorType> result(parallel,
                                          utils::IteratorType::parallel);
  result.append(reduction, utils::IteratorType::reduction);
  return result;
}

namespace {

//===----------------------------------------------------------------------===//
// Requantize
//===----------------------------------------------------------------------===//

/// The requantize of `input` (the converted value of a tensor of
/// `inputType`) to `resultType` under a TFLite or TVM rule: one elementwise
/// linalg.generic (per-channel tables along `axisAttr` when there are
/// several scales). Used by qnn.requantize and by TVM's qnn.concatenate.
static FailureOr<Value>
lowerRequantizeRule(ConversionPatternRewriter &rewriter, Operation *op,
                    Value input, RankedTensorType inputType,
                    RankedTensorType resultType, ArrayRef<double> inputScales,
                    std::optional<uint64_t> axisAttr, int64_t inputZeroPoint,
                    float outputScale, int64_t outputZeroPoint,
                    Rounding rounding, bool floorAffine = false) {
  Location loc = op->getLoc();
  FailureOr<RequantizeSpec> spec = RequantizeSpec::get(
      op, inputScales, outputScale, inputZeroPoint, outputZeroPoint,
      resultType.getElementType(), rounding);
  if (failed(spec))
    return failure();
  if (floorAffine)
    spec->useFloorAffine();
  bool inputUnsigned = isUnsignedElement(inputType);
  int64_t rank = resultType.getRank();
  SmallVector<Value> inputs = {input};
  SmallVector<AffineMap> maps = {rewriter.getMultiDimIdentityMap(rank)};
  for (DenseElementsAttr table : spec->channelTables(rewriter.getContext())) {
    inputs.push_back(arith::ConstantOp::create(rewriter, loc, table));
    maps.push_back(AffineMap::get(
        rank, 0, rewriter.getAffineDimExpr(static_cast<int64_t>(*axisAttr)),
        rewriter.getContext()));
  }
  maps.push_back(rewriter.getMultiDimIdentityMap(rank));
  Value init = tensor::EmptyOp::create(rewriter, loc, resultType.getShape(),
                                       spec->outElement);
  auto generic = linalg::GenericOp::create(
      rewriter, loc, TypeRange{init.getType()}, inputs, ValueRange{init}, maps,
      iterators(rank, 0), [&](OpBuilder &b, Location l, ValueRange args) {
        linalg::YieldOp::create(
            b, l,
            emitRequantizeScalar(b, l, args[0], inputUnsigned, *spec,
                                 args.drop_front().drop_back()));
      });
  return generic.getResult(0);
}

} // namespace

FailureOr<RequantizeSpec>
RequantizeSpec::get(Operation *op, ArrayRef<double> inputScales,
                    float outputScale, int64_t inputZeroPoint,
                    int64_t outputZeroPoint, Type resultElement,
                    Rounding rounding) {
  RequantizeSpec spec;
  spec.rounding = rounding;
  spec.inputZp = static_cast<int32_t>(inputZeroPoint);
  spec.outputZp = static_cast<int32_t>(outputZeroPoint);
  std::tie(spec.lo, spec.hi) = getStorageRange(resultElement);
  spec.outElement = signless(resultElement);
  if (rounding == Rounding::onnx) {
    for (double scale : inputScales)
      spec.factors.push_back(qmath::onnxRequantizeFactor(scale, outputScale));
    return spec;
  }
  for (double scale : inputScales) {
    qmath::QuantizedMultiplier m =
        qmath::quantizeMultiplier(scale / static_cast<double>(outputScale));
    if (m.shift > 31)
      return op->emitOpError() << "multiplier input_scale / output_scale is "
                                  "too large to lower (shift "
                               << m.shift << " > 31)";
    spec.multipliers.push_back(m.multiplier);
    spec.lefts.push_back(m.shift > 0 ? m.shift : 0);
    spec.rights.push_back(m.shift > 0 ? 0 : -m.shift);
  }
  return spec;
}

bool RequantizeSpec::useFloorAffine(
    llvm::function_ref<SmallVector<int64_t>()> reach) {
  if (rounding != Rounding::tflite && rounding != Rounding::tflite_single)
    return false;
  qmath::RoundingRule rule = toRoundingRule(rounding);
  SmallVector<qmath::FloorAffine> fits;
  // Per-tensor scales repeat across channels: fit each multiplier once.
  DenseMap<std::pair<int64_t, int64_t>, qmath::FloorAffine> fitted;
  std::optional<SmallVector<int64_t>> reaches;
  for (auto [c, m, left, right] : llvm::enumerate(multipliers, lefts, rights)) {
    if (left != 0)
      return false;
    qmath::QuantizedMultiplier q{static_cast<int32_t>(m),
                                 static_cast<int32_t>(-right)};
    auto key = std::pair(m, right);
    auto it = fitted.find(key);
    if (it != fitted.end()) {
      fits.push_back(it->second);
      continue;
    }
    if (std::optional<qmath::FloorAffine> fit = qmath::fitRescaleFloorAffine(
            q, rule, lo - outputZp, hi - outputZp)) {
      fits.push_back(fitted.try_emplace(key, *fit).first->second);
      continue;
    }
    // Over the inputs this channel can produce only.
    if (!reaches)
      reaches = reach ? reach() : SmallVector<int64_t>();
    if (reaches->empty())
      return false;
    std::optional<qmath::FloorAffine> fit =
        qmath::fitRescaleFloorAffine(q, rule, lo - outputZp, hi - outputZp,
                                     (*reaches)[reaches->size() == 1 ? 0 : c]);
    if (!fit)
      return false;
    fits.push_back(*fit);
  }
  floorAffine = std::move(fits);
  return true;
}

bool RequantizeSpec::floorAffineSplits() const {
  return llvm::any_of(floorAffine, [](const qmath::FloorAffine &f) {
    return f.splitsOnSign();
  });
}

SmallVector<DenseElementsAttr>
RequantizeSpec::channelTables(MLIRContext *ctx) const {
  if (channels() == 1)
    return {};
  if (!floorAffine.empty()) {
    auto table = [&](float qmath::FloorAffine::*field) {
      SmallVector<float> values;
      for (const qmath::FloorAffine &f : floorAffine)
        values.push_back(f.*field);
      return DenseElementsAttr::get(
          RankedTensorType::get({channels()}, Float32Type::get(ctx)),
          ArrayRef(values));
    };
    SmallVector<DenseElementsAttr> tables = {
        table(&qmath::FloorAffine::slope), table(&qmath::FloorAffine::offset)};
    if (floorAffineSplits())
      tables.push_back(table(&qmath::FloorAffine::negativeOffset));
    return tables;
  }
  if (rounding == Rounding::onnx)
    return {DenseElementsAttr::get(
        RankedTensorType::get({channels()}, Float32Type::get(ctx)),
        llvm::ArrayRef(factors))};
  Type i32 = IntegerType::get(ctx, 32), i64 = IntegerType::get(ctx, 64);
  return {intTable(i64, multipliers), intTable(i32, lefts),
          intTable(i64, rights)};
}

/// The ONNX rule (qmath::requantizeONNX) in float32: sitofp, multiply by
/// the factor, round half to even, clamp to +-2^62, convert to i64, add
/// the zero point, saturate. Arith and math.roundeven only, so that
/// qnn-fuse-kernel-epilogues can still move it into a kernel.
static Value emitONNXRequantize(OpBuilder &b, Location l, Value input,
                                bool inputUnsigned, const RequantizeSpec &spec,
                                Value factor) {
  Type f32 = b.getF32Type(), i64 = b.getI64Type();
  auto f32Const = [&](float v) {
    return arith::ConstantOp::create(b, l, b.getF32FloatAttr(v)).getResult();
  };
  // Values of at most 32 bits with zero point 0 convert from i32 (the
  // accumulators of ONNX's QLinear ops); the others from the exact i64.
  Value x;
  if (spec.inputZp == 0 && input.getType().getIntOrFloatBitWidth() <= 32)
    x = extendTo(b, l, input, b.getI32Type(), inputUnsigned);
  else
    x = arith::SubIOp::create(b, l, extendTo(b, l, input, i64, inputUnsigned),
                              intConst(b, l, i64, spec.inputZp));
  if (!factor)
    factor = f32Const(spec.factors[0]);
  Value v = arith::MulFOp::create(b, l, arith::SIToFPOp::create(b, l, f32, x),
                                  factor);
  v = mlir::math::RoundEvenOp::create(b, l, v);
  const float limit = 4611686018427387904.0f; // 2^62
  v = arith::MaximumFOp::create(b, l, v, f32Const(-limit));
  v = arith::MinimumFOp::create(b, l, v, f32Const(limit));
  Value y = arith::AddIOp::create(b, l, arith::FPToSIOp::create(b, l, i64, v),
                                  intConst(b, l, i64, spec.outputZp));
  return clampAndNarrow(b, l, y, spec.lo, spec.hi, spec.outElement);
}

/// The floor-affine form of the rescale of the i32 `x`
/// (math::FloorAffine): clamp to +-2^24, float64 fma of the float32 slope
/// and offset (the negative one for x < 0), floor, i32. Exact: float64
/// holds the product, and fitRescaleFloorAffine keeps the fma's rounding
/// off the integers. The kernels compute it in float32 rounded down
/// (ConvKernelEpilogue.cpp).
static Value emitFloorAffine(OpBuilder &b, Location l, Value x,
                             const RequantizeSpec &spec, ValueRange tables) {
  Type i32 = b.getI32Type(), f64 = b.getF64Type();
  Value bound = intConst(b, l, i32, qmath::kFloorAffineBound);
  Value clamped = arith::MinSIOp::create(
      b, l,
      arith::MaxSIOp::create(b, l, x,
                             intConst(b, l, i32, -qmath::kFloorAffineBound)),
      bound);
  bool split = spec.floorAffineSplits();
  auto parameter = [&](unsigned i, float qmath::FloorAffine::*field) {
    Value v = !tables.empty()
                  ? tables[i]
                  : arith::ConstantOp::create(
                        b, l, b.getF32FloatAttr(spec.floorAffine[0].*field))
                        .getResult();
    return arith::ExtFOp::create(b, l, f64, v).getResult();
  };
  Value slope = parameter(0, &qmath::FloorAffine::slope);
  Value offset = parameter(1, &qmath::FloorAffine::offset);
  if (split) {
    Value negative = parameter(2, &qmath::FloorAffine::negativeOffset);
    Value isNegative = arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt,
                                             clamped, intConst(b, l, i32, 0));
    offset = arith::SelectOp::create(b, l, isNegative, negative, offset);
  }
  Value t = mlir::math::FmaOp::create(
      b, l, arith::SIToFPOp::create(b, l, f64, clamped), slope, offset);
  return arith::FPToSIOp::create(b, l, i32,
                                 mlir::math::FloorOp::create(b, l, t));
}

Value lowering::emitRequantizeScalar(OpBuilder &b, Location l, Value input,
                                     bool inputUnsigned,
                                     const RequantizeSpec &spec,
                                     ValueRange tables) {
  if (spec.rounding == Rounding::onnx)
    return emitONNXRequantize(b, l, input, inputUnsigned, spec,
                              tables.empty() ? Value() : tables[0]);
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  // TFLite's kernels rescale the 32-bit value (wrapped). An i32 input with
  // zero point 0 (an accumulator) is used as it is.
  auto tfliteInput = [&]() -> Value {
    if (spec.inputZp == 0 && input.getType().isInteger(32))
      return input;
    return arith::TruncIOp::create(
        b, l, i32,
        arith::SubIOp::create(b, l, extendTo(b, l, input, i64, inputUnsigned),
                              intConst(b, l, i64, spec.inputZp)));
  };
  if (!spec.floorAffine.empty())
    return addZeroPointClampAndNarrow(
        b, l, emitFloorAffine(b, l, tfliteInput(), spec, tables), spec.outputZp,
        spec.lo, spec.hi, spec.outElement);
  Value m, left, right;
  if (!tables.empty()) {
    m = tables[0];
    left = tables[1];
    right = tables[2];
  } else {
    m = intConst(b, l, i64, spec.multipliers[0]);
    left = intConst(b, l, i32, spec.lefts[0]);
    right = intConst(b, l, i64, spec.rights[0]);
  }
  qmath::RoundingRule rule = toRoundingRule(spec.rounding);
  Value rescaled;
  if (rule == qmath::RoundingRule::TFLite ||
      rule == qmath::RoundingRule::TFLiteSingle) {
    Value c32 = tfliteInput();
    rescaled =
        rule == qmath::RoundingRule::TFLite
            ? emitMultiplyByQuantizedMultiplier(b, l, c32, m, left, right)
            : emitSingleRoundingMultiply(b, l, c32, m, left, right);
  } else {
    Value centered =
        arith::SubIOp::create(b, l, extendTo(b, l, input, i64, inputUnsigned),
                              intConst(b, l, i64, spec.inputZp));
    rescaled = emitSingleRoundingRescale(
        b, l, centered, m, arith::ExtSIOp::create(b, l, i64, left), right,
        rule == qmath::RoundingRule::ToNearest);
  }
  return addZeroPointClampAndNarrow(b, l, rescaled, spec.outputZp, spec.lo,
                                    spec.hi, spec.outElement);
}

namespace {

/// Whether `v` holds the accumulators of a convolution or dense layer,
/// perhaps with a bias added: a kernel's output, whose requantize
/// qnn-fuse-kernel-epilogues moves into the kernel.
static bool isAccumulator(Value v) {
  for (int depth = 0; depth < 3; ++depth) {
    Operation *def = v.getDefiningOp();
    if (!def)
      return false;
    if (isa<Conv2DOp, DenseOp>(def))
      return true;
    if (!isa<tosa::AddOp, arith::AddIOp>(def))
      return false;
    // The bias: a constant operand.
    Value lhs = def->getOperand(0), rhs = def->getOperand(1);
    v = matchPattern(rhs, m_Constant()) ? lhs : rhs;
  }
  return false;
}

struct RequantizeLowering : OpConversionPattern<RequantizeOp> {
  RequantizeLowering(const TypeConverter &converter, MLIRContext *ctx,
                     bool floorAffine)
      : OpConversionPattern(converter, ctx), floorAffine(floorAffine) {}

  LogicalResult
  matchAndRewrite(RequantizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto inputType = op.getInput().getType();
    auto resultType = op.getOutput().getType();
    if (!resultType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shapes");
    SmallVector<double> scales(op.getInputScale());
    // The requantize of accumulators on a target whose kernels take the
    // floor-affine form (one float32 fma per 16 lanes) gets it where every
    // channel has one.
    FailureOr<Value> lowered = lowerRequantizeRule(
        rewriter, op, adaptor.getInput(), inputType, resultType, scales,
        op.getAxis(), op.getInputZeroPoint(),
        op.getOutputScale().convertToFloat(), op.getOutputZeroPoint(),
        op.getRounding(), floorAffine && isAccumulator(op.getInput()));
    if (failed(lowered))
      return failure();
    rewriter.replaceOp(op, *lowered);
    return success();
  }

  bool floorAffine;
};

//===----------------------------------------------------------------------===//
// Quantize, dequantize
//===----------------------------------------------------------------------===//

/// Adds per-channel tables (or nothing) for a per-axis parameter array.
template <typename T>
static void addChannelTable(OpBuilder &b, ArrayRef<T> values,
                            std::optional<uint64_t> axis, int64_t rank,
                            SmallVectorImpl<Value> &inputs,
                            SmallVectorImpl<AffineMap> &maps, Value table) {
  if (values.size() <= 1)
    return;
  inputs.push_back(table);
  maps.push_back(
      AffineMap::get(rank, 0, b.getAffineDimExpr(*axis), b.getContext()));
}

struct QuantizeLowering : OpConversionPattern<QuantizeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(QuantizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = op.getOutput().getType();
    if (!resultType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shapes");
    Type outElement = signless(resultType.getElementType());
    int64_t qmin, qmax;
    std::tie(qmin, qmax) = getStorageRange(resultType.getElementType());
    int64_t rank = resultType.getRank();
    bool halfToEven = op.getRounding() == Rounding::onnx;
    ArrayRef<float> scales = op.getScale();
    ArrayRef<int32_t> zps = op.getZeroPoint();
    SmallVector<Value> inputs = {adaptor.getInput()};
    SmallVector<AffineMap> maps = {rewriter.getMultiDimIdentityMap(rank)};
    if (scales.size() > 1)
      addChannelTable(rewriter, scales, op.getAxis(), rank, inputs, maps,
                      constTensorF32(rewriter, loc, scales));
    size_t zpIndex = inputs.size();
    if (zps.size() > 1)
      addChannelTable(
          rewriter, zps, op.getAxis(), rank, inputs, maps,
          constTensor(rewriter, loc, rewriter.getI64Type(),
                      SmallVector<int64_t>(zps.begin(), zps.end())));
    maps.push_back(rewriter.getMultiDimIdentityMap(rank));
    Value init = tensor::EmptyOp::create(rewriter, loc, resultType.getShape(),
                                         outElement);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{init.getType()}, inputs, ValueRange{init},
        maps, iterators(rank, 0),
        [&](OpBuilder &b, Location l, ValueRange args) {
          Type i64 = b.getI64Type();
          Value scale = scales.size() > 1
                            ? args[1]
                            : arith::ConstantOp::create(
                                  b, l, b.getF32FloatAttr(scales[0]))
                                  .getResult();
          Value zp =
              zps.size() > 1 ? args[zpIndex] : intConst(b, l, i64, zps[0]);
          Value quotient = arith::DivFOp::create(b, l, args[0], scale);
          Value scaled =
              halfToEven
                  ? mlir::math::RoundEvenOp::create(b, l, quotient).getResult()
                  : mlir::math::RoundOp::create(b, l, quotient).getResult();
          // NaN quantizes to the zero point; out-of-range values are clamped
          // in float before the conversion, as QuantMath does.
          Value isNan = arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNO,
                                              scaled, scaled);
          Value zero = arith::ConstantOp::create(b, l, b.getF32FloatAttr(0));
          scaled = arith::SelectOp::create(b, l, isNan, zero, scaled);
          scaled = arith::MaximumFOp::create(
              b, l, scaled,
              arith::ConstantOp::create(b, l,
                                        b.getF32FloatAttr(-1099511627776.0f)));
          scaled = arith::MinimumFOp::create(
              b, l, scaled,
              arith::ConstantOp::create(b, l,
                                        b.getF32FloatAttr(1099511627776.0f)));
          Value q = arith::AddIOp::create(
              b, l, arith::FPToSIOp::create(b, l, i64, scaled), zp);
          linalg::YieldOp::create(
              b, l, clampAndNarrow(b, l, q, qmin, qmax, outElement));
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

struct DequantizeLowering : OpConversionPattern<DequantizeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(DequantizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inputType = op.getInput().getType();
    auto resultType = op.getOutput().getType();
    if (!resultType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shapes");
    bool inputUnsigned = isUnsignedElement(inputType);
    int64_t rank = resultType.getRank();
    // f16 (TVM): the scales rounded to f16, one f16 multiply.
    Type floatType = resultType.getElementType();
    bool half = floatType.isF16();
    SmallVector<float> scales(op.getScale());
    if (half)
      for (float &s : scales)
        s = qnn::math::roundToHalf(s);
    ArrayRef<int32_t> zps = op.getZeroPoint();
    SmallVector<Value> inputs = {adaptor.getInput()};
    SmallVector<AffineMap> maps = {rewriter.getMultiDimIdentityMap(rank)};
    if (scales.size() > 1) {
      Value table;
      if (half) {
        SmallVector<APFloat> values;
        for (float s : scales) {
          APFloat v(s);
          bool losesInfo = false;
          v.convert(APFloat::IEEEhalf(), APFloat::rmNearestTiesToEven,
                    &losesInfo); // exact: already rounded to f16
          values.push_back(v);
        }
        table = arith::ConstantOp::create(
            rewriter, loc,
            DenseElementsAttr::get(
                RankedTensorType::get({static_cast<int64_t>(values.size())},
                                      floatType),
                values));
      } else {
        table = constTensorF32(rewriter, loc, scales);
      }
      addChannelTable(rewriter, ArrayRef<float>(scales), op.getAxis(), rank,
                      inputs, maps, table);
    }
    size_t zpIndex = inputs.size();
    if (zps.size() > 1)
      addChannelTable(
          rewriter, zps, op.getAxis(), rank, inputs, maps,
          constTensor(rewriter, loc, rewriter.getI64Type(),
                      SmallVector<int64_t>(zps.begin(), zps.end())));
    maps.push_back(rewriter.getMultiDimIdentityMap(rank));
    Value init = tensor::EmptyOp::create(rewriter, loc, resultType.getShape(),
                                         floatType);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{init.getType()}, inputs, ValueRange{init},
        maps, iterators(rank, 0),
        [&](OpBuilder &b, Location l, ValueRange args) {
          Type i32 = b.getI32Type(), i64 = b.getI64Type();
          Value scale = scales.size() > 1
                            ? args[1]
                            : arith::ConstantOp::create(
                                  b, l, b.getFloatAttr(floatType, scales[0]))
                                  .getResult();
          Value zp =
              zps.size() > 1 ? args[zpIndex] : intConst(b, l, i64, zps[0]);
          Value q = extendTo(b, l, args[0], i64, inputUnsigned);
          Value centered = arith::TruncIOp::create(
              b, l, i32, arith::SubIOp::create(b, l, q, zp));
          Value real = arith::SIToFPOp::create(b, l, floatType, centered);
          linalg::YieldOp::create(
              b, l, arith::MulFOp::create(b, l, scale, real).getResult());
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Conv2D and dense: plain contraction + zero-point terms
//===----------------------------------------------------------------------===//

struct Conv2DLowering : OpConversionPattern<Conv2DOp> {
  Conv2DLowering(const TypeConverter &converter, MLIRContext *ctx,
                 StringRef target, int64_t depthwiseSelfPaddingMinBytes)
      : OpConversionPattern(converter, ctx), target(target.str()),
        depthwiseSelfPaddingMinBytes(depthwiseSelfPaddingMinBytes) {}

  LogicalResult
  matchAndRewrite(Conv2DOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (std::optional<KernelFlavor> flavor = flavorForTarget(target)) {
      ConvKernelRequest request = ConvKernelRequest::of(op);
      request.depthwiseSelfPaddingMinBytes = depthwiseSelfPaddingMinBytes;
      FailureOr<Value> fast =
          lowerConvWithKernel(rewriter, request, adaptor.getInput(), *flavor);
      if (succeeded(fast)) {
        rewriter.replaceOp(op, *fast);
        return success();
      }
    }
    Location loc = op.getLoc();
    auto inputType = op.getInput().getType();
    auto weightType = op.getWeight().getType();
    auto resultType = op.getOutput().getType();
    if (!inputType.hasStaticShape() || !weightType.hasStaticShape() ||
        !resultType.hasStaticShape())
      return op.emitOpError("lowering needs static shapes");
    MLIRContext *ctx = rewriter.getContext();
    bool inUnsigned = isUnsignedElement(inputType);
    bool wUnsigned = isUnsignedElement(weightType);
    int64_t inputZp = static_cast<int32_t>(op.getInputZeroPoint());
    int64_t weightZp = static_cast<int32_t>(op.getWeightZeroPoint());
    ActivationDims ad = getActivationDims(op.getDataLayout());
    KernelDims kd = getKernelDims(op.getKernelLayout());
    int64_t groups = op.getGroups();
    int64_t n = inputType.getDimSize(ad.n);
    int64_t channels = inputType.getDimSize(ad.c);
    int64_t outChannels = weightType.getDimSize(kd.o);
    int64_t kh = weightType.getDimSize(kd.h), kw = weightType.getDimSize(kd.w);
    int64_t cg = channels / groups, fg = outChannels / groups;
    int64_t oh = resultType.getDimSize(ad.h), ow = resultType.getDimSize(ad.w);
    ArrayRef<int64_t> strides = op.getStrides(), dil = op.getDilations();

    // Pad with the input zero point: padded positions then contribute
    // exactly 0 to sum (x - izp) * (w - wzp), and the decomposed zero-point
    // terms stay per-channel constants.
    Value input = padSpatial(rewriter, loc, adaptor.getInput(), ad,
                             op.getPadding(), inputZp);
    Value weight = adaptor.getWeight();

    // Iteration space: n, oh, ow, g, fg | kh, kw, cg.
    auto d = [&](unsigned i) { return rewriter.getAffineDimExpr(i); };
    AffineExpr hExpr = d(1) * strides[0] + d(5) * dil[0];
    AffineExpr wExpr = d(2) * strides[1] + d(6) * dil[1];
    AffineExpr cExpr = d(3) * cg + d(7);
    SmallVector<AffineExpr> inExprs(4);
    inExprs[ad.n] = d(0);
    inExprs[ad.h] = hExpr;
    inExprs[ad.w] = wExpr;
    inExprs[ad.c] = cExpr;
    SmallVector<AffineExpr> wExprs(4);
    wExprs[kd.o] = d(3) * fg + d(4);
    wExprs[kd.i] = d(7);
    wExprs[kd.h] = d(5);
    wExprs[kd.w] = d(6);
    bool nchw = op.getDataLayout() == ActivationLayout::NCHW;
    SmallVector<int64_t> accShape =
        nchw ? SmallVector<int64_t>{n, groups, fg, oh, ow}
             : SmallVector<int64_t>{n, oh, ow, groups, fg};
    SmallVector<AffineExpr> outExprs =
        nchw ? SmallVector<AffineExpr>{d(0), d(3), d(4), d(1), d(2)}
             : SmallVector<AffineExpr>{d(0), d(1), d(2), d(3), d(4)};
    AffineMap inMap = AffineMap::get(8, 0, inExprs, ctx);
    AffineMap wMap = AffineMap::get(8, 0, wExprs, ctx);
    AffineMap outMap = AffineMap::get(8, 0, outExprs, ctx);

    std::optional<SmallVector<int64_t>> weights =
        getConstantInts(op.getWeight());
    Type i32 = rewriter.getI32Type();
    Value acc = emptyFilled(rewriter, loc, accShape, i32, 0);
    bool decomposed = weights.has_value();
    auto contraction = linalg::GenericOp::create(
        rewriter, loc, TypeRange{acc.getType()}, ValueRange{input, weight},
        ValueRange{acc}, ArrayRef<AffineMap>{inMap, wMap, outMap},
        iterators(5, 3), [&](OpBuilder &b, Location l, ValueRange args) {
          Value x = extendTo(b, l, args[0], i32, inUnsigned);
          Value w = extendTo(b, l, args[1], i32, wUnsigned);
          if (!decomposed) {
            x = arith::SubIOp::create(b, l, x, intConst(b, l, i32, inputZp));
            w = arith::SubIOp::create(b, l, w, intConst(b, l, i32, weightZp));
          }
          Value p = arith::MulIOp::create(b, l, x, w);
          linalg::YieldOp::create(
              b, l, arith::AddIOp::create(b, l, args[2], p).getResult());
        });
    Value result = contraction.getResult(0);

    if (decomposed) {
      // sum (x - izp)(w - wzp) = sum x*w - izp*sum(w) - wzp*sum(x)
      //                          + K*izp*wzp.
      int64_t k = kh * kw * cg;
      SmallVector<int64_t> sums(outChannels, 0);
      ArrayRef<int64_t> wshape = weightType.getShape();
      for (int64_t idx = 0, e = weights->size(); idx < e; ++idx) {
        int64_t rem = idx, coords[4];
        for (int dim = 3; dim >= 0; --dim) {
          coords[dim] = rem % wshape[dim];
          rem /= wshape[dim];
        }
        sums[coords[kd.o]] += (*weights)[idx];
      }
      SmallVector<int64_t> correction(outChannels);
      bool anyCorrection = false;
      for (int64_t o = 0; o < outChannels; ++o) {
        correction[o] =
            static_cast<int32_t>(k * inputZp * weightZp - inputZp * sums[o]);
        anyCorrection |= correction[o] != 0;
      }
      Value windowSum;
      if (weightZp != 0) {
        // S[n, oh, ow, g] = sum over the window and the group's channels.
        SmallVector<int64_t> sumShape =
            nchw ? SmallVector<int64_t>{n, groups, oh, ow}
                 : SmallVector<int64_t>{n, oh, ow, groups};
        SmallVector<AffineExpr> sumExprs =
            nchw ? SmallVector<AffineExpr>{d(0), d(3), d(1), d(2)}
                 : SmallVector<AffineExpr>{d(0), d(1), d(2), d(3)};
        // Reuse the iteration space without fg: n, oh, ow, g | kh, kw, cg
        // is obtained by dropping d4 (kept as a unit-free dim).
        SmallVector<AffineExpr> inExprs7(4), sumExprs7;
        auto remap = [&](AffineExpr e) {
          return e.replaceDims(
              {d(0), d(1), d(2), d(3), d(3), d(4), d(5), d(6)});
        };
        for (int i = 0; i < 4; ++i)
          inExprs7[i] = remap(inExprs[i]);
        for (AffineExpr e : sumExprs)
          sumExprs7.push_back(remap(e));
        Value sumInit = emptyFilled(rewriter, loc, sumShape, i32, 0);
        // The window shape, only to give the reduction loops their bounds.
        Value window = tensor::EmptyOp::create(
            rewriter, loc, ArrayRef<int64_t>{kh, kw, cg}, rewriter.getI8Type());
        windowSum =
            linalg::GenericOp::create(
                rewriter, loc, TypeRange{sumInit.getType()},
                ValueRange{input, window}, ValueRange{sumInit},
                ArrayRef<AffineMap>{
                    AffineMap::get(7, 0, inExprs7, ctx),
                    AffineMap::get(7, 0, {d(4), d(5), d(6)}, ctx),
                    AffineMap::get(7, 0, sumExprs7, ctx)},
                iterators(4, 3),
                [&](OpBuilder &b, Location l, ValueRange args) {
                  Value x = extendTo(b, l, args[0], i32, inUnsigned);
                  linalg::YieldOp::create(
                      b, l,
                      arith::AddIOp::create(b, l, args[2], x).getResult());
                })
                .getResult(0);
      }
      if (anyCorrection || windowSum) {
        SmallVector<Value> inputs = {result};
        // Iteration space of the accumulator: n, oh, ow, g, fg (NHWC) or
        // n, g, fg, oh, ow (NCHW).
        auto e = [&](unsigned i) { return rewriter.getAffineDimExpr(i); };
        unsigned gDim = nchw ? 1 : 3, fgDim = nchw ? 2 : 4;
        SmallVector<AffineMap> maps = {rewriter.getMultiDimIdentityMap(5)};
        Value corrTensor = arith::ConstantOp::create(
            rewriter, loc,
            DenseElementsAttr::get(
                RankedTensorType::get({groups, fg}, i32),
                llvm::to_vector(llvm::map_range(correction, [](int64_t v) {
                  return APInt(32, v, true, true);
                }))));
        inputs.push_back(corrTensor);
        maps.push_back(AffineMap::get(5, 0, {e(gDim), e(fgDim)}, ctx));
        if (windowSum) {
          inputs.push_back(windowSum);
          maps.push_back(
              nchw ? AffineMap::get(5, 0, {e(0), e(1), e(3), e(4)}, ctx)
                   : AffineMap::get(5, 0, {e(0), e(1), e(2), e(3)}, ctx));
        }
        maps.push_back(rewriter.getMultiDimIdentityMap(5));
        Value init = tensor::EmptyOp::create(rewriter, loc, accShape, i32);
        result = linalg::GenericOp::create(
                     rewriter, loc, TypeRange{init.getType()}, inputs,
                     ValueRange{init}, maps, iterators(5, 0),
                     [&](OpBuilder &b, Location l, ValueRange args) {
                       Value v = arith::AddIOp::create(b, l, args[0], args[1]);
                       if (windowSum)
                         v = arith::SubIOp::create(
                             b, l, v,
                             arith::MulIOp::create(
                                 b, l, args[2], intConst(b, l, i32, weightZp)));
                       linalg::YieldOp::create(b, l, v);
                     })
                     .getResult(0);
      }
    }

    SmallVector<ReassociationIndices> reassociation =
        nchw ? SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}, {4}}
             : SmallVector<ReassociationIndices>{{0}, {1}, {2}, {3, 4}};
    rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(
        op, signlessTensor(resultType), result, reassociation);
    return success();
  }

  std::string target;
  int64_t depthwiseSelfPaddingMinBytes;
};

struct DenseLowering : OpConversionPattern<DenseOp> {
  DenseLowering(const TypeConverter &converter, MLIRContext *ctx,
                StringRef target)
      : OpConversionPattern(converter, ctx), target(target.str()) {}

  LogicalResult
  matchAndRewrite(DenseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (std::optional<KernelFlavor> flavor = flavorForTarget(target)) {
      FailureOr<Value> fast = lowerDenseWithKernel(
          rewriter, ConvKernelRequest::of(op), adaptor.getInput(), *flavor);
      if (succeeded(fast)) {
        rewriter.replaceOp(op, *fast);
        return success();
      }
    }
    Location loc = op.getLoc();
    auto inputType = op.getInput().getType();
    auto weightType = op.getWeight().getType();
    auto resultType = op.getOutput().getType();
    if (!inputType.hasStaticShape() || !weightType.hasStaticShape())
      return op.emitOpError("lowering needs static shapes");
    MLIRContext *ctx = rewriter.getContext();
    bool inUnsigned = isUnsignedElement(inputType);
    bool wUnsigned = isUnsignedElement(weightType);
    int64_t inputZp = static_cast<int32_t>(op.getInputZeroPoint());
    int64_t weightZp = static_cast<int32_t>(op.getWeightZeroPoint());
    int64_t n = inputType.getDimSize(0), k = inputType.getDimSize(1);
    int64_t outChannels = weightType.getDimSize(0);
    Type i32 = rewriter.getI32Type();
    auto d = [&](unsigned i) { return rewriter.getAffineDimExpr(i); };
    std::optional<SmallVector<int64_t>> weights =
        getConstantInts(op.getWeight());
    bool decomposed = weights.has_value();
    Value acc = emptyFilled(rewriter, loc, {n, outChannels}, i32, 0);
    Value
        result =
            linalg::GenericOp::create(
                rewriter, loc, TypeRange{acc.getType()},
                ValueRange{adaptor.getInput(), adaptor.getWeight()},
                ValueRange{acc},
                ArrayRef<AffineMap>{AffineMap::get(3, 0, {d(0), d(2)}, ctx),
                                    AffineMap::get(3, 0, {d(1), d(2)}, ctx),
                                    AffineMap::get(3, 0, {d(0), d(1)}, ctx)},
                iterators(2, 1),
                [&](OpBuilder &b, Location l, ValueRange args) {
                  Value x = extendTo(b, l, args[0], i32, inUnsigned);
                  Value w = extendTo(b, l, args[1], i32, wUnsigned);
                  if (!decomposed) {
                    x = arith::SubIOp::create(b, l, x,
                                              intConst(b, l, i32, inputZp));
                    w = arith::SubIOp::create(b, l, w,
                                              intConst(b, l, i32, weightZp));
                  }
                  Value p = arith::MulIOp::create(b, l, x, w);
                  linalg::YieldOp::create(
                      b, l,
                      arith::AddIOp::create(b, l, args[2], p).getResult());
                })
                .getResult(0);
    if (decomposed) {
      SmallVector<int64_t> correction(outChannels);
      bool anyCorrection = false;
      for (int64_t o = 0; o < outChannels; ++o) {
        int64_t sum = 0;
        for (int64_t i = 0; i < k; ++i)
          sum += (*weights)[o * k + i];
        correction[o] =
            static_cast<int32_t>(k * inputZp * weightZp - inputZp * sum);
        anyCorrection |= correction[o] != 0;
      }
      Value rowSum;
      if (weightZp != 0) {
        Value sumInit = emptyFilled(rewriter, loc, {n}, i32, 0);
        rowSum =
            linalg::GenericOp::create(
                rewriter, loc, TypeRange{sumInit.getType()},
                ValueRange{adaptor.getInput()}, ValueRange{sumInit},
                ArrayRef<AffineMap>{AffineMap::get(2, 0, {d(0), d(1)}, ctx),
                                    AffineMap::get(2, 0, {d(0)}, ctx)},
                iterators(1, 1),
                [&](OpBuilder &b, Location l, ValueRange args) {
                  Value x = extendTo(b, l, args[0], i32, inUnsigned);
                  linalg::YieldOp::create(
                      b, l,
                      arith::AddIOp::create(b, l, args[1], x).getResult());
                })
                .getResult(0);
      }
      if (anyCorrection || rowSum) {
        SmallVector<Value> inputs = {
            result, constTensor(rewriter, loc, i32, correction)};
        SmallVector<AffineMap> maps = {rewriter.getMultiDimIdentityMap(2),
                                       AffineMap::get(2, 0, {d(1)}, ctx)};
        if (rowSum) {
          inputs.push_back(rowSum);
          maps.push_back(AffineMap::get(2, 0, {d(0)}, ctx));
        }
        maps.push_back(rewriter.getMultiDimIdentityMap(2));
        Value init = tensor::EmptyOp::create(
            rewriter, loc, ArrayRef<int64_t>{n, outChannels}, i32);
        result = linalg::GenericOp::create(
                     rewriter, loc, TypeRange{init.getType()}, inputs,
                     ValueRange{init}, maps, iterators(2, 0),
                     [&](OpBuilder &b, Location l, ValueRange args) {
                       Value v = arith::AddIOp::create(b, l, args[0], args[1]);
                       if (rowSum)
                         v = arith::SubIOp::create(
                             b, l, v,
                             arith::MulIOp::create(
                                 b, l, args[2], intConst(b, l, i32, weightZp)));
                       linalg::YieldOp::create(b, l, v);
                     })
                     .getResult(0);
      }
    }
    (void)resultType;
    rewriter.replaceOp(op, result);
    return success();
  }

  std::string target;
};

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

template <typename PoolOp> struct PoolLowering : OpConversionPattern<PoolOp> {
  using OpConversionPattern<PoolOp>::OpConversionPattern;
  using OpAdaptor = typename PoolOp::Adaptor;
  static constexpr bool isAverage = std::is_same_v<PoolOp, AvgPool2DOp>;

  LogicalResult
  matchAndRewrite(PoolOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inputType = op.getInput().getType();
    auto resultType = op.getOutput().getType();
    if (!inputType.hasStaticShape() || !resultType.hasStaticShape())
      return op.emitOpError("lowering needs static shapes");
    MLIRContext *ctx = rewriter.getContext();
    bool isUnsigned = isUnsignedElement(inputType);
    Type storage = signless(inputType.getElementType());
    auto [qmin, qmax] = getStorageRange(inputType.getElementType());
    ActivationDims ad = getActivationDims(op.getDataLayout());
    ArrayRef<int64_t> strides = op.getStrides();
    int64_t ih = inputType.getDimSize(ad.h), iw = inputType.getDimSize(ad.w);
    int64_t oh = resultType.getDimSize(ad.h), ow = resultType.getDimSize(ad.w);
    // Window parts that never overlap the input are dropped, so a window of
    // 2^30 columns pads and iterates over what the input has.
    PoolWindow1D wh = trimPoolWindow(ih, oh, op.getKernel()[0], strides[0],
                                     op.getPadding()[0], op.getPadding()[2]);
    PoolWindow1D ww = trimPoolWindow(iw, ow, op.getKernel()[1], strides[1],
                                     op.getPadding()[1], op.getPadding()[3]);
    SmallVector<int64_t> kernel = {wh.kernel, ww.kernel};
    SmallVector<int64_t> padding = {wh.padBefore, ww.padBefore, wh.padAfter,
                                    ww.padAfter};
    // Padding contributes nothing: 0 to a sum (and is not counted), the
    // storage minimum to a maximum.
    Value input = padSpatial(rewriter, loc, adaptor.getInput(), ad, padding,
                             isAverage ? 0 : qmin);
    auto d = [&](unsigned i) { return rewriter.getAffineDimExpr(i); };
    // Iteration space: n, oh, ow, c | kh, kw.
    SmallVector<AffineExpr> inExprs(4), outExprs(4);
    inExprs[ad.n] = d(0);
    inExprs[ad.h] = d(1) * strides[0] + d(4);
    inExprs[ad.w] = d(2) * strides[1] + d(5);
    inExprs[ad.c] = d(3);
    outExprs[ad.n] = d(0);
    outExprs[ad.h] = d(1);
    outExprs[ad.w] = d(2);
    outExprs[ad.c] = d(3);
    AffineMap inMap = AffineMap::get(6, 0, inExprs, ctx);
    AffineMap outMap = AffineMap::get(6, 0, outExprs, ctx);
    Type accType = isAverage ? Type(rewriter.getI64Type()) : storage;
    Value init = emptyFilled(rewriter, loc, resultType.getShape(), accType,
                             isAverage ? 0 : qmin);
    // The window shape, only to give the reduction loops their bounds.
    Value window = tensor::EmptyOp::create(
        rewriter, loc, ArrayRef<int64_t>{kernel[0], kernel[1]},
        rewriter.getI8Type());
    AffineMap windowMap = AffineMap::get(6, 0, {d(4), d(5)}, ctx);
    Value reduced =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{init.getType()}, ValueRange{input, window},
            ValueRange{init}, ArrayRef<AffineMap>{inMap, windowMap, outMap},
            iterators(4, 2),
            [&](OpBuilder &b, Location l, ValueRange args) {
              Value v;
              if (isAverage)
                v = arith::AddIOp::create(
                    b, l, args[2],
                    extendTo(b, l, args[0], b.getI64Type(), isUnsigned));
              else if (isUnsigned)
                v = arith::MaxUIOp::create(b, l, args[0], args[2]);
              else
                v = arith::MaxSIOp::create(b, l, args[0], args[2]);
              linalg::YieldOp::create(b, l, v);
            })
            .getResult(0);
    if constexpr (isAverage) {
      // Count of window positions inside the input, per output position.
      SmallVector<int64_t> counts;
      for (int64_t y = 0; y < oh; ++y)
        for (int64_t x = 0; x < ow; ++x) {
          counts.push_back(
              windowOverlap(y * strides[0] - padding[0], kernel[0], ih)
                  .count() *
              windowOverlap(x * strides[1] - padding[1], kernel[1], iw)
                  .count());
        }
      Value countTensor = arith::ConstantOp::create(
          rewriter, loc,
          DenseElementsAttr::get(
              RankedTensorType::get({oh, ow}, rewriter.getI64Type()),
              llvm::ArrayRef(counts)));
      SmallVector<AffineExpr> hw = {d(ad.h), d(ad.w)};
      Value out = tensor::EmptyOp::create(rewriter, loc, resultType.getShape(),
                                          storage);
      reduced =
          linalg::GenericOp::create(
              rewriter, loc, TypeRange{out.getType()},
              ValueRange{reduced, countTensor}, ValueRange{out},
              ArrayRef<AffineMap>{rewriter.getMultiDimIdentityMap(4),
                                  AffineMap::get(4, 0, hw, ctx),
                                  rewriter.getMultiDimIdentityMap(4)},
              iterators(4, 0),
              [&](OpBuilder &b, Location l, ValueRange args) {
                Type i64 = b.getI64Type();
                Value sum = args[0], count = args[1];
                Value half =
                    arith::DivSIOp::create(b, l, count, intConst(b, l, i64, 2));
                Value nonNegative =
                    arith::CmpIOp::create(b, l, arith::CmpIPredicate::sge, sum,
                                          intConst(b, l, i64, 0));
                Value numerator = arith::SelectOp::create(
                    b, l, nonNegative, arith::AddIOp::create(b, l, sum, half),
                    arith::SubIOp::create(b, l, sum, half));
                Value avg = arith::DivSIOp::create(b, l, numerator, count);
                linalg::YieldOp::create(
                    b, l, extendTo(b, l, avg, storage, /*isUnsigned=*/false));
              })
              .getResult(0);
    }
    (void)qmax;
    rewriter.replaceOp(op, reduced);
    return success();
  }
};

/// qnn.rescale_avg_pool2d (ONNX Runtime's QLinearAveragePool): dequantize
/// to float32, pad with 0.0 (which leaves every partial sum unchanged, so
/// the sum over the padded window equals ONNX Runtime's over the clipped
/// one, in the same row order), a float32 reduction over the window (lowered
/// to loops in iteration order, never reassociated), then the division and
/// the quantize of qmath::onnxAvgPoolOutput.
struct RescaleAvgPoolLowering : OpConversionPattern<RescaleAvgPool2DOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(RescaleAvgPool2DOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inputType = op.getInput().getType();
    auto resultType = op.getOutput().getType();
    if (!inputType.hasStaticShape() || !resultType.hasStaticShape())
      return op.emitOpError("lowering needs static shapes");
    MLIRContext *ctx = rewriter.getContext();
    bool isUnsigned = isUnsignedElement(inputType);
    Type storage = signless(resultType.getElementType());
    int64_t qmin, qmax;
    std::tie(qmin, qmax) = getStorageRange(resultType.getElementType());
    Type f32 = rewriter.getF32Type();
    ActivationDims ad = getActivationDims(op.getDataLayout());
    ArrayRef<int64_t> strides = op.getStrides();
    int64_t ih = inputType.getDimSize(ad.h), iw = inputType.getDimSize(ad.w);
    int64_t oh = resultType.getDimSize(ad.h), ow = resultType.getDimSize(ad.w);
    PoolWindow1D wh = trimPoolWindow(ih, oh, op.getKernel()[0], strides[0],
                                     op.getPadding()[0], op.getPadding()[2]);
    PoolWindow1D ww = trimPoolWindow(iw, ow, op.getKernel()[1], strides[1],
                                     op.getPadding()[1], op.getPadding()[3]);
    SmallVector<int64_t> padding = {wh.padBefore, ww.padBefore, wh.padAfter,
                                    ww.padAfter};
    float inScale = op.getInputScale().convertToFloat();
    int32_t inZp = static_cast<int32_t>(op.getInputZeroPoint());
    float outScale = op.getOutputScale().convertToFloat();
    int32_t outZp = static_cast<int32_t>(op.getOutputZeroPoint());
    auto f32Const = [](OpBuilder &b, Location l, float v) -> Value {
      return arith::ConstantOp::create(b, l, b.getF32FloatAttr(v));
    };
    // Dequantize: input_scale * float(q - input_zp).
    Value deqInit =
        tensor::EmptyOp::create(rewriter, loc, inputType.getShape(), f32);
    Value deq =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{deqInit.getType()},
            ValueRange{adaptor.getInput()}, ValueRange{deqInit},
            ArrayRef<AffineMap>{rewriter.getMultiDimIdentityMap(4),
                                rewriter.getMultiDimIdentityMap(4)},
            iterators(4, 0),
            [&](OpBuilder &b, Location l, ValueRange args) {
              Type i32 = b.getI32Type();
              Value centered = arith::SubIOp::create(
                  b, l, extendTo(b, l, args[0], i32, isUnsigned),
                  intConst(b, l, i32, inZp));
              Value v = arith::MulFOp::create(
                  b, l, f32Const(b, l, inScale),
                  arith::SIToFPOp::create(b, l, f32, centered));
              linalg::YieldOp::create(b, l, v);
            })
            .getResult(0);
    Value padded = padSpatial(rewriter, loc, deq, ad, padding, 0);
    auto d = [&](unsigned i) { return rewriter.getAffineDimExpr(i); };
    SmallVector<AffineExpr> inExprs(4), outExprs(4);
    inExprs[ad.n] = d(0);
    inExprs[ad.h] = d(1) * strides[0] + d(4);
    inExprs[ad.w] = d(2) * strides[1] + d(5);
    inExprs[ad.c] = d(3);
    outExprs[ad.n] = d(0);
    outExprs[ad.h] = d(1);
    outExprs[ad.w] = d(2);
    outExprs[ad.c] = d(3);
    Value zero = f32Const(rewriter, loc, 0.0f);
    Value sumInit = linalg::FillOp::create(
                        rewriter, loc, zero,
                        ValueRange{tensor::EmptyOp::create(
                            rewriter, loc, resultType.getShape(), f32)})
                        .getResult(0);
    Value window = tensor::EmptyOp::create(
        rewriter, loc, ArrayRef<int64_t>{wh.kernel, ww.kernel},
        rewriter.getI8Type());
    Value sum =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{sumInit.getType()},
            ValueRange{padded, window}, ValueRange{sumInit},
            ArrayRef<AffineMap>{AffineMap::get(6, 0, inExprs, ctx),
                                AffineMap::get(6, 0, {d(4), d(5)}, ctx),
                                AffineMap::get(6, 0, outExprs, ctx)},
            iterators(4, 2),
            [&](OpBuilder &b, Location l, ValueRange args) {
              linalg::YieldOp::create(
                  b, l, arith::AddFOp::create(b, l, args[2], args[0]).getResult());
            })
            .getResult(0);
    // The divisor per output position.
    SmallVector<float> counts;
    int64_t fullKernel = op.getKernel()[0] * op.getKernel()[1];
    for (int64_t y = 0; y < oh; ++y)
      for (int64_t x = 0; x < ow; ++x) {
        int64_t clipped =
            windowOverlap(y * strides[0] - op.getPadding()[0],
                          op.getKernel()[0], ih)
                .count() *
            windowOverlap(x * strides[1] - op.getPadding()[1],
                          op.getKernel()[1], iw)
                .count();
        counts.push_back(static_cast<float>(
            op.getCountIncludePad() ? fullKernel : clipped));
      }
    Value countTensor = arith::ConstantOp::create(
        rewriter, loc,
        DenseElementsAttr::get(RankedTensorType::get({oh, ow}, f32),
                               llvm::ArrayRef(counts)));
    SmallVector<AffineExpr> hw = {d(ad.h), d(ad.w)};
    Value outInit =
        tensor::EmptyOp::create(rewriter, loc, resultType.getShape(), storage);
    Value result =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{outInit.getType()},
            ValueRange{sum, countTensor}, ValueRange{outInit},
            ArrayRef<AffineMap>{rewriter.getMultiDimIdentityMap(4),
                                AffineMap::get(4, 0, hw, ctx),
                                rewriter.getMultiDimIdentityMap(4)},
            iterators(4, 0),
            [&](OpBuilder &b, Location l, ValueRange args) {
              Value avg = arith::DivFOp::create(b, l, args[0], args[1]);
              Value v = arith::AddFOp::create(
                  b, l, arith::DivFOp::create(b, l, avg, f32Const(b, l, outScale)),
                  f32Const(b, l, static_cast<float>(outZp)));
              v = mlir::math::RoundEvenOp::create(b, l, v);
              v = arith::MaximumFOp::create(b, l, v,
                                            f32Const(b, l, -1099511627776.0f));
              v = arith::MinimumFOp::create(b, l, v,
                                            f32Const(b, l, 1099511627776.0f));
              Value i = arith::FPToSIOp::create(b, l, b.getI64Type(), v);
              linalg::YieldOp::create(b, l,
                                      clampAndNarrow(b, l, i, qmin, qmax, storage));
            })
            .getResult(0);
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Add, mul (broadcasting elementwise)
//===----------------------------------------------------------------------===//

static AffineMap broadcastMap(OpBuilder &b, RankedTensorType operand,
                              RankedTensorType result) {
  int64_t rank = result.getRank(), offset = rank - operand.getRank();
  SmallVector<AffineExpr> exprs;
  for (int64_t i = 0; i < operand.getRank(); ++i) {
    if (operand.getDimSize(i) == 1 && result.getDimSize(i + offset) != 1)
      exprs.push_back(b.getAffineConstantExpr(0));
    else
      exprs.push_back(b.getAffineDimExpr(i + offset));
  }
  return AffineMap::get(rank, 0, exprs, b.getContext());
}

template <typename BinaryOp>
struct BinaryLowering : OpConversionPattern<BinaryOp> {
  using OpAdaptor = typename BinaryOp::Adaptor;
  /// `addAffine`: ADD and SUB of 8-bit operands under TFLite's rules take
  /// their integer affine form where one is exact (qmath::fitAddAffine).
  BinaryLowering(const TypeConverter &converter, MLIRContext *ctx,
                 bool addAffine = false)
      : OpConversionPattern<BinaryOp>(converter, ctx), addAffine(addAffine) {}
  bool addAffine;
  /// The fits made so far by this pattern (one pass run), by their
  /// parameters: fitting checks all 65536 operand pairs (0.3-1.5 ms), and
  /// a network's repeated blocks, or a module of several networks, give
  /// many operators the same parameters. (The conversion driver applies
  /// the patterns of one run on one thread.)
  using FitKey =
      std::tuple<int32_t, int32_t, int32_t, int, int32_t, int32_t, int32_t,
                 int32_t, int32_t, int32_t, int, bool, int64_t, int64_t>;
  mutable std::map<FitKey, std::optional<qmath::AddAffine>> fits;

  std::optional<qmath::AddAffine> fit(const qmath::AddParams &p,
                                      qmath::RoundingRule rule, bool isUnsigned,
                                      int64_t qmin, int64_t qmax) const {
    FitKey key{p.lhsOffset,
               p.rhsOffset,
               p.outputOffset,
               p.leftShift,
               p.lhs.multiplier,
               p.lhs.shift,
               p.rhs.multiplier,
               p.rhs.shift,
               p.output.multiplier,
               p.output.shift,
               static_cast<int>(rule),
               isUnsigned,
               qmin,
               qmax};
    auto [it, inserted] = fits.try_emplace(key);
    if (inserted)
      it->second = qmath::fitAddAffine(p, rule, isUnsigned, qmin, qmax);
    return it->second;
  }

  LogicalResult
  matchAndRewrite(BinaryOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = op.getOutput().getType();
    if (!resultType.hasStaticShape())
      return op.emitOpError("lowering needs static shapes");
    bool isUnsigned = isUnsignedElement(resultType);
    Type storage = signless(resultType.getElementType());
    int64_t qmin, qmax;
    std::tie(qmin, qmax) = getStorageRange(resultType.getElementType());
    float lhsScale = op.getLhsScale().convertToFloat();
    float rhsScale = op.getRhsScale().convertToFloat();
    float outScale = op.getOutputScale().convertToFloat();
    int32_t lhsZp = static_cast<int32_t>(op.getLhsZeroPoint());
    int32_t rhsZp = static_cast<int32_t>(op.getRhsZeroPoint());
    int32_t outZp = static_cast<int32_t>(op.getOutputZeroPoint());
    int64_t rank = resultType.getRank();
    Value init =
        tensor::EmptyOp::create(rewriter, loc, resultType.getShape(), storage);
    bool single = op.getRounding() == Rounding::tflite_single;
    auto mbqm = [single](OpBuilder &b, Location l, Value x,
                         qmath::QuantizedMultiplier m) {
      Value multiplier = intConst(b, l, b.getI64Type(), m.multiplier);
      Value left = intConst(b, l, b.getI32Type(), m.shift > 0 ? m.shift : 0);
      Value right = intConst(b, l, b.getI64Type(), m.shift > 0 ? 0 : -m.shift);
      return single ? emitSingleRoundingMultiply(b, l, x, multiplier, left,
                                                 right)
                    : emitMultiplyByQuantizedMultiplier(b, l, x, multiplier,
                                                        left, right);
    };
    // TFLite's ADD-style operand scaling: (x + offset) << left_shift, then
    // the operand's multiplier.
    auto scaledOperands = [&](OpBuilder &b, Location l, Value lhs, Value rhs,
                              const qmath::AddParams &p) {
      Type i32 = b.getI32Type();
      auto scale = [&](Value x, int32_t offset,
                       qmath::QuantizedMultiplier m) {
        Value shifted = arith::ShLIOp::create(
            b, l, arith::AddIOp::create(b, l, x, intConst(b, l, i32, offset)),
            intConst(b, l, i32, p.leftShift));
        return mbqm(b, l, shifted, m);
      };
      return std::make_pair(scale(lhs, p.lhsOffset, p.lhs),
                            scale(rhs, p.rhsOffset, p.rhs));
    };
    // DIV: TFLite's sequence (qmath::divQuantized) tabulated over the 256 x
    // 256 pairs of stored bytes, indexed by (lhs byte << 8) | rhs byte.
    Value divTable;
    if constexpr (std::is_same_v<BinaryOp, DivOp>) {
      qmath::QuantizedMultiplier m =
          qmath::tfliteDivMultiplier(lhsScale, rhsScale, outScale);
      SmallVector<int64_t> table;
      table.reserve(65536);
      for (int64_t a = 0; a < 256; ++a)
        for (int64_t c = 0; c < 256; ++c)
          table.push_back(qmath::divQuantized(
              isUnsigned ? a : static_cast<int8_t>(a),
              isUnsigned ? c : static_cast<int8_t>(c), lhsZp, rhsZp, m, outZp,
              qmin, qmax));
      divTable = constTensor(rewriter, loc, storage, table);
    }
    // ADD and SUB of 8-bit operands as one affine form, exact on every
    // pair of stored values: two i32 multiplies, adds and a shift per lane
    // where TFLite's sequence takes three rescales (six 32x32->64-bit
    // multiplies).
    // (The verifier gives operands and result one 8-bit element type;
    // fitAddAffine refuses rules other than TFLite's.)
    std::optional<qmath::AddAffine> affine;
    if constexpr (std::is_same_v<BinaryOp, AddOp> ||
                  std::is_same_v<BinaryOp, SubtractOp>) {
      if (addAffine)
        affine = fit((std::is_same_v<BinaryOp, SubtractOp>
                          ? qmath::computeSubParams
                          : qmath::computeAddParams)(lhsScale, lhsZp, rhsScale,
                                                     rhsZp, outScale, outZp),
                     toRoundingRule(op.getRounding()), isUnsigned, qmin, qmax);
    }
    auto body = [&](OpBuilder &b, Location l, ValueRange args) {
      Type i32 = b.getI32Type(), i64 = b.getI64Type();
      if (affine) {
        // One statement per value: the IR is the same whatever the C++
        // compiler's order of evaluating arguments.
        auto term = [&](Value x, int32_t k) -> Value {
          Value wide = extendTo(b, l, x, i32, isUnsigned);
          Value factor = intConst(b, l, i32, k);
          return arith::MulIOp::create(b, l, wide, factor);
        };
        Value lhsTerm = term(args[0], affine->a);
        Value rhsTerm = term(args[1], affine->c);
        Value sum = arith::AddIOp::create(b, l, lhsTerm, rhsTerm);
        Value d = intConst(b, l, i32, affine->d);
        Value v = arith::AddIOp::create(b, l, sum, d);
        Value q = intConst(b, l, i32, affine->q);
        v = arith::ShRSIOp::create(b, l, v, q);
        linalg::YieldOp::create(
            b, l,
            addZeroPointClampAndNarrow(b, l, v, affine->zeroPoint, qmin, qmax,
                                       storage));
        return;
      }
      // TFLite's sequences end in an i32 rescaled value plus an offset:
      // the i32 is clamped to the range less the offset, then the offset
      // added (addZeroPointClampAndNarrow), on 32-bit lanes (adding the
      // offset to the i64 first left the clamp on 64-bit lanes, which AVX2
      // has no min or max for).
      auto yieldWithOffset = [&](Value rescaled, int64_t offset) {
        linalg::YieldOp::create(
            b, l,
            addZeroPointClampAndNarrow(b, l, rescaled, offset, qmin, qmax,
                                       storage));
      };
      Value lhs = extendTo(b, l, args[0], i32, isUnsigned);
      Value rhs = extendTo(b, l, args[1], i32, isUnsigned);
      Value out;
      constexpr bool subtract = std::is_same_v<BinaryOp, SubtractOp>;
      if constexpr (std::is_same_v<BinaryOp, DivOp>) {
        Value byteMask = intConst(b, l, i32, 255);
        Value index = arith::OrIOp::create(
            b, l,
            arith::ShLIOp::create(b, l,
                                  arith::AndIOp::create(b, l, lhs, byteMask),
                                  intConst(b, l, i32, 8)),
            arith::AndIOp::create(b, l, rhs, byteMask));
        Value entry = tensor::ExtractOp::create(
            b, l, divTable,
            ValueRange{arith::IndexCastOp::create(b, l, b.getIndexType(),
                                                  index)});
        linalg::YieldOp::create(b, l, entry);
        return;
      }
      if (op.getRounding() == Rounding::upward ||
          op.getRounding() == Rounding::tonearest) {
        // TVM's sequences (qmath::addQuantizedTVM, mulQuantizedTVM): single
        // rounding fixed point on the exact product.
        bool toNearest = op.getRounding() == Rounding::tonearest;
        auto rescale = [&](Value x64, qmath::QuantizedMultiplier m) {
          Value r = emitSingleRoundingRescale(
              b, l, x64, intConst(b, l, i64, m.multiplier),
              intConst(b, l, i64, m.shift > 0 ? m.shift : 0),
              intConst(b, l, i64, m.shift > 0 ? 0 : -m.shift), toNearest);
          return arith::ExtSIOp::create(b, l, i64, r).getResult();
        };
        Value lhs64 = arith::ExtSIOp::create(b, l, i64, lhs);
        Value rhs64 = arith::ExtSIOp::create(b, l, i64, rhs);
        if constexpr (std::is_same_v<BinaryOp, MulOp>) {
          Value product = arith::MulIOp::create(
              b, l, arith::SubIOp::create(b, l, lhs64, intConst(b, l, i64, lhsZp)),
              arith::SubIOp::create(b, l, rhs64, intConst(b, l, i64, rhsZp)));
          out = arith::AddIOp::create(
              b, l,
              rescale(product,
                      qmath::tvmMulMultiplier(lhsScale, rhsScale, outScale)),
              intConst(b, l, i64, outZp));
        } else {
          auto operand = [&](Value x64, float scale, int32_t zp) -> Value {
            if (scale == outScale && zp == outZp)
              return x64;
            Value centered =
                arith::SubIOp::create(b, l, x64, intConst(b, l, i64, zp));
            return arith::AddIOp::create(
                b, l,
                rescale(centered,
                        qmath::tvmOperandMultiplier(scale, outScale)),
                intConst(b, l, i64, outZp));
          };
          Value a = operand(lhs64, lhsScale, lhsZp);
          Value c = operand(rhs64, rhsScale, rhsZp);
          out = subtract
                    ? arith::AddIOp::create(
                          b, l, arith::SubIOp::create(b, l, a, c),
                          intConst(b, l, i64, outZp))
                          .getResult()
                    : arith::SubIOp::create(
                          b, l, arith::AddIOp::create(b, l, a, c),
                          intConst(b, l, i64, outZp))
                          .getResult();
        }
      } else if (op.getRounding() == Rounding::onnx) {
        // ONNX's QLinearAdd (qmath::addQuantizedONNX) in float32.
        Type f32 = b.getF32Type();
        auto f32Const = [&](float v) {
          return arith::ConstantOp::create(b, l, b.getF32FloatAttr(v))
              .getResult();
        };
        auto real = [&](Value x, int32_t zp, float scale) -> Value {
          Value centered =
              arith::SubIOp::create(b, l, x, intConst(b, l, i32, zp));
          return arith::MulFOp::create(
              b, l, f32Const(scale),
              arith::SIToFPOp::create(b, l, f32, centered));
        };
        Value lhsReal = real(lhs, lhsZp, lhsScale);
        Value rhsReal = real(rhs, rhsZp, rhsScale);
        if constexpr (std::is_same_v<BinaryOp, MulOp>) {
          // QLinearMul (qmath::mulQuantizedONNX): the quotient is clamped
          // to the output range less the zero point before the zero point
          // is added in float32 and the sum rounded.
          Value v = arith::DivFOp::create(
              b, l, arith::MulFOp::create(b, l, lhsReal, rhsReal),
              f32Const(outScale));
          v = arith::MaximumFOp::create(
              b, l, v, f32Const(static_cast<float>(qmin - outZp)));
          v = arith::MinimumFOp::create(
              b, l, v, f32Const(static_cast<float>(qmax - outZp)));
          v = mlir::math::RoundEvenOp::create(
              b, l,
              arith::AddFOp::create(b, l, v,
                                    f32Const(static_cast<float>(outZp))));
          linalg::YieldOp::create(
              b, l,
              clampAndNarrow(b, l, arith::FPToSIOp::create(b, l, i64, v),
                             qmin, qmax, storage));
          return;
        }
        Value sum = subtract
                        ? arith::SubFOp::create(b, l, lhsReal, rhsReal)
                              .getResult()
                        : arith::AddFOp::create(b, l, lhsReal, rhsReal)
                              .getResult();
        Value v = mlir::math::RoundEvenOp::create(
            b, l, arith::DivFOp::create(b, l, sum, f32Const(outScale)));
        const float limit = 4611686018427387904.0f; // 2^62
        v = arith::MaximumFOp::create(b, l, v, f32Const(-limit));
        v = arith::MinimumFOp::create(b, l, v, f32Const(limit));
        out = arith::AddIOp::create(b, l, arith::FPToSIOp::create(b, l, i64, v),
                                    intConst(b, l, i64, outZp));
      } else if constexpr (std::is_same_v<BinaryOp, SquaredDifferenceOp>) {
        // qmath::squaredDifferenceQuantized.
        qmath::AddParams p = qmath::computeSquaredDifferenceParams(
            lhsScale, lhsZp, rhsScale, rhsZp, outScale, outZp);
        auto [a, c] = scaledOperands(b, l, lhs, rhs, p);
        Value diff = arith::SubIOp::create(b, l, a, c);
        Value squared = arith::MulIOp::create(b, l, diff, diff);
        yieldWithOffset(mbqm(b, l, squared, p.output), p.outputOffset);
        return;
      } else if constexpr (!std::is_same_v<BinaryOp, MulOp>) {
        // ADD, and SUB with the rhs multiplier negated.
        qmath::AddParams p =
            (subtract ? qmath::computeSubParams : qmath::computeAddParams)(
                lhsScale, lhsZp, rhsScale, rhsZp, outScale, outZp);
        auto [a, c] = scaledOperands(b, l, lhs, rhs, p);
        Value sum = arith::AddIOp::create(b, l, a, c);
        yieldWithOffset(mbqm(b, l, sum, p.output), p.outputOffset);
        return;
      } else {
        qmath::QuantizedMultiplier m =
            qmath::computeMulMultiplier(lhsScale, rhsScale, outScale);
        Value product = arith::MulIOp::create(
            b, l, arith::SubIOp::create(b, l, lhs, intConst(b, l, i32, lhsZp)),
            arith::SubIOp::create(b, l, rhs, intConst(b, l, i32, rhsZp)));
        yieldWithOffset(mbqm(b, l, product, m), outZp);
        return;
      }
      linalg::YieldOp::create(b, l,
                              clampAndNarrow(b, l, out, qmin, qmax, storage));
    };
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{init.getType()},
        ValueRange{adaptor.getLhs(), adaptor.getRhs()}, ValueRange{init},
        ArrayRef<AffineMap>{
            broadcastMap(rewriter, op.getLhs().getType(), resultType),
            broadcastMap(rewriter, op.getRhs().getType(), resultType),
            rewriter.getMultiDimIdentityMap(rank)},
        iterators(rank, 0), body);
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

/// qnn.batch_matmul: the batch dimensions collapsed into one, then an i32
/// contraction over (b, m, n | k) of the zero-point-centred operands.
struct BatchMatMulLowering : OpConversionPattern<BatchMatMulOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BatchMatMulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto lhsType = op.getLhs().getType();
    auto rhsType = op.getRhs().getType();
    auto resultType = op.getOutput().getType();
    if (!lhsType.hasStaticShape() || !rhsType.hasStaticShape() ||
        !resultType.hasStaticShape())
      return op.emitOpError("lowering needs static shapes");
    int64_t rank = resultType.getRank();
    bool lhsUnsigned = isUnsignedElement(lhsType);
    bool rhsUnsigned = isUnsignedElement(rhsType);
    int32_t lzp = static_cast<int32_t>(op.getLhsZeroPoint());
    int32_t rzp = static_cast<int32_t>(op.getRhsZeroPoint());
    // The i32 sum of products of the centred operands.
    auto body = [&](OpBuilder &b, Location l, ValueRange args) {
      Type i32 = b.getI32Type();
      Value a = arith::SubIOp::create(
          b, l, extendTo(b, l, args[0], i32, lhsUnsigned),
          intConst(b, l, i32, lzp));
      Value c = arith::SubIOp::create(
          b, l, extendTo(b, l, args[1], i32, rhsUnsigned),
          intConst(b, l, i32, rzp));
      Value sum =
          arith::AddIOp::create(b, l, args[2], arith::MulIOp::create(b, l, a, c));
      linalg::YieldOp::create(b, l, sum);
    };
    MLIRContext *ctx = rewriter.getContext();
    auto d = [&](unsigned i) { return rewriter.getAffineDimExpr(i); };
    bool broadcast = false;
    for (int64_t dim = 0; dim < rank - 2; ++dim)
      broadcast |= lhsType.getDimSize(dim) != resultType.getDimSize(dim) ||
                   rhsType.getDimSize(dim) != resultType.getDimSize(dim);
    if (broadcast) {
      // Loops: batch..., m, n | k; a broadcast batch dimension reads index 0.
      auto operandMap = [&](RankedTensorType type, AffineExpr row,
                            AffineExpr column) {
        SmallVector<AffineExpr> exprs;
        for (int64_t dim = 0; dim < rank - 2; ++dim)
          exprs.push_back(type.getDimSize(dim) == 1
                              ? rewriter.getAffineConstantExpr(0)
                              : d(dim));
        exprs.push_back(row);
        exprs.push_back(column);
        return AffineMap::get(rank + 1, 0, exprs, ctx);
      };
      SmallVector<AffineExpr> outExprs;
      for (int64_t dim = 0; dim < rank; ++dim)
        outExprs.push_back(d(dim));
      SmallVector<AffineMap> maps = {
          operandMap(lhsType, d(rank - 2), d(rank)),
          operandMap(rhsType, d(rank), d(rank - 1)),
          AffineMap::get(rank + 1, 0, outExprs, ctx)};
      Value init = emptyFilled(rewriter, loc, resultType.getShape(),
                               rewriter.getI32Type(), 0);
      rewriter.replaceOp(
          op, linalg::GenericOp::create(
                  rewriter, loc, TypeRange{init.getType()},
                  ValueRange{adaptor.getLhs(), adaptor.getRhs()},
                  ValueRange{init}, maps, iterators(rank, 1), body)
                  .getResult(0));
      return success();
    }
    // [..., X, Y] <-> [B, X, Y].
    auto to3D = [&](Value v, RankedTensorType type) -> Value {
      int64_t batch = 1;
      for (int64_t d = 0; d < rank - 2; ++d)
        batch *= type.getDimSize(d);
      auto flat = RankedTensorType::get(
          {batch, type.getDimSize(rank - 2), type.getDimSize(rank - 1)},
          type.getElementType());
      if (rank == 3)
        return v;
      if (rank == 2)
        return tensor::ExpandShapeOp::create(
            rewriter, loc, flat, v,
            SmallVector<ReassociationIndices>{{0, 1}, {2}});
      ReassociationIndices lead;
      for (int64_t d = 0; d < rank - 2; ++d)
        lead.push_back(d);
      return tensor::CollapseShapeOp::create(
          rewriter, loc, flat, v,
          SmallVector<ReassociationIndices>{lead, {rank - 2}, {rank - 1}});
    };
    Value lhs = to3D(adaptor.getLhs(), lhsType);
    Value rhs = to3D(adaptor.getRhs(), rhsType);
    int64_t batch = 1;
    for (int64_t dim = 0; dim < rank - 2; ++dim)
      batch *= resultType.getDimSize(dim);
    auto flatResult = RankedTensorType::get(
        {batch, resultType.getDimSize(rank - 2),
         resultType.getDimSize(rank - 1)},
        rewriter.getI32Type());
    Value init = emptyFilled(rewriter, loc, flatResult.getShape(),
                             rewriter.getI32Type(), 0);
    // Loops: b, m, n | k.
    SmallVector<AffineMap> maps = {
        AffineMap::get(4, 0, {d(0), d(1), d(3)}, ctx),
        AffineMap::get(4, 0, {d(0), d(3), d(2)}, ctx),
        AffineMap::get(4, 0, {d(0), d(1), d(2)}, ctx)};
    Value flat =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{flatResult}, ValueRange{lhs, rhs},
            ValueRange{init}, maps, iterators(3, 1), body)
            .getResult(0);
    Value result = flat;
    if (rank == 2) {
      result = tensor::CollapseShapeOp::create(
          rewriter, loc, resultType, flat,
          SmallVector<ReassociationIndices>{{0, 1}, {2}});
    } else if (rank > 3) {
      ReassociationIndices lead;
      for (int64_t dim = 0; dim < rank - 2; ++dim)
        lead.push_back(dim);
      result = tensor::ExpandShapeOp::create(
          rewriter, loc, resultType, flat,
          SmallVector<ReassociationIndices>{lead, {rank - 2}, {rank - 1}});
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// qnn.prelu: TFLite's two rescales (qmath::preluQuantized), the alpha
/// operand broadcast through its indexing map.
struct PReluLowering : OpConversionPattern<PReluOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(PReluOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = op.getOutput().getType();
    if (!resultType.hasStaticShape() ||
        !op.getAlpha().getType().hasStaticShape())
      return op.emitOpError("lowering needs static shapes");
    bool inUnsigned = isUnsignedElement(resultType);
    bool alphaUnsigned = isUnsignedElement(op.getAlpha().getType());
    Type storage = signless(resultType.getElementType());
    int64_t qmin, qmax;
    std::tie(qmin, qmax) = getStorageRange(resultType.getElementType());
    qmath::PReluParams p = qmath::computePReluParams(
        op.getInputScale().convertToFloat(),
        op.getAlphaScale().convertToFloat(),
        op.getOutputScale().convertToFloat());
    int32_t inZp = static_cast<int32_t>(op.getInputZeroPoint());
    int32_t alphaZp = static_cast<int32_t>(op.getAlphaZeroPoint());
    int32_t outZp = static_cast<int32_t>(op.getOutputZeroPoint());
    bool single = op.getRounding() == Rounding::tflite_single;
    int64_t rank = resultType.getRank();
    Value init =
        tensor::EmptyOp::create(rewriter, loc, resultType.getShape(), storage);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{init.getType()},
        ValueRange{adaptor.getInput(), adaptor.getAlpha()}, ValueRange{init},
        ArrayRef<AffineMap>{
            rewriter.getMultiDimIdentityMap(rank),
            broadcastMap(rewriter, op.getAlpha().getType(), resultType),
            rewriter.getMultiDimIdentityMap(rank)},
        iterators(rank, 0), [&](OpBuilder &b, Location l, ValueRange args) {
          Type i32 = b.getI32Type(), i64 = b.getI64Type();
          auto rescale = [&](Value x, qmath::QuantizedMultiplier m) {
            Value multiplier = intConst(b, l, i64, m.multiplier);
            Value left = intConst(b, l, i32, m.shift > 0 ? m.shift : 0);
            Value right = intConst(b, l, i64, m.shift > 0 ? 0 : -m.shift);
            return single ? emitSingleRoundingMultiply(b, l, x, multiplier,
                                                       left, right)
                          : emitMultiplyByQuantizedMultiplier(
                                b, l, x, multiplier, left, right);
          };
          Value x = arith::SubIOp::create(
              b, l, extendTo(b, l, args[0], i32, inUnsigned),
              intConst(b, l, i32, inZp));
          Value a = arith::SubIOp::create(
              b, l, extendTo(b, l, args[1], i32, alphaUnsigned),
              intConst(b, l, i32, alphaZp));
          Value positive = rescale(x, p.positive);
          Value negative =
              rescale(arith::MulIOp::create(b, l, x, a), p.negative);
          Value isPositive = arith::CmpIOp::create(
              b, l, arith::CmpIPredicate::sge, x, intConst(b, l, i32, 0));
          Value y = arith::SelectOp::create(b, l, isPositive, positive,
                                            negative);
          Value out = arith::AddIOp::create(b, l,
                                            arith::ExtSIOp::create(b, l, i64, y),
                                            intConst(b, l, i64, outZp));
          linalg::YieldOp::create(b, l,
                                  clampAndNarrow(b, l, out, qmin, qmax, storage));
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Lookup-table activations, leaky ReLU, concatenate
//===----------------------------------------------------------------------===//

template <typename ActOp>
struct TableActivationLowering : OpConversionPattern<ActOp> {
  using OpConversionPattern<ActOp>::OpConversionPattern;
  using OpAdaptor = typename ActOp::Adaptor;

  LogicalResult
  matchAndRewrite(ActOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = op.getOutput().getType();
    auto inputType = op.getInput().getType();
    if (!resultType.hasStaticShape())
      return op.emitOpError("lowering needs static shapes");
    (void)inputType;
    // Leaky ReLU is a table only under ONNX's rule (LeakyReluLowering
    // computes TFLite's multipliers).
    std::optional<std::array<int32_t, 256>> maybeTable =
        buildActivationTable(op);
    if (!maybeTable)
      return failure();
    const std::array<int32_t, 256> &table = *maybeTable;
    Type storage = signless(resultType.getElementType());
    Value tableTensor =
        constTensor(rewriter, loc, storage,
                    SmallVector<int64_t>(table.begin(), table.end()));
    int64_t rank = resultType.getRank();
    Value init =
        tensor::EmptyOp::create(rewriter, loc, resultType.getShape(), storage);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{init.getType()},
        ValueRange{adaptor.getInput()}, ValueRange{init},
        ArrayRef<AffineMap>{rewriter.getMultiDimIdentityMap(rank),
                            rewriter.getMultiDimIdentityMap(rank)},
        iterators(rank, 0), [&](OpBuilder &b, Location l, ValueRange args) {
          // The table is indexed by the low byte of the stored value.
          Value index = arith::IndexCastUIOp::create(
              b, l, b.getIndexType(),
              arith::ExtUIOp::create(b, l, b.getI32Type(), args[0]));
          Value v = tensor::ExtractOp::create(b, l, tableTensor, index);
          linalg::YieldOp::create(b, l, v);
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

struct LeakyReluLowering : OpConversionPattern<LeakyReluOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(LeakyReluOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.getRounding() == Rounding::onnx)
      return failure(); // TableActivationLowering<LeakyReluOp>
    Location loc = op.getLoc();
    auto resultType = op.getOutput().getType();
    if (!resultType.hasStaticShape())
      return op.emitOpError("lowering needs static shapes");
    bool isUnsigned = isUnsignedElement(op.getInput().getType());
    Type storage = signless(resultType.getElementType());
    int64_t qmin, qmax;
    std::tie(qmin, qmax) = getStorageRange(resultType.getElementType());
    // The multipliers exactly as the reference computes them (in float32).
    qmath::LeakyReluParams params = qmath::computeLeakyReluParams(
        op.getInputScale().convertToFloat(), op.getAlpha().convertToFloat(),
        op.getOutputScale().convertToFloat());
    qmath::QuantizedMultiplier identity = params.identity;
    qmath::QuantizedMultiplier alphaM = params.alpha;
    bool single = op.getRounding() == Rounding::tflite_single;
    int32_t inZp = static_cast<int32_t>(op.getInputZeroPoint());
    int32_t outZp = static_cast<int32_t>(op.getOutputZeroPoint());
    int64_t rank = resultType.getRank();
    Value init =
        tensor::EmptyOp::create(rewriter, loc, resultType.getShape(), storage);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{init.getType()},
        ValueRange{adaptor.getInput()}, ValueRange{init},
        ArrayRef<AffineMap>{rewriter.getMultiDimIdentityMap(rank),
                            rewriter.getMultiDimIdentityMap(rank)},
        iterators(rank, 0), [&](OpBuilder &b, Location l, ValueRange args) {
          Type i32 = b.getI32Type(), i64 = b.getI64Type();
          Value x = arith::SubIOp::create(
              b, l, extendTo(b, l, args[0], i32, isUnsigned),
              intConst(b, l, i32, inZp));
          Value positive = arith::CmpIOp::create(
              b, l, arith::CmpIPredicate::sge, x, intConst(b, l, i32, 0));
          auto pick = [&](int64_t a, int64_t c, Type t) {
            return arith::SelectOp::create(b, l, positive, intConst(b, l, t, a),
                                           intConst(b, l, t, c))
                .getResult();
          };
          Value m = pick(identity.multiplier, alphaM.multiplier, i64);
          Value left =
              pick(std::max(identity.shift, 0), std::max(alphaM.shift, 0), i32);
          Value right = pick(std::max(-identity.shift, 0),
                             std::max(-alphaM.shift, 0), i64);
          Value y = arith::AddIOp::create(
              b, l,
              arith::ExtSIOp::create(
                  b, l, i64,
                  single ? emitSingleRoundingMultiply(b, l, x, m, left, right)
                         : emitMultiplyByQuantizedMultiplier(b, l, x, m, left,
                                                             right)),
              intConst(b, l, i64, outZp));
          linalg::YieldOp::create(b, l,
                                  clampAndNarrow(b, l, y, qmin, qmax, storage));
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

struct ConcatenateLowering : OpConversionPattern<ConcatenateOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ConcatenateOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = op.getOutput().getType();
    if (!resultType.hasStaticShape())
      return op.emitOpError("lowering needs static shapes");
    bool isUnsigned = isUnsignedElement(resultType);
    Type storage = signless(resultType.getElementType());
    int64_t qmin, qmax;
    std::tie(qmin, qmax) = getStorageRange(resultType.getElementType());
    float outScale = op.getOutputScale().convertToFloat();
    int32_t outZp = static_cast<int32_t>(op.getOutputZeroPoint());
    int64_t rank = resultType.getRank(), axis = op.getAxis();
    Value result =
        tensor::EmptyOp::create(rewriter, loc, resultType.getShape(), storage);
    int64_t offset = 0;
    for (auto [i, input] : llvm::enumerate(adaptor.getInputs())) {
      auto type = cast<RankedTensorType>(input.getType());
      float scale = op.getInputScales()[i];
      int32_t zp = op.getInputZeroPoints()[i];
      Value part = input;
      bool tvm = op.getRounding() == Rounding::upward ||
                 op.getRounding() == Rounding::tonearest;
      if ((scale != outScale || zp != outZp) && tvm) {
        // TVM's rule is qnn.requantize of this input to the output's
        // parameters.
        auto original = cast<RankedTensorType>(op.getInputs()[i].getType());
        FailureOr<Value> requantized = lowerRequantizeRule(
            rewriter, op, input, original,
            RankedTensorType::get(original.getShape(),
                                  resultType.getElementType()),
            {static_cast<double>(scale)}, std::nullopt, zp, outScale, outZp,
            op.getRounding());
        if (failed(requantized))
          return failure();
        part = *requantized;
      } else if (scale != outScale || zp != outZp) {
        // TFLite's ConcatenationWithScaling in float32, exactly as
        // QuantMath's concatRescale: round_half_away(x * scale + bias), with
        // a separate multiply and add (arith ops carry no contraction flag).
        qmath::ConcatRescaleParams p =
            qmath::computeConcatRescaleParams(scale, zp, outScale);
        Value init =
            tensor::EmptyOp::create(rewriter, loc, type.getShape(), storage);
        if (op.getRounding() == Rounding::onnx) {
          // ONNX's rescale is a byte-to-byte table (QLinearConcat's).
          std::array<int32_t, 256> table = qmath::buildRescaleTableONNX(
              !isUnsigned, scale, zp, outScale, outZp);
          Value tableTensor = constTensor(
              rewriter, loc, storage,
              SmallVector<int64_t>(table.begin(), table.end()));
          part = linalg::GenericOp::create(
                     rewriter, loc, TypeRange{init.getType()},
                     ValueRange{input}, ValueRange{init},
                     ArrayRef<AffineMap>{
                         rewriter.getMultiDimIdentityMap(rank),
                         rewriter.getMultiDimIdentityMap(rank)},
                     iterators(rank, 0),
                     [&](OpBuilder &b, Location l, ValueRange args) {
                       Value index = arith::IndexCastUIOp::create(
                           b, l, b.getIndexType(),
                           arith::ExtUIOp::create(b, l, b.getI32Type(),
                                                  args[0]));
                       linalg::YieldOp::create(
                           b, l,
                           tensor::ExtractOp::create(b, l, tableTensor, index)
                               .getResult());
                     })
                     .getResult(0);
        } else {
        part = linalg::GenericOp::create(
                   rewriter, loc, TypeRange{init.getType()}, ValueRange{input},
                   ValueRange{init},
                   ArrayRef<AffineMap>{rewriter.getMultiDimIdentityMap(rank),
                                       rewriter.getMultiDimIdentityMap(rank)},
                   iterators(rank, 0),
                   [&](OpBuilder &b, Location l, ValueRange args) {
                     Type f32 = b.getF32Type(), i32 = b.getI32Type(),
                          i64 = b.getI64Type();
                     auto f32Const = [&](float v) -> Value {
                       return arith::ConstantOp::create(b, l,
                                                        b.getF32FloatAttr(v));
                     };
                     Value x = extendTo(b, l, args[0], i32, isUnsigned);
                     Value fx = arith::SIToFPOp::create(b, l, f32, x);
                     Value product =
                         arith::MulFOp::create(b, l, fx, f32Const(p.scale));
                     Value value = mlir::math::RoundOp::create(
                         b, l,
                         arith::AddFOp::create(b, l, product, f32Const(p.bias)));
                     value = arith::MaximumFOp::create(
                         b, l, value, f32Const(-1099511627776.0f));
                     value = arith::MinimumFOp::create(
                         b, l, value, f32Const(1099511627776.0f));
                     Value y = arith::AddIOp::create(
                         b, l, arith::FPToSIOp::create(b, l, i64, value),
                         intConst(b, l, i64, outZp));
                     linalg::YieldOp::create(
                         b, l, clampAndNarrow(b, l, y, qmin, qmax, storage));
                   })
                   .getResult(0);
        }
      }
      SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
      SmallVector<OpFoldResult> sizes,
          unitStrides(rank, rewriter.getIndexAttr(1));
      for (int64_t dim : type.getShape())
        sizes.push_back(rewriter.getIndexAttr(dim));
      offsets[axis] = rewriter.getIndexAttr(offset);
      result = tensor::InsertSliceOp::create(rewriter, loc, part, result,
                                             offsets, sizes, unitStrides);
      offset += type.getDimSize(axis);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Signedness-sensitive upstream ops on unsigned tensors; retyping
//===----------------------------------------------------------------------===//

/// tosa.cast between integer types where one side is unsigned (TOSA's
/// lowering would treat the signless result as signed), unsigned integers
/// to float (uitofp), and every float to integer cast: TOSA's rule (round
/// half to even, saturate) with NaN as 0, exactly as the reference
/// evaluator (upstream's lowering leaves NaN and the i32 bound undefined).
struct IntegerCastLowering : OpConversionPattern<tosa::CastOp> {
  using OpConversionPattern::OpConversionPattern;

  /// Whether this pattern (rather than upstream's) lowers `op`.
  static bool handles(tosa::CastOp op) {
    Type from = getElementTypeOrSelf(op.getInput().getType());
    Type to = getElementTypeOrSelf(op.getOutput().getType());
    if (isa<FloatType>(from))
      return isa<IntegerType>(to);
    return isa<IntegerType>(from) &&
           (isa<IntegerType>(to) || from.isUnsignedInteger()) &&
           (from.isUnsignedInteger() || to.isUnsignedInteger());
  }

  LogicalResult
  matchAndRewrite(tosa::CastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto inType = cast<RankedTensorType>(op.getInput().getType());
    auto outType = cast<RankedTensorType>(op.getOutput().getType());
    if (!handles(op))
      return rewriter.notifyMatchFailure(op, "not a cast lowered here");
    if (!inType.hasStaticShape())
      return op.emitOpError("lowering needs static shapes");
    bool inUnsigned = isUnsignedElement(inType);
    bool fromFloat = isa<FloatType>(inType.getElementType());
    bool toFloat = isa<FloatType>(outType.getElementType());
    Type storage = signless(outType.getElementType());
    int64_t rank = outType.getRank();
    Location loc = op.getLoc();
    Value init =
        tensor::EmptyOp::create(rewriter, loc, outType.getShape(), storage);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{init.getType()},
        ValueRange{adaptor.getInput()}, ValueRange{init},
        ArrayRef<AffineMap>{rewriter.getMultiDimIdentityMap(rank),
                            rewriter.getMultiDimIdentityMap(rank)},
        iterators(rank, 0), [&](OpBuilder &b, Location l, ValueRange args) {
          Value v;
          if (toFloat)
            v = arith::UIToFPOp::create(b, l, storage, args[0]);
          else if (fromFloat)
            v = castFloatToInteger(b, l, args[0], outType.getElementType());
          else
            v = extendTo(b, l, args[0], storage, inUnsigned);
          linalg::YieldOp::create(b, l, v);
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }

  /// qmath::castFloatToInt on one scalar: NaN -> 0, round half to even,
  /// at or beyond the float value of a bound -> the bound (fptosi/fptoui
  /// only see values strictly inside, so no poison is selected).
  static Value castFloatToInteger(OpBuilder &b, Location l, Value x,
                                  Type intType) {
    Type storage = signless(intType);
    Type f = x.getType();
    auto [qmin, qmax] = getStorageRange(intType);
    auto fconst = [&](int64_t v) {
      return arith::ConstantOp::create(
                 b, l, b.getFloatAttr(f, static_cast<double>(
                                             static_cast<float>(v))))
          .getResult();
    };
    Value r = mlir::math::RoundEvenOp::create(b, l, x);
    Value v = intType.isUnsignedInteger()
                  ? arith::FPToUIOp::create(b, l, storage, r).getResult()
                  : arith::FPToSIOp::create(b, l, storage, r).getResult();
    Value low = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLE, r,
                                      fconst(qmin));
    Value high = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGE, r,
                                       fconst(qmax));
    Value nan =
        arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNO, x, x);
    v = arith::SelectOp::create(b, l, low, intConst(b, l, storage, qmin), v);
    v = arith::SelectOp::create(b, l, high, intConst(b, l, storage, qmax), v);
    return arith::SelectOp::create(b, l, nan, intConst(b, l, storage, 0), v);
  }
};

struct UnsignedClampLowering : OpConversionPattern<tosa::ClampOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tosa::ClampOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getInput().getType());
    auto minAttr = dyn_cast<IntegerAttr>(op.getMinValAttr());
    auto maxAttr = dyn_cast<IntegerAttr>(op.getMaxValAttr());
    if (!minAttr || !maxAttr || !type.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "not a static integer clamp");
    Type storage = signless(type.getElementType());
    int64_t rank = type.getRank();
    Location loc = op.getLoc();
    Value init =
        tensor::EmptyOp::create(rewriter, loc, type.getShape(), storage);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{init.getType()},
        ValueRange{adaptor.getInput()}, ValueRange{init},
        ArrayRef<AffineMap>{rewriter.getMultiDimIdentityMap(rank),
                            rewriter.getMultiDimIdentityMap(rank)},
        iterators(rank, 0), [&](OpBuilder &b, Location l, ValueRange args) {
          Value lo = intConst(b, l, storage, minAttr.getValue().getZExtValue());
          Value hi = intConst(b, l, storage, maxAttr.getValue().getZExtValue());
          Value v = arith::MaxUIOp::create(b, l, args[0], lo);
          v = arith::MinUIOp::create(b, l, v, hi);
          linalg::YieldOp::create(b, l, v);
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

/// tosa.maximum/minimum of unsigned integers: the signless form would
/// compare them as signed (tosa-to-linalg's maxsi/minsi).
template <typename OpTy, bool isMax>
struct UnsignedMaxMinLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpTy::Adaptor;

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    if (!type.getElementType().isUnsignedInteger() || !type.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "not a static unsigned op");
    Type storage = signless(type.getElementType());
    int64_t rank = type.getRank();
    Location loc = op.getLoc();
    Value init =
        tensor::EmptyOp::create(rewriter, loc, type.getShape(), storage);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{init.getType()},
        ValueRange{adaptor.getInput1(), adaptor.getInput2()}, ValueRange{init},
        ArrayRef<AffineMap>{
            broadcastMap(rewriter,
                         cast<RankedTensorType>(op.getInput1().getType()),
                         type),
            broadcastMap(rewriter,
                         cast<RankedTensorType>(op.getInput2().getType()),
                         type),
            rewriter.getMultiDimIdentityMap(rank)},
        iterators(rank, 0), [&](OpBuilder &b, Location l, ValueRange args) {
          Value v = isMax ? arith::MaxUIOp::create(b, l, args[0], args[1])
                                .getResult()
                          : arith::MinUIOp::create(b, l, args[0], args[1])
                                .getResult();
          linalg::YieldOp::create(b, l, v);
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

/// qnn.resize_bilinear: one generic over the output; the per-row and
/// per-column source indices and weights are constant tables, the four
/// corners are read with tensor.extract; the sum is formed in i64
/// (fixed_point) or float32 (float32).
struct ResizeBilinearLowering : OpConversionPattern<ResizeBilinearOp> {
  using OpConversionPattern::OpConversionPattern;

  /// Reads the input element at row `y`, column `x` (i64 table values) of
  /// the current batch and channel, widened to `wide`.
  using ReadFn = llvm::function_ref<Value(Value y, Value x)>;

  /// The generic over the result: the table inputs (each indexed by output
  /// row if `perRow`, else by output column) and `body`, which gets the
  /// table values in order and `read`, and returns the stored value.
  static Value
  buildGeneric(OpBuilder &rewriter, ResizeBilinearOp op, Value source,
               ArrayRef<std::pair<Value, bool>> tables, Type wide,
               llvm::function_ref<Value(OpBuilder &, Location, ValueRange,
                                        ReadFn)>
                   body) {
    Location loc = op.getLoc();
    auto resultType = op.getOutput().getType();
    bool isUnsigned = isUnsignedElement(op.getInput().getType());
    Type storage = signless(resultType.getElementType());
    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    for (auto [table, perRow] : tables) {
      inputs.push_back(table);
      maps.push_back(AffineMap::get(4, 0,
                                    rewriter.getAffineDimExpr(perRow ? 1 : 2),
                                    rewriter.getContext()));
    }
    maps.push_back(rewriter.getMultiDimIdentityMap(4));
    Value init =
        tensor::EmptyOp::create(rewriter, loc, resultType.getShape(), storage);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{init.getType()}, inputs, ValueRange{init},
        maps, iterators(4, 0), [&](OpBuilder &b, Location l, ValueRange args) {
          Value n = linalg::IndexOp::create(b, l, 0);
          Value c = linalg::IndexOp::create(b, l, 3);
          auto index = [&](Value v) {
            return arith::IndexCastOp::create(b, l, b.getIndexType(), v)
                .getResult();
          };
          auto read = [&](Value y, Value x) -> Value {
            Value v = tensor::ExtractOp::create(
                b, l, source, ValueRange{n, index(y), index(x), c});
            return extendTo(b, l, v, wide, isUnsigned);
          };
          Value result = body(b, l, args.drop_back(), read);
          linalg::YieldOp::create(
              b, l, arith::TruncIOp::create(b, l, storage, result).getResult());
        });
    return generic.getResult(0);
  }

  LogicalResult
  matchAndRewrite(ResizeBilinearOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto inputType = op.getInput().getType();
    auto resultType = op.getOutput().getType();
    if (!inputType.hasStaticShape() || !resultType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shapes");
    Value result = op.getArithmetic() == ResizeArithmetic::float32
                       ? lowerFloat32(rewriter, op, adaptor.getInput())
                       : lowerFixedPoint(rewriter, op, adaptor.getInput());
    rewriter.replaceOp(op, result);
    return success();
  }

  /// The fixed_point rule: 10-bit weights, the i64 sum rounded half away
  /// from zero by 2^20.
  static Value lowerFixedPoint(OpBuilder &rewriter, ResizeBilinearOp op,
                               Value source) {
    Location loc = op.getLoc();
    auto inputType = op.getInput().getType();
    auto resultType = op.getOutput().getType();
    Type i64 = rewriter.getI64Type();
    auto ya = ResizeBilinearOp::computeAxis(
        inputType.getDimSize(1), resultType.getDimSize(1),
        op.getAlignCorners(), op.getHalfPixelCenters());
    auto xa = ResizeBilinearOp::computeAxis(
        inputType.getDimSize(2), resultType.getDimSize(2),
        op.getAlignCorners(), op.getHalfPixelCenters());
    SmallVector<std::pair<Value, bool>> tables;
    for (auto [axis, perRow] : {std::pair{&ya, true}, {&xa, false}})
      for (ArrayRef<int64_t> table : {ArrayRef<int64_t>(axis->lower),
                                      ArrayRef<int64_t>(axis->upper),
                                      ArrayRef<int64_t>(axis->weight)})
        tables.push_back({constTensor(rewriter, loc, i64, table), perRow});
    return buildGeneric(
        rewriter, op, source, tables, i64,
        [&](OpBuilder &b, Location l, ValueRange args, ReadFn read) -> Value {
          Value one = intConst(b, l, i64, 1 << 10);
          Value wy = args[2], wx = args[5];
          Value wy0 = arith::SubIOp::create(b, l, one, wy);
          Value wx0 = arith::SubIOp::create(b, l, one, wx);
          auto term = [&](Value v, Value a, Value bb) {
            return arith::MulIOp::create(
                b, l, arith::MulIOp::create(b, l, v, a), bb);
          };
          Value t00 = term(read(args[0], args[3]), wy0, wx0);
          Value t10 = term(read(args[1], args[3]), wy, wx0);
          Value t01 = term(read(args[0], args[4]), wy0, wx);
          Value t11 = term(read(args[1], args[4]), wy, wx);
          Value s = arith::AddIOp::create(
              b, l, arith::AddIOp::create(b, l, t00, t10),
              arith::AddIOp::create(b, l, t01, t11));
          Value positive = arith::CmpIOp::create(
              b, l, arith::CmpIPredicate::sgt, s, intConst(b, l, i64, 0));
          Value round = arith::SelectOp::create(
              b, l, positive, intConst(b, l, i64, 1 << 19),
              intConst(b, l, i64, -(1 << 19)));
          return arith::DivSIOp::create(
              b, l, arith::AddIOp::create(b, l, s, round),
              intConst(b, l, i64, 1 << 20));
        });
  }

  /// The float32 rule: tables of source indices and float32 fractions per
  /// row and column; the products and sums in TFLite's order, as plain
  /// arith.mulf/addf (no fastmath flags, so nothing is contracted or
  /// reassociated); the sum truncated toward zero.
  static Value lowerFloat32(OpBuilder &rewriter, ResizeBilinearOp op,
                            Value source) {
    Location loc = op.getLoc();
    auto inputType = op.getInput().getType();
    auto resultType = op.getOutput().getType();
    Type i64 = rewriter.getI64Type(), f32 = rewriter.getF32Type(),
         i32 = rewriter.getI32Type();
    auto ya = ResizeBilinearOp::computeFloatAxis(
        inputType.getDimSize(1), resultType.getDimSize(1),
        op.getAlignCorners(), op.getHalfPixelCenters());
    auto xa = ResizeBilinearOp::computeFloatAxis(
        inputType.getDimSize(2), resultType.getDimSize(2),
        op.getAlignCorners(), op.getHalfPixelCenters());
    SmallVector<std::pair<Value, bool>> tables;
    for (auto [axis, perRow] : {std::pair{&ya, true}, {&xa, false}}) {
      tables.push_back({constTensor(rewriter, loc, i64, axis->lower), perRow});
      tables.push_back({constTensor(rewriter, loc, i64, axis->upper), perRow});
      tables.push_back({constTensorF32(rewriter, loc, axis->frac), perRow});
    }
    return buildGeneric(
        rewriter, op, source, tables, i32,
        [&](OpBuilder &b, Location l, ValueRange args, ReadFn read) -> Value {
          auto readF = [&](Value y, Value x) -> Value {
            return arith::SIToFPOp::create(b, l, f32, read(y, x));
          };
          Value one = arith::ConstantOp::create(b, l, b.getF32FloatAttr(1.0f));
          Value fy = args[2], fx = args[5];
          Value gy = arith::SubFOp::create(b, l, one, fy);
          Value gx = arith::SubFOp::create(b, l, one, fx);
          auto term = [&](Value v, Value a, Value bb) -> Value {
            return arith::MulFOp::create(
                b, l, arith::MulFOp::create(b, l, v, a), bb);
          };
          Value t00 = term(readF(args[0], args[3]), gy, gx);
          Value t10 = term(readF(args[1], args[3]), fy, gx);
          Value s = arith::AddFOp::create(b, l, t00, t10);
          Value t01 = term(readF(args[0], args[4]), gy, fx);
          s = arith::AddFOp::create(b, l, s, t01);
          Value t11 = term(readF(args[1], args[4]), fy, fx);
          s = arith::AddFOp::create(b, l, s, t11);
          return arith::FPToSIOp::create(b, l, i32, s);
        });
  }
};

/// The i32 sum of `input` (8-bit, widened as `isUnsigned` says) over the
/// dimensions marked in `reduced`, into a tensor of `resultShape` (the
/// input's with each reduced dimension 1).
static Value emitI32SumOver(OpBuilder &b, Location loc, Value input,
                            ArrayRef<int64_t> resultShape,
                            ArrayRef<bool> reduced, bool isUnsigned) {
  Type i32 = b.getI32Type();
  int64_t rank = resultShape.size();
  Value init = emptyFilled(b, loc, resultShape, i32, 0);
  SmallVector<AffineExpr> outExprs;
  SmallVector<utils::IteratorType> iters;
  for (int64_t d = 0; d < rank; ++d) {
    outExprs.push_back(reduced[d] ? b.getAffineConstantExpr(0)
                                  : b.getAffineDimExpr(d));
    iters.push_back(reduced[d] ? utils::IteratorType::reduction
                               : utils::IteratorType::parallel);
  }
  auto sum = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, ValueRange{input}, ValueRange{init},
      ArrayRef<AffineMap>{
          b.getMultiDimIdentityMap(rank),
          AffineMap::get(rank, 0, outExprs, b.getContext())},
      iters, [&](OpBuilder &nb, Location l, ValueRange args) {
        Value x = extendTo(nb, l, args[0], i32, isUnsigned);
        linalg::YieldOp::create(
            nb, l, arith::AddIOp::create(nb, l, args[1], x).getResult());
      });
  return sum.getResult(0);
}

/// TFLite's QuantizedMeanOrSum epilogue on one centred sum (i64 holding an
/// i32 value, as TFLite casts it): the fixed-point rescale by `m` with the
/// rounding rule, `+ outZp`, saturated to [qmin, qmax] and narrowed.
static Value emitTFLiteSumRescale(OpBuilder &b, Location l, Value centered,
                                  qmath::QuantizedMultiplier m,
                                  Rounding rounding, int64_t outZp,
                                  int64_t qmin, int64_t qmax, Type storage) {
  Type i64 = b.getI64Type(), i32 = b.getI32Type();
  Value c32 = arith::TruncIOp::create(b, l, i32, centered);
  Value multiplier = intConst(b, l, i64, m.multiplier);
  Value left = intConst(b, l, i32, m.shift > 0 ? m.shift : 0);
  Value right = intConst(b, l, i64, m.shift > 0 ? 0 : -m.shift);
  Value r = rounding == Rounding::tflite_single
                ? emitSingleRoundingMultiply(b, l, c32, multiplier, left, right)
                : emitMultiplyByQuantizedMultiplier(b, l, c32, multiplier,
                                                    left, right);
  Value y = arith::AddIOp::create(b, l, arith::ExtSIOp::create(b, l, i64, r),
                                  intConst(b, l, i64, outZp));
  return clampAndNarrow(b, l, y, qmin, qmax, storage);
}

/// qnn.global_avg_pool: an i32 sum over H and W (one reduction generic),
/// then ONNX's float32 rescale or TFLite's fixed-point one (an elementwise
/// generic, as the requantize).
struct GlobalAvgPoolLowering : OpConversionPattern<GlobalAvgPoolOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(GlobalAvgPoolOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inputType = op.getInput().getType();
    auto resultType = op.getOutput().getType();
    if (!inputType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shapes");
    bool isUnsigned = isUnsignedElement(inputType);
    Type storage = signless(resultType.getElementType());
    int64_t qmin, qmax;
    std::tie(qmin, qmax) = getStorageRange(resultType.getElementType());
    ActivationDims d = getActivationDims(op.getDataLayout());
    int64_t count = inputType.getDimSize(d.h) * inputType.getDimSize(d.w);
    float factor = qmath::onnxGlobalAvgPoolFactor(
        op.getInputScale().convertToFloat(),
        op.getOutputScale().convertToFloat(), count);
    int64_t bias = -static_cast<int64_t>(
                       static_cast<int32_t>(op.getInputZeroPoint())) *
                   count;
    int64_t outZp = static_cast<int32_t>(op.getOutputZeroPoint());
    SmallVector<bool> reduced(4, false);
    reduced[d.h] = reduced[d.w] = true;
    Value sum = emitI32SumOver(rewriter, loc, adaptor.getInput(),
                               resultType.getShape(), reduced, isUnsigned);
    Value init =
        tensor::EmptyOp::create(rewriter, loc, resultType.getShape(), storage);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{init.getType()}, ValueRange{sum},
        ValueRange{init},
        ArrayRef<AffineMap>{rewriter.getMultiDimIdentityMap(4),
                            rewriter.getMultiDimIdentityMap(4)},
        iterators(4, 0), [&](OpBuilder &b, Location l, ValueRange args) {
          Type f32 = b.getF32Type(), i64 = b.getI64Type();
          auto f32Const = [&](float v) {
            return arith::ConstantOp::create(b, l, b.getF32FloatAttr(v))
                .getResult();
          };
          Value centered = arith::AddIOp::create(
              b, l, extendTo(b, l, args[0], i64, false),
              intConst(b, l, i64, bias));
          if (op.getRounding() != Rounding::onnx) {
            // TFLite's MEAN (qmath::tfliteMeanMultiplier): one fixed-point
            // rescale of the centred i32 sum.
            linalg::YieldOp::create(
                b, l,
                emitTFLiteSumRescale(
                    b, l, centered,
                    qmath::tfliteMeanMultiplier(
                        op.getInputScale().convertToFloat(),
                        op.getOutputScale().convertToFloat(), count),
                    op.getRounding(), outZp, qmin, qmax, storage));
            return;
          }
          Value v = arith::MulFOp::create(
              b, l, arith::SIToFPOp::create(b, l, f32, centered),
              f32Const(factor));
          v = mlir::math::RoundEvenOp::create(b, l, v);
          const float limit = 4611686018427387904.0f; // 2^62
          v = arith::MaximumFOp::create(b, l, v, f32Const(-limit));
          v = arith::MinimumFOp::create(b, l, v, f32Const(limit));
          Value y = arith::AddIOp::create(
              b, l, arith::FPToSIOp::create(b, l, i64, v),
              intConst(b, l, i64, outZp));
          linalg::YieldOp::create(
              b, l, clampAndNarrow(b, l, y, qmin, qmax, storage));
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

/// qnn.argmax / qnn.argmin: one linalg.generic that reduces `axis`
/// carrying the best value and its index; strict comparisons keep the first
/// index on ties, signed or unsigned as the element type says.
template <typename ArgOp, bool isMax>
struct ArgLowering : OpConversionPattern<ArgOp> {
  using OpConversionPattern<ArgOp>::OpConversionPattern;
  using OpAdaptor = typename ArgOp::Adaptor;

  LogicalResult
  matchAndRewrite(ArgOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inputType = op.getInput().getType();
    auto resultType = cast<RankedTensorType>(op.getOutput().getType());
    if (!inputType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shapes");
    bool isUnsigned = isUnsignedElement(inputType);
    Type storage = signless(inputType.getElementType());
    Type indexType = resultType.getElementType();
    int64_t rank = inputType.getRank();
    int64_t axis = static_cast<int64_t>(op.getAxis());
    auto [qmin, qmax] = getStorageRange(inputType.getElementType());
    Value bestInit = emptyFilled(rewriter, loc, resultType.getShape(), storage,
                                 isMax ? qmin : qmax);
    Value indexInit =
        emptyFilled(rewriter, loc, resultType.getShape(), indexType, 0);
    SmallVector<AffineExpr> outExprs;
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis)
        outExprs.push_back(rewriter.getAffineDimExpr(d));
    AffineMap outMap =
        AffineMap::get(rank, 0, outExprs, rewriter.getContext());
    SmallVector<utils::IteratorType> iters(rank,
                                           utils::IteratorType::parallel);
    iters[axis] = utils::IteratorType::reduction;
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{bestInit.getType(), indexInit.getType()},
        ValueRange{adaptor.getInput()}, ValueRange{bestInit, indexInit},
        ArrayRef<AffineMap>{rewriter.getMultiDimIdentityMap(rank), outMap,
                            outMap},
        iters, [&](OpBuilder &b, Location l, ValueRange args) {
          auto pred = isMax ? (isUnsigned ? arith::CmpIPredicate::ugt
                                          : arith::CmpIPredicate::sgt)
                            : (isUnsigned ? arith::CmpIPredicate::ult
                                          : arith::CmpIPredicate::slt);
          Value better = arith::CmpIOp::create(b, l, pred, args[0], args[1]);
          // The first element always wins (the initial best is only a
          // placeholder: an element equal to it must still set index 0).
          Value k = linalg::IndexOp::create(b, l, axis);
          Value first = arith::CmpIOp::create(
              b, l, arith::CmpIPredicate::eq, k,
              arith::ConstantIndexOp::create(b, l, 0));
          better = arith::OrIOp::create(b, l, better, first);
          Value kCast = arith::IndexCastOp::create(b, l, indexType, k);
          linalg::YieldOp::create(
              b, l,
              ValueRange{
                  arith::SelectOp::create(b, l, better, args[0], args[1]),
                  arith::SelectOp::create(b, l, better, kCast, args[2])});
        });
    rewriter.replaceOp(op, generic.getResult(1));
    return success();
  }
};

/// qnn.reduce_max / qnn.reduce_min: one reduction generic over the input,
/// the reduced dimensions mapped to 0 in the result.
template <typename ReduceOp, bool isMax>
struct ReduceLowering : OpConversionPattern<ReduceOp> {
  using OpConversionPattern<ReduceOp>::OpConversionPattern;
  using OpAdaptor = typename ReduceOp::Adaptor;

  LogicalResult
  matchAndRewrite(ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inputType = op.getInput().getType();
    auto resultType = op.getOutput().getType();
    if (!inputType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shapes");
    bool isUnsigned = isUnsignedElement(inputType);
    Type storage = signless(inputType.getElementType());
    auto [qmin, qmax] = getStorageRange(inputType.getElementType());
    int64_t rank = inputType.getRank();
    Value init = emptyFilled(rewriter, loc, resultType.getShape(), storage,
                             isMax ? qmin : qmax);
    SmallVector<utils::IteratorType> iters(rank,
                                           utils::IteratorType::parallel);
    SmallVector<AffineExpr> outExprs;
    for (int64_t d = 0; d < rank; ++d)
      outExprs.push_back(rewriter.getAffineDimExpr(d));
    for (int64_t axis : op.getAxes()) {
      iters[axis] = utils::IteratorType::reduction;
      outExprs[axis] = rewriter.getAffineConstantExpr(0);
    }
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{init.getType()},
        ValueRange{adaptor.getInput()}, ValueRange{init},
        ArrayRef<AffineMap>{
            rewriter.getMultiDimIdentityMap(rank),
            AffineMap::get(rank, 0, outExprs, rewriter.getContext())},
        iters, [&](OpBuilder &b, Location l, ValueRange args) {
          Value v;
          if (isMax)
            v = isUnsigned
                    ? arith::MaxUIOp::create(b, l, args[0], args[1]).getResult()
                    : arith::MaxSIOp::create(b, l, args[0], args[1]).getResult();
          else
            v = isUnsigned
                    ? arith::MinUIOp::create(b, l, args[0], args[1]).getResult()
                    : arith::MinSIOp::create(b, l, args[0], args[1]).getResult();
          linalg::YieldOp::create(b, l, v);
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

/// qnn.reduce_sum: the i32 sum over the axes, then TFLite's
/// QuantizedMeanOrSum epilogue elementwise.
struct ReduceSumLowering : OpConversionPattern<ReduceSumOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ReduceSumOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inputType = op.getInput().getType();
    auto resultType = op.getOutput().getType();
    if (!inputType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shapes");
    Type storage = signless(resultType.getElementType());
    int64_t qmin, qmax;
    std::tie(qmin, qmax) = getStorageRange(resultType.getElementType());
    int64_t rank = inputType.getRank();
    SmallVector<bool> reduced(rank, false);
    int64_t count = 1;
    for (int64_t axis : op.getAxes()) {
      reduced[axis] = true;
      count *= inputType.getDimSize(axis);
    }
    Value sum = emitI32SumOver(rewriter, loc, adaptor.getInput(),
                               resultType.getShape(), reduced,
                               isUnsignedElement(inputType));
    qmath::QuantizedMultiplier m = qmath::tfliteSumMultiplier(
        op.getInputScale().convertToFloat(),
        op.getOutputScale().convertToFloat(), count, op.getAverage());
    int64_t bias =
        -static_cast<int64_t>(static_cast<int32_t>(op.getInputZeroPoint())) *
        count;
    int64_t outZp = static_cast<int32_t>(op.getOutputZeroPoint());
    Value init =
        tensor::EmptyOp::create(rewriter, loc, resultType.getShape(), storage);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{init.getType()}, ValueRange{sum},
        ValueRange{init},
        ArrayRef<AffineMap>{rewriter.getMultiDimIdentityMap(rank),
                            rewriter.getMultiDimIdentityMap(rank)},
        iterators(rank, 0), [&](OpBuilder &b, Location l, ValueRange args) {
          Type i64 = b.getI64Type();
          Value centered = arith::AddIOp::create(
              b, l, extendTo(b, l, args[0], i64, false),
              intConst(b, l, i64, bias));
          linalg::YieldOp::create(
              b, l,
              emitTFLiteSumRescale(b, l, centered, m, op.getRounding(), outZp,
                                   qmin, qmax, storage));
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

/// arith.constant of an unsigned/signed type: the same bits, signless.
struct ConstantRetyping : OpConversionPattern<arith::ConstantOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(arith::ConstantOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type newType = getTypeConverter()->convertType(op.getType());
    if (!newType || newType == op.getType())
      return failure();
    TypedAttr value;
    if (auto dense = dyn_cast<DenseIntElementsAttr>(op.getValue()))
      value = dense.bitcast(signless(dense.getElementType()));
    else if (auto intAttr = dyn_cast<IntegerAttr>(op.getValue()))
      value = IntegerAttr::get(newType, intAttr.getValue());
    else
      return failure();
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, value);
    return success();
  }
};

/// Any other operation: recreate it with signless types, regions included.
struct GenericRetyping : ConversionPattern {
  GenericRetyping(const TypeConverter &converter, MLIRContext *ctx)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/0, ctx) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (isa<QNNDialect>(op->getDialect()))
      return failure();
    SmallVector<Type> resultTypes;
    if (failed(getTypeConverter()->convertTypes(op->getResultTypes(),
                                                resultTypes)))
      return failure();
    OperationState state(op->getLoc(), op->getName().getStringRef(), operands,
                         resultTypes, op->getAttrs(), op->getSuccessors());
    for (Region &region : op->getRegions()) {
      Region *newRegion = state.addRegion();
      rewriter.inlineRegionBefore(region, *newRegion, newRegion->begin());
      if (failed(rewriter.convertRegionTypes(newRegion, *getTypeConverter())))
        return failure();
    }
    Operation *newOp = rewriter.create(state);
    rewriter.replaceOp(op, newOp->getResults());
    return success();
  }
};

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

struct ConvertQNNToLinalgPass
    : qnn::impl::ConvertQNNToLinalgBase<ConvertQNNToLinalgPass> {
  using Base::Base;

  void runOnOperation() override {
    if (target != "loops" && !flavorForTarget(target)) {
      getOperation().emitError()
          << "unknown target '" << target
          << "'; expected generic, avx512-vnni, int16, int16-avx512bw or "
             "loops";
      return signalPassFailure();
    }
    MLIRContext *ctx = &getContext();
    // Aggregated linalg ops of qnn programs (linalg.softmax) have no loop
    // lowering of their own: decompose them into linalg.generic first.
    SmallVector<linalg::AggregatedOpInterface> aggregated;
    getOperation().walk(
        [&](linalg::AggregatedOpInterface op) { aggregated.push_back(op); });
    IRRewriter rewriter(ctx);
    for (linalg::AggregatedOpInterface op : aggregated) {
      rewriter.setInsertionPoint(op);
      FailureOr<SmallVector<Value>> results = op.decomposeOperation(rewriter);
      if (failed(results)) {
        op->emitError("cannot decompose this operation for lowering");
        return signalPassFailure();
      }
      rewriter.replaceOp(op, *results);
    }

    TypeConverter converter;
    converter.addConversion([](Type type) { return type; });
    converter.addConversion(
        [](IntegerType type) -> Type { return signless(type); });
    converter.addConversion(
        [](RankedTensorType type) -> Type { return signlessTensor(type); });
    converter.addConversion([](MemRefType type) -> Type {
      return MemRefType::get(type.getShape(), signless(type.getElementType()),
                             type.getLayout(), type.getMemorySpace());
    });

    ConversionTarget conversionTarget(*ctx);
    conversionTarget.addIllegalDialect<QNNDialect, npu::NPUDialect>();
    conversionTarget.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp f) {
      return converter.isSignatureLegal(f.getFunctionType()) &&
             converter.isLegal(&f.getBody());
    });
    conversionTarget.markUnknownOpDynamicallyLegal(
        [&](Operation *op) { return converter.isLegal(op); });
    // Casts and clamps that touch unsigned types are lowered here: their
    // signless form would mean something else.
    conversionTarget.addDynamicallyLegalOp<tosa::ClampOp, tosa::MaximumOp,
                                           tosa::MinimumOp>(
        [&](Operation *op) { return converter.isLegal(op); });
    // Float to integer casts too (IntegerCastLowering::handles).
    conversionTarget.addDynamicallyLegalOp<tosa::CastOp>(
        [&](tosa::CastOp op) {
          return converter.isLegal(op.getOperation()) &&
                 !IntegerCastLowering::handles(op);
        });

    RewritePatternSet patterns(ctx);
    std::optional<KernelFlavor> flavor = flavorForTarget(target);
    bool floor = floorAffine && flavor && usesFloorAffine(*flavor);
    patterns.add<RequantizeLowering>(converter, ctx, floor);
    patterns.add<
        QuantizeLowering, DequantizeLowering, PoolLowering<AvgPool2DOp>,
        PoolLowering<MaxPool2DOp>, BinaryLowering<MulOp>,
        BinaryLowering<SquaredDifferenceOp>, BinaryLowering<DivOp>,
        TableActivationLowering<HardSwishOp>,
        TableActivationLowering<SigmoidOp>, TableActivationLowering<TanhOp>,
        TableActivationLowering<EluOp>, TableActivationLowering<RsqrtOp>,
        RescaleAvgPoolLowering, PReluLowering, BatchMatMulLowering,
        TableActivationLowering<LeakyReluOp>, LeakyReluLowering,
        ConcatenateLowering, IntegerCastLowering, UnsignedClampLowering,
        UnsignedMaxMinLowering<tosa::MaximumOp, true>,
        ArgLowering<ArgMaxOp, true>, ArgLowering<ArgMinOp, false>,
        ReduceLowering<ReduceMaxOp, true>, ReduceLowering<ReduceMinOp, false>,
        ReduceSumLowering, GlobalAvgPoolLowering, ResizeBilinearLowering,
        UnsignedMaxMinLowering<tosa::MinimumOp, false>, ConstantRetyping>(
        converter, ctx);
    patterns.add<BinaryLowering<AddOp>, BinaryLowering<SubtractOp>>(
        converter, ctx, addAffine);
    patterns.add<Conv2DLowering>(converter, ctx, target,
                                 depthwiseSelfPaddingMinBytes);
    patterns.add<DenseLowering>(converter, ctx, target);
    populateNPUToLinalgPatterns(converter, patterns, target, fuseDepthwise,
                                depthwiseSelfPaddingMinBytes, floorAffine);
    populateL2NormalizeLowering(converter, patterns);
    populateLogSoftmaxLowering(converter, patterns);
    patterns.add<GenericRetyping>(converter, ctx);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                   converter);
    populateReturnOpTypeConversionPattern(patterns, converter);
    populateCallOpTypeConversionPattern(patterns, converter);
    if (failed(applyPartialConversion(getOperation(), conversionTarget,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
