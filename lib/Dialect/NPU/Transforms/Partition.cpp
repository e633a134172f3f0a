//===- Partition.cpp - outline NPU-supported regions ----------------------===//
//
// The MLIR analogue of TVM's MergeComposite + AnnotateTarget +
// MergeCompilerRegions + PartitionGraph: a table of named constraints marks
// the operations the NPU supports, connected supported operations are merged
// into maximal regions that stay convex (outlining them cannot create a
// cycle), and each region is outlined into a function tagged `npu.target`
// that the host function calls.
//
//===----------------------------------------------------------------------===//

#include "NPU/IR/NPUOps.h"
#include "NPU/Transforms/Passes.h"

#include "mlir/Analysis/TopologicalSortUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>

namespace mlir::npu {
#define GEN_PASS_DEF_NPUPARTITION
#include "NPU/Transforms/Passes.h.inc"
} // namespace mlir::npu

using namespace mlir;
using namespace mlir::npu;

namespace {

struct SupportOptions {
  int64_t maxKernel, maxStride;
  bool perChannel;
};

/// One row of the support table: a name, and a check that returns the
/// reason the operation fails it (empty when it passes).
struct Constraint {
  StringRef name;
  std::function<std::string(Operation *, const SupportOptions &)> check;
};

bool isSigned8(Type t) {
  auto i = dyn_cast<IntegerType>(getElementTypeOrSelf(t));
  return i && i.getWidth() == 8 && !i.isUnsigned();
}
bool isUnsigned8(Type t) {
  auto i = dyn_cast<IntegerType>(getElementTypeOrSelf(t));
  return i && i.getWidth() == 8 && i.isUnsigned();
}

/// The 8-bit tensors an operator reads or writes (not the i32 bias).
SmallVector<Value> dataValues(Operation *op) {
  SmallVector<Value> values;
  for (Value v : op->getOperands())
    if (getElementTypeOrSelf(v.getType()).getIntOrFloatBitWidth() == 8)
      values.push_back(v);
  values.append(op->result_begin(), op->result_end());
  return values;
}

std::string fmt(const Twine &t) { return t.str(); }

const SmallVector<Constraint> &supportTable() {
  static const SmallVector<Constraint> table = {
      {"npu-op",
       [](Operation *op, const SupportOptions &) -> std::string {
         if (isa<Conv2DOp, FullyConnectedOp, AddOp, AvgPool2DOp, MaxPool2DOp>(
                 op))
           return "";
         return fmt("'" + op->getName().getStringRef() +
                    "' is not an npu operator");
       }},
      {"dtype",
       [](Operation *op, const SupportOptions &) -> std::string {
         SmallVector<Value> values = dataValues(op);
         if (llvm::all_of(values,
                          [](Value v) { return isSigned8(v.getType()); }) ||
             llvm::all_of(values,
                          [](Value v) { return isUnsigned8(v.getType()); }))
           return "";
         return "input, weight and result must be all i8 or all ui8";
       }},
      {"batch",
       [](Operation *op, const SupportOptions &) -> std::string {
         auto type = cast<RankedTensorType>(op->getResult(0).getType());
         if (type.getDimSize(0) == 1)
           return "";
         return fmt("batch size " + Twine(type.getDimSize(0)) +
                    " (the NPU runs batch 1)");
       }},
      {"constant-weights",
       [](Operation *op, const SupportOptions &) -> std::string {
         if (!isa<Conv2DOp, FullyConnectedOp>(op))
           return "";
         for (unsigned i = 1; i < op->getNumOperands(); ++i)
           if (!matchPattern(op->getOperand(i), m_Constant()))
             return fmt(Twine(i == 1 ? "the weight" : "the bias") +
                        " is not a constant (bind it with "
                        "--npu-bind-params)");
         return "";
       }},
      {"kernel-size",
       [](Operation *op, const SupportOptions &o) -> std::string {
         SmallVector<int64_t, 2> kernel;
         if (auto conv = dyn_cast<Conv2DOp>(op)) {
           auto w = conv.getWeight().getType();
           kernel = {w.getDimSize(1), w.getDimSize(2)};
         } else if (auto pool = dyn_cast<AvgPool2DOp>(op)) {
           kernel.assign(pool.getKernel().begin(), pool.getKernel().end());
         } else if (auto pool = dyn_cast<MaxPool2DOp>(op)) {
           kernel.assign(pool.getKernel().begin(), pool.getKernel().end());
         }
         if (kernel.empty() ||
             (kernel[0] <= o.maxKernel && kernel[1] <= o.maxKernel))
           return "";
         return fmt("kernel " + Twine(kernel[0]) + "x" + Twine(kernel[1]) +
                    " exceeds " + Twine(o.maxKernel) + "x" +
                    Twine(o.maxKernel));
       }},
      {"stride",
       [](Operation *op, const SupportOptions &o) -> std::string {
         auto strides = op->getAttrOfType<DenseI64ArrayAttr>("strides");
         if (!strides || llvm::all_of(strides.asArrayRef(), [&](int64_t s) {
               return s <= o.maxStride;
             }))
           return "";
         return fmt("strides [" + Twine(strides[0]) + ", " + Twine(strides[1]) +
                    "] exceed " + Twine(o.maxStride));
       }},
      {"dilation",
       [](Operation *op, const SupportOptions &) -> std::string {
         auto dilations = op->getAttrOfType<DenseI64ArrayAttr>("dilations");
         if (!dilations || llvm::all_of(dilations.asArrayRef(),
                                        [](int64_t d) { return d == 1; }))
           return "";
         return fmt("dilations [" + Twine(dilations[0]) + ", " +
                    Twine(dilations[1]) + "] (only 1 is supported)");
       }},
      {"per-channel",
       [](Operation *op, const SupportOptions &o) -> std::string {
         auto scales = op->getAttrOfType<DenseF32ArrayAttr>("weight_scale");
         if (!scales || scales.size() == 1 || o.perChannel)
           return "";
         return fmt(Twine(scales.size()) +
                    " per-channel weight scales (per-channel=false)");
       }},
      {"add-broadcast",
       [](Operation *op, const SupportOptions &) -> std::string {
         auto add = dyn_cast<AddOp>(op);
         if (!add || (add.getLhs().getType() == add.getOutput().getType() &&
                      add.getRhs().getType() == add.getOutput().getType()))
           return "";
         return "operands are broadcast to the result shape";
       }},
  };
  return table;
}

/// The first constraint `op` fails, with the reason, or nothing.
std::optional<std::pair<StringRef, std::string>>
failedConstraint(Operation *op, const SupportOptions &options) {
  for (const Constraint &c : supportTable()) {
    std::string why = c.check(op, options);
    if (!why.empty())
      return std::make_pair(c.name, why);
  }
  return std::nullopt;
}

bool isConstant(Operation *op) { return op->hasTrait<OpTrait::ConstantLike>(); }

/// The partition of one function body.
struct FunctionPartition {
  Block *block;
  SmallVector<Operation *> ops; // non-constant, non-terminator, in order
  DenseMap<Operation *, unsigned> index;
  DenseMap<Operation *, std::pair<StringRef, std::string>> hostReason;
  llvm::EquivalenceClasses<Operation *> regions;

