//===- ConvKernels.cpp - vector kernels for convolutions and dense --------===//
//
// Convolutions (groups == 1, NHWC, constant weights) and dense layers with
// constant weights are lowered to a call of a private kernel function that
// works on buffers; its body is built after bufferization by
// qnn-materialize-conv-kernels (buildConvKernelBody below, with the
// KernelBuilder of ConvKernelBuilder.h), so that bufferization and buffer
// deallocation never see vector intrinsics. This file holds the kernels'
// descriptions (KernelSpec), the packing of their operands and the calls.
//
// A convolution is a GEMM over rows m = (n, oh, ow) and the reduction
// k = (kh, kw, c):  out[m, o] = sum_k (x[m, k] - izp) * (w[o, k] - wzp).
// The input is padded with izp (spatially, and along C up to a multiple of
// the kernel's K group), so padded positions contribute exactly 0. The
// kernel keeps a tile of R output pixels (consecutive in the flattened
// (oh, ow) plane, so tiles cross image rows) x NR blocks of B output
// channels in vector registers as loop-carried values (scf.for iter_args)
// through the whole (kh, kw, c) reduction and stores each accumulator once;
// R is 8, 6 or 4 on the 512-bit flavors (up to 24 accumulators of the 32
// registers), 4 on the 256-bit ones; the last pixels of an image (fewer
// than R) are single-pixel tiles.
//
// Flavors (the per-step instruction):
// - vnni: `llvm.x86.avx512.vpdpbusd.512`, 4 values of K per step, B = 16.
//   The instruction multiplies unsigned bytes u by signed bytes w':
//   u = x (+128 for s8 activations: xor 0x80, applied before the kernel),
//   z = izp (+128); w' = w for s8
//   weights, w - 128 for u8 weights, and d = 128 * [u8 weights] - wzp, so
//   (x - izp)(w - wzp) = (u - z)(w' + d). Summed over k:
//     sum u w' + d * sum u - z * sum w' - K z d.
//   The last two terms are folded into a per-channel constant at compile
//   time; the window sum d * sum u (only when d != 0) is computed once per
//   pixel and unit (windowSum) and added to the pixel's initial
//   accumulators.
// - int16 / int16-avx512bw: x - izp and w - wzp are exact in i16; pairs of
//   K are multiplied and added by `llvm.x86.avx2.pmadd.wd` (B = 8) or
//   `llvm.x86.avx512.pmaddw.d.512` (B = 16).
// - generic: x - izp broadcast as i32 times w - wzp (packed as i16),
//   portable vector code, B = 8.
// Depthwise convolutions (groups == C) use their own kernels, 16 channels
// per vector (8 on int16) and the taps as the reduction: vpdpbusd per lane
// on the vnni target, i32 multiply-adds of x and w - wzp on the others;
// all start from a per-channel constant that holds -izp * sum(w - wzp).
//
// Weights are packed at compile time as [O/B][KH][KW][C/kg][B x kg]: lane j
// of block b holds w[B b + j, kh, kw, kg c .. kg c + kg - 1].
//
//===----------------------------------------------------------------------===//

#include "ConvKernelBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"

#include <cstring>
#include <numeric>

using namespace mlir;
using namespace mlir::qnn;
using namespace mlir::qnn::lowering;

//===----------------------------------------------------------------------===//
// Kernel descriptions
//===----------------------------------------------------------------------===//

int64_t KernelSpec::kGroup() const {
  switch (flavor) {
  case KernelFlavor::VNNI:
    return 4;
  case KernelFlavor::Int16:
  case KernelFlavor::Int16AVX512:
    return 2;
  default:
    return 1;
  }
}

int64_t KernelSpec::lanes() const {
  switch (flavor) {
  case KernelFlavor::VNNI:
  case KernelFlavor::Int16AVX512:
  case KernelFlavor::Depthwise:
  case KernelFlavor::DepthwiseVNNI:
    return 16;
  default:
    return 8;
  }
}

std::optional<KernelFlavor> lowering::flavorForTarget(StringRef target) {
  return llvm::StringSwitch<std::optional<KernelFlavor>>(target)
      .Case("generic", KernelFlavor::Generic)
      .Case("int16", KernelFlavor::Int16)
      .Case("int16-avx512bw", KernelFlavor::Int16AVX512)
      .Case("avx512-vnni", KernelFlavor::VNNI)
      .Default(std::nullopt);
}

bool lowering::usesFloorAffine(KernelFlavor flavor) {
  return flavor == KernelFlavor::VNNI ||
         flavor == KernelFlavor::DepthwiseVNNI ||
         flavor == KernelFlavor::Int16AVX512;
}

DenseI64ArrayAttr KernelSpec::toAttr(MLIRContext *ctx) const {
  SmallVector<int64_t> v = {static_cast<int64_t>(flavor),
                            n,
                            hp,
                            wp,
                            cp,
                            oh,
                            ow,
                            kh,
                            kw,
                            sh,
                            sw,
                            dh,
                            dw,
                            op,
                            inputSigned ? 1 : 0,
                            izp,
                            d,
                            mult};
  if (inH)
    v.append({inH, inW, padTop, padLeft});
  // (Depthwise kernels never store fewer channels, nor GEMM kernels group
  // pixels: the one entry after the 18 is either.)
  if (oc)
    v.push_back(oc);
  if (pixelGroup > 1)
    v.push_back(pixelGroup);
  return DenseI64ArrayAttr::get(ctx, v);
}

FailureOr<KernelSpec> KernelSpec::fromAttr(DenseI64ArrayAttr attr) {
  ArrayRef<int64_t> v = attr.asArrayRef();
  // 18 entries, 22 for a self-padding depthwise kernel (inH, inW, padTop,
  // padLeft), 19 for a GEMM kernel that stores fewer channels (oc) or a
  // depthwise one that groups pixels (pixelGroup).
  if ((v.size() != 18 && v.size() != 19 && v.size() != 22) || v[0] < 0 ||
      v[0] > 6)
    return failure();
  KernelSpec s;
  s.flavor = static_cast<KernelFlavor>(v[0]);
  s.n = v[1], s.hp = v[2], s.wp = v[3], s.cp = v[4], s.oh = v[5];
  s.ow = v[6], s.kh = v[7], s.kw = v[8], s.sh = v[9], s.sw = v[10];
  s.dh = v[11], s.dw = v[12], s.op = v[13], s.inputSigned = v[14] != 0;
  s.izp = v[15], s.d = v[16], s.mult = v[17];
  for (size_t i = 1; i < 18; ++i)
    if (i != 15 && i != 16 && v[i] < (i == 14 ? 0 : 1))
      return failure();
  if (v.size() == 22) {
    s.inH = v[18], s.inW = v[19], s.padTop = v[20], s.padLeft = v[21];
    if (!s.isDepthwise() || s.inH < 1 || s.inW < 1 || s.padTop < 0 ||
        s.padLeft < 0 || s.padTop + s.inH > s.hp || s.padLeft + s.inW > s.wp)
      return failure();
  }
  if (s.cp % s.kGroup() != 0 || s.op % s.lanes() != 0 ||
      (s.isDepthwise() && s.cp % 16 != 0))
    return failure();
  // A window sum's coefficient is one signed byte of a vpdpbusd operand
  // (the GEMM kernel's may also be 128, the negated sum of -128 times the
  // bytes: 128 - wzp for 8-bit unsigned weights, -wzp for signed ones).
  if (s.d != 0 && s.flavor != KernelFlavor::VNNI &&
      (!s.packsKernelRows() || s.d < -128 || s.d > 127))
    return failure();
  if (s.flavor == KernelFlavor::VNNI && (s.d < -128 || s.d > 128))
    return failure();
  // Grouped pixels: 16 / g channels of a padded plane at stride 1, one
  // block, multiplier 1; its output columns are g pixels apart (sw = g;
  // the view's columns, one pixel apart, overlap).
  if (v.size() == 19 && s.isDepthwise()) {
    s.pixelGroup = v[18];
    int64_t g = s.pixelGroup;
    if (s.flavor != KernelFlavor::DepthwiseVNNI ||
        (g != 2 && g != 4 && g != 8) || s.cp != 16 || s.op != 16 ||
        s.mult != 1 || s.sw != g || s.dw != 1)
      return failure();
    return s;
  }
  // The stored channels end in the last block.
  if (v.size() == 19) {
    s.oc = v[18];
    if (s.isDepthwise() || s.oc >= s.op || s.oc <= s.op - s.lanes())
      return failure();
  }
  return s;
}

