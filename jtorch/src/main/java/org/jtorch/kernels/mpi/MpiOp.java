package org.jtorch.kernels.mpi;

/** MPI's predefined reduction operations that JTorch uses; each names its Open MPI global object. */
public enum MpiOp {
    SUM("ompi_mpi_op_sum"),
    PROD("ompi_mpi_op_prod"),
    MIN("ompi_mpi_op_min"),
    MAX("ompi_mpi_op_max"),
    /** Logical and: PRODUCT and MIN on booleans. */
    LAND("ompi_mpi_op_land"),
    /** Logical or: SUM and MAX on booleans. */
    LOR("ompi_mpi_op_lor");

    final String symbol;

    MpiOp(String symbol) {
        this.symbol = symbol;
    }
}
