package org.jtorch.kernels.blas;

import java.lang.foreign.MemorySegment;
import org.jtorch.TorchException;
import org.jtorch.kernels.blas.OpenBlas.Transpose;

/**
 * The exact regions a GEMM reads and writes, after every check that keeps bad input away from native code. Passing
 * these slices rather than the whole segments makes the bounds explicit.
 */
record GemmOperands(MemorySegment a, MemorySegment b, MemorySegment c, boolean critical) {

    /** @param scalarBytes size of one real component; @param components 1 for real, 2 for complex */
    static GemmOperands check(
            String fn,
            int scalarBytes,
            int components,
            Transpose transA,
            Transpose transB,
            int m,
            int n,
            int k,
            MemorySegment a,
            long aOffset,
            int lda,
            MemorySegment b,
            long bOffset,
            int ldb,
            MemorySegment c,
            long cOffset,
            int ldc) {
        if (transA == null) throw invalid(fn, "transA", "is null");
        if (transB == null) throw invalid(fn, "transB", "is null");
        if (m < 0) throw invalid(fn, "m", "= " + m + " must be >= 0");
        if (n < 0) throw invalid(fn, "n", "= " + n + " must be >= 0");
        if (k < 0) throw invalid(fn, "k", "= " + k + " must be >= 0");
        boolean aTransposed = transA != Transpose.NONE, bTransposed = transB != Transpose.NONE;
        int elemBytes = scalarBytes * components;
        // Row-major storage: op(A) = A is m x k, op(A) = A^T means A is stored k x m; same for B.
        MemorySegment ar = region(
                fn,
                "a",
                a,
                "aOffsetElems",
                aOffset,
                "lda",
                lda,
                aTransposed ? k : m,
                aTransposed ? m : k,
                elemBytes,
                scalarBytes);
        MemorySegment br = region(
                fn,
                "b",
                b,
                "bOffsetElems",
                bOffset,
                "ldb",
                ldb,
                bTransposed ? n : k,
                bTransposed ? k : n,
                elemBytes,
                scalarBytes);
        MemorySegment cr = region(fn, "c", c, "cOffsetElems", cOffset, "ldc", ldc, m, n, elemBytes, scalarBytes);
        if (c.isReadOnly()) throw invalid(fn, "c", "is read-only");
        // BLAS reads A and B while writing C; an aliased output gives garbage. The check is on
        // the spans first..last element, so interleaved but disjoint matrices are rejected too.
        if (cr.asOverlappingSlice(ar).isPresent()) throw invalid(fn, "c", "overlaps a");
        if (cr.asOverlappingSlice(br).isPresent()) throw invalid(fn, "c", "overlaps b");
        return new GemmOperands(ar, br, cr, !a.isNative() || !b.isNative() || !c.isNative());
    }

    /** Checks one rows x cols matrix stored from {@code offset} with leading dimension {@code ld}. */
    private static MemorySegment region(
            String fn,
            String name,
            MemorySegment seg,
            String offsetName,
            long offset,
            String ldName,
            int ld,
            int rows,
            int cols,
            int elemBytes,
            int scalarBytes) {
        if (seg == null) throw invalid(fn, name, "is null");
        if (!seg.scope().isAlive()) throw invalid(fn, name, "belongs to a closed arena");
        if (!seg.isAccessibleBy(Thread.currentThread())) throw invalid(fn, name, "is confined to another thread");
        if (ld < Math.max(1, cols)) {
            throw invalid(
                    fn, ldName, "= " + ld + " must be >= max(1, " + cols + "), the columns of " + name + " as stored");
        }
        long capacity = seg.byteSize() / elemBytes;
        if (offset < 0 || offset > capacity) {
            throw invalid(fn, offsetName, "= " + offset + " is outside " + name + " (" + capacity + " elements)");
        }
        // Elements from the first to the last touched. No overflow: offset <= capacity <= 2^61 and (rows-1)*ld <
        // 2^62.
        long span = rows == 0 || cols == 0 ? 0 : (long) (rows - 1) * ld + cols;
        if (span > capacity - offset) {
            throw invalid(
                    fn,
                    name,
                    "is too small: a " + rows + "x" + cols + " matrix with " + ldName + " = " + ld
                            + " at " + offsetName + " = " + offset + " needs " + (offset + span)
                            + " elements, it has " + capacity);
        }
        MemorySegment region = seg.asSlice(offset * elemBytes, span * elemBytes);
        if (region.maxByteAlignment() < scalarBytes) {
            throw invalid(fn, name, "is not " + scalarBytes + "-byte aligned at " + offsetName + " = " + offset);
        }
        return region;
    }

    private static TorchException invalid(String fn, String argument, String problem) {
        return new TorchException(fn + ": " + argument + " " + problem);
    }
}
