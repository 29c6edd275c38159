package org.jtorch.ops;

import java.util.Arrays;
import java.util.stream.IntStream;
import org.jtorch.DType;
import org.jtorch.kernels.cpu.Parallel;
import org.jtorch.kernels.cpu.simd.DirectConvSimd;

/**
 * Direct float32 convolution for few weights per output channel (C_in/groups·kh·kw up to {@link #MAX_TERMS}): the three
 * passes of {@link ConvKernels} without the unfolded column matrix, parallel over (sample, group, block of four
 * channels) units. Why: with 9 or 72 weights per channel (the small CNNs whose per-sample gradients vmap computes as
 * convolutions of 64 × groups groups) a GEMM's reduction is too short to pay for writing and reading the column matrix,
 * and its per-group products are tiny.
 *
 * <p>The layout that makes every tap a contiguous run: a sample's channel is copied, zero-padded, into its stride
 * phases (phase (ry, rx) holds the padded rows ry, ry + sh, … and columns rx, rx + sw, …), each a plane {@code wp}
 * wide. Output (oy, ox) is then position p = oy·wp + ox of a "wide" output row, and tap (ki, kj) reads position p plus
 * a fixed shift in one phase: the convolution is a sum of shifted runs ({@link DirectConvSimd#correlate}). The wide row
 * has {@code wp - ow} spare positions per output row, computed and dropped (forward) or held at zero (gradients).
 *
 * <ul>
 *   <li>forward: each output channel's wide row is the sum over (input channel, tap) of weight × shifted input run;
 *   <li>grad input: each input phase is the sum over (output channel, tap of that phase) of weight × the grad output's
 *       wide row shifted back (a correlation with the flipped taps: every element written once);
 *   <li>grad weight: each weight is the dot product of the grad output's wide row with its tap's input run, summed over
 *       the samples ({@link DirectConvSimd#dots}).
 * </ul>
 *
 * Each result element is computed by one unit in a fixed order, so results do not depend on the thread count. The spare
 * positions of a weight-gradient dot product multiply zeros by input values that valid positions also read, so a
 * non-finite input can turn an infinite weight gradient into NaN where the column kernel keeps the infinity.
 */
final class DirectConvKernels {
    private DirectConvKernels() {}

    /**
     * Weights per output channel up to which the direct kernels run: the second convolution of the small CNNs has 72 (8
     * channels × 3 × 3); with longer reductions the GEMM's register blocking wins over re-reading the input runs.
     */
    static final int MAX_TERMS = 72;

    /** Elements of one sample's padded, phase-split input channels of a group at most (a piece's scratch buffer). */
    private static final long MAX_PLANES = 1L << 22;

    /** Most output channels per group the direct kernels take (the per-sample CNNs' layers have 8 and 16). */
    private static final long MAX_OUT_PER_GROUP = 16;

    /**
     * Input channels (over all samples) from which a strided problem's channels are split into phases by gathers: the
     * gathers' map costs about as much to build as one channel's element-by-element split, so a single sample of one or
     * a few channels (the loop's first layer) keeps the scalar split.
     */
    private static final long MIN_GATHERED_CHANNELS = 8;

    /** Output (or, for the input gradient, input) channels of a unit. */
    private static final int BLOCK = 4;

    /** Whether the direct kernels compute the convolution {@code g} in the compute type {@code ct}. */
    static boolean fits(DType ct, ConvOps.Geometry g) {
        if (ct != DType.FLOAT32) return false;
        // Many output channels per group make the GEMM path's column matrix pay off: Conv2d(3, 64, 3) on
        // [32, 3, 64, 64] forward + backward took 104 ms here against 43.6 ms through im2col (run-all, same machine).
        if (g.cout() / g.groups() > MAX_OUT_PER_GROUP) return false;
        long terms = g.cin() / g.groups() * g.kh() * g.kw();
        if (terms < 1 || terms > MAX_TERMS) return false;
        long phases = g.sh() * g.sw(),
                hp = Math.ceilDiv(g.h() + 2 * g.ph(), g.sh()),
                wp = Math.ceilDiv(g.w() + 2 * g.pw(), g.sw());
        long planes = Math.max(g.cin(), g.cout()) / g.groups() * (phases * hp * wp + 4L * DirectConvSimd.step());
        return planes <= MAX_PLANES && g.n() * Math.max(g.cin(), g.cout()) * hp * wp * phases < Integer.MAX_VALUE;
    }

