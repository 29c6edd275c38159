package org.jtorch.kernels.fft;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorSpecies;
import org.jtorch.kernels.cpu.Parallel;

/**
 * The complex DFT of a large length {@code n = n1 n2} as many short ones (Bailey's four-step algorithm): with input
 * index {@code m = n2 m1 + m2} and output index {@code k = k1 + n1 k2}, {@code exp(s 2 pi i m k / n)} factors into
 * {@code exp(s 2 pi i m1 k1 / n1) exp(s 2 pi i m2 k1 / n) exp(s 2 pi i m2 k2 / n2)}, so the transform is
 *
 * <ol>
 *   <li>a DFT of length n1 down each of the n2 columns of the input read as an n1 x n2 matrix,
 *   <li>a twiddle {@code exp(s 2 pi i m2 k1 / n)} on each result,
 *   <li>a DFT of length n2 along each of the n1 rows, written transposed.
 * </ol>
 *
 * <p>Why: the mixed-radix passes sweep the whole array once per factor, ten sweeps of 16 MB for 2^20 points, and past
 * the caches each sweep runs at memory speed. Here every short transform works on a buffer that stays in the core's own
 * caches, and the whole array is read and written twice. Columns are moved {@link #BLOCK} at a time, so each row of the
 * matrix is touched in runs of whole cache lines. Blocks of columns (and of rows) are independent and spread over the
 * intra-op workers; a block's arithmetic does not depend on which thread runs it, so neither does the result.
 */
final class FourStepFft implements ComplexFft {
    /** Shortest length split: below it the mixed-radix passes already run in the core's caches. */
    static final int MIN_LENGTH = 1 << 15;

    /** Columns (or rows) moved together: 16 complex doubles are four 64-byte cache lines of a row. */
    private static final int BLOCK = LaneFft.LANES;

    private static final VectorSpecies<Double> S = DoubleVector.SPECIES_PREFERRED;
    private static final int VL = S.length();

    private final int n;
    private final int n1;
    private final int n2;
    private final ComplexFft columns;
    private final ComplexFft rows;
    /** The same transforms {@link #BLOCK} lines at a time in vector lanes, where their factors allow (else null). */
    private final LaneFft laneColumns;

    private final LaneFft laneRows;
    /**
     * The twiddle {@code exp(2 pi i q / n)} of step 2 is {@code coarse[q / n1] fine[q % n1]}: two tables of about
     * sqrt(n) entries each instead of one of n, each entry within an ulp, their product within about two.
     */
    private final double[] fine;

    private final double[] coarse;
    /**
     * {@code exp(2 pi i t k1 / n)} at {@code k1 BLOCK + t}: the part of step 2's twiddle that varies across a block.
     */
    private final double[] laneRe;

    private final double[] laneIm;

    FourStepFft(int n, int n1) {
        this.n = n;
        this.n1 = n1;
        this.n2 = n / n1;
        this.columns = ComplexFft.of(n1);
        this.rows = ComplexFft.of(n2);
        this.laneColumns = lanes(columns);
        this.laneRows = lanes(rows);
        this.fine = new double[2 * n1];
        for (int q = 0; q < n1; q++) {
            double angle = 2 * Math.PI * ((double) q / n);
            fine[2 * q] = Math.cos(angle);
            fine[2 * q + 1] = Math.sin(angle);
        }
        int coarseLength = (n - 1) / n1 + 1;
        this.coarse = new double[2 * coarseLength];
        for (int h = 0; h < coarseLength; h++) {
            double angle = 2 * Math.PI * ((double) ((long) h * n1) / n);
            coarse[2 * h] = Math.cos(angle);
            coarse[2 * h + 1] = Math.sin(angle);
        }
        this.laneRe = new double[n1 * BLOCK];
        this.laneIm = new double[n1 * BLOCK];
        for (int k1 = 0; k1 < n1; k1++) {
            for (int t = 0; t < BLOCK; t++) {
                double angle = 2 * Math.PI * ((double) ((long) t * k1) / n);
                laneRe[k1 * BLOCK + t] = Math.cos(angle);
                laneIm[k1 * BLOCK + t] = Math.sin(angle);
            }
        }
    }

    private static LaneFft lanes(ComplexFft plan) {
        return plan instanceof MixedRadixFft m && LaneFft.supports(m.length()) ? new LaneFft(m) : null;
    }

