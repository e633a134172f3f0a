//===- NPUToLinalg.cpp - npu operators straight to kernels ----------------===//
//
// The CPU is one more target of the npu dialect: each fused operator is
// lowered as it stands, the fusion that --qnn-to-npu decided kept whole.
//
// - npu.conv2d / npu.fully_connected with constant weights on a kernel
//   target: one call of a vector kernel (ConvKernels.cpp) whose epilogue,
//   built here from the operator's attributes, adds the bias, requantizes
//   (per channel), clamps to [act_min, act_max] or looks the activation up
//   in a 256-entry table, and stores 8-bit results. The bias and the
//   per-channel multipliers are the kernel's channel constants.
// - the same operators elsewhere (target=loops, weights that are not
//   constants, grouped convolutions, depthwise with a channel multiplier or
//   when depthwise epilogues are off, a bias that is not a constant): the
//   i32 accumulator is a qnn.conv2d / qnn.dense lowered by this conversion,
//   and the epilogue one elementwise linalg.generic with the same scalar
//   body.
// - npu.add and the pools: qnn.add / qnn.avg_pool2d / qnn.max_pool2d
//   followed by the activation (applyNPUActivation).
//
// The arithmetic is NPUEvaluator's: acc + bias, requantized by
// double(input_scale) * double(weight_scale[o]) / output_scale under the
// op's rounding rule, clamped to [act_min, act_max], then the table.
//
//===----------------------------------------------------------------------===//

#include "NPU/IR/NPUDialect.h"
#include "NPU/IR/NPUOps.h"
#include "QNN/Conversion/Passes.h"
#include "QNN/Utils/QuantUtils.h"
#include "QNNToLinalgInternal.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

#include <algorithm>
#include <memory>
#include <type_traits>

using namespace mlir;
using namespace mlir::qnn;
using namespace mlir::qnn::lowering;

namespace {

/// The epilogue of a conv-like npu operator, computed from its attributes.
struct NPUEpilogue {
  RequantizeSpec requantize;
  /// The activation table (leaky_relu, lut); empty for clamps, which are
  /// the requantize's final clamp.
  SmallVector<int32_t> table;

  /// The scalar epilogue of one accumulator: `bias` (or null) and the
  /// requantize `tables` of its channel, `lut` the table as a
  /// tensor<256xi32> value (null without one).
  Value emit(OpBuilder &b, Location l, Value acc, Value bias, ValueRange tables,
             Value lut) const {
    Value v = acc;
    if (bias)
      v = arith::AddIOp::create(b, l, v, bias);
    Value y = emitRequantizeScalar(b, l, v, /*inputUnsigned=*/false, requantize,
                                   tables);
    if (!lut)
      return y;
    // The table is indexed by the stored byte (as npu-expand-to-qnn's
    // cast to i32 and mask, so that the kernels see the same form).
    Type i32 = b.getI32Type();
    Value wide = arith::ExtSIOp::create(b, l, i32, y);
    Value low = arith::AndIOp::create(
        b, l, wide, arith::ConstantIntOp::create(b, l, i32, 255));
    Value index = arith::IndexCastOp::create(b, l, b.getIndexType(), low);
    Value entry = tensor::ExtractOp::create(b, l, lut, ValueRange{index});
    return arith::TruncIOp::create(b, l, requantize.outElement, entry);
  }