static const char *flavorName(KernelFlavor f) {
  switch (f) {
  case KernelFlavor::Generic:
    return "generic";
  case KernelFlavor::Int16:
    return "int16";
  case KernelFlavor::Int16AVX512:
    return "int16_512";
  case KernelFlavor::VNNI:
    return "vnni";
  case KernelFlavor::Depthwise:
    return "dw";
  case KernelFlavor::DepthwiseVNNI:
    return "dwvnni";
  case KernelFlavor::DepthwiseAVX2:
    return "dwavx2";
  }
  return "";
}

static int64_t roundUp(int64_t v, int64_t m) { return (v + m - 1) / m * m; }

/// Whether the flavor's GEMM kernels store output channels that do not fill
/// their last vector themselves (KernelSpec::oc): the 512-bit flavors, whose
/// targets have AVX-512 byte-masked stores (elsewhere LLVM would split a
/// masked store into one conditional store per byte).
static bool masksPaddedChannels(KernelFlavor flavor) {
  return flavor == KernelFlavor::VNNI || flavor == KernelFlavor::Int16AVX512;
}

/// Grouped pixels: each run of `period` values (one vector's lanes)
/// repeats its first `c`, so that lane l holds channel l % c.
template <typename T>
static void repeatChannels(SmallVectorImpl<T> &values, int64_t c,
                           int64_t period) {
  for (size_t base = 0; base < values.size(); base += period)
    for (int64_t l = c; l < period; ++l)
      values[base + l] = values[base + l % c];
}

/// Whether the flavor's kernels read the activations widened to i16, their
/// zero point subtracted (the int16 ones: emitGemmConv widens them).
static bool readsWidenedInput(KernelFlavor flavor) {
  return flavor == KernelFlavor::Int16 || flavor == KernelFlavor::Int16AVX512;
}

//===----------------------------------------------------------------------===//
// Rewriting the ops into kernel calls
//===----------------------------------------------------------------------===//

static bool isUnsignedType(Type type) {
  auto intType = dyn_cast<IntegerType>(getElementTypeOrSelf(type));
  return intType && intType.isUnsigned();
}

static std::optional<SmallVector<int64_t>> constantInts(Value value) {
  DenseIntElementsAttr attr;
  if (!matchPattern(value, m_Constant(&attr)))
    return std::nullopt;
  bool isUnsigned = isUnsignedType(value.getType());
  int64_t count = attr.getNumElements();
  SmallVector<int64_t> result;
  result.reserve(count);
  // Weights of whole networks pass through here (MobileNet v2: 3.4 M): read
  // the stored bytes of 8- to 64-bit elements directly rather than through
  // an APInt per element.
  auto readAll = [&](auto signedTag, auto unsignedTag) {
    using S = decltype(signedTag);
    using U = decltype(unsignedTag);
    ArrayRef<char> raw = attr.getRawData();
    bool splat = attr.isSplat();
    for (int64_t i = 0; i < count; ++i) {
      const char *p = raw.data() + (splat ? 0 : i * sizeof(S));
      S v;
      std::memcpy(&v, p, sizeof(S));
      result.push_back(isUnsigned ? static_cast<int64_t>(static_cast<U>(v))
                                  : static_cast<int64_t>(v));
    }
  };
  switch (attr.getElementType().getIntOrFloatBitWidth()) {
  case 8:
    readAll(int8_t(), uint8_t());
    return result;
  case 16:
    readAll(int16_t(), uint16_t());
    return result;
  case 32:
    readAll(int32_t(), uint32_t());
    return result;
  case 64:
    readAll(int64_t(), uint64_t());
    return result;
  default:
    break;
  }
  for (const APInt &v : attr.getValues<APInt>())
    result.push_back(isUnsigned ? static_cast<int64_t>(v.getZExtValue())
                                : v.getSExtValue());
  return result;
}

/// `fn` applied to every element of `input`, written into `init` (an
/// elementwise linalg.generic).
static Value mapElements(OpBuilder &b, Location loc, Value input, Value init,
                         function_ref<Value(OpBuilder &, Location, Value)> fn) {
  auto type = cast<RankedTensorType>(input.getType());
  AffineMap id = b.getMultiDimIdentityMap(type.getRank());
  SmallVector<utils::IteratorType> parallel(type.getRank(),
                                            utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()}, ValueRange{input},
             ValueRange{init}, ArrayRef<AffineMap>{id, id}, parallel,
             [&](OpBuilder &nb, Location l, ValueRange args) {
               linalg::YieldOp::create(nb, l, fn(nb, l, args[0]));
             })
      .getResult(0);
}

/// `x xor 0x80` of every byte of the i8 tensor `input` (the same values as
/// u8 + 128), written into `init`.
static Value flipSignBits(OpBuilder &b, Location loc, Value input, Value init) {
  return mapElements(b, loc, input, init,
                     [](OpBuilder &nb, Location l, Value x) -> Value {
                       return arith::XOrIOp::create(
                           nb, l, x, intConst(nb, l, nb.getI8Type(), 0x80));
                     });
}

/// ext(x) - `zp` of every element of the 8-bit tensor `input`, as i16 (x
/// and zp in [0, 255] or [-128, 127]: exact): the int16 kernels' operand.
static Value widenToI16(OpBuilder &b, Location loc, Value input,
                        bool isUnsigned, int64_t zp) {
  auto type = cast<RankedTensorType>(input.getType());
  Type i16 = b.getI16Type();
  Value init = tensor::EmptyOp::create(b, loc, type.getShape(), i16);
  return mapElements(
      b, loc, input, init, [&](OpBuilder &nb, Location l, Value x) -> Value {
        Value wide = extendTo(nb, l, x, i16, isUnsigned);
        return arith::SubIOp::create(nb, l, wide, intConst(nb, l, i16, zp));
      });
}

/// The NCHW tensor of which the NHWC tensor `input` is the transpose
/// (tosa.transpose with perms 0, 2, 3, 1), if it is one.
static Value nchwSource(Value input) {
  auto transpose = input.getDefiningOp<tosa::TransposeOp>();
  if (!transpose || transpose.getPerms() != ArrayRef<int32_t>{0, 2, 3, 1})
    return {};
  return transpose.getInput1();
}

