//===- ParserGuards.h - inputs the upstream parser crashes on ---*- C++ -*-===//
//
// MLIR 22's parser (Debian's libMLIR.so) dereferences a null type on a dense
// array of `index` (`array<index: ...>`): llvm/llvm-project#179045, fixed
// upstream by #179075 after the 22 release. The qnn tools refuse such text
// with an error before parsing; the MLIR fuzz target skips it.
//
//===----------------------------------------------------------------------===//

#ifndef QNN_UTILS_PARSERGUARDS_H
#define QNN_UTILS_PARSERGUARDS_H

#include "llvm/ADT/StringRef.h"

#include <cctype>

namespace mlir::qnn {

/// The offset of the first `array<` whose element type is `index` (blanks
/// allowed before it), or StringRef::npos.
inline size_t findIndexDenseArray(llvm::StringRef text) {
  for (size_t at = text.find("array<"); at != llvm::StringRef::npos;
       at = text.find("array<", at + 1)) {
    size_t p = at + 6;
    while (p < text.size() && std::isspace(static_cast<unsigned char>(text[p])))
      ++p;
    if (text.substr(p).starts_with("index"))
      return at;
  }
  return llvm::StringRef::npos;
}

} // namespace mlir::qnn

#endif // QNN_UTILS_PARSERGUARDS_H
