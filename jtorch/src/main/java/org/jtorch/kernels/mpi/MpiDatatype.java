package org.jtorch.kernels.mpi;

/**
 * MPI's predefined datatypes that JTorch sends. In Open MPI each is the address of a global object in {@code libmpi.so}
 * ({@code MPI_FLOAT} is {@code &ompi_mpi_float}), so each names the symbol it resolves to.
 */
public enum MpiDatatype {
    BYTE("ompi_mpi_byte", 1),
    C_BOOL("ompi_mpi_c_bool", 1),
    INT8("ompi_mpi_int8_t", 1),
    UINT8("ompi_mpi_uint8_t", 1),
    INT16("ompi_mpi_int16_t", 2),
    UINT16("ompi_mpi_uint16_t", 2),
    INT32("ompi_mpi_int32_t", 4),
    UINT32("ompi_mpi_uint32_t", 4),
    INT64("ompi_mpi_int64_t", 8),
    UINT64("ompi_mpi_uint64_t", 8),
    FLOAT("ompi_mpi_float", 4),
    DOUBLE("ompi_mpi_double", 8),
    C_FLOAT_COMPLEX("ompi_mpi_c_float_complex", 8),
    C_DOUBLE_COMPLEX("ompi_mpi_c_double_complex", 16);

    final String symbol;
    private final int bytes;

    MpiDatatype(String symbol, int bytes) {
        this.symbol = symbol;
        this.bytes = bytes;
    }

    /** Size of one element in bytes. */
    public int bytes() {
        return bytes;
    }
}