/// An NHWC activation of 1-3 channels padded to 4 channels and spatially
/// (`pads` = top, left, bottom, right) with `value`, as vector code; with
/// `flip`, the values also get their sign bits flipped (`value` is in the
/// flipped range). The rows above and below the input are filled; every
/// input row is one iteration of an scf.forall (its padded row written by
/// exactly one iteration, so threads split the rows as the kernel that
/// reads them does, and each thread's rows stay in its own cache): the left
/// and right padding columns are written, then the row is expanded 16
/// pixels at a time, one read of 16 * C bytes, one xor with 0x80 (`flip`),
/// one shuffle that inserts the padding byte after each pixel's C channels
/// and one 64-byte write, without masks; a row's last, partial tile reads
/// and writes masked, its missing pixels being `value` (they land in the
/// right padding or beyond the row, where the write is masked). (A generic
/// copy into the strided interior moved single bytes: a quarter of a first
/// convolution's time; a fill of the whole padded tensor and a separate
/// flip pass over the input were serial and cost more than a third of a
/// two-thread first convolution.)
///
/// With `nchw`, `input` is the activation's NCHW form (the operand of the
/// transpose that made it NHWC, as PyTorch-like models begin): each tile
/// reads 16 bytes from each of the C planes and the same shuffle
/// interleaves them, so no transposed copy is made (tosa.transpose
/// lowered to scalar loops over single bytes: 4% of MobileNet v2's time).
static Value expandToFourChannels(OpBuilder &b, Location loc, Value input,
                                  ArrayRef<int64_t> pads, int64_t value,
                                  bool flip, bool nchw = false) {
  auto type = cast<RankedTensorType>(input.getType());
  int64_t n = type.getDimSize(0), h = type.getDimSize(nchw ? 2 : 1),
          w = type.getDimSize(nchw ? 3 : 2), c = type.getDimSize(nchw ? 1 : 3);
  int64_t oh = h + pads[0] + pads[2], ow = w + pads[1] + pads[3];
  int64_t rowBytes = ow * 4;
  Type i8 = b.getI8Type();
  constexpr int64_t kPixels = 16;
  auto idx = [&](OpBuilder &ob, int64_t v) -> Value {
    return arith::ConstantIndexOp::create(ob, loc, v);
  };
  auto splat = [&](OpBuilder &ob, int64_t count, int64_t v) -> Value {
    APInt bits(8, v, /*isSigned=*/v < 0, /*implicitTrunc=*/true);
    return arith::ConstantOp::create(
        ob, loc,
        DenseElementsAttr::get(VectorType::get({count}, i8),
                               ob.getIntegerAttr(i8, bits)));
  };
  Value padByte = intConst(b, loc, i8, value);
  Value out =
      tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{n, oh, rowBytes}, i8);
  // The rows above and below the input.
  auto fillRows = [&](int64_t first, int64_t count) {
    if (count == 0)
      return;
    SmallVector<OpFoldResult> offsets = {
        b.getIndexAttr(0), b.getIndexAttr(first), b.getIndexAttr(0)};
    SmallVector<OpFoldResult> sizes = {b.getIndexAttr(n), b.getIndexAttr(count),
                                       b.getIndexAttr(rowBytes)};
    SmallVector<OpFoldResult> strides(3, b.getIndexAttr(1));
    Value slice =
        tensor::ExtractSliceOp::create(b, loc, out, offsets, sizes, strides);
    Value filled = linalg::FillOp::create(b, loc, padByte, slice).getResult(0);
    out = tensor::InsertSliceOp::create(b, loc, filled, out, offsets, sizes,
                                        strides);
  };
  fillRows(0, pads[0]);
  fillRows(pads[0] + h, pads[2]);

  Value in = nchw ? input
                  : tensor::CollapseShapeOp::create(
                        b, loc, input,
                        ArrayRef<ReassociationIndices>{{0}, {1}, {2, 3}})
                        .getResult();
  auto readType = VectorType::get({kPixels * c}, i8);
  // Byte k of pixel p: at p * C + k of the NHWC read, at k * 16 + p of the
  // concatenated planes' reads; the padding byte after the C channels.
  SmallVector<int64_t> mask;
  for (int64_t p = 0; p < kPixels; ++p)
    for (int64_t k = 0; k < 4; ++k)
      mask.push_back(k >= c ? kPixels * c : nchw ? k * kPixels + p : p * c + k);
  // Pixels beyond the input row read as `value` once flipped.
  Value readPad = intConst(b, loc, i8, flip ? (value ^ 0x80) : value);
  auto rowType = RankedTensorType::get({rowBytes}, i8);
  auto forall = scf::ForallOp::create(
      b, loc, ArrayRef<OpFoldResult>{b.getIndexAttr(n), b.getIndexAttr(h)},
      ValueRange{out}, /*mapping=*/std::nullopt);
  {
    OpBuilder fb(forall.getTerminator());
    Value nIv = forall.getInductionVar(0), hIv = forall.getInductionVar(1),
          shared = forall.getRegionIterArgs()[0];
    SmallVector<OpFoldResult> offsets = {
        nIv, arith::AddIOp::create(fb, loc, hIv, idx(fb, pads[0])).getResult(),
        fb.getIndexAttr(0)};
    SmallVector<OpFoldResult> sizes = {fb.getIndexAttr(1), fb.getIndexAttr(1),
                                       fb.getIndexAttr(rowBytes)};
    SmallVector<OpFoldResult> strides(3, fb.getIndexAttr(1));
    Value row = tensor::ExtractSliceOp::create(fb, loc, rowType, shared,
                                               offsets, sizes, strides);
    auto writePad = [&](int64_t first, int64_t pixels) {
      if (pixels == 0)
        return;
      row = vector::TransferWriteOp::create(
                fb, loc, splat(fb, pixels * 4, value), row,
                ValueRange{idx(fb, first * 4)}, ArrayRef<bool>{true})
                .getResult();
    };
    writePad(0, pads[1]);
    writePad(pads[1] + w, pads[3]);
    // Tile of the 16 pixels from w0 into `acc`; `inBounds` when all 16
    // are inside the input row (so also inside the padded row): plain
    // loads and stores, no mask.
    auto expandTile = [&](OpBuilder &wb, Value w0, Value acc,
                          bool inBounds) -> Value {
      Value pixels;
      if (nchw) {
        // The planes' 16 bytes, concatenated.
        auto planeType = VectorType::get({kPixels}, i8);
        for (int64_t k = 0; k < c; ++k) {
          Value plane = vector::TransferReadOp::create(
              wb, loc, planeType, in, ValueRange{nIv, idx(wb, k), hIv, w0},
              readPad, ArrayRef<bool>{inBounds});
          if (!pixels) {
            pixels = plane;
            continue;
          }
          int64_t have = cast<VectorType>(pixels.getType()).getNumElements();
          SmallVector<int64_t> concat(have + kPixels);
          std::iota(concat.begin(), concat.end(), 0);
          pixels = vector::ShuffleOp::create(wb, loc, pixels, plane, concat);
        }
      } else {
        Value src = arith::MulIOp::create(wb, loc, w0, idx(wb, c));
        pixels = vector::TransferReadOp::create(
            wb, loc, readType, in, ValueRange{nIv, hIv, src}, readPad,
            ArrayRef<bool>{inBounds});
      }
      if (flip)
        pixels = arith::XOrIOp::create(wb, loc, pixels,
                                       splat(wb, kPixels * c, 0x80));
      Value wide = vector::ShuffleOp::create(wb, loc, pixels,
                                             splat(wb, kPixels, value), mask);
      Value col = arith::MulIOp::create(
          wb, loc, arith::AddIOp::create(wb, loc, w0, idx(wb, pads[1])),
          idx(wb, 4));
      return vector::TransferWriteOp::create(
                 wb, loc, wide, acc, ValueRange{col}, ArrayRef<bool>{inBounds})
          .getResult();
    };
    // The tiles inside the row, then a last partial tile that reads and
    // writes masked (masks computed for every tile had cost a tenth of a
    // 224x224 first convolution).
    int64_t inside = w / kPixels * kPixels;
    if (inside > 0)
      row = scf::ForOp::create(
                fb, loc, idx(fb, 0), idx(fb, inside), idx(fb, kPixels),
                ValueRange{row},
                [&](OpBuilder &wb, Location, Value w0, ValueRange acc) {
                  scf::YieldOp::create(
                      wb, loc, expandTile(wb, w0, acc[0], /*inBounds=*/true));
                })
                .getResult(0);
    if (inside < w)
      row = expandTile(fb, idx(fb, inside), row, /*inBounds=*/false);
    fb.setInsertionPointToStart(forall.getTerminator().getBody());
    tensor::ParallelInsertSliceOp::create(fb, loc, row, shared, offsets, sizes,
                                          strides);
  }
  return tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get({n, oh, ow, 4}, i8), forall.getResult(0),
      ArrayRef<ReassociationIndices>{{0}, {1}, {2, 3}});
}

