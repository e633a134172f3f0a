/* Runs one qnn-compile'd entry point (qnn_main, one input, one output):
 *   driver IN.bin OUT.bin REPEAT
 * writes the output of the first run, then prints the median and minimum
 * time of REPEAT more runs. Built against the header qnn-compile wrote
 * (passed with -include). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s IN.bin OUT.bin REPEAT\n", argv[0]);
    return 2;
  }
  static unsigned char in[QNN_MAIN_IN0_BYTES], out[QNN_MAIN_OUT0_BYTES];
  FILE *f = fopen(argv[1], "rb");
  if (!f || fread(in, 1, sizeof in, f) != sizeof in) {
    fprintf(stderr, "%s: cannot read %d bytes from %s\n", argv[0],
            QNN_MAIN_IN0_BYTES, argv[1]);
    return 1;
  }
  fclose(f);
  qnn_main(in, out);
  f = fopen(argv[2], "wb");
  if (!f || fwrite(out, 1, sizeof out, f) != sizeof out) {
    fprintf(stderr, "%s: cannot write %s\n", argv[0], argv[2]);
    return 1;
  }
  fclose(f);
  int repeat = atoi(argv[3]);
  if (repeat < 1)
    return 0;
  double *ms = malloc(sizeof(double) * repeat);
  for (int i = 0; i < repeat; ++i) {
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    qnn_main(in, out);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    ms[i] = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) * 1e-6;
  }
  qsort(ms, repeat, sizeof(double), cmp);
  printf("median=%.4f ms min=%.4f ms runs=%d\n", ms[repeat / 2], ms[0], repeat);
  free(ms);
  return 0;
}
