//===- MaterializeKernels.cpp - qnn-materialize-conv-kernels
//---------------===//
//
// Gives the kernel declarations created by convert-qnn-to-linalg their
// bodies (see ConvKernelBuilder.h), after bufferization.
//
//===----------------------------------------------------------------------===//

#include "QNN/Conversion/Passes.h"
#include "QNNToLinalgInternal.h"

namespace mlir::qnn {
#define GEN_PASS_DEF_MATERIALIZECONVKERNELS
#include "QNN/Conversion/Passes.h.inc"
} // namespace mlir::qnn

using namespace mlir;
using namespace mlir::qnn;
using namespace mlir::qnn::lowering;

/// Makes every arith.constant of `func` unique and moves it to the entry
/// block. The kernel builder creates a constant where it needs one: a
/// quarter of MobileNet v2's operations after this pass were duplicate
/// constants, which every later pass walked and converted one by one (LLVM
/// IR uniques constants, so the translated module is the same).
static void uniqueConstants(func::FuncOp func) {
  Block &entry = func.getBody().front();
  DenseMap<Attribute, Value> first;
  SmallVector<arith::ConstantOp> constants;
  func.walk([&](arith::ConstantOp op) { constants.push_back(op); });
  for (arith::ConstantOp op : constants) {
    auto [it, inserted] = first.try_emplace(op.getValue(), op.getResult());
    if (inserted) {
      op->moveBefore(&entry, entry.begin());
      continue;
    }
    op.getResult().replaceAllUsesWith(it->second);
    op->erase();
  }
}

