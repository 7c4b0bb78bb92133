// SPDX-License-Identifier: GPL-2.0
/*
 * mpi_pingpong: two MPI ranks send each other N messages of SIZE bytes
 * (MPI_Send/MPI_Recv, so Open MPI's OFI path as tagged libfabric
 * messages), each filled with a pattern of its iteration that the other
 * side checks; then an MPI_Allreduce of the ranks.  Rank 0 prints
 * "mpi_pingpong: N x SIZE B, P us per round trip" and both exit 0 when
 * every byte was right.
 *
 *   mpirun -np 2 ... mpi_pingpong [N [SIZE]]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fill(unsigned char *b, int n, int it, int rank)
{
	int i;

	for (i = 0; i < n; i++)
		b[i] = (unsigned char)(i * 7 + it * 13 + rank);
}

static int verify(const unsigned char *b, int n, int it, int rank)
{
	int i;

	for (i = 0; i < n; i++)
		if (b[i] != (unsigned char)(i * 7 + it * 13 + rank))
			return 0;
	return 1;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 100, size = argc > 2 ? atoi(argv[2]) : 4096;
	int rank, nranks, it, bad = 0, sum = 0, total_bad = 0;
	unsigned char *tx, *rx;
	double t0, t1;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	if (nranks != 2) {
		if (!rank)
			fprintf(stderr, "mpi_pingpong: needs 2 ranks, not %d\n", nranks);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	tx = malloc(size);
	rx = malloc(size);
	MPI_Barrier(MPI_COMM_WORLD);
	t0 = MPI_Wtime();
	for (it = 0; it < n; it++) {
		if (rank == 0) {
			fill(tx, size, it, 0);
			MPI_Send(tx, size, MPI_BYTE, 1, it, MPI_COMM_WORLD);
			MPI_Recv(rx, size, MPI_BYTE, 1, it, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			bad += !verify(rx, size, it, 1);
		} else {
			MPI_Recv(rx, size, MPI_BYTE, 0, it, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			bad += !verify(rx, size, it, 0);
			fill(tx, size, it, 1);
			MPI_Send(tx, size, MPI_BYTE, 0, it, MPI_COMM_WORLD);
		}
	}
	t1 = MPI_Wtime();
	MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	MPI_Allreduce(&bad, &total_bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	if (!rank)
		printf("mpi_pingpong: %d x %d B, %.1f us per round trip, %d bad, rank sum %d\n",
		       n, size, (t1 - t0) * 1e6 / n, total_bad, sum);
	free(tx);
	free(rx);
	MPI_Finalize();
	return total_bad || sum != 1;
}