/// Pads an NHWC activation with `value`: `pads` = top, left, bottom, right
/// and `extraC` channels at the end. With `flip`, the values also get
/// their sign bits flipped (flipSignBits).
static Value padNHWC(OpBuilder &b, Location loc, Value input,
                     ArrayRef<int64_t> pads, int64_t extraC, int64_t value,
                     bool flip = false) {
  auto type = cast<RankedTensorType>(input.getType());
  if (llvm::all_of(pads, [](int64_t p) { return p == 0; }) && extraC == 0)
    return flip ? flipSignBits(b, loc, input,
                               tensor::EmptyOp::create(b, loc, type.getShape(),
                                                       type.getElementType()))
                : input;
  Type element = type.getElementType();
  if (element.isInteger(8) && type.getDimSize(3) < 4 &&
      type.getDimSize(3) + extraC == 4 && type.hasStaticShape()) {
    // A transposed NCHW input: the expansion reads its planes itself.
    if (Value planes = nchwSource(input))
      return expandToFourChannels(b, loc, planes, pads, value, flip,
                                  /*nchw=*/true);
    return expandToFourChannels(b, loc, input, pads, value, flip);
  }
  // Flipped first (one pass over whole vectors: qnn-vectorize-elementwise
  // flattens it when the channels are fewer than a vector), then padded by
  // the usual copy.
  if (flip)
    input =
        flipSignBits(b, loc, input,
                     tensor::EmptyOp::create(b, loc, type.getShape(), element));
  return padWithFillAndCopy(b, loc, input, {0, pads[0], pads[1], 0},
                            {0, pads[2], pads[3], extraC},
                            intConst(b, loc, element, value));
}

static std::string kernelName(MLIRContext *ctx, const KernelSpec &s) {
  std::string name = (kKernelNamePrefix + flavorName(s.flavor)).str();
  for (int64_t v : s.toAttr(ctx).asArrayRef().drop_front())
    name += "_" + (v < 0 ? "m" + std::to_string(-v) : std::to_string(v));
  return name;
}

/// Declares the private kernel function `name` (x, w, corr, `extra`...,
/// out) carrying the spec, or returns the existing one.
static func::FuncOp declareKernel(OpBuilder &builder, ModuleOp module,
                                  StringRef name, const KernelSpec &s,
                                  Type weightElement,
                                  ArrayRef<int64_t> weightShape,
                                  ArrayRef<Type> extra, MemRefType outType,
                                  Location loc) {
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  MLIRContext *ctx = builder.getContext();
  Type i32 = builder.getI32Type();
  Type xElement =
      readsWidenedInput(s.flavor) ? builder.getI16Type() : builder.getI8Type();
  SmallVector<Type> inputs = {MemRefType::get(s.inputShape(), xElement),
                              MemRefType::get(weightShape, weightElement),
                              MemRefType::get({s.corrSize()}, i32)};
  inputs.append(extra.begin(), extra.end());
  inputs.push_back(outType);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(module.getBody());
  auto func = func::FuncOp::create(builder, loc, name,
                                   FunctionType::get(ctx, inputs, {}));
  func.setPrivate();
  func->setAttr(kKernelAttrName, s.toAttr(ctx));
  return func;
}

/// Emits the kernel call; returns the output tensor of `outShape`: the i32
/// accumulators or, with `epilogue`, its results (the kernel then takes
/// the epilogue's channel constants after `corr`, padded with the last
/// channel's to the kernel's s.op output channels for layers whose channels
/// do not fill the
/// last block: on the AVX-512 targets every GEMM layer, whose kernels store
/// those channels masked, elsewhere dense layers, whose padded 8-bit rows
/// are then sliced; repeated across the lanes for a depthwise kernel that
/// groups pixels, KernelSpec::pixelGroup).
static Value emitKernelCall(OpBuilder &b, Location loc, Operation *op,
                            const KernelSpec &s, Value paddedInput,
                            Value packedWeights, ArrayRef<int32_t> corr,
                            ArrayRef<int64_t> outShape,
                            const KernelEpilogue *epilogue = nullptr) {
  auto module = op->getParentOfType<ModuleOp>();
  auto wTensorType = cast<RankedTensorType>(packedWeights.getType());
  Type i32 = b.getI32Type();
  std::string name = kernelName(b.getContext(), s);
  Type outElement = i32;
  func::FuncOp epilogueFn;
  SmallVector<DenseElementsAttr> constants;
  SmallVector<Type> extra;
  if (epilogue && epilogue->floorAffine && usesFloorAffine(s.flavor))
    epilogue = epilogue->floorAffine.get();
  if (epilogue) {
    name += "_" + epilogue->name;
    epilogueFn = epilogue->build(b, name + "_fn");
    outElement = epilogueFn.getResultTypes()[0];
    for (DenseElementsAttr v : epilogue->channelConstants) {
      Type element = v.getElementType();
      auto type = RankedTensorType::get({s.op}, element);
      // Most layers need no padding: reuse the attribute as it is. Padding
      // goes through APInt/APFloat, never through one Attribute per element:
      // the last channel's constants again (a padded lane computes a result
      // that nothing stores, and the kernel's argument ranges stay those of
      // the layer's channels: zeros there, a shift of 0 among them, ruled
      // out the forms that need every shift to be at least 1 or 2), or with
      // grouped pixels the layer's channels again (lane l holds channel l %
      // c).
      auto fill = [&](auto values) {
        int64_t c = values.size();
        auto last = values.back();
        values.resize(s.op, last);
        if (s.pixelGroup > 1)
          repeatChannels(values, c, s.op);
        constants.push_back(DenseElementsAttr::get(type, values));
      };
      if (v.getNumElements() == s.op)
        constants.push_back(v.reshape(type));
      else if (isa<FloatType>(element))
        fill(SmallVector<APFloat>(v.getValues<APFloat>()));
      else
        fill(SmallVector<APInt>(v.getValues<APInt>()));
      extra.push_back(MemRefType::get({s.op}, element));
    }
  }
  auto outType = MemRefType::get(outShape, outElement);
  func::FuncOp kernel =
      declareKernel(b, module, name, s, wTensorType.getElementType(),
                    wTensorType.getShape(), extra, outType, loc);
  if (epilogueFn)
    kernel->setAttr(kEpilogueAttrName,
                    FlatSymbolRefAttr::get(epilogueFn.getSymNameAttr()));
  Value corrTensor = arith::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(RankedTensorType::get({s.corrSize()}, i32),
                             llvm::ArrayRef(corr)));
  FunctionType type = kernel.getFunctionType();
  SmallVector<Value> operands;
  operands.push_back(bufferization::ToBufferOp::create(
      b, loc, type.getInput(0), paddedInput, /*read_only=*/true));
  operands.push_back(bufferization::ToBufferOp::create(
      b, loc, type.getInput(1), packedWeights, /*read_only=*/true));
  operands.push_back(bufferization::ToBufferOp::create(
      b, loc, type.getInput(2), corrTensor, /*read_only=*/true));
  for (DenseElementsAttr v : constants) {
    Value t = arith::ConstantOp::create(b, loc, v);
    operands.push_back(bufferization::ToBufferOp::create(
        b, loc, type.getInput(operands.size()), t, /*read_only=*/true));
  }
  Value outBuf =
      memref::AllocOp::create(b, loc, outType, b.getI64IntegerAttr(64));
  operands.push_back(outBuf);
  func::CallOp::create(b, loc, kernel, operands);
  return bufferization::ToTensorOp::create(
      b, loc, RankedTensorType::get(outShape, outElement), outBuf,
      /*restrict=*/true, /*writable=*/true);
}

