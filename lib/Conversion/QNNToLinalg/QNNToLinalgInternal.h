//===- QNNToLinalgInternal.h - shared pieces of the qnn lowering -*- C++
//-*-===//

#ifndef QNN_LIB_CONVERSION_QNNTOLINALG_INTERNAL_H
#define QNN_LIB_CONVERSION_QNNTOLINALG_INTERNAL_H

#include "QNN/Conversion/Passes.h"
#include "QNN/IR/QNNOps.h"
#include "QNN/Utils/QuantMath.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

namespace mlir::qnn::lowering {

/// An integer constant of `type` (wrapping `value` to its width).
Value intConst(OpBuilder &b, Location loc, Type type, int64_t value);

/// Integer resize with zero extension for unsigned storage.
Value extendTo(OpBuilder &b, Location loc, Value v, Type type, bool isUnsigned);

/// gemmlowp's SaturatingRoundingDoublingHighMul on i64 operands holding
/// i32 values (x * y * 2 / 2^32, halves up: (x * y + 2^30) >> 31), as i64;
/// the saturating case (both INT32_MIN) is the caller's to exclude.
Value emitRoundingDoublingHighMul(OpBuilder &b, Location loc, Value x,
                                  Value y);
/// gemmlowp's RoundingDivideByPOT of `x` by `exponent` (halves away from
/// zero), in the integer type of both (i32 or i64).
Value emitRoundingDivideByPOT(OpBuilder &b, Location loc, Value x,
                              Value exponent);
/// Saturates a wider integer to the i32 range and narrows it to i32.
Value saturateToI32(OpBuilder &b, Location loc, Value v);

/// TFLite's MultiplyByQuantizedMultiplier on an i32 value; see QuantMath.
Value emitMultiplyByQuantizedMultiplier(OpBuilder &b, Location loc, Value x,
                                        Value multiplier, Value leftShift,
                                        Value rightShift);
/// TFLite's single-rounding MultiplyByQuantizedMultiplier
/// (TFLITE_SINGLE_ROUNDING=1): `(x * m + 2^(t-1)) >> t` on the 64-bit
/// product with `t = 31 - leftShift + rightShift`, saturated to i32. Operand
/// types as emitMultiplyByQuantizedMultiplier's.
Value emitSingleRoundingMultiply(OpBuilder &b, Location loc, Value x,
                                 Value multiplier, Value leftShift,
                                 Value rightShift);

/// A requantize of integers to an integer storage type under one of the
/// rounding rules: the constants of qnn.requantize (and of the requantize
/// inside npu.conv2d / npu.fully_connected), computed once.
struct RequantizeSpec {
  Rounding rounding = Rounding::tflite;
  int64_t inputZp = 0, outputZp = 0;
  /// The final clamp: the storage range, or a narrower activation range
  /// (clamp(clamp(v, qmin, qmax), lo, hi) = clamp(v, lo, hi)).
  int64_t lo = 0, hi = 0;
  /// The signless storage type.
  Type outElement;
  /// Fixed-point rules: per channel (or one) multiplier and shifts.
  SmallVector<int64_t> multipliers, lefts, rights;
  /// The ONNX rule: per channel (or one) float32 factor.
  SmallVector<float> factors;
  /// The fixed-point rules' rescale in its floor-affine form
  /// (math::fitRescaleFloorAffine), per channel (or one): set by
  /// useFloorAffine, which kernels with AVX-512 take (one float32 fma per
  /// 16 lanes instead of two 64-bit multiplies).
  SmallVector<::mlir::qnn::math::FloorAffine> floorAffine;

