//===- ConvKernelBuilder.h - conv kernel bodies -----------------*- C++ -*-===//
//
// KernelBuilder builds the body of one convolution or dense kernel (see
// ConvKernels.cpp for the kernels' contract, their flavors and the packed
// weights). Its parts live in four files: ConvKernelBuilder.cpp (the
// accumulators' start, pixel tiles and their threads, window sums, loads
// and multiply-add steps), ConvKernelEpilogue.cpp (the fused epilogue:
// requantize forms, packed narrowing, stores), ConvKernelGemm.cpp
// (buildGemm) and ConvKernelDepthwise.cpp (buildDepthwiseRowTiles).
//
//===----------------------------------------------------------------------===//

#ifndef QNN_LIB_CONVERSION_QNNTOLINALG_CONVKERNELBUILDER_H
#define QNN_LIB_CONVERSION_QNNTOLINALG_CONVKERNELBUILDER_H

#include "QNNToLinalgInternal.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>
#include <utility>

namespace mlir::qnn::lowering {

/// Whether a GEMM kernel of `channels` stored output channels pairs pixels
/// (KernelBuilder::pairsPixels): VNNI, at most half of one 16-lane block.
inline bool pairsChannels(KernelFlavor flavor, int64_t channels) {
  return flavor == KernelFlavor::VNNI && channels > 0 && channels <= 8;
}

/// A depthwise multiply-add counts this many GEMM multiply-adds against
/// `parallel-min-work` (it runs at about an eighth of their rate: one per
/// lane per instruction instead of four, and more loads per product).
constexpr int64_t kDepthwiseWorkFactor = 8;

/// A GEMM kernel of few pixels (a fully connected layer) streams its
/// weights from L2 or L3 rather than reusing them across pixels: each
/// weight counts this many multiply-adds against `parallel-min-work`, and
/// threads split its output channels. MobileNet v1's 1024 -> 1000 layer
/// read its 1 MB of weights at about 50 bytes per ns on one core (Zen 4).
constexpr int64_t kStreamedWeightWorkFactor = 4;

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
constexpr int64_t kGroupMajorWeightBytes = 32 * 1024;

/// vpdpbusd with generic vector ops: each i32 lane of `acc` adds the four
/// products of unsigned bytes of `a` and signed bytes of `w`.
Value emulateVpdpbusd(OpBuilder &b, Location l, Value acc, Value a, Value w);

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
  arith::AddIOp leadingBiasAdd();

  /// The bias that leadingBiasAdd adds (a per-channel argument or a
  /// constant), or null without one.
  Value leadingBias();

  /// The number of per-channel vectors the epilogue reads besides the bias
  /// (which the accumulators start from): what it needs in registers, or
  /// reloads, beside the accumulators.
  int64_t epilogueChannelVectors();

  /// Whether the epilogue rescales with per-channel right shifts applied
  /// per lane (a double-rounding multiply's, or a single-rounding one's
  /// that no common shift replaces): four more vectors per channel block.
  /// Not the offset form's (OffsetProduct), one i32 shift of each lane
  /// after its add of K: one vector per block, which the pipelined
  /// kernels afford (Zen 5, one thread, pw1 with per-channel shifts 77 ->
  /// 64 us, as fast as with one shift).
  bool perLaneShifts();

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
  bool pairsPixels() const;

  /// Whether the GEMM kernel is a flattened pointwise one (1x1 at stride 1,
  /// its [h, w] plane seen as one row: hp = 1): consecutive pixels' bytes,
  /// in and out, are contiguous.
  bool flatPointwise() const {
    return s.kh == 1 && s.kw == 1 && s.sh == 1 && s.sw == 1 && s.hp == 1;
  }

  /// A constant i1 vector of `width` lanes, lanes [first, first + count)
  /// set.
  Value laneMask(int64_t width, int64_t first, int64_t count);

  /// `slot`, made once: `source` collapsed by `groups`, right after
  /// `source` (the kernel's input or output view).
  Value collapsedOnce(Value &slot, Value source,
                      SmallVector<ReassociationIndices> groups);

  /// acc + the vpdpbusd of `a` (unsigned bytes) and `w` (signed bytes), at
  /// acc's width (4, 8 or 16 i32 lanes), or its generic emulation.
  Value vpdpbusd(OpBuilder &ob, Value acc, Value a, Value w);