/// The GEMM-shaped kernel for a convolution given as x [N, H, W, C]
/// (signless, NHWC) and weights w[o][kh][kw][c] (values, in their own
/// signedness). Returns the [N, OH, OW, O] i32 result.
static Value emitGemmConv(OpBuilder &b, Location loc, Operation *op,
                          KernelFlavor flavor, Value input, bool inUnsigned,
                          bool wUnsigned, int64_t izp, int64_t wzp,
                          ArrayRef<int64_t> w, int64_t o, int64_t kh,
                          int64_t kw, ArrayRef<int64_t> pads,
                          ArrayRef<int64_t> strides, ArrayRef<int64_t> dil,
                          const KernelEpilogue *epilogue) {
  auto inType = cast<RankedTensorType>(input.getType());
  int64_t n = inType.getDimSize(0), h = inType.getDimSize(1),
          wd = inType.getDimSize(2), c = inType.getDimSize(3);
  // vpdpbusd wants unsigned activations: signed ones are made unsigned
  // (x + 128, i.e. x xor 0x80) before the kernel, by an elementwise op
  // ahead of the padding copy, rather than in its inner loop, where the
  // xor would take a vector ALU slot from every broadcast. The elementwise
  // op usually merges into the producer's requantize
  // (linalg-fuse-elementwise-ops), so that the previous kernel's epilogue
  // stores flipped bytes at no cost.
  bool flip = flavor == KernelFlavor::VNNI && !inUnsigned;
  if (flip) {
    inUnsigned = true;
    izp += 128;
  }
  KernelSpec s;
  s.flavor = flavor;
  int64_t kg = s.kGroup(), lanes = s.lanes();
  s.n = n;
  s.hp = h + pads[0] + pads[2];
  s.wp = wd + pads[1] + pads[3];
  s.cp = roundUp(c, kg);
  s.kh = kh, s.kw = kw, s.sh = strides[0], s.sw = strides[1];
  s.dh = dil[0], s.dw = dil[1];
  s.oh = (s.hp - dil[0] * (kh - 1) - 1) / strides[0] + 1;
  s.ow = (s.wp - dil[1] * (kw - 1) - 1) / strides[1] + 1;
  s.op = roundUp(o, lanes);
  s.inputSigned = !inUnsigned;
  s.izp = izp;
  s.mult = 1;
  int64_t blocks = s.op / lanes, chunks = s.cp / kg;
  auto wAt = [&](int64_t oc, int64_t y, int64_t x, int64_t ch) -> int64_t {
    return w[((oc * kh + y) * kw + x) * c + ch];
  };

  // Packed weights and per-channel constants.
  SmallVector<int32_t> corr(s.op, 0);
  Value packed;
  SmallVector<int64_t> wShape = {blocks, kh, kw, chunks, lanes * kg};
  int64_t total = blocks * kh * kw * chunks * lanes * kg;
  auto packedIndex = [&](int64_t oc, int64_t y, int64_t x, int64_t ch) {
    int64_t blk = oc / lanes, j = oc % lanes, cc = ch / kg, t = ch % kg;
    return ((((blk * kh + y) * kw + x) * chunks + cc) * lanes + j) * kg + t;
  };
  if (flavor == KernelFlavor::VNNI) {
    int64_t shift = wUnsigned ? 128 : 0;
    s.d = shift - wzp;
    int64_t z = izp + (inUnsigned ? 0 : 128);
    int64_t kTotal = kh * kw * s.cp;
    SmallVector<int8_t> data(total, 0);
    for (int64_t oc = 0; oc < o; ++oc) {
      int64_t sum = 0;
      for (int64_t y = 0; y < kh; ++y)
        for (int64_t x = 0; x < kw; ++x)
          for (int64_t ch = 0; ch < c; ++ch) {
            int64_t v = wAt(oc, y, x, ch) - shift;
            data[packedIndex(oc, y, x, ch)] = static_cast<int8_t>(v);
            sum += v;
          }
      corr[oc] = static_cast<int32_t>(-z * sum - kTotal * z * s.d);
    }
    // The VNNI kernel never reads the input zero point (the padding holds
    // it and `corr` folds it in): leave it out of the spec, so that layers
    // that differ only in it share one kernel function.
    s.izp = 0;
    packed = arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(RankedTensorType::get(wShape, b.getI8Type()),
                               llvm::ArrayRef(data)));
  } else {
    s.d = 0;
    SmallVector<int16_t> data(total, 0);
    for (int64_t oc = 0; oc < o; ++oc)
      for (int64_t y = 0; y < kh; ++y)
        for (int64_t x = 0; x < kw; ++x)
          for (int64_t ch = 0; ch < c; ++ch)
            data[packedIndex(oc, y, x, ch)] =
                static_cast<int16_t>(wAt(oc, y, x, ch) - wzp);
    packed = arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(RankedTensorType::get(wShape, b.getI16Type()),
                               llvm::ArrayRef(data)));
  }

  // The int16 kernels read x - izp as i16, computed once per element here
  // (and padded with 0) rather than per broadcast in their inner loop,
  // where the extension, subtraction and move into a vector register took
  // four vector instructions per broadcast beside two vpmaddwd (AVX2
  // pointwise layers ran at 58% of the vpmaddwd peak).
  Value padded;
  if (readsWidenedInput(flavor)) {
    s.izp = 0;
    s.inputSigned = true;
    // Fewer than 4 channels, padded (a first convolution's 3 -> 4): the
    // bytes are padded with izp first (3 -> 4 by the vector expansion,
    // expandToFourChannels, which also reads an NCHW source's planes),
    // then widened, izp becoming 0. Widened first, the i16 tensor took a
    // scalar copy of 3 elements per pixel (conv0, 224x224x3: 57% of its
    // time on Zen 3). Otherwise the widening comes first, where it can
    // merge into the producer's epilogue, and the i16 tensor is padded
    // with 0 (a copy of whole vectors per pixel).
    padded =
        c < 4 && s.cp != c
            ? widenToI16(b, loc, padNHWC(b, loc, input, pads, s.cp - c, izp),
                         inUnsigned, izp)
            : padNHWC(b, loc, widenToI16(b, loc, input, inUnsigned, izp), pads,
                      s.cp - c, 0);
  } else {
    padded = padNHWC(b, loc, input, pads, s.cp - c, izp, flip);
  }
  // With an epilogue, the AVX-512 kernels store the o channels themselves
  // (masked stores): no slice of padded rows follows.
  if (epilogue && s.op != o && masksPaddedChannels(flavor))
    s.oc = o;
  SmallVector<int64_t> outShape = {s.n, s.oh, s.ow, s.storedChannels()};
  Value out =
      emitKernelCall(b, loc, op, s, padded, packed, corr, outShape, epilogue);
  if (s.storedChannels() != o) {
    SmallVector<OpFoldResult> offsets(4, b.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes = {b.getIndexAttr(s.n),
                                       b.getIndexAttr(s.oh),
                                       b.getIndexAttr(s.ow), b.getIndexAttr(o)};
    SmallVector<OpFoldResult> ones(4, b.getIndexAttr(1));
    out = tensor::ExtractSliceOp::create(b, loc, out, offsets, sizes, ones);
  }
  return out;
}

