/* The two MLIR runner-utility functions the execution-test programs call,
 * so that their AOT-compiled objects link with libc alone (the LLVM
 * library, and so libmlir_c_runner_utils, is absent on the remote CPU). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef struct {
  void *allocated, *aligned;
  int64_t offset;
  int64_t sizesAndStrides[];
} Descriptor;
typedef struct {
  int64_t rank;
  Descriptor *descriptor;
} Unranked;

void printMemrefI32(int64_t rank, Descriptor *d) {
  int64_t n = 1;
  for (int64_t i = 0; i < rank; ++i)
    n *= d->sizesAndStrides[i];
  const int32_t *p = (const int32_t *)d->aligned + d->offset;
  printf("data =\n[");
  for (int64_t i = 0; i < n; ++i) /* the tests print dense buffers */
    printf(i ? ", %d" : "%d", p[i]);
  printf("]\n");
}

/* Any rank, any strides. */
void memrefCopy(int64_t elementSize, Unranked *src, Unranked *dst) {
  int64_t rank = src->rank;
  Descriptor *s = src->descriptor, *d = dst->descriptor;
  const int64_t *sizes = s->sizesAndStrides;
  const int64_t *sStrides = s->sizesAndStrides + rank;
  const int64_t *dStrides = d->sizesAndStrides + rank;
  int64_t index[16] = {0};
  int64_t total = 1;
  for (int64_t i = 0; i < rank; ++i)
    total *= sizes[i];
  for (int64_t n = 0; n < total; ++n) {
    int64_t so = s->offset, doff = d->offset;
    for (int64_t i = 0; i < rank; ++i) {
      so += index[i] * sStrides[i];
      doff += index[i] * dStrides[i];
    }
    memcpy((char *)d->aligned + doff * elementSize,
           (const char *)s->aligned + so * elementSize, elementSize);
    for (int64_t i = rank - 1; i >= 0; --i) {
      if (++index[i] < sizes[i])
        break;
      index[i] = 0;
    }
  }
}
