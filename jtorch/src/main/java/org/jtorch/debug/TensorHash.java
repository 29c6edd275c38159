package org.jtorch.debug;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.kernels.cpu.ElementIO;
import org.jtorch.kernels.cpu.Parallel;
import org.jtorch.kernels.cpu.StridedIter;

/**
 * A summary of a tensor's values, computed by a {@link HashFn}. {@code value} holds the 64-bit hash for
 * {@link HashFn#BITS} and the raw bits of the float64 norm for {@link HashFn#NORM}.
 *
 * <p>Both functions read the elements in row-major order straight from storage (never through the dispatcher, so
 * hashing inside a {@link DebugMode} records nothing), in fixed blocks of {@value #BLOCK} elements that workers may
 * process in parallel and that are combined in block order: the result depends on the dtype, the shape and the values
 * only, not on strides, storage offset or thread count.
 */
public record TensorHash(HashFn fn, long value) {
    /** Elements per block; block results are combined in index order, so the split never shows. */
    static final int BLOCK = 1 << 16;

    private static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt I32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong I64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    // MurmurHash3's 64-bit lane constants.
    private static final long C1 = 0x87c37b91114253d5L, C2 = 0x4cf5ad432745937fL;

    /** Requires the hash function. */
    public TensorHash {
        java.util.Objects.requireNonNull(fn, "fn");
    }

    /** Hashes {@code t}'s values; a meta tensor has none to hash. */
    public static TensorHash of(Tensor t, HashFn fn) {
        if (t.isMeta()) throw new IllegalArgumentException("cannot hash a tensor on the meta device: it holds no data");
        return switch (fn) {
            case BITS -> new TensorHash(fn, bits(t));
            case NORM -> new TensorHash(fn, Double.doubleToRawLongBits(norm(t)));
        };
    }

    /** The L1 norm of a {@link HashFn#NORM} hash. */
    public double norm() {
        if (fn != HashFn.NORM) throw new IllegalStateException("a " + fn + " hash has no norm");
        return Double.longBitsToDouble(value);
    }

    /** As the log prints it: the norm as Python prints a float, a bits hash as 16 hex digits. */
    @Override
    public String toString() {
        return fn == HashFn.NORM ? CallFormat.pyFloat(norm()) : String.format("0x%016x", value);
    }

    // ---- BITS -------------------------------------------------------------------------------------

    private static long bits(Tensor t) {
        long h = step(0, t.dtype().pyName().hashCode()); // String.hashCode is specified, so stable across JVMs
        h = step(h, t.dim());
        for (long s : t.impl().shapeRef()) h = step(h, s);
        long[] blocks = blockwise(t, TensorHash::bitsOfBlock);
        for (long b : blocks) h = step(h, b);
        return fmix(h);
    }

    /**
     * One MurmurHash3 lane step. For a fixed {@code h} it is a bijection of {@code k}, and every later step and
     * {@link #fmix} are bijections of {@code h}: changing any single word changes the hash.
     */
    private static long step(long h, long k) {
        k *= C1;
        k = Long.rotateLeft(k, 31);
        k *= C2;
        h ^= k;
        h = Long.rotateLeft(h, 27);
        return h * 5 + 0x52dce729;
    }

    private static long fmix(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        return k ^ (k >>> 33);
    }

    private static long bitsOfBlock(Tensor t, StridedIter it, long start, long end) {
        MemorySegment seg = t.impl().storage().segment();
        DType dtype = t.dtype();
        DType.StorageKind kind = dtype.storageKind();
        int slots = dtype.slotsPerElement();
        boolean bool = dtype == DType.BOOL;
        long[] h = {0};
        it.forEachRun(start, end, (base, stride, n) -> {
            long acc = h[0];
            for (long j = 0; j < n; j++) {
                long first = (base[0] + j * stride[0]) * slots;
                for (int s = 0; s < slots; s++) {
                    long word = rawBits(seg, kind, first + s);
                    acc = step(acc, bool ? (word != 0 ? 1 : 0) : word);
                }
            }
            h[0] = acc;
        });
        return h[0];
    }

    /** The bits of storage slot {@code slot} as stored, zero-extended: no float conversion touches NaN payloads. */
    private static long rawBits(MemorySegment seg, DType.StorageKind kind, long slot) {
        return switch (kind) {
            case BYTE -> seg.get(ValueLayout.JAVA_BYTE, slot) & 0xFFL;
            case SHORT -> seg.getAtIndex(I16, slot) & 0xFFFFL;
            case INT, FLOAT -> seg.getAtIndex(I32, slot) & 0xFFFFFFFFL;
            case LONG, DOUBLE -> seg.getAtIndex(I64, slot);
        };
    }

    // ---- NORM -------------------------------------------------------------------------------------

    private static double norm(Tensor t) {
        long[] blocks = blockwise(t, TensorHash::normOfBlock);
        double sum = 0;
        for (long b : blocks) sum += Double.longBitsToDouble(b);
        return sum;
    }

    private static long normOfBlock(Tensor t, StridedIter it, long start, long end) {
        MemorySegment seg = t.impl().storage().segment();
        DType dtype = t.dtype();
        ElementIO io = ElementIO.of(dtype);
        double[] sum = {0};
        it.forEachRun(start, end, (base, stride, n) -> {
            double acc = sum[0];
            for (long j = 0; j < n; j++) acc += Math.abs(value(io, dtype, seg, base[0] + j * stride[0]));
            sum[0] = acc;
        });
        return Double.doubleToRawLongBits(sum[0]);
    }

    /** The element as {@code norm_hash_fn} sees it: integers and bool pass through float32 first. */
    private static double value(ElementIO io, DType dtype, MemorySegment seg, long e) {
        return switch (dtype.category()) {
            case FLOATING -> io.getDouble(seg, e);
            case COMPLEX -> Math.hypot(io.getDouble(seg, e), io.getImag(seg, e));
            case BOOL, INTEGRAL -> dtype == DType.UINT64 ? (float) io.getDouble(seg, e) : (float) io.getLong(seg, e);
        };
    }

    // ---- blocks -----------------------------------------------------------------------------------

    @FunctionalInterface
    private interface BlockFn {
        long apply(Tensor t, StridedIter it, long start, long end);
    }

    /** Applies {@code fn} to each block of {@link #BLOCK} row-major elements; results in block order. */
    private static long[] blockwise(Tensor t, BlockFn fn) {
        long n = t.numel();
        long[] out = new long[Math.toIntExact((n + BLOCK - 1) / BLOCK)];
        if (n == 0) return out;
        StridedIter it = new StridedIter(t.impl().shapeRef(), t.impl());
        Parallel.forRange(out.length, 1, (s, e) -> {
            for (long b = s; b < e; b++) out[(int) b] = fn.apply(t, it, b * BLOCK, Math.min(n, (b + 1) * BLOCK));
        });
        return out;
    }
}
