//===- ConvKernelEpilogue.cpp - the kernels' fused epilogues -------------===//
//
// The fused epilogue of a kernel (the elementwise body that
// qnn-fuse-kernel-epilogues moved into it: bias, requantize, clamp, table
// activations): how its value ranges let the kernels narrow packed
// 8-bit and 16-bit lanes, the requantize forms on 32- and 64-bit lanes
// (the offset form's tables), and the stores.
//
//===----------------------------------------------------------------------===//

#include "ConvKernelBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

#include <limits>
#include <numeric>

using namespace mlir;
using namespace mlir::qnn;
using namespace mlir::qnn::lowering;

ArrayRef<SmallVector<ArgumentRange>> KernelBuilder::argumentRanges() {
  if (!memo.layers)
    memo.layers = readArgumentRanges(epilogue);
  return *memo.layers;
}

bool KernelBuilder::hasRanges(BlockArgument arg) {
  auto layers = argumentRanges();
  return arg.getOwner() == &epilogue.getBody().front() &&
         arg.getArgNumber() > 0 && !layers.empty() &&
         llvm::all_of(layers, [&](auto &ranges) {
           return ranges[arg.getArgNumber() - 1].has_value();
         });
}

std::pair<int64_t, int64_t> KernelBuilder::termRange(const TailTerm &t,
                                                     size_t m) {
  auto layers = argumentRanges();
  std::pair<int64_t, int64_t> r{t.c, t.c};
  for (unsigned a : t.args) {
    r.first += layers[m][a - 1]->first;
    r.second += layers[m][a - 1]->second;
  }
  return r;
}

bool KernelBuilder::termAtMost(const TailTerm &a, const TailTerm &b) {
  if (a.isConstant() && b.isConstant())
    return a.c <= b.c;
  for (size_t m = 0; m < argumentRanges().size(); ++m)
    if (termRange(a, m).second > termRange(b, m).first)
      return false;
  return true;
}

std::pair<int64_t, int64_t> KernelBuilder::termHull(const TailTerm &t) {
  std::pair<int64_t, int64_t> h{t.c, t.c};
  for (size_t m = 0; !t.isConstant() && m < argumentRanges().size(); ++m) {
    auto r = termRange(t, m);
    h = m == 0 ? r
               : std::make_pair(std::min(h.first, r.first),
                                std::max(h.second, r.second));
  }
  return h;
}

