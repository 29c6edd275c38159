package org.jtorch.kernels.mpi;

import java.lang.foreign.MemorySegment;

/**
 * An {@code MPI_Comm} handle (a pointer in Open MPI's ABI) with this process's rank in it and its size, read once when
 * the communicator was made.
 *
 * @param handle the {@code MPI_Comm} value
 * @param rank this process's rank in the communicator
 * @param size the number of processes in it
 */
public record Communicator(MemorySegment handle, int rank, int size) {}