    /**
     * The column length to split {@code n} with: its largest divisor not above sqrt(n), or 0 when n is too short or has
     * no divisor of at least {@link #BLOCK} there (a prime, or twice one).
     */
    static int split(int n) {
        if (n < MIN_LENGTH) return 0;
        for (int d = (int) Math.sqrt(n); d >= BLOCK; d--) {
            if (n % d == 0) return d;
        }
        return 0;
    }

    @Override
    public int length() {
        return n;
    }

    /**
     * The matrix between the passes, split and lane-major by blocks of {@link #BLOCK} rows: arrays {@code 2b} and
     * {@code 2b + 1} hold the real and imaginary parts of rows {@code [b BLOCK, (b + 1) BLOCK)}, element {@code m2} of
     * row {@code b BLOCK + t} at {@code m2 BLOCK + t}: the layout the row transforms take, so the row pass reads each
     * block as it lies and the transposing is done by the column pass, on data still in the core's caches. Lanes past
     * the last row of a partial block are never written: they keep their zeros, as lanes never mix in a transform.
     */
    @Override
    public double[][] newScratch() {
        double[][] work = new double[2 * (int) blocks(n1)][];
        for (int a = 0; a < work.length; a++) work[a] = new double[n2 * BLOCK];
        return work;
    }

    @Override
    public void transform(double[] data, double[][] scratch, boolean forward) {
        transform(data, 0, data, scratch, forward);
    }

    /** The column pass reads {@code src} where it lies and the row pass writes {@code dst}: no copy either side. */
    @Override
    public void transform(double[] src, int offset, double[] dst, double[][] scratch, boolean forward) {
        Parallel.forRange(blocks(n2), 1, (from, to) -> {
            Block block = ThreadBuffers.of(columns, () -> new Block(columns, laneColumns, n1));
            for (long b = from; b < to; b++) columnBlock(src, offset, scratch, block, (int) b * BLOCK, forward);
        });
        Parallel.forRange(blocks(n1), 1, (from, to) -> {
            Block block = ThreadBuffers.of(rows, () -> new Block(rows, laneRows, n2));
            for (long b = from; b < to; b++) rowBlock(scratch, dst, block, (int) b, forward);
        });
    }

    private static long blocks(int count) {
        return (count + BLOCK - 1) / BLOCK;
    }

    /**
     * One worker's buffers for transforming {@link #BLOCK} lines of one length, split and lane-major as {@link LaneFft}
     * takes them. A plan without vector butterflies transforms the lines one by one through a buffer of pairs.
     */
    private static final class Block {
        private final ComplexFft plan;
        private final LaneFft lanes;
        /** The lane transform's four arrays: the lines' parts (set per call) and a second pair its passes use. */
        private final double[][] buf;

        private final double[] line;
        private final double[][] sub;
        /** The gathered lines of a column block. */
        final double[] re, im;

        Block(ComplexFft plan, LaneFft lanes, int length) {
            this.plan = plan;
            this.lanes = lanes;
            re = new double[length * BLOCK];
            im = new double[length * BLOCK];
            if (lanes != null) {
                buf = new double[][] {null, null, new double[length * BLOCK], new double[length * BLOCK]};
                line = null;
                sub = null;
            } else {
                buf = null;
                line = new double[2 * length];
                sub = plan.newScratch();
            }
        }

        /**
         * Transforms the first {@code width} lines of {@code re} and {@code im}; returns the arrays holding the
         * results: these two, or this block's second pair (which saves copying them back).
         */
        double[][] run(double[] re, double[] im, int width, boolean forward) {
            if (lanes != null) {
                buf[0] = re;
                buf[1] = im;
                int at = lanes.transform(buf, forward);
                double[][] out = at == 0 ? new double[][] {re, im} : new double[][] {buf[2], buf[3]};
                buf[0] = buf[1] = null;
                return out;
            }
            int length = plan.length();
            for (int t = 0; t < width; t++) {
                for (int e = 0; e < length; e++) {
                    line[2 * e] = re[e * BLOCK + t];
                    line[2 * e + 1] = im[e * BLOCK + t];
                }
                plan.transform(line, sub, forward);
                for (int e = 0; e < length; e++) {
                    re[e * BLOCK + t] = line[2 * e];
                    im[e * BLOCK + t] = line[2 * e + 1];
                }
            }
            return new double[][] {re, im};
        }
    }

