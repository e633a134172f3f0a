/* A small C program around a qnn-compile'd entry point `qnn_main` with one
 * input and one output: reads the input bytes from argv[1], calls the entry
 * point, writes the output bytes to argv[2]. The header is given with
 * -include. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  static unsigned char input[QNN_MAIN_IN0_BYTES];
  static unsigned char output[QNN_MAIN_OUT0_BYTES];
  if (argc != 3) {
    fprintf(stderr, "usage: %s IN OUT\n", argv[0]);
    return 2;
  }
  FILE *in = fopen(argv[1], "rb");
  if (!in || fread(input, 1, sizeof input, in) != sizeof input) {
    fprintf(stderr, "cannot read %d bytes from %s\n", QNN_MAIN_IN0_BYTES,
            argv[1]);
    return 1;
  }
  fclose(in);
  if (qnn_main(input, output) != 0) {
    fprintf(stderr, "qnn_main failed\n");
    return 1;
  }
  FILE *out = fopen(argv[2], "wb");
  if (!out || fwrite(output, 1, sizeof output, out) != sizeof output) {
    fprintf(stderr, "cannot write %s\n", argv[2]);
    return 1;
  }
  fclose(out);
  printf("qnn_main: %d input bytes, %d output bytes\n", QNN_MAIN_IN0_BYTES,
         QNN_MAIN_OUT0_BYTES);
  return 0;
}
