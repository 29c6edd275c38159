/** BLAS/LAPACK kernels through FFM; imports only org.jtorch.storage and base types. */
package org.jtorch.kernels.blas;