  /// Multipliers (or factors) for `inputScales[i] / outputScale`; an error
  /// on `op` when a multiplier needs a left shift above 31.
  static FailureOr<RequantizeSpec>
  get(Operation *op, ArrayRef<double> inputScales, float outputScale,
      int64_t inputZeroPoint, int64_t outputZeroPoint, Type resultElement,
      Rounding rounding);
  /// Fits every channel's rescale (clamped to [lo - outputZp, hi -
  /// outputZp]) with math::fitRescaleFloorAffine and keeps the fits in
  /// `floorAffine`; false (and nothing kept) unless every channel fits.
  /// `reach`, if given, returns bounds on the inputs' magnitude (one per
  /// channel, or one; math::fitRescaleFloorAffine's reach) for the
  /// channels that do not fit over all of int32: it is called at most
  /// once, and only when some channel needs it.
  bool
  useFloorAffine(llvm::function_ref<SmallVector<int64_t>()> reach = nullptr);
  /// Whether some channel's floor-affine form has an offset per sign.
  bool floorAffineSplits() const;
  int64_t channels() const {
    return static_cast<int64_t>(
        rounding == Rounding::onnx ? factors.size() : multipliers.size());
  }
  /// The per-channel tables emitRequantizeScalar reads, 1-D, in its order:
  /// multiplier (i64), left shift (i32), right shift (i64); the ONNX
  /// factor (f32); or the floor-affine slope, offset and (if some channel
  /// splits) negative offset (f32); none for a single channel.
  SmallVector<DenseElementsAttr> channelTables(MLIRContext *ctx) const;
};

/// The requantize of one integer `input` (`inputUnsigned` says how to
/// widen it) to the spec's signless storage type; `tables` holds the
/// channel's elements of channelTables() (empty for one channel).
Value emitRequantizeScalar(OpBuilder &b, Location loc, Value input,
                           bool inputUnsigned, const RequantizeSpec &spec,
                           ValueRange tables);

/// The same tensor type with a signless element type.
RankedTensorType signlessTensor(RankedTensorType type);

/// `input` padded with `low`/`high` elements per dimension of `padValue`:
/// linalg.fill of a new tensor and a linalg.copy of the input into its
/// interior slice. Unlike tensor.pad, whose bufferized strided memref.copy
/// is a runtime call (or scalar loops) copying element by element, both
/// ops are vectorized and, with threads, tiled across threads by
/// qnn-vectorize-elementwise.
Value padWithFillAndCopy(OpBuilder &b, Location loc, Value input,
                         ArrayRef<int64_t> low, ArrayRef<int64_t> high,
                         Value padValue);

/// A tensor of `shape` filled with an integer.
/// The indexing of a row-wise op along the innermost dimension of a tensor
/// of `shape`: its identity map, the map to the row tensor (the shape with
/// the last dimension 1), and the iterators of an elementwise op and of a
/// reduction over each row.
struct RowIndexing {
  SmallVector<int64_t> rowShape;
  AffineMap identity, rowMap;
  SmallVector<utils::IteratorType> parallel, rowReduction;
};
RowIndexing rowIndexing(OpBuilder &b, ArrayRef<int64_t> shape);

Value emptyFilled(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                  Type elementType, int64_t fill);

/// The instruction a convolution kernel is built around (see
/// ConvKernels.cpp).
enum class KernelFlavor : int64_t {
  Generic = 0,
  Int16 = 1,
  Int16AVX512 = 2,
  VNNI = 3,
  Depthwise = 4,
  /// Depthwise with vpdpbusd as a multiply-add of one byte per i32 lane.
  DepthwiseVNNI = 5,
  /// Depthwise for the Int16 target (AVX2): the Depthwise kernel, whose
  /// epilogue avoids 64-bit arithmetic shifts, which AVX2 lacks.
  DepthwiseAVX2 = 6,
};

/// The kernel flavor of a `target` option value, if it names one.
std::optional<KernelFlavor> flavorForTarget(StringRef target);

/// Everything the body of a kernel depends on; stored on the kernel's
/// declaration as attribute `qnn.conv_kernel`.
struct KernelSpec {
  KernelFlavor flavor = KernelFlavor::Generic;
  /// Padded input [n, hp, wp, cp] (with grouped pixels, the view of the
  /// input; see pixelGroup), output [n, oh, ow, op].
  int64_t n = 1, hp = 1, wp = 1, cp = 1, oh = 1, ow = 1;
  int64_t kh = 1, kw = 1, sh = 1, sw = 1, dh = 1, dw = 1, op = 1;
  bool inputSigned = true;
  /// Input zero point (int16, generic, depthwise).
  int64_t izp = 0;
  /// VNNI: coefficient, in [-128, 128] (128 - wzp for 8-bit unsigned
  /// weights, -wzp for signed ones), of each output pixel's sum of the
  /// activation bytes in its window. DepthwiseVNNI with packed kernel
  /// rows: coefficient, in [-128, 127], of each output's window sum of the
  /// activation bytes (weights that leave the signed
  /// byte range, 8-bit unsigned ones beside their zero point, are stored
  /// less d). 0 elsewhere.
  int64_t d = 0;
  /// Depthwise only: channel multiplier.
  int64_t mult = 1;
  /// Depthwise flavors only: the kernel pads by itself (no padded copy): the
  /// input memref is [n, inH, inW, cp] and the padded plane [hp, wp]
  /// starts `padTop` rows and `padLeft` columns before it; positions
  /// outside the input read the zero point (see corrSize). 0 = the input
  /// is the padded plane.
  int64_t inH = 0, inW = 0, padTop = 0, padLeft = 0;
  /// GEMM flavors only: the output channels the kernel stores when fewer
  /// than op (the output is then [n, oh, ow, oc], and the stores of the
  /// last channel block are masked: AVX-512's byte-masked stores, so that
  /// an epilogue's 8-bit results need no strided copy out of padded rows).
  /// 0 = op.
  int64_t oc = 0;
  /// DepthwiseVNNI only: pixels per 16-lane vector (2, 4 or 8), for layers
  /// of 16 / pixelGroup channels at stride 1 along the width. 1 = one
  /// pixel's cp channels per vector. Above 1, the input memref is the
  /// padded plane [n, hp, wp + pixelGroup - 1, cp / pixelGroup], which the
  /// kernel views as [n, hp, wp, cp] with a column step of cp / pixelGroup
  /// elements (column iw: pixels iw to iw + pixelGroup - 1), and [hp, wp,
  /// sw = pixelGroup, ow] describe that view: output column X holds pixels
  /// pixelGroup * X to pixelGroup * X + pixelGroup - 1, lane l channel l %
  /// (cp / pixelGroup), and the weights, `corr` and channel constants
  /// repeat the layer's channels across the vector. Every lane computes
  /// (the alternative pads the channels to 16).
  int64_t pixelGroup = 1;
  int64_t storedChannels() const { return oc ? oc : op; }
  int64_t inputH() const { return inH ? inH : hp; }
  /// Elements of the kernel's `corr` vector: one per output channel, and
  /// for a self-padding depthwise kernel 16 more holding the zero point
  /// (the lanes read outside the input).
  int64_t corrSize() const { return inH ? op + 16 : op; }
  int64_t inputW() const { return inW ? inW : wp; }
  /// The kernel's input memref: [n, inputH, inputW, cp], or with grouped
  /// pixels the padded plane they are read from.
  SmallVector<int64_t> inputShape() const {
    if (pixelGroup > 1)
      return {n, hp, wp + pixelGroup - 1, cp / pixelGroup};
    return {n, inputH(), inputW(), cp};
  }