    // ---- forward -----------------------------------------------------------------------------------------

    static void forward(
            ComputeArrays.Dense x,
            ComputeArrays.Dense w,
            ComputeArrays.Dense b,
            ComputeArrays.Target t,
            ConvOps.Geometry g) {
        Layout l = Layout.of(g);
        float[] xa = (float[]) x.array(), wa = (float[]) w.array(), ya = (float[]) t.array();
        float[] ba = b == null ? null : (float[]) b.array();
        int blocks = Math.ceilDiv(l.cog(), BLOCK);
        int[] srcAt = l.inputTerms(), wAt = identity(l.terms());
        Parallel.forRange((long) l.n() * l.groups() * blocks, grain((long) BLOCK * l.terms() * l.len()), (u0, u1) -> {
            float[] planes = new float[l.cig() * l.chan()], wide = new float[BLOCK * l.len()];
            long cached = -1;
            for (long u = u0; u < u1; u++) {
                long ng = u / blocks;
                int n = (int) (ng / l.groups()), gi = (int) (ng % l.groups()), first = (int) (u % blocks) * BLOCK;
                if (ng != cached) {
                    l.spread(xa, x.offset() + (n * l.cin() + gi * l.cig()) * l.plane(), l.cig(), planes);
                    cached = ng;
                }
                int co = gi * l.cog() + first, rows = Math.min(BLOCK, l.cog() - first);
                for (int o = 0; o < rows; o++) {
                    float bias = ba == null ? 0f : ba[b.offset() + co + o];
                    Arrays.fill(wide, o * l.len(), (o + 1) * l.len(), bias);
                }
                DirectConvSimd.correlate(
                        planes,
                        srcAt,
                        wa,
                        w.offset() + co * l.terms(),
                        wAt,
                        l.terms(),
                        l.terms(),
                        rows,
                        wide,
                        0,
                        l.len(),
                        l.len());
                for (int o = 0; o < rows; o++) {
                    l.narrow(wide, o * l.len(), ya, t.offset() + (n * l.cout() + co + o) * l.oh() * l.ow());
                }
            }
        });
    }

    // ---- grad input ------------------------------------------------------------------------------------

    /** The input gradient of the convolution {@code g}, plus {@code b} (or null) per input channel. */
    static void backwardInput(
            ComputeArrays.Dense gy,
            ComputeArrays.Dense w,
            ComputeArrays.Dense b,
            ComputeArrays.Target t,
            ConvOps.Geometry g) {
        Layout l = Layout.of(g);
        float[] ga = (float[]) gy.array(), wa = (float[]) w.array(), xa = (float[]) t.array();
        float[] ba = b == null ? null : (float[]) b.array();
        int blocks = Math.ceilDiv(l.cig(), BLOCK), phases = l.sh() * l.sw();
        int[][] srcAt = new int[phases][], wAt = new int[phases][];
        for (int phase = 0; phase < phases; phase++) {
            srcAt[phase] = l.gradTerms(phase);
            wAt[phase] = l.gradWeights(phase);
        }
        long work = (long) BLOCK * l.cog() * l.taps() * l.gradLen();
        Parallel.forRange((long) l.n() * l.groups() * blocks, grain(work), (u0, u1) -> {
            float[] rows = new float[l.cog() * l.gradChan()], sums = new float[BLOCK * l.sumsChan()];
            long cached = -1;
            for (long u = u0; u < u1; u++) {
                long ng = u / blocks;
                int n = (int) (ng / l.groups()), gi = (int) (ng % l.groups());
                int first = (int) (u % blocks) * BLOCK;
                if (ng != cached) {
                    int from = gy.offset() + (n * l.cout() + gi * l.cog()) * l.oh() * l.ow();
                    l.widen(ga, from, l.cog(), rows, l.front(), l.gradChan());
                    cached = ng;
                }
                int count = Math.min(BLOCK, l.cig() - first);
                Arrays.fill(sums, 0, count * l.sumsChan(), 0f);
                for (int phase = 0; phase < phases; phase++) {
                    DirectConvSimd.correlate(
                            rows,
                            srcAt[phase],
                            wa,
                            w.offset() + gi * l.cog() * l.terms() + first * l.taps(),
                            wAt[phase],
                            srcAt[phase].length,
                            l.taps(),
                            count,
                            sums,
                            phase * l.gradLen(),
                            l.sumsChan(),
                            l.gradLen());
                }
                for (int o = 0; o < count; o++) {
                    int c = gi * l.cig() + first + o;
                    l.interleave(
                            sums,
                            o * l.sumsChan(),
                            xa,
                            t.offset() + (n * l.cin() + c) * l.plane(),
                            ba,
                            ba == null ? 0 : b.offset() + c);
                }
            }
        });
    }