  /// A vector of `type` (16 or 64 elements: one block's lanes) from
  /// `memref` at `indices`; when pairing pixels (pairsPixels), its first
  /// half loaded and repeated in the second.
  Value loadBlock(OpBuilder &ob, VectorType type, Value memref,
                  ValueRange indices);

  /// The initial accumulator of the output channels [ch, ch + lanes):
  /// `base` (zero, or a kernel's correction terms) plus the epilogue's
  /// leading bias, if any, or plus the offset form's bias + D.
  Value initialAccumulator(OpBuilder &ob, Value base, Value ch);

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
  ArrayRef<SmallVector<ArgumentRange>> argumentRanges();

  /// Whether every layer sharing the kernel has a range for the epilogue's
  /// argument `arg` (an integer argument, recorded).
  bool hasRanges(BlockArgument arg);

  /// The range of term t (its arguments have ranges) over the channels of
  /// layer m.
  std::pair<int64_t, int64_t> termRange(const TailTerm &t, size_t m);

  /// The range of the epilogue's argument `arg` (it has ranges) over every
  /// layer's channels.
  std::pair<int64_t, int64_t> argumentHull(BlockArgument arg) {
    return termHull(TailTerm{0, {arg.getArgNumber()}});
  }

  /// Whether term a <= term b in every channel of every layer sharing the
  /// kernel (per layer, a's largest value against b's smallest).
  bool termAtMost(const TailTerm &a, const TailTerm &b);

  /// The range of term t over every layer's channels.
  std::pair<int64_t, int64_t> termHull(const TailTerm &t);

  /// The epilogue's narrowing tail, when packed stores can replace it: 16
  /// lanes without emulation (the packs are AVX512BW instructions) or the
  /// 8 lanes of the Int16 flavor (AVX2 packs, packBytes8), the bounds
  /// within one 8-bit range and |zp| <= 32512 (see packBytes). The zero
  /// point and the clamp bounds are constants, or per-channel arguments
  /// (the lifted constants of a kernel that several layers share) whose
  /// ranges satisfy the same conditions.
  std::optional<NarrowingTail> narrowingTail();

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
  bool halvedTail(const NarrowingTail &t, const RoundedProduct &r);

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
  bool zeroPointInProduct(const NarrowingTail &t, const RoundedProduct &r);

  /// The result of the LLVM intrinsic `name` on `args`.
  Value intrinsic(OpBuilder &ob, StringRef name, Type type, ValueRange args);

