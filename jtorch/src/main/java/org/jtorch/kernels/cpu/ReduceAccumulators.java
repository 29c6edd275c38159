package org.jtorch.kernels.cpu;

import java.lang.foreign.MemorySegment;
import org.jtorch.kernels.cpu.ReduceLoops.Op;

/**
 * Per-lane accumulators of the generic reduction path, one per compute domain. Each is created once per parallel task,
 * {@code reset()} before every lane, fed the lane's runs in order, then read.
 */
final class ReduceAccumulators {
    private ReduceAccumulators() {}

    /**
     * Floating domain, in double. Complex inputs may be read as their magnitude (norms, all/any). var/std reduce each
     * run in two passes (mean, then squared deviations) and merge runs with Chan's formula; logsumexp keeps a running
     * maximum of the finite values and rescales the sum.
     */
    static final class DoubleAcc implements ReduceLanes.RunSink {
        private final Op op;
        private final double p;
        private final ElementIO io;
        private final MemorySegment seg;
        private final boolean magnitude;
        private final long laneSize;
        private double a, b;
        private long n;
        private boolean sawNan, sawPosInf;

        DoubleAcc(Op op, double p, ElementIO io, MemorySegment seg, boolean magnitude, long laneSize) {
            this.op = op;
            this.p = p;
            this.io = io;
            this.seg = seg;
            this.magnitude = magnitude;
            this.laneSize = laneSize;
        }

        void reset() {
            n = 0;
            b = 0;
            sawNan = false;
            sawPosInf = false;
            a = switch (op) {
                case PROD, ALL -> 1;
                case AMAX, LOGSUMEXP -> Double.NEGATIVE_INFINITY;
                case AMIN -> Double.POSITIVE_INFINITY;
                case NORM -> p == Double.NEGATIVE_INFINITY ? Double.POSITIVE_INFINITY : 0;
                default -> 0;
            };
        }

        private double read(long i) {
            return magnitude ? Math.hypot(io.getDouble(seg, i), io.getImag(seg, i)) : io.getDouble(seg, i);
        }

        @Override
        public void run(long start, long stride, long len) {
            switch (op) {
                case SUM, MEAN -> {
                    double s = a;
                    for (long i = 0; i < len; i++) s += read(start + i * stride);
                    a = s;
                }
                case NANSUM, NANMEAN -> {
                    for (long i = 0; i < len; i++) {
                        double v = read(start + i * stride);
                        if (v == v) {
                            a += v;
                            n++;
                        }
                    }
                }
                case PROD -> {
                    for (long i = 0; i < len; i++) a *= read(start + i * stride);
                }
                case AMAX -> {
                    for (long i = 0; i < len && a == a; i++) {
                        double v = read(start + i * stride);
                        if (v > a || v != v) a = v;
                    }
                }
                case AMIN -> {
                    for (long i = 0; i < len && a == a; i++) {
                        double v = read(start + i * stride);
                        if (v < a || v != v) a = v;
                    }
                }
                case ALL -> {
                    for (long i = 0; i < len && a != 0; i++) if (read(start + i * stride) == 0) a = 0;
                }
                case ANY -> {
                    for (long i = 0; i < len && a == 0; i++) if (read(start + i * stride) != 0) a = 1;
                }
                case VAR, STD -> variance(start, stride, len);
                case LOGSUMEXP -> logSumExp(start, stride, len);
                case NORM -> norm(start, stride, len);
            }
        }

        /** a = mean so far, b = sum of squared deviations so far, n = count so far. */
        private void variance(long start, long stride, long len) {
            double s = 0;
            for (long i = 0; i < len; i++) s += read(start + i * stride);
            double mean = s / len, m2 = 0;
            for (long i = 0; i < len; i++) {
                double d = read(start + i * stride) - mean;
                m2 += d * d;
            }
            if (n == 0) {
                a = mean;
                b = m2;
            } else {
                double delta = mean - a, total = n + len;
                a += delta * (len / total);
                b += m2 + delta * delta * (n * (len / total));
            }
            n += len;
        }

        /** a = running maximum of the finite values, b = sum of exp(x - a) over them. */
        private void logSumExp(long start, long stride, long len) {
            for (long i = 0; i < len; i++) {
                double v = read(start + i * stride);
                if (v != v) sawNan = true;
                else if (v == Double.POSITIVE_INFINITY) sawPosInf = true;
                else if (v == Double.NEGATIVE_INFINITY) continue;
                else if (v > a) {
                    b = b * Math.exp(a - v) + 1;
                    a = v;
                } else {
                    b += Math.exp(v - a);
                }
            }
        }

