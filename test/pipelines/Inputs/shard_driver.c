/* Runs the MLP of shard_mlp.mlir (lowered, sharded or not) in each MPI
 * process on x[i][j] = i - j/2 and prints the process's output:
 * "rank R: y00 y01 ... y31". shard-run.test. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>

typedef struct MemRef2D {
  float *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
} MemRef2D;

void _mlir_ciface_mlp(MemRef2D *result, MemRef2D *x);

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  float x[4][6];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 6; ++j)
      x[i][j] = (float)i - 0.5f * (float)j;
  MemRef2D in = {&x[0][0], &x[0][0], 0, {4, 6}, {6, 1}}, out;
  _mlir_ciface_mlp(&out, &in);
  printf("rank %d:", rank);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 2; ++j)
      printf(" %g",
             out.aligned[out.offset + i * out.strides[0] + j * out.strides[1]]);
  printf("\n");
  MPI_Finalize();
  return 0;
}
