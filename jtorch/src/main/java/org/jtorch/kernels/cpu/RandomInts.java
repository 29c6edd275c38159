package org.jtorch.kernels.cpu;

import java.lang.foreign.MemorySegment;
import org.jtorch.DType;
import org.jtorch.storage.TensorImpl;

/**
 * Integer-valued sampling of PyTorch's CPU generator: {@code random_} in its three forms (and so {@code randint}),
 * {@code randperm} and {@code multinomial}, drawing exactly as ATen does. Callers have validated the arguments and hold
 * the generator's lock.
 */
public final class RandomInts {
    private RandomInts() {}

    /**
     * Writes the integer {@code v} into element {@code i}, converting as ATen's {@code static_cast<scalar_t>(int64_t)}.
     */
    private static void store(ElementIO io, DType dt, MemorySegment seg, long i, long v) {
        // long -> float rounds once in Java, as in C; a 16-bit float then rounds from that float.
        if (dt == DType.FLOAT32 || dt.isReducedPrecision()) io.setDouble(seg, i, (float) v);
        else io.setLong(seg, i, v);
    }

    /**
     * {@code random_(from, to)} with {@code range = to - from} as an unsigned 64-bit count: value {@code from + draw %
     * range}, where the draw is 64-bit once the range reaches 2^28, whatever the dtype, and 32-bit otherwise — the
     * public PyTorch 2.x builds' rule (ATen keeps 1.x's 2^32 and dtype list only for internal builds), which bounds the
     * modulo's skew near 5%.
     */
    public static void fromTo(Mt19937 g, TensorImpl out, long range, long base) {
        DType dt = out.dtype();
        boolean wide = Long.compareUnsigned(range, 1L << 28) >= 0;
        ElementIO io = ElementIO.of(dt);
        MemorySegment seg = out.storage().segment();
        SerialOrder.forEach(out, (o, unused) -> {
            long draw = wide ? g.nextLong() : g.nextUnsigned32();
            store(io, dt, seg, o, Long.remainderUnsigned(draw, range) + base);
        });
    }

    /**
     * {@code random_(from=INT64_MIN, to=None)}: every 64-bit pattern, read as int64 (int64, float64, float32,
     * bfloat16).
     */
    public static void full64(Mt19937 g, TensorImpl out) {
        DType dt = out.dtype();
        ElementIO io = ElementIO.of(dt);
        MemorySegment seg = out.storage().segment();
        SerialOrder.forEach(out, (o, unused) -> store(io, dt, seg, o, g.nextLong()));
    }

    /**
     * {@code random_()}: a draw modulo {@code max + 1} of an integral dtype (int64: 2^63), modulo {@code 2^digits + 1}
     * of a floating one, its low bit for bool. int64 and float64 draw 64 bits.
     */
    public static void defaultRange(Mt19937 g, TensorImpl out) {
        DType dt = out.dtype();
        boolean wide = dt == DType.INT64 || dt == DType.FLOAT64;
        long modulus =
                switch (dt) {
                    case BOOL -> 2;
                    case UINT8 -> 1L << 8;
                    case INT8 -> 1L << 7;
                    case INT16 -> 1L << 15;
                    case INT32 -> 1L << 31;
                    case INT64 -> 1L << 63;
                    case FLOAT16 -> (1L << 11) + 1;
                    case BFLOAT16 -> (1L << 8) + 1;
                    case FLOAT32 -> (1L << 24) + 1;
                    case FLOAT64 -> (1L << 53) + 1;
                    default -> throw new IllegalArgumentException("random_: no default range for " + dt);
                };
        ElementIO io = ElementIO.of(dt);
        MemorySegment seg = out.storage().segment();
        SerialOrder.forEach(out, (o, unused) -> {
            long draw = wide ? g.nextLong() : g.nextUnsigned32();
            store(io, dt, seg, o, Long.remainderUnsigned(draw, modulus));
        });
    }

    /**
     * {@code randperm(n)}: below {@code 2^32 / 20} ATen's original swap shuffle ({@code i <-> i + draw32 % (n - i)} for
     * i from 0), above it the inside-out Fisher–Yates with 64-bit draws.
     */
    public static void randperm(Mt19937 g, TensorImpl out, int n) {
        int[] perm = new int[n];
        if (n < 0xFFFFFFFFL / 20) {
            for (int i = 0; i < n; i++) perm[i] = i;
            for (int i = 0; i < n - 1; i++) {
                int z = (int) (g.nextUnsigned32() % (n - i));
                int t = perm[i];
                perm[i] = perm[z + i];
                perm[z + i] = t;
            }
        } else {
            for (int i = 0; i < n; i++) {
                int z = (int) Long.remainderUnsigned(g.nextLong(), i + 1L);
                perm[i] = perm[z];
                perm[z] = i;
            }
        }
        DType dt = out.dtype();
        ElementIO io = ElementIO.of(dt);
        MemorySegment seg = out.storage().segment();
        long off = out.storageOffset(), stride = n > 0 ? out.stride(0) : 1;
        for (int i = 0; i < n; i++) store(io, dt, seg, off + i * stride, perm[i]);
    }