  /// The first step of the packed narrowing: `packssdw` (the 512-bit or
  /// the AVX2 intrinsic) of the i32 vectors a and b into `words`, then the
  /// tail's zero point added with i16 saturation (`zpWords` where it is per
  /// channel). A halved tail adds 1 + 2 zp (its zpWords hold that) and
  /// shifts the words right by 1.
  Value packWords(OpBuilder &ob, StringRef packssdw, VectorType words, Value a,
                  Value b, const NarrowingTail &tail, Value zpWords = {});

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
                       ArrayRef<Value> constants);

  /// The per-channel parts of `tail` for the vectors that packBytes (16
  /// lanes: 4 or 2 vectors) or packBytes8 (8 lanes: 2) narrows together,
  /// vector k having the per-channel constants constants[k]: packed by the
  /// same instructions as the outputs, so that each word or byte lines up
  /// with its output's. Exact: |zp| <= 32512 and the bounds lie in the
  /// pack's 8-bit range (narrowingTail). Computed once per channel block,
  /// not per pixel.
  std::optional<PackedTail> packTail(OpBuilder &ob, const NarrowingTail &tail,
                                     ArrayRef<ArrayRef<Value>> constants);

  /// The byte clamp of the packed narrowing: the bytes `packed` (the
  /// pack's signed or unsigned range) clamped to [tail.lo, tail.hi] where
  /// that is narrower.
  Value clampBytes(OpBuilder &ob, Value packed, const NarrowingTail &tail,
                   const PackedTail *perChannel = nullptr);

  /// Narrows four (or two) i32 vectors of 16 lanes with `tail` and returns
  /// their bytes in order (v0's 16, then v1's, ...; with two vectors, in the
  /// low 32 of the 64 bytes): vpackssdw (saturating to i16), a saturating
  /// i16 add of the zero point, one vpacksswb or vpackuswb, a byte clamp
  /// when [lo, hi] is narrower than the pack's range, and one vpermd
  /// putting each vector's four dwords together (the packs interleave
  /// 128-bit lanes). Exact: with |zp| <= 32512 every value that saturates
  /// to i16 also lies outside [lo, hi] after adding zp.
  Value packBytes(OpBuilder &ob, ArrayRef<Value> v, const NarrowingTail &tail,
                  const PackedTail *perChannel, bool opaque = false);

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
                   const PackedTail *perChannel);

  /// packBytes8 for two pixels at once: the blocks v0, v1 of one pixel and
  /// w0, w1 of another (the same 16 channels) as 32 bytes, the first
  /// pixel's 16 then the second's. Two vpackssdw, one byte pack of both
  /// and one vpermd: 4 instructions per 32 outputs, where packBytes8 per
  /// pixel takes 3 (LLVM makes its vpermd and the extract of the low half
  /// a vextracti128 and a vpunpckldq, 4) per 16.
  Value packBytes8Pair(OpBuilder &ob, Value v0, Value v1, Value w0, Value w1,
                       const NarrowingTail &tail, const PackedTail *perChannel);

  /// The epilogue's per-channel constants of the output channels [ch, ch +
  /// lanes), one vector per channel argument. Loaded once per channel block
  /// of a tile and shared by its pixels (the kernel's output stores may
  /// alias the constants as far as LLVM knows, so it would not merge the
  /// loads of different pixels, nor what the epilogue computes from them).
  SmallVector<Value> loadChannelConstants(OpBuilder &ob, Value ch);

  /// Applies the epilogue function to the accumulator vector `acc` of the
  /// output channels whose per-channel constants are `constants`
  /// (loadChannelConstants): its operations, on vectors of `lanes`
  /// elements; with `stop`, only up to the template value stop->y (the
  /// start of a narrowing tail that packBytes replaces), which it returns
  /// as the tail asks (NarrowingTail::productAddend, halved).
  Value applyEpilogue(OpBuilder &ob, Value acc, ArrayRef<Value> constants,
                      const NarrowingTail *stop = nullptr);

  /// Whether `v` is the integer constant `c`.
  static bool isConstantInt(Value v, int64_t c);

  /// A factor of an epilogue's 64-bit product as an i32 value: the operand
  /// of a sign extension from i32, or an i64 constant in the i32 range
  /// (itself); null otherwise.
  static Value i32Factor(Value v);

  /// `op` as a trunci from i64 to i32 (the end of every fixed-point
  /// product the epilogue matchers look for), or null.
  static arith::TruncIOp truncI64ToI32(Operation &op);

  /// If `op` is trunci(shrsi(addi(muli(extsi a, extsi b), 2^30), 31)) from
  /// i64 to i32 with a and b i32 and every intermediate used once, the
  /// operands (a, b).
  static std::optional<std::pair<Value, Value>>
  matchHighHalfProduct(Operation &op);

  /// Matches trunci(minsi(maxsi(shrsi(addi(P, shli(1, subi(T, 1))), T),
  /// INT32_MIN), INT32_MAX)), or the same without either bound, with P =
  /// muli(sext a, b) and T = addi(sext r,
  /// 31) or a constant >= 31, intermediates used only inside the pattern
  /// (the emitSingleRoundingMultiply form without a left shift). With a
  /// per-channel r, canonicalization folds subi(T, 1) into addi(sext r,
  /// 30): both forms match.
  static std::optional<RoundedProduct> matchRoundedProduct(Operation &op);

  /// Matches TFLite's double-rounding multiply in the one-shift form of
  /// emitMultiplyByQuantizedMultiplier without a left shift:
  /// trunci(shrsi(subi(addi(P, R), select(cmpi slt P, -2^30; C; 0)), T))
  /// with P = muli(sext a, b), T = addi(sext e, 31), R = ori(shli(1,
  /// addi(sext e, 30)), 2^30) and C = shli(minui(sext e, 1), 31) for an
  /// i32 value e, or R, C and T the constants of one e in [0, 31]. P is
  /// used by the compare and the add only; the other intermediates once.
  static std::optional<RoundedProduct> matchDoubleRoundedProduct(Operation &op);

  /// The floor-affine rescale (RequantizeSpec::floorAffine) as its
  /// template computes it, exactly, in float64: fptosi(floor(fma(sitofp(
  /// clamp(x, -2^24, 2^24)), slope, offset))), the offset a select on x < 0
  /// of two when the fit splits. Its parameters are float32 values: the
  /// extension of an f32 value (a per-channel argument or a constant) or
  /// an f64 constant that a float32 holds.
  struct FloorAffineForm {
    /// A float32 parameter: the f32 value whose extension the template
    /// uses (a per-channel argument, a vector in the kernel), or, when
    /// `value` is null, a constant.
    struct Parameter {
      Value value;
      float constant = 0;
    };
    Value x;
    bool clamped = false;
    /// The operands of the fma, decoded (no negativeOffset without a split).
    Parameter slope, offset;
    std::optional<Parameter> negativeOffset;
    /// The fptosi, then the template operations it replaces.
    SmallVector<Operation *> ops;
  };
  static std::optional<FloorAffineForm> matchFloorAffine(Operation &op);

  /// Whether this kernel computes the floor-affine form natively: a float32
  /// fma rounded down ({rd-sae}) between conversions, on 16 lanes with
  /// AVX-512 (usesFloorAffine). Elsewhere its template's float64 operations
  /// are cloned as they are.
  bool nativeFloorAffine() const;

  /// The floor-affine form of `f` per lane, plus `addend` (the tail's zero
  /// point, NarrowingTail::productAddend): the clamp (unless the
  /// accumulators stay within 2^24), vcvtdq2ps, vfmadd231ps {rd-sae},
  /// vcvtps2dq {rd-sae}; a split offset is picked by the sign bits
  /// (vpsrad, vpternlogd). All but the fma take none of vpdpbusd's pipes.
  Value floorAffineProduct(OpBuilder &ob, const FloorAffineForm &f,
                           IRMapping &mapping, int64_t addend);

  /// The range of the right shifts r of a matched rounded product over
  /// every layer sharing the kernel: its constant, or the ranges of its
  /// per-channel argument ([0, 31] when unknown, TFLite's shifts).
  std::pair<int64_t, int64_t> shiftRange(const RoundedProduct &r);

  /// The i32 lanes (s >> (32 - less + r)) of the even-lane sums `evenSum`
  /// and the odd-lane sums `oddSum` (64-bit lanes) with right shifts r >=
  /// less (i32 lanes `shift`, or `constantShift`): the high halves hold s
  /// >> 32, so one blend of them (the even sums' moved down) and one i32
  /// shift right by r - less give all lanes (see blendsHighHalves; less is
  /// 1 for roundedProduct's sums, 2 for halvedProduct's products).
  Value shiftedHighHalves(OpBuilder &ob, Value evenSum, Value oddSum,
                          Value shift, int64_t constantShift, int64_t less = 1);

  /// The i32 lanes of `v` shifted right by r - less, the right shifts r
  /// being the i32 lanes `shift` (r - less made once per channel block) or
  /// `constantShift` (no shift when it is `less`).
  Value shiftRightLess(OpBuilder &ob, Value v, Value shift,
                       int64_t constantShift, int64_t less);

  /// A halved tail's product (see halvedTail): (a * b) >> (30 + r) per lane
  /// of the i32 vectors a and b with right shifts r >= 2 (i32 lanes
  /// `shift`, or `constantShift`), without rounding. The even lanes'
  /// products shift right by 30 + r as 64-bit lanes, which leaves the
  /// result in their low halves; the odd lanes' high halves (the product
  /// >> 32) shift right by r - 2 as i32 lanes, the select of the odd lanes
  /// a masked shift (AVX512). AVX2 blends the high halves first
  /// (shiftedHighHalves).
  Value halvedProduct(OpBuilder &ob, Value a, Value b, Value shift,
                      int64_t constantShift);

  /// Whether rounded products with r >= 1 take shiftedHighHalves: for
  /// AVX2 (the Int16 and DepthwiseAVX2 flavors), which lacks 64-bit
  /// arithmetic shifts, that is one instruction per vector fewer than
  /// shifting each half and moving the even results down (a shuffle, two
  /// shifts and a blend); on Zen 4, pointwise pw1 (K = 32) 384 -> 373 us,
  /// depthwise dw1/dw2/dw3/dw7 2-4% faster. Not with AVX512: it
  /// shifts the halves in place, and LLVM merges the move and the blend
  /// into a vpermt2d, which made the VNNI pw1 5% slower (165 -> 173 us).
  bool blendsHighHalves() const;

  /// The constant `value`, created once per kernel at the start of its
  /// entry block (every use is inside the function).
  Value constant(Attribute value);

  /// `make(builder)`, a pure function of `v` (and of constants) named by
  /// `tag`, computed once, right after `v`'s definition, so that it is
  /// available wherever `v` is: the epilogue's derivations of its
  /// per-channel constants (multiplier halves, shift halves, rounding
  /// terms) are emitted once per channel block instead of once per output
  /// vector (a sixth of the kernels' operations before, left for LLVM's
  /// CSE).
  Value derived(Value v, StringLiteral tag,
                function_ref<Value(OpBuilder &)> make);

  /// A splat of `v` over the 64-bit lanes of an epilogue vector (lanes / 2
  /// of them): the even/odd-lane products' operands.
  Value pairSplat(int64_t v);

  /// The per-lane right shifts of the even and of the odd i32 lanes as
  /// 64-bit lanes: the low and the high halves of the shift vector's 64-bit
  /// lanes (an i32 vector), or both `constantShift` when `shift` is null.
  std::pair<Value, Value> evenOddShifts(OpBuilder &ob, Value shift,
                                        int64_t constantShift);

  /// The even i32 lanes' shifts of evenOddShifts (i32 lanes `shift`, per
  /// channel): the low halves of its 64-bit lanes, made once per channel
  /// block.
  Value evenShifts(OpBuilder &ob, Value shift);

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
                             int64_t addend);

  /// A bound on |v| where the epilogue value v is its accumulator argument
  /// or that plus the bias (leadingBiasAdd): kh * kw * C products of at
  /// most 255 x 255 plus the largest |bias| of the layers that share the
  /// kernel (a constant, or its argument's ranges); none otherwise.
  std::optional<int64_t> accumulatorBound(Value v);

  /// Whether the epilogue value v (an i32 value or constant) is >= 0 in
  /// every lane of every layer sharing the kernel: a constant, or an
  /// argument whose ranges say so.
  bool nonNegative(Value v);

  /// Where doubleRoundedProduct may take its compare-free form
  /// (doubleRoundedHighHalves) for r, its result gaining `addend`, the
  /// factors of r as (accumulator a, multiplier b): on the x86 flavors
  /// (inline vpmuldq), every right shift e >= 1, b >= 0, and a bounded so
  /// that 2a and the quotient before the last shift, at most |a| + 2 +
  /// 2^(e-1) + |addend| * 2^e, fit in i32. None otherwise.
  std::optional<std::pair<Value, Value>>
  compareFreeDoubleRounding(const RoundedProduct &r, int64_t addend);

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
                                bool signTerm);

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
  std::optional<OffsetProduct> offset = {};

  /// Whether the offset form (OffsetProduct) computes the epilogue's
  /// narrowing tail's y; sets `offset` without its tables. It needs the
  /// compare-free form without the sign term, the factor a the accumulator
  /// (plus the leading bias) and used by the product alone, and the
  /// multiplier, the shift and the bias constants or per-channel arguments
  /// of i32 tables.
  bool planOffsetProduct();

  /// A vector of `type` with the epilogue value v's lanes from `c` on: its
  /// channel table's, or its constant's splat; `fallback`'s without v.
  Value channelVector(OpBuilder &ob, VectorType type, Value v, Value c,
                      int64_t fallback);

  /// The length of the offset form's tables: that of the kernel's channel
  /// arguments, or its output channels without any.
  int64_t offsetTableLength() const;

  /// The tables of the planned offset form, before the kernel's loops (one
  /// pass over the channels, a vector of up to `lanes` channels at a time):
  /// for each channel with multiplier m (>= 0), right shift e (>= 1) and
  /// bias (0 without one), v = ctz(m) (31 for m = 0) and D = 2^30 | 2^30 >>
  /// v, so that D * m = 2^30 * (2^v + 1) * (m >> v) for v >= 1 and 2^30 * m
  /// for v = 0, 2^30 times an odd number (m = 0: D = 2^30, J = 0); J = D *
  /// m >> 31. The tables hold bias + D, 2m and 2^(e-1) + addend * 2^e - J.
  void buildOffsetTables();

  /// The offset form's y (OffsetProduct) for the accumulator u = a + D and
  /// its channels' 2m and K: (high half of u * 2m + K) >> e, plus `addend`
  /// less the tables' (an exact shift of the result: K's addend is a
  /// multiple of 2^e).
  Value offsetHighHalves(OpBuilder &ob, Value u, Value twice, Value k,
                         Value shift, int64_t constantShift, int64_t addend);

  /// For a single-rounding multiply with per-channel right shifts r (0 <=
  /// r <= S) of the accumulator plus bias: a common right shift S such
  /// that (a << (S - r)) cannot overflow i32, if there is one. Then
  /// ((a << (S - r)) * m + 2^(30+S)) >> (31+S) equals (a * m + 2^(30+r))
  /// >> (31+r): numerator and divisor both gain the factor 2^(S-r). The
  /// bound on |a|: accumulatorBound; S: the largest shift among the layers
  /// that share the kernel.
  std::optional<int64_t> commonShift(const RoundedProduct &r);

  /// The single-rounding multiply of matchRoundedProduct per lane of the
  /// i32 vectors a and b with right shifts `shift` (i32 lanes, or
  /// `constantShift`): like highHalfProduct, even lanes from the low
  /// halves, shifted right by 31 + r; odd lanes from the high halves,
  /// shifted right by r and left by 1, so the result (bits 31 + r and up)
  /// lies in the high half. With r >= 0 the result fits in i32, so the
  /// saturation of the template never applies. `least` and `addend` as for
  /// doubleRoundedProduct.
  Value roundedProduct(OpBuilder &ob, Value a, Value b, Value shift,
                       int64_t constantShift, int64_t least, int64_t addend);

  /// (a * b + 2^30) >> 31, truncated to i32, per lane of the i32 vectors a
  /// and b: the even lanes' products come from the low halves of the
  /// 64-bit lanes (sign-extended in place: one vpmuldq) and are shifted
  /// right by 31, leaving the result in the low half; the odd lanes' from
  /// the high halves, shifted left by 1, leaving the result (bits 31-62)
  /// in the high half; a blend takes each result where it lies. The same
  /// integers as widening every lane, without the unpacking and packing.
  Value highHalfProduct(OpBuilder &ob, Value a, Value b);

  /// The i32 vector `v` with each odd lane copied onto the even lane below
  /// it (lanes 1, 1, 3, 3, ...: a vpshufd): the high halves of its 64-bit
  /// lanes in their low halves, where vpmuldq reads them.
  Value oddLanesDown(OpBuilder &ob, Value v);

  /// The i32 vector `v` as lanes() / 2 64-bit lanes.
  Value asPairs(OpBuilder &ob, Value v);

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
                                          bool isUnsigned = false);

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
  std::optional<StringRef> mulDqConstraints() const;

  /// `v` through an empty inline assembly statement whose result is tied
  /// to its operand (`constraints`: "=v,0" for a vector, "=r,0" for an
  /// index): no instruction, but LLVM cannot see through it.
  Value opaqueCopy(OpBuilder &ob, Value v, StringRef constraints);

  /// The index `v` through opaqueCopy (as an i64 in a general register):
  /// what LLVM knows of it, such as its being a function of a loop's
  /// induction variable, stops there.
  Value opaqueIndex(OpBuilder &ob, Value v);

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
  std::pair<Value, Value> opaqueDivRem(OpBuilder &ob, Value u, int64_t d);

  /// For `v`, a 16-lane i32 load from one of the kernel's per-channel
  /// tables at channel ch (AVX512 flavors), the same table's lanes from
  /// ch + 1 (made once, beside v's load): its 64-bit lanes hold the odd
  /// channels of v in their low halves, which vpmuldq multiplies, so the
  /// odd lanes' products need no shift of v (one vector instruction fewer
  /// per epilogue multiply on the ports that vpdpbusd uses). The last lane
  /// (channel ch + 16, past the table for its last block, and never read
  /// by the multiply) is masked off: a masked load, which does not fault
  /// there. Null otherwise.
  Value oddChannelLoad(Value v);

  /// The low halves of `even`'s 64-bit lanes in the even i32 lanes and the
  /// high halves of `odd`'s in the odd ones.
  Value blendEvenOdd(OpBuilder &ob, VectorType wideType, Value even, Value odd);

  Value idx(OpBuilder &ob, int64_t v) {
    return arith::ConstantIndexOp::create(ob, loc, v);
  }

  /// The value of index `v` where it is a constant or a sum or product of
  /// constants (the channel arithmetic of add and mul, which do not fold).
  static std::optional<int64_t> staticIndex(Value v);

  /// Stores `v`, the output channels from `ch` of the pixel `pixel` (n,
  /// oh, ow): a plain store, or where those channels may pass the ones the
  /// kernel stores (KernelSpec::oc), a masked store of the channels below
  /// oc (its mask a constant where `ch` is one, and no store at all
  /// where every channel is past oc).
  void storeChannels(OpBuilder &ob, Value v, ValueRange pixel, Value ch);

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
  bool loopedEpilogue(int64_t rows) const;

  /// A stack buffer of `type` for the code being built: one per kernel in
  /// serial code (in its entry block; an alloca in a loop would grow the
  /// stack at every iteration), one at the start of the body of the
  /// scf.parallel being built (parallelBody) in threaded code, which
  /// qnn-prepare-llvm-lowering moves to the start of the OpenMP parallel
  /// region (HoistStaticAllocas): one per thread.
  Value scratch(MemRefType type);

  /// One scf.parallel over (image n, i in [0, count)) calling
  /// `body(builder, n, i)`: the kernels' multi-threaded loops (each
  /// iteration writes its own output rows or pixel tiles). A batch of one
  /// image gets a one-dimensional loop over i: convert-scf-to-openmp
  /// collapses two dimensions into one induction variable that each body
  /// splits with a division and a remainder, and with those in every
  /// address LLVM's loop strength reduction took 15 times longer on each
  /// outlined body (MobileNet v2, int16 target: 1.0 s of 2.9 s in LLVM,
  /// 0.15 s with one dimension, the serial code's figure).
  void parallelOverImages(OpBuilder &ob, int64_t count,
                          function_ref<void(OpBuilder &, Value, Value)> body);

  /// The accumulator a depthwise kernel starts output channels
  /// j * cp + [c0, c0 + lanes) from: the zero point's correction (`corr`,
  /// emitDepthwise) plus, with an epilogue (multiplier 1: channel c0 is
  /// also the output channel of its constants), the bias (or the offset
  /// form's bias + D: initialAccumulator).
  Value depthwiseInitialAccumulator(OpBuilder &ob, Value jIv, Value c0);

  Value add(OpBuilder &ob, Value a, int64_t v) {
    return v == 0 ? a : arith::AddIOp::create(ob, loc, a, idx(ob, v));
  }
  Value mul(OpBuilder &ob, Value a, int64_t v) {
    return v == 1 ? a : arith::MulIOp::create(ob, loc, a, idx(ob, v));
  }

  /// An scf.for over [lo, hi) by `step`, without iter_args, whose body is
  /// `body(builder, iv)`.
  void forLoop(OpBuilder &ob, Value lo, Value hi, int64_t step,
               function_ref<void(OpBuilder &, Value)> body);
  /// The same over constant bounds; nothing when the range is empty.
  void forLoop(OpBuilder &ob, int64_t lo, int64_t hi, int64_t step,
               function_ref<void(OpBuilder &, Value)> body);

  /// Runs `body(builder, iv, iterArgs) -> yielded` in an scf.for over
  /// [0, n) carrying `init`, or inline when n == 1 or `unroll` is set
  /// (short tap loops: LLVM's pass pipeline has no loop unroller).
  SmallVector<Value> reduceLoop(
      OpBuilder &ob, int64_t n, ValueRange init,
      function_ref<SmallVector<Value>(OpBuilder &, Value, ValueRange)> body,
      bool unroll = false);

  /// The output row and column of pixel `m` of the flattened (oh, ow)
  /// plane.
  std::pair<Value, Value> pixelCoords(OpBuilder &ob, Value m);

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
  Value clampedTileStart(OpBuilder &ob, Value t, int64_t rows, int64_t extent);

  /// Whether pixelTileLoops runs its tiles of `rowsPerTile` pixels in
  /// `groups` groups of output channels on threads: with `parallel`, more
  /// than one (tile, group) pair, and enough work to pay for waking a
  /// thread team (small kernels run on the calling thread).
  bool tilesThreaded(int64_t rowsPerTile, int64_t groups) const;
  /// Whether the kernel has work enough for threads (with `parallel`):
  /// its multiply-adds, or kStreamedWeightWorkFactor per weight where that
  /// is more (kernels of fewer pixels than that).
  bool threadedWork() const;

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
  void
  pixelTileLoops(int64_t rowsPerTile, int64_t groups, bool groupMajor,
                 function_ref<void(OpBuilder &, Value, Value, ArrayRef<Value>,
                                   ArrayRef<Value>, Value)>
                     tile);

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
  Value windowSum(OpBuilder &ob, Value nIv, Value ih, Value iw);

  /// windowSum for `rows` consecutive pixels of a flattened pointwise
  /// kernel (1x1 at stride 1: pixel m's window is its cp bytes, and
  /// consecutive pixels' bytes are contiguous), cp a power of two of at
  /// most 64, the first pixel at column iw: 64 / cp pixels per load and
  /// vpdpbusd, their sums made by a butterfly within each pixel's cp / 4
  /// lanes, then each pixel's lane broadcast (one vpermd). Per pixel of
  /// a K = 8 layer about 1.5 instructions instead of windowSum's 8.
  SmallVector<Value> contiguousWindowSums(OpBuilder &ob, Value nIv, Value iw,
                                          int64_t rows);

  /// The number of consecutive pixels of one output row whose windows
  /// windowSumsByColumns covers with one 64-byte load per kernel row (their
  /// kernel rows contiguous: dilation 1 along the width), at most ow; 0
  /// when fewer than two.
  int64_t columnSumPixels() const;

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
                                         ArrayRef<Value> iwBase, bool pairs);

  /// `n` bytes (n <= width) of the input seen as [n, hp, wp * cp] at `at`,
  /// as a vector of `width` bytes (16, 32 or 64; a masked load when n <
  /// width, its other bytes 0), as unsigned bytes (signed input flipped as
  /// loadA flips it): windowSum's operand.
  Value windowBytes(OpBuilder &ob, int64_t width, int64_t n,
                    SmallVector<Value> at);

  /// sum + d times each i32 lane's four bytes of `chunk` (windowBytes):
  /// one vpdpbusd at the chunk's width against d in every byte (d = 128 as
  /// -128, the caller negating the total).
  Value addWindowBytes(OpBuilder &ob, Value sum, Value chunk);

  /// A butterfly of shuffles and adds over each aligned segment of
  /// `segment` lanes (a power of two) of `sum`: every lane then holds its
  /// segment's total. The steps go from distance segment / 2 down to 1;
  /// after the step of distance k, lane i holds the sum of the lanes of
  /// its segment that agree with i below bit log2(k).
  Value segmentSums(OpBuilder &ob, Value sum, int64_t segment);

  /// The activation operand for row position (ih, iw), channel c.
  Value loadA(OpBuilder &ob, Value nIv, Value ih, Value iw, Value c);

  /// acc += a . w for one step of the flavor.
  Value step(OpBuilder &ob, Value acc, Value a, Value wv);

  void buildGemm();

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
  void buildDepthwiseRowTiles();

  /// Whether the index `v` is in [0, extent).
  Value within(OpBuilder &ob, Value v, int64_t extent);
  /// The index `v` clamped into [0, extent).
  Value clampInto(OpBuilder &ob, Value v, int64_t extent);

  /// The lanes() channels at (n, ih, iw, c0) as i32 lanes: DepthwiseVNNI's hold
  /// the unsigned byte (x + 128 for s8 input; without `flip`, the byte as
  /// stored, zero-extended, which the caller flips), the others x, extended
  /// by its signedness; where `inside` (if given) is false, the zero
  /// point's lanes `zpLanes` instead.
  Value loadLanes(OpBuilder &ob, Value nIv, Value ih, Value iw, Value c0,
                  Value inside, Value zpLanes, bool flip = true);
};

} // namespace mlir::qnn::lowering

#endif // QNN_LIB_CONVERSION_QNNTOLINALG_CONVKERNELBUILDER_H