auto KernelBuilder::narrowingTail() -> std::optional<NarrowingTail> {
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
    if (!def || !def->hasOneUse() || !def->getResult(0).getType().isInteger(8))
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
  // The rounded product computing y may take over part of the tail; the
  // floor-affine form adds a constant zero point to its i32 lanes, which
  // costs no multiply pipe (the packs' vpaddsw takes half a slot).
  if (Operation *def = t.y.getDefiningOp(); def && nativeFloorAffine() &&
                                            t.zp.isConstant() &&
                                            matchFloorAffine(*def)) {
    t.productAddend = t.zp.c;
  } else if (def) {
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

bool KernelBuilder::halvedTail(const NarrowingTail &t,
                               const RoundedProduct &r) {
  // (narrowingTail: 16 lanes, or the Int16 flavor.)
  assert((s.lanes() == 16 || blendsHighHalves()) &&
         "halved products need vpsraq or the AVX2 blend");
  if (shiftRange(r).first < 2)
    return false;
  auto [lo, hi] = termHull(t.zp);
  return std::max(-lo, hi) <= 8191;
}

bool KernelBuilder::zeroPointInProduct(const NarrowingTail &t,
                                       const RoundedProduct &r) {
  if (!t.zp.isConstant() || t.zp.c == 0)
    return false;
  auto [lo, hi] = shiftRange(r);
  return lo >= 1 && hi <= 15;
}

Value KernelBuilder::intrinsic(OpBuilder &ob, StringRef name, Type type,
                               ValueRange args) {
  return LLVM::CallIntrinsicOp::create(ob, loc, type, ob.getStringAttr(name),
                                       args)
      .getResult(0);
}

Value KernelBuilder::packWords(OpBuilder &ob, StringRef packssdw,
                               VectorType words, Value a, Value b,
                               const NarrowingTail &tail, Value zpWords) {
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

Value KernelBuilder::tailTermVector(OpBuilder &ob, const TailTerm &t,
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

auto KernelBuilder::packTail(OpBuilder &ob, const NarrowingTail &tail,
                             ArrayRef<ArrayRef<Value>> constants)
    -> std::optional<PackedTail> {
  if (!tail.isPerChannel())
    return std::nullopt;
  bool avx2 = s.lanes() == 8;
  auto words = VectorType::get({avx2 ? 16 : 32}, ob.getI16Type());
  auto bytes = VectorType::get({avx2 ? 32 : 64}, ob.getI8Type());
  StringRef packssdw =
      avx2 ? "llvm.x86.avx2.packssdw" : "llvm.x86.avx512.packssdw.512";
  StringRef pack8 =
      tail.isSigned
          ? (avx2 ? "llvm.x86.avx2.packsswb" : "llvm.x86.avx512.packsswb.512")
          : (avx2 ? "llvm.x86.avx2.packuswb" : "llvm.x86.avx512.packuswb.512");
  auto pairs = [&](const TailTerm &t) {
    SmallVector<Value> halves;
    for (size_t i = 0; i + 1 < constants.size(); i += 2)
      halves.push_back(
          intrinsic(ob, packssdw, words,
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
      Value one =
          constant(DenseElementsAttr::get(words, ob.getI16IntegerAttr(1)));
      for (Value &w : packed.zpWords)
        w = arith::AddIOp::create(ob, loc,
                                  arith::ShLIOp::create(ob, loc, w, one), one);
    }
  }
  packed.loBytes = asBytes(tail.lo);
  packed.hiBytes = asBytes(tail.hi);
  return packed;
}

Value KernelBuilder::clampBytes(OpBuilder &ob, Value packed,
                                const NarrowingTail &tail,
                                const PackedTail *perChannel) {
  auto bytes = cast<VectorType>(packed.getType());
  int64_t rangeLo = tail.isSigned ? -128 : 0,
          rangeHi = tail.isSigned ? 127 : 255;
  auto byteSplat = [&](int64_t c) {
    APInt bits(8, c, /*isSigned=*/c < 0, /*implicitTrunc=*/true);
    return arith::ConstantOp::create(
        ob, loc,
        DenseElementsAttr::get(bytes, ob.getIntegerAttr(ob.getI8Type(), bits)));
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

Value KernelBuilder::packBytes(OpBuilder &ob, ArrayRef<Value> v,
                               const NarrowingTail &tail,
                               const PackedTail *perChannel, bool opaque) {
  Type i8 = ob.getI8Type(), i16 = ob.getI16Type(), i32 = ob.getI32Type();
  auto words = VectorType::get({32}, i16);
  auto bytes = VectorType::get({64}, i8);
  assert((v.size() == 4 || v.size() == 2) && "packs four or two vectors");
  SmallVector<Value> halves;
  for (size_t i = 0; i < v.size() / 2; ++i)
    halves.push_back(packWords(
        ob, "llvm.x86.avx512.packssdw.512", words, v[2 * i], v[2 * i + 1], tail,
        perChannel && !perChannel->zpWords.empty() ? perChannel->zpWords[i]
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

Value KernelBuilder::packBytes8(OpBuilder &ob, Value v0, Value v1,
                                const NarrowingTail &tail,
                                const PackedTail *perChannel) {
  return vector::ExtractStridedSliceOp::create(
      ob, loc, packBytes8Pair(ob, v0, v1, v0, v1, tail, perChannel),
      ArrayRef<int64_t>{0}, ArrayRef<int64_t>{16}, ArrayRef<int64_t>{1});
}

Value KernelBuilder::packBytes8Pair(OpBuilder &ob, Value v0, Value v1, Value w0,
                                    Value w1, const NarrowingTail &tail,
                                    const PackedTail *perChannel) {
  auto words = VectorType::get({16}, ob.getI16Type());
  auto bytes = VectorType::get({32}, ob.getI8Type());
  auto dwords = VectorType::get({8}, ob.getI32Type());
  Value zp = perChannel && !perChannel->zpWords.empty()
                 ? perChannel->zpWords.front()
                 : Value();
  Value first =
      packWords(ob, "llvm.x86.avx2.packssdw", words, v0, v1, tail, zp);
  Value second =
      packWords(ob, "llvm.x86.avx2.packssdw", words, w0, w1, tail, zp);
  // Dwords: v0[0..3] v1[0..3] w0[0..3] w1[0..3] | v0[4..7] v1[4..7]
  // w0[4..7] w1[4..7]; the per-channel bounds' bytes (packTail, one pair
  // packed twice) have the same layout.
  Value packed = clampBytes(ob,
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

SmallVector<Value> KernelBuilder::loadChannelConstants(OpBuilder &ob,
                                                       Value ch) {
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

Value KernelBuilder::applyEpilogue(OpBuilder &ob, Value acc,
                                   ArrayRef<Value> constants,
                                   const NarrowingTail *stop) {
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
  DenseMap<Operation *, FloorAffineForm> floorAffines;
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
    } else if (auto floor =
                   nativeFloorAffine() ? matchFloorAffine(op) : std::nullopt) {
      floorAffines[&op] = *floor;
      for (Operation *inner : ArrayRef(floor->ops).drop_front())
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
    if (auto it = floorAffines.find(&op); it != floorAffines.end()) {
      mapping.map(op.getResult(0),
                  floorAffineProduct(ob, it->second, mapping, addend));
      continue;
    }
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
        mapping.map(op.getResult(0), doubleRoundedHighHalves(
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
  return mapping.lookup(stopAt ? stopAt : body.getTerminator()->getOperand(0));
}

bool KernelBuilder::isConstantInt(Value v, int64_t c) {
  APInt value;
  return matchPattern(v, m_ConstantInt(&value)) && value == c;
}

Value KernelBuilder::i32Factor(Value v) {
  if (auto ext = v.getDefiningOp<arith::ExtSIOp>())
    return ext.getIn().getType().isInteger(32) ? ext.getIn() : Value();
  APInt value;
  if (matchPattern(v, m_ConstantInt(&value)) && value.isSignedIntN(32))
    return v;
  return Value();
}

arith::TruncIOp KernelBuilder::truncI64ToI32(Operation &op) {
  auto trunc = dyn_cast<arith::TruncIOp>(op);
  if (!trunc || !trunc.getType().isInteger(32) ||
      !trunc.getIn().getType().isInteger(64))
    return {};
  return trunc;
}

std::optional<std::pair<Value, Value>>
KernelBuilder::matchHighHalfProduct(Operation &op) {
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

auto KernelBuilder::matchRoundedProduct(Operation &op)
    -> std::optional<RoundedProduct> {
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

auto KernelBuilder::matchDoubleRoundedProduct(Operation &op)
    -> std::optional<RoundedProduct> {
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

auto KernelBuilder::matchFloorAffine(Operation &op)
    -> std::optional<FloorAffineForm> {
  auto toInt = dyn_cast<arith::FPToSIOp>(op);
  if (!toInt || !toInt.getType().isInteger(32))
    return std::nullopt;
  auto floor = toInt.getIn().getDefiningOp<mlir::math::FloorOp>();
  if (!floor || !floor->hasOneUse())
    return std::nullopt;
  auto fma = floor.getOperand().getDefiningOp<mlir::math::FmaOp>();
  if (!fma || !fma->hasOneUse() || !fma.getType().isF64())
    return std::nullopt;
  auto toFloat = fma.getA().getDefiningOp<arith::SIToFPOp>();
  if (!toFloat || !toFloat->hasOneUse() ||
      !toFloat.getIn().getType().isInteger(32))
    return std::nullopt;
  FloorAffineForm f;
  f.ops = {toInt, floor, fma, toFloat};
  // The clamp to +-2^24: maxsi and minsi with constants, in either order.
  Value x = toFloat.getIn();
  Value clampedX = x;
  // (isConstantInt compares zero-extended values.)
  auto isSigned = [](Value v, int64_t c) {
    APInt value;
    return matchPattern(v, m_ConstantInt(&value)) && value.getSExtValue() == c;
  };
  const int64_t bound = ::mlir::qnn::math::kFloorAffineBound;
  auto peel = [&](Value v) -> Value {
    Operation *def = v.getDefiningOp();
    if (!def)
      return {};
    if (auto mx = dyn_cast<arith::MaxSIOp>(def);
        mx && isSigned(mx.getRhs(), -bound))
      return mx.getLhs();
    if (auto mn = dyn_cast<arith::MinSIOp>(def);
        mn && isSigned(mn.getRhs(), bound))
      return mn.getLhs();
    return {};
  };
  if (Value inner = peel(x)) {
    Value core = peel(inner);
    if (!core)
      return std::nullopt;
    f.ops.push_back(x.getDefiningOp());
    f.ops.push_back(inner.getDefiningOp());
    f.clamped = true;
    x = core;
  }
  f.x = x;
  // A float32 value in float64 form: the extension of an f32 value or of
  // an f32 constant, or an f64 constant that a float32 holds.
  auto decode = [&](Value v) -> std::optional<FloorAffineForm::Parameter> {
    FloatAttr value;
    if (auto ext = v.getDefiningOp<arith::ExtFOp>()) {
      if (!ext.getIn().getType().isF32())
        return std::nullopt;
      if (!matchPattern(ext.getIn(), m_Constant(&value)))
        return FloorAffineForm::Parameter{ext.getIn()};
      return FloorAffineForm::Parameter{
          {}, static_cast<float>(value.getValueAsDouble())};
    }
    if (!matchPattern(v, m_Constant(&value)))
      return std::nullopt;
    double d = value.getValueAsDouble();
    if (static_cast<double>(static_cast<float>(d)) != d)
      return std::nullopt;
    return FloorAffineForm::Parameter{{}, static_cast<float>(d)};
  };
  auto slope = decode(fma.getB());
  if (!slope)
    return std::nullopt;
  f.slope = *slope;
  Value offset = fma.getC();
  if (auto select = offset.getDefiningOp<arith::SelectOp>()) {
    auto cmp = select.getCondition().getDefiningOp<arith::CmpIOp>();
    if (!cmp || (cmp.getLhs() != clampedX && cmp.getLhs() != x) ||
        !isSigned(cmp.getRhs(), 0))
      return std::nullopt;
    Value negative, positive;
    if (cmp.getPredicate() == arith::CmpIPredicate::slt) {
      negative = select.getTrueValue();
      positive = select.getFalseValue();
    } else if (cmp.getPredicate() == arith::CmpIPredicate::sge) {
      negative = select.getFalseValue();
      positive = select.getTrueValue();
    } else {
      return std::nullopt;
    }
    auto negativeOffset = decode(negative);
    auto positiveOffset = decode(positive);
    if (!negativeOffset || !positiveOffset)
      return std::nullopt;
    f.offset = *positiveOffset;
    f.negativeOffset = *negativeOffset;
    f.ops.push_back(select);
    f.ops.push_back(cmp);
  } else {
    auto single = decode(offset);
    if (!single)
      return std::nullopt;
    f.offset = *single;
  }
  // The replaced operations serve the product only.
  for (Operation *inner : ArrayRef(f.ops).drop_front())
    for (Operation *user : inner->getUsers())
      if (!llvm::is_contained(f.ops, user))
        return std::nullopt;
  return f;
}

bool KernelBuilder::nativeFloorAffine() const {
  return !emulate && s.lanes() == 16 && usesFloorAffine(s.flavor);
}

Value KernelBuilder::floorAffineProduct(OpBuilder &ob, const FloorAffineForm &f,
                                        IRMapping &mapping, int64_t addend) {
  auto ints = VectorType::get({16}, ob.getI32Type());
  auto floats = VectorType::get({16}, ob.getF32Type());
  auto splat = [&](int64_t c) {
    return constant(DenseElementsAttr::get(ints, ob.getI32IntegerAttr(c)));
  };
  Value x = mapping.lookup(f.x);
  std::optional<int64_t> bound = accumulatorBound(f.x);
  if (f.clamped && !(bound && *bound <= ::mlir::qnn::math::kFloorAffineBound)) {
    x = arith::MaxSIOp::create(ob, loc, x,
                               splat(-::mlir::qnn::math::kFloorAffineBound));
    x = arith::MinSIOp::create(ob, loc, x,
                               splat(::mlir::qnn::math::kFloorAffineBound));
  }
  // The float32 vector of a parameter: its per-channel vector, or a splat.
  auto parameter = [&](const FloorAffineForm::Parameter &p) -> Value {
    if (p.value)
      return mapping.lookup(p.value);
    return constant(
        DenseElementsAttr::get(floats, ob.getF32FloatAttr(p.constant)));
  };
  Value slope = parameter(f.slope);
  Value offset = parameter(f.offset);
  if (f.negativeOffset) {
    // offset ^ ((x >> 31) & (offset ^ negative)), on the bits.
    Value positiveBits = vector::BitCastOp::create(ob, loc, ints, offset);
    Value difference = arith::XOrIOp::create(
        ob, loc, positiveBits,
        vector::BitCastOp::create(ob, loc, ints, parameter(*f.negativeOffset)));
    Value sign = arith::ShRSIOp::create(ob, loc, x, splat(31));
    offset = vector::BitCastOp::create(
        ob, loc, floats,
        arith::XOrIOp::create(
            ob, loc, positiveBits,
            arith::AndIOp::create(ob, loc, sign, difference)));
  }
  // _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC.
  Value roundDown = arith::ConstantOp::create(ob, loc, ob.getI32IntegerAttr(9));
  Value t = intrinsic(ob, "llvm.x86.avx512.vfmadd.ps.512", floats,
                      ValueRange{arith::SIToFPOp::create(ob, loc, floats, x),
                                 slope, offset, roundDown});
  Value allLanes = arith::ConstantOp::create(ob, loc, ob.getI16IntegerAttr(-1));
  Value y = intrinsic(ob, "llvm.x86.avx512.mask.cvtps2dq.512", ints,
                      ValueRange{t, splat(0), allLanes, roundDown});
  if (addend)
    y = arith::AddIOp::create(ob, loc, y, splat(addend));
  return y;
}

std::pair<int64_t, int64_t> KernelBuilder::shiftRange(const RoundedProduct &r) {
  if (!r.shift)
    return {r.constantShift, r.constantShift};
  auto arg = dyn_cast<BlockArgument>(r.shift);
  if (!arg || !hasRanges(arg))
    return {0, 31};
  auto [lo, hi] = argumentHull(arg);
  return {std::max<int64_t>(0, lo), std::min<int64_t>(31, hi)};
}

Value KernelBuilder::shiftedHighHalves(OpBuilder &ob, Value evenSum,
                                       Value oddSum, Value shift,
                                       int64_t constantShift, int64_t less) {
  auto wideType = VectorType::get({s.lanes()}, ob.getI32Type());
  Value evenHigh = arith::ShRUIOp::create(ob, loc, evenSum, pairSplat(32));
  Value high = blendEvenOdd(ob, wideType, evenHigh, oddSum);
  return shiftRightLess(ob, high, shift, constantShift, less);
}

Value KernelBuilder::shiftRightLess(OpBuilder &ob, Value v, Value shift,
                                    int64_t constantShift, int64_t less) {
  auto wideType = VectorType::get({s.lanes()}, ob.getI32Type());
  auto splat = [&](int64_t c) {
    return constant(DenseElementsAttr::get(wideType, ob.getI32IntegerAttr(c)));
  };
  if (!shift)
    return constantShift == less
               ? v
               : arith::ShRSIOp::create(ob, loc, v, splat(constantShift - less))
                     .getResult();
  StringLiteral tag =
      less == 1 ? StringLiteral("minus1") : StringLiteral("minus2");
  Value amount = derived(shift, tag, [&](OpBuilder &db) -> Value {
    return arith::SubIOp::create(db, loc, shift, splat(less));
  });
  return arith::ShRSIOp::create(ob, loc, v, amount);
}

Value KernelBuilder::halvedProduct(OpBuilder &ob, Value a, Value b, Value shift,
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
  Value oddHigh =
      shiftRightLess(ob, vector::BitCastOp::create(ob, loc, wideType, odd),
                     shift, constantShift, 2);
  return blendEvenOdd(ob, wideType, evenResult, oddHigh);
}

bool KernelBuilder::blendsHighHalves() const {
  return s.flavor == KernelFlavor::Int16 ||
         s.flavor == KernelFlavor::DepthwiseAVX2;
}

Value KernelBuilder::constant(Attribute value) {
  Value &c = memo.constants[value];
  if (!c) {
    OpBuilder cb = OpBuilder::atBlockBegin(entry);
    c = arith::ConstantOp::create(cb, loc, cast<TypedAttr>(value));
  }
  return c;
}

Value KernelBuilder::derived(Value v, StringLiteral tag,
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

Value KernelBuilder::pairSplat(int64_t v) {
  auto pairs = VectorType::get({s.lanes() / 2}, b.getI64Type());
  return constant(DenseElementsAttr::get(pairs, b.getI64IntegerAttr(v)));
}

std::pair<Value, Value> KernelBuilder::evenOddShifts(OpBuilder &ob, Value shift,
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

Value KernelBuilder::evenShifts(OpBuilder &ob, Value shift) {
  Value q = asPairs(ob, shift);
  return derived(q, "low32", [&](OpBuilder &db) -> Value {
    return arith::AndIOp::create(db, loc, q, pairSplat(0xffffffffLL));
  });
}

Value KernelBuilder::doubleRoundedProduct(OpBuilder &ob, Value a, Value b,
                                          Value shift, int64_t constantShift,
                                          int64_t least, int64_t addend) {
  auto wideType = VectorType::get({s.lanes()}, ob.getI32Type());
  auto [even, odd] = evenOddProducts(ob, a, b);
  Value eEven, eOdd;
  std::tie(eEven, eOdd) = evenOddShifts(ob, shift, constantShift);
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

std::optional<int64_t> KernelBuilder::accumulatorBound(Value v) {
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

bool KernelBuilder::nonNegative(Value v) {
  APInt value;
  if (matchPattern(v, m_ConstantInt(&value)))
    return !value.isNegative();
  auto arg = dyn_cast<BlockArgument>(v);
  return arg && hasRanges(arg) && argumentHull(arg).first >= 0;
}

std::optional<std::pair<Value, Value>>
KernelBuilder::compareFreeDoubleRounding(const RoundedProduct &r,
                                         int64_t addend) {
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

Value KernelBuilder::doubleRoundedHighHalves(OpBuilder &ob, Value a, Value b,
                                             Value shift, int64_t constantShift,
                                             int64_t addend, bool signTerm) {
  auto wideType = VectorType::get({s.lanes()}, ob.getI32Type());
  auto splat = [&](int64_t c) {
    return constant(DenseElementsAttr::get(wideType, ob.getI32IntegerAttr(c)));
  };
  Value twice = arith::AddIOp::create(ob, loc, a, a);
  auto [even, odd] = evenOddProducts(ob, twice, b, /*shuffleOdd=*/true);
  // 2R = 2^31 + 2^(31+e) + addend * 2^(32+e).
  auto rounding = [&](Value e) -> Value {
    if (!shift) {
      // (With an addend, compareFreeDoubleRounding bounds e by 30.)
      int64_t term = (int64_t(1) << 31) + (int64_t(1) << (31 + constantShift));
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

bool KernelBuilder::planOffsetProduct() {
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

Value KernelBuilder::channelVector(OpBuilder &ob, VectorType type, Value v,
                                   Value c, int64_t fallback) {
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

int64_t KernelBuilder::offsetTableLength() const {
  if (channelArgs.empty())
    return s.op;
  return cast<MemRefType>(channelArgs.front().getType()).getDimSize(0);
}

void KernelBuilder::buildOffsetTables() {
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
        DenseElementsAttr::get(type,
                               lb.getI32IntegerAttr(static_cast<int32_t>(v))));
  };
  Value m = channelVector(lb, type, o.b, c, 0);
  Value e = channelVector(lb, type, o.r.shift, c, o.r.constantShift);
  Value bias = channelVector(lb, type, leadingBias(), c, 0);
  Value v = arith::MinUIOp::create(
      lb, loc, LLVM::CountTrailingZerosOp::create(lb, loc, m, false),
      splat(31));
  Value d =
      arith::OrIOp::create(lb, loc, splat(1 << 30),
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
      arith::AddIOp::create(lb, loc, half,
                            arith::ShLIOp::create(lb, loc, splat(o.addend), e)),
      j);
  vector::StoreOp::create(lb, loc, arith::AddIOp::create(lb, loc, bias, d),
                          o.bias, c);
  vector::StoreOp::create(lb, loc, arith::AddIOp::create(lb, loc, m, m),
                          o.twice, c);
  vector::StoreOp::create(lb, loc, k, o.k, c);
}

Value KernelBuilder::offsetHighHalves(OpBuilder &ob, Value u, Value twice,
                                      Value k, Value shift,
                                      int64_t constantShift, int64_t addend) {
  auto wideType = VectorType::get({s.lanes()}, ob.getI32Type());
  auto splat = [&](int64_t c) {
    return constant(DenseElementsAttr::get(wideType, ob.getI32IntegerAttr(c)));
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

std::optional<int64_t> KernelBuilder::commonShift(const RoundedProduct &r) {
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

Value KernelBuilder::roundedProduct(OpBuilder &ob, Value a, Value b,
                                    Value shift, int64_t constantShift,
                                    int64_t least, int64_t addend) {
  auto wideType = VectorType::get({s.lanes()}, ob.getI32Type());
  Value even, odd;
  std::tie(even, odd) = evenOddProducts(ob, a, b);
  Value c31 = pairSplat(31), c1 = pairSplat(1);
  Value rEven, rOdd;
  std::tie(rEven, rOdd) = evenOddShifts(ob, shift, constantShift);
  // 2^(30+r), plus addend * 2^(31+r) so that the result gains addend:
  // base << r.
  Value base = pairSplat((1 + 2 * addend) * (int64_t(1) << 30));
  auto rounding = [&](Value r) {
    auto make = [&](OpBuilder &db) -> Value {
      return arith::ShLIOp::create(db, loc, base, r);
    };
    return addend ? derived(r, "round1plus", make) : derived(r, "round1", make);
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

Value KernelBuilder::highHalfProduct(OpBuilder &ob, Value a, Value b) {
  int64_t n = s.lanes();
  auto [even, odd] = evenOddProducts(ob, a, b);
  Value half = pairSplat(int64_t(1) << 30);
  even = arith::ShRSIOp::create(
      ob, loc, arith::AddIOp::create(ob, loc, even, half), pairSplat(31));
  odd = arith::ShLIOp::create(
      ob, loc, arith::AddIOp::create(ob, loc, odd, half), pairSplat(1));
  return blendEvenOdd(ob, VectorType::get({n}, ob.getI32Type()), even, odd);
}

Value KernelBuilder::oddLanesDown(OpBuilder &ob, Value v) {
  int64_t n = cast<VectorType>(v.getType()).getNumElements();
  SmallVector<int64_t> lanes;
  for (int64_t i = 0; i < n; ++i)
    lanes.push_back(i | 1);
  return vector::ShuffleOp::create(ob, loc, v, v, lanes);
}

Value KernelBuilder::asPairs(OpBuilder &ob, Value v) {
  auto pairs = VectorType::get({s.lanes() / 2}, ob.getI64Type());
  return derived(v, "pairs", [&](OpBuilder &db) -> Value {
    return vector::BitCastOp::create(db, loc, pairs, v);
  });
}

std::pair<Value, Value> KernelBuilder::evenOddProducts(OpBuilder &ob, Value a,
                                                       Value b, bool shuffleOdd,
                                                       bool isUnsigned) {
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

std::optional<StringRef> KernelBuilder::mulDqConstraints() const {
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

Value KernelBuilder::opaqueCopy(OpBuilder &ob, Value v, StringRef constraints) {
  return LLVM::InlineAsmOp::create(
             ob, loc, v.getType(), ValueRange{v}, /*asm_string=*/"",
             constraints, /*has_side_effects=*/false,
             /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
             LLVM::AsmDialectAttr(), ArrayAttr())
      .getResult(0);
}

Value KernelBuilder::opaqueIndex(OpBuilder &ob, Value v) {
  Value i64 = arith::IndexCastOp::create(ob, loc, ob.getI64Type(), v);
  return arith::IndexCastOp::create(ob, loc, ob.getIndexType(),
                                    opaqueCopy(ob, i64, "=r,0"));
}

std::pair<Value, Value> KernelBuilder::opaqueDivRem(OpBuilder &ob, Value u,
                                                    int64_t d) {
  if (d == 1)
    return {u, idx(ob, 0)};
  return {opaqueIndex(ob, arith::DivUIOp::create(ob, loc, u, idx(ob, d))),
          opaqueIndex(ob, arith::RemUIOp::create(ob, loc, u, idx(ob, d)))};
}

Value KernelBuilder::oddChannelLoad(Value v) {
  if (s.flavor != KernelFlavor::VNNI && s.flavor != KernelFlavor::Int16AVX512 &&
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

Value KernelBuilder::blendEvenOdd(OpBuilder &ob, VectorType wideType,
                                  Value even, Value odd) {
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

std::optional<int64_t> KernelBuilder::staticIndex(Value v) {
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

void KernelBuilder::storeChannels(OpBuilder &ob, Value v, ValueRange pixel,
                                  Value ch) {
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
