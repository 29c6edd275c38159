/**
 * Open MPI bound through FFM: the C ABI's handles, datatypes, reduction operations and the calls the distributed
 * package needs, each validated in Java before the downcall. Native memory only; never the user-facing tensor.
 */
package org.jtorch.kernels.mpi;