  Value lutConstant(OpBuilder &b, Location l) const {
    if (table.empty())
      return {};
    return arith::ConstantOp::create(
        b, l,
        DenseElementsAttr::get(RankedTensorType::get({256}, b.getI32Type()),
                               ArrayRef(table)));
  }
};

template <typename OpTy> FailureOr<NPUEpilogue> getEpilogue(OpTy op) {
  NPUEpilogue e;
  SmallVector<double> scales;
  double inputScale = op.getInputScale().convertToFloat();
  for (float ws : op.getWeightScale())
    scales.push_back(inputScale * static_cast<double>(ws));
  Type element = op.getOutput().getType().getElementType();
  FailureOr<RequantizeSpec> spec = RequantizeSpec::get(
      op, scales, op.getOutputScale().convertToFloat(), 0,
      static_cast<int32_t>(op.getOutputZeroPoint()), element, op.getRounding());
  if (failed(spec))
    return failure();
  e.requantize = *spec;
  if (std::optional<SmallVector<int32_t>> table = npu::getActivationTable(op)) {
    e.table = std::move(*table);
  } else {
    e.requantize.lo = std::max<int64_t>(e.requantize.lo,
                                        static_cast<int32_t>(op.getActMin()));
    e.requantize.hi = std::min<int64_t>(e.requantize.hi,
                                        static_cast<int32_t>(op.getActMax()));
  }
  return e;
}

/// Each output channel's bound on |accumulator + bias|: sum |w - wzp| times
/// the largest |x - xzp| of the input type, plus |bias|; their maximum
/// when the layer has one scale (`perChannel` false). Empty without
/// constant weights. (The floor-affine fit then only needs the inputs a
/// channel can produce: RequantizeSpec::useFloorAffine.)
template <typename OpTy>
SmallVector<int64_t> accumulatorReach(OpTy op, DenseElementsAttr bias,
                                      bool perChannel) {
  DenseElementsAttr weights;
  if (!matchPattern(op.getWeight(), m_Constant(&weights)))
    return {};
  auto type = cast<ShapedType>(weights.getType());
  int64_t channels = type.getDimSize(0);
  if (channels <= 0 || (bias && bias.getNumElements() != channels))
    return {};
  int64_t perChannelWeights = type.getNumElements() / channels;
  bool isUnsigned = type.getElementType().isUnsignedInteger();
  // (I32Attr getters return the bits as uint32_t.)
  int64_t wzp = static_cast<int32_t>(op.getWeightZeroPoint());
  auto [inLo, inHi] = getStorageRange(op.getInput().getType().getElementType());
  int64_t xzp = static_cast<int32_t>(op.getInputZeroPoint());
  int64_t largestInput = std::max(xzp - inLo, inHi - xzp);
  SmallVector<int64_t> reach(channels, 0);
  int64_t i = 0;
  for (const APInt &v : weights.getValues<APInt>()) {
    int64_t w =
        isUnsigned ? static_cast<int64_t>(v.getZExtValue()) : v.getSExtValue();
    reach[i++ / perChannelWeights] += std::abs(w - wzp);
  }
  for (int64_t o = 0; o < channels; ++o) {
    reach[o] *= largestInput;
    if (bias)
      reach[o] += std::abs(bias.getValues<APInt>()[o].getSExtValue());
  }
  if (!perChannel)
    return {*llvm::max_element(reach)};
  return reach;
}

/// The epilogue as one elementwise linalg.generic over the i32 accumulators
/// `acc` (channels last): the fallback when no kernel takes it.
Value emitEpilogueGeneric(OpBuilder &b, Location loc, const NPUEpilogue &e,
                          Value acc, Value bias) {
  auto accType = cast<RankedTensorType>(acc.getType());
  int64_t rank = accType.getRank();
  MLIRContext *ctx = b.getContext();
  AffineMap identity = b.getMultiDimIdentityMap(rank);
  AffineMap channel =
      AffineMap::get(rank, 0, b.getAffineDimExpr(rank - 1), ctx);
  SmallVector<Value> inputs = {acc};
  SmallVector<AffineMap> maps = {identity};
  if (bias) {
    inputs.push_back(bias);
    maps.push_back(channel);
  }
  for (DenseElementsAttr table : e.requantize.channelTables(ctx)) {
    inputs.push_back(arith::ConstantOp::create(b, loc, table));
    maps.push_back(channel);
  }
  maps.push_back(identity);
  Value lut = e.lutConstant(b, loc);
  Value init = tensor::EmptyOp::create(b, loc, accType.getShape(),
                                       e.requantize.outElement);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()}, inputs, ValueRange{init}, maps,
             iterators,
             [&](OpBuilder &nb, Location l, ValueRange args) {
               Value biasArg = bias ? args[1] : Value();
               ValueRange tables = args.drop_front(bias ? 2 : 1).drop_back();
               linalg::YieldOp::create(
                   nb, l, e.emit(nb, l, args[0], biasArg, tables, lut));
             })
      .getResult(0);
}

/// The epilogue as a kernel's: the private function (acc, [bias],
/// [multiplier, left, right | factor]) -> result, with the bias and the
/// requantize tables as channel constants, except those whose entries are
/// all equal: those are scalar constants of the function (as
/// linalg-fuse-elementwise-ops folds splat operands of a generic), so
/// that, say, a left shift of 0 folds away.
KernelEpilogue kernelEpilogue(const NPUEpilogue &e, DenseElementsAttr bias,
                              std::string name, bool depthwise, Location loc,
                              ModuleOp module) {
  KernelEpilogue k;
  k.name = std::move(name);
  k.depthwise = depthwise;
  MLIRContext *ctx = module.getContext();
  // Bias first, then the requantize tables; null entries are absent.
  SmallVector<DenseElementsAttr> operands = {bias};
  llvm::append_range(operands, e.requantize.channelTables(ctx));
  SmallVector<Type> argTypes = {IntegerType::get(ctx, 32)};
  for (DenseElementsAttr v : operands)
    if (v && !v.isSplat()) {
      k.channelConstants.push_back(v);
      argTypes.push_back(v.getElementType());
    }
  k.build = [e, argTypes, operands, loc, module](OpBuilder &b,
                                                 StringRef fnName) mutable {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(module.getBody());
    auto fn = func::FuncOp::create(
        b, loc, fnName, b.getFunctionType(argTypes, {e.requantize.outElement}));
    fn.setPrivate();
    Block *entry = fn.addEntryBlock();
    b.setInsertionPointToStart(entry);
    SmallVector<Value> values;
    unsigned next = 1;
    for (DenseElementsAttr v : operands) {
      if (!v)
        values.push_back(Value());
      else if (v.isSplat())
        values.push_back(
            arith::ConstantOp::create(b, loc, v.getSplatValue<TypedAttr>()));
      else
        values.push_back(entry->getArgument(next++));
    }
    Value lut = e.lutConstant(b, loc);
    func::ReturnOp::create(b, loc,
                           e.emit(b, loc, entry->getArgument(0), values[0],
                                  ArrayRef(values).drop_front(), lut));
    return fn;
  };
  return k;
}