/// The depthwise kernel's [N, OH, OW, M, Cp] output (i32, or an
/// epilogue's results) as [N, OH, OW, C * M] (channel-major: output channel
/// c * M + j); with grouped pixels [N, OH, OW / g, 16] as [N, OH, OW, C].
static Value finishDepthwise(OpBuilder &b, Location loc, Value out,
                             const KernelSpec &s, int64_t c) {
  Type element = cast<RankedTensorType>(out.getType()).getElementType();
  // Grouped pixels: [n, oh, ow / g, g * c] is [n, oh, ow, c].
  if (int64_t g = s.pixelGroup; g > 1) {
    Value split = tensor::ExpandShapeOp::create(
        b, loc, RankedTensorType::get({s.n, s.oh, s.ow, g, c}, element), out,
        SmallVector<ReassociationIndices>{{0}, {1}, {2}, {3, 4}});
    return tensor::CollapseShapeOp::create(
        b, loc, RankedTensorType::get({s.n, s.oh, s.ow * g, c}, element), split,
        SmallVector<ReassociationIndices>{{0}, {1}, {2, 3}, {4}});
  }
  int64_t mult = s.mult;
  int64_t rank = cast<RankedTensorType>(out.getType()).getRank();
  if (s.cp != c) {
    SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes = {
        b.getIndexAttr(s.n), b.getIndexAttr(s.oh), b.getIndexAttr(s.ow)};
    if (rank == 5)
      sizes.push_back(b.getIndexAttr(mult));
    sizes.push_back(b.getIndexAttr(c));
    SmallVector<OpFoldResult> ones(rank, b.getIndexAttr(1));
    out = tensor::ExtractSliceOp::create(b, loc, out, offsets, sizes, ones);
  }
  // Multiplier 1: the kernel wrote [N, OH, OW, C] itself.
  if (rank == 4)
    return out;
  if (mult > 1) {
    Value init = tensor::EmptyOp::create(
        b, loc, ArrayRef<int64_t>{s.n, s.oh, s.ow, c, mult}, element);
    out = linalg::TransposeOp::create(b, loc, out, init,
                                      ArrayRef<int64_t>{0, 1, 2, 4, 3})
              .getResult()[0];
  }
  return tensor::CollapseShapeOp::create(
      b, loc, RankedTensorType::get({s.n, s.oh, s.ow, c * mult}, element), out,
      SmallVector<ReassociationIndices>{{0}, {1}, {2}, {3, 4}});
}

/// The pixels per vector of a DepthwiseVNNI kernel (KernelSpec::pixelGroup)
/// for a layer of `c` channels, multiplier `mult`, kernel width `kw`,
/// padded width `paddedW`, width stride and dilation `sw` and `dw`: 16 / c
/// when c divides 16 (2, 4 or 8 channels: a depthwise layer has at least
/// 2) at stride 1 and the output width is a multiple of it, else 1. With
/// fewer channels than lanes the kernel would otherwise pad them to 16
/// (half the lanes idle at 8 channels), and its epilogue would run apart on
/// the padded rows.
static int64_t depthwisePixelGroup(int64_t c, int64_t mult, int64_t kw,
                                   int64_t paddedW, int64_t sw, int64_t dw) {
  if (mult != 1 || c < 2 || c >= 16 || 16 % c != 0 || sw != 1 || dw != 1)
    return 1;
  int64_t g = 16 / c, ow = paddedW - (kw - 1);
  return ow >= g && ow % g == 0 ? g : 1;
}

/// Depthwise convolution (groups == C): out channel c * mult + j reads
/// input channel c. Returns [N, OH, OW, C * mult]. With `vnni` (the
/// avx512-vnni target, when every w - wzp fits in a signed byte, or with 2
/// to 4 kernel rows every w - wzp - windowCoef) the kernel is
/// DepthwiseVNNI: activations as unsigned bytes (s8 ones flipped, the
/// zero point + 128), one channel per i32 lane (zero-extended bytes; with
/// `g` > 1, depthwisePixelGroup's, the channels of g pixels), and
/// weights as i32 lanes of w - wzp, so that vpdpbusd adds x * w per lane
/// (with 2 to 4 kernel rows, kernel row y's w - wzp in byte y of one lane
/// per kernel column: packsKernelRows).
/// With `avx2` (the int16 target) it is DepthwiseAVX2, else Depthwise
/// (weights as i16 lanes of w - wzp). Each kernel's accumulators start at
/// `corr`, which holds the input zero point's term per output channel.
static Value emitDepthwise(OpBuilder &b, Location loc, Operation *op,
                           Value input, bool inUnsigned, int64_t izp,
                           int64_t wzp, ArrayRef<int64_t> w, int64_t mult,
                           int64_t kh, int64_t kw, ArrayRef<int64_t> pads,
                           ArrayRef<int64_t> strides, ArrayRef<int64_t> dil,
                           bool vnni, int64_t windowCoef, int64_t g, bool avx2,
                           int64_t selfPadMinBytes,
                           const KernelEpilogue *epilogue) {
  auto inType = cast<RankedTensorType>(input.getType());
  int64_t n = inType.getDimSize(0), h = inType.getDimSize(1),
          wd = inType.getDimSize(2), c = inType.getDimSize(3);
  // The VNNI kernel reads unsigned bytes: s8 input is flipped (x + 128) in
  // the padding copy or, when it pads by itself, as it loads. A depthwise
  // kernel pads by itself when the channels fill its vectors: always the
  // VNNI one, the others (every one on the other targets, and avx512-vnni's
  // whose w - wzp leave the signed byte range) when the input holds
  // `selfPadMinBytes` or more. The border code (border rows and columns
  // beside the interior tiles) makes a kernel about twice as large (4
  // times before the border rows became one loop of checked tiles), while
  // only the layers over large inputs gain from it (the copy had taken 30%
  // of a 112x112x64 stride-2 layer's time). MobileNet v2 (Zen 3, int16;
  // qnn-run, four interleaved rounds): with every layer padding by itself LLVM
  // took 2.9-3.5 s, with none 1.7-2.3 s, with 256 KiB (the default: its 4
  // kernels over inputs of 400 KB or more, 112x112 and 56x56 planes)
  // 2.1-2.8 s; the network runs as fast as with every layer (minimum
  // 7.2-7.4 ms, against 7.5-7.9 with none).
  bool selfPad = c % 16 == 0 && (vnni || n * h * wd * c >= selfPadMinBytes);
  bool flip = vnni && !selfPad && !inUnsigned;
  int64_t z = izp + (inUnsigned ? 0 : 128);
  if (flip) {
    inUnsigned = true;
    izp += 128;
  }
  KernelSpec s;
  s.flavor = vnni   ? KernelFlavor::DepthwiseVNNI
             : avx2 ? KernelFlavor::DepthwiseAVX2
                    : KernelFlavor::Depthwise;
  s.n = n;
  s.hp = h + pads[0] + pads[2];
  s.wp = wd + pads[1] + pads[3];
  s.cp = roundUp(c, 16);
  s.kh = kh, s.kw = kw, s.sh = strides[0], s.sw = strides[1];
  s.dh = dil[0], s.dw = dil[1];
  // Grouped pixels (g > 1, VNNI only: depthwisePixelGroup): the kernel's
  // plane is the view of g-pixel columns, one per pixel (the last g - 1
  // pixels start none), its output columns g pixels apart.
  if (g > 1) {
    s.pixelGroup = g;
    s.wp -= g - 1;
    s.sw = g;
  }
  s.oh = (s.hp - dil[0] * (kh - 1) - 1) / strides[0] + 1;
  s.ow = (s.wp - dil[1] * (kw - 1) - 1) / s.sw + 1;
  s.op = s.cp * mult;
  s.inputSigned = !inUnsigned;
  // No kernel depends on the zero point: `corr` holds it (and, when the
  // kernel pads by itself, the lanes of the value it reads for the
  // padding, zk below, after the op values), so that layers differing only
  // in it share one kernel.
  s.izp = 0;
  s.d = windowCoef;
  s.mult = mult;
  if (selfPad) {
    s.inH = h, s.inW = wd, s.padTop = pads[0], s.padLeft = pads[1];
  }
  // Every kernel adds x * (w - wzp) per tap to accumulators that start at
  // `corr` = -zk * sum(w - wzp) per output channel, zk being the zero point
  // of the values it reads (z: the VNNI kernel's unsigned bytes; izp for
  // the others, which extend x as it is): the padding holds the zero
  // point, so each sum is that of (x - izp) * (w - wzp), exactly (in i32,
  // whose wrap-around cancels), and no kernel subtracts it per tap. With a
  // window coefficient d (KernelSpec::d) the packed weights are w - wzp - d
  // and the kernel adds d times each output's window sum of x, the same
  // sum of x * (w - wzp); `corr` is unchanged.
  int64_t zk = vnni ? z : izp;
  unsigned wBits = vnni ? 32 : 16;
  SmallVector<int32_t> corr(s.op, 0);
  // w is given as w[o][kh][kw] with o = ch * mult + j; packed [M][KH][KW][Cp],
  // or [M][1][KW][Cp] with kernel row y in byte y of each i32
  // (packsKernelRows).
  bool packRows = s.packsKernelRows();
  SmallVector<int64_t> wShape = s.depthwiseWeightShape();
  int64_t rows = wShape[1];
  SmallVector<APInt> data(mult * rows * kw * s.cp, APInt(wBits, 0));
  for (int64_t ch = 0; ch < c; ++ch)
    for (int64_t j = 0; j < mult; ++j) {
      int64_t sum = 0;
      for (int64_t y = 0; y < kh; ++y)
        for (int64_t x = 0; x < kw; ++x) {
          int64_t v = w[((ch * mult + j) * kh + y) * kw + x] - wzp;
          APInt &slot =
              data[((j * rows + (packRows ? 0 : y)) * kw + x) * s.cp + ch];
          if (packRows)
            slot.insertBits(APInt(8, v - windowCoef, /*isSigned=*/true), 8 * y);
          else
            slot = APInt(wBits, v, /*isSigned=*/true);
          sum += v;
        }
      corr[j * s.cp + ch] = static_cast<int32_t>(-zk * sum);
    }
  // Grouped pixels: lane l holds channel l % c of pixel l / c.
  if (g > 1) {
    repeatChannels(data, c, s.cp);
    repeatChannels(corr, c, s.cp);
  }
  if (selfPad)
    corr.append(16, static_cast<int32_t>(zk));
  Value packed = arith::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(
          RankedTensorType::get(wShape, b.getIntegerType(wBits)), data));
  Value padded =
      selfPad ? input
              : padNHWC(b, loc, input, pads, g > 1 ? 0 : s.cp - c, izp, flip);
  Value out = emitKernelCall(b, loc, op, s, padded, packed, corr,
                             s.depthwiseOutputShape(), epilogue);
  return finishDepthwise(b, loc, out, s, c);
}