namespace {
struct MaterializeConvKernelsPass
    : qnn::impl::MaterializeConvKernelsBase<MaterializeConvKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    OpBuilder builder(&getContext());
    SmallVector<func::FuncOp> epilogues;
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      auto attr = func->getAttrOfType<DenseI64ArrayAttr>(kKernelAttrName);
      if (!attr)
        continue;
      if (!func.isDeclaration()) {
        func.emitError("kernel @")
            << func.getSymName() << " already has a body";
        return signalPassFailure();
      }
      FailureOr<KernelSpec> spec = KernelSpec::fromAttr(attr);
      if (failed(spec)) {
        func.emitError("malformed ") << kKernelAttrName << " attribute";
        return signalPassFailure();
      }
      // The argument types must be those the kernel indexes.
      FunctionType type = func.getFunctionType();
      auto memref = [&](unsigned i) {
        return dyn_cast<MemRefType>(type.getInput(i));
      };
      const KernelSpec &k = *spec;
      bool dw = k.isDepthwise();
      int64_t kg = k.kGroup(), lanes = k.lanes();
      SmallVector<int64_t> wShape =
          dw ? k.depthwiseWeightShape()
             : SmallVector<int64_t>{k.op / lanes, k.kh, k.kw, k.cp / kg,
                                    lanes * kg};
      SmallVector<int64_t> outShape =
          dw ? k.depthwiseOutputShape()
             : SmallVector<int64_t>{k.n, k.oh, k.ow, k.storedChannels()};
      // A fused epilogue (qnn-fuse-kernel-epilogues) adds one per-channel
      // constant vector per epilogue argument after the accumulator.
      func::FuncOp epilogue;
      if (auto ref =
              func->getAttrOfType<FlatSymbolRefAttr>(kEpilogueAttrName)) {
        epilogue = getOperation().lookupSymbol<func::FuncOp>(ref);
        if (!epilogue || epilogue.isDeclaration() || (dw && k.mult != 1) ||
            epilogue.getNumArguments() < 1 ||
            epilogue.getFunctionType().getNumResults() != 1) {
          func.emitError("kernel @") << func.getSymName() << " has an invalid "
                                     << kEpilogueAttrName << " attribute";
          return signalPassFailure();
        }
        // The layers' argument ranges (qnn-fuse-kernel-epilogues): two
        // entries per per-channel argument and layer.
        if (auto ranges = epilogue->getAttrOfType<DenseI64ArrayAttr>(
                kArgumentRangesAttrName)) {
          size_t args = epilogue.getNumArguments() - 1;
          if (args == 0 ? !ranges.empty()
                        : ranges.empty() || ranges.size() % (2 * args) != 0) {
            epilogue.emitError("epilogue @")
                << epilogue.getSymName() << " has a malformed "
                << kArgumentRangesAttrName << " attribute ("
                << ranges.size() << " entries for " << args
                << " per-channel arguments)";
            return signalPassFailure();
          }
        } else if (epilogue->hasAttr(kArgumentRangesAttrName)) {
          epilogue.emitError("epilogue @")
              << epilogue.getSymName() << " has a malformed "
              << kArgumentRangesAttrName << " attribute (not an i64 array)";
          return signalPassFailure();
        }
        epilogues.push_back(epilogue);
      }
      unsigned numChannel = epilogue ? epilogue.getNumArguments() - 1 : 0;
      bool channelArgsOk = true;
      for (unsigned i = 0; i < numChannel; ++i)
        channelArgsOk &= memref(3 + i) &&
                         memref(3 + i).getShape() == ArrayRef<int64_t>{k.op};
      unsigned outIndex = 3 + numChannel;
      if (type.getNumInputs() != outIndex + 1 || type.getNumResults() != 0 ||
          !memref(0) || !memref(1) || !memref(2) || !memref(outIndex) ||
          !channelArgsOk ||
          memref(0).getShape() != ArrayRef<int64_t>(k.inputShape()) ||
          memref(1).getShape() != ArrayRef<int64_t>(wShape) ||
          memref(2).getShape() != ArrayRef<int64_t>{k.corrSize()} ||
          memref(outIndex).getShape() != ArrayRef<int64_t>(outShape) ||
          (k.oh - 1) * k.sh + (k.kh - 1) * k.dh >= k.hp ||
          (k.ow - 1) * k.sw + (k.kw - 1) * k.dw >= k.wp) {
        func.emitError("kernel @")
            << func.getSymName() << " does not have the signature its "
            << kKernelAttrName << " attribute describes";
        return signalPassFailure();
      }
      buildConvKernelBody(builder, func, *spec, emulateVNNI, epilogue, parallel,
                          parallelMinWork, vbmi);
      uniqueConstants(func);
      func->removeAttr(kKernelAttrName);
      func->removeAttr(kEpilogueAttrName);
      // Every buffer has a static shape and the identity layout (checked
      // above): the LLVM lowering passes each as one pointer (the
      // bare-pointer convention) instead of a descriptor of 3 + 2 * rank
      // values; a call passed about 60 arguments, most on the stack
      // (MobileNet v2's main function was a sixth of its machine code).
      if (llvm::all_of(type.getInputs(), [](Type t) {
            auto m = cast<MemRefType>(t);
            return m.hasStaticShape() && m.getLayout().isIdentity();
          }))
        func->setAttr(kBarePointerAttrName, UnitAttr::get(&getContext()));
      // Kernels built on intrinsics need these features whatever CPU the
      // module as a whole is compiled for (mlir-runner does not enable the
      // host's features); func-to-llvm carries the attribute to llvm.func.
      SmallVector<StringRef> features;
      switch (spec->flavor) {
      case KernelFlavor::VNNI:
      case KernelFlavor::DepthwiseVNNI:
        if (!emulateVNNI)
          features = {"+avx512f", "+avx512bw", "+avx512vnni"};
        // (vpermt2b: the depthwise kernels' sliding packed rows.)
        if (!emulateVNNI && vbmi && spec->flavor == KernelFlavor::DepthwiseVNNI)
          features.push_back("+avx512vbmi");
        break;
      case KernelFlavor::Int16:
      case KernelFlavor::DepthwiseAVX2:
        features = {"+avx2"};
        break;
      case KernelFlavor::Int16AVX512:
        features = {"+avx512f", "+avx512bw"};
        break;
      default:
        break;
      }
      if (!features.empty()) {
        func->setAttr("target_features",
                      LLVM::TargetFeaturesAttr::get(&getContext(), features));
        // The kernels realign their stack frames to the vectors' size, so
        // that their zmm spills (and the offset form's tables) never
        // straddle two cache lines: the ABI promises 16 bytes, and a
        // kernel's time had varied by up to 20% from run to run with the
        // caller's stack pointer (Zen 5, pw1 with per-channel shifts:
        // 63-75 us). It costs rbp as a general register.
        func->setAttr(
            "passthrough",
            ArrayAttr::get(&getContext(),
                           {StringAttr::get(&getContext(), "stackrealign")}));
      }
    }
    // The epilogue functions were templates; their operations now live in
    // the kernels. (A symbolKnownUseEmpty query per epilogue walked the
    // whole module each time: 60% of this pass on MobileNet v2.)
    llvm::DenseSet<StringAttr> referenced = referencedSymbols(getOperation());
    for (func::FuncOp epilogue : epilogues)
      if (!referenced.contains(epilogue.getSymNameAttr()))
        epilogue.erase();
  }
};
} // namespace