/// An error at `op` (before anything is created) when an operand or result
/// is not statically shaped.
LogicalResult checkStaticShapes(Operation *op) {
  for (Type type :
       llvm::concat<const Type>(op->getOperandTypes(), op->getResultTypes()))
    if (!cast<ShapedType>(type).hasStaticShape())
      return op->emitOpError("lowering needs static shapes, got ") << type;
  return success();
}

/// npu.conv2d and npu.fully_connected.
template <typename OpTy>
struct NPUConvLikeLowering : OpConversionPattern<OpTy> {
  using OpAdaptor = typename OpTy::Adaptor;
  static constexpr bool isConv = std::is_same_v<OpTy, npu::Conv2DOp>;

  NPUConvLikeLowering(const TypeConverter &converter, MLIRContext *ctx,
                      StringRef target, bool fuseDepthwise,
                      int64_t depthwiseSelfPaddingMinBytes, bool floorAffine,
                      std::shared_ptr<int64_t> counter)
      : OpConversionPattern<OpTy>(converter, ctx), target(target.str()),
        fuseDepthwise(fuseDepthwise),
        depthwiseSelfPaddingMinBytes(depthwiseSelfPaddingMinBytes),
        floorAffine(floorAffine), counter(std::move(counter)) {}

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (failed(checkStaticShapes(op)))
      return failure();
    // (The verifier makes pad_value the input zero point, with which the
    // kernels and qnn.conv2d pad.)
    FailureOr<NPUEpilogue> epilogue = getEpilogue(op);
    if (failed(epilogue))
      return failure();

    // A kernel with the epilogue inside.
    DenseElementsAttr bias;
    bool constantBias =
        !op.getBias() || matchPattern(op.getBias(), m_Constant(&bias));
    if (std::optional<KernelFlavor> flavor = flavorForTarget(target);
        flavor && constantBias) {
      std::string name = "epilogue" + std::to_string((*counter)++);
      auto module = op->template getParentOfType<ModuleOp>();
      KernelEpilogue k =
          kernelEpilogue(*epilogue, bias, name, fuseDepthwise, loc, module);
      // The kernels with AVX-512 rescale in the floor-affine form where
      // every channel has one.
      if (NPUEpilogue floor = *epilogue;
          floorAffine && usesFloorAffine(*flavor) &&
          floor.requantize.useFloorAffine([&] {
            return accumulatorReach(op, bias, floor.requantize.channels() > 1);
          }))
        k.floorAffine = std::make_shared<KernelEpilogue>(
            kernelEpilogue(floor, bias, name, fuseDepthwise, loc, module));
      ConvKernelRequest request = ConvKernelRequest::common(op);
      request.depthwiseSelfPaddingMinBytes = depthwiseSelfPaddingMinBytes;
      FailureOr<Value> fast =
          isConv ? lowerConvWithKernel(rewriter, request, adaptor.getInput(),
                                       *flavor, &k)
                 : lowerDenseWithKernel(rewriter, request, adaptor.getInput(),
                                        *flavor, &k);
      if (succeeded(fast)) {
        rewriter.replaceOp(op, *fast);
        return success();
      }
    }

    // The qnn accumulator and an elementwise epilogue.
    Value acc = createNPUCore(rewriter, op);
    rewriter.replaceOp(op, emitEpilogueGeneric(rewriter, loc, *epilogue, acc,
                                               adaptor.getBias()));
    return success();
  }

  std::string target;
  bool fuseDepthwise;
  int64_t depthwiseSelfPaddingMinBytes;
  bool floorAffine;
  std::shared_ptr<int64_t> counter;
};

/// npu.add and the pools: the qnn operator, then the activation.
template <typename OpTy>
struct NPUWithActivationLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkStaticShapes(op)))
      return failure();
    rewriter.replaceOp(
        op, applyNPUActivation(rewriter, op, createNPUCore(rewriter, op)));
    return success();
  }
};

} // namespace

void lowering::populateNPUToLinalgPatterns(const TypeConverter &converter,
                                           RewritePatternSet &patterns,
                                           StringRef target, bool fuseDepthwise,
                                           int64_t depthwiseSelfPaddingMinBytes,
                                           bool floorAffine) {
  MLIRContext *ctx = patterns.getContext();
  auto counter = std::make_shared<int64_t>(0);
  patterns.add<NPUConvLikeLowering<npu::Conv2DOp>,
               NPUConvLikeLowering<npu::FullyConnectedOp>>(
      converter, ctx, target, fuseDepthwise, depthwiseSelfPaddingMinBytes,
      floorAffine, counter);
  patterns.add<NPUWithActivationLowering<npu::AddOp>,
               NPUWithActivationLowering<npu::AvgPool2DOp>,
               NPUWithActivationLowering<npu::MaxPool2DOp>>(converter, ctx);
}