  /// Values of K per instruction step and output channels per vector.
  int64_t kGroup() const;
  bool isDepthwise() const {
    return flavor == KernelFlavor::Depthwise ||
           flavor == KernelFlavor::DepthwiseVNNI ||
           flavor == KernelFlavor::DepthwiseAVX2;
  }
  int64_t lanes() const;
  /// DepthwiseVNNI with 2 to 4 kernel rows: each i32 lane holds the bytes
  /// of every kernel row at one column (row j in byte j) and its weights
  /// those rows' weights, so one vpdpbusd adds a whole kernel column. The
  /// packed weights are [mult][1][kw][cp] i32, not [mult][kh][kw][cp].
  bool packsKernelRows() const {
    return flavor == KernelFlavor::DepthwiseVNNI && kh >= 2 && kh <= 4;
  }
  /// A depthwise kernel's packed weights: [mult][kh][kw][cp], or
  /// [mult][1][kw][cp] when it packs kernel rows.
  SmallVector<int64_t> depthwiseWeightShape() const {
    return {mult, packsKernelRows() ? 1 : kh, kw, cp};
  }
  /// A depthwise kernel's output: [n, oh, ow, cp] with multiplier 1 (the
  /// layout of the convolution's result, so no reshape or copy follows),
  /// else [n, oh, ow, mult, cp].
  SmallVector<int64_t> depthwiseOutputShape() const {
    if (mult == 1)
      return {n, oh, ow, cp};
    return {n, oh, ow, mult, cp};
  }
  DenseI64ArrayAttr toAttr(MLIRContext *ctx) const;
  static FailureOr<KernelSpec> fromAttr(DenseI64ArrayAttr attr);
};

/// The name of every convolution kernel function starts with this.
constexpr llvm::StringLiteral kKernelNamePrefix = "__qnn_kernel_";
constexpr llvm::StringLiteral kKernelAttrName = "qnn.conv_kernel";
/// Unit attribute of the kernel functions: the LLVM lowering (FuncToLLVM)
/// passes their buffers as bare pointers rather than memref descriptors.
constexpr llvm::StringLiteral kBarePointerAttrName = "llvm.bareptr";
/// On a kernel declaration: the private scalar function (accumulator,
/// per-channel constants...) -> result that the kernel applies to its
/// accumulators before storing them (qnn-fuse-kernel-epilogues). Such a
/// kernel takes the per-channel constants (memref<op x T>) after its
/// correction vector and stores the epilogue's results.
constexpr llvm::StringLiteral kEpilogueAttrName = "qnn.kernel_epilogue";
/// On an epilogue function: for each layer that shares the kernel and each
/// per-channel argument, the range [min, max] of the argument's values over
/// the channels (DenseI64ArrayAttr: layer-major, two entries per argument;
/// min > max for a float argument). The kernels' packed narrowing takes
/// zero points and clamp bounds that differ between the layers from it.
constexpr llvm::StringLiteral kArgumentRangesAttrName =
    "qnn.argument_ranges";

/// The range [min, max] of one epilogue argument over one layer's channels,
/// or none (a float argument).
using ArgumentRange = std::optional<std::pair<int64_t, int64_t>>;

/// Reads an epilogue function's kArgumentRangesAttrName record:
/// result[m][a - 1] is the range of argument a (after the accumulator) over
/// the channels of layer m. Empty without a well-formed record.
SmallVector<SmallVector<ArgumentRange>>
readArgumentRanges(func::FuncOp epilogue);

/// A convolution as the kernels take it: qnn.conv2d, npu.conv2d, and
/// dense layers (qnn.dense, npu.fully_connected) as 1x1 convolutions.
struct ConvKernelRequest {
  /// The operation lowered: location and enclosing module.
  Operation *op = nullptr;
  /// The original types: their signedness matters.
  RankedTensorType inputType, weightType, resultType;
  /// The weights (only constants have a kernel).
  Value weight;
  KernelLayout kernelLayout = KernelLayout::OHWI;
  bool nhwc = true;
  int64_t inputZp = 0, weightZp = 0, groups = 1;
  SmallVector<int64_t> padding = {0, 0, 0, 0}, strides = {1, 1},
                       dilations = {1, 1};
  /// A non-VNNI depthwise kernel pads by itself from inputs of this many
  /// bytes (convert-qnn-to-linalg's depthwise-self-padding-min-bytes).
  int64_t depthwiseSelfPaddingMinBytes = kDefaultDepthwiseSelfPaddingMinBytes;