        private void norm(long start, long stride, long len) {
            if (p == 2) {
                for (long i = 0; i < len; i++) {
                    double v = read(start + i * stride);
                    a += v * v;
                }
            } else if (p == 1) {
                for (long i = 0; i < len; i++) a += Math.abs(read(start + i * stride));
            } else if (p == 0) {
                for (long i = 0; i < len; i++) if (read(start + i * stride) != 0) a += 1;
            } else if (p == Double.POSITIVE_INFINITY) {
                for (long i = 0; i < len && a == a; i++) {
                    double v = Math.abs(read(start + i * stride));
                    if (v > a || v != v) a = v;
                }
            } else if (p == Double.NEGATIVE_INFINITY) {
                for (long i = 0; i < len && a == a; i++) {
                    double v = Math.abs(read(start + i * stride));
                    if (v < a || v != v) a = v;
                }
            } else {
                for (long i = 0; i < len; i++) a += Math.pow(Math.abs(read(start + i * stride)), p);
            }
        }

        boolean truth() {
            return a != 0;
        }

        double result() {
            return switch (op) {
                case MEAN -> a / laneSize;
                case NANMEAN -> a / n;
                case VAR -> b / Math.max(0, laneSize - p);
                case STD -> Math.sqrt(b / Math.max(0, laneSize - p));
                case LOGSUMEXP ->
                    sawNan
                            ? Double.NaN
                            : sawPosInf
                                    ? Double.POSITIVE_INFINITY
                                    : b == 0 ? Double.NEGATIVE_INFINITY : a + Math.log(b);
                case NORM -> p == 2 ? Math.sqrt(a) : p == 1 || p == 0 || Double.isInfinite(p) ? a : Math.pow(a, 1 / p);
                default -> a;
            };
        }
    }

    /** Bool/integer domain: sums and products wrap as int64 does; {@code unsigned} orders uint64. */
    static final class LongAcc implements ReduceLanes.RunSink {
        private final Op op;
        private final ElementIO io;
        private final MemorySegment seg;
        private final boolean unsigned;
        private long a;

        LongAcc(Op op, ElementIO io, MemorySegment seg, boolean unsigned) {
            this.op = op;
            this.io = io;
            this.seg = seg;
            this.unsigned = unsigned;
        }

        void reset() {
            a = switch (op) {
                case PROD, ALL -> 1;
                case AMAX -> unsigned ? 0 : Long.MIN_VALUE;
                case AMIN -> unsigned ? -1 : Long.MAX_VALUE;
                default -> 0;
            };
        }

        @Override
        public void run(long start, long stride, long len) {
            switch (op) {
                case SUM, NANSUM -> {
                    long s = a;
                    for (long i = 0; i < len; i++) s += io.getLong(seg, start + i * stride);
                    a = s;
                }
                case PROD -> {
                    for (long i = 0; i < len; i++) a *= io.getLong(seg, start + i * stride);
                }
                case AMAX -> {
                    for (long i = 0; i < len; i++) {
                        long v = io.getLong(seg, start + i * stride);
                        if (compare(v, a) > 0) a = v;
                    }
                }
                case AMIN -> {
                    for (long i = 0; i < len; i++) {
                        long v = io.getLong(seg, start + i * stride);
                        if (compare(v, a) < 0) a = v;
                    }
                }
                case ALL -> {
                    for (long i = 0; i < len && a != 0; i++) if (io.getLong(seg, start + i * stride) == 0) a = 0;
                }
                case ANY -> {
                    for (long i = 0; i < len && a == 0; i++) if (io.getLong(seg, start + i * stride) != 0) a = 1;
                }
                default -> throw new IllegalStateException(op + " has no integer kernel");
            }
        }

        private int compare(long x, long y) {
            return unsigned ? Long.compareUnsigned(x, y) : Long.compare(x, y);
        }

        long result() {
            return a;
        }
    }

    /**
     * Complex domain: sum, prod, mean, var/std (real result) and logsumexp. After {@link #finish()} the lane's result
     * is in {@link #re}, {@link #im}.
     */
    static final class ComplexAcc implements ReduceLanes.RunSink {
        private final Op op;
        private final double p;
        private final ElementIO io;
        private final MemorySegment seg;
        private final long laneSize;
        double re, im;
        private double m2, max;
        private long n;
        private boolean summing;

        ComplexAcc(Op op, double p, ElementIO io, MemorySegment seg, long laneSize) {
            this.op = op;
            this.p = p;
            this.io = io;
            this.seg = seg;
            this.laneSize = laneSize;
        }

