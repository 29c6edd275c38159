package org.jtorch.kernels.cpu;

import java.lang.foreign.MemorySegment;
import org.jtorch.DType;
import org.jtorch.TorchException;
import org.jtorch.storage.TensorImpl;

/**
 * Bucketing and counting kernels: {@code searchsorted}/{@code bucketize} (binary search), {@code histc} (equal-width
 * histogram) and {@code bincount}. Their checks that need the data (a sorter's range, the histogram range taken from
 * the data, bincount's negative or huge values) live here, with ATen's words.
 */
public final class BucketKernels {
    private BucketKernels() {}

    // ---- searchsorted -----------------------------------------------------------------------------------

    /**
     * {@code searchsorted}: for each element of {@code values}, the insertion position in its row of {@code boundaries}
     * (the whole of a 1-D boundaries tensor, else the row with the same leading indices), both compared in
     * {@code compute} (the promoted dtype). {@code sorter} (nullable) gives the sorted order of each boundaries row.
     * ATen's comparisons are kept literally, so a NaN value lands after every boundary and a NaN boundary counts as
     * larger than every value: left side finds the first {@code b} with {@code b >= v}, right side the first with
     * {@code b > v}.
     */
    public static void searchsorted(
            TensorImpl boundaries, TensorImpl values, TensorImpl sorter, boolean right, DType compute, TensorImpl out) {
        if (sorter != null) checkSorter(sorter, boundaries.dim() == 0 ? 1 : boundaries.size(-1));
        long total = values.numel();
        if (total == 0) return;
        int m = Math.toIntExact(boundaries.dim() == 0 ? 1 : boundaries.size(-1));
        long rowLength = boundaries.dim() == 1 ? total : values.size(-1); // N-D boundaries: one row per values row
        boolean floating = compute.isFloatingPoint();
        boolean unsigned = compute == DType.UINT64;
        ElementIO vio = ElementIO.of(values.dtype()), oio = ElementIO.of(out.dtype());
        MemorySegment vs = values.storage().segment(), os = out.storage().segment();
        Parallel.forRange(total, 4096, (s, e) -> {
            long loadedRow = -1;
            double[] bd = floating ? new double[m] : null;
            long[] bl = floating ? null : new long[m];
            for (long i = s; i < e; i++) {
                long row = i / rowLength;
                if (row != loadedRow) {
                    loadRow(boundaries, sorter, boundaries.dim() == 1 ? 0 : row, m, compute, bd, bl);
                    loadedRow = row;
                }
                long at = values.elementIndex(i);
                long pos;
                if (floating) {
                    pos = search(bd, m, SortKernels.roundTo(compute, vio.getDouble(vs, at)), right);
                } else {
                    long v = vio.getLong(vs, at);
                    pos = unsigned ? searchUnsigned(bl, m, v, right) : search(bl, m, v, right);
                }
                oio.setLong(os, out.elementIndex(i), pos);
            }
        });
    }

    private static void checkSorter(TensorImpl sorter, long size) {
        long n = sorter.numel();
        ElementIO io = ElementIO.of(sorter.dtype());
        MemorySegment s = sorter.storage().segment();
        for (long i = 0; i < n; i++) {
            long v = io.getLong(s, sorter.elementIndex(i));
            if (v < 0 || v >= size) throw new TorchException("torch.searchsorted(): sorter index out of range");
        }
    }

    /** Boundaries row {@code row} in sorted order, converted to the compute dtype. */
    private static void loadRow(
            TensorImpl b, TensorImpl sorter, long row, int m, DType compute, double[] bd, long[] bl) {
        ElementIO io = ElementIO.of(b.dtype()), sio = sorter == null ? null : ElementIO.of(sorter.dtype());
        MemorySegment s = b.storage().segment(),
                ss = sorter == null ? null : sorter.storage().segment();
        for (int j = 0; j < m; j++) {
            long src = sorter == null ? j : sio.getLong(ss, sorter.elementIndex(row * m + j));
            long at = b.elementIndex(row * m + src);
            if (bd != null) bd[j] = SortKernels.roundTo(compute, io.getDouble(s, at));
            else bl[j] = io.getLong(s, at);
        }
    }

