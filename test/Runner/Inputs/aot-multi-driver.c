/* Calls both entry points of aot-multi.mlir (header given with -include)
 * and prints every output element. */
#include <stdio.h>

int main(void) {
  int8_t x[3] = {1, -2, 3};
  int8_t y[3];
  int32_t wide[3];
  uint8_t a[QNN_ADD_IN0_BYTES], b[QNN_ADD_IN1_BYTES], s[QNN_ADD_OUT0_BYTES];
  for (int i = 0; i < QNN_ADD_IN0_BYTES; ++i)
    a[i] = (uint8_t)(i * 23 + 7);
  for (int i = 0; i < QNN_ADD_IN1_BYTES; ++i)
    b[i] = (uint8_t)(i * 90 + 1);
  if (qnn_two_results(x, y, wide) != 0 || qnn_add(a, b, s) != 0)
    return 1;
  printf("two_results: %d %d %d | %d %d %d\n", y[0], y[1], y[2], wide[0],
         wide[1], wide[2]);
  printf("add:");
  for (int i = 0; i < QNN_ADD_OUT0_BYTES; ++i)
    printf(" %d", s[i]);
  printf("\n");
  return 0;
}