        void reset() {
            re = op == Op.PROD ? 1 : 0;
            im = 0;
            m2 = 0;
            n = 0;
            summing = false;
            max = Double.NEGATIVE_INFINITY;
        }

        /**
         * Whether the lane must be visited again: complex logsumexp first finds the largest real part m (0 when
         * infinite), then sums exp(z - m), the rule PyTorch applies to complex input.
         */
        boolean secondPass() {
            if (op != Op.LOGSUMEXP) return false;
            if (Double.isInfinite(max)) max = 0;
            summing = true;
            return true;
        }

        @Override
        public void run(long start, long stride, long len) {
            if (op == Op.VAR || op == Op.STD) {
                variance(start, stride, len);
                return;
            }
            for (long i = 0; i < len; i++) {
                long k = start + i * stride;
                double vr = io.getDouble(seg, k), vi = io.getImag(seg, k);
                switch (op) {
                    case SUM, MEAN -> {
                        re += vr;
                        im += vi;
                    }
                    case PROD -> {
                        double r = re * vr - im * vi;
                        im = re * vi + im * vr;
                        re = r;
                    }
                    case LOGSUMEXP -> {
                        if (!summing) {
                            if (vr > max || vr != vr) max = vr;
                        } else {
                            double e = Math.exp(vr - max);
                            re += e * Math.cos(vi);
                            im += e * Math.sin(vi);
                        }
                    }
                    default -> throw new IllegalStateException(op + " has no complex kernel");
                }
            }
        }

        /** As {@link DoubleAcc}'s, on both parts: re, im hold the mean; m2 the summed |z - mean|^2. */
        private void variance(long start, long stride, long len) {
            double sr = 0, si = 0;
            for (long i = 0; i < len; i++) {
                long k = start + i * stride;
                sr += io.getDouble(seg, k);
                si += io.getImag(seg, k);
            }
            double mr = sr / len, mi = si / len, runM2 = 0;
            for (long i = 0; i < len; i++) {
                long k = start + i * stride;
                double dr = io.getDouble(seg, k) - mr, di = io.getImag(seg, k) - mi;
                runM2 += dr * dr + di * di;
            }
            if (n == 0) {
                re = mr;
                im = mi;
                m2 = runM2;
            } else {
                double dr = mr - re, di = mi - im, total = n + len;
                re += dr * (len / total);
                im += di * (len / total);
                m2 += runM2 + (dr * dr + di * di) * (n * (len / total));
            }
            n += len;
        }

        /** Turns the accumulated state into the lane's result. */
        void finish() {
            switch (op) {
                case MEAN -> {
                    re /= laneSize;
                    im /= laneSize;
                }
                case VAR, STD -> {
                    double v = m2 / Math.max(0, laneSize - p);
                    re = op == Op.STD ? Math.sqrt(v) : v;
                    im = 0;
                }
                case LOGSUMEXP -> {
                    double mag = Math.hypot(re, im), arg = Math.atan2(im, re);
                    re = Math.log(mag) + max;
                    im = arg;
                }
                default -> {}
            }
        }
    }

    /** Running max or min with the row-major position of the winner: first on ties, a NaN wins and sticks. */
    static final class IndexAcc implements ReduceLanes.RunSink {
        private final boolean max, floating, unsigned;
        private final ElementIO io;
        private final MemorySegment seg;
        double bestD;
        long bestL, bestPos;
        private long pos;

        IndexAcc(boolean max, boolean floating, boolean unsigned, ElementIO io, MemorySegment seg) {
            this.max = max;
            this.floating = floating;
            this.unsigned = unsigned;
            this.io = io;
            this.seg = seg;
        }

        void reset() {
            pos = 0;
            bestPos = 0;
        }

        @Override
        public void run(long start, long stride, long len) {
            if (floating) {
                for (long i = 0; i < len; i++, pos++) {
                    double v = io.getDouble(seg, start + i * stride);
                    if (pos == 0 || (bestD == bestD && (v != v || (max ? v > bestD : v < bestD)))) {
                        bestD = v;
                        bestPos = pos;
                    }
                }
            } else {
                for (long i = 0; i < len; i++, pos++) {
                    long v = io.getLong(seg, start + i * stride);
                    int c = unsigned ? Long.compareUnsigned(v, bestL) : Long.compare(v, bestL);
                    if (pos == 0 || (max ? c > 0 : c < 0)) {
                        bestL = v;
                        bestPos = pos;
                    }
                }
            }
        }
    }
}
