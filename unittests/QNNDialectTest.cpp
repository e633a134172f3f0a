//===- QNNDialectTest.cpp - C++ API of the qnn dialect
//---------------------===//
//
// Shape inference through the builders: the inferred types are the ones the
// verifier accepts, for every layout.
//
//===----------------------------------------------------------------------===//

#include "QNN/IR/QNNDialect.h"
#include "QNN/IR/QNNOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::qnn;

namespace {

class QNNBuilderTest : public ::testing::Test {
protected:
  QNNBuilderTest() : builder(&context) {
    context.loadDialect<QNNDialect, func::FuncDialect, arith::ArithDialect>();
    module = ModuleOp::create(builder.getUnknownLoc());
    builder.setInsertionPointToEnd(module->getBody());
  }

  /// A function argument of the given type to feed the op under test.
  Value argument(RankedTensorType type) {
    auto func = func::FuncOp::create(builder, builder.getUnknownLoc(), "f",
                                     builder.getFunctionType({type}, {}));
    Block *block = func.addEntryBlock();
    return block->getArgument(0);
  }

  RankedTensorType tensor(ArrayRef<int64_t> shape, Type element) {
    return RankedTensorType::get(shape, element);
  }

  MLIRContext context;
  OpBuilder builder;
  OwningOpRef<ModuleOp> module;
};

TEST_F(QNNBuilderTest, Conv2DStridedSamePaddingNHWC) {
  Type i8 = builder.getIntegerType(8);
  Value input = argument(tensor({1, 8, 8, 3}, i8));
  Value weight = argument(tensor({16, 3, 3, 3}, i8));
  auto conv =
      Conv2DOp::create(builder, builder.getUnknownLoc(), input, weight, 0.5f,
                       -128, {0.25f}, 0, {2, 2}, {0, 0, 1, 1}, {1, 1}, 1,
                       ActivationLayout::NHWC, KernelLayout::OHWI);
  EXPECT_EQ(conv.getType(), tensor({1, 4, 4, 16}, builder.getIntegerType(32)));
  EXPECT_TRUE(succeeded(verify(conv)));
}

TEST_F(QNNBuilderTest, Conv2DDepthwiseIHWODilated) {
  Type u8 = builder.getIntegerType(8, /*isSigned=*/false);
  Value input = argument(tensor({1, 9, 9, 4}, u8));
  Value weight = argument(tensor({1, 3, 3, 8}, u8));
  auto conv =
      Conv2DOp::create(builder, builder.getUnknownLoc(), input, weight, 0.5f,
                       128, {0.25f}, 120, {1, 1}, {0, 0, 0, 0}, {2, 2}, 4,
                       ActivationLayout::NHWC, KernelLayout::IHWO);
  EXPECT_EQ(conv.getType(), tensor({1, 5, 5, 8}, builder.getIntegerType(32)));
  EXPECT_TRUE(conv.isDepthwise());
  EXPECT_EQ(conv.getNumOutputChannels(), 8);
  EXPECT_TRUE(succeeded(verify(conv)));
}

TEST_F(QNNBuilderTest, Conv2DNCHWDynamicBatch) {
  Type i8 = builder.getIntegerType(8);
  Value input = argument(tensor({ShapedType::kDynamic, 3, 7, 7}, i8));
  Value weight = argument(tensor({2, 3, 3, 3}, i8));
  auto conv =
      Conv2DOp::create(builder, builder.getUnknownLoc(), input, weight, 0.5f, 0,
                       {0.25f, 0.5f}, 0, {2, 2}, {1, 1, 1, 1}, {1, 1}, 1,
                       ActivationLayout::NCHW, KernelLayout::OIHW);
  EXPECT_EQ(conv.getType(), tensor({ShapedType::kDynamic, 2, 4, 4},
                                   builder.getIntegerType(32)));
  EXPECT_TRUE(succeeded(verify(conv)));
}

TEST_F(QNNBuilderTest, Dense) {
  Type i8 = builder.getIntegerType(8);
  Value input = argument(tensor({2, 64}, i8));
  Value weight = argument(tensor({10, 64}, i8));
  auto dense = DenseOp::create(builder, builder.getUnknownLoc(), input, weight,
                               0.5f, 3, {0.25f}, 0);
  EXPECT_EQ(dense.getType(), tensor({2, 10}, builder.getIntegerType(32)));
  EXPECT_TRUE(succeeded(verify(dense)));
}

TEST_F(QNNBuilderTest, PoolsKeepElementType) {
  Type i32 = builder.getIntegerType(32);
  Value input = argument(tensor({1, 7, 7, 32}, i32));
  auto avg =
      AvgPool2DOp::create(builder, builder.getUnknownLoc(), input, {7, 7},
                          {1, 1}, {0, 0, 0, 0}, ActivationLayout::NHWC);
  EXPECT_EQ(avg.getType(), tensor({1, 1, 1, 32}, i32));
  EXPECT_TRUE(succeeded(verify(avg)));

  Type i8 = builder.getIntegerType(8);
  Value small = argument(tensor({1, 4, 9, 9}, i8));
  auto max =
      MaxPool2DOp::create(builder, builder.getUnknownLoc(), small, {3, 3},
                          {2, 2}, {1, 1, 1, 1}, ActivationLayout::NCHW);
  EXPECT_EQ(max.getType(), tensor({1, 4, 5, 5}, i8));
  EXPECT_TRUE(succeeded(verify(max)));
}

} // namespace