    /**
     * Steps 1 and 2 for columns {@code [c, c + BLOCK)} of the matrix at {@code src[offset]}, written into
     * {@code work}'s row blocks (see {@link #newScratch}).
     */
    private void columnBlock(double[] src, int offset, double[][] work, Block block, int c, boolean forward) {
        int width = Math.min(BLOCK, n2 - c);
        double[] re = block.re, im = block.im;
        for (int m1 = 0; m1 < n1; m1++) {
            int at = offset + 2 * (n2 * m1 + c), e = m1 * BLOCK;
            if (width == BLOCK) {
                for (int v = 0; v < BLOCK; v += VL) {
                    DoubleVector a = DoubleVector.fromArray(S, src, at + 2 * v);
                    DoubleVector z = DoubleVector.fromArray(S, src, at + 2 * v + VL);
                    PairLanes.REALS.selectFrom(a, z).intoArray(re, e + v);
                    PairLanes.IMAGS.selectFrom(a, z).intoArray(im, e + v);
                }
                continue;
            }
            for (int t = 0; t < width; t++) {
                re[e + t] = src[at + 2 * t];
                im[e + t] = src[at + 2 * t + 1];
            }
            for (int t = width; t < BLOCK; t++) re[e + t] = im[e + t] = 0;
        }
        double[][] out = block.run(re, im, width, forward);
        double[] yr = out[0], yi = out[1];
        // the twiddle of (k1, m2 = c + t) is exp(s 2 pi i m2 k1 / n) = exp(s 2 pi i c k1 / n) exp(s 2 pi i t k1 / n)
        double s = forward ? -1 : 1;
        for (int k1 = 0; k1 < n1; k1++) {
            int q = c * k1, h = 2 * (q / n1), f = 2 * (q % n1), e = k1 * BLOCK;
            double cr = coarse[h], ci = coarse[h + 1], fr = fine[f], fi = fine[f + 1];
            double br = cr * fr - ci * fi, bi = cr * fi + ci * fr;
            for (int v = 0; v < BLOCK; v += VL) {
                DoubleVector tr = DoubleVector.fromArray(S, laneRe, e + v),
                        ti = DoubleVector.fromArray(S, laneIm, e + v);
                DoubleVector wr = tr.mul(br).sub(ti.mul(bi)),
                        wi = tr.mul(bi).add(ti.mul(br)).mul(s);
                DoubleVector xr = DoubleVector.fromArray(S, yr, e + v), xi = DoubleVector.fromArray(S, yi, e + v);
                xr.mul(wr).sub(xi.mul(wi)).intoArray(yr, e + v);
                xr.mul(wi).add(xi.mul(wr)).intoArray(yi, e + v);
            }
            // element (k1, c + t) goes to lane k1 % BLOCK of row block k1 / BLOCK: 16 such rows fill a 2 KB run
            double[] wr = work[2 * (k1 / BLOCK)], wi = work[2 * (k1 / BLOCK) + 1];
            int at = c * BLOCK + k1 % BLOCK;
            for (int t = 0; t < width; t++) {
                wr[at + t * BLOCK] = yr[e + t];
                wi[at + t * BLOCK] = yi[e + t];
            }
        }
    }

    /** Step 3 for row block {@code b} of {@code work}, each row written transposed into {@code dst}. */
    private void rowBlock(double[][] work, double[] dst, Block block, int b, boolean forward) {
        int r = b * BLOCK, height = Math.min(BLOCK, n1 - r);
        double[][] out = block.run(work[2 * b], work[2 * b + 1], height, forward);
        double[] re = out[0], im = out[1];
        for (int k2 = 0; k2 < n2; k2++) {
            int at = 2 * (r + n1 * k2), e = k2 * BLOCK;
            if (height == BLOCK) {
                for (int v = 0; v < BLOCK; v += VL) {
                    DoubleVector a = DoubleVector.fromArray(S, re, e + v), z = DoubleVector.fromArray(S, im, e + v);
                    PairLanes.LOW_PAIRS.selectFrom(a, z).intoArray(dst, at + 2 * v);
                    PairLanes.HIGH_PAIRS.selectFrom(a, z).intoArray(dst, at + 2 * v + VL);
                }
                continue;
            }
            for (int t = 0; t < height; t++) {
                dst[at + 2 * t] = re[e + t];
                dst[at + 2 * t + 1] = im[e + t];
            }
        }
    }
}
