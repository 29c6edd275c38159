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

    @Override
    public double[][] newScratch() {
        return new double[][] {new double[2 * n]};
    }

    @Override
    public void transform(double[] data, double[][] scratch, boolean forward) {
        transform(data, 0, data, scratch, forward);
    }

    /** The column pass reads {@code src} where it lies and the row pass writes {@code dst}: no copy either side. */
    @Override
    public void transform(double[] src, int offset, double[] dst, double[][] scratch, boolean forward) {
        double[] work = scratch[0];
        Parallel.forRange(blocks(n2), 1, (from, to) -> {
            Block block = ThreadBuffers.of(columns, () -> new Block(columns, laneColumns, n1));
            for (long b = from; b < to; b++) columnBlock(src, offset, work, block, (int) b * BLOCK, forward);
        });
        Parallel.forRange(blocks(n1), 1, (from, to) -> {
            Block block = ThreadBuffers.of(rows, () -> new Block(rows, laneRows, n2));
            for (long b = from; b < to; b++) rowBlock(work, dst, block, (int) b * BLOCK, forward);
        });
    }

    private static long blocks(int count) {
        return (count + BLOCK - 1) / BLOCK;
    }

    /**
     * {@link #BLOCK} lines of one length, split and lane-major as {@link LaneFft} takes them (unused lanes of a last,
     * partial block hold zeros), with one worker's buffers. A plan without vector butterflies transforms the lines one
     * by one through a buffer of pairs.
     */
    private static final class Block {
        private final ComplexFft plan;
        private final LaneFft lanes;
        private final double[][] buf;
        private final double[] line;
        private final double[][] sub;
        /** The lines' real and imaginary parts before {@link #run}, in place. */
        final double[] re, im;

        Block(ComplexFft plan, LaneFft lanes, int length) {
            this.plan = plan;
            this.lanes = lanes;
            if (lanes != null) {
                buf = lanes.newBuffers();
                line = null;
                sub = null;
            } else {
                buf = new double[][] {new double[length * BLOCK], new double[length * BLOCK]};
                line = new double[2 * length];
                sub = plan.newScratch();
            }
            re = buf[0];
            im = buf[1];
        }

        /** Transforms the first {@code width} lines, leaving the results in {@link #re} and {@link #im}. */
        void run(int width, boolean forward) {
            if (lanes != null) {
                if (lanes.transform(buf, forward) != 0) {
                    System.arraycopy(buf[2], 0, re, 0, re.length);
                    System.arraycopy(buf[3], 0, im, 0, im.length);
                }
                return;
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
        }
    }

    /**
     * Steps 1 and 2 for columns {@code [c, c + BLOCK)} of the matrix at {@code src[offset]}, written to the same
     * columns of {@code dst}.
     */
    private void columnBlock(double[] src, int offset, double[] dst, Block block, int c, boolean forward) {
        int width = Math.min(BLOCK, n2 - c);
        double[] re = block.re, im = block.im;
        for (int m1 = 0; m1 < n1; m1++) {
            int at = offset + 2 * (n2 * m1 + c), e = m1 * BLOCK;
            for (int t = 0; t < width; t++) {
                re[e + t] = src[at + 2 * t];
                im[e + t] = src[at + 2 * t + 1];
            }
            for (int t = width; t < BLOCK; t++) re[e + t] = im[e + t] = 0;
        }
        block.run(width, forward);
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
                DoubleVector xr = DoubleVector.fromArray(S, re, e + v), xi = DoubleVector.fromArray(S, im, e + v);
                xr.mul(wr).sub(xi.mul(wi)).intoArray(re, e + v);
                xr.mul(wi).add(xi.mul(wr)).intoArray(im, e + v);
            }
            int at = 2 * (n2 * k1 + c);
            for (int t = 0; t < width; t++) {
                dst[at + 2 * t] = re[e + t];
                dst[at + 2 * t + 1] = im[e + t];
            }
        }
    }

    /** Step 3 for rows {@code [r, r + BLOCK)} of {@code src}, each written transposed into {@code dst}. */
    private void rowBlock(double[] src, double[] dst, Block block, int r, boolean forward) {
        int height = Math.min(BLOCK, n1 - r);
        double[] re = block.re, im = block.im;
        for (int t = 0; t < height; t++) {
            int at = 2 * n2 * (r + t);
            for (int m2 = 0; m2 < n2; m2++) {
                re[m2 * BLOCK + t] = src[at + 2 * m2];
                im[m2 * BLOCK + t] = src[at + 2 * m2 + 1];
            }
        }
        if (height < BLOCK) {
            for (int m2 = 0; m2 < n2; m2++) {
                for (int t = height; t < BLOCK; t++) re[m2 * BLOCK + t] = im[m2 * BLOCK + t] = 0;
            }
        }
        block.run(height, forward);
        for (int k2 = 0; k2 < n2; k2++) {
            int at = 2 * (r + n1 * k2), e = k2 * BLOCK;
            for (int t = 0; t < height; t++) {
                dst[at + 2 * t] = re[e + t];
                dst[at + 2 * t + 1] = im[e + t];
            }
        }
    }
}