    private static long search(double[] bd, int m, double v, boolean right) {
        int lo = 0, hi = m;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            boolean goRight = right ? !(bd[mid] > v) : !(bd[mid] >= v);
            if (goRight) lo = mid + 1;
            else hi = mid;
        }
        return lo;
    }

    private static long search(long[] bl, int m, long v, boolean right) {
        int lo = 0, hi = m;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (right ? bl[mid] <= v : bl[mid] < v) lo = mid + 1;
            else hi = mid;
        }
        return lo;
    }

    private static long searchUnsigned(long[] bl, int m, long v, boolean right) {
        int lo = 0, hi = m;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            int c = Long.compareUnsigned(bl[mid], v);
            if (right ? c <= 0 : c < 0) lo = mid + 1;
            else hi = mid;
        }
        return lo;
    }

    // ---- histc --------------------------------------------------------------------------------------

    /**
     * {@code histc} into {@code hist} ({@code bins} elements, the input's floating dtype). With {@code min == max} the
     * range is the data's (NaN propagates into it); a still empty range widens to {@code [v - 1, v + 1]}. The bin of x
     * is {@code (x - lo) * bins / (hi - lo)} evaluated in the input's dtype, one rounding per operation as ATen's
     * {@code input_t} arithmetic, with {@code lo, hi} the range rounded to that dtype; x == hi goes to the last bin,
     * values outside the range and NaN are dropped. Counts are exact.
     */
    public static void histc(TensorImpl x, long bins, double min, double max, TensorImpl hist) {
        DType d = x.dtype();
        long n = x.numel();
        double lo = min, hi = max;
        if (lo == hi && n > 0) {
            double[] mm = minMax(x);
            lo = mm[0];
            hi = mm[1];
        }
        if (lo == hi) {
            lo -= 1;
            hi += 1;
        }
        checkHistcRange(lo, hi);
        double left = SortKernels.roundTo(d, lo), right = SortKernels.roundTo(d, hi);
        long[] counts = new long[Math.toIntExact(bins)];
        ElementIO io = ElementIO.of(d);
        MemorySegment s = x.storage().segment();
        Parallel.forRange(n, Parallel.GRAIN, (a, b) -> {
            long[] local = new long[counts.length];
            for (long i = a; i < b; i++) {
                double v = io.getDouble(s, x.elementIndex(i));
                if (!(v >= left && v <= right)) continue;
                long pos = (long) binPosition(d, v, left, right, bins);
                local[(int) Math.min(pos, bins - 1)]++; // pos == bins only for v == right: the last bin holds it
            }
            synchronized (counts) {
                for (int i = 0; i < local.length; i++) counts[i] += local[i];
            }
        });
        ElementIO ho = ElementIO.of(hist.dtype());
        MemorySegment hs = hist.storage().segment();
        for (int i = 0; i < counts.length; i++) ho.setDouble(hs, hist.elementIndex(i), counts[i]);
    }

    /** ATen's range checks of {@code histc}, on the final range. */
    public static void checkHistcRange(double lo, double hi) {
        if (Double.isInfinite(lo) || Double.isInfinite(hi) || Double.isNaN(lo) || Double.isNaN(hi)) {
            throw new TorchException(
                    "torch.histc: range of [" + cppDouble(lo) + ", " + cppDouble(hi) + "] is not finite");
        }
        if (!(lo < hi)) throw new TorchException("torch.histc: max must be larger than min");
    }

    private static double binPosition(DType d, double v, double left, double right, long bins) {
        return switch (d) {
            case FLOAT64 -> (v - left) * bins / (right - left);
            case FLOAT32 -> {
                float diff = (float) v - (float) left;
                yield diff * (float) bins / ((float) right - (float) left);
            }
            default -> {
                double diff = SortKernels.roundTo(d, v - left);
                double scaled = SortKernels.roundTo(d, diff * SortKernels.roundTo(d, bins));
                yield SortKernels.roundTo(d, scaled / SortKernels.roundTo(d, right - left));
            }
        };
    }

    /** The smallest and largest element as doubles; NaN if any element is NaN (as {@code aminmax}). */
    private static double[] minMax(TensorImpl x) {
        ElementIO io = ElementIO.of(x.dtype());
        MemorySegment s = x.storage().segment();
        double lo = Double.POSITIVE_INFINITY, hi = Double.NEGATIVE_INFINITY;
        for (long i = 0, n = x.numel(); i < n; i++) {
            double v = io.getDouble(s, x.elementIndex(i));
            if (Double.isNaN(v)) return new double[] {v, v};
            lo = Math.min(lo, v);
            hi = Math.max(hi, v);
        }
        return new double[] {lo, hi};
    }

    /** A double as C++'s default stream prints it: 6 significant digits, {@code inf}, {@code nan}. */
    static String cppDouble(double v) {
        if (Double.isNaN(v)) return "nan";
        if (Double.isInfinite(v)) return v > 0 ? "inf" : "-inf";
        if (v == Math.rint(v) && Math.abs(v) < 1e6) return Long.toString((long) v);
        return new java.math.BigDecimal(v)
                .round(new java.math.MathContext(6))
                .stripTrailingZeros()
                .toString();
    }

    // ---- bincount -----------------------------------------------------------------------------------

    /**
     * {@code bincount} of a 1-D integral tensor: ATen's data checks in ATen's order, then counts (int64), or sums of
     * {@code weights} (float32 weights sum in float, anything else in double).
     */
    public static TensorImpl bincount(TensorImpl x, TensorImpl weights, long minlength) {
        long n = x.numel();
        if (x.dim() == 1 && n == 0) return TensorImpl.empty(new long[] {minlength}, DType.INT64);
        ElementIO io = ElementIO.of(x.dtype());
        MemorySegment s = x.storage().segment();
        long lo = Long.MAX_VALUE, hi = Long.MIN_VALUE;
        for (long i = 0; i < n; i++) {
            long v = io.getLong(s, x.elementIndex(i));
            lo = Math.min(lo, v);
            hi = Math.max(hi, v);
        }
        if (x.dim() != 1 || lo < 0)
            throw new TorchException("bincount only supports 1-d non-negative integral inputs.");
        if (hi == Long.MAX_VALUE) {
            throw new TorchException(
                    "maximum value of input overflowed, it should be < " + Long.MAX_VALUE + " but got " + hi);
        }
        if (weights != null && (weights.dim() != 1 || weights.size(0) != n)) {
            throw new TorchException("weights should be 1-d and have the same length as input");
        }
        long bins = Math.max(hi + 1, minlength);
        long[] shape = {bins};
        if (weights == null) {
            TensorImpl out = TensorImpl.empty(shape, DType.INT64);
            long[] c = new long[Math.toIntExact(bins)];
            for (long i = 0; i < n; i++) c[(int) io.getLong(s, x.elementIndex(i))]++;
            ElementIO oo = ElementIO.of(DType.INT64);
            for (int b = 0; b < c.length; b++) oo.setLong(out.storage().segment(), b, c[b]);
            return out;
        }
        boolean single = weights.dtype() == DType.FLOAT32;
        TensorImpl out = TensorImpl.empty(shape, single ? DType.FLOAT32 : DType.FLOAT64);
        ElementIO wio = ElementIO.of(weights.dtype());
        MemorySegment ws = weights.storage().segment();
        if (single) {
            float[] sum = new float[Math.toIntExact(bins)];
            for (long i = 0; i < n; i++)
                sum[(int) io.getLong(s, x.elementIndex(i))] += (float) wio.getDouble(ws, weights.elementIndex(i));
            for (int b = 0; b < sum.length; b++)
                ElementIO.of(DType.FLOAT32).setDouble(out.storage().segment(), b, sum[b]);
        } else {
            double[] sum = new double[Math.toIntExact(bins)];
            for (long i = 0; i < n; i++)
                sum[(int) io.getLong(s, x.elementIndex(i))] += wio.getDouble(ws, weights.elementIndex(i));
            for (int b = 0; b < sum.length; b++)
                ElementIO.of(DType.FLOAT64).setDouble(out.storage().segment(), b, sum[b]);
        }
        return out;
    }
}