    // ---- multinomial --------------------------------------------------------------------------------------

    /**
     * {@code multinomial} with replacement and more than one sample (ATen's {@code multinomial_with_replacement}): per
     * row, the running sum of the probabilities in the compute dtype (float for 16-bit inputs), divided by the total,
     * the last bucket forced to 1; each sample is a double uniform located by binary search (the first bucket whose
     * cumulative value is not below it).
     */
    public static void withReplacement(Mt19937 g, TensorImpl probs, int samples, TensorImpl out) {
        int rows = probs.dim() == 2 ? (int) probs.size(0) : 1;
        int categories = (int) probs.size(-1);
        ElementIO pio = ElementIO.of(probs.dtype());
        MemorySegment ps = probs.storage().segment(), os = out.storage().segment();
        boolean single = probs.dtype() != DType.FLOAT64;
        long rowStride = probs.dim() == 2 ? probs.stride(0) : 0, colStride = probs.stride(-1);
        long outRow = out.dim() == 2 ? out.stride(0) : 0, outCol = out.stride(-1);
        double[] cum = new double[categories];
        for (int r = 0; r < rows; r++) {
            long base = probs.storageOffset() + r * rowStride;
            double sum = 0;
            float sumF = 0;
            for (int j = 0; j < categories; j++) {
                double v = pio.getDouble(ps, base + j * colStride);
                if (single) {
                    sumF += (float) v;
                    cum[j] = sumF;
                } else {
                    sum += v;
                    cum[j] = sum;
                }
            }
            double total = single ? sumF : sum;
            for (int j = 0; j < categories; j++) cum[j] = single ? (float) cum[j] / (float) total : cum[j] / total;
            cum[categories - 1] = 1;
            for (int s = 0; s < samples; s++) {
                double u = g.nextDouble();
                int lo = 0, hi = categories;
                while (hi - lo > 0) {
                    int mid = lo + (hi - lo) / 2;
                    if (cum[mid] < u) lo = mid + 1;
                    else hi = mid;
                }
                os.setAtIndex(ElementIO.I64, out.storageOffset() + r * outRow + s * outCol, lo);
            }
        }
    }

    /**
     * The Gumbel-style draw ATen uses without replacement and for a single sample: {@code q ~ Exp(1)} drawn like
     * {@code empty_like(probs).exponential_(1)} (so in the serial order of probs's layout when it is dense), then the
     * {@code samples} largest {@code probs / q} per row, largest first (ties: lower index).
     */
    public static void gumbel(Mt19937 g, TensorImpl probs, TensorImpl layout, int samples, TensorImpl out) {
        DType dt = probs.dtype();
        TensorImpl q =
                TensorImpl.empty(layout.shapeRef(), DType.FLOAT64).viewOf(0, layout.shapeRef(), layout.strideRef());
        RandomFill.exponential(g, q, 1.0);
        int rows = probs.dim() == 2 ? (int) probs.size(0) : 1;
        int categories = (int) probs.size(-1);
        ElementIO pio = ElementIO.of(dt), qio = ElementIO.of(DType.FLOAT64);
        MemorySegment ps = probs.storage().segment(),
                qs = q.storage().segment(),
                os = out.storage().segment();
        long outRow = out.dim() == 2 ? out.stride(0) : 0, outCol = out.stride(-1);
        double[] ratio = new double[categories];
        Integer[] order = new Integer[categories];
        for (int r = 0; r < rows; r++) {
            for (int j = 0; j < categories; j++) {
                long linear = (long) r * categories + j;
                double qv = roundTo(dt, qio.getDouble(qs, q.elementIndex(linear)));
                ratio[j] = divide(dt, pio.getDouble(ps, probs.elementIndex(linear)), qv);
                order[j] = j;
            }
            java.util.Arrays.sort(order, (a, b) -> {
                int c = Double.compare(ratio[b], ratio[a]); // NaN sorts first, as argmax/topk treat it as largest
                return c != 0 ? c : Integer.compare(a, b);
            });
            for (int s = 0; s < samples; s++)
                os.setAtIndex(ElementIO.I64, out.storageOffset() + r * outRow + s * outCol, order[s]);
        }
    }

    /** {@code v} as the dtype holds it (the exponential sample stored in a tensor of that dtype). */
    private static double roundTo(DType dt, double v) {
        return switch (dt) {
            case FLOAT64 -> v;
            case FLOAT32 -> (float) v;
            default -> RandomFill.round16(dt, (float) v);
        };
    }

    /** {@code p / q} in the dtype's arithmetic (16-bit floats compute in float and round). */
    private static double divide(DType dt, double p, double q) {
        return switch (dt) {
            case FLOAT64 -> p / q;
            case FLOAT32 -> (float) p / (float) q;
            default -> RandomFill.round16(dt, (float) p / (float) q);
        };
    }
}
