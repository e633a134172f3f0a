//===- ConvKernels.cpp - vector kernels for convolutions and dense --------===//
//
// Convolutions (groups == 1, NHWC, constant weights) and dense layers with
// constant weights are lowered to a call of a private kernel function that
// works on buffers; its body is built after bufferization by
// qnn-materialize-conv-kernels (buildConvKernelBody below), so that
// bufferization and buffer deallocation never see vector intrinsics.
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

#include "QNNToLinalgInternal.h"

#include "mlir/IR/IRMapping.h"

#include <cstring>
#include <limits>
#include <map>
#include <numeric>

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/SaveAndRestore.h"

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

DenseI64ArrayAttr KernelSpec::toAttr(MLIRContext *ctx) const {
  SmallVector<int64_t> v = {static_cast<int64_t>(flavor),
                            n, hp, wp, cp, oh, ow, kh, kw, sh, sw, dh, dw, op,
                            inputSigned ? 1 : 0, izp, d, mult};
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
    if (!s.isDepthwise() || s.inH < 1 || s.inW < 1 ||
        s.padTop < 0 || s.padLeft < 0 || s.padTop + s.inH > s.hp ||
        s.padLeft + s.inW > s.wp)
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

/// Whether a GEMM kernel of `channels` stored output channels pairs pixels
/// (KernelBuilder::pairsPixels): VNNI, at most half of one 16-lane block.
static bool pairsChannels(KernelFlavor flavor, int64_t channels) {
  return flavor == KernelFlavor::VNNI && channels > 0 && channels <= 8;
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

/// A depthwise multiply-add counts this many GEMM multiply-adds against
/// `parallel-min-work` (it runs at about an eighth of their rate: one per
/// lane per instruction instead of four, and more loads per product).
static constexpr int64_t kDepthwiseWorkFactor = 8;

/// A GEMM kernel of few pixels (a fully connected layer) streams its
/// weights from L2 or L3 rather than reusing them across pixels: each
/// weight counts this many multiply-adds against `parallel-min-work`, and
/// threads split its output channels. MobileNet v1's 1024 -> 1000 layer
/// read its 1 MB of weights at about 50 bytes per ns on one core (Zen 4).
static constexpr int64_t kStreamedWeightWorkFactor = 4;

/// GEMM kernels whose packed weights exceed this (more than an L1 data
/// cache holds beside the activations: 32 KiB on Zen 4, 48 on Zen 5 and
/// recent Xeons) loop over output channel groups outside the pixel tiles
/// (see pixelTileLoops; threaded pipelined kernels take their strips in
/// that order too). Tile-major, each tile of 3 pixels read every group's
/// weights from L2: 4 weight vectors per 12 vpdpbusd, more than Zen 5's L2
/// delivers. Zen 5, one thread: MobileNet v2's 14x14x96 -> 576 expansion
/// (54 KiB) 32.7 -> 22.8 us, its 7x7x160 -> 960 ones (150 KiB) 22.1 ->
/// 16.5, pw5 (64 KiB) 4% faster; two threads 19 -> 14.5 and 13.6 ->
/// 10.1 us. (Group-major units with 6 KiB of weights, 28x28x32 -> 192,
/// ran 1.6 times slower: the weights stay in L1 either way.)
static constexpr int64_t kGroupMajorWeightBytes = 32 * 1024;

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
      return vector::TransferWriteOp::create(wb, loc, wide, acc,
                                             ValueRange{col},
                                             ArrayRef<bool>{inBounds})
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
  std::string name = std::string("__qnn_kernel_") + flavorName(s.flavor);
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
    padded = c < 4 && s.cp != c
                 ? widenToI16(b, loc,
                              padNHWC(b, loc, input, pads, s.cp - c, izp),
                              inUnsigned, izp)
                 : padNHWC(b, loc, widenToI16(b, loc, input, inUnsigned, izp),
                           pads, s.cp - c, 0);
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
  // of a 112x112x64 stride-2 layer's time). MobileNet v2 (Zen 3, int16; qnn-run, four
  // interleaved rounds): with every layer padding by itself LLVM took
  // 2.9-3.5 s, with none 1.7-2.3 s, with 256 KiB (the default: its 4
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
// Kernel bodies
//===----------------------------------------------------------------------===//

/// vpdpbusd with generic vector ops: each i32 lane of `acc` adds the four
/// products of unsigned bytes of `a` and signed bytes of `w`.
static Value emulateVpdpbusd(OpBuilder &b, Location l, Value acc, Value a,
                             Value w) {
  int64_t lanes = cast<VectorType>(acc.getType()).getNumElements();
  auto wide = VectorType::get({4 * lanes}, b.getI32Type());
  Value p = arith::MulIOp::create(b, l, arith::ExtUIOp::create(b, l, wide, a),
                                  arith::ExtSIOp::create(b, l, wide, w));
  Value sum = acc;
  for (int64_t t = 0; t < 4; ++t) {
    SmallVector<int64_t> mask;
    for (int64_t j = 0; j < lanes; ++j)
      mask.push_back(4 * j + t);
    sum = arith::AddIOp::create(b, l, sum,
                                vector::ShuffleOp::create(b, l, p, p, mask));
  }
  return sum;
}

namespace {
/// Builds one kernel body.
struct KernelBuilder {
  OpBuilder &b;
  Location loc;
  const KernelSpec &s;
  bool emulate;
  bool parallel;
  int64_t parallelMinWork;
  Value x, w, corr, out;
  /// Whether the kernel may use AVX512-VBMI (the VNNI depthwise kernels'
  /// sliding packed rows: vpermt2b).
  bool vbmi = false;
  func::FuncOp epilogue = {};
  SmallVector<Value> channelArgs = {};
  /// The kernel's entry block, and the values made once per kernel: its
  /// constants (constant) and derived values (derived).
  Block *entry = nullptr;
  /// The body of the scf.parallel being built, if any (scratch).
  Block *parallelBody = nullptr;
  struct Memo {
    // Not an aggregate, so that `= {}` calls this constructor (DenseMap's
    // default constructor is explicit).
    Memo() {}
    DenseMap<Attribute, Value> constants;
    DenseMap<std::pair<Value, const char *>, Value> derivations;
    /// scratch's buffers, by block and type.
    DenseMap<std::pair<Block *, Type>, Value> scratch;
    /// argumentRanges' parse of the epilogue's record.
    std::optional<SmallVector<SmallVector<ArgumentRange>>> layers;
    /// windowSum's view of the input, [n, hp, wp * cp].
    Value inputRows;
    /// Paired pixels' view of the output, [n, oh * ow * oc].
    Value outputRows;
  };
  Memo memo = {};

  /// The epilogue's bias add: when its accumulator argument has one user,
  /// an addi with a per-channel argument or a constant, that addi. The
  /// kernels add the bias to the accumulators' initial values instead (once
  /// per channel block rather than once per output vector), and
  /// applyEpilogue then starts after it.
  arith::AddIOp leadingBiasAdd() {
    if (!epilogue)
      return {};
    Block &body = epilogue.getBody().front();
    Value acc = body.getArgument(0);
    if (!acc.hasOneUse())
      return {};
    auto add = dyn_cast<arith::AddIOp>(*acc.getUsers().begin());
    if (!add)
      return {};
    Value other = add.getLhs() == acc ? add.getRhs() : add.getLhs();
    if (other == acc)
      return {};
    auto arg = dyn_cast<BlockArgument>(other);
    if (arg ? arg.getOwner() != &body : !matchPattern(other, m_Constant()))
      return {};
    return add;
  }

  /// The bias that leadingBiasAdd adds (a per-channel argument or a
  /// constant), or null without one.
  Value leadingBias() {
    arith::AddIOp add = leadingBiasAdd();
    if (!add)
      return {};
    Value acc = epilogue.getBody().front().getArgument(0);
    return add.getLhs() == acc ? add.getRhs() : add.getLhs();
  }

  /// The number of per-channel vectors the epilogue reads besides the bias
  /// (which the accumulators start from): what it needs in registers, or
  /// reloads, beside the accumulators.
  int64_t epilogueChannelVectors() {
    if (!epilogue)
      return 0;
    Operation *bias = leadingBiasAdd();
    // The offset form reads its 2m and K tables instead of the multiplier.
    Value multiplier = offset ? offset->b : Value();
    return llvm::count_if(
               epilogue.getBody().front().getArguments().drop_front(),
               [&](BlockArgument arg) {
                 return arg != multiplier &&
                        llvm::any_of(arg.getUsers(), [&](Operation *user) {
                          return user != bias;
                        });
               }) +
           (offset ? 2 : 0);
  }

  /// Whether the epilogue rescales with per-channel right shifts applied
  /// per lane (a double-rounding multiply's, or a single-rounding one's
  /// that no common shift replaces): four more vectors per channel block.
  /// Not the offset form's (OffsetProduct), one i32 shift of each lane
  /// after its add of K: one vector per block, which the pipelined
  /// kernels afford (Zen 5, one thread, pw1 with per-channel shifts 77 ->
  /// 64 us, as fast as with one shift).
  bool perLaneShifts() {
    if (!epilogue)
      return false;
    for (Operation &op : epilogue.getBody().front()) {
      if (auto r = matchRoundedProduct(op); r && r->shift && !commonShift(*r))
        return true;
      if (auto r = matchDoubleRoundedProduct(op);
          r && r->shift && !(offset && &op == offset->root))
        return true;
    }
    return false;
  }

  /// Whether the GEMM kernel pairs pixels: VNNI, one block of 16 channels
  /// of which the layer stores at most 8 (s.oc, with an epilogue: a first
  /// convolution to 8 channels, as in MobileNet v1 0.25 and the
  /// person-detection models). Lanes 0-7 of each accumulator then hold one
  /// pixel's channels and lanes 8-15 the next pixel's: the broadcast
  /// operand takes each pixel's bytes in its half, the weights, `corr` and
  /// the epilogue's constants repeat their first 8 lanes (loadBlock), and
  /// each vpdpbusd and requantize serves two pixels, whose 16 results are
  /// 16 contiguous outputs (one store). With the 8 channels in a block of
  /// their own, half the lanes of every instruction were padding, and the
  /// i32 results went through a separate epilogue.
  bool pairsPixels() const {
    return pairsChannels(s.flavor, s.oc) && !s.isDepthwise() && s.op == 16 &&
           epilogue;
  }

  /// Whether the GEMM kernel is a flattened pointwise one (1x1 at stride 1,
  /// its [h, w] plane seen as one row: hp = 1): consecutive pixels' bytes,
  /// in and out, are contiguous.
  bool flatPointwise() const {
    return s.kh == 1 && s.kw == 1 && s.sh == 1 && s.sw == 1 && s.hp == 1;
  }

  /// A constant i1 vector of `width` lanes, lanes [first, first + count)
  /// set.
  Value laneMask(int64_t width, int64_t first, int64_t count) {
    SmallVector<bool> bits(width, false);
    std::fill_n(bits.begin() + first, count, true);
    return constant(DenseElementsAttr::get(
        VectorType::get({width}, b.getI1Type()), ArrayRef<bool>(bits)));
  }

  /// `slot`, made once: `source` collapsed by `groups`, right after
  /// `source` (the kernel's input or output view).
  Value collapsedOnce(Value &slot, Value source,
                      SmallVector<ReassociationIndices> groups) {
    if (!slot) {
      OpBuilder eb(b.getContext());
      eb.setInsertionPointAfterValue(source);
      slot = memref::CollapseShapeOp::create(eb, loc, source, groups);
    }
    return slot;
  }

  /// acc + the vpdpbusd of `a` (unsigned bytes) and `w` (signed bytes), at
  /// acc's width (4, 8 or 16 i32 lanes), or its generic emulation.
  Value vpdpbusd(OpBuilder &ob, Value acc, Value a, Value w) {
    if (emulate)
      return emulateVpdpbusd(ob, loc, acc, a, w);
    int64_t lanes = cast<VectorType>(acc.getType()).getNumElements();
    StringRef name = lanes == 4   ? "llvm.x86.avx512.vpdpbusd.128"
                     : lanes == 8 ? "llvm.x86.avx512.vpdpbusd.256"
                                  : "llvm.x86.avx512.vpdpbusd.512";
    return intrinsic(ob, name, acc.getType(), ValueRange{acc, a, w});
  }

  /// A vector of `type` (16 or 64 elements: one block's lanes) from
  /// `memref` at `indices`; when pairing pixels (pairsPixels), its first
  /// half loaded and repeated in the second.
  Value loadBlock(OpBuilder &ob, VectorType type, Value memref,
                  ValueRange indices) {
    if (!pairsPixels())
      return vector::LoadOp::create(ob, loc, type, memref, indices);
    int64_t half = type.getNumElements() / 2;
    Value v = vector::LoadOp::create(
        ob, loc, VectorType::get({half}, type.getElementType()), memref,
        indices);
    SmallVector<int64_t> twice;
    for (int64_t i = 0; i < 2 * half; ++i)
      twice.push_back(i % half);
    return vector::ShuffleOp::create(ob, loc, v, v, twice);
  }

  /// The initial accumulator of the output channels [ch, ch + lanes):
  /// `base` (zero, or a kernel's correction terms) plus the epilogue's
  /// leading bias, if any, or plus the offset form's bias + D.
  Value initialAccumulator(OpBuilder &ob, Value base, Value ch) {
    // The offset form's accumulators start from bias + D.
    if (offset)
      return arith::AddIOp::create(
          ob, loc, base,
          loadBlock(ob, cast<VectorType>(base.getType()), offset->bias, ch));
    Value other = leadingBias();
    if (!other)
      return base;
    auto type = cast<VectorType>(base.getType());
    Value bias;
    if (auto arg = dyn_cast<BlockArgument>(other)) {
      bias = loadBlock(ob, type, channelArgs[arg.getArgNumber() - 1], ch);
    } else {
      APInt value;
      if (!matchPattern(other, m_ConstantInt(&value)))
        return base;
      bias = arith::ConstantOp::create(
          ob, loc,
          DenseElementsAttr::get(
              type, ob.getIntegerAttr(type.getElementType(), value)));
    }
    return arith::AddIOp::create(ob, loc, base, bias);
  }

  /// A term of the narrowing tail: a constant plus per-channel arguments of
  /// the epilogue (the numbers of its body arguments).
  struct TailTerm {
    int64_t c = 0;
    SmallVector<unsigned> args;
    bool isConstant() const { return args.empty(); }
    TailTerm operator+(const TailTerm &o) const {
      TailTerm t{c + o.c, args};
      t.args.append(o.args);
      return t;
    }
  };
  /// A matched single-rounding multiply: factors a and b (i32 values or an
  /// i64 constant in the i32 range), the right shift r (an i32 value, or
  /// `constantShift` when `shift` is null), and the template operations it
  /// replaces.
  struct RoundedProduct {
    Value a, b, shift;
    int64_t constantShift = 0;
    SmallVector<Operation *> ops;
  };

  /// The end of an epilogue that narrows its i32 value y to 8 bits:
  /// trunc(clamp(y + zp, lo, hi)) with terms zp, lo and hi (constants, or
  /// the per-channel arguments of a shared kernel), as the requantize
  /// lowering and canonicalization leave it (the clamp before or after the
  /// add, max and min in either order).
  struct NarrowingTail {
    Value y;
    TailTerm zp, lo, hi;
    /// [lo, hi] within [-128, 127] (a signed pack), else within [0, 255].
    bool isSigned = true;
    /// The constant zero point that the rounded product computing y adds
    /// through its rounding term (see zeroPointInProduct), so that the
    /// packs take y + zp as it is; 0 when the packs add the zero point.
    int64_t productAddend = 0;
    /// Whether the product computing y leaves its last halving to the
    /// packs (see halvedTail): it gives t = a * m >> (30 + r), and the
    /// packs take (t + 1 + 2 zp) >> 1 = y + zp in 16-bit lanes.
    bool halved = false;
    bool isPerChannel() const {
      return !zp.isConstant() || !lo.isConstant() || !hi.isConstant();
    }
  };

  /// The layers sharing the kernel, as ranges of the epilogue's arguments
  /// (qnn-fuse-kernel-epilogues records them): layers[m][a - 1] is the
  /// range of argument a over the channels of layer m; none where an
  /// argument is not an integer. No layers without the record. Read once
  /// per kernel (memo.layers).
  ArrayRef<SmallVector<ArgumentRange>> argumentRanges() {
    if (!memo.layers)
      memo.layers = readArgumentRanges(epilogue);
    return *memo.layers;
  }

  /// Whether every layer sharing the kernel has a range for the epilogue's
  /// argument `arg` (an integer argument, recorded).
  bool hasRanges(BlockArgument arg) {
    auto layers = argumentRanges();
    return arg.getOwner() == &epilogue.getBody().front() &&
           arg.getArgNumber() > 0 && !layers.empty() &&
           llvm::all_of(layers, [&](auto &ranges) {
             return ranges[arg.getArgNumber() - 1].has_value();
           });
  }

  /// The range of term t (its arguments have ranges) over the channels of
  /// layer m.
  std::pair<int64_t, int64_t> termRange(const TailTerm &t, size_t m) {
    auto layers = argumentRanges();
    std::pair<int64_t, int64_t> r{t.c, t.c};
    for (unsigned a : t.args) {
      r.first += layers[m][a - 1]->first;
      r.second += layers[m][a - 1]->second;
    }
    return r;
  }

  /// The range of the epilogue's argument `arg` (it has ranges) over every
  /// layer's channels.
  std::pair<int64_t, int64_t> argumentHull(BlockArgument arg) {
    return termHull(TailTerm{0, {arg.getArgNumber()}});
  }

  /// Whether term a <= term b in every channel of every layer sharing the
  /// kernel (per layer, a's largest value against b's smallest).
  bool termAtMost(const TailTerm &a, const TailTerm &b) {
    if (a.isConstant() && b.isConstant())
      return a.c <= b.c;
    for (size_t m = 0; m < argumentRanges().size(); ++m)
      if (termRange(a, m).second > termRange(b, m).first)
        return false;
    return true;
  }

  /// The range of term t over every layer's channels.
  std::pair<int64_t, int64_t> termHull(const TailTerm &t) {
    std::pair<int64_t, int64_t> h{t.c, t.c};
    for (size_t m = 0; !t.isConstant() && m < argumentRanges().size(); ++m) {
      auto r = termRange(t, m);
      h = m == 0 ? r
                 : std::make_pair(std::min(h.first, r.first),
                                  std::max(h.second, r.second));
    }
    return h;
  }

  /// The epilogue's narrowing tail, when packed stores can replace it: 16
  /// lanes without emulation (the packs are AVX512BW instructions) or the
  /// 8 lanes of the Int16 flavor (AVX2 packs, packBytes8), the bounds
  /// within one 8-bit range and |zp| <= 32512 (see packBytes). The zero
  /// point and the clamp bounds are constants, or per-channel arguments
  /// (the lifted constants of a kernel that several layers share) whose
  /// ranges satisfy the same conditions.
  std::optional<NarrowingTail> narrowingTail() {
    if (!epilogue || emulate ||
        (s.lanes() != 16 && s.flavor != KernelFlavor::Int16))
      return std::nullopt;
    Block &body = epilogue.getBody().front();
    Value terminal = body.getTerminator()->getOperand(0);
    auto constant = [](Value v) -> std::optional<int64_t> {
      APInt value;
      if (!matchPattern(v, m_ConstantInt(&value)))
        return std::nullopt;
      return value.getSExtValue();
    };
    // A constant, or a per-channel i32 argument of known ranges.
    auto term = [&](Value v) -> std::optional<TailTerm> {
      if (auto k = constant(v))
        return TailTerm{*k, {}};
      auto arg = dyn_cast<BlockArgument>(v);
      if (!arg || !arg.getType().isInteger(32) || !hasRanges(arg))
        return std::nullopt;
      return TailTerm{0, {arg.getArgNumber()}};
    };
    auto zpFits = [&](const TailTerm &zp) {
      auto [lo, hi] = termHull(zp);
      return std::max(-lo, hi) <= 32512;
    };
    // A final sign flip (xor 0x80: the next kernel's VNNI input, fused
    // into this epilogue) moves the values between the signed and the
    // unsigned 8-bit range.
    Value result = terminal;
    bool flipped = false;
    if (auto x = result.getDefiningOp<arith::XOrIOp>();
        x && x.getType().isInteger(8) && x->hasOneUse()) {
      auto k = constant(x.getRhs());
      if (!k || (*k & 0xff) != 0x80)
        return std::nullopt;
      flipped = true;
      result = x.getLhs();
    }
    // An 8-bit clamp after the narrowing (a tosa.clamp of the quantized
    // values): signed or unsigned bounds, intersected with the tail's below.
    int64_t byteLo = -128, byteHi = 255;
    std::optional<bool> byteSigned;
    for (int i = 0; i < 2; ++i) {
      Operation *def = result.getDefiningOp();
      if (!def || !def->hasOneUse() ||
          !def->getResult(0).getType().isInteger(8))
        break;
      bool isSigned = isa<arith::MaxSIOp, arith::MinSIOp>(def);
      bool isUnsigned = isa<arith::MaxUIOp, arith::MinUIOp>(def);
      if (!isSigned && !isUnsigned)
        break;
      if (byteSigned && *byteSigned != isSigned)
        return std::nullopt;
      byteSigned = isSigned;
      auto k = constant(def->getOperand(1));
      if (!k)
        return std::nullopt;
      int64_t c = isSigned ? *k : (*k & 0xff);
      if (isa<arith::MaxSIOp, arith::MaxUIOp>(def))
        byteLo = std::max(byteLo, c);
      else
        byteHi = std::min(byteHi, c);
      result = def->getOperand(0);
    }
    auto trunc = result.getDefiningOp<arith::TruncIOp>();
    if (!trunc || !trunc.getType().isInteger(8) ||
        !trunc.getIn().getType().isInteger(32) ||
        (result != terminal && !trunc->hasOneUse()))
      return std::nullopt;
    // An addi of a term, or v itself with 0.
    auto addTerm = [&](Value v, TailTerm &t) -> Value {
      t = TailTerm{};
      auto add = v.getDefiningOp<arith::AddIOp>();
      if (!add || !add->hasOneUse())
        return v;
      if (auto k = term(add.getRhs())) {
        t = *k;
        return add.getLhs();
      }
      return v;
    };
    // A clamp: maxsi/minsi with terms in either order.
    auto clamp = [&](Value v, TailTerm &lo, TailTerm &hi) -> Value {
      bool sawMax = false, sawMin = false;
      for (int i = 0; i < 2; ++i) {
        Operation *def = v.getDefiningOp();
        if (!def || !def->hasOneUse())
          break;
        if (auto mx = dyn_cast<arith::MaxSIOp>(def); mx && !sawMax) {
          auto k = term(mx.getRhs());
          if (!k)
            break;
          lo = *k;
          sawMax = true;
          v = mx.getLhs();
        } else if (auto mn = dyn_cast<arith::MinSIOp>(def); mn && !sawMin) {
          auto k = term(mn.getRhs());
          if (!k)
            break;
          hi = *k;
          sawMin = true;
          v = mn.getLhs();
        } else {
          break;
        }
      }
      return (sawMax && sawMin) ? v : Value();
    };
    NarrowingTail t;
    TailTerm after, before, lo, hi;
    Value v = addTerm(trunc.getIn(), after);
    if (v != trunc.getIn() && !v.hasOneUse())
      return std::nullopt;
    v = clamp(v, lo, hi);
    if (!v)
      return std::nullopt;
    Value y = addTerm(v, before);
    // trunc(clamp(y + before, lo, hi) + after)
    //   = trunc(clamp(y + before + after, lo + after, hi + after)).
    t.y = y;
    t.zp = before + after;
    t.lo = lo + after;
    t.hi = hi + after;
    // Every channel's lo <= hi (the clamp's order then does not matter).
    if (!termAtMost(t.lo, t.hi))
      return std::nullopt;
    auto [loMin, loMax] = termHull(t.lo);
    auto [hiMin, hiMax] = termHull(t.hi);
    if (!zpFits(t.zp))
      return std::nullopt;
    if (loMin >= -128 && hiMax <= 127 && byteSigned != false)
      t.isSigned = true;
    else if (loMin >= 0 && hiMax <= 255 && byteSigned != true)
      t.isSigned = false;
    else
      return std::nullopt;
    // The 8-bit clamp, in the same signedness: the values are already in
    // [lo, hi] of that range, so the two clamps intersect.
    if (byteSigned) {
      if (!t.lo.isConstant() || !t.hi.isConstant())
        return std::nullopt;
      t.lo = TailTerm{std::max(t.lo.c, byteLo), {}};
      t.hi = TailTerm{std::min(t.hi.c, byteHi), {}};
      if (t.lo.c > t.hi.c)
        return std::nullopt;
    }
    // xor 0x80 of a byte in the signed range is the value + 128 in the
    // unsigned one, and of a byte in the unsigned range the value - 128 in
    // the signed one.
    if (flipped) {
      TailTerm shift{t.isSigned ? 128 : -128, {}};
      t.zp = t.zp + shift;
      t.lo = t.lo + shift;
      t.hi = t.hi + shift;
      t.isSigned = !t.isSigned;
      if (!zpFits(t.zp))
        return std::nullopt;
    }
    if (!t.y.getType().isInteger(32))
      return std::nullopt;
    // The rounded product computing y may take over part of the tail.
    if (Operation *def = t.y.getDefiningOp()) {
      std::optional<RoundedProduct> single = matchRoundedProduct(*def);
      std::optional<RoundedProduct> r =
          single ? single : matchDoubleRoundedProduct(*def);
      if (single && halvedTail(t, *single))
        t.halved = true;
      else if (r && zeroPointInProduct(t, *r))
        t.productAddend = t.zp.c;
    }
    return t;
  }

  /// Whether the tail t takes every y <= 0 to its lower bound: zp <= lo
  /// in every channel of every layer sharing the kernel (y + zp <= lo).
  /// Where a < 0 (and the multiplier is not negative) the double-rounded
  /// product is at most 0 with or without its sign term (see
  /// doubleRoundedHighHalves), so a ReLU-like clamp makes the term moot.
  bool clampsNonPositive(const NarrowingTail &t) {
    return termAtMost(t.zp, t.lo);
  }

  /// Whether `r`, the single-rounding product computing y
  /// (matchRoundedProduct), with every right shift r >= 2, can leave its
  /// rounding to the packs: with t
  /// = (a * m) >> (30 + r) (floor), y = (a * m + 2^(30+r)) >> (31+r) =
  /// (t + 1) >> 1, so y + zp = (t + 1 + 2 zp) >> 1, one saturating add and
  /// one shift of 16-bit words after vpackssdw (32 lanes each). t needs no
  /// 64-bit rounding add: the even lanes' 64-bit shift leaves it in their
  /// low halves, and the odd lanes' high halves (a * m >> 32) shifted by r
  /// - 2 as i32 lanes give it in place, a masked shift instead of a blend.
  /// Per 16 outputs (AVX512) the epilogue issues 7 vector instructions
  /// instead of 9: beside the two vpmuldq, the odd accumulators' vpsrlq and
  /// the packs, a vpsraq, a masked vpsrad and half a vpaddsw and a vpsraw,
  /// where there were two rounding vpaddq, two vpsraq and a blend. On a
  /// core whose 512-bit integer instructions share vpdpbusd's two ports
  /// (Intel Sapphire Rapids), that is what a pointwise layer with K = 32
  /// waits for. Exact: |a * m| < 2^62, so |t| <= 2^30 fits in i32; packssdw
  /// saturates t to i16, and with |zp| <= 8191 (tighter than the 32512 of
  /// the other tails) a value that saturates there, or in the add, gives a
  /// word (t + 1 + 2 zp) >> 1 beyond every 8-bit bound, as the exact y + zp
  /// is. AVX2 (the 8-lane flavors), which
  /// lacks the 64-bit arithmetic shift, blends the high halves and shifts
  /// all lanes by r - 2 (shiftedHighHalves).
  bool halvedTail(const NarrowingTail &t, const RoundedProduct &r) {
    // (narrowingTail: 16 lanes, or the Int16 flavor.)
    assert((s.lanes() == 16 || blendsHighHalves()) &&
           "halved products need vpsraq or the AVX2 blend");
    if (shiftRange(r).first < 2)
      return false;
    auto [lo, hi] = termHull(t.zp);
    return std::max(-lo, hi) <= 8191;
  }

  /// Whether the tail's constant zero point can join the rounding term of
  /// `r`, the rounded product that computes y (matchRoundedProduct or
  /// matchDoubleRoundedProduct): y + zp = (P + R + zp * 2^(31+r)) >>
  /// (31+r), the same integer, so that the packs need no saturating add of
  /// the zero point (vpaddsw, which on Zen 4 takes a multiply pipe, as
  /// vpdpbusd, vpmaddwd and vpmuldq do: two per 64 outputs of a kernel
  /// whose K = 32 issues 32 vpdpbusd). Exact when every right shift r lies
  /// in [1, 15]: |P| < 2^62 (i32 factors) and |R + zp * 2^(31+r)| < 2^(46+r),
  /// so the 64-bit sum does not overflow, and |y| <= 2^30 + 1, so y + zp
  /// fits in i32 as the template's addi computed it (and the saturating
  /// add saturated nothing: packssdw then saturates y + zp as it saturated
  /// y before, |zp| <= 32512).
  bool zeroPointInProduct(const NarrowingTail &t, const RoundedProduct &r) {
    if (!t.zp.isConstant() || t.zp.c == 0)
      return false;
    auto [lo, hi] = shiftRange(r);
    return lo >= 1 && hi <= 15;
  }

  /// The result of the LLVM intrinsic `name` on `args`.
  Value intrinsic(OpBuilder &ob, StringRef name, Type type, ValueRange args) {
    return LLVM::CallIntrinsicOp::create(ob, loc, type, ob.getStringAttr(name),
                                         args)
        .getResult(0);
  }

  /// The first step of the packed narrowing: `packssdw` (the 512-bit or
  /// the AVX2 intrinsic) of the i32 vectors a and b into `words`, then the
  /// tail's zero point added with i16 saturation (`zpWords` where it is per
  /// channel). A halved tail adds 1 + 2 zp (its zpWords hold that) and
  /// shifts the words right by 1.
  Value packWords(OpBuilder &ob, StringRef packssdw, VectorType words, Value a,
                  Value b, const NarrowingTail &tail, Value zpWords = {}) {
    Value w = intrinsic(ob, packssdw, words, ValueRange{a, b});
    auto splat = [&](int64_t c) {
      return constant(DenseElementsAttr::get(words, ob.getI16IntegerAttr(c)));
    };
    if (tail.halved) {
      w = LLVM::SAddSat::create(ob, loc, w,
                                zpWords ? zpWords : splat(1 + 2 * tail.zp.c));
      return arith::ShRSIOp::create(ob, loc, w, splat(1));
    }
    if (zpWords)
      return LLVM::SAddSat::create(ob, loc, w, zpWords);
    if (!tail.zp.c || tail.productAddend)
      return w;
    return LLVM::SAddSat::create(ob, loc, w, splat(tail.zp.c));
  }

  /// A tail's per-channel zero points and bounds in the layout of the
  /// packed outputs (see packTail): the zero points as the words of each
  /// vpackssdw (null where the zero point is a constant), the bounds as the
  /// bytes of the byte pack (null where constant).
  struct PackedTail {
    SmallVector<Value> zpWords;
    Value loBytes, hiBytes;
  };

  /// The tail term `t` for the channels whose per-channel constants
  /// (loadChannelConstants) are `constants`: a vector of i32 lanes.
  Value tailTermVector(OpBuilder &ob, const TailTerm &t,
                       ArrayRef<Value> constants) {
    Value v;
    for (unsigned a : t.args)
      v = v ? arith::AddIOp::create(ob, loc, v, constants[a - 1]).getResult()
            : constants[a - 1];
    if (t.c || !v) {
      Value c = arith::ConstantOp::create(
          ob, loc,
          DenseElementsAttr::get(VectorType::get({s.lanes()}, ob.getI32Type()),
                                 ob.getI32IntegerAttr(t.c)));
      v = v ? arith::AddIOp::create(ob, loc, v, c).getResult() : c;
    }
    return v;
  }

  /// The per-channel parts of `tail` for the vectors that packBytes (16
  /// lanes: 4 or 2 vectors) or packBytes8 (8 lanes: 2) narrows together,
  /// vector k having the per-channel constants constants[k]: packed by the
  /// same instructions as the outputs, so that each word or byte lines up
  /// with its output's. Exact: |zp| <= 32512 and the bounds lie in the
  /// pack's 8-bit range (narrowingTail). Computed once per channel block,
  /// not per pixel.
  std::optional<PackedTail> packTail(OpBuilder &ob, const NarrowingTail &tail,
                                     ArrayRef<ArrayRef<Value>> constants) {
    if (!tail.isPerChannel())
      return std::nullopt;
    bool avx2 = s.lanes() == 8;
    auto words = VectorType::get({avx2 ? 16 : 32}, ob.getI16Type());
    auto bytes = VectorType::get({avx2 ? 32 : 64}, ob.getI8Type());
    StringRef packssdw =
        avx2 ? "llvm.x86.avx2.packssdw" : "llvm.x86.avx512.packssdw.512";
    StringRef pack8 = tail.isSigned ? (avx2 ? "llvm.x86.avx2.packsswb"
                                            : "llvm.x86.avx512.packsswb.512")
                                    : (avx2 ? "llvm.x86.avx2.packuswb"
                                            : "llvm.x86.avx512.packuswb.512");
    auto pairs = [&](const TailTerm &t) {
      SmallVector<Value> halves;
      for (size_t i = 0; i + 1 < constants.size(); i += 2)
        halves.push_back(intrinsic(
            ob, packssdw, words,
            ValueRange{tailTermVector(ob, t, constants[i]),
                       tailTermVector(ob, t, constants[i + 1])}));
      return halves;
    };
    auto asBytes = [&](const TailTerm &t) -> Value {
      if (t.isConstant())
        return {};
      SmallVector<Value> halves = pairs(t);
      if (halves.size() == 1)
        halves.push_back(halves.front());
      return intrinsic(ob, pack8, bytes, halves);
    };
    PackedTail packed;
    if (!tail.zp.isConstant()) {
      packed.zpWords = pairs(tail.zp);
      // A halved tail adds 1 + 2 zp (|zp| <= 8191: no overflow).
      if (tail.halved) {
        Value one = constant(
            DenseElementsAttr::get(words, ob.getI16IntegerAttr(1)));
        for (Value &w : packed.zpWords)
          w = arith::AddIOp::create(
              ob, loc, arith::ShLIOp::create(ob, loc, w, one), one);
      }
    }
    packed.loBytes = asBytes(tail.lo);
    packed.hiBytes = asBytes(tail.hi);
    return packed;
  }

  /// The byte clamp of the packed narrowing: the bytes `packed` (the
  /// pack's signed or unsigned range) clamped to [tail.lo, tail.hi] where
  /// that is narrower.
  Value clampBytes(OpBuilder &ob, Value packed, const NarrowingTail &tail,
                   const PackedTail *perChannel = nullptr) {
    auto bytes = cast<VectorType>(packed.getType());
    int64_t rangeLo = tail.isSigned ? -128 : 0,
            rangeHi = tail.isSigned ? 127 : 255;
    auto byteSplat = [&](int64_t c) {
      APInt bits(8, c, /*isSigned=*/c < 0, /*implicitTrunc=*/true);
      return arith::ConstantOp::create(
          ob, loc,
          DenseElementsAttr::get(bytes,
                                 ob.getIntegerAttr(ob.getI8Type(), bits)));
    };
    Value lo, hi;
    if (!tail.lo.isConstant())
      lo = perChannel->loBytes;
    else if (tail.lo.c > rangeLo)
      lo = byteSplat(tail.lo.c);
    if (!tail.hi.isConstant())
      hi = perChannel->hiBytes;
    else if (tail.hi.c < rangeHi)
      hi = byteSplat(tail.hi.c);
    if (lo)
      packed = tail.isSigned
                   ? arith::MaxSIOp::create(ob, loc, packed, lo).getResult()
                   : arith::MaxUIOp::create(ob, loc, packed, lo).getResult();
    if (hi)
      packed = tail.isSigned
                   ? arith::MinSIOp::create(ob, loc, packed, hi).getResult()
                   : arith::MinUIOp::create(ob, loc, packed, hi).getResult();
    return packed;
  }

  /// Narrows four (or two) i32 vectors of 16 lanes with `tail` and returns
  /// their bytes in order (v0's 16, then v1's, ...; with two vectors, in the
  /// low 32 of the 64 bytes): vpackssdw (saturating to i16), a saturating
  /// i16 add of the zero point, one vpacksswb or vpackuswb, a byte clamp
  /// when [lo, hi] is narrower than the pack's range, and one vpermd
  /// putting each vector's four dwords together (the packs interleave
  /// 128-bit lanes). Exact: with |zp| <= 32512 every value that saturates
  /// to i16 also lies outside [lo, hi] after adding zp.
  Value packBytes(OpBuilder &ob, ArrayRef<Value> v, const NarrowingTail &tail,
                  const PackedTail *perChannel, bool opaque = false) {
    Type i8 = ob.getI8Type(), i16 = ob.getI16Type(), i32 = ob.getI32Type();
    auto words = VectorType::get({32}, i16);
    auto bytes = VectorType::get({64}, i8);
    assert((v.size() == 4 || v.size() == 2) && "packs four or two vectors");
    SmallVector<Value> halves;
    for (size_t i = 0; i < v.size() / 2; ++i)
      halves.push_back(packWords(
          ob, "llvm.x86.avx512.packssdw.512", words, v[2 * i], v[2 * i + 1],
          tail, perChannel && !perChannel->zpWords.empty()
                    ? perChannel->zpWords[i]
                    : Value()));
    // Two vectors: lane L of the bytes holds v0's and v1's channels
    // [4L, 4L + 4) twice; the permutation below takes dwords 4L and 4L + 1.
    if (halves.size() == 1)
      halves.push_back(halves.front());
    Value packed =
        clampBytes(ob,
                   intrinsic(ob,
                             tail.isSigned ? "llvm.x86.avx512.packsswb.512"
                                           : "llvm.x86.avx512.packuswb.512",
                             bytes, halves),
                   tail, perChannel);
    // Dword 4L + k holds v_k's channels [4L, 4L + 4): a 4x4 transpose, one
    // vpermd (the intrinsic, so that LLVM does not fold it into each
    // 16-byte extract of a depthwise kernel's stores).
    auto dwords = VectorType::get({16}, i32);
    Value d = vector::BitCastOp::create(ob, loc, dwords, packed);
    SmallVector<int32_t> order = {0, 4, 8,  12, 1, 5, 9,  13,
                                  2, 6, 10, 14, 3, 7, 11, 15};
    Value index = arith::ConstantOp::create(
        ob, loc, DenseElementsAttr::get(dwords, ArrayRef<int32_t>(order)));
    d = intrinsic(ob, "llvm.x86.avx512.permvar.si.512", dwords,
                  ValueRange{d, index});
    if (opaque)
      d = opaqueCopy(ob, d, "=v,0");
    return vector::BitCastOp::create(ob, loc, bytes, d);
  }

  /// packBytes for the 8-lane Int16 flavor (AVX2): the narrowing tail of
  /// two blocks v0, v1 (8 channels each) as the 16 bytes of their
  /// channels: packBytes8Pair of the pixel with itself, its low half.
  /// vpackssdw interleaves the halves of each 128-bit lane (words:
  /// v0[0..3] v1[0..3] | v0[4..7] v1[4..7]), the byte pack keeps that
  /// order in dwords 0, 1 and 4, 5, and one vpermd puts them in channel
  /// order: 4 instructions and one store per 16 outputs (the two word
  /// packs are one after LLVM's CSE), where each block took an extract,
  /// two packs and an 8-byte store.
  Value packBytes8(OpBuilder &ob, Value v0, Value v1, const NarrowingTail &tail,
                   const PackedTail *perChannel) {
    return vector::ExtractStridedSliceOp::create(
        ob, loc, packBytes8Pair(ob, v0, v1, v0, v1, tail, perChannel),
        ArrayRef<int64_t>{0}, ArrayRef<int64_t>{16}, ArrayRef<int64_t>{1});
  }

  /// packBytes8 for two pixels at once: the blocks v0, v1 of one pixel and
  /// w0, w1 of another (the same 16 channels) as 32 bytes, the first
  /// pixel's 16 then the second's. Two vpackssdw, one byte pack of both
  /// and one vpermd: 4 instructions per 32 outputs, where packBytes8 per
  /// pixel takes 3 (LLVM makes its vpermd and the extract of the low half
  /// a vextracti128 and a vpunpckldq, 4) per 16.
  Value packBytes8Pair(OpBuilder &ob, Value v0, Value v1, Value w0, Value w1,
                       const NarrowingTail &tail,
                       const PackedTail *perChannel) {
    auto words = VectorType::get({16}, ob.getI16Type());
    auto bytes = VectorType::get({32}, ob.getI8Type());
    auto dwords = VectorType::get({8}, ob.getI32Type());
    Value zp = perChannel && !perChannel->zpWords.empty()
                   ? perChannel->zpWords.front()
                   : Value();
    Value first = packWords(ob, "llvm.x86.avx2.packssdw", words, v0, v1, tail,
                            zp);
    Value second = packWords(ob, "llvm.x86.avx2.packssdw", words, w0, w1,
                             tail, zp);
    // Dwords: v0[0..3] v1[0..3] w0[0..3] w1[0..3] | v0[4..7] v1[4..7]
    // w0[4..7] w1[4..7]; the per-channel bounds' bytes (packTail, one pair
    // packed twice) have the same layout.
    Value packed = clampBytes(
        ob,
        intrinsic(ob,
                  tail.isSigned ? "llvm.x86.avx2.packsswb"
                                : "llvm.x86.avx2.packuswb",
                  bytes, ValueRange{first, second}),
        tail, perChannel);
    Value d = vector::BitCastOp::create(ob, loc, dwords, packed);
    SmallVector<int32_t> order = {0, 4, 1, 5, 2, 6, 3, 7};
    Value index = arith::ConstantOp::create(
        ob, loc, DenseElementsAttr::get(dwords, ArrayRef<int32_t>(order)));
    d = intrinsic(ob, "llvm.x86.avx2.permd", dwords, ValueRange{d, index});
    return vector::BitCastOp::create(ob, loc, bytes, d);
  }

  /// The epilogue's per-channel constants of the output channels [ch, ch +
  /// lanes), one vector per channel argument. Loaded once per channel block
  /// of a tile and shared by its pixels (the kernel's output stores may
  /// alias the constants as far as LLVM knows, so it would not merge the
  /// loads of different pixels, nor what the epilogue computes from them).
  SmallVector<Value> loadChannelConstants(OpBuilder &ob, Value ch) {
    SmallVector<Value> values;
    for (Value arg : channelArgs) {
      Type elem = cast<MemRefType>(arg.getType()).getElementType();
      values.push_back(
          loadBlock(ob, VectorType::get({s.lanes()}, elem), arg, ch));
    }
    // The offset form's 2m and K, after the arguments' vectors.
    if (offset)
      for (Value table : {offset->twice, offset->k})
        values.push_back(loadBlock(
            ob, VectorType::get({s.lanes()}, ob.getI32Type()), table, ch));
    return values;
  }

  /// Applies the epilogue function to the accumulator vector `acc` of the
  /// output channels whose per-channel constants are `constants`
  /// (loadChannelConstants): its operations, on vectors of `lanes`
  /// elements; with `stop`, only up to the template value stop->y (the
  /// start of a narrowing tail that packBytes replaces), which it returns
  /// as the tail asks (NarrowingTail::productAddend, halved).
  Value applyEpilogue(OpBuilder &ob, Value acc, ArrayRef<Value> constants,
                      const NarrowingTail *stop = nullptr) {
    Value stopAt = stop ? stop->y : Value();
    int64_t lanes = s.lanes();
    Block &body = epilogue.getBody().front();
    IRMapping mapping;
    mapping.map(body.getArgument(0), acc);
    // The bias is already in the accumulator (initialAccumulator).
    arith::AddIOp biasAdd = leadingBiasAdd();
    if (biasAdd)
      mapping.map(biasAdd.getResult(), acc);
    // (The offset form's tables follow the arguments' vectors.)
    for (auto [i, value] :
         llvm::enumerate(constants.take_front(channelArgs.size())))
      mapping.map(body.getArgument(i + 1), value);
    // gemmlowp's rounding doubling high multiply on i32 operands,
    // trunci((sext(a) * sext(b) + 2^30) >> 31), is emitted on the vectors'
    // even and odd lanes (highHalfProduct) instead of widening them.
    // TFLite's single-rounding multiply with a right shift r >= 0 (per
    // channel or constant) and no left shift, saturate(trunc((sext(a) *
    // sext(b) + 2^(30 + r)) >> (31 + r))), likewise (roundedProduct).
    DenseMap<Operation *, std::pair<Value, Value>> highMuls;
    DenseMap<Operation *, RoundedProduct> roundedMuls;
    DenseMap<Operation *, RoundedProduct> doubleMuls;
    DenseSet<Operation *> folded;
    for (Operation &op : body.without_terminator()) {
      if (auto operands = matchHighHalfProduct(op)) {
        highMuls[&op] = *operands;
        Operation *shift = op.getOperand(0).getDefiningOp();
        Operation *add = shift->getOperand(0).getDefiningOp();
        folded.insert(shift);
        folded.insert(add);
        folded.insert(add->getOperand(0).getDefiningOp<arith::MulIOp>()
                          ? add->getOperand(0).getDefiningOp()
                          : add->getOperand(1).getDefiningOp());
      } else if (auto rounded = matchRoundedProduct(op)) {
        roundedMuls[&op] = *rounded;
        for (Operation *inner : rounded->ops)
          folded.insert(inner);
      } else if (auto twice = matchDoubleRoundedProduct(op)) {
        doubleMuls[&op] = *twice;
        for (Operation *inner : twice->ops)
          folded.insert(inner);
      }
    }
    for (Operation &op : body.without_terminator()) {
      if (stopAt && mapping.contains(stopAt))
        break;
      if (folded.contains(&op) || &op == biasAdd.getOperation())
        continue;
      if (auto it = highMuls.find(&op); it != highMuls.end()) {
        mapping.map(op.getResult(0),
                    highHalfProduct(ob, mapping.lookup(it->second.first),
                                    mapping.lookup(it->second.second)));
        continue;
      }
      // The product that computes stopAt may add the tail's zero point to
      // its result through its rounding term (NarrowingTail::productAddend)
      // or leave its last halving to the packs (NarrowingTail::halved).
      bool computesStop = stop && op.getResult(0) == stopAt;
      int64_t addend = computesStop ? stop->productAddend : 0;
      bool halved = computesStop && stop->halved;
      if (auto it = doubleMuls.find(&op); it != doubleMuls.end()) {
        const RoundedProduct &r = it->second;
        Value shift = r.shift ? mapping.lookup(r.shift) : Value();
        if (offset && &op == offset->root) {
          // The accumulator is u = a + D (initialAccumulator).
          size_t tables = channelArgs.size();
          mapping.map(op.getResult(0),
                      offsetHighHalves(ob, acc, constants[tables],
                                       constants[tables + 1], shift,
                                       r.constantShift, addend));
          continue;
        }
        if (auto factors = compareFreeDoubleRounding(r, addend)) {
          bool signTerm = !(computesStop && clampsNonPositive(*stop));
          mapping.map(op.getResult(0),
                      doubleRoundedHighHalves(
                          ob, mapping.lookup(factors->first),
                          mapping.lookup(factors->second), shift,
                          r.constantShift, addend, signTerm));
          continue;
        }
        mapping.map(op.getResult(0),
                    doubleRoundedProduct(
                        ob, mapping.lookup(r.a), mapping.lookup(r.b), shift,
                        r.constantShift, shiftRange(r).first, addend));
        continue;
      }
      if (auto it = roundedMuls.find(&op); it != roundedMuls.end()) {
        const RoundedProduct &r = it->second;
        Value a = mapping.lookup(r.a);
        Value shift = r.shift ? mapping.lookup(r.shift) : Value();
        int64_t constantShift = r.constantShift;
        int64_t least = shiftRange(r).first;
        if (std::optional<int64_t> common = commonShift(r)) {
          // a << (S - r) with the common right shift S: the same rounded
          // quotient, without per-lane 64-bit shifts or rounding terms.
          Value k = derived(shift, "toCommon", [&](OpBuilder &db) -> Value {
            Value c = arith::ConstantOp::create(
                db, loc,
                DenseElementsAttr::get(cast<VectorType>(shift.getType()),
                                       db.getI32IntegerAttr(*common)));
            return arith::SubIOp::create(db, loc, c, shift);
          });
          a = arith::ShLIOp::create(ob, loc, a, k);
          shift = Value();
          constantShift = *common;
          least = *common;
        }
        mapping.map(op.getResult(0),
                    halved ? halvedProduct(ob, a, mapping.lookup(r.b), shift,
                                           constantShift)
                           : roundedProduct(ob, a, mapping.lookup(r.b), shift,
                                            constantShift, least, addend));
        continue;
      }
      // Lookup tables: the template was bufferized with the rest of the
      // module, so a table is a constant global read by memref.load; the
      // kernel reads it with a gather.
      if (isa<memref::GetGlobalOp>(op)) {
        mapping.map(op.getResult(0), ob.clone(op)->getResult(0));
        continue;
      }
      if (auto load = dyn_cast<memref::LoadOp>(op)) {
        Value table = mapping.lookup(load.getMemRef());
        Type elem = load.getType();
        auto resultType = VectorType::get({lanes}, elem);
        Value mask = arith::ConstantOp::create(
            ob, loc,
            DenseElementsAttr::get(VectorType::get({lanes}, ob.getI1Type()),
                                   true));
        Value pass = arith::ConstantOp::create(
            ob, loc, DenseElementsAttr::get(resultType, ob.getZeroAttr(elem)));
        mapping.map(load.getResult(),
                    vector::GatherOp::create(
                        ob, loc, resultType, table, ValueRange{idx(ob, 0)},
                        mapping.lookup(load.getIndices()[0]), mask, pass));
        continue;
      }
      if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
        auto type = VectorType::get({lanes}, constant.getType());
        mapping.map(
            constant.getResult(),
            arith::ConstantOp::create(
                ob, loc, DenseElementsAttr::get(type, constant.getValue())));
        continue;
      }
      Operation *clone = ob.clone(op, mapping);
      for (Value result : clone->getResults())
        result.setType(VectorType::get({lanes}, result.getType()));
    }
    return mapping.lookup(stopAt ? stopAt
                                 : body.getTerminator()->getOperand(0));
  }

  /// Whether `v` is the integer constant `c`.
  static bool isConstantInt(Value v, int64_t c) {
    APInt value;
    return matchPattern(v, m_ConstantInt(&value)) && value == c;
  }

  /// A factor of an epilogue's 64-bit product as an i32 value: the operand
  /// of a sign extension from i32, or an i64 constant in the i32 range
  /// (itself); null otherwise.
  static Value i32Factor(Value v) {
    if (auto ext = v.getDefiningOp<arith::ExtSIOp>())
      return ext.getIn().getType().isInteger(32) ? ext.getIn() : Value();
    APInt value;
    if (matchPattern(v, m_ConstantInt(&value)) && value.isSignedIntN(32))
      return v;
    return Value();
  }

  /// `op` as a trunci from i64 to i32 (the end of every fixed-point
  /// product the epilogue matchers look for), or null.
  static arith::TruncIOp truncI64ToI32(Operation &op) {
    auto trunc = dyn_cast<arith::TruncIOp>(op);
    if (!trunc || !trunc.getType().isInteger(32) ||
        !trunc.getIn().getType().isInteger(64))
      return {};
    return trunc;
  }

  /// If `op` is trunci(shrsi(addi(muli(extsi a, extsi b), 2^30), 31)) from
  /// i64 to i32 with a and b i32 and every intermediate used once, the
  /// operands (a, b).
  static std::optional<std::pair<Value, Value>>
  matchHighHalfProduct(Operation &op) {
    auto trunc = truncI64ToI32(op);
    if (!trunc)
      return std::nullopt;
    auto isConst = isConstantInt;
    auto shift = trunc.getIn().getDefiningOp<arith::ShRSIOp>();
    if (!shift || !shift->hasOneUse() || !isConst(shift.getRhs(), 31))
      return std::nullopt;
    auto add = shift.getLhs().getDefiningOp<arith::AddIOp>();
    if (!add || !add->hasOneUse())
      return std::nullopt;
    Value product = add.getLhs(), nudge = add.getRhs();
    if (!isConst(nudge, int64_t(1) << 30))
      std::swap(product, nudge);
    if (!isConst(nudge, int64_t(1) << 30))
      return std::nullopt;
    auto mul = product.getDefiningOp<arith::MulIOp>();
    if (!mul || !mul->hasOneUse())
      return std::nullopt;
    Value lhs = i32Factor(mul.getLhs()), rhs = i32Factor(mul.getRhs());
    if (!lhs || !rhs)
      return std::nullopt;
    return std::make_pair(lhs, rhs);
  }

  /// Matches trunci(minsi(maxsi(shrsi(addi(P, shli(1, subi(T, 1))), T),
  /// INT32_MIN), INT32_MAX)), or the same without either bound, with P =
  /// muli(sext a, b) and T = addi(sext r,
  /// 31) or a constant >= 31, intermediates used only inside the pattern
  /// (the emitSingleRoundingMultiply form without a left shift). With a
  /// per-channel r, canonicalization folds subi(T, 1) into addi(sext r,
  /// 30): both forms match.
  static std::optional<RoundedProduct> matchRoundedProduct(Operation &op) {
    auto trunc = truncI64ToI32(op);
    if (!trunc)
      return std::nullopt;
    auto isConst = isConstantInt;
    RoundedProduct r;
    // The saturation to i32: minsi(maxsi(...)), less the bounds that
    // qnn-simplify-int-ranges removed (the shift keeps the products in
    // range).
    Value shifted = trunc.getIn();
    arith::MinSIOp minOp = shifted.getDefiningOp<arith::MinSIOp>();
    if (minOp) {
      if (!minOp->hasOneUse() ||
          !isConst(minOp.getRhs(), std::numeric_limits<int32_t>::max()))
        return std::nullopt;
      shifted = minOp.getLhs();
    }
    arith::MaxSIOp maxOp = shifted.getDefiningOp<arith::MaxSIOp>();
    if (maxOp) {
      if (!maxOp->hasOneUse() ||
          !isConst(maxOp.getRhs(), std::numeric_limits<int32_t>::min()))
        return std::nullopt;
      shifted = maxOp.getLhs();
    }
    // An arithmetic shift; without the clamp, canonicalization turns a
    // shift by exactly 32 into a logical one (the same low 32 bits).
    Operation *shr = shifted.getDefiningOp<arith::ShRSIOp>();
    if (auto shrui = shifted.getDefiningOp<arith::ShRUIOp>();
        shrui && !minOp && !maxOp && isConst(shrui.getRhs(), 32))
      shr = shrui;
    if (!shr || !shr->hasOneUse())
      return std::nullopt;
    auto add = shr->getOperand(0).getDefiningOp<arith::AddIOp>();
    if (!add || !add->hasOneUse())
      return std::nullopt;
    Value total = shr->getOperand(1);
    // The shift: 31 + r.
    APInt constTotal;
    if (matchPattern(total, m_ConstantInt(&constTotal))) {
      if (constTotal.getSExtValue() < 31 || constTotal.getSExtValue() > 62)
        return std::nullopt;
      r.constantShift = constTotal.getSExtValue() - 31;
    } else {
      auto sum = total.getDefiningOp<arith::AddIOp>();
      if (!sum || !isConst(sum.getRhs(), 31))
        return std::nullopt;
      auto ext = sum.getLhs().getDefiningOp<arith::ExtSIOp>();
      if (!ext || !ext.getIn().getType().isInteger(32))
        return std::nullopt;
      r.shift = ext.getIn();
    }
    // The rounding term: 1 << (total - 1), or its folded constant.
    Value product = add.getLhs(), round = add.getRhs();
    if (!product.getDefiningOp<arith::MulIOp>())
      std::swap(product, round);
    auto mul = product.getDefiningOp<arith::MulIOp>();
    if (!mul || !mul->hasOneUse())
      return std::nullopt;
    if (r.shift) {
      auto shl = round.getDefiningOp<arith::ShLIOp>();
      if (!shl || !shl->hasOneUse() || !isConst(shl.getLhs(), 1))
        return std::nullopt;
      // total - 1, or r + 30 once canonicalization has folded it.
      Operation *exponent = shl.getRhs().getDefiningOp();
      if (!exponent || !exponent->hasOneUse())
        return std::nullopt;
      if (auto sub = dyn_cast<arith::SubIOp>(exponent)) {
        if (sub.getLhs() != total || !isConst(sub.getRhs(), 1))
          return std::nullopt;
      } else if (auto sum30 = dyn_cast<arith::AddIOp>(exponent)) {
        auto ext = sum30.getLhs().getDefiningOp<arith::ExtSIOp>();
        if (!ext || ext.getIn() != r.shift || !isConst(sum30.getRhs(), 30))
          return std::nullopt;
      } else {
        return std::nullopt;
      }
      r.ops = {exponent, shl};
    } else if (!isConst(round, int64_t(1) << (30 + r.constantShift))) {
      return std::nullopt;
    }
    r.a = i32Factor(mul.getLhs());
    r.b = i32Factor(mul.getRhs());
    if (!r.a || !r.b)
      return std::nullopt;
    // The shift sum may have other users (the rounding term's subi is one);
    // it stays cloned, unused ones are dead code for LLVM.
    r.ops.append({mul, add, shr});
    if (maxOp)
      r.ops.push_back(maxOp);
    if (minOp)
      r.ops.push_back(minOp);
    return r;
  }

  /// Matches TFLite's double-rounding multiply in the one-shift form of
  /// emitMultiplyByQuantizedMultiplier without a left shift:
  /// trunci(shrsi(subi(addi(P, R), select(cmpi slt P, -2^30; C; 0)), T))
  /// with P = muli(sext a, b), T = addi(sext e, 31), R = ori(shli(1,
  /// addi(sext e, 30)), 2^30) and C = shli(minui(sext e, 1), 31) for an
  /// i32 value e, or R, C and T the constants of one e in [0, 31]. P is
  /// used by the compare and the add only; the other intermediates once.
  static std::optional<RoundedProduct>
  matchDoubleRoundedProduct(Operation &op) {
    auto trunc = truncI64ToI32(op);
    if (!trunc)
      return std::nullopt;
    auto isConst = isConstantInt;
    auto shr = trunc.getIn().getDefiningOp<arith::ShRSIOp>();
    if (!shr || !shr->hasOneUse())
      return std::nullopt;
    auto sub = shr.getLhs().getDefiningOp<arith::SubIOp>();
    if (!sub || !sub->hasOneUse())
      return std::nullopt;
    auto add = sub.getLhs().getDefiningOp<arith::AddIOp>();
    auto select = sub.getRhs().getDefiningOp<arith::SelectOp>();
    if (!add || !add->hasOneUse() || !select || !select->hasOneUse() ||
        !isConst(select.getFalseValue(), 0))
      return std::nullopt;
    auto cmp = select.getCondition().getDefiningOp<arith::CmpIOp>();
    if (!cmp || !cmp->hasOneUse() ||
        cmp.getPredicate() != arith::CmpIPredicate::slt ||
        !isConst(cmp.getRhs(), -(int64_t(1) << 30)))
      return std::nullopt;
    Value product = cmp.getLhs();
    Value round = add.getRhs();
    if (add.getLhs() != product) {
      if (add.getRhs() != product)
        return std::nullopt;
      round = add.getLhs();
    }
    auto mul = product.getDefiningOp<arith::MulIOp>();
    if (!mul || !llvm::hasNItems(product.getUses(), 2))
      return std::nullopt;
    RoundedProduct r;
    r.a = i32Factor(mul.getLhs());
    r.b = i32Factor(mul.getRhs());
    if (!r.a || !r.b)
      return std::nullopt;
    // The terms of a per-channel e stay cloned (their other users, if any,
    // need them; unused ones are dead code for LLVM).
    r.ops = {mul, cmp, select, add, sub, shr};
    Value correction = select.getTrueValue();
    APInt constTotal;
    if (matchPattern(shr.getRhs(), m_ConstantInt(&constTotal))) {
      int64_t e = constTotal.getSExtValue() - 31;
      if (e < 0 || e > 31 ||
          !isConst(round, (int64_t(1) << (30 + e)) | (int64_t(1) << 30)) ||
          !isConst(correction, e ? int64_t(1) << 31 : 0))
        return std::nullopt;
      r.constantShift = e;
      return r;
    }
    // Per-channel e: every term must be the expected function of it.
    auto total = shr.getRhs().getDefiningOp<arith::AddIOp>();
    if (!total || !isConst(total.getRhs(), 31))
      return std::nullopt;
    Value e64 = total.getLhs();
    auto ext = e64.getDefiningOp<arith::ExtSIOp>();
    if (!ext || !ext.getIn().getType().isInteger(32))
      return std::nullopt;
    auto orOp = round.getDefiningOp<arith::OrIOp>();
    if (!orOp || !isConst(orOp.getRhs(), int64_t(1) << 30))
      return std::nullopt;
    auto pow = orOp.getLhs().getDefiningOp<arith::ShLIOp>();
    if (!pow || !isConst(pow.getLhs(), 1))
      return std::nullopt;
    auto exp = pow.getRhs().getDefiningOp<arith::AddIOp>();
    if (!exp || exp.getLhs() != e64 || !isConst(exp.getRhs(), 30))
      return std::nullopt;
    auto corrShl = correction.getDefiningOp<arith::ShLIOp>();
    if (!corrShl || !isConst(corrShl.getRhs(), 31))
      return std::nullopt;
    auto minOp = corrShl.getLhs().getDefiningOp<arith::MinUIOp>();
    if (!minOp || minOp.getLhs() != e64 || !isConst(minOp.getRhs(), 1))
      return std::nullopt;
    r.shift = ext.getIn();
    return r;
  }

  /// The range of the right shifts r of a matched rounded product over
  /// every layer sharing the kernel: its constant, or the ranges of its
  /// per-channel argument ([0, 31] when unknown, TFLite's shifts).
  std::pair<int64_t, int64_t> shiftRange(const RoundedProduct &r) {
    if (!r.shift)
      return {r.constantShift, r.constantShift};
    auto arg = dyn_cast<BlockArgument>(r.shift);
    if (!arg || !hasRanges(arg))
      return {0, 31};
    auto [lo, hi] = argumentHull(arg);
    return {std::max<int64_t>(0, lo), std::min<int64_t>(31, hi)};
  }

  /// The i32 lanes (s >> (32 - less + r)) of the even-lane sums `evenSum`
  /// and the odd-lane sums `oddSum` (64-bit lanes) with right shifts r >=
  /// less (i32 lanes `shift`, or `constantShift`): the high halves hold s
  /// >> 32, so one blend of them (the even sums' moved down) and one i32
  /// shift right by r - less give all lanes (see blendsHighHalves; less is
  /// 1 for roundedProduct's sums, 2 for halvedProduct's products).
  Value shiftedHighHalves(OpBuilder &ob, Value evenSum, Value oddSum,
                          Value shift, int64_t constantShift,
                          int64_t less = 1) {
    auto wideType = VectorType::get({s.lanes()}, ob.getI32Type());
    Value evenHigh = arith::ShRUIOp::create(ob, loc, evenSum, pairSplat(32));
    Value high = blendEvenOdd(ob, wideType, evenHigh, oddSum);
    return shiftRightLess(ob, high, shift, constantShift, less);
  }

  /// The i32 lanes of `v` shifted right by r - less, the right shifts r
  /// being the i32 lanes `shift` (r - less made once per channel block) or
  /// `constantShift` (no shift when it is `less`).
  Value shiftRightLess(OpBuilder &ob, Value v, Value shift,
                       int64_t constantShift, int64_t less) {
    auto wideType = VectorType::get({s.lanes()}, ob.getI32Type());
    auto splat = [&](int64_t c) {
      return constant(DenseElementsAttr::get(wideType, ob.getI32IntegerAttr(c)));
    };
    if (!shift)
      return constantShift == less
                 ? v
                 : arith::ShRSIOp::create(ob, loc, v,
                                          splat(constantShift - less))
                       .getResult();
    StringLiteral tag =
        less == 1 ? StringLiteral("minus1") : StringLiteral("minus2");
    Value amount = derived(shift, tag, [&](OpBuilder &db) -> Value {
      return arith::SubIOp::create(db, loc, shift, splat(less));
    });
    return arith::ShRSIOp::create(ob, loc, v, amount);
  }

  /// A halved tail's product (see halvedTail): (a * b) >> (30 + r) per lane
  /// of the i32 vectors a and b with right shifts r >= 2 (i32 lanes
  /// `shift`, or `constantShift`), without rounding. The even lanes'
  /// products shift right by 30 + r as 64-bit lanes, which leaves the
  /// result in their low halves; the odd lanes' high halves (the product
  /// >> 32) shift right by r - 2 as i32 lanes, the select of the odd lanes
  /// a masked shift (AVX512). AVX2 blends the high halves first
  /// (shiftedHighHalves).
  Value halvedProduct(OpBuilder &ob, Value a, Value b, Value shift,
                      int64_t constantShift) {
    auto wideType = VectorType::get({s.lanes()}, ob.getI32Type());
    auto [even, odd] = evenOddProducts(ob, a, b);
    if (blendsHighHalves())
      return shiftedHighHalves(ob, even, odd, shift, constantShift, 2);
    Value evenTotal;
    if (shift) {
      Value low = evenShifts(ob, shift);
      evenTotal = derived(low, "plus30", [&](OpBuilder &db) -> Value {
        return arith::AddIOp::create(db, loc, low, pairSplat(30));
      });
    } else {
      evenTotal = pairSplat(30 + constantShift);
    }
    Value evenResult = arith::ShRSIOp::create(ob, loc, even, evenTotal);
    Value oddHigh = shiftRightLess(
        ob, vector::BitCastOp::create(ob, loc, wideType, odd), shift,
        constantShift, 2);
    return blendEvenOdd(ob, wideType, evenResult, oddHigh);
  }

  /// Whether rounded products with r >= 1 take shiftedHighHalves: for
  /// AVX2 (the Int16 and DepthwiseAVX2 flavors), which lacks 64-bit
  /// arithmetic shifts, that is one instruction per vector fewer than
  /// shifting each half and moving the even results down (a shuffle, two
  /// shifts and a blend); on Zen 4, pointwise pw1 (K = 32) 384 -> 373 us,
  /// depthwise dw1/dw2/dw3/dw7 2-4% faster. Not with AVX512: it
  /// shifts the halves in place, and LLVM merges the move and the blend
  /// into a vpermt2d, which made the VNNI pw1 5% slower (165 -> 173 us).
  bool blendsHighHalves() const {
    return s.flavor == KernelFlavor::Int16 ||
           s.flavor == KernelFlavor::DepthwiseAVX2;
  }

  /// The constant `value`, created once per kernel at the start of its
  /// entry block (every use is inside the function).
  Value constant(Attribute value) {
    Value &c = memo.constants[value];
    if (!c) {
      OpBuilder cb = OpBuilder::atBlockBegin(entry);
      c = arith::ConstantOp::create(cb, loc, cast<TypedAttr>(value));
    }
    return c;
  }

  /// `make(builder)`, a pure function of `v` (and of constants) named by
  /// `tag`, computed once, right after `v`'s definition, so that it is
  /// available wherever `v` is: the epilogue's derivations of its
  /// per-channel constants (multiplier halves, shift halves, rounding
  /// terms) are emitted once per channel block instead of once per output
  /// vector (a sixth of the kernels' operations before, left for LLVM's
  /// CSE).
  Value derived(Value v, StringLiteral tag,
                function_ref<Value(OpBuilder &)> make) {
    auto key = std::make_pair(v, tag.data());
    if (auto it = memo.derivations.find(key); it != memo.derivations.end())
      return it->second;
    // Right after v's definition (the start of its block for an argument)
    // and, in the entry block, past the kernel's constants too: constant()
    // puts them at its start, the newest first, and make may use any.
    OpBuilder db(v.getContext());
    Block *block = v.getParentBlock();
    Operation *def = v.getDefiningOp();
    Operation *next =
        def ? def->getNextNode() : (block->empty() ? nullptr : &block->front());
    if (block == entry)
      while (isa_and_nonnull<arith::ConstantOp>(next)) {
        def = next;
        next = next->getNextNode();
      }
    if (def)
      db.setInsertionPointAfter(def);
    else
      db.setInsertionPointToStart(block);
    Value result = make(db);
    memo.derivations[key] = result;
    return result;
  }

  /// A splat of `v` over the 64-bit lanes of an epilogue vector (lanes / 2
  /// of them): the even/odd-lane products' operands.
  Value pairSplat(int64_t v) {
    auto pairs = VectorType::get({s.lanes() / 2}, b.getI64Type());
    return constant(DenseElementsAttr::get(pairs, b.getI64IntegerAttr(v)));
  }

  /// The per-lane right shifts of the even and of the odd i32 lanes as
  /// 64-bit lanes: the low and the high halves of the shift vector's 64-bit
  /// lanes (an i32 vector), or both `constantShift` when `shift` is null.
  std::pair<Value, Value> evenOddShifts(OpBuilder &ob, Value shift,
                                        int64_t constantShift) {
    if (!shift) {
      Value c = pairSplat(constantShift);
      return {c, c};
    }
    Value q = asPairs(ob, shift);
    Value odd = derived(q, "high32u", [&](OpBuilder &db) -> Value {
      return arith::ShRUIOp::create(db, loc, q, pairSplat(32));
    });
    return {evenShifts(ob, shift), odd};
  }

  /// The even i32 lanes' shifts of evenOddShifts (i32 lanes `shift`, per
  /// channel): the low halves of its 64-bit lanes, made once per channel
  /// block.
  Value evenShifts(OpBuilder &ob, Value shift) {
    Value q = asPairs(ob, shift);
    return derived(q, "low32", [&](OpBuilder &db) -> Value {
      return arith::AndIOp::create(db, loc, q, pairSplat(0xffffffffLL));
    });
  }

  /// The double-rounding multiply of matchDoubleRoundedProduct per lane of
  /// the i32 vectors a and b with right shifts e (i32 lanes, or
  /// `constantShift`), like roundedProduct: even lanes from the low halves
  /// of the 64-bit lanes, shifted right by 31 + e; odd lanes from the high
  /// halves, shifted right by e and left by 1 so that the result lies in
  /// the high half. In each half: p + R - (p < -2^30 ? C : 0) with R =
  /// 2^(30+e) | 2^30 and C = min(e, 1) << 31 (a compare into a mask and a
  /// masked subtract on x86). With `least` (the least e) >= 1 on AVX2, the
  /// halves' shifts become shiftedHighHalves; `addend` joins R as addend *
  /// 2^(31+e), so the result gains it (zeroPointInProduct).
  Value doubleRoundedProduct(OpBuilder &ob, Value a, Value b, Value shift,
                             int64_t constantShift, int64_t least,
                             int64_t addend) {
    auto wideType = VectorType::get({s.lanes()}, ob.getI32Type());
    auto [even, odd] = evenOddProducts(ob, a, b);
    auto [eEven, eOdd] = evenOddShifts(ob, shift, constantShift);
    Value half = pairSplat(int64_t(1) << 30), one = pairSplat(1);
    auto nudged = [&](Value p, Value e) -> Value {
      Value round = derived(e, "round2", [&](OpBuilder &db) -> Value {
        return arith::OrIOp::create(
            db, loc, arith::ShLIOp::create(db, loc, half, e), half);
      });
      // + addend * 2^(31+e): the result gains addend.
      // (Derived from round, so that it follows round's definition.)
      if (addend)
        round = derived(round, "round2plus", [&](OpBuilder &db) -> Value {
          Value term = arith::ShLIOp::create(
              db, loc, pairSplat(addend * (int64_t(1) << 31)), e);
          return arith::AddIOp::create(db, loc, round, term);
        });
      Value correction = derived(e, "correction2", [&](OpBuilder &db) -> Value {
        return arith::ShLIOp::create(
            db, loc, arith::MinUIOp::create(db, loc, e, one), pairSplat(31));
      });
      Value negative = arith::CmpIOp::create(ob, loc, arith::CmpIPredicate::slt,
                                             p, pairSplat(-(int64_t(1) << 30)));
      Value corrected =
          arith::SelectOp::create(ob, loc, negative, correction, pairSplat(0));
      Value rounded = arith::AddIOp::create(ob, loc, p, round);
      return arith::SubIOp::create(ob, loc, rounded, corrected);
    };
    // One statement per op (the IR's order must not depend on the order in
    // which the compiler evaluates arguments).
    Value evenSum = nudged(even, eEven);
    if (least >= 1 && blendsHighHalves())
      return shiftedHighHalves(ob, evenSum, nudged(odd, eOdd), shift,
                               constantShift);
    Value evenTotal = derived(eEven, "plus31", [&](OpBuilder &db) -> Value {
      return arith::AddIOp::create(db, loc, eEven, pairSplat(31));
    });
    even = arith::ShRSIOp::create(ob, loc, evenSum, evenTotal);
    Value oddSum = nudged(odd, eOdd);
    odd = arith::ShLIOp::create(
        ob, loc, arith::ShRSIOp::create(ob, loc, oddSum, eOdd), one);
    return blendEvenOdd(ob, wideType, even, odd);
  }

  /// A bound on |v| where the epilogue value v is its accumulator argument
  /// or that plus the bias (leadingBiasAdd): kh * kw * C products of at
  /// most 255 x 255 plus the largest |bias| of the layers that share the
  /// kernel (a constant, or its argument's ranges); none otherwise.
  std::optional<int64_t> accumulatorBound(Value v) {
    Block &body = epilogue.getBody().front();
    arith::AddIOp bias = leadingBiasAdd();
    if (v != body.getArgument(0) && (!bias || v != bias.getResult()))
      return std::nullopt;
    int64_t biasMax = 0;
    if (bias && v == bias.getResult()) {
      Value other = leadingBias();
      APInt value;
      if (matchPattern(other, m_ConstantInt(&value))) {
        biasMax = value.abs().getZExtValue();
      } else {
        auto biasArg = dyn_cast<BlockArgument>(other);
        if (!biasArg || !hasRanges(biasArg))
          return std::nullopt;
        auto [lo, hi] = argumentHull(biasArg);
        biasMax = std::max(std::abs(lo), std::abs(hi));
      }
    }
    return s.kh * s.kw * s.cp * 255 * 255 + biasMax;
  }

  /// Whether the epilogue value v (an i32 value or constant) is >= 0 in
  /// every lane of every layer sharing the kernel: a constant, or an
  /// argument whose ranges say so.
  bool nonNegative(Value v) {
    APInt value;
    if (matchPattern(v, m_ConstantInt(&value)))
      return !value.isNegative();
    auto arg = dyn_cast<BlockArgument>(v);
    return arg && hasRanges(arg) && argumentHull(arg).first >= 0;
  }

  /// Where doubleRoundedProduct may take its compare-free form
  /// (doubleRoundedHighHalves) for r, its result gaining `addend`, the
  /// factors of r as (accumulator a, multiplier b): on the x86 flavors
  /// (inline vpmuldq), every right shift e >= 1, b >= 0, and a bounded so
  /// that 2a and the quotient before the last shift, at most |a| + 2 +
  /// 2^(e-1) + |addend| * 2^e, fit in i32. None otherwise.
  std::optional<std::pair<Value, Value>>
  compareFreeDoubleRounding(const RoundedProduct &r, int64_t addend) {
    if (!mulDqConstraints())
      return std::nullopt;
    auto [least, most] = shiftRange(r);
    if (least < 1)
      return std::nullopt;
    for (auto [a, b] : {std::pair(r.a, r.b), std::pair(r.b, r.a)}) {
      std::optional<int64_t> bound =
          nonNegative(b) ? accumulatorBound(a) : std::nullopt;
      if (!bound)
        continue;
      int64_t quotientMax = *bound + 2 + (int64_t(1) << (most - 1)) +
                            std::abs(addend) * (int64_t(1) << most);
      if (*bound < (int64_t(1) << 30) && quotientMax < (int64_t(1) << 31))
        return std::pair(a, b);
      return std::nullopt;
    }
    return std::nullopt;
  }

  /// doubleRoundedProduct without its compares, where
  /// compareFreeDoubleRounding allows it (e >= 1, b >= 0, |a| < 2^30):
  /// the result is floor((floor((p + R) / 2^31) + s) / 2^e) with p = a * b,
  /// R as there and s = -1 where a < 0, else 0 (the compare's p < -2^30
  /// implies a < 0, and where a < 0 but p >= -2^30 the quotient is
  /// floor((2^(e-1) + addend * 2^e + s) / 2^e) = addend either way). The
  /// products are those of 2a, so that floor((p + R) / 2^31) is the high
  /// half of 2p + 2R: one shuffle (the even lanes') and one blend gather
  /// the 16 quotients, the sign (a shift) joins them with an add and one
  /// i32 shift per vector divides by 2^e. Against the compare form: no
  /// compares into masks (on Zen 5 each costs about 0.3 cycles beside
  /// vpdpbusd, which issues two per cycle: qnn-bench-peak) and one
  /// instruction fewer per 16 outputs. Without `signTerm` s is left out
  /// (two instructions fewer): where a < 0, p <= 0 and the quotient is at
  /// most 2^(e-1) + addend * 2^e, so the result is at most addend either
  /// way, which a tail that clamps y <= 0 to its lower bound
  /// (clampsNonPositive: a ReLU, or an unsigned output with zero point 0)
  /// makes the same byte. Such tails usually take the offset form instead
  /// (OffsetProduct); this one remains where it does not apply (more than
  /// 4096 channels, factors that are neither tables nor constants, other
  /// users of a).
  Value doubleRoundedHighHalves(OpBuilder &ob, Value a, Value b, Value shift,
                                int64_t constantShift, int64_t addend,
                                bool signTerm) {
    auto wideType = VectorType::get({s.lanes()}, ob.getI32Type());
    auto splat = [&](int64_t c) {
      return constant(
          DenseElementsAttr::get(wideType, ob.getI32IntegerAttr(c)));
    };
    Value twice = arith::AddIOp::create(ob, loc, a, a);
    auto [even, odd] = evenOddProducts(ob, twice, b, /*shuffleOdd=*/true);
    // 2R = 2^31 + 2^(31+e) + addend * 2^(32+e).
    auto rounding = [&](Value e) -> Value {
      if (!shift) {
        // (With an addend, compareFreeDoubleRounding bounds e by 30.)
        int64_t term =
            (int64_t(1) << 31) + (int64_t(1) << (31 + constantShift));
        if (addend)
          term += addend * (int64_t(1) << (32 + constantShift));
        return pairSplat(term);
      }
      auto make = [&](OpBuilder &db) -> Value {
        Value r = arith::OrIOp::create(
            db, loc, arith::ShLIOp::create(db, loc, pairSplat(1LL << 31), e),
            pairSplat(1LL << 31));
        if (!addend)
          return r;
        return arith::AddIOp::create(
            db, loc, r,
            arith::ShLIOp::create(db, loc, pairSplat(addend * (1LL << 32)), e));
      };
      return addend ? derived(e, "round2hplus", make)
                    : derived(e, "round2h", make);
    };
    auto [eEven, eOdd] = evenOddShifts(ob, shift, constantShift);
    Value evenSum = arith::AddIOp::create(ob, loc, even, rounding(eEven));
    Value oddSum = arith::AddIOp::create(ob, loc, odd, rounding(eOdd));
    Value evenWide = vector::BitCastOp::create(ob, loc, wideType, evenSum);
    // Behind an empty inline assembly statement: LLVM would otherwise merge
    // the shuffle and the blend into a vpermt2d, which competes with
    // vpdpbusd for its pipes (about half a slot on Zen 4, nearly a whole
    // one on Zen 5), where the shuffle and the blend can take others.
    Value evenHigh = opaqueCopy(ob, oddLanesDown(ob, evenWide), "=v,0");
    Value quotient = blendEvenOdd(ob, wideType, evenHigh, oddSum);
    if (signTerm) {
      Value sign = arith::ShRSIOp::create(ob, loc, a, splat(31));
      quotient = arith::AddIOp::create(ob, loc, quotient, sign);
    }
    return arith::ShRSIOp::create(ob, loc, quotient,
                                  shift ? shift : splat(constantShift));
  }

  /// The offset form of the tail's double-rounded product (planned by
  /// planOffsetProduct, its tables made by buildOffsetTables): where the
  /// compare-free form applies without its sign term (doubleRoundedHighHalves
  /// under a tail that clamps y <= 0 to its lower bound), the accumulators
  /// start from bias + D instead of the bias, with a per-channel D in [2^30,
  /// 2^30 + 2^29] such that D * m = 2^30 + J * 2^31 for an integer J. Then
  /// u = a + D lies in (0, 2^32) (|a| < 2^30), and the high half of the
  /// unsigned product u * 2m (vpmuludq, 2m < 2^32) is floor((a * m + 2^30) /
  /// 2^31) + J: the first rounding and the doubling come with the
  /// accumulator. One i32 add of K = 2^(e-1) + addend * 2^e - J (mod 2^32)
  /// per 16 outputs replaces the doubling add and the two 64-bit rounding
  /// adds, before the shift by e. The same integers for every a that
  /// accumulatorBound allows.
  struct OffsetProduct {
    /// The product's root (its trunci), its template (for the shift) and
    /// its multiplier b (compareFreeDoubleRounding's second factor; the
    /// first is the accumulator, which starts from bias + D).
    Operation *root = nullptr;
    RoundedProduct r;
    Value b;
    /// The zero point that K holds (the tail's productAddend).
    int64_t addend = 0;
    /// memref<N x i32> tables: bias + D, 2m and K.
    Value bias, twice, k;
  };
  std::optional<OffsetProduct> offset;

  /// Whether the offset form (OffsetProduct) computes the epilogue's
  /// narrowing tail's y; sets `offset` without its tables. It needs the
  /// compare-free form without the sign term, the factor a the accumulator
  /// (plus the leading bias) and used by the product alone, and the
  /// multiplier, the shift and the bias constants or per-channel arguments
  /// of i32 tables.
  bool planOffsetProduct() {
    // (The tables live on the caller's stack: at most 48 KiB.)
    if (!mulDqConstraints() || !epilogue || offsetTableLength() > 4096)
      return false;
    std::optional<NarrowingTail> tail = narrowingTail();
    if (!tail || tail->halved || !clampsNonPositive(*tail))
      return false;
    Operation *root = tail->y.getDefiningOp();
    std::optional<RoundedProduct> r =
        root ? matchDoubleRoundedProduct(*root) : std::nullopt;
    // (applyEpilogue tries the other templates first.)
    if (!r || matchHighHalfProduct(*root) || matchRoundedProduct(*root))
      return false;
    auto factors = compareFreeDoubleRounding(*r, tail->productAddend);
    if (!factors)
      return false;
    auto [a, b] = *factors;
    // (compareFreeDoubleRounding's accumulatorBound: a is the accumulator
    // or the leading bias add.) No other use of a may see a + D.
    auto inProduct = [&](Operation *op) {
      return llvm::is_contained(r->ops, op);
    };
    for (Operation *user : a.getUsers())
      if (!inProduct(user) && !(isa<arith::ExtSIOp>(user) &&
                                llvm::all_of(user->getUsers(), inProduct)))
        return false;
    Block &body = epilogue.getBody().front();
    // (As channelVector reads them.)
    auto tableOrConstant = [&](Value v) {
      APInt value;
      if (!v || matchPattern(v, m_ConstantInt(&value)))
        return true;
      auto arg = dyn_cast<BlockArgument>(v);
      return arg && arg.getOwner() == &body && arg.getArgNumber() >= 1 &&
             arg.getArgNumber() <= channelArgs.size() &&
             cast<MemRefType>(channelArgs[arg.getArgNumber() - 1].getType())
                 .getElementType()
                 .isInteger(32);
    };
    if (!tableOrConstant(b) || !tableOrConstant(r->shift) ||
        !tableOrConstant(leadingBias()))
      return false;
    offset = OffsetProduct{root, *r, b, tail->productAddend, {}, {}, {}};
    return true;
  }

  /// A vector of `type` with the epilogue value v's lanes from `c` on: its
  /// channel table's, or its constant's splat; `fallback`'s without v.
  Value channelVector(OpBuilder &ob, VectorType type, Value v, Value c,
                      int64_t fallback) {
    APInt value;
    if (v && !matchPattern(v, m_ConstantInt(&value)))
      return vector::LoadOp::create(
          ob, loc, type, channelArgs[cast<BlockArgument>(v).getArgNumber() - 1],
          c);
    int64_t x = v ? value.getSExtValue() : fallback;
    return arith::ConstantOp::create(
        ob, loc,
        DenseElementsAttr::get(type,
                               ob.getI32IntegerAttr(static_cast<int32_t>(x))));
  }

  /// The length of the offset form's tables: that of the kernel's channel
  /// arguments, or its output channels without any.
  int64_t offsetTableLength() const {
    if (channelArgs.empty())
      return s.op;
    return cast<MemRefType>(channelArgs.front().getType()).getDimSize(0);
  }

  /// The tables of the planned offset form, before the kernel's loops (one
  /// pass over the channels, a vector of up to `lanes` channels at a time):
  /// for each channel with multiplier m (>= 0), right shift e (>= 1) and
  /// bias (0 without one), v = ctz(m) (31 for m = 0) and D = 2^30 | 2^30 >>
  /// v, so that D * m = 2^30 * (2^v + 1) * (m >> v) for v >= 1 and 2^30 * m
  /// for v = 0, 2^30 times an odd number (m = 0: D = 2^30, J = 0); J = D *
  /// m >> 31. The tables hold bias + D, 2m and 2^(e-1) + addend * 2^e - J.
  void buildOffsetTables() {
    OffsetProduct &o = *offset;
    int64_t n = offsetTableLength();
    int64_t width = std::gcd(n, s.lanes());
    auto type = VectorType::get({width}, b.getI32Type());
    auto wide = VectorType::get({width}, b.getI64Type());
    auto tableType = MemRefType::get({n}, b.getI32Type());
    // Aligned to a cache line: each 64-byte read of a table is one line.
    IntegerAttr line = b.getI64IntegerAttr(64);
    o.bias = memref::AllocaOp::create(b, loc, tableType, line);
    o.twice = memref::AllocaOp::create(b, loc, tableType, line);
    o.k = memref::AllocaOp::create(b, loc, tableType, line);
    scf::ForOp loop =
        scf::ForOp::create(b, loc, idx(b, 0), idx(b, n), idx(b, width));
    OpBuilder lb = OpBuilder::atBlockBegin(loop.getBody());
    Value c = loop.getInductionVar();
    auto splat = [&](int64_t v) -> Value {
      return arith::ConstantOp::create(
          lb, loc,
          DenseElementsAttr::get(
              type, lb.getI32IntegerAttr(static_cast<int32_t>(v))));
    };
    Value m = channelVector(lb, type, o.b, c, 0);
    Value e = channelVector(lb, type, o.r.shift, c, o.r.constantShift);
    Value bias = channelVector(lb, type, leadingBias(), c, 0);
    Value v = arith::MinUIOp::create(
        lb, loc, LLVM::CountTrailingZerosOp::create(lb, loc, m, false),
        splat(31));
    Value d = arith::OrIOp::create(
        lb, loc, splat(1 << 30),
        arith::ShRUIOp::create(lb, loc, splat(1 << 30), v));
    Value dm =
        arith::MulIOp::create(lb, loc, arith::ExtUIOp::create(lb, loc, wide, d),
                              arith::ExtUIOp::create(lb, loc, wide, m));
    Value j = arith::TruncIOp::create(
        lb, loc, type,
        arith::ShRUIOp::create(
            lb, loc, dm,
            arith::ConstantOp::create(
                lb, loc,
                DenseElementsAttr::get(wide, lb.getI64IntegerAttr(31)))));
    Value half = arith::ShLIOp::create(
        lb, loc, splat(1), arith::SubIOp::create(lb, loc, e, splat(1)));
    Value k = arith::SubIOp::create(
        lb, loc,
        arith::AddIOp::create(
            lb, loc, half, arith::ShLIOp::create(lb, loc, splat(o.addend), e)),
        j);
    vector::StoreOp::create(lb, loc, arith::AddIOp::create(lb, loc, bias, d),
                            o.bias, c);
    vector::StoreOp::create(lb, loc, arith::AddIOp::create(lb, loc, m, m),
                            o.twice, c);
    vector::StoreOp::create(lb, loc, k, o.k, c);
  }

  /// The offset form's y (OffsetProduct) for the accumulator u = a + D and
  /// its channels' 2m and K: (high half of u * 2m + K) >> e, plus `addend`
  /// less the tables' (an exact shift of the result: K's addend is a
  /// multiple of 2^e).
  Value offsetHighHalves(OpBuilder &ob, Value u, Value twice, Value k,
                         Value shift, int64_t constantShift, int64_t addend) {
    auto wideType = VectorType::get({s.lanes()}, ob.getI32Type());
    auto splat = [&](int64_t c) {
      return constant(
          DenseElementsAttr::get(wideType, ob.getI32IntegerAttr(c)));
    };
    auto [even, odd] = evenOddProducts(ob, u, twice, /*shuffleOdd=*/true,
                                       /*isUnsigned=*/true);
    Value evenWide = vector::BitCastOp::create(ob, loc, wideType, even);
    // (Opaque for the reason doubleRoundedHighHalves gives.)
    Value evenHigh = opaqueCopy(ob, oddLanesDown(ob, evenWide), "=v,0");
    Value high = blendEvenOdd(ob, wideType, evenHigh, odd);
    Value y =
        arith::ShRSIOp::create(ob, loc, arith::AddIOp::create(ob, loc, high, k),
                               shift ? shift : splat(constantShift));
    if (addend != offset->addend)
      y = arith::AddIOp::create(ob, loc, y, splat(addend - offset->addend));
    return y;
  }

  /// For a single-rounding multiply with per-channel right shifts r (0 <=
  /// r <= S) of the accumulator plus bias: a common right shift S such
  /// that (a << (S - r)) cannot overflow i32, if there is one. Then
  /// ((a << (S - r)) * m + 2^(30+S)) >> (31+S) equals (a * m + 2^(30+r))
  /// >> (31+r): numerator and divisor both gain the factor 2^(S-r). The
  /// bound on |a|: accumulatorBound; S: the largest shift among the layers
  /// that share the kernel.
  std::optional<int64_t> commonShift(const RoundedProduct &r) {
    auto shiftArg = dyn_cast_or_null<BlockArgument>(r.shift);
    if (!shiftArg || !hasRanges(shiftArg))
      return std::nullopt;
    std::optional<int64_t> bound = accumulatorBound(r.a);
    if (!bound)
      return std::nullopt;
    int64_t aMax = *bound;
    auto [lo, hi] = argumentHull(shiftArg);
    if (lo < 0 || hi > 31 || aMax >= (int64_t(1) << 31))
      return std::nullopt;
    // |a| < 2^bits, so a << k fits in i32 for k <= 31 - bits.
    int64_t bits = llvm::Log2_64(aMax) + 1;
    if (hi - lo > 31 - bits)
      return std::nullopt;
    return hi;
  }

  /// The single-rounding multiply of matchRoundedProduct per lane of the
  /// i32 vectors a and b with right shifts `shift` (i32 lanes, or
  /// `constantShift`): like highHalfProduct, even lanes from the low
  /// halves, shifted right by 31 + r; odd lanes from the high halves,
  /// shifted right by r and left by 1, so the result (bits 31 + r and up)
  /// lies in the high half. With r >= 0 the result fits in i32, so the
  /// saturation of the template never applies. `least` and `addend` as for
  /// doubleRoundedProduct.
  Value roundedProduct(OpBuilder &ob, Value a, Value b, Value shift,
                       int64_t constantShift, int64_t least, int64_t addend) {
    auto wideType = VectorType::get({s.lanes()}, ob.getI32Type());
    Value even, odd;
    std::tie(even, odd) = evenOddProducts(ob, a, b);
    Value c31 = pairSplat(31), c1 = pairSplat(1);
    auto [rEven, rOdd] = evenOddShifts(ob, shift, constantShift);
    // 2^(30+r), plus addend * 2^(31+r) so that the result gains addend:
    // base << r.
    Value base = pairSplat((1 + 2 * addend) * (int64_t(1) << 30));
    auto rounding = [&](Value r) {
      auto make = [&](OpBuilder &db) -> Value {
        return arith::ShLIOp::create(db, loc, base, r);
      };
      return addend ? derived(r, "round1plus", make)
                    : derived(r, "round1", make);
    };
    Value evenTotal = derived(rEven, "plus31", [&](OpBuilder &db) -> Value {
      return arith::AddIOp::create(db, loc, rEven, c31);
    });
    Value evenSum = arith::AddIOp::create(ob, loc, even, rounding(rEven));
    if (least >= 1 && blendsHighHalves()) {
      Value oddSum = arith::AddIOp::create(ob, loc, odd, rounding(rOdd));
      return shiftedHighHalves(ob, evenSum, oddSum, shift, constantShift);
    }
    even = arith::ShRSIOp::create(ob, loc, evenSum, evenTotal);
    Value oddSum = arith::AddIOp::create(ob, loc, odd, rounding(rOdd));
    odd = arith::ShLIOp::create(
        ob, loc, arith::ShRSIOp::create(ob, loc, oddSum, rOdd), c1);
    return blendEvenOdd(ob, wideType, even, odd);
  }

  /// (a * b + 2^30) >> 31, truncated to i32, per lane of the i32 vectors a
  /// and b: the even lanes' products come from the low halves of the
  /// 64-bit lanes (sign-extended in place: one vpmuldq) and are shifted
  /// right by 31, leaving the result in the low half; the odd lanes' from
  /// the high halves, shifted left by 1, leaving the result (bits 31-62)
  /// in the high half; a blend takes each result where it lies. The same
  /// integers as widening every lane, without the unpacking and packing.
  Value highHalfProduct(OpBuilder &ob, Value a, Value b) {
    int64_t n = s.lanes();
    auto [even, odd] = evenOddProducts(ob, a, b);
    Value half = pairSplat(int64_t(1) << 30);
    even = arith::ShRSIOp::create(
        ob, loc, arith::AddIOp::create(ob, loc, even, half), pairSplat(31));
    odd = arith::ShLIOp::create(
        ob, loc, arith::AddIOp::create(ob, loc, odd, half), pairSplat(1));
    return blendEvenOdd(ob, VectorType::get({n}, ob.getI32Type()), even, odd);
  }

  /// The i32 vector `v` with each odd lane copied onto the even lane below
  /// it (lanes 1, 1, 3, 3, ...: a vpshufd): the high halves of its 64-bit
  /// lanes in their low halves, where vpmuldq reads them.
  Value oddLanesDown(OpBuilder &ob, Value v) {
    int64_t n = cast<VectorType>(v.getType()).getNumElements();
    SmallVector<int64_t> lanes;
    for (int64_t i = 0; i < n; ++i)
      lanes.push_back(i | 1);
    return vector::ShuffleOp::create(ob, loc, v, v, lanes);
  }

  /// The i32 vector `v` as lanes() / 2 64-bit lanes.
  Value asPairs(OpBuilder &ob, Value v) {
    auto pairs = VectorType::get({s.lanes() / 2}, ob.getI64Type());
    return derived(v, "pairs", [&](OpBuilder &db) -> Value {
      return vector::BitCastOp::create(db, loc, pairs, v);
    });
  }

  /// The exact i64 products of the even lanes and of the odd lanes of the
  /// i32 vectors a and b (an operand that is an i64 splat constant, a
  /// per-tensor multiplier, is taken as its i32 splat), each one vpmuldq.
  /// In the x86 flavors (mulDqConstraints) that instruction is written
  /// as inline assembly on the 64-bit lanes as they are (it reads their
  /// low halves), the odd lanes' high halves shifted down (shrui 32);
  /// otherwise the low halves are sign-extended in place (shl, shrsi 32)
  /// and the high halves shifted down (shrsi 32), so that LLVM can prove
  /// both factors to be sign-extended i32 values and select vpmuldq on
  /// x86. The halves of a per-channel operand are computed once per
  /// channel block (derived).
  /// With `isUnsigned` (x86 flavors only), the factors are unsigned
  /// (vpmuludq).
  std::pair<Value, Value> evenOddProducts(OpBuilder &ob, Value a, Value b,
                                          bool shuffleOdd = false,
                                          bool isUnsigned = false) {
    int64_t n = s.lanes();
    auto wideType = VectorType::get({n}, ob.getI32Type());
    auto asI32 = [&](Value v) -> Value {
      DenseIntElementsAttr attr;
      if (cast<VectorType>(v.getType()).getElementType().isInteger(32) ||
          !matchPattern(v, m_Constant(&attr)))
        return v;
      return constant(DenseElementsAttr::get(
          wideType, ob.getI32IntegerAttr(static_cast<int32_t>(
                        attr.getSplatValue<APInt>().getSExtValue()))));
    };
    Value c32 = pairSplat(32);
    Value aq = asPairs(ob, asI32(a));
    Value bq = asPairs(ob, asI32(b));
    std::optional<StringRef> constraints = mulDqConstraints();
    assert((constraints || !isUnsigned) && "vpmuludq is x86's");
    // The low halves: as they are for the inline vpmuldq, which reads no
    // more; sign-extended in place for LLVM's own selection.
    auto low = [&](Value q) -> Value {
      if (constraints)
        return q;
      return derived(q, "low", [&](OpBuilder &db) -> Value {
        return arith::ShRSIOp::create(
            db, loc, arith::ShLIOp::create(db, loc, q, c32), c32);
      });
    };
    // The high halves shifted down (sign-extended for LLVM's selection).
    auto high = [&](Value q) -> Value {
      if (constraints)
        return derived(q, "highUnsigned", [&](OpBuilder &db) -> Value {
          return arith::ShRUIOp::create(db, loc, q, c32);
        });
      return derived(q, "high", [&](OpBuilder &db) -> Value {
        return arith::ShRSIOp::create(db, loc, q, c32);
      });
    };
    // An operand loaded from a per-channel table takes its odd lanes from
    // a second load one channel further (see oddChannelLoad) instead of a
    // shift of the first.
    auto oddLanes = [&](Value v, Value q) {
      if (Value shifted = oddChannelLoad(v))
        return low(asPairs(ob, shifted));
      // shuffleOdd: the odd i32 lanes copied onto the even ones (vpshufd,
      // which issues on more pipes than a shift), for the inline vpmuldq
      // that reads the low halves only.
      if (shuffleOdd && constraints &&
          cast<VectorType>(v.getType()).getElementType().isInteger(32)) {
        return asPairs(ob, derived(v, "oddLanes", [&](OpBuilder &db) {
                         return oddLanesDown(db, v);
                       }));
      }
      return high(q);
    };
    auto multiply = [&](Value x, Value y) -> Value {
      if (!constraints)
        return arith::MulIOp::create(ob, loc, x, y);
      return LLVM::InlineAsmOp::create(
                 ob, loc, x.getType(), ValueRange{x, y},
                 /*asm_string=*/
                 isUnsigned ? "vpmuludq $2, $1, $0" : "vpmuldq $2, $1, $0",
                 *constraints,
                 /*has_side_effects=*/false, /*is_align_stack=*/false,
                 LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(),
                 ArrayAttr())
          .getResult(0);
    };
    // One statement per operand: the IR's order must not depend on the
    // compiler's order of evaluating arguments.
    Value aLow = low(aq), bLow = low(bq);
    Value evenProduct = multiply(aLow, bLow);
    Value aHigh = oddLanes(a, aq), bHigh = oddLanes(b, bq);
    Value oddProduct = multiply(aHigh, bHigh);
    return {evenProduct, oddProduct};
  }

  /// The inline-assembly constraints of a vpmuldq on the flavor's i64
  /// vectors ("=v,v,v": zmm, "=x,x,x": ymm), or none for the flavors whose
  /// code may run on a CPU without that instruction at that width
  /// (Generic, Depthwise, which the generic target uses too, and emulated
  /// VNNI). LLVM selects vpmuldq for an i64 multiply where SelectionDAG's
  /// known-bits queries prove both factors sign-extended i32 values, which
  /// they do only within a basic block and at a price: on MobileNet v2's
  /// VNNI module, 15% of qnn-compile's instructions (9.9 -> 8.4 G with
  /// the assembly), and an epilogue in a loop over a tile's pixels, its
  /// per-channel factors defined before the loop, got three vpmuludq and
  /// four shifts per product.
  std::optional<StringRef> mulDqConstraints() const {
    if (emulate)
      return std::nullopt;
    switch (s.flavor) {
    case KernelFlavor::VNNI:
    case KernelFlavor::Int16AVX512:
    case KernelFlavor::DepthwiseVNNI:
      return StringRef("=v,v,v");
    case KernelFlavor::Int16:
    case KernelFlavor::DepthwiseAVX2:
      return StringRef("=x,x,x");
    default:
      return std::nullopt;
    }
  }

  /// `v` through an empty inline assembly statement whose result is tied
  /// to its operand (`constraints`: "=v,0" for a vector, "=r,0" for an
  /// index): no instruction, but LLVM cannot see through it.
  Value opaqueCopy(OpBuilder &ob, Value v, StringRef constraints) {
    return LLVM::InlineAsmOp::create(
               ob, loc, v.getType(), ValueRange{v}, /*asm_string=*/"",
               constraints, /*has_side_effects=*/false,
               /*is_align_stack=*/false,
               LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(),
               ArrayAttr())
        .getResult(0);
  }

  /// The index `v` through opaqueCopy (as an i64 in a general register):
  /// what LLVM knows of it, such as its being a function of a loop's
  /// induction variable, stops there.
  Value opaqueIndex(OpBuilder &ob, Value v) {
    Value i64 = arith::IndexCastOp::create(ob, loc, ob.getI64Type(), v);
    return arith::IndexCastOp::create(ob, loc, ob.getIndexType(),
                                      opaqueCopy(ob, i64, "=r,0"));
  }

  /// u / d and u mod d, each through opaqueIndex (d > 1; u itself and 0
  /// when d is 1). u is a loop's induction variable here (the parallel
  /// iteration, a strip's unit): scalar evolution would carry the division
  /// and the remainder into every address of the body (on MobileNet v2's
  /// int16 56x56x24 -> 144 OpenMP body, loop strength reduction spent 8 M
  /// instructions with them, 2 M with the two results hidden in edited
  /// LLVM IR); behind the barrier they are two values computed once per
  /// iteration. MobileNet v2's `qnn-compile`: int16 5.35 -> 5.15 G
  /// instructions, avx512-vnni 10.66 -> 9.87 G (serial code 8.98 -> 8.73
  /// G).
  std::pair<Value, Value> opaqueDivRem(OpBuilder &ob, Value u, int64_t d) {
    if (d == 1)
      return {u, idx(ob, 0)};
    return {opaqueIndex(ob, arith::DivUIOp::create(ob, loc, u, idx(ob, d))),
            opaqueIndex(ob, arith::RemUIOp::create(ob, loc, u, idx(ob, d)))};
  }

  /// For `v`, a 16-lane i32 load from one of the kernel's per-channel
  /// tables at channel ch (AVX512 flavors), the same table's lanes from
  /// ch + 1 (made once, beside v's load): its 64-bit lanes hold the odd
  /// channels of v in their low halves, which vpmuldq multiplies, so the
  /// odd lanes' products need no shift of v (one vector instruction fewer
  /// per epilogue multiply on the ports that vpdpbusd uses). The last lane
  /// (channel ch + 16, past the table for its last block, and never read
  /// by the multiply) is masked off: a masked load, which does not fault
  /// there. Null otherwise.
  Value oddChannelLoad(Value v) {
    if (s.flavor != KernelFlavor::VNNI &&
        s.flavor != KernelFlavor::Int16AVX512 &&
        s.flavor != KernelFlavor::DepthwiseVNNI)
      return {};
    auto load = v.getDefiningOp<vector::LoadOp>();
    if (!load || load.getIndices().size() != 1 ||
        !(llvm::is_contained(channelArgs, load.getBase()) ||
          (offset && load.getBase() == offset->twice)))
      return {};
    auto type = load.getVectorType();
    if (type.getRank() != 1 || type.getNumElements() != 16 ||
        !type.getElementType().isInteger(32))
      return {};
    return derived(v, "oddChannels", [&](OpBuilder &db) -> Value {
      Value mask = laneMask(16, 0, 15);
      Value pass =
          constant(DenseElementsAttr::get(type, db.getI32IntegerAttr(0)));
      return vector::MaskedLoadOp::create(
          db, loc, type, load.getBase(),
          ValueRange{add(db, load.getIndices()[0], 1)}, mask, pass);
    });
  }

  /// The low halves of `even`'s 64-bit lanes in the even i32 lanes and the
  /// high halves of `odd`'s in the odd ones.
  Value blendEvenOdd(OpBuilder &ob, VectorType wideType, Value even,
                     Value odd) {
    int64_t n = wideType.getNumElements();
    SmallVector<bool> evenLanes;
    for (int64_t i = 0; i < n; ++i)
      evenLanes.push_back(i % 2 == 0);
    Value mask = constant(DenseElementsAttr::get(
        VectorType::get({n}, ob.getI1Type()), ArrayRef<bool>(evenLanes)));
    Value evenWide = vector::BitCastOp::create(ob, loc, wideType, even);
    Value oddWide = vector::BitCastOp::create(ob, loc, wideType, odd);
    return arith::SelectOp::create(ob, loc, mask, evenWide, oddWide);
  }

  Value idx(OpBuilder &ob, int64_t v) {
    return arith::ConstantIndexOp::create(ob, loc, v);
  }

  /// The value of index `v` where it is a constant or a sum or product of
  /// constants (the channel arithmetic of add and mul, which do not fold).
  static std::optional<int64_t> staticIndex(Value v) {
    if (std::optional<int64_t> c = getConstantIntValue(v))
      return c;
    Operation *def = v.getDefiningOp();
    if (!def || !isa<arith::AddIOp, arith::MulIOp>(def))
      return std::nullopt;
    std::optional<int64_t> l = staticIndex(def->getOperand(0));
    std::optional<int64_t> r = staticIndex(def->getOperand(1));
    if (!l || !r)
      return std::nullopt;
    return isa<arith::AddIOp>(def) ? *l + *r : *l * *r;
  }

  /// Stores `v`, the output channels from `ch` of the pixel `pixel` (n,
  /// oh, ow): a plain store, or where those channels may pass the ones the
  /// kernel stores (KernelSpec::oc), a masked store of the channels below
  /// oc (its mask a constant where `ch` is one, and no store at all
  /// where every channel is past oc).
  void storeChannels(OpBuilder &ob, Value v, ValueRange pixel, Value ch) {
    int64_t width = cast<VectorType>(v.getType()).getNumElements();
    SmallVector<Value> indices(pixel.begin(), pixel.end());
    indices.push_back(ch);
    std::optional<int64_t> at = staticIndex(ch);
    if (!s.oc || (at && *at + width <= s.oc)) {
      vector::StoreOp::create(ob, loc, v, out, indices);
      return;
    }
    if (at && *at >= s.oc)
      return;
    auto maskType = VectorType::get({width}, ob.getI1Type());
    Value mask;
    if (at) {
      mask = laneMask(width, 0, s.oc - *at);
    } else {
      mask = vector::CreateMaskOp::create(
          ob, loc, maskType,
          ValueRange{arith::SubIOp::create(ob, loc, idx(ob, s.oc), ch)});
    }
    vector::MaskedStoreOp::create(ob, loc, out, indices, mask, v);
  }

  /// Whether a GEMM tile of `rows` pixels applies its epilogue in a loop
  /// over its pixels (their accumulators stored to a stack buffer) rather
  /// than once per pixel, unrolled: on the int16 target (AVX2), whose
  /// tiles are not software-pipelined, for reductions of 64 or more. LLVM's
  /// instruction selection spends most of a kernel's time on the
  /// requantize epilogues (its known-bits queries), in proportion to their
  /// copies: MobileNet v2's 1x1 kernels took 40% less of it. The stores,
  /// loads and loop cost about 45 instructions per 5-pixel tile of two
  /// blocks, which shorter reductions feel (pw1, K = 32, 5-6% slower on
  /// Zen 3 as a minimum of 9 runs; conv0 the same).
  bool loopedEpilogue(int64_t rows) const {
    return epilogue && rows > 1 && s.flavor == KernelFlavor::Int16 &&
           s.cp * s.kh * s.kw >= 64;
  }

  /// A stack buffer of `type` for the code being built: one per kernel in
  /// serial code (in its entry block; an alloca in a loop would grow the
  /// stack at every iteration), one at the start of the body of the
  /// scf.parallel being built (parallelBody) in threaded code, which
  /// qnn-prepare-llvm-lowering moves to the start of the OpenMP parallel
  /// region (HoistStaticAllocas): one per thread.
  Value scratch(MemRefType type) {
    Block *home = parallelBody ? parallelBody : entry;
    Value &buffer = memo.scratch[{home, type}];
    if (!buffer) {
      // (Not OpBuilder::atBlockBegin: an scf.parallel being built has no
      // operation yet to give its region a context.)
      OpBuilder sb(type.getContext());
      sb.setInsertionPointToStart(home);
      buffer = memref::AllocaOp::create(sb, loc, type);
    }
    return buffer;
  }

  /// One scf.parallel over (image n, i in [0, count)) calling
  /// `body(builder, n, i)`: the kernels' multi-threaded loops (each
  /// iteration writes its own output rows or pixel tiles). A batch of one
  /// image gets a one-dimensional loop over i: convert-scf-to-openmp
  /// collapses two dimensions into one induction variable that each body
  /// splits with a division and a remainder, and with those in every
  /// address LLVM's loop strength reduction took 15 times longer on each
  /// outlined body (MobileNet v2, int16 target: 1.0 s of 2.9 s in LLVM,
  /// 0.15 s with one dimension, the serial code's figure).
  void parallelOverImages(
      OpBuilder &ob, int64_t count,
      function_ref<void(OpBuilder &, Value, Value)> body) {
    SmallVector<Value> lbs, ubs, steps;
    if (s.n != 1) {
      lbs.push_back(idx(ob, 0));
      ubs.push_back(idx(ob, s.n));
      steps.push_back(idx(ob, 1));
    }
    lbs.push_back(idx(ob, 0));
    ubs.push_back(idx(ob, count));
    steps.push_back(idx(ob, 1));
    scf::ParallelOp::create(
        ob, loc, lbs, ubs, steps, [&](OpBuilder &pb, Location, ValueRange ivs) {
          llvm::SaveAndRestore<Block *> home(parallelBody,
                                             pb.getInsertionBlock());
          body(pb, s.n == 1 ? idx(pb, 0) : ivs.front(), ivs.back());
        });
  }

  /// The accumulator a depthwise kernel starts output channels
  /// j * cp + [c0, c0 + lanes) from: the zero point's correction (`corr`,
  /// emitDepthwise) plus, with an epilogue (multiplier 1: channel c0 is
  /// also the output channel of its constants), the bias (or the offset
  /// form's bias + D: initialAccumulator).
  Value depthwiseInitialAccumulator(OpBuilder &ob, Value jIv, Value c0) {
    Value ch = arith::AddIOp::create(ob, loc, mul(ob, jIv, s.cp), c0);
    auto type = VectorType::get({s.lanes()}, ob.getI32Type());
    return initialAccumulator(
        ob, vector::LoadOp::create(ob, loc, type, corr, ch), c0);
  }

  Value add(OpBuilder &ob, Value a, int64_t v) {
    return v == 0 ? a : arith::AddIOp::create(ob, loc, a, idx(ob, v));
  }
  Value mul(OpBuilder &ob, Value a, int64_t v) {
    return v == 1 ? a : arith::MulIOp::create(ob, loc, a, idx(ob, v));
  }

  /// An scf.for over [lo, hi) by `step`, without iter_args, whose body is
  /// `body(builder, iv)`.
  void forLoop(OpBuilder &ob, Value lo, Value hi, int64_t step,
               function_ref<void(OpBuilder &, Value)> body) {
    scf::ForOp::create(ob, loc, lo, hi, idx(ob, step), ValueRange{},
                       [&](OpBuilder &lb, Location, Value iv, ValueRange) {
                         body(lb, iv);
                         scf::YieldOp::create(lb, loc);
                       });
  }
  /// The same over constant bounds; nothing when the range is empty.
  void forLoop(OpBuilder &ob, int64_t lo, int64_t hi, int64_t step,
               function_ref<void(OpBuilder &, Value)> body) {
    if (lo < hi)
      forLoop(ob, idx(ob, lo), idx(ob, hi), step, body);
  }

  /// Runs `body(builder, iv, iterArgs) -> yielded` in an scf.for over
  /// [0, n) carrying `init`, or inline when n == 1 or `unroll` is set
  /// (short tap loops: LLVM's pass pipeline has no loop unroller).
  SmallVector<Value> reduceLoop(
      OpBuilder &ob, int64_t n, ValueRange init,
      function_ref<SmallVector<Value>(OpBuilder &, Value, ValueRange)> body,
      bool unroll = false) {
    if (n == 1 || unroll) {
      SmallVector<Value> values(init);
      for (int64_t i = 0; i < n; ++i)
        values = body(ob, idx(ob, i), values);
      return values;
    }
    auto loop = scf::ForOp::create(
        ob, loc, idx(ob, 0), idx(ob, n), idx(ob, 1), init,
        [&](OpBuilder &lb, Location, Value iv, ValueRange args) {
          scf::YieldOp::create(lb, loc, body(lb, iv, args));
        });
    return SmallVector<Value>(loop.getResults());
  }

  /// The output row and column of pixel `m` of the flattened (oh, ow)
  /// plane.
  std::pair<Value, Value> pixelCoords(OpBuilder &ob, Value m) {
    if (s.oh == 1)
      return {idx(ob, 0), m};
    Value owDim = idx(ob, s.ow);
    return {arith::DivUIOp::create(ob, loc, m, owDim),
            arith::RemUIOp::create(ob, loc, m, owDim)};
  }

  /// Whether the last tile of `rows` pixels of an image of `pixels`
  /// pixels (`rest` left after the full tiles) runs the full tile body,
  /// ending at the last pixel and recomputing rows - rest pixels of the
  /// tile before it: not where those are more than 1/16 of the work (7x7
  /// maps: 5 of 49 pixels, pw13 up to 9% slower at 2 threads), which keep
  /// a short tile of their own.
  static bool lastTileIsFull(int64_t rows, int64_t rest, int64_t pixels) {
    return rest != 0 && (rows - rest) * 16 <= pixels;
  }
  /// The first position `t * rows` of tile t, clamped so that the tile
  /// ends by `extent` (the last tile recomputes positions of the one
  /// before it).
  Value clampedTileStart(OpBuilder &ob, Value t, int64_t rows,
                         int64_t extent) {
    return arith::MinUIOp::create(ob, loc, mul(ob, t, rows),
                                  idx(ob, extent - rows));
  }

  /// Whether pixelTileLoops runs its tiles of `rowsPerTile` pixels in
  /// `groups` groups of output channels on threads: with `parallel`, more
  /// than one (tile, group) pair, and enough work to pay for waking a
  /// thread team (small kernels run on the calling thread).
  bool tilesThreaded(int64_t rowsPerTile, int64_t groups) const {
    int64_t tiles = llvm::divideCeil(s.oh * s.ow, rowsPerTile);
    return threadedWork() && s.n * tiles * groups > 1;
  }
  /// Whether the kernel has work enough for threads (with `parallel`):
  /// its multiply-adds, or kStreamedWeightWorkFactor per weight where that
  /// is more (kernels of fewer pixels than that).
  bool threadedWork() const {
    int64_t weights = s.op * s.kh * s.kw * s.cp;
    int64_t work = std::max(s.n * s.oh * s.ow * weights,
                            weights * kStreamedWeightWorkFactor);
    return parallel && work >= parallelMinWork;
  }

  /// Loops over n and tiles of `rowsPerTile` output pixels of the flattened
  /// (oh, ow) plane, calling `tile(builder, n, first, oh, ow, group)` with the
  /// tile's first pixel and the coordinates of each of its pixels. Tiles cross
  /// output rows, so that a narrow map (7x7) does not fall back to single-pixel
  /// tiles. The remaining pixels (fewer than a tile, once per image) are one
  /// more full tile ending at the image's last pixel, whose first rowsPerTile -
  /// rest pixels the tile before it also computed (the same bytes again, by the
  /// same thread), so that one tile body serves every tile: a second body for
  /// the short tile made a pointwise kernel's code up to twice as large
  /// (compile time); unless lastTileIsFull says otherwise, when they are one
  /// shorter tile. Serial code passes a null `group` (the tile covers every
  /// output channel). With `parallel`, one scf.parallel runs every (tile,
  /// group) pair of every image, `group` being one of the `groups` groups of
  /// output channels: threads split a layer of few pixels (7x7x1024: 9 tiles)
  /// by channels too. With `groupMajor`, serial code loops over the groups
  /// outside the tiles: each group's weights are then read once for all tiles
  /// rather than all the weights once per tile. (This parallel loop stays
  /// tile-major: threads that split a pixel's channels write parts of the same
  /// cache lines, and a 2-thread pw3 ran 3x slower that way. The pipelined
  /// kernels' strips of consecutive group-major units do not interleave
  /// threads within a group: buildGemm.)
  void pixelTileLoops(
      int64_t rowsPerTile, int64_t groups, bool groupMajor,
      function_ref<void(OpBuilder &, Value, Value, ArrayRef<Value>,
                        ArrayRef<Value>, Value)>
          tile) {
    int64_t pixels = s.oh * s.ow, full = pixels / rowsPerTile;
    int64_t rest = pixels % rowsPerTile;
    auto emitTile = [&](OpBuilder &ob, Value nIv, Value first, int64_t rows,
                        Value group) {
      SmallVector<Value> ohs, ows;
      for (int64_t r = 0; r < rows; ++r) {
        auto [oh, ow] = pixelCoords(ob, add(ob, first, r));
        ohs.push_back(oh);
        ows.push_back(ow);
      }
      tile(ob, nIv, first, ohs, ows, group);
    };
    // The last pixels as one shorter tile. (One pixel at a time, their
    // accumulators were a few dependent chains: the 4 last pixels of a
    // 14x14 layer took 7% of its time.)
    auto emitRest = [&](OpBuilder &ob, Value nIv, Value group) {
      if (rest)
        emitTile(ob, nIv, idx(ob, full * rowsPerTile), rest, group);
    };
    // Full tiles [from, to), the last of them clamped to end at the last
    // pixel (clampedTileStart).
    auto clampedTiles = [&](OpBuilder &ob, Value nIv, Value from, Value to,
                            Value group) {
      forLoop(ob, from, to, 1, [&](OpBuilder &tb, Value t) {
        emitTile(tb, nIv, clampedTileStart(tb, t, rowsPerTile, pixels),
                 rowsPerTile, group);
      });
    };
    bool overlapLast = full && lastTileIsFull(rowsPerTile, rest, pixels);
    if (tilesThreaded(rowsPerTile, groups)) {
      // With threads, the overlapping last tile runs in the iteration of
      // the tile before it (two tiles of different threads writing the
      // same bytes would race); a short last tile is one more iteration
      // (serial after the loop, the other threads waited for it: 4 single
      // pixels of 512 channels each in a 14x14 layer). (The threaded
      // kernels ran the last tile's rows past the end on the last pixel
      // again, storing each row under a condition: twice the code of the
      // serial kernels, which MobileNet v2's compile time paid for.)
      int64_t tiles = rest && !overlapLast ? full + 1 : full;
      parallelOverImages(
          b, tiles * groups, [&](OpBuilder &pb, Value nIv, Value i) {
            // One group (null) when the tile's channels are all one group.
            Value t = i, group;
            if (groups > 1)
              std::tie(t, group) = opaqueDivRem(pb, i, groups);
            if (overlapLast) {
              Value last = arith::CmpIOp::create(
                  pb, loc, arith::CmpIPredicate::eq, t, idx(pb, full - 1));
              // One statement per op: the IR's order must not depend on
              // the compiler's order of evaluating arguments.
              Value next = add(pb, t, 1);
              Value after = add(pb, t, 2);
              Value end = arith::SelectOp::create(pb, loc, last, after, next);
              clampedTiles(pb, nIv, t, end, group);
              return;
            }
            Value first = mul(pb, t, rowsPerTile);
            if (!rest) {
              emitTile(pb, nIv, first, rowsPerTile, group);
              return;
            }
            // Fewer pixels than a tile (a fully connected layer): the rest
            // tile alone.
            if (!full) {
              emitRest(pb, nIv, group);
              return;
            }
            Value isFull = arith::CmpIOp::create(
                pb, loc, arith::CmpIPredicate::ult, t, idx(pb, full));
            scf::IfOp::create(
                pb, loc, isFull,
                [&](OpBuilder &tb, Location) {
                  emitTile(tb, nIv, first, rowsPerTile, group);
                  scf::YieldOp::create(tb, loc);
                },
                [&](OpBuilder &eb, Location) {
                  emitRest(eb, nIv, group);
                  scf::YieldOp::create(eb, loc);
                });
          });
      return;
    }
    forLoop(b, 0, s.n, 1, [&](OpBuilder &lb, Value nIv) {
      auto allTiles = [&](OpBuilder &gb, Value group) {
        if (overlapLast) {
          clampedTiles(gb, nIv, idx(gb, 0), idx(gb, full + 1), group);
          return;
        }
        if (full)
          forLoop(gb, 0, full, 1, [&](OpBuilder &tb, Value t) {
            emitTile(tb, nIv, mul(tb, t, rowsPerTile), rowsPerTile, group);
          });
        emitRest(gb, nIv, group);
      };
      if (groupMajor && groups > 1)
        forLoop(lb, 0, groups, 1, allTiles);
      else
        allTiles(lb, Value());
    });
  }

  /// VNNI with a window coefficient (s.d != 0, see KernelSpec::d): d times
  /// the sum of the activation bytes in the window of the output pixel
  /// whose window starts at row ih, column iw of image nIv, in every lane
  /// of an accumulator vector; for d = 128, -128 times that sum (the
  /// accumulators subtract it). Each kernel row's bytes are contiguous (kw
  /// taps of cp channels at dilation 1, else one run per tap): loaded in
  /// chunks of up to 64 bytes (a masked load for a partial one), multiplied
  /// by d as the signed bytes of one vpdpbusd (at the chunk's width: xmm,
  /// ymm or zmm) and summed over the lanes by a butterfly of shuffles,
  /// which leaves the sum in every lane. Computed once per pixel and unit
  /// (a tile's group of channel blocks) and added to the pixel's initial
  /// accumulators, instead of a row-sum accumulator per pixel that took one
  /// vpdpbusd against a vector of ones per K step (K / 4 per pixel, beside nr *
  /// K / 4 of the layer's own: twice the work of a layer of 16 output channels)
  /// and kept the kernel off the pipelined path. The i32 lanes wrap as the
  /// accumulators do, so the order of the additions does not change a bit.
  Value windowSum(OpBuilder &ob, Value nIv, Value ih, Value iw) {
    int64_t runBytes = s.dw == 1 ? s.kw * s.cp : s.cp;
    int64_t runs = s.dw == 1 ? 1 : s.kw;
    int64_t width = std::clamp<int64_t>(
        static_cast<int64_t>(llvm::PowerOf2Ceil(runBytes)), 16, 64);
    Value sum = constant(
        DenseElementsAttr::get(VectorType::get({width / 4}, ob.getI32Type()),
                               ob.getI32IntegerAttr(0)));
    for (int64_t y = 0; y < s.kh; ++y) {
      Value row = add(ob, ih, y * s.dh);
      for (int64_t t = 0; t < runs; ++t) {
        Value column = mul(ob, add(ob, iw, t * s.dw), s.cp);
        for (int64_t off = 0; off < runBytes; off += width)
          sum = addWindowBytes(ob, sum,
                               windowBytes(ob, width,
                                           std::min(width, runBytes - off),
                                           {nIv, row, add(ob, column, off)}));
      }
    }
    sum = segmentSums(ob, sum, width / 4);
    if (width / 4 != s.lanes())
      sum = vector::ShuffleOp::create(ob, loc, sum, sum,
                                      SmallVector<int64_t>(s.lanes(), 0));
    return sum;
  }

  /// windowSum for `rows` consecutive pixels of a flattened pointwise
  /// kernel (1x1 at stride 1: pixel m's window is its cp bytes, and
  /// consecutive pixels' bytes are contiguous), cp a power of two of at
  /// most 64, the first pixel at column iw: 64 / cp pixels per load and
  /// vpdpbusd, their sums made by a butterfly within each pixel's cp / 4
  /// lanes, then each pixel's lane broadcast (one vpermd). Per pixel of
  /// a K = 8 layer about 1.5 instructions instead of windowSum's 8.
  SmallVector<Value> contiguousWindowSums(OpBuilder &ob, Value nIv, Value iw,
                                          int64_t rows) {
    int64_t perLoad = 64 / s.cp, lanesPerPixel = s.cp / 4;
    SmallVector<Value> sums;
    for (int64_t first = 0; first < rows; first += perLoad) {
      int64_t count = std::min(perLoad, rows - first);
      Value sum = constant(DenseElementsAttr::get(
          VectorType::get({16}, ob.getI32Type()), ob.getI32IntegerAttr(0)));
      sum = addWindowBytes(
          ob, sum,
          windowBytes(ob, 64, count * s.cp,
                      {nIv, idx(ob, 0), mul(ob, add(ob, iw, first), s.cp)}));
      sum = segmentSums(ob, sum, lanesPerPixel);
      for (int64_t r = 0; r < count; ++r)
        sums.push_back(vector::ShuffleOp::create(
            ob, loc, sum, sum,
            SmallVector<int64_t>(s.lanes(), r * lanesPerPixel)));
    }
    return sums;
  }

  /// The number of consecutive pixels of one output row whose windows
  /// windowSumsByColumns covers with one 64-byte load per kernel row (their
  /// kernel rows contiguous: dilation 1 along the width), at most ow; 0
  /// when fewer than two.
  int64_t columnSumPixels() const {
    if (s.dw != 1 || s.cp % 4 != 0)
      return 0;
    int64_t columns = 64 / s.cp;
    if (columns < s.kw)
      return 0;
    int64_t g = std::min<int64_t>((columns - s.kw) / s.sw + 1, s.ow);
    return g >= 2 ? g : 0;
  }

  /// windowSum for the pixels of a tile (windows starting at ihBase[r],
  /// iwBase[r]) in groups of g = columnSumPixels() consecutive pixels (an
  /// even number with `pairs`): where a group's pixels lie in one output
  /// row (their first and last columns (g - 1) sw apart; a tile crosses
  /// rows), the group's kernel rows are ((g - 1) sw + kw) cp contiguous
  /// bytes each, one (masked) 64-byte load per kernel row, and one vpdpbusd
  /// per load sums each column's cp bytes into its lanes (cp / 4 per
  /// column); the kw columns of each window are then added by kw cp / 4 - 1
  /// lane shifts, leaving pixel j's sum in lane j sw cp / 4, which one
  /// shuffle (vpermd) spreads over the pixel's lanes: all of them, or with
  /// `pairs` (pixel pairs sharing an accumulator, pairsPixels) the pair's
  /// two halves at once, the pair's vector then standing for both of its
  /// pixels. Per pixel of a 3x3 stride-2 first convolution on 4 bytes per
  /// column, 6 pixels per group: about 2 instructions instead of
  /// windowSum's 10 (3 masked loads, 3 vpdpbusd, a butterfly), and
  /// mobilenet_v1_0.25_224_quant 1.6% faster (Zen 4, AOT, one thread). A
  /// group that crosses rows takes windowSum per pixel.
  SmallVector<Value> windowSumsByColumns(OpBuilder &ob, Value nIv,
                                         ArrayRef<Value> ihBase,
                                         ArrayRef<Value> iwBase, bool pairs) {
    int64_t g = columnSumPixels(), perColumn = s.cp / 4;
    if (pairs)
      g -= g % 2;
    int64_t rows = ihBase.size(), lanes = s.lanes();
    auto sumType = VectorType::get({16}, ob.getI32Type());
    auto accType = VectorType::get({lanes}, ob.getI32Type());
    Value upperHalf = pairs ? laneMask(lanes, lanes / 2, lanes / 2) : Value();
    SmallVector<Value> sums;
    for (int64_t r0 = 0; r0 < rows; r0 += g) {
      int64_t count = std::min(g, rows - r0);
      if (count == 1) {
        sums.push_back(windowSum(ob, nIv, ihBase[r0], iwBase[r0]));
        continue;
      }
      // The group's vectors: pixel j and the pixel sharing its vector (j + 1
      // with pairs; j itself without, or for the group's last pixel).
      SmallVector<std::pair<int64_t, int64_t>> members;
      for (int64_t j = 0; j < count; ++j) {
        int64_t k = pairs && j + 1 < count ? j + 1 : j;
        members.push_back({j, k});
        j = k;
      }
      Value span =
          arith::SubIOp::create(ob, loc, iwBase[r0 + count - 1], iwBase[r0]);
      Value oneRow = arith::CmpIOp::create(ob, loc, arith::CmpIPredicate::eq,
                                           span, idx(ob, (count - 1) * s.sw));
      auto group =
          scf::IfOp::create(ob, loc, SmallVector<Type>(members.size(), accType),
                            oneRow, /*withElseRegion=*/true);
      // One row: column sums.
      {
        OpBuilder tb = group.getThenBodyBuilder();
        int64_t bytes = ((count - 1) * s.sw + s.kw) * s.cp;
        Value column = mul(tb, iwBase[r0], s.cp);
        Value zero =
            constant(DenseElementsAttr::get(sumType, tb.getI32IntegerAttr(0)));
        Value sum = zero;
        for (int64_t y = 0; y < s.kh; ++y)
          sum = addWindowBytes(
              tb, sum,
              windowBytes(tb, 64, bytes,
                          {nIv, add(tb, ihBase[r0], y * s.dh), column}));
        // Lane c + k of `sum` added to lane c, for each of the window's
        // other lanes k (the lanes past the end read zeros).
        Value window = sum;
        for (int64_t k = 1; k < s.kw * perColumn; ++k) {
          SmallVector<int64_t> shift;
          for (int64_t i = 0; i < 16; ++i)
            shift.push_back(i + k);
          window = arith::AddIOp::create(
              tb, loc, window,
              vector::ShuffleOp::create(tb, loc, sum, zero, shift));
        }
        SmallVector<Value> results;
        for (auto [j, k] : members) {
          SmallVector<int64_t> from(lanes, j * s.sw * perColumn);
          std::fill(from.begin() + lanes / 2, from.end(), k * s.sw * perColumn);
          results.push_back(
              vector::ShuffleOp::create(tb, loc, window, window, from));
        }
        scf::YieldOp::create(tb, loc, results);
      }
      // Across rows: each pixel's own sum.
      {
        OpBuilder eb = group.getElseBodyBuilder();
        SmallVector<Value> results;
        for (auto [j, k] : members) {
          Value sum = windowSum(eb, nIv, ihBase[r0 + j], iwBase[r0 + j]);
          if (k != j)
            sum = arith::SelectOp::create(
                eb, loc, upperHalf,
                windowSum(eb, nIv, ihBase[r0 + k], iwBase[r0 + k]), sum);
          results.push_back(sum);
        }
        scf::YieldOp::create(eb, loc, results);
      }
      for (auto [result, member] : llvm::enumerate(members)) {
        Value sum = group.getResult(result);
        sums.push_back(sum);
        if (member.second != member.first)
          sums.push_back(sum);
      }
    }
    return sums;
  }

  /// `n` bytes (n <= width) of the input seen as [n, hp, wp * cp] at `at`,
  /// as a vector of `width` bytes (16, 32 or 64; a masked load when n <
  /// width, its other bytes 0), as unsigned bytes (signed input flipped as
  /// loadA flips it): windowSum's operand.
  Value windowBytes(OpBuilder &ob, int64_t width, int64_t n,
                    SmallVector<Value> at) {
    assert(s.flavor == KernelFlavor::VNNI && s.d >= -128 && s.d <= 128 &&
           "a VNNI window coefficient (KernelSpec::fromAttr)");
    // The input as [n, hp, wp * cp]: a run of taps is one row slice.
    Value rows = collapsedOnce(memo.inputRows, x, {{0}, {1}, {2, 3}});
    auto bytes = VectorType::get({width}, ob.getI8Type());
    Value chunk;
    if (n == width) {
      chunk = vector::LoadOp::create(ob, loc, bytes, rows, at);
    } else {
      // Bytes that flip to 0 below.
      Value fill = constant(DenseElementsAttr::get(
          bytes, ob.getI8IntegerAttr(s.inputSigned ? -128 : 0)));
      chunk = vector::MaskedLoadOp::create(ob, loc, bytes, rows, at,
                                           laneMask(width, 0, n), fill);
    }
    // Signed input bytes x as loadA reads them: x xor 0x80 = x + 128.
    if (s.inputSigned)
      chunk = arith::XOrIOp::create(
          ob, loc, chunk,
          constant(DenseElementsAttr::get(bytes, ob.getI8IntegerAttr(-128))));
    return chunk;
  }

  /// sum + d times each i32 lane's four bytes of `chunk` (windowBytes):
  /// one vpdpbusd at the chunk's width against d in every byte (d = 128 as
  /// -128, the caller negating the total).
  Value addWindowBytes(OpBuilder &ob, Value sum, Value chunk) {
    Value coefficient = constant(
        DenseElementsAttr::get(cast<VectorType>(chunk.getType()),
                               ob.getI8IntegerAttr(s.d == 128 ? -128 : s.d)));
    return vpdpbusd(ob, sum, chunk, coefficient);
  }

  /// A butterfly of shuffles and adds over each aligned segment of
  /// `segment` lanes (a power of two) of `sum`: every lane then holds its
  /// segment's total. The steps go from distance segment / 2 down to 1;
  /// after the step of distance k, lane i holds the sum of the lanes of
  /// its segment that agree with i below bit log2(k).
  Value segmentSums(OpBuilder &ob, Value sum, int64_t segment) {
    int64_t lanes = cast<VectorType>(sum.getType()).getNumElements();
    for (int64_t k = segment / 2; k >= 1; k /= 2) {
      SmallVector<int64_t> swap;
      for (int64_t i = 0; i < lanes; ++i)
        swap.push_back(i ^ k);
      sum = arith::AddIOp::create(
          ob, loc, sum, vector::ShuffleOp::create(ob, loc, sum, sum, swap));
    }
    return sum;
  }

  /// The activation operand for row position (ih, iw), channel c.
  Value loadA(OpBuilder &ob, Value nIv, Value ih, Value iw, Value c) {
    Type i8 = ob.getI8Type(), i16 = ob.getI16Type(), i32 = ob.getI32Type();
    switch (s.flavor) {
    case KernelFlavor::VNNI: {
      Value four = vector::LoadOp::create(ob, loc, VectorType::get({4}, i8), x,
                                          ValueRange{nIv, ih, iw, c});
      Value word = vector::ExtractOp::create(
          ob, loc,
          vector::BitCastOp::create(ob, loc, VectorType::get({1}, i32), four),
          ArrayRef<int64_t>{0});
      if (s.inputSigned)
        word = arith::XOrIOp::create(ob, loc, word,
                                     intConst(ob, loc, i32, 0x80808080LL));
      Value splat = vector::BroadcastOp::create(
          ob, loc, VectorType::get({16}, i32), word);
      return vector::BitCastOp::create(ob, loc, VectorType::get({64}, i8),
                                       splat);
    }
    case KernelFlavor::Int16:
    case KernelFlavor::Int16AVX512: {
      // x holds x - izp as i16 (emitGemmConv widens it).
      Value wide = vector::LoadOp::create(ob, loc, VectorType::get({2}, i16), x,
                                          ValueRange{nIv, ih, iw, c});
      Value word = vector::ExtractOp::create(
          ob, loc,
          vector::BitCastOp::create(ob, loc, VectorType::get({1}, i32), wide),
          ArrayRef<int64_t>{0});
      int64_t lanes = s.lanes();
      Value splat = vector::BroadcastOp::create(
          ob, loc, VectorType::get({lanes}, i32), word);
      return vector::BitCastOp::create(
          ob, loc, VectorType::get({2 * lanes}, i16), splat);
    }
    case KernelFlavor::Generic: {
      Value v = memref::LoadOp::create(ob, loc, x, ValueRange{nIv, ih, iw, c});
      v = extendTo(ob, loc, v, i32, !s.inputSigned);
      v = arith::SubIOp::create(ob, loc, v, intConst(ob, loc, i32, s.izp));
      return vector::BroadcastOp::create(ob, loc,
                                         VectorType::get({s.lanes()}, i32), v);
    }
    case KernelFlavor::Depthwise:
    case KernelFlavor::DepthwiseVNNI:
    case KernelFlavor::DepthwiseAVX2:
      break;
    }
    llvm_unreachable("not a GEMM flavor");
  }

  /// acc += a . w for one step of the flavor.
  Value step(OpBuilder &ob, Value acc, Value a, Value wv) {
    Type i32 = ob.getI32Type();
    switch (s.flavor) {
    case KernelFlavor::VNNI:
    case KernelFlavor::DepthwiseVNNI:
      return vpdpbusd(ob, acc, a, wv);
    case KernelFlavor::Int16:
    case KernelFlavor::Int16AVX512: {
      StringRef name = s.flavor == KernelFlavor::Int16
                           ? "llvm.x86.avx2.pmadd.wd"
                           : "llvm.x86.avx512.pmaddw.d.512";
      Value p = intrinsic(ob, name, acc.getType(), ValueRange{a, wv});
      return arith::AddIOp::create(ob, loc, acc, p);
    }
    case KernelFlavor::Depthwise:
    case KernelFlavor::DepthwiseAVX2:
      // i32 lanes of x times the tap's weights, extended once per kernel
      // row (buildDepthwiseRowTiles).
      return arith::AddIOp::create(ob, loc, acc,
                                   arith::MulIOp::create(ob, loc, a, wv));
    default: {
      Value wide = arith::ExtSIOp::create(
          ob, loc, VectorType::get({s.lanes()}, i32), wv);
      return arith::AddIOp::create(ob, loc, acc,
                                   arith::MulIOp::create(ob, loc, a, wide));
    }
    }
  }

  void buildGemm() {
    Type i32 = b.getI32Type();
    int64_t lanes = s.lanes(), kg = s.kGroup();
    int64_t blocks = s.op / lanes, chunks = s.cp / kg;
    auto accType = VectorType::get({lanes}, i32);
    Type wElem = cast<MemRefType>(w.getType()).getElementType();
    auto wVecType = VectorType::get({lanes * kg}, wElem);
    bool windowSums = s.flavor == KernelFlavor::VNNI && s.d != 0;
    // Pointwise VNNI kernels with a light epilogue are software-pipelined
    // (see below); their groups may also be 3 blocks (144 channels: 3
    // groups of 3 rather than 9 of 1, 88 -> 76 us on Zen 4).
    int64_t pixels = s.oh * s.ow;
    // Pairs of pixels (pairsPixels) take plain tiles of 16 pixels: 8
    // accumulators, as 8 pixels of one block had.
    bool pairs = pairsPixels();
    bool pipelinable = epilogue && !pairs && s.flavor == KernelFlavor::VNNI &&
                       s.kh == 1 && s.kw == 1 &&
                       epilogueChannelVectors() <= 5 && !perLaneShifts();
    SmallVector<int64_t> nrChoices =
        s.flavor == KernelFlavor::VNNI || s.flavor == KernelFlavor::Int16AVX512
            ? SmallVector<int64_t>{4, 2, 1}
            : SmallVector<int64_t>{2, 1};
    if (pipelinable)
      nrChoices = {4, 2, 3, 1};
    // A long reduction (K >= 256: a 64-channel group's weights are 16 KiB
    // or more) takes units of 6 pixels x 2 blocks rather than 3 x 4 when
    // the blocks pair up: the same 12 accumulators, half the weight bytes
    // per vpdpbusd (2 weight vectors and 6 broadcasts per 12), which is
    // what a core with two vpdpbusd per cycle streams from L2 when the
    // weights do not fit its L1 (Xeon: see the README). Zen 4, one thread,
    // 2 alternated runs: pw5 230 -> 229 us, pw7 227-228 -> 226-227, pw13
    // 231-234 -> 229; AOT MobileNet v2 within 1% (serial medians
    // 2.45-2.60 ms against 2.48-2.57 in seven alternated rounds, a noisy
    // phase). Pairs of blocks take 6 pixels at every K (below); fours of
    // blocks as 6 x 2 below K = 256 ran as fast as 3 x 4 (pw1 146-147 us
    // either way), so those stay 3 x 4.
    bool wideUnits = pipelinable && chunks >= 64 && blocks % 2 == 0;
    // Few pixels for such units: their last unit recomputes pixels of the
    // one before it (a 7x7 layer: 9 units, 54 pixels for 49). Plain tiles
    // of 7 pixels x 2 blocks (14 accumulators) take them where that saves
    // more than 5% of the pixels; at K >= 256 the pipelining gains
    // nothing. Zen 5, one thread, pw13 (7x7, K = N = 1024): 105 -> 98-99
    // us (10 x 2: 99-100; 5 x 4: 99-102; 7 x 1: 120-124).
    bool sevenRows =
        wideUnits && 20 * ((pixels + 6) / 7 * 7) < 19 * ((pixels + 5) / 6 * 6);
    if (sevenRows)
      pipelinable = false;
    if (wideUnits)
      nrChoices = {2};
    int64_t nr = 1;
    for (int64_t v : nrChoices)
      if (blocks % v == 0) {
        nr = v;
        break;
      }
    // Output pixels per tile: the 512-bit flavors have 32 vector registers,
    // of which up to 24 hold accumulators (rows x nr); the 256-bit ones
    // have 16. AVX2 pairs of blocks take 5 pixels:
    // 10 accumulators, two weight vectors, a broadcast and a product, so
    // that each step issues 5 broadcasts and 2 weight loads per 10
    // vpmaddwd + vpaddd rather than 4 and 2 per 8 (Zen 4 issues 6
    // instructions per cycle beside its 2 vpmaddwd: the int16 pointwise
    // loop is bound by the front end). AOT, one thread, Zen 4, x86-64-v3
    // code: pw1 (K = 32) 406 -> 383 us, pw3 627 -> 614, pw13 573 -> 561
    // (6 pixels: 380, 614, 578; the registers run out at K = 1024).
    int64_t tileRows = 4;
    if (s.flavor == KernelFlavor::VNNI ||
        s.flavor == KernelFlavor::Int16AVX512)
      for (int64_t r : {8, 6, 4})
        if (r * nr <= 24) {
          tileRows = r;
          break;
        }
    if (s.flavor == KernelFlavor::Int16 && nr == 2)
      tileRows = 5;
    if (sevenRows)
      tileRows = 7;
    if (pairs)
      tileRows = 16;
    // The accumulators of a tile of `rows` pixels: one per (pixel, block),
    // or per pair of pixels (the last one alone when `rows` is odd).
    auto accumulatorCount = [&](int64_t rows) {
      return pairs ? (rows + 1) / 2 : rows * nr;
    };
    // The lanes of the second pixel of a pair.
    Value upperHalf = pairs ? laneMask(lanes, lanes / 2, lanes / 2) : Value();
    // Pair q's value from pixel values `v` (per pixel): lanes of pixel 2q,
    // then of pixel 2q + 1 (2q again when it is the last pixel).
    auto pairOf = [&](OpBuilder &ob, ArrayRef<Value> v, size_t q) -> Value {
      Value second = v[std::min(2 * q + 1, v.size() - 1)];
      if (second == v[2 * q])
        return second;
      return arith::SelectOp::create(ob, loc, upperHalf, second, v[2 * q]);
    };

    // Short reductions are unrolled (the LLVM pipeline has no unroller):
    // the K steps of a tap when they load at most 8 weight vectors in all
    // (more, and LLVM schedules the loads of every step first and spills:
    // pw1, K = 32 x 4 blocks, ran 1.5x slower), and the taps of a first
    // convolution, whose taps hold one or two K steps each; not with window
    // sums (a uint8 first convolution: unrolled, LLVM hoisted every tap's
    // broadcasts above the window sums and spilled them, MobileNet
    // 0.25/128 0.165 against 0.146 ms; with row sums, which they replaced,
    // 30 against 20 us for the layer). With
    // threads, the rows of taps stay a loop: in the outlined OpenMP body
    // LLVM hoists every tap's weight loads out of the tile loop (18
    // vectors for a 3x3 first convolution beside its 16 accumulators) and
    // spills them; per row of taps the loads stay inside (two-thread
    // MobileNet conv0 62 -> 47 us on Zen 5).
    bool unrollChunks = chunks * nr <= 8;
    bool unrollTaps = chunks <= 2 && s.kh * s.kw <= 16 && !windowSums;
    // Serial code loops over the channel groups outside the tiles when the
    // packed weights would not stay in L2 beside the activations: each
    // group's weights are then read once for all the tiles (pw13, 1 MiB of
    // weights read from L3 once per 6-pixel tile, ran 9% faster on Zen 5;
    // pw3/pw5/pw7, whose weights stay in L2, ran the same either way).
    auto wType = cast<MemRefType>(w.getType());
    int64_t weightBytes =
        wType.getNumElements() * wType.getElementTypeBitWidth() / 8;
    bool groupMajor = weightBytes > kGroupMajorWeightBytes;
    // The accumulators of the nr blocks from channel blockChannel[j], for
    // `rows` pixels: the VNNI correction terms plus the epilogue's bias (or
    // the offset form's bias + D: initialAccumulator), in
    // (pixel, block) order, or one per pair of pixels (pairsPixels).
    auto initialAccumulators = [&](OpBuilder &bb, ArrayRef<Value> blockChannel,
                                   int64_t rows) {
      Value zero = arith::ConstantOp::create(
          bb, loc, DenseElementsAttr::get(accType, bb.getI32IntegerAttr(0)));
      SmallVector<Value> init(accumulatorCount(rows), zero);
      for (int64_t j = 0; j < nr; ++j) {
        Value ch = blockChannel[j];
        Value base = zero;
        if (s.flavor == KernelFlavor::VNNI)
          base = loadBlock(bb, accType, corr, ch);
        base = initialAccumulator(bb, base, ch);
        for (size_t i = j; i < init.size(); i += nr)
          init[i] = base;
      }
      return init;
    };
    // With a window coefficient, each pixel's accumulators start from its
    // window sum too (windowSum): `init` in (pixel, block) or pair order, the
    // pixels' windows starting at (ihBase[r], iwBase[r]).
    auto addWindowSums = [&](OpBuilder &bb, Value nIv, ArrayRef<Value> ihBase,
                             ArrayRef<Value> iwBase,
                             MutableArrayRef<Value> init) {
      if (!windowSums)
        return;
      SmallVector<Value> sums;
      bool negated = s.d == 128;
      // A flattened pointwise kernel's pixels (one row: hp = 1) are
      // consecutive, their bytes contiguous.
      if (flatPointwise() && llvm::isPowerOf2_64(s.cp) && s.cp <= 64) {
        sums = contiguousWindowSums(bb, nIv, iwBase[0], iwBase.size());
      } else if (columnSumPixels() != 0 && ihBase.size() > 1) {
        sums = windowSumsByColumns(bb, nIv, ihBase, iwBase, pairs);
      } else {
        for (size_t r = 0; r < ihBase.size(); ++r)
          sums.push_back(windowSum(bb, nIv, ihBase[r], iwBase[r]));
      }
      // Accumulator i takes pixel i / nr's sum, or pair i's.
      for (size_t i = 0; i < init.size(); ++i) {
        Value sum = pairs ? pairOf(bb, sums, i) : sums[i / nr];
        Value &v = init[i];
        v = negated ? arith::SubIOp::create(bb, loc, v, sum).getResult()
                    : arith::AddIOp::create(bb, loc, v, sum).getResult();
      }
    };
    // The first output channel of each block of the group starting at
    // block b0.
    auto blockChannels = [&](OpBuilder &bb, Value b0) {
      SmallVector<Value> blockChannel;
      for (int64_t j = 0; j < nr; ++j)
        blockChannel.push_back(mul(bb, add(bb, b0, j), lanes));
      return blockChannel;
    };
    // One K step (chunk cc of tap (khIv, kwIv)) of `rows` pixels whose
    // input rows and columns start at ihBase/iwBase, for the group of
    // blocks from b0.
    auto kStep = [&](OpBuilder &kb, Value nIv, ArrayRef<Value> ihBase,
                     ArrayRef<Value> iwBase, Value khOff, Value kwOff,
                     Value khIv, Value kwIv, Value cc, Value b0,
                     ValueRange acc) {
      int64_t rows = ihBase.size();
      Value c = mul(kb, cc, kg);
      SmallVector<Value> av, wv, next;
      for (int64_t r = 0; r < rows; ++r) {
        Value ih = arith::AddIOp::create(kb, loc, ihBase[r], khOff);
        Value iw = arith::AddIOp::create(kb, loc, iwBase[r], kwOff);
        av.push_back(loadA(kb, nIv, ih, iw, c));
      }
      for (int64_t j = 0; j < nr; ++j)
        wv.push_back(
            loadBlock(kb, wVecType, w,
                      ValueRange{add(kb, b0, j), khIv, kwIv, cc, idx(kb, 0)}));
      if (pairs) {
        // Each pixel's broadcast bytes in its half of the lanes.
        SmallVector<Value> words;
        for (Value a : av)
          words.push_back(vector::BitCastOp::create(kb, loc, accType, a));
        for (size_t q = 0; q < acc.size(); ++q)
          next.push_back(
              step(kb, acc[q],
                   vector::BitCastOp::create(kb, loc, av[0].getType(),
                                             pairOf(kb, words, q)),
                   wv[0]));
        return next;
      }
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t j = 0; j < nr; ++j)
          next.push_back(step(kb, acc[r * nr + j], av[r], wv[j]));
      return next;
    };
    // Four (two) channel blocks of a pixel narrow into one 64-byte
    // (32-byte) store.
    std::optional<NarrowingTail> tail = narrowingTail();
    bool packed = tail && (lanes == 16 ? nr >= 2 : nr == 2);
    // One block of 16 stored channels in a flattened pointwise kernel
    // (consecutive pixels, their outputs contiguous): up to four pixels'
    // results narrow together, as four blocks of one pixel do (packBytes:
    // the halved tail, one 64-byte store), rather than one vpmovusdb each.
    bool packsPixels = tail && lanes == 16 && nr == 1 && s.op == 16 && !s.oc &&
                       flatPointwise();
    // The per-channel constants of a group of blocks: each block's
    // (loadChannelConstants), and the packed tail's per-channel parts.
    struct GroupConstants {
      SmallVector<SmallVector<Value>> blocks;
      std::optional<PackedTail> tail;
    };
    auto channelConstants = [&](OpBuilder &bb, ArrayRef<Value> blockChannel) {
      GroupConstants constants;
      for (int64_t j = 0; epilogue && j < nr; ++j)
        constants.blocks.push_back(loadChannelConstants(bb, blockChannel[j]));
      if (packed) {
        // The vectors as storePixel packs them (three blocks as four).
        SmallVector<ArrayRef<Value>> perVector(constants.blocks.begin(),
                                               constants.blocks.end());
        if (nr == 3)
          perVector.push_back(perVector.back());
        constants.tail = packTail(bb, *tail, perVector);
      } else if (packsPixels) {
        // Four pixels' vectors of the same channels.
        SmallVector<ArrayRef<Value>> perVector(4, constants.blocks[0]);
        constants.tail = packTail(bb, *tail, perVector);
      }
      return constants;
    };
    // Applies the epilogue (if any) to the nr accumulators `pixelAccs` of
    // pixel (oh, ow), whose blocks' per-channel constants are `constants`,
    // and stores the pixel's output channels of blockChannel[j]: packed
    // into one store, or one store per block.
    auto storePixel = [&](OpBuilder &bb, Value nIv, Value oh, Value ow,
                          ArrayRef<Value> blockChannel,
                          ArrayRef<Value> pixelAccs,
                          const GroupConstants &constants) {
      if (!packed) {
        for (int64_t j = 0; j < nr; ++j) {
          Value v = pixelAccs[j];
          if (epilogue)
            v = applyEpilogue(bb, v, constants.blocks[j]);
          storeChannels(bb, v, ValueRange{nIv, oh, ow}, blockChannel[j]);
        }
        return;
      }
      SmallVector<Value> vals;
      for (int64_t j = 0; j < nr; ++j)
        vals.push_back(
            applyEpilogue(bb, pixelAccs[j], constants.blocks[j], &*tail));
      const PackedTail *perChannel =
          constants.tail ? &*constants.tail : nullptr;
      if (lanes == 8) {
        storeChannels(bb, packBytes8(bb, vals[0], vals[1], *tail, perChannel),
                      ValueRange{nIv, oh, ow}, blockChannel[0]);
        return;
      }
      // Two or three blocks: opaque, or LLVM splits the vpermd around the
      // extract of the low half (four shuffles instead of one). Three
      // blocks pack as four (the last one twice) and store 48 bytes.
      if (nr == 3)
        vals.push_back(vals.back());
      Value bytes = packBytes(bb, vals, *tail, perChannel, /*opaque=*/nr != 4);
      if (nr != 4)
        bytes = vector::ExtractStridedSliceOp::create(
            bb, loc, bytes, ArrayRef<int64_t>{0}, ArrayRef<int64_t>{nr * 16},
            ArrayRef<int64_t>{1});
      storeChannels(bb, bytes, ValueRange{nIv, oh, ow}, blockChannel[0]);
    };
    // storePixel for two pixels (ohs[k], ows[k]) of the 8-lane packed
    // flavor (Int16, nr = 2): their four accumulators (pixel-major) narrow
    // together (packBytes8Pair), one 16-byte store per pixel.
    auto storePixelPair8 = [&](OpBuilder &bb, Value nIv, ArrayRef<Value> ohs,
                               ArrayRef<Value> ows,
                               ArrayRef<Value> blockChannel,
                               ArrayRef<Value> pixelAccs,
                               const GroupConstants &constants) {
      SmallVector<Value> vals;
      for (auto [i, acc] : llvm::enumerate(pixelAccs))
        vals.push_back(applyEpilogue(bb, acc, constants.blocks[i % 2], &*tail));
      Value bytes =
          packBytes8Pair(bb, vals[0], vals[1], vals[2], vals[3], *tail,
                         constants.tail ? &*constants.tail : nullptr);
      for (int64_t k = 0; k < 2; ++k)
        storeChannels(bb,
                      vector::ExtractStridedSliceOp::create(
                          bb, loc, bytes, ArrayRef<int64_t>{16 * k},
                          ArrayRef<int64_t>{16}, ArrayRef<int64_t>{1}),
                      ValueRange{nIv, ohs[k], ows[k]}, blockChannel[0]);
    };

    // The output seen as [n, pixels * channels]: stores of consecutive
    // pixels (pairsPixels, packsPixels).
    auto outputRows = [&]() {
      ReassociationIndices rest;
      for (int64_t d = 1; d < cast<MemRefType>(out.getType()).getRank(); ++d)
        rest.push_back(d);
      return collapsedOnce(memo.outputRows, out, {{0}, rest});
    };
    // Applies the epilogue to the accumulators `accs` (one to four) of the
    // consecutive pixels from flat pixel `pixel` of image nIv (packsPixels)
    // and stores their outputs as one run of 16 bytes per pixel: four
    // pack as four blocks do, three as four (the last twice, 48 bytes
    // stored), two as two, one as two (16 bytes stored).
    auto storePixelRun = [&](OpBuilder &bb, Value nIv, Value pixel,
                             ArrayRef<Value> accs,
                             const GroupConstants &constants) {
      SmallVector<Value> vals;
      for (Value acc : accs)
        vals.push_back(applyEpilogue(bb, acc, constants.blocks[0], &*tail));
      int64_t count = vals.size();
      if (count % 2)
        vals.push_back(vals.back());
      Value bytes = packBytes(bb, vals, *tail,
                              constants.tail ? &*constants.tail : nullptr,
                              /*opaque=*/count != 4);
      if (count != 4)
        bytes = vector::ExtractStridedSliceOp::create(
            bb, loc, bytes, ArrayRef<int64_t>{0}, ArrayRef<int64_t>{count * 16},
            ArrayRef<int64_t>{1});
      vector::StoreOp::create(bb, loc, bytes, outputRows(),
                              ValueRange{nIv, mul(bb, pixel, 16)});
    };

    // Applies the epilogue to pair accumulator `acc` (pairsPixels) and
    // stores the outputs of its `count` pixels (2, or the last pixel
    // alone) from flat pixel `pixel` of image nIv: their channels are
    // consecutive (oc per pixel), lanes 0..oc-1 and 8..8+oc-1 as one
    // store (masked unless it is 16 whole lanes).
    auto storePair = [&](OpBuilder &bb, Value nIv, Value pixel, int64_t count,
                         Value acc, const GroupConstants &constants) {
      Value v = applyEpilogue(bb, acc, constants.blocks[0]);
      int64_t half = lanes / 2;
      if (s.oc != half) {
        SmallVector<int64_t> order;
        for (int64_t i = 0; i < lanes; ++i)
          order.push_back(i < s.oc ? i : i < 2 * s.oc ? half + i - s.oc : 0);
        v = vector::ShuffleOp::create(bb, loc, v, v, order);
      }
      SmallVector<Value> at = {nIv, mul(bb, pixel, s.oc)};
      int64_t n = count * s.oc;
      if (n == lanes) {
        vector::StoreOp::create(bb, loc, v, outputRows(), at);
        return;
      }
      vector::MaskedStoreOp::create(bb, loc, outputRows(), at,
                                    laneMask(lanes, 0, n), v);
    };

    // One tile: every group of nr blocks (or the one `group` of a parallel
    // iteration) of the pixels (ohs[r], ows[r]), its epilogue applied as
    // soon as its reduction ends.
    auto tileBody = [&](OpBuilder &tb, Value nIv, Value first,
                        ArrayRef<Value> ohs, ArrayRef<Value> ows, Value group) {
      int64_t rows = ohs.size();
      // The nr blocks from b0.
      auto groupBody = [&](OpBuilder &bb, Value b0) {
        SmallVector<Value> blockChannel = blockChannels(bb, b0);
        SmallVector<Value> init = initialAccumulators(bb, blockChannel, rows);
        SmallVector<Value> ihBase, iwBase;
        for (int64_t r = 0; r < rows; ++r) {
          ihBase.push_back(mul(bb, ohs[r], s.sh));
          iwBase.push_back(mul(bb, ows[r], s.sw));
        }
        addWindowSums(bb, nIv, ihBase, iwBase, init);
        SmallVector<Value> accs = reduceLoop(
            bb, s.kh, init,
            [&](OpBuilder &b1, Value khIv, ValueRange a1) {
              Value khOff = mul(b1, khIv, s.dh);
              return reduceLoop(
                  b1, s.kw, a1,
                  [&](OpBuilder &b2, Value kwIv, ValueRange a2) {
                    Value kwOff = mul(b2, kwIv, s.dw);
                    return reduceLoop(
                        b2, chunks, a2,
                        [&](OpBuilder &kb, Value cc, ValueRange acc) {
                          return kStep(kb, nIv, ihBase, iwBase, khOff, kwOff,
                                       khIv, kwIv, cc, b0, acc);
                        },
                        unrollChunks);
                  },
                  unrollTaps);
            },
            unrollTaps && !parallel);
        GroupConstants constants = channelConstants(bb, blockChannel);
        if (loopedEpilogue(rows)) {
          // The tile's accumulators go through a stack buffer, and one
          // epilogue runs in a loop over its pixels.
          auto bufferType = MemRefType::get({rows * nr, lanes}, i32);
          Value buffer = scratch(bufferType);
          for (int64_t i = 0; i < rows * nr; ++i)
            vector::StoreOp::create(bb, loc, accs[i], buffer,
                                    ValueRange{idx(bb, i), idx(bb, 0)});
          forLoop(bb, 0, rows, 1, [&](OpBuilder &lb, Value r) {
            SmallVector<Value> pixelAccs;
            for (int64_t j = 0; j < nr; ++j)
              pixelAccs.push_back(vector::LoadOp::create(
                  lb, loc, accType, buffer,
                  ValueRange{add(lb, mul(lb, r, nr), j), idx(lb, 0)}));
            auto [oh, ow] =
                pixelCoords(lb, arith::AddIOp::create(lb, loc, first, r));
            storePixel(lb, nIv, oh, ow, blockChannel, pixelAccs, constants);
          });
          return;
        }
        if (pairs) {
          for (int64_t q = 0; 2 * q < rows; ++q)
            storePair(bb, nIv, add(bb, first, 2 * q),
                      std::min<int64_t>(2, rows - 2 * q), accs[q], constants);
          return;
        }
        if (packsPixels) {
          for (int64_t r = 0; r < rows; r += 4)
            storePixelRun(
                bb, nIv, add(bb, first, r),
                ArrayRef<Value>(accs).slice(r, std::min<int64_t>(4, rows - r)),
                constants);
          return;
        }
        for (int64_t r = 0; r < rows; ++r) {
          if (packed && lanes == 8 && r + 1 < rows) {
            storePixelPair8(bb, nIv, ohs.slice(r, 2), ows.slice(r, 2),
                            blockChannel,
                            ArrayRef<Value>(accs).slice(r * nr, 4), constants);
            ++r;
            continue;
          }
          SmallVector<Value> pixelAccs;
          for (int64_t j = 0; j < nr; ++j)
            pixelAccs.push_back(accs[r * nr + j]);
          storePixel(bb, nIv, ohs[r], ows[r], blockChannel, pixelAccs,
                     constants);
        }
      };
      // A parallel iteration's one group, or the only one: no loop. (A
      // loop from group * nr to group * nr + nr stayed a loop of one trip
      // in LLVM, one more loop level whose induction variables loop
      // strength reduction analysed in every OpenMP body.)
      if (group || blocks == nr) {
        groupBody(tb, group ? mul(tb, group, nr) : idx(tb, 0));
        return;
      }
      forLoop(tb, 0, blocks, nr, groupBody);
    };
    // Pointwise kernels with an epilogue are software-pipelined across
    // units (a tile of `rows` pixels and one group of nr blocks):
    // each unit's accumulators stay in registers, carried to the next
    // unit, whose first K steps (unrolled) apply their epilogue pixel by
    // pixel between its vpdpbusd chains. The exact requantize costs two
    // vpmuldq (which issue on the same two pipes as vpdpbusd on Zen 4 and
    // Intel) and ~7 other vector instructions per 16 outputs, against K/4
    // vpdpbusd; after the reduction, the out-of-order core overlapped it
    // with the next unit's chains only in part. Two units' accumulators
    // share the 32 registers: 3 pixels for 3-4 blocks, 6 for 2 or 1.
    // On Zen 4 (one thread, against tiles of 6 or 8 pixels whose epilogue
    // followed their reduction): pw1 (K = 32) 169 -> 152 us, pw3 247 ->
    // 239, pw5 233 -> 228, MobileNet v2's expansions (K = 16..160) 3-13%
    // faster; K = 512, 1024 the same. (An earlier form kept the previous
    // unit's accumulators in a stack buffer: its 20 zmm stores and loads
    // per unit cost as much as the overlap gained on Zen 4.) The epilogue
    // may read up to five per-channel vectors besides the bias (the
    // multiplier, the difference to a common shift, see commonShift, and
    // lifted zero points and bounds, which the packed narrowing reads as
    // packed vectors once per unit: MobileNet v2's shared 56x56x24->144
    // layers 208 -> 194 us for two, 28x28x32->192 75 -> 70); with
    // per-lane shifts (four vectors per block) it ran up to 10% slower
    // pipelined (spills) and keeps plain tiles (not the offset form's
    // single shift per lane: perLaneShifts). With threads,
    // each parallel iteration is a strip of consecutive units, pipelined
    // within it (tile-major, as the parallel tiles are): 2 threads, Zen 4,
    // pw1 89 -> 77 us, pw3 129 -> 121, pw5 121 -> 116. Emulated VNNI takes
    // the same path; the int16 kernels do not (AVX2 has 16 registers).
    // Pairs of blocks take 6 pixels at every K, as single blocks do: the
    // same 12 accumulators as 3 x 4, 2 weight vectors and 6 broadcasts per
    // step. Against 4 pixels (Zen 4, AOT, one thread): MobileNet v2's
    // 112x112x16 -> 96 expansion 155-165 -> 145 us, its 28x28 projections
    // to 32 channels the same; v2 serial medians 2.48-2.51 -> 2.45-2.48 ms,
    // 2 threads within the noise.
    int64_t rows = nr <= 2 ? 6 : 3;
    int64_t groups = blocks / nr, tiles = pixels / rows;
    int64_t units = tiles * groups, rest = pixels % rows;
    if (!pipelinable || s.n * units <= 1) {
      pixelTileLoops(tileRows, groups, groupMajor, tileBody);
      return;
    }
    bool threaded = threadedWork();
    // With threads, each parallel iteration is a strip of consecutive
    // units: about 8 units per strip; at least 16 strips while there are
    // as many units, so that small layers still spread over the threads;
    // at most 64.
    auto stripsOf = [](int64_t n) {
      return std::min({n, std::max<int64_t>(n / 8, 16), int64_t(64)});
    };
    // The rest is one more tile ending at the last pixel, recomputing
    // pixels of the tile before it (as pixelTileLoops does), rather than a
    // plain tile body of its own (with threads, 1.2-1.6 KB more code in
    // each of MobileNet v2's pointwise kernels, and a tile the other
    // threads waited for). With threads, only where the last strip holds
    // every unit of the tile it overlaps: one thread writes those bytes
    // twice, the same values, and no other thread writes them.
    bool overlapLast = lastTileIsFull(rows, rest, pixels);
    if (overlapLast && threaded) {
      int64_t n = (tiles + 1) * groups, strips = stripsOf(n);
      if (groupMajor) {
        // Each group's last two tiles in one strip: no strip may start at
        // a group's last (overlapping) tile.
        for (int64_t k = 1; k < strips && overlapLast; ++k)
          overlapLast = k * n / strips % (tiles + 1) != tiles;
      } else {
        overlapLast = (strips - 1) * n / strips <= (tiles - 1) * groups;
      }
    }
    if (overlapLast) {
      ++tiles;
      units = tiles * groups;
      rest = 0;
    }
    // Unit u: (tile, group), tile-major, or group-major (above the weight
    // threshold, serial or threaded: a strip then runs over the tiles of
    // one or two groups, whose weights stay in L1).
    auto tileGroup = [&](OpBuilder &ob, Value u) -> std::pair<Value, Value> {
      if (groupMajor) {
        auto [g, t] = opaqueDivRem(ob, u, tiles);
        return {t, g};
      }
      return opaqueDivRem(ob, u, groups);
    };
    auto pixelOf = [&](OpBuilder &ob, Value t, int64_t r) {
      Value first = overlapLast ? clampedTileStart(ob, t, rows, pixels)
                                : mul(ob, t, rows);
      return pixelCoords(ob, add(ob, first, r));
    };
    // What a unit needs of the unit before it for that unit's epilogue:
    // its tile, its blocks' first channels and their constants.
    struct Previous {
      Value t;
      SmallVector<Value> channel;
      GroupConstants constants;
    };
    auto previous = [&](OpBuilder &ob, Value u) {
      auto [t, g] = tileGroup(ob, u);
      Previous prev{t, blockChannels(ob, mul(ob, g, nr)), {}};
      prev.constants = channelConstants(ob, prev.channel);
      return prev;
    };
    // The epilogue of pixel r of the unit `prev` describes, whose
    // accumulators are `accs`.
    auto pixelEpilogue = [&](OpBuilder &ob, Value nIv, const Previous &prev,
                             int64_t r, ValueRange accs) {
      // Packed pixels: the run of up to four that pixel r ends (the callers
      // go through r in order), from pixel r - r % 4, whose column is its
      // flat index (hp = 1).
      if (packsPixels) {
        if (r % 4 != 3 && r != rows - 1)
          return;
        int64_t r0 = r - r % 4;
        SmallVector<Value> run(accs.begin() + r0, accs.begin() + r + 1);
        storePixelRun(ob, nIv, pixelOf(ob, prev.t, r0).second, run,
                      prev.constants);
        return;
      }
      auto [oh, ow] = pixelOf(ob, prev.t, r);
      SmallVector<Value> pixelAccs(accs.slice(r * nr, nr));
      storePixel(ob, nIv, oh, ow, prev.channel, pixelAccs, prev.constants);
    };
    // Unit u's reduction; with `prevAccs`, the epilogue of unit u - 1's
    // pixels spread over its first `unrolled` steps.
    int64_t unrolled = std::min<int64_t>(chunks, std::max<int64_t>(rows, 8));
    auto unitBody = [&](OpBuilder &ub, Value nIv, Value u,
                        ValueRange prevAccs) -> SmallVector<Value> {
      auto [t, g] = tileGroup(ub, u);
      Value b0 = mul(ub, g, nr);
      SmallVector<Value> accs =
          initialAccumulators(ub, blockChannels(ub, b0), rows);
      SmallVector<Value> ihBase, iwBase;
      for (int64_t r = 0; r < rows; ++r) {
        auto [oh, ow] = pixelOf(ub, t, r);
        ihBase.push_back(mul(ub, oh, s.sh));
        iwBase.push_back(mul(ub, ow, s.sw));
      }
      addWindowSums(ub, nIv, ihBase, iwBase, accs);
      std::optional<Previous> prev;
      if (!prevAccs.empty())
        prev = previous(ub, arith::SubIOp::create(ub, loc, u, idx(ub, 1)));
      Value zero = idx(ub, 0);
      auto stepAt = [&](OpBuilder &kb, Value cc, ValueRange args) {
        return kStep(kb, nIv, ihBase, iwBase, zero, zero, zero, zero, cc, b0,
                     args);
      };
      // The first unit of a range has no epilogue to interleave: a loop.
      int64_t steps = prev ? unrolled : 0;
      int64_t next = 0;
      for (int64_t cc = 0; cc < steps; ++cc) {
        accs = stepAt(ub, idx(ub, cc), accs);
        // Pixel r's epilogue after step r * unrolled / rows; the last
        // step takes the rest.
        for (; prev && next < rows &&
               (cc == unrolled - 1 || next * unrolled <= cc * rows);
             ++next)
          pixelEpilogue(ub, nIv, *prev, next, prevAccs);
      }
      if (steps < chunks) {
        auto loop = scf::ForOp::create(
            ub, loc, idx(ub, steps), idx(ub, chunks), idx(ub, 1), accs,
            [&](OpBuilder &lb, Location, Value cc, ValueRange args) {
              scf::YieldOp::create(lb, loc, stepAt(lb, cc, args));
            });
        accs.assign(loop.getResults().begin(), loop.getResults().end());
      }
      return accs;
    };
    // Units [begin, end) of image nIv: unit `begin`'s reduction, the next
    // ones each with the previous unit's epilogue, then the last unit's
    // epilogue.
    auto unitRange = [&](OpBuilder &rb, Value nIv, Value begin, Value next,
                         Value end) {
      SmallVector<Value> accs = unitBody(rb, nIv, begin, ValueRange{});
      auto loop = scf::ForOp::create(
          rb, loc, next, end, idx(rb, 1), accs,
          [&](OpBuilder &lb, Location, Value u, ValueRange args) {
            scf::YieldOp::create(lb, loc, unitBody(lb, nIv, u, args));
          });
      Previous last =
          previous(rb, arith::SubIOp::create(rb, loc, end, idx(rb, 1)));
      for (int64_t r = 0; r < rows; ++r)
        pixelEpilogue(rb, nIv, last, r, loop.getResults());
    };
    // The rest (fewer than `rows` pixels) of image nIv as a plain tile.
    auto restTile = [&](OpBuilder &rb, Value nIv) {
      if (!rest)
        return;
      SmallVector<Value> ohs, ows;
      for (int64_t r = 0; r < rest; ++r) {
        auto [oh, ow] = pixelCoords(rb, idx(rb, tiles * rows + r));
        ohs.push_back(oh);
        ows.push_back(ow);
      }
      tileBody(rb, nIv, idx(rb, tiles * rows), ohs, ows, Value());
    };
    if (threaded) {
      // The rest tile, if any, runs after the parallel loop.
      int64_t strips = stripsOf(units);
      parallelOverImages(b, strips, [&](OpBuilder &pb, Value nIv, Value sIv) {
        auto bound = [&](Value v) -> Value {
          return arith::DivUIOp::create(pb, loc, mul(pb, v, units),
                                        idx(pb, strips));
        };
        // In this order (the IR is the same whatever the C++ compiler's
        // order of evaluating arguments).
        Value begin = bound(sIv);
        Value end = bound(add(pb, sIv, 1));
        Value next = add(pb, begin, 1);
        unitRange(pb, nIv, begin, next, end);
      });
      forLoop(b, 0, s.n, 1,
              [&](OpBuilder &nb, Value nIv) { restTile(nb, nIv); });
      return;
    }
    forLoop(b, 0, s.n, 1, [&](OpBuilder &nb, Value nIv) {
      Value begin = idx(nb, 0), next = idx(nb, 1), end = idx(nb, units);
      unitRange(nb, nIv, begin, next, end);
      restTile(nb, nIv);
    });
  }

  /// Every depthwise kernel (DepthwiseVNNI, DepthwiseAVX2, Depthwise): 16
  /// channels per vector (8 for DepthwiseAVX2: one ymm; one per i32 lane), a
  /// tile of consecutive output pixels of one image row. For each kernel row
  /// the distinct input columns the tile reads are loaded once and extended to
  /// i32 lanes (loadLanes), and every (pixel, tap) pair adds x * w per lane.
  /// DepthwiseVNNI: the lanes hold the unsigned byte (x, or x + 128 for s8
  /// input) with zero bytes above it, the tap's weights are w - wzp as i32
  /// lanes, and each pair is one vpdpbusd; with 2 to 4 kernel rows
  /// (packsKernelRows) one step reads every row, row y's lanes shifted into
  /// byte y, and each (pixel, kernel column) is one vpdpbusd against the
  /// column's packed weights (3 instead of 9 per pixel for 3x3: Zen 4, dw1
  /// 105 -> 81 us, dw3 104 -> 81); a tile is 8 pixels (with 3 taps, 10
  /// columns for 24 multiply-adds at stride 1, 17 at stride 2; 4 pixels at
  /// stride 2 ran dw2, 112x112x64 s2, 10% slower on Zen 5). DepthwiseAVX2
  /// (int16) and Depthwise (generic, int16-avx512bw): the lanes hold x as it
  /// is, the weights are i16 lanes of w - wzp, extended, and each pair is a
  /// multiply (vpmaddwd on x86: both factors fit 16 bits) and an add; a tile is
  /// 4 pixels (on AVX2, 8 ymm accumulators). With padTop/padLeft (inH != 0) the
  /// kernel reads the unpadded input: border rows clamp the input row and use
  /// the zero point's lanes when it is outside; border columns are known per
  /// tile (see rowTiles below); interior tiles load without checks.
  void buildDepthwiseRowTiles() {
    bool vnni = s.flavor == KernelFlavor::DepthwiseVNNI;
    // The packed narrowing of the epilogue, if it ends in one (AVX512).
    std::optional<NarrowingTail> tail =
        vnni ? narrowingTail() : std::optional<NarrowingTail>();
    Type i8 = b.getI8Type(), i16 = b.getI16Type(), i32 = b.getI32Type();
    int64_t lanes = s.lanes();
    auto accType = VectorType::get({lanes}, i32);
    auto byteType = VectorType::get({64}, i8);
    int64_t cBlocks = s.cp / lanes;
    int64_t tileRows = vnni ? 8 : 4;
    int64_t inH = s.inputH(), inW = s.inputW();
    // The range [first, end) of output positions whose taps all fall inside
    // the input along one axis.
    auto insideRange = [](int64_t pad, int64_t stride, int64_t span,
                          int64_t extent, int64_t outN) {
      int64_t first = std::min((pad + stride - 1) / stride, outN);
      int64_t last = extent - 1 + pad - span;
      int64_t end = last < 0 ? 0 : std::min(outN, last / stride + 1);
      return std::make_pair(first, std::max(first, end));
    };
    auto [ohA, ohB] =
        insideRange(s.padTop, s.sh, (s.kh - 1) * s.dh, inH, s.oh);
    auto [owA, owB] =
        insideRange(s.padLeft, s.sw, (s.kw - 1) * s.dw, inW, s.ow);

    // How a tile reads the columns left and right of the input.
    enum class Columns {
      /// Every column is inside the input.
      Inside,
      /// The tile's first pixel is a constant: the columns outside the
      /// input are known here and read as the zero point's lanes, the
      /// others load without a check.
      Static,
      /// Each column's position is clamped and its lanes selected at run
      /// time (a row with more border tiles than emitted statically).
      Dynamic,
    };
    // The output rows of a band whose packed columns carry down (serial
    // code, packed kernel rows at stride 1: the end of this function):
    // `count` rows from the tile's, each accumulated and passed to
    // `store`.
    struct RowCarry {
      Value count;
      function_ref<void(OpBuilder &, Value, ArrayRef<Value>)> store;
    };
    // The accumulators of one tile's channel block c0 (multiplier index
    // jIv): `rows` pixels from (oh, ow0) (`ow0S` is ow0's value for
    // Columns::Static). With `rowCheck`, the tile's input rows may be
    // above or below the input (the border rows). With `carry` (packed
    // kernel rows, stride 1), the tiles of carry.count output rows from
    // oh, each one's packed columns derived from the row above's, are
    // accumulated and stored (carry.store), and nothing is returned.
    auto tileAccumulators = [&](OpBuilder &bb, Value nIv, Value ohIv, Value ow0,
                                int64_t ow0S, int64_t rows, bool rowCheck,
                                Columns columnsKind, Value jIv, Value c0,
                                Value zpLanes,
                                const RowCarry *carry = nullptr) {
      // A kernel on the padded plane has nothing to check.
      if (s.inH == 0) {
        rowCheck = false;
        columnsKind = Columns::Inside;
      }
      // Packed kernel rows of s8 input: the columns hold the bytes as
      // stored, and one xor per packed column flips every row's byte
      // (x + 128 = x ^ 0x80 as a byte) instead of an add per row and
      // column; the zero point's lanes (zpLanes holds its unsigned byte)
      // are read as stored too.
      bool flipPacked = vnni && s.packsKernelRows() && s.inputSigned;
      auto splat = [&](uint32_t v) {
        return constant(DenseElementsAttr::get(
            accType, bb.getI32IntegerAttr(static_cast<int32_t>(v))));
      };
      if (flipPacked && zpLanes)
        zpLanes = arith::XOrIOp::create(bb, loc, zpLanes, splat(0x80));
      SmallVector<Value> init(rows, depthwiseInitialAccumulator(bb, jIv, c0));
      Value ihBase = mul(bb, ohIv, s.sh);
      Value iwBase = mul(bb, ow0, s.sw);
      // Column offsets (from iwBase) of each (pixel, tap).
      std::map<int64_t, int64_t> columnSlot;
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t k = 0; k < s.kw; ++k)
          columnSlot.try_emplace(r * s.sw + k * s.dw, 0);
      // The i32 lanes of every column the tile reads in input row ih.
      auto loadRow = [&](OpBuilder &kb, Value ih) -> std::map<int64_t, Value> {
        // A border row: whether input row ih exists, and
        // ih clamped into the input (loads stay inside).
        Value rowInside;
        if (rowCheck) {
          rowInside = within(kb, ih, inH);
          ih = clampInto(kb, ih, inH);
        }
        std::map<int64_t, Value> columns;
        for (auto &entry : columnSlot) {
          int64_t off = entry.first - s.padLeft;
          Value lanes;
          if (columnsKind == Columns::Static) {
            int64_t iw = ow0S * s.sw + off;
            lanes = iw < 0 || iw >= inW
                        ? zpLanes
                        : loadLanes(kb, nIv, ih, idx(kb, iw), c0, rowInside,
                                    zpLanes, !flipPacked);
          } else if (columnsKind == Columns::Dynamic) {
            Value iw = add(kb, iwBase, off);
            Value inside = within(kb, iw, inW);
            if (rowInside)
              inside = arith::AndIOp::create(kb, loc, inside, rowInside);
            lanes = loadLanes(kb, nIv, ih, clampInto(kb, iw, inW), c0, inside,
                              zpLanes, !flipPacked);
          } else {
            lanes = loadLanes(kb, nIv, ih, add(kb, iwBase, off), c0, rowInside,
                              zpLanes, !flipPacked);
          }
          columns[entry.first] = lanes;
        }
        return columns;
      };
      // The i32 lanes of every column the tile reads in kernel row khIv.
      // The input row of kernel row khIv.
      auto inputRow = [&](OpBuilder &kb, Value khIv) {
        Value ih = arith::AddIOp::create(kb, loc, ihBase, mul(kb, khIv, s.dh));
        return add(kb, ih, -s.padTop);
      };
      auto loadColumns = [&](OpBuilder &kb,
                             Value khIv) -> std::map<int64_t, Value> {
        return loadRow(kb, inputRow(kb, khIv));
      };
      // The tap weights of kernel row khIv (row 0 of packed rows).
      auto loadTaps = [&](OpBuilder &kb, Value khIv) {
        SmallVector<Value> taps;
        for (int64_t k = 0; k < s.kw; ++k) {
          SmallVector<Value> at = {jIv, khIv, idx(kb, k), c0};
          taps.push_back(
              vnni ? vector::BitCastOp::create(
                         kb, loc, byteType,
                         vector::LoadOp::create(kb, loc, accType, w, at))
                         .getResult()
                   : arith::ExtSIOp::create(
                         kb, loc, accType,
                         vector::LoadOp::create(
                             kb, loc, VectorType::get({lanes}, i16), w, at))
                         .getResult());
        }
        return taps;
      };
      // Every (pixel, tap) pair of the tile.
      auto steps = [&](OpBuilder &kb, ValueRange acc,
                       const std::map<int64_t, Value> &columns,
                       ArrayRef<Value> taps) {
        SmallVector<Value> next(acc);
        for (int64_t k = 0; k < s.kw; ++k)
          for (int64_t r = 0; r < rows; ++r) {
            Value column = columns.at(r * s.sw + k * s.dw);
            if (vnni)
              column = vector::BitCastOp::create(kb, loc, byteType, column);
            next[r] = step(kb, next[r], column, taps[k]);
          }
        return next;
      };
      if (!s.packsKernelRows())
        return reduceLoop(bb, s.kh, init,
                          [&](OpBuilder &kb, Value khIv, ValueRange acc) {
                            // Columns first, then taps (IR order).
                            std::map<int64_t, Value> columns =
                                loadColumns(kb, khIv);
                            SmallVector<Value> taps = loadTaps(kb, khIv);
                            return steps(kb, acc, columns, taps);
                          });
      // Packed kernel rows: row y's lanes, shifted left by 8y, ORed into
      // each column's vector, then one vpdpbusd per (pixel, kernel
      // column). The tiles of interior rows unroll the kernel rows; those
      // of border rows (and of rows with more border tiles than emitted
      // statically), a small part of the work, loop over them carrying
      // the columns, one row's loads in the loop body. Zen 4, one core:
      // with every tile unrolled MobileNet v2's qnn-compile took 1.37 ->
      // 1.67 s, this way 1.58 s; the layers run within 1-2% of the fully
      // unrolled ones at stride 1 and 5% at stride 2 (dw2 50 -> 53 us,
      // against 59 before the packing); looped everywhere, the gain was
      // mostly lost (dw3 104 -> 98 us, not 82).
      bool unrollRows = columnsKind != Columns::Dynamic && !rowCheck;
      // With `carry`, the columns first hold kernel rows 0 .. kh - 2 in
      // bytes 1 .. kh - 1 (the row above the band's first, less its row
      // 0), and the loop below derives every row of the band, the first
      // included: one copy of the accumulation and the epilogue.
      int64_t packRows = carry ? s.kh - 1 : s.kh;
      int64_t firstByte = carry ? 1 : 0;
      Value zero = arith::ConstantOp::create(
          bb, loc, DenseElementsAttr::get(accType, bb.getI32IntegerAttr(0)));
      // With AVX512-VBMI, byte permutes (vpermt2b) place the input rows'
      // bytes as stored in the packed columns: where the rows need no
      // check, 2 to 4 of them, and the columns are known per tile (unrolled
      // kernel rows, and the bands that carry them, never run-time checked
      // columns).
      bool permuteRows =
          vbmi && !rowCheck && columnsKind != Columns::Dynamic && s.kh <= 4;
      auto bytes16 = VectorType::get({16}, i8);
      // (zpLanes holds the zero point's byte as stored for s8 input.)
      Value zpBytes =
          permuteRows && zpLanes
              ? arith::TruncIOp::create(bb, loc, bytes16, zpLanes).getResult()
              : Value();
      // The bytes of every column the tile reads in input row ih (the zero
      // point's outside the input).
      auto loadRowBytes = [&](OpBuilder &kb, Value ih) {
        std::map<int64_t, Value> columns;
        for (auto &entry : columnSlot) {
          int64_t off = entry.first - s.padLeft;
          auto load = [&](Value iw) -> Value {
            return vector::LoadOp::create(kb, loc, bytes16, x,
                                          ValueRange{nIv, ih, iw, c0});
          };
          int64_t iw = ow0S * s.sw + off;
          columns[entry.first] = columnsKind == Columns::Inside
                                     ? load(add(kb, iwBase, off))
                                 : iw < 0 || iw >= inW ? zpBytes
                                                       : load(idx(kb, iw));
        }
        return columns;
      };
      // 64 bytes: lo's 16, then hi's 16 if given; the rest undefined.
      auto widenBytes = [&](OpBuilder &kb, Value lo,
                            Value hi = Value()) -> Value {
        SmallVector<int64_t> mask;
        for (int64_t j = 0; j < 64; ++j)
          mask.push_back(j < 16 ? j : j < 32 && hi ? j : -1);
        return vector::ShuffleOp::create(kb, loc, lo, hi ? hi : lo, mask);
      };
      // vpermt2b: byte j of the result is byte index[j] of the 128 bytes
      // of the two tables, as i32 lanes.
      auto permuteBytes = [&](OpBuilder &kb, Value first, Value index,
                              Value second) -> Value {
        return vector::BitCastOp::create(
            kb, loc, accType,
            LLVM::CallIntrinsicOp::create(
                kb, loc, byteType,
                kb.getStringAttr("llvm.x86.avx512.vpermi2var.qi.512"),
                ValueRange{first, index, second})
                .getResult(0));
      };
      // With VBMI, unrolled kernel rows pack by byte permutes: per column,
      // rows 0 and 1 in one 64-byte table (16 bytes each), rows 2 and 3 in
      // the other, and one vpermt2b takes row y's byte c into byte y of
      // lane c (bytes past the kernel rows meet zero weight bytes): a
      // 16-byte insert or two and one permute per column instead of kh
      // zero-extending loads, kh - 1 shifts and ORs. Zen 5, one thread:
      // dw2 (stride 2) 25.7 -> 21.4 us; two threads, whose rows all pack
      // anew, dw1 23 -> 19, dw2 13.7 -> 11.1, dw7 6.6 -> 5.8.
      SmallVector<Value> packed;
      if (permuteRows && unrollRows && !carry) {
        SmallVector<std::map<int64_t, Value>> rows;
        for (int64_t y = 0; y < s.kh; ++y)
          rows.push_back(loadRowBytes(bb, inputRow(bb, idx(bb, y))));
        SmallVector<int8_t> index;
        for (int64_t c = 0; c < 16; ++c)
          for (int64_t y = 0; y < 4; ++y) {
            // Row y's table (rows 0-1 in the first, then 2-3; with two
            // rows, row 1 alone in the second) and position in it.
            int64_t table = s.kh == 2 ? y : y / 2;
            int64_t pos = s.kh == 2 ? 0 : y % 2;
            index.push_back(static_cast<int8_t>(
                y < s.kh ? 64 * table + 16 * pos + c : 4 * c + y));
          }
        Value packIndex =
            constant(DenseElementsAttr::get(byteType, ArrayRef<int8_t>(index)));
        for (auto &entry : columnSlot) {
          auto row = [&](int64_t y) { return rows[y].at(entry.first); };
          Value first = s.kh == 2 ? widenBytes(bb, row(0))
                                  : widenBytes(bb, row(0), row(1));
          Value second = s.kh == 2   ? widenBytes(bb, row(1))
                         : s.kh == 3 ? widenBytes(bb, row(2))
                                     : widenBytes(bb, row(2), row(3));
          packed.push_back(permuteBytes(bb, first, packIndex, second));
        }
      } else {
        SmallVector<Value> packedInit(columnSlot.size(), zero);
        packed = reduceLoop(
            bb, packRows, packedInit,
            [&](OpBuilder &kb, Value khIv, ValueRange cols) {
              // Unrolled, the first row is the lanes as loaded and the
              // shifts are constants.
              std::optional<int64_t> row = getConstantIntValue(khIv);
              Value shift;
              if (row) {
                shift = arith::ConstantOp::create(
                    kb, loc,
                    DenseElementsAttr::get(
                        accType, kb.getI32IntegerAttr(8 * (*row + firstByte))));
              } else {
                Value byte = add(kb, khIv, firstByte);
                Value bits = arith::IndexCastOp::create(
                    kb, loc, i32,
                    arith::MulIOp::create(kb, loc, byte, idx(kb, 8)));
                shift = vector::BroadcastOp::create(kb, loc, accType, bits);
              }
              std::map<int64_t, Value> lanes = loadColumns(kb, khIv);
              SmallVector<Value> next;
              for (auto [col, entry] : llvm::zip_equal(cols, columnSlot)) {
                Value v = lanes.at(entry.first);
                next.push_back(
                    row == 0 && !firstByte
                        ? v
                        : arith::OrIOp::create(
                              kb, loc, col,
                              arith::ShLIOp::create(kb, loc, v, shift))
                              .getResult());
              }
              return next;
            },
            unrollRows);
      }
      // `byte` in bytes [first, first + count) of every lane.
      auto inRowBytes = [&](uint8_t byte, int64_t first, int64_t count) {
        uint32_t bits = 0;
        for (int64_t y = first; y < first + count; ++y)
          bits |= static_cast<uint32_t>(byte) << (8 * y);
        return splat(bits);
      };
      Value flipBytes =
          flipPacked ? inRowBytes(0x80, firstByte, packRows) : Value();
      std::map<int64_t, Value> columns;
      for (auto [col, entry] : llvm::zip_equal(packed, columnSlot))
        columns[entry.first] =
            flipPacked ? arith::XOrIOp::create(bb, loc, col, flipBytes) : col;
      SmallVector<Value> taps = loadTaps(bb, idx(bb, 0));
      // With a window coefficient d (KernelSpec::d), each packed column's
      // sum of its kernel rows' bytes times d (one vpdpbusd against d in
      // those bytes) is added to the accumulator of every pixel whose
      // window holds the column, before the taps: the weights are stored
      // less d.
      Value windowBytes;
      if (s.d != 0)
        windowBytes = vector::BitCastOp::create(
            bb, loc, byteType,
            inRowBytes(static_cast<uint8_t>(s.d), 0, s.kh));
      auto withWindowSums = [&](OpBuilder &kb,
                                const std::map<int64_t, Value> &cols) {
        SmallVector<Value> accs(init);
        if (!windowBytes)
          return accs;
        std::map<int64_t, Value> sums;
        for (auto &[slot, col] : cols)
          sums[slot] =
              step(kb, zero, vector::BitCastOp::create(kb, loc, byteType, col),
                   windowBytes);
        for (int64_t r = 0; r < rows; ++r)
          for (int64_t k = 0; k < s.kw; ++k)
            accs[r] = arith::AddIOp::create(kb, loc, accs[r],
                                            sums.at(r * s.sw + k * s.dw));
        return accs;
      };
      if (!carry)
        return steps(bb, withWindowSums(bb, columns), columns, taps);
      // The band's rows: output row oh + i reads input rows one lower than
      // row oh + i - 1, so each packed column drops its byte 0 (a right
      // shift by 8) and takes input row oh + i + kh - 1 - padTop, flipped
      // for s8 input, as byte kh - 1 (by a byte permute with VBMI, below):
      // a load, two shifts and one vpternlogd per column instead of kh
      // loads, kh - 1 shifts and the ORs (Zen 4, AOT, one thread: MobileNet
      // v2 2.28-2.30 -> 2.21-2.24 ms, the generated MobileNet v1 3.07-3.10
      // -> 3.05). Columns outside the input take the zero point's lanes as
      // their new row.
      int64_t top = 8 * (s.kh - 1);
      Value eight = splat(8), topShift = splat(top);
      Value topFlip = flipPacked ? splat(0x80u << top) : Value();
      SmallVector<Value> carried;
      for (auto &entry : columns)
        carried.push_back(entry.second);
      // With AVX512-VBMI, one two-source byte permute (vpermt2b) per
      // column does the slide: the carried column's bytes 1 .. kh - 1 move
      // down, the new row's 16 bytes as stored (loadRowBytes) become byte
      // kh - 1 of their lanes, byte 3 of a 3-row kernel stays 0; the same
      // xor then flips the new byte for s8 input. One instruction and a
      // 16-byte load instead of the zero-extending load, two shifts and the
      // OR (Zen 5, one thread: MobileNet v1's dw1 36.0 -> 29.2 us, dw3 36.2
      // -> 31.1, MobileNet v2's 56x56x144 43 -> 36).
      Value slideIndex;
      if (permuteRows) {
        SmallVector<int8_t> index;
        for (int64_t c = 0; c < 16; ++c)
          for (int64_t y = 0; y < 4; ++y)
            index.push_back(static_cast<int8_t>(y < s.kh - 1    ? 4 * c + y + 1
                                                : y == s.kh - 1 ? 64 + c
                                                                : 4 * c + y));
        slideIndex =
            constant(DenseElementsAttr::get(byteType, ArrayRef<int8_t>(index)));
      }
      scf::ForOp::create(
          bb, loc, idx(bb, 0), carry->count, idx(bb, 1), carried,
          [&](OpBuilder &lb, Location, Value i, ValueRange cols) {
            Value oh = arith::AddIOp::create(lb, loc, ohIv, i);
            Value ih = add(lb, oh, (s.kh - 1) * s.dh - s.padTop);
            // The new row: its bytes (widened for the permutes) or its
            // lanes.
            std::map<int64_t, Value> fresh;
            if (permuteRows) {
              fresh = loadRowBytes(lb, ih);
              for (auto &entry : fresh)
                entry.second = widenBytes(lb, entry.second);
            } else {
              fresh = loadRow(lb, ih);
            }
            std::map<int64_t, Value> next;
            SmallVector<Value> yields;
            for (auto [col, entry] : llvm::zip_equal(cols, columnSlot)) {
              Value v;
              if (permuteRows) {
                v = permuteBytes(
                    lb, vector::BitCastOp::create(lb, loc, byteType, col),
                    slideIndex, fresh.at(entry.first));
              } else {
                // In this order (the IR is the same whatever the C++
                // compiler's order of evaluating arguments).
                Value in = arith::ShLIOp::create(lb, loc, fresh.at(entry.first),
                                                 topShift);
                Value down = arith::ShRUIOp::create(lb, loc, col, eight);
                v = arith::OrIOp::create(lb, loc, down, in);
              }
              if (topFlip)
                v = arith::XOrIOp::create(lb, loc, v, topFlip);
              next[entry.first] = v;
              yields.push_back(v);
            }
            carry->store(lb, oh,
                         steps(lb, withWindowSums(lb, next), next, taps));
            scf::YieldOp::create(lb, loc, yields);
          });
      return SmallVector<Value>{};
    };
    // Applies the epilogue to a tile's accumulators and stores its pixels.
    auto storeTile = [&](OpBuilder &bb, Value nIv, Value ohIv, Value ow0,
                         int64_t rows, Value jIv, Value c0,
                         ArrayRef<Value> accs) {
      SmallVector<Value> constants;
      if (epilogue)
        constants = loadChannelConstants(bb, c0);
      auto store = [&](Value v, int64_t r) {
        vector::StoreOp::create(
            bb, loc, v, out, ValueRange{nIv, ohIv, add(bb, ow0, r), jIv, c0});
      };
      // Pixels narrow together, four (or two, or one) at a
      // time (packBytes), then one 16-byte store each.
      if (tail) {
        // Every vector holds the same channels.
        std::optional<PackedTail> perChannel =
            packTail(bb, *tail, SmallVector<ArrayRef<Value>>(4, constants));
        for (int64_t g = 0; g < rows;) {
          int64_t count = rows - g >= 4 ? 4 : rows - g >= 2 ? 2 : 1;
          SmallVector<Value> vals;
          for (int64_t r = g; r < g + count; ++r)
            vals.push_back(applyEpilogue(bb, accs[r], constants, &*tail));
          if (count == 1)
            vals.push_back(vals.front());
          // Opaque: LLVM would otherwise fold the vpermd
          // into a permute per 16-byte extract (nine
          // shuffles instead of one).
          Value packed =
              packBytes(bb, vals, *tail, perChannel ? &*perChannel : nullptr,
                        /*opaque=*/true);
          for (int64_t k = 0; k < count; ++k)
            store(vector::ExtractStridedSliceOp::create(
                      bb, loc, packed, ArrayRef<int64_t>{16 * k},
                      ArrayRef<int64_t>{16}, ArrayRef<int64_t>{1}),
                  g + k);
          g += count;
        }
        return;
      }
      for (int64_t r = 0; r < rows; ++r)
        store(epilogue ? applyEpilogue(bb, accs[r], constants) : accs[r], r);
    };
    // The loops over the multiplier and the channel blocks of a tile;
    // `body` builds one block's accumulation and stores.
    auto channelBlocks =
        [&](OpBuilder &tb,
            function_ref<void(OpBuilder &, Value, Value, Value)> body) {
          scf::ForOp::create(
              tb, loc, idx(tb, 0), idx(tb, s.mult), idx(tb, 1), ValueRange{},
              [&](OpBuilder &jb, Location, Value jIv, ValueRange) {
                scf::ForOp::create(
                    jb, loc, idx(jb, 0), idx(jb, cBlocks), idx(jb, 1),
                    ValueRange{},
                    [&](OpBuilder &bb, Location, Value cb, ValueRange) {
                      Value c0 = mul(bb, cb, lanes);
                      Value zpLanes =
                          s.inH ? vector::LoadOp::create(bb, loc, accType, corr,
                                                         idx(bb, s.op))
                                      .getResult()
                                : Value();
                      body(bb, jIv, c0, zpLanes);
                      scf::YieldOp::create(bb, loc);
                    });
                scf::YieldOp::create(jb, loc);
              });
        };
    // One tile: its accumulation and stores for every channel block; with
    // `bandRows` (a band whose rows carry, see RowCarry), also the tiles
    // at the same columns of the bandRows - 1 output rows below.
    auto tileBody = [&](OpBuilder &tb, Value nIv, Value ohIv, Value ow0,
                        int64_t ow0S, int64_t rows, bool rowCheck,
                        Columns columnsKind, Value bandRows = Value()) {
      channelBlocks(tb, [&](OpBuilder &bb, Value jIv, Value c0, Value zpLanes) {
        auto storeRow = [&](OpBuilder &sb, Value oh, ArrayRef<Value> accs) {
          storeTile(sb, nIv, oh, ow0, rows, jIv, c0, accs);
        };
        RowCarry carry{bandRows, storeRow};
        bool carries = bandRows && !rowCheck;
        SmallVector<Value> accs = tileAccumulators(
            bb, nIv, ohIv, ow0, ow0S, rows, rowCheck, columnsKind, jIv, c0,
            zpLanes, carries ? &carry : nullptr);
        if (!carries)
          storeTile(bb, nIv, ohIv, ow0, rows, jIv, c0, accs);
      });
    };
    // One output row as tiles of tileRows pixels from ow = 0 and a last
    // tile of the rest. The tiles whose taps all fall inside the input
    // along the row run as a loop; the others (at most kStaticTiles on
    // each side, else a loop of checked tiles) and the last one are
    // emitted at their constant positions, so that their columns outside
    // the input are known here. (With single checked pixels instead, a
    // 14-pixel row ran 6 of its pixels one at a time.)
    constexpr int64_t kStaticTiles = 2;
    int64_t fullTiles = s.ow / tileRows, rest = s.ow % tileRows;
    // The number of tiles of a row taken as full tiles only (the last one
    // ending at the row's last pixel, see tileStart).
    int64_t rowTileCount = (s.ow + tileRows - 1) / tileRows;
    int64_t cleanA = std::min(fullTiles, (owA + tileRows - 1) / tileRows);
    int64_t cleanB = std::max(cleanA, std::min(fullTiles, owB / tileRows));
    // The first column of tile t of a row of full tiles, the last one
    // (with a rest) ending at the row's last pixel.
    auto tileStart = [&](OpBuilder &ob, Value t) {
      return rest ? clampedTileStart(ob, t, tileRows, s.ow)
                  : mul(ob, t, tileRows);
    };
    auto rowTiles = [&](OpBuilder &ob, Value nIv, Value ohIv, bool rowCheck,
                        Value bandRows = Value()) {
      // A border row (a few per image) is one loop of checked tiles, the
      // last one ending at the row's last pixel (recomputing pixels of the
      // tile before it, in the same row: the same thread), so that border
      // rows cost one tile body rather than a row's three or four: the
      // self-padding kernels' code was about four times the padded-copy
      // kernels' (compile time).
      if (rowCheck && s.inH != 0 && s.ow >= tileRows) {
        forLoop(ob, 0, rowTileCount, 1, [&](OpBuilder &lb, Value t) {
          Value ow0 = tileStart(lb, t);
          tileBody(lb, nIv, ohIv, ow0, 0, tileRows, /*rowCheck=*/true,
                   Columns::Dynamic);
        });
        return;
      }
      // An interior row of a self-padding kernel on the int16 and generic
      // targets, with its few border tiles at constant positions: one
      // loop over the tiles, each channel block's accumulation chosen by
      // an scf.index_switch on the tile (its static tiles as cases, the
      // interior ones as the default) and one epilogue after it for them
      // all, instead of an epilogue per tile variant (each 16-lane
      // epilogue costs LLVM's instruction selection about 8 M
      // instructions). A rest is one more tile, ending at the row's last
      // pixel. (The VNNI kernel keeps its separate tiles, and so do
      // stride-2 rows: merged, MobileNet v1's dw2 ran 8% slower on Zen 3,
      // dw1 and dw3 at stride 1 the same.)
      if (!vnni && !rowCheck && s.inH != 0 && s.sw == 1 && s.ow >= tileRows &&
          cleanA <= kStaticTiles && fullTiles - cleanB <= kStaticTiles &&
          cleanB > cleanA) {
        // The static tiles: (index, first column).
        SmallVector<std::pair<int64_t, int64_t>> staticTiles;
        for (int64_t t = 0; t < cleanA; ++t)
          staticTiles.push_back({t, t * tileRows});
        for (int64_t t = cleanB; t < fullTiles; ++t)
          staticTiles.push_back({t, t * tileRows});
        if (rest)
          staticTiles.push_back({fullTiles, s.ow - tileRows});
        SmallVector<int64_t> cases;
        for (auto [tile, start] : staticTiles)
          cases.push_back(tile);
        forLoop(ob, 0, rowTileCount, 1, [&](OpBuilder &lb, Value t) {
          Value ow0 = tileStart(lb, t);
          channelBlocks(lb, [&](OpBuilder &bb, Value jIv, Value c0,
                                Value zpLanes) {
            // The static tiles' starts, defined before the switch that
            // uses them.
            SmallVector<Value> starts;
            for (auto [tile, start] : staticTiles)
              starts.push_back(idx(bb, start));
            SmallVector<Type> types(tileRows, accType);
            auto tileSwitch = scf::IndexSwitchOp::create(bb, loc, types, t,
                                                         cases, cases.size());
            auto accumulate = [&](Region &region, Value start, int64_t startS,
                                  Columns kind) {
              OpBuilder cb(region.getContext());
              cb.setInsertionPointToStart(&region.emplaceBlock());
              SmallVector<Value> accs =
                  tileAccumulators(cb, nIv, ohIv, start, startS, tileRows,
                                   /*rowCheck=*/false, kind, jIv, c0, zpLanes);
              scf::YieldOp::create(cb, loc, accs);
            };
            for (auto [i, tile] : llvm::enumerate(staticTiles))
              accumulate(tileSwitch.getCaseRegions()[i], starts[i], tile.second,
                         Columns::Static);
            accumulate(tileSwitch.getDefaultRegion(), ow0, 0, Columns::Inside);
            SmallVector<Value> accs(tileSwitch.getResults());
            storeTile(bb, nIv, ohIv, ow0, tileRows, jIv, c0, accs);
          });
        });
        return;
      }
      // (A Dynamic tile's columns are checked per row: it does not carry
      // rows, and a band of rows runs it once per row.)
      auto borderTiles = [&](int64_t lo, int64_t hi) {
        if (hi - lo > kStaticTiles) {
          auto dynamicTiles = [&](OpBuilder &rb, Value oh) {
            forLoop(rb, lo * tileRows, hi * tileRows, tileRows,
                    [&](OpBuilder &lb, Value ow0) {
                      tileBody(lb, nIv, oh, ow0, 0, tileRows, rowCheck,
                               Columns::Dynamic);
                    });
          };
          if (!bandRows) {
            dynamicTiles(ob, ohIv);
            return;
          }
          scf::ForOp::create(
              ob, loc, idx(ob, 0), bandRows, idx(ob, 1), ValueRange{},
              [&](OpBuilder &rb, Location, Value i, ValueRange) {
                dynamicTiles(rb, arith::AddIOp::create(rb, loc, ohIv, i));
                scf::YieldOp::create(rb, loc);
              });
          return;
        }
        for (int64_t t = lo; t < hi; ++t)
          tileBody(ob, nIv, ohIv, idx(ob, t * tileRows), t * tileRows, tileRows,
                   rowCheck, Columns::Static, bandRows);
      };
      borderTiles(0, cleanA);
      forLoop(ob, cleanA * tileRows, cleanB * tileRows, tileRows,
              [&](OpBuilder &lb, Value ow0) {
                tileBody(lb, nIv, ohIv, ow0, 0, tileRows, rowCheck,
                         Columns::Inside, bandRows);
              });
      borderTiles(cleanB, fullTiles);
      if (rest)
        tileBody(ob, nIv, ohIv, idx(ob, fullTiles * tileRows),
                 fullTiles * tileRows, rest, rowCheck, Columns::Static,
                 bandRows);
    };
    int64_t work =
        s.n * s.oh * s.ow * s.op * s.kh * s.kw * kDepthwiseWorkFactor;
    // Output rows [lo, hi) (`skip` rows skipped after `split`), each image
    // and row once (serial code).
    auto rowsLoop = [&](OpBuilder &ob, int64_t count, int64_t lo, int64_t split,
                        int64_t skip, bool rowCheck) {
      if (count <= 0)
        return;
      auto row = [&](OpBuilder &rb, Value nIv, Value i) {
        Value oh = add(rb, i, lo);
        if (skip) {
          Value before = arith::CmpIOp::create(
              rb, loc, arith::CmpIPredicate::ult, i, idx(rb, split));
          oh = arith::SelectOp::create(rb, loc, before, oh, add(rb, oh, skip));
        }
        rowTiles(rb, nIv, oh, rowCheck);
      };
      forLoop(ob, 0, s.n, 1, [&](OpBuilder &nb, Value nIv) {
        forLoop(nb, 0, count, 1,
                [&](OpBuilder &rb, Value i) { row(rb, nIv, i); });
      });
    };
    // Serial code: packed kernel rows at stride 1 carry their packed
    // columns down the interior rows, one band of them (tileAccumulators).
    // With threads, as bands of up to 8 rows beside the border rows, the
    // layers ran faster or slower than the rows one by one from run to run
    // (Zen 4, 2 threads: dw3 40 or 54 us against 45, the mode changing
    // between benchmark instances in one process); the parallel loop
    // stays over rows.
    int64_t interior = ohB - ohA;
    bool threaded = parallel && s.n * s.oh > 1 && work >= parallelMinWork;
    if (vnni && s.packsKernelRows() && s.sh == 1 && s.dh == 1 && interior > 1 &&
        !threaded) {
      rowsLoop(b, ohA + (s.oh - ohB), 0, ohA, ohB - ohA, /*rowCheck=*/true);
      forLoop(b, 0, s.n, 1, [&](OpBuilder &nb, Value nIv) {
        rowTiles(nb, nIv, idx(nb, ohA), /*rowCheck=*/false, idx(nb, interior));
      });
      return;
    }
    // With threads, one parallel loop over every output row, a row
    // checking its input rows when it is a border row (two loops were two
    // thread-team wake-ups, the border one with a row or two per thread).
    if (threaded) {
      parallelOverImages(b, s.oh, [&](OpBuilder &pb, Value nIv, Value oh) {
        if (ohA == 0 && ohB == s.oh) {
          rowTiles(pb, nIv, oh, /*rowCheck=*/false);
          return;
        }
        Value above = arith::CmpIOp::create(pb, loc, arith::CmpIPredicate::ult,
                                            oh, idx(pb, ohA));
        Value below = arith::CmpIOp::create(pb, loc, arith::CmpIPredicate::uge,
                                            oh, idx(pb, ohB));
        Value border = arith::OrIOp::create(pb, loc, above, below);
        scf::IfOp::create(
            pb, loc, border,
            [&](OpBuilder &tb, Location) {
              rowTiles(tb, nIv, oh, /*rowCheck=*/true);
              scf::YieldOp::create(tb, loc);
            },
            [&](OpBuilder &eb, Location) {
              rowTiles(eb, nIv, oh, /*rowCheck=*/false);
              scf::YieldOp::create(eb, loc);
            });
      });
      return;
    }
    // The border rows above and below the interior ones, as one loop.
    rowsLoop(b, ohA + (s.oh - ohB), 0, ohA, ohB - ohA, /*rowCheck=*/true);
    rowsLoop(b, ohB - ohA, ohA, 0, 0, /*rowCheck=*/false);
  }

  /// Whether the index `v` is in [0, extent).
  Value within(OpBuilder &ob, Value v, int64_t extent) {
    Value lo = arith::CmpIOp::create(ob, loc, arith::CmpIPredicate::sge, v,
                                     idx(ob, 0));
    Value hi = arith::CmpIOp::create(ob, loc, arith::CmpIPredicate::slt, v,
                                     idx(ob, extent));
    return arith::AndIOp::create(ob, loc, lo, hi);
  }
  /// The index `v` clamped into [0, extent).
  Value clampInto(OpBuilder &ob, Value v, int64_t extent) {
    Value lo = arith::MaxSIOp::create(ob, loc, v, idx(ob, 0));
    return arith::MinSIOp::create(ob, loc, lo, idx(ob, extent - 1));
  }

  /// The lanes() channels at (n, ih, iw, c0) as i32 lanes: DepthwiseVNNI's hold
  /// the unsigned byte (x + 128 for s8 input; without `flip`, the byte as
  /// stored, zero-extended, which the caller flips), the others x, extended
  /// by its signedness; where `inside` (if given) is false, the zero
  /// point's lanes `zpLanes` instead.
  Value loadLanes(OpBuilder &ob, Value nIv, Value ih, Value iw, Value c0,
                  Value inside, Value zpLanes, bool flip = true) {
    Type i8 = ob.getI8Type(), i32 = ob.getI32Type();
    auto accType = VectorType::get({s.lanes()}, i32);
    Value xv = vector::LoadOp::create(ob, loc, VectorType::get({s.lanes()}, i8),
                                      x, ValueRange{nIv, ih, iw, c0});
    Value lanes;
    if (s.flavor != KernelFlavor::DepthwiseVNNI) {
      lanes = s.inputSigned
                  ? arith::ExtSIOp::create(ob, loc, accType, xv).getResult()
                  : arith::ExtUIOp::create(ob, loc, accType, xv).getResult();
    } else if (s.inputSigned && flip) {
      lanes = arith::AddIOp::create(
          ob, loc, arith::ExtSIOp::create(ob, loc, accType, xv),
          arith::ConstantOp::create(
              ob, loc,
              DenseElementsAttr::get(accType, ob.getI32IntegerAttr(128))));
    } else {
      lanes = arith::ExtUIOp::create(ob, loc, accType, xv);
    }
    if (inside)
      lanes = arith::SelectOp::create(ob, loc, inside, lanes, zpLanes);
    return lanes;
  }
};
} // namespace

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
