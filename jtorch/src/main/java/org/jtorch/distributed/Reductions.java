package org.jtorch.distributed;

import org.jtorch.DType;
import org.jtorch.RoundingMode;
import org.jtorch.Tensor;
import org.jtorch.kernels.mpi.MpiDatatype;
import org.jtorch.kernels.mpi.MpiOp;

/**
 * How each dtype is reduced. MPI has types for booleans, the integers, float32/64 and complex64/128; those reduce
 * inside MPI. It has none for float16, bfloat16, the float8s and the 16-bit complex types: those travel as their 16- or
 * 8-bit payload (all-gathered) and are reduced here, in float32 (complex64), in rank order, then rounded once —
 * PyTorch's CPU arithmetic for reduced-precision types, and the same bits on every rank.
 */
final class Reductions {
    private Reductions() {}

    /** The MPI type that reduces {@code dtype}, or null when JTorch reduces it. */
    static MpiDatatype mpiType(DType dtype) {
        return switch (dtype) {
            case BOOL -> MpiDatatype.C_BOOL;
            case UINT8 -> MpiDatatype.UINT8;
            case INT8 -> MpiDatatype.INT8;
            case UINT16 -> MpiDatatype.UINT16;
            case INT16 -> MpiDatatype.INT16;
            case UINT32 -> MpiDatatype.UINT32;
            case INT32 -> MpiDatatype.INT32;
            case UINT64 -> MpiDatatype.UINT64;
            case INT64 -> MpiDatatype.INT64;
            case FLOAT32 -> MpiDatatype.FLOAT;
            case FLOAT64 -> MpiDatatype.DOUBLE;
            case COMPLEX64 -> MpiDatatype.C_FLOAT_COMPLEX;
            case COMPLEX128 -> MpiDatatype.C_DOUBLE_COMPLEX;
            default -> null;
        };
    }

    /**
     * The MPI operation for {@code op} on {@code dtype}: logical ones on booleans; AVG is a SUM, divided afterwards.
     */
    static MpiOp mpiOp(ReduceOp op, DType dtype) {
        boolean bool = dtype == DType.BOOL;
        return switch (op) {
            case SUM, AVG -> bool ? MpiOp.LOR : MpiOp.SUM;
            case PRODUCT -> bool ? MpiOp.LAND : MpiOp.PROD;
            case MIN -> bool ? MpiOp.LAND : MpiOp.MIN;
            case MAX -> bool ? MpiOp.LOR : MpiOp.MAX;
        };
    }

    /** PyTorch's refusals: no ordering of complex numbers, no average of booleans. */
    static void check(String call, ReduceOp op, DType dtype) {
        if (op == null) throw new DistributedException(call + ": op must not be null");
        if (dtype.isComplex() && (op == ReduceOp.MIN || op == ReduceOp.MAX)) {
            throw new DistributedException(call + " does not support ReduceOp." + op + " on complex tensors");
        }
        if (dtype == DType.BOOL && op == ReduceOp.AVG) {
            throw new DistributedException(call + ": ReduceOp.AVG is not supported on bool tensors");
        }
    }

    /** The average from the sum over {@code size} ranks: truncating on integers, as NCCL's {@code ncclAvg} does. */
    static Tensor average(Tensor sum, int size) {
        return sum.dtype().isFloatingPoint() || sum.dtype().isComplex()
                ? sum.div((long) size)
                : sum.div((Object) (long) size, RoundingMode.TRUNC).to(sum.dtype());
    }

    /**
     * Reduces the ranks' payloads stacked along dim 0 ({@code [ranks, ...]}) of a dtype MPI cannot reduce, in float32
     * or complex64, and rounds the result back to the payload's dtype.
     */
    static Tensor reduceLocally(Tensor stacked, ReduceOp op, int size) {
        DType dtype = stacked.dtype();
        Tensor wide = stacked.to(dtype.isComplex() ? DType.COMPLEX64 : DType.FLOAT32);
        Tensor reduced =
                switch (op) {
                    case SUM -> wide.sum(0);
                    case AVG -> wide.sum(0).div((long) size);
                    case PRODUCT -> wide.prod(0);
                    case MIN -> wide.amin(0);
                    case MAX -> wide.amax(0);
                };
        return reduced.to(dtype);
    }
}
