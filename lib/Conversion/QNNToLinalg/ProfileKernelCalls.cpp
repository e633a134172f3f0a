//===- ProfileKernelCalls.cpp - qnn-profile-kernel-calls ------------------===//
//
// Times every call of a convolution kernel: reads the CPU's cycle counter
// before and after the call and adds the difference, and 1, to the call
// site's two counters in one module-level array. The JIT's caller reads the
// array back (CompiledModule::getProfile, `qnn-run --profile`).
//
//===----------------------------------------------------------------------===//

#include "QNN/Conversion/Passes.h"
#include "QNNToLinalgInternal.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::qnn {
#define GEN_PASS_DEF_PROFILEKERNELCALLS
#include "QNN/Conversion/Passes.h.inc"
} // namespace mlir::qnn

using namespace mlir;
using namespace mlir::qnn;
using namespace mlir::qnn::lowering;

namespace {
struct ProfileKernelCallsPass
    : qnn::impl::ProfileKernelCallsBase<ProfileKernelCallsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (Operation *existing =
            SymbolTable::lookupSymbolIn(module, kProfileCountersName)) {
      existing->emitError("symbol '")
          << kProfileCountersName
          << "' is taken: qnn-profile-kernel-calls needs it for its counters";
      return signalPassFailure();
    }
    // The call sites: calls of kernels from functions that are not kernels
    // themselves, in the order of the walk (the program's order).
    SmallVector<LLVM::CallOp> sites;
    module.walk([&](LLVM::CallOp call) {
      std::optional<StringRef> callee = call.getCallee();
      auto caller = call->getParentOfType<LLVM::LLVMFuncOp>();
      if (callee && callee->starts_with(kKernelNamePrefix) && caller &&
          !caller.getName().starts_with(kKernelNamePrefix))
        sites.push_back(call);
    });
    MLIRContext *ctx = &getContext();
    SmallVector<Attribute> names;
    for (LLVM::CallOp call : sites)
      names.push_back(StringAttr::get(ctx, *call.getCallee()));
    module->setAttr(kProfileSitesAttrName, ArrayAttr::get(ctx, names));
    if (sites.empty())
      return;

    // Two i64 per site, cycles then calls, zero at load time; external, so
    // that the JIT can look it up.
    OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
    Type i64 = b.getI64Type();
    auto arrayType = LLVM::LLVMArrayType::get(i64, 2 * sites.size());
    auto zeros = DenseElementsAttr::get(
        RankedTensorType::get({int64_t(2 * sites.size())}, i64),
        b.getI64IntegerAttr(0).getValue());
    LLVM::GlobalOp::create(b, module.getLoc(), arrayType, /*isConstant=*/false,
                           LLVM::Linkage::External, kProfileCountersName,
                           zeros);
    auto ptrType = LLVM::LLVMPointerType::get(ctx);
    for (auto [site, call] : llvm::enumerate(sites)) {
      Location loc = call.getLoc();
      b.setInsertionPoint(call);
      auto cycles = [&]() {
        return LLVM::CallIntrinsicOp::create(
                   b, loc, i64, b.getStringAttr("llvm.readcyclecounter"),
                   ValueRange{})
            .getResult(0);
      };
      Value start = cycles();
      b.setInsertionPointAfter(call);
      Value stop = cycles();
      Value elapsed = LLVM::SubOp::create(b, loc, stop, start);
      Value base =
          LLVM::AddressOfOp::create(b, loc, ptrType, kProfileCountersName);
      auto add = [&](int64_t index, Value value) {
        Value at = LLVM::GEPOp::create(
            b, loc, ptrType, arrayType, base,
            ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(index)});
        // Atomic: a site inside a parallel region counts every thread's
        // calls.
        LLVM::AtomicRMWOp::create(b, loc, LLVM::AtomicBinOp::add, at, value,
                                  LLVM::AtomicOrdering::monotonic);
      };
      add(2 * site, elapsed);
      add(2 * site + 1, LLVM::ConstantOp::create(b, loc, i64, 1));
    }
  }
};
} // namespace
