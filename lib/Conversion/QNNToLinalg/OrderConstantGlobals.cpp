//===- OrderConstantGlobals.cpp - qnn-order-constant-globals --------------===//
//
// Renumbers the constant globals that one-shot bufferization creates in the
// order of their first use, so that the lowered module does not depend on
// the order in which bufferization visited the functions (see the pass
// description in Passes.td).
//
//===----------------------------------------------------------------------===//

#include "QNN/Conversion/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::qnn {
#define GEN_PASS_DEF_ORDERCONSTANTGLOBALS
#include "QNN/Conversion/Passes.h.inc"
} // namespace mlir::qnn

using namespace mlir;

namespace {
constexpr llvm::StringLiteral kPrefix = "__constant_";

/// Whether `global` is one of bufferization's tensor constants.
bool isBufferizedConstant(memref::GlobalOp global) {
  return global.isPrivate() && global.getConstant() &&
         global.getSymName().starts_with(kPrefix);
}

/// The name bufferization gives a constant of `type` before uniquing:
/// `__constant_` and the shape, e.g. `__constant_2x16xi32`.
std::string baseName(MemRefType type) {
  std::string name = kPrefix.str();
  llvm::raw_string_ostream os(name);
  for (int64_t dim : type.getShape())
    os << dim << 'x';
  os << type.getElementType();
  return name;
}

struct OrderConstantGlobalsPass
    : qnn::impl::OrderConstantGlobalsBase<OrderConstantGlobalsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::DenseMap<StringAttr, memref::GlobalOp> candidates;
    // Names the renumbered globals must not take.
    llvm::StringSet<> reserved;
    for (Operation &op : module.getBody()->getOperations()) {
      auto global = dyn_cast<memref::GlobalOp>(op);
      if (global && isBufferizedConstant(global))
        candidates[global.getSymNameAttr()] = global;
      else if (auto name = op.getAttrOfType<StringAttr>(
                   SymbolTable::getSymbolAttrName()))
        reserved.insert(name.getValue());
    }
    if (candidates.empty())
      return;
    // The candidates in the order of their first reference (operations in
    // program order), and the operations that reference them. A nested
    // symbol table's references resolve in it first: not walked.
    llvm::SetVector<memref::GlobalOp> order;
    llvm::SetVector<Operation *> users;
    module.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (op != module && op->hasTrait<OpTrait::SymbolTable>())
        return WalkResult::skip();
      op->getAttrDictionary().walk([&](SymbolRefAttr ref) {
        if (memref::GlobalOp global =
                candidates.lookup(ref.getRootReference())) {
          order.insert(global);
          users.insert(op);
        }
      });
      return WalkResult::advance();
    });
    // New names: `__constant_<shape>` for the first global of a shape, then
    // `_1`, `_2`, ... skipping the names of other symbols.
    llvm::StringMap<unsigned> nextSuffix;
    llvm::DenseMap<StringAttr, StringAttr> renamed;
    MLIRContext *ctx = &getContext();
    for (memref::GlobalOp global : order) {
      std::string base = baseName(global.getType());
      unsigned &suffix = nextSuffix[base];
      std::string name;
      do {
        name = suffix == 0 ? base : base + "_" + std::to_string(suffix);
        ++suffix;
      } while (reserved.contains(name));
      renamed[global.getSymNameAttr()] = StringAttr::get(ctx, name);
    }
    AttrTypeReplacer replacer;
    replacer.addReplacement([&](SymbolRefAttr ref) -> std::optional<Attribute> {
      StringAttr name = renamed.lookup(ref.getRootReference());
      if (!name)
        return std::nullopt;
      return SymbolRefAttr::get(name, ref.getNestedReferences());
    });
    for (Operation *user : users)
      replacer.replaceElementsIn(user);
    // Rename, move to the start of the module in first-use order, and erase
    // the unreferenced ones.
    Block *body = module.getBody();
    Operation *insertion = &body->front();
    for (memref::GlobalOp global : order) {
      global.setSymNameAttr(renamed.lookup(global.getSymNameAttr()));
      if (global.getOperation() == insertion)
        insertion = insertion->getNextNode();
      else
        global->moveBefore(insertion);
    }
    for (auto &[name, global] : candidates)
      if (!order.contains(global))
        global.erase();
  }
};
} // namespace