    // ---- grad weight -----------------------------------------------------------------------------------

    static void backwardWeight(
            ComputeArrays.Dense gy, ComputeArrays.Dense x, ComputeArrays.Target t, ConvOps.Geometry g) {
        Layout l = Layout.of(g);
        float[] ga = (float[]) gy.array(), xa = (float[]) x.array(), wa = (float[]) t.array();
        int blocks = Math.ceilDiv(l.cog(), BLOCK);
        int[] srcAt = l.inputTerms();
        long work = (long) BLOCK * l.terms() * l.len() * l.n();
        Parallel.forRange((long) l.groups() * blocks, grain(work), (u0, u1) -> {
            float[] planes = new float[l.cig() * l.chan()], rows = new float[BLOCK * l.len()];
            float[] sums = new float[BLOCK * l.terms()];
            long cached = -1;
            for (long u = u0; u < u1; u++) {
                int gi = (int) (u / blocks), first = (int) (u % blocks) * BLOCK;
                int co = gi * l.cog() + first, count = Math.min(BLOCK, l.cog() - first);
                Arrays.fill(sums, 0f);
                for (int n = 0; n < l.n(); n++) {
                    long ng = (long) n * l.groups() + gi;
                    if (ng != cached) {
                        l.spread(xa, x.offset() + (n * l.cin() + gi * l.cig()) * l.plane(), l.cig(), planes);
                        cached = ng;
                    }
                    l.widen(ga, gy.offset() + (n * l.cout() + co) * l.oh() * l.ow(), count, rows, 0, l.len());
                    DirectConvSimd.dots(rows, 0, l.len(), count, planes, srcAt, l.terms(), l.len(), sums, 0, l.terms());
                }
                System.arraycopy(sums, 0, wa, t.offset() + co * l.terms(), count * l.terms());
            }
        });
    }

    // ---- layout ------------------------------------------------------------------------------------------