  static ConvKernelRequest of(Conv2DOp op);
  static ConvKernelRequest of(DenseOp op);

  /// The fields of a conv-like op (qnn or npu): those every one has, and
  /// the strides, padding, dilations and groups of a convolution.
  template <typename OpTy> static ConvKernelRequest common(OpTy op) {
    ConvKernelRequest r;
    r.op = op;
    r.inputType = op.getInput().getType();
    r.weightType = op.getWeight().getType();
    r.resultType = op.getOutput().getType();
    r.weight = op.getWeight();
    r.inputZp = static_cast<int32_t>(op.getInputZeroPoint());
    r.weightZp = static_cast<int32_t>(op.getWeightZeroPoint());
    if constexpr (has_window<OpTy>::value) {
      r.groups = op.getGroups();
      r.padding.assign(op.getPadding().begin(), op.getPadding().end());
      r.strides.assign(op.getStrides().begin(), op.getStrides().end());
      r.dilations.assign(op.getDilations().begin(), op.getDilations().end());
    }
    return r;
  }

private:
  template <typename OpTy, typename = void>
  struct has_window : std::false_type {};
  template <typename OpTy>
  struct has_window<OpTy,
                    std::void_t<decltype(std::declval<OpTy>().getGroups())>>
      : std::true_type {};
};

/// What a kernel applies to its i32 accumulators before storing them: a
/// private scalar function (acc: i32, one element of each channel
/// constant...) -> result, as qnn-fuse-kernel-epilogues builds from a
/// following linalg.generic and the npu lowering from an npu operator's
/// attributes.
struct KernelEpilogue {
  /// Suffix of the kernel's name (unique per lowered operation).
  std::string name;
  /// Creates the function `fnName` at the end of the module; called only
  /// once the kernel is certain.
  std::function<func::FuncOp(OpBuilder &, StringRef fnName)> build;
  /// 1-D, one element per output channel each.
  SmallVector<DenseElementsAttr> channelConstants;
  /// Whether a depthwise kernel may take it (channel multiplier 1 only).
  bool depthwise = true;
  /// The same epilogue with its rescale in the floor-affine form
  /// (RequantizeSpec::floorAffine), if it has one: what the kernels with
  /// AVX-512 take (usesFloorAffine).
  std::shared_ptr<const KernelEpilogue> floorAffine = {};
};

/// Whether kernels of `flavor` take an epilogue's floor-affine form: those
/// built with AVX-512 (a float32 fma rounded down on 16 lanes).
bool usesFloorAffine(KernelFlavor flavor);

/// Lowers a convolution (groups == 1 or depthwise, NHWC, static shapes,
/// constant weights) / a dense layer with constant weights to a kernel
/// call, or fails without creating anything. `input` is the signless
/// input. The result holds the i32 accumulators or, with `epilogue`, its
/// results.
FailureOr<Value> lowerConvWithKernel(RewriterBase &rewriter,
                                     const ConvKernelRequest &request,
                                     Value input, KernelFlavor flavor,
                                     const KernelEpilogue *epilogue = nullptr);
FailureOr<Value> lowerDenseWithKernel(RewriterBase &rewriter,
                                      const ConvKernelRequest &request,
                                      Value input, KernelFlavor flavor,
                                      const KernelEpilogue *epilogue = nullptr);

/// The names of the symbols something in `module` refers to (calls, symbol
/// attributes such as qnn.kernel_epilogue), in one walk: the passes that
/// erase unused kernels and epilogue templates ask this once instead of
/// one whole-module query per function.
llvm::DenseSet<StringAttr> referencedSymbols(ModuleOp module);

/// Gives the kernel declaration `func` its body; `epilogue`, when given, is
/// applied to the accumulator vectors before they are stored. With `vbmi`
/// the VNNI depthwise kernels may use AVX512-VBMI instructions.
void buildConvKernelBody(OpBuilder &builder, func::FuncOp func,
                         const KernelSpec &spec, bool emulateVNNI,
                         func::FuncOp epilogue = {}, bool parallel = false,
                         int64_t parallelMinWork = 0, bool vbmi = false);

/// The lowering of the npu operators (NPUToLinalg.cpp).
void populateNPUToLinalgPatterns(const TypeConverter &converter,
                                 RewritePatternSet &patterns, StringRef target,
                                 bool fuseDepthwise,
                                 int64_t depthwiseSelfPaddingMinBytes,
                                 bool floorAffine);

/// The lowering of qnn.l2_normalize (L2NormalizeLowering.cpp).
void populateL2NormalizeLowering(const TypeConverter &converter,
                                 RewritePatternSet &patterns);

/// The lowering of qnn.log_softmax (LogSoftmaxLowering.cpp).
void populateLogSoftmaxLowering(const TypeConverter &converter,
                                RewritePatternSet &patterns);

} // namespace mlir::qnn::lowering

#endif // QNN_LIB_CONVERSION_QNNTOLINALG_INTERNAL_H