ConvKernelRequest ConvKernelRequest::of(Conv2DOp op) {
  ConvKernelRequest r = common(op);
  r.kernelLayout = op.getKernelLayout();
  r.nhwc = op.getDataLayout() == ActivationLayout::NHWC;
  return r;
}

ConvKernelRequest ConvKernelRequest::of(DenseOp op) { return common(op); }

FailureOr<Value> lowering::lowerConvWithKernel(RewriterBase &rewriter,
                                               const ConvKernelRequest &r,
                                               Value input, KernelFlavor flavor,
                                               const KernelEpilogue *epilogue) {
  RankedTensorType inputType = r.inputType, weightType = r.weightType;
  if (!inputType.hasStaticShape() || !weightType.hasStaticShape() ||
      !r.resultType.hasStaticShape() || !r.nhwc)
    return failure();
  std::optional<SmallVector<int64_t>> raw = constantInts(r.weight);
  if (!raw)
    return failure();
  KernelDims kd = getKernelDims(r.kernelLayout);
  ArrayRef<int64_t> wshape = weightType.getShape();
  int64_t c = inputType.getDimSize(3), o = wshape[kd.o], ci = wshape[kd.i];
  int64_t kh = wshape[kd.h], kw = wshape[kd.w];
  int64_t groups = r.groups;
  bool depthwise = groups == c && ci == 1 && groups > 1;
  if (groups != 1 && !depthwise)
    return failure();
  // Epilogues of depthwise kernels: channel multiplier 1 only (the
  // kernel's channel order is [M][C]).
  if (epilogue && depthwise && (o != c || !epilogue->depthwise))
    return failure();
  // Nor of kernels with padded output channels, unless they store the
  // channels themselves (masksPaddedChannels, GEMM kernels) and pad at most
  // a quarter of them: the 8-bit results would be sliced out of the padded
  // rows by a strided copy, which costs more (measured: vww, 8 of 16
  // channels) than a separate elementwise epilogue reading the i32 slice;
  // and an epilogue inside the kernel requantizes the padded lanes too.
  // Zen 4, AOT, one thread (perf): MobileNet v2's two projections to 24
  // of 32 channels took 5.7% of its time with a separate 8-lane epilogue
  // and 5.1% with the epilogue inside (masked stores), while
  // person_detect's first convolution, 8 of 16 channels, took 12.8% and
  // 13.6%. VNNI kernels of at most 8 channels in one block pair pixels
  // instead (KernelBuilder::pairsPixels): every lane computes.
  int64_t lanes = KernelSpec{flavor}.lanes();
  int64_t padding = roundUp(o, lanes) - o;
  bool pairs = pairsChannels(flavor, o);
  // (Depthwise layers of fewer than 16 channels: below, once the kernel's
  // flavor is known.)
  if (epilogue && !depthwise && padding != 0 && !pairs &&
      (!masksPaddedChannels(flavor) || 4 * padding > o + padding))
    return failure();
  // Reorder the weights as w[o][kh][kw][i]: the position in w of a step
  // along each dimension of the stored layout.
  SmallVector<int64_t> w(raw->size());
  int64_t to[4];
  to[kd.o] = kh * kw * ci;
  to[kd.h] = kw * ci;
  to[kd.w] = ci;
  to[kd.i] = 1;
  const int64_t *from = raw->data();
  for (int64_t a = 0; a < wshape[0]; ++a)
    for (int64_t b = 0; b < wshape[1]; ++b)
      for (int64_t c = 0; c < wshape[2]; ++c) {
        int64_t base = a * to[0] + b * to[1] + c * to[2];
        for (int64_t d = 0; d < wshape[3]; ++d)
          w[base + d * to[3]] = *from++;
      }
  bool inUnsigned = isUnsignedType(inputType);
  bool wUnsigned = isUnsignedType(weightType);
  int64_t izp = r.inputZp, wzp = r.weightZp;
  if (flavor == KernelFlavor::VNNI && !wUnsigned &&
      llvm::any_of(w, [](int64_t v) { return v < -128 || v > 127; }))
    return failure();
  Location loc = r.op->getLoc();
  if (depthwise) {
    // The VNNI kernel's weights are signed bytes: w - wzp, or with packed
    // kernel rows w - wzp - d, the kernel adding d times each window sum of
    // the activations (KernelSpec::d): d is the value nearest 0 that brings
    // every weight into [-128, 127], which exists when they span at most
    // 256 values (always for 8-bit weights; uint8 per-tensor models' weights
    // lie on both sides of their zero point) and d fits a signed byte.
    // Zen 4, one thread, a 56x56x128 uint8 layer whose w - wzp leave the
    // range: 128 us on the i16 kernel, 88 us this way (71 us with d = 0).
    auto [lo, hi] = std::minmax_element(w.begin(), w.end());
    int64_t vlo = w.empty() ? 0 : *lo - wzp, vhi = w.empty() ? 0 : *hi - wzp;
    bool fits = vlo >= -128 && vhi <= 127;
    int64_t windowCoef = 0;
    if (!fits && kh >= 2 && kh <= 4 && vhi - vlo <= 255)
      windowCoef = std::clamp<int64_t>(0, vhi - 127, vlo + 128);
    bool vnni =
        flavor == KernelFlavor::VNNI &&
        (fits || (windowCoef != 0 && windowCoef >= -128 && windowCoef <= 127));
    // Layers of 2, 4 or 8 channels group pixels (KernelSpec::pixelGroup).
    // An epilogue needs every lane to be a channel of the layer: 16 of them
    // in each block, or grouped pixels.
    int64_t group = vnni ? depthwisePixelGroup(c, o / c, kw,
                                               inputType.getDimSize(2) +
                                                   r.padding[1] + r.padding[3],
                                               r.strides[1], r.dilations[1])
                         : 1;
    if (epilogue && c % 16 != 0 && group == 1)
      return failure();
    return emitDepthwise(rewriter, loc, r.op, input, inUnsigned, izp, wzp, w,
                         o / c, kh, kw, r.padding, r.strides, r.dilations, vnni,
                         vnni ? windowCoef : 0, group,
                         flavor == KernelFlavor::Int16,
                         r.depthwiseSelfPaddingMinBytes, epilogue);
  }
  return emitGemmConv(rewriter, loc, r.op, flavor, input, inUnsigned, wUnsigned,
                      izp, wzp, w, o, kh, kw, r.padding, r.strides, r.dilations,
                      epilogue);
}