    /**
     * One problem's sizes as ints and its buffers' layout.
     *
     * @param cig input channels per group
     * @param cog output channels per group
     * @param taps kh·kw
     * @param terms weights per output channel, cig·taps
     * @param hp rows of a phase
     * @param wp columns of a phase
     * @param phaseSize hp·wp
     * @param len a wide output row's length (oh - 1)·wp + ow, rounded up to the step
     * @param chan elements per channel of the phase-split input: every phase, then two steps of slack that the spare
     *     positions past the last output row read
     * @param tapAt where tap t reads in the phase-split channel, less the output position
     * @param shift tap t's shift within its phase
     * @param tapPhase tap t's phase
     * @param front the largest shift: zeros ahead of each grad-output row, which the input gradient reads back from
     * @param gradLen a phase of the input gradient, rounded up to the step
     * @param spreadFrom with several column phases (and a non-empty input of at least {@link #MIN_GATHERED_CHANNELS}
     *     channels in all), for each element of a phase-split channel the input position it holds (0 for padding and
     *     slack); null otherwise
     * @param spreadReal which elements of {@code spreadFrom} hold an input element (the rest are zeros)
     */
    private record Layout(
            int n,
            int cin,
            int h,
            int w,
            int cout,
            int oh,
            int ow,
            int groups,
            int cig,
            int cog,
            int taps,
            int terms,
            int sh,
            int sw,
            int ph,
            int pw,
            int hp,
            int wp,
            int phaseSize,
            int len,
            int chan,
            int[] tapAt,
            int[] shift,
            int[] tapPhase,
            int front,
            int gradLen,
            int[] spreadFrom,
            boolean[] spreadReal) {

        static Layout of(ConvOps.Geometry g) {
            int sh = (int) g.sh(), sw = (int) g.sw(), kh = (int) g.kh(), kw = (int) g.kw();
            int hp = (int) Math.ceilDiv(g.h() + 2 * g.ph(), g.sh()),
                    wp = (int) Math.ceilDiv(g.w() + 2 * g.pw(), g.sw());
            int step = DirectConvSimd.step(), phaseSize = hp * wp;
            int oh = (int) g.oh(), ow = (int) g.ow();
            int[] tapAt = new int[kh * kw], shift = new int[kh * kw], tapPhase = new int[kh * kw];
            int front = 0;
            for (int ki = 0; ki < kh; ki++) {
                for (int kj = 0; kj < kw; kj++) {
                    int t = ki * kw + kj, dy = ki * (int) g.dh(), dx = kj * (int) g.dw();
                    tapPhase[t] = (dy % sh) * sw + dx % sw;
                    shift[t] = dy / sh * wp + dx / sw;
                    tapAt[t] = tapPhase[t] * phaseSize + shift[t];
                    front = Math.max(front, shift[t]);
                }
            }
            int cig = (int) (g.cin() / g.groups());
            int h = (int) g.h(), w = (int) g.w(), ph = (int) g.ph(), pw = (int) g.pw();
            int chan = sh * sw * phaseSize + 2 * step;
            int[] spreadFrom = null;
            boolean[] spreadReal = null;
            if (sw > 1 && h * w > 0 && g.n() * g.cin() >= MIN_GATHERED_CHANNELS) {
                spreadFrom = new int[chan];
                spreadReal = new boolean[chan];
                for (int iy = 0; iy < h; iy++) {
                    int py = iy + ph;
                    for (int ix = 0; ix < w; ix++) {
                        int px = ix + pw;
                        int at = (py % sh * sw + px % sw) * phaseSize + py / sh * wp + px / sw;
                        spreadFrom[at] = iy * w + ix;
                        spreadReal[at] = true;
                    }
                }
            }
            return new Layout(
                    (int) g.n(),
                    (int) g.cin(),
                    (int) g.h(),
                    (int) g.w(),
                    (int) g.cout(),
                    oh,
                    ow,
                    (int) g.groups(),
                    cig,
                    (int) (g.cout() / g.groups()),
                    kh * kw,
                    cig * kh * kw,
                    sh,
                    sw,
                    (int) g.ph(),
                    (int) g.pw(),
                    hp,
                    wp,
                    phaseSize,
                    roundUp((oh - 1) * wp + ow, step),
                    chan,
                    tapAt,
                    shift,
                    tapPhase,
                    front,
                    roundUp(phaseSize, step),
                    spreadFrom,
                    spreadReal);
        }

        int plane() {
            return h * w;
        }

        /** Elements per channel of the widened grad output the input gradient reads: zeros, then the rows. */
        int gradChan() {
            return front + gradLen;
        }

        /** Elements per channel of the input gradient's phase sums. */
        int sumsChan() {
            return sh * sw * gradLen;
        }

        /** Where term (input channel, tap) of an output channel reads in the phase-split input, less the position. */
        int[] inputTerms() {
            int[] at = new int[terms];
            for (int ci = 0; ci < cig; ci++) {
                for (int t = 0; t < taps; t++) at[ci * taps + t] = ci * chan + tapAt[t];
            }
            return at;
        }

        /** The taps of {@code phase}. */
        private int[] tapsOf(int phase) {
            return IntStream.range(0, taps).filter(t -> tapPhase[t] == phase).toArray();
        }

        /**
         * Where term (tap of {@code phase}, output channel) of an input phase reads in the widened grad output, less
         * the position: the tap's shift back from the row's start. Tap by tap, each over every output channel: the
         * order of the column kernel's sums (a GEMM over the channels, then the taps folded back in turn).
         */
        int[] gradTerms(int phase) {
            int[] ts = tapsOf(phase), at = new int[cog * ts.length];
            for (int i = 0; i < ts.length; i++) {
                for (int o = 0; o < cog; o++) at[i * cog + o] = o * gradChan() + front - shift[ts[i]];
            }
            return at;
        }

        /** The weight of each term of {@link #gradTerms}, from the group's first weight of the input channel. */
        int[] gradWeights(int phase) {
            int[] ts = tapsOf(phase), at = new int[cog * ts.length];
            for (int i = 0; i < ts.length; i++) {
                for (int o = 0; o < cog; o++) at[i * cog + o] = o * terms + ts[i];
            }
            return at;
        }

        /**
         * Copies {@code channels} channels of a sample ([C, h, w] at {@code from}) into {@code dst}, zero-padded and
         * split by phase.
         */
        void spread(float[] src, int from, int channels, float[] dst) {
            if (spreadFrom != null) { // several column phases: a gather, rather than every row split element by element
                for (int c = 0; c < channels; c++) {
                    DirectConvSimd.gather(src, from + c * plane(), spreadFrom, spreadReal, dst, c * chan, chan);
                }
                return;
            }
            for (int c = 0; c < channels; c++) {
                int base = c * chan, in = from + c * plane();
                Arrays.fill(dst, base, base + chan, 0f);
                for (int iy = 0; iy < h; iy++) {
                    int py = iy + ph, row = base + py % sh * sw * phaseSize + py / sh * wp, x0 = in + iy * w;
                    if (sw == 1) {
                        System.arraycopy(src, x0, dst, row + pw, w);
                        continue;
                    }
                    // phase by phase, so that no element needs a division: column ix goes to phase (ix + pw) mod sw
                    for (int rx = 0; rx < sw; rx++) {
                        int ix = Math.floorMod(rx - pw, sw), to = row + rx * phaseSize + (ix + pw) / sw;
                        for (; ix < w; ix += sw) dst[to++] = src[x0 + ix];
                    }
                }
            }
        }

        /**
         * Lays {@code channels} channels of a grad output ([C, oh, ow] at {@code from}) out as wide rows in
         * {@code dst}: channel c from {@code c·stride}, {@code lead} zeros, then row oy at {@code oy·wp}, zeros
         * elsewhere.
         */
        void widen(float[] src, int from, int channels, float[] dst, int lead, int stride) {
            for (int c = 0; c < channels; c++) {
                int base = c * stride;
                Arrays.fill(dst, base, base + stride, 0f);
                for (int oy = 0; oy < oh; oy++) {
                    System.arraycopy(src, from + (c * oh + oy) * ow, dst, base + lead + oy * wp, ow);
                }
            }
        }

        /** Writes the valid positions of the wide output row at {@code at} into the [oh, ow] plane at {@code to}. */
        void narrow(float[] wide, int at, float[] dst, int to) {
            for (int oy = 0; oy < oh; oy++) System.arraycopy(wide, at + oy * wp, dst, to + oy * ow, ow);
        }

        /**
         * Writes one input channel's gradient ([h, w] at {@code to}) from its phase sums at {@code at} (phase r at
         * {@code r·gradLen}), the padding left out, plus {@code bias[biasAt]} where a bias is given.
         */
        void interleave(float[] sums, int at, float[] dst, int to, float[] bias, int biasAt) {
            for (int iy = 0; iy < h; iy++) {
                int py = iy + ph, row = at + py % sh * sw * gradLen + py / sh * wp, y0 = to + iy * w;
                if (sw == 1 && bias == null) { // one column phase: the row is a run
                    System.arraycopy(sums, row + pw, dst, y0, w);
                    continue;
                }
                for (int rx = 0; rx < sw; rx++) { // phase by phase, as in spread
                    int ix = Math.floorMod(rx - pw, sw), from = row + rx * gradLen + (ix + pw) / sw;
                    if (bias == null) {
                        for (; ix < w; ix += sw) dst[y0 + ix] = sums[from++];
                    } else {
                        float b = bias[biasAt];
                        for (; ix < w; ix += sw) dst[y0 + ix] = sums[from++] + b;
                    }
                }
            }
        }
    }

    private static int[] identity(int n) {
        int[] r = new int[n];
        for (int i = 0; i < n; i++) r[i] = i;
        return r;
    }

    private static int roundUp(int v, int step) {
        return Math.ceilDiv(v, step) * step;
    }

    /**
     * Multiply-adds a parallel piece has at least: some 30 µs of vector work, well above what forking and joining the
     * pool costs. Why not {@link Parallel#GRAIN}: that counts scalar element operations, and with it the single-sample
     * convolutions (a few µs of work) were split over both cores, which on a loaded machine made them slower.
     */
    private static final long PIECE = 1L << 19;

    /** Units of a parallel pass per piece, each unit {@code work} multiply-adds: about {@link #PIECE} each. */
    private static long grain(long work) {
        return Math.max(1, PIECE / Math.max(1, work));
    }
}