  bool onNPU(Operation *op) const {
    return index.count(op) && !hostReason.count(op);
  }

  /// The ops of the block that use `op`'s results (users nested in other
  /// ops' regions count as their ancestor in the block).
  SmallVector<Operation *> usersInBlock(Operation *op) const {
    SmallVector<Operation *> users;
    for (Operation *user : op->getUsers())
      if (Operation *a = block->findAncestorOpInBlock(*user))
        users.push_back(a);
    return users;
  }

  /// Whether the set of ops `members` is convex: no path leaves it and
  /// comes back.
  bool isConvex(const llvm::SmallPtrSetImpl<Operation *> &members) const {
    SmallVector<Operation *> worklist;
    llvm::SmallPtrSet<Operation *, 32> seen;
    for (Operation *m : members)
      for (Operation *u : usersInBlock(m))
        if (!members.count(u) && seen.insert(u).second)
          worklist.push_back(u);
    while (!worklist.empty()) {
      Operation *op = worklist.pop_back_val();
      for (Operation *u : usersInBlock(op)) {
        if (members.count(u))
          return false;
        if (seen.insert(u).second)
          worklist.push_back(u);
      }
    }
    return true;
  }

  void members(Operation *leader,
               llvm::SmallPtrSetImpl<Operation *> &out) const {
    for (auto it = regions.findLeader(leader); it != regions.member_end(); ++it)
      out.insert(*it);
  }

  /// Greedy merging in program order: each supported op joins the regions
  /// of its supported producers when the union stays convex.
  void formRegions() {
    for (Operation *op : ops) {
      if (!onNPU(op))
        continue;
      regions.insert(op);
      for (Value operand : op->getOperands()) {
        Operation *producer = operand.getDefiningOp();
        if (!producer || !onNPU(producer) || regions.isEquivalent(producer, op))
          continue;
        llvm::SmallPtrSet<Operation *, 32> merged;
        members(op, merged);
        members(producer, merged);
        if (isConvex(merged))
          regions.unionSets(op, producer);
      }
    }
  }