FailureOr<Value> lowering::lowerDenseWithKernel(
    RewriterBase &rewriter, const ConvKernelRequest &r, Value input,
    KernelFlavor flavor, const KernelEpilogue *epilogue) {
  RankedTensorType inputType = r.inputType, weightType = r.weightType;
  if (!inputType.hasStaticShape() || !weightType.hasStaticShape())
    return failure();
  std::optional<SmallVector<int64_t>> w = constantInts(r.weight);
  if (!w)
    return failure();
  int64_t n = inputType.getDimSize(0), k = inputType.getDimSize(1);
  int64_t o = weightType.getDimSize(0);
  Location loc = r.op->getLoc();
  Type i8 = rewriter.getI8Type();
  // [N, K] as an NHWC image [1, 1, N, K] and a 1x1 kernel.
  Value image = tensor::ExpandShapeOp::create(
      rewriter, loc, RankedTensorType::get({1, 1, n, k}, i8), input,
      SmallVector<ReassociationIndices>{{0, 1, 2}, {3}});
  Value out = emitGemmConv(rewriter, loc, r.op, flavor, image,
                           isUnsignedType(inputType),
                           isUnsignedType(weightType), r.inputZp, r.weightZp,
                           *w, o, 1, 1, {0, 0, 0, 0}, {1, 1}, {1, 1}, epilogue);
  Type element = cast<RankedTensorType>(out.getType()).getElementType();
  return tensor::CollapseShapeOp::create(
             rewriter, loc, RankedTensorType::get({n, o}, element), out,
             SmallVector<ReassociationIndices>{{0, 1, 2}, {3}})
      .getResult();
}

//===----------------------------------------------------------------------===//
// Kernel bodies (KernelBuilder: ConvKernelBuilder.h)
//===----------------------------------------------------------------------===//

llvm::DenseSet<StringAttr> lowering::referencedSymbols(ModuleOp module) {
  llvm::DenseSet<StringAttr> referenced;
  if (std::optional<SymbolTable::UseRange> uses =
          SymbolTable::getSymbolUses(&module.getBodyRegion()))
    for (const SymbolTable::SymbolUse &use : *uses)
      referenced.insert(use.getSymbolRef().getRootReference());
  return referenced;
}

void lowering::buildConvKernelBody(OpBuilder &builder, func::FuncOp func,
                                   const KernelSpec &spec, bool emulateVNNI,
                                   func::FuncOp epilogue, bool parallel,
                                   int64_t parallelMinWork, bool vbmi) {
  Block *body = func.addEntryBlock();
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(body);
  // The depthwise builders index [n, oh, ow, mult, c]: a multiplier-1
  // output [n, oh, ow, c] is seen through a view with the unit dimension.
  Value out = body->getArguments().back();
  if (spec.isDepthwise() && cast<MemRefType>(out.getType()).getRank() == 4)
    out = memref::ExpandShapeOp::create(
        builder, func.getLoc(),
        ArrayRef<int64_t>{spec.n, spec.oh, spec.ow, 1, spec.cp}, out,
        SmallVector<ReassociationIndices>{{0}, {1}, {2}, {3, 4}});
  // A pointwise GEMM (1x1, stride 1, no padding) reads and writes its
  // pixels in one run: its body sees the [h, w] plane as [1, h * w], so
  // that pixel m's row and column are (0, m), not m / w and m % w, a
  // multiply-shift sequence per pixel in the pipelined loops that LLVM
  // cannot strength-reduce. MobileNet v2 (Zen 4, AOT, alternated): one
  // thread 2593-2623 -> 2534-2545 us, 8% less machine code.
  Value x = body->getArgument(0);
  // Grouped pixels (KernelSpec::pixelGroup): the plane of cp / g channels
  // seen as overlapping columns of cp lanes, one every cp / g elements.
  if (int64_t g = spec.pixelGroup; g > 1) {
    ArrayRef<int64_t> plane = cast<MemRefType>(x.getType()).getShape();
    int64_t c = plane[3];
    SmallVector<int64_t> strides = {plane[1] * plane[2] * c, plane[2] * c, c,
                                    1};
    SmallVector<int64_t> sizes = {spec.n, spec.hp, spec.wp, spec.cp};
    auto viewType = MemRefType::get(
        sizes, cast<MemRefType>(x.getType()).getElementType(),
        StridedLayoutAttr::get(builder.getContext(), 0, strides));
    x = memref::ReinterpretCastOp::create(builder, func.getLoc(), viewType, x,
                                          0, sizes, strides);
  }
  KernelSpec flat = spec;
  // (1x1 at stride 1: the output plane is the input plane, oh = hp.)
  if (!spec.isDepthwise() && spec.kh == 1 && spec.kw == 1 && spec.sh == 1 &&
      spec.sw == 1 && spec.oh > 1) {
    int64_t plane = spec.oh * spec.ow;
    auto flatten = [&](Value v) -> Value {
      auto type = cast<MemRefType>(v.getType());
      Value rows = memref::CollapseShapeOp::create(
          builder, func.getLoc(), v,
          SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}});
      return memref::ExpandShapeOp::create(
          builder, func.getLoc(),
          ArrayRef<int64_t>{type.getDimSize(0), 1, plane, type.getDimSize(3)},
          rows, SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}});
    };
    x = flatten(x);
    out = flatten(out);
    flat.hp = flat.oh = 1;
    flat.wp = flat.ow = plane;
  }
  KernelBuilder kb{builder,
                   func.getLoc(),
                   flat,
                   emulateVNNI,
                   parallel,
                   parallelMinWork,
                   x,
                   body->getArgument(1),
                   body->getArgument(2),
                   out};
  kb.entry = body;
  kb.vbmi = vbmi && !emulateVNNI;
  if (epilogue) {
    kb.epilogue = epilogue;
    for (BlockArgument arg : body->getArguments().drop_front(3).drop_back())
      kb.channelArgs.push_back(arg);
    if (kb.planOffsetProduct())
      kb.buildOffsetTables();
  }
  if (spec.isDepthwise())
    kb.buildDepthwiseRowTiles();
  else
    kb.buildGemm();
  func::ReturnOp::create(builder, func.getLoc());
}