  /// The regions as op lists in program order, in order of their first op.
  SmallVector<SmallVector<Operation *>> regionList() const {
    SmallVector<SmallVector<Operation *>> list;
    DenseMap<Operation *, unsigned> slot;
    for (Operation *op : ops) {
      if (!onNPU(op))
        continue;
      Operation *leader = regions.getLeaderValue(op);
      auto [it, inserted] = slot.try_emplace(leader, list.size());
      if (inserted)
        list.emplace_back();
      list[it->second].push_back(op);
    }
    return list;
  }
};

std::string dotEscape(StringRef s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out;
}

std::string typeString(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}

void writeDot(raw_ostream &os, func::FuncOp func, const FunctionPartition &p,
              ArrayRef<SmallVector<Operation *>> regionOps) {
  auto nodeName = [&](Operation *op) {
    return "op" + std::to_string(p.index.lookup(op));
  };
  auto label = [&](Operation *op) {
    std::string l = op->getName().getStringRef().str();
    if (op->getNumResults() == 1)
      l += "\\n" + dotEscape(typeString(op->getResult(0).getType()));
    auto it = p.hostReason.find(op);
    if (it != p.hostReason.end() && it->second.first != "npu-op")
      l += "\\nhost: " + it->second.first.str();
    return l;
  };
  // Node ids are the function name made an identifier plus the op index.
  std::string fname = func.getSymName().str();
  for (char &c : fname)
    if (!llvm::isAlnum(c))
      c = '_';
  os << "  subgraph \"cluster_" << fname << "\" {\n"
     << "    label=\"" << dotEscape(func.getSymName()) << "\";\n"
     << "    style=dashed;\n";
  for (auto [i, region] : llvm::enumerate(regionOps)) {
    os << "    subgraph \"cluster_" << fname << "_npu" << i << "\" {\n"
       << "      label=\"npu region " << i << "\";\n"
       << "      style=filled;\n      fillcolor=\"#cfe2ff\";\n"
       << "      color=\"#1f5fbf\";\n";
    for (Operation *op : region)
      os << "      " << fname << "_" << nodeName(op) << " [label=\""
         << label(op)
         << "\", style=filled, fillcolor=\"#7fb0ff\", shape=box];\n";
    os << "    }\n";
  }
  for (Operation *op : p.ops)
    if (!p.onNPU(op))
      os << "    " << fname << "_" << nodeName(op) << " [label=\"" << label(op)
         << "\", shape=box, style=filled, fillcolor=\"#eeeeee\"];\n";
  os << "    " << fname << "_args [label=\"arguments\", shape=ellipse];\n";
  os << "    " << fname << "_return [label=\"return\", shape=ellipse];\n";
  os << "  }\n";
  auto source = [&](Value v) -> std::string {
    Operation *def = v.getDefiningOp();
    if (!def)
      return fname + "_args";
    if (Operation *a = p.block->findAncestorOpInBlock(*def))
      if (p.index.count(a))
        return fname + "_" + nodeName(a);
    return "";
  };
  for (Operation *op : p.ops)
    for (Value v : op->getOperands()) {
      std::string src = source(v);
      if (!src.empty())
        os << "  " << src << " -> " << fname << "_" << nodeName(op) << ";\n";
    }
  for (Value v : p.block->getTerminator()->getOperands()) {
    std::string src = source(v);
    if (!src.empty())
      os << "  " << src << " -> " << fname << "_return;\n";
  }
}

struct NPUPartitionPass : npu::impl::NPUPartitionBase<NPUPartitionPass> {
  using NPUPartitionBase::NPUPartitionBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SupportOptions options{maxKernel, maxStride, perChannel};
    SymbolTable symbols(module);
    std::string dot;
    llvm::raw_string_ostream dotStream(dot);
    SmallVector<func::FuncOp> funcs;
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isExternal() && !func->hasAttr("npu.target"))
        funcs.push_back(func);
    for (func::FuncOp func : funcs)
      if (failed(partition(func, options, symbols, dotStream)))
        return signalPassFailure();
    if (!dotFile.empty()) {
      std::error_code ec;
      llvm::raw_fd_ostream file(dotFile, ec, llvm::sys::fs::OF_Text);
      if (ec) {
        module.emitError() << "npu-partition: cannot write '" << dotFile
                           << "': " << ec.message();
        return signalPassFailure();
      }
      file << "digraph npu_partition {\n  rankdir=TB;\n"
           << "  node [fontname=\"monospace\"];\n"
           << dot << "}\n";
    }
  }

  LogicalResult partition(func::FuncOp func, const SupportOptions &options,
                          SymbolTable &symbols, raw_ostream &dotStream) {
    if (!func.getBody().hasOneBlock())
      return func.emitError(
          "npu-partition: functions with more than one block are not "
          "supported");
    FunctionPartition p;
    p.block = &func.getBody().front();
    for (Operation &op : p.block->without_terminator()) {
      if (isConstant(&op))
        continue;
      p.index[&op] = p.ops.size();
      p.ops.push_back(&op);
      if (auto failedOne = failedConstraint(&op, options))
        p.hostReason[&op] = *failedOne;
    }
    p.formRegions();
    SmallVector<SmallVector<Operation *>> regionOps = p.regionList();

    if (report) {
      for (Operation *op : p.ops) {
        auto it = p.hostReason.find(op);
        if (it != p.hostReason.end())
          op->emitRemark() << "on host: constraint '" << it->second.first
                           << "' failed: " << it->second.second;
      }
      size_t numNPU = p.ops.size() - p.hostReason.size();
      func.emitRemark() << "npu-partition: " << numNPU
                        << " operation(s) on the NPU in " << regionOps.size()
                        << " region(s), " << p.hostReason.size()
                        << " on the host";
    }
    if (!dotFile.empty())
      writeDot(dotStream, func, p, regionOps);

    for (auto [i, region] : llvm::enumerate(regionOps))
      if (failed(outline(func, region, symbols)))
        return failure();
    // Constants the outlined functions copied may be dead in the host now.
    for (Operation &op : llvm::make_early_inc_range(*p.block))
      if (isConstant(&op) && op.use_empty())
        op.erase();
    if (!sortTopologically(p.block))
      return func.emitError("npu-partition: outlining created a cycle");
    return success();
  }

  LogicalResult outline(func::FuncOp host, ArrayRef<Operation *> region,
                        SymbolTable &symbols) {
    llvm::SmallPtrSet<Operation *, 32> members(region.begin(), region.end());
    llvm::SetVector<Value> inputs;
    llvm::SetVector<Operation *> constants;
    SmallVector<Value> outputs;
    for (Operation *op : region) {
      for (Value v : op->getOperands()) {
        Operation *def = v.getDefiningOp();
        if (def && members.count(def))
          continue;
        if (def && isConstant(def))
          constants.insert(def);
        else
          inputs.insert(v);
      }
      for (Value r : op->getResults())
        if (llvm::any_of(r.getUsers(), [&](Operation *user) {
              return !members.count(
                  host.getBody().front().findAncestorOpInBlock(*user));
            }))
          outputs.push_back(r);
    }
    MLIRContext *ctx = host.getContext();
    OpBuilder builder(ctx);
    builder.setInsertionPoint(host);
    auto type = FunctionType::get(ctx, TypeRange(inputs.getArrayRef()),
                                  TypeRange(ValueRange(outputs)));
    auto callee =
        func::FuncOp::create(builder, region.front()->getLoc(),
                             (host.getSymName() + "_npu").str(), type);
    callee.setPrivate();
    callee->setAttr("npu.target", UnitAttr::get(ctx));
    symbols.insert(callee); // uniquifies the name
    Block *body = callee.addEntryBlock();
    builder.setInsertionPointToStart(body);
    IRMapping mapping;
    for (auto [v, arg] : llvm::zip(inputs, body->getArguments()))
      mapping.map(v, arg);
    for (Operation *c : constants)
      builder.clone(*c, mapping);
    for (Operation *op : region)
      builder.clone(*op, mapping);
    SmallVector<Value> results;
    for (Value r : outputs)
      results.push_back(mapping.lookup(r));
    func::ReturnOp::create(builder, region.back()->getLoc(), results);

    builder.setInsertionPoint(region.back());
    auto call = func::CallOp::create(builder, region.back()->getLoc(), callee,
                                     inputs.getArrayRef());
    for (auto [r, c] : llvm::zip(outputs, call.getResults()))
      r.replaceAllUsesWith(c);
    for (Operation *op : llvm::reverse(region)) {
      op->dropAllUses();
      op->erase();
    }
    return success();
  }
};

} // namespace
