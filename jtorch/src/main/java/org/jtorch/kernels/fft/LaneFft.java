package org.jtorch.kernels.fft;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link #LANES} complex DFTs of one length at once, one per vector lane: the passes and twiddles of
 * {@link MixedRadixFft}, with each scalar of its butterflies replaced by a vector holding that value for every line.
 * The lines are stored split and lane-major: element {@code e} of line {@code t} has its real part at {@code re[e LANES
 * + t]} and its imaginary part at {@code im[e LANES + t]}. A twiddle is the same for every line, so it is one broadcast
 * scalar, and no butterfly shuffles lanes: the arithmetic of each line is that of {@link MixedRadixFft}, so the results
 * are bit for bit the same.
 *
 * <p>Lengths whose factors are all 2, 3, 4, 5 or 8 only ({@link #supports}); the generic prime butterfly stays scalar.
 * Everything vector-valued is computed inside one method, so no vector crosses a call that C2 might not inline.
 */
final class LaneFft {
    private static final VectorSpecies<Double> S = DoubleVector.SPECIES_PREFERRED;

    /** Lines transformed together: a multiple of the vector length; 16 complex doubles are four 64-byte cache lines. */
    static final int LANES = Math.max(16, S.length());

    private static final int VL = S.length();

    private final MixedRadixFft plan;
    private final int n;

    LaneFft(MixedRadixFft plan) {
        this.plan = plan;
        this.n = plan.length();
    }

    /** Whether every factor of {@code n} has a vector butterfly here. */
    static boolean supports(int n) {
        for (int f : MixedRadixFft.factorize(n)) if (f > 5 && f != 8) return false;
        return true;
    }

    int length() {
        return n;
    }

    /**
     * Four arrays of {@code n LANES} doubles: the lines' real and imaginary parts, and a second pair the passes use.
     */
    double[][] newBuffers() {
        return new double[][] {
            new double[n * LANES], new double[n * LANES], new double[n * LANES], new double[n * LANES]
        };
    }

    /**
     * Transforms the lines in {@code buf[0]} (real parts) and {@code buf[1]} (imaginary parts); returns the index in
     * {@code buf} of the real parts of the result (0, or 2 with the imaginary parts in {@code buf[3]}).
     */
    int transform(double[][] buf, boolean forward) {
        int[] factors = plan.factors();
        int from = 0, l1 = 1;
        for (int k = 0; k < factors.length; k++) {
            int ip = factors[k], ido = n / (l1 * ip), to = 2 - from;
            double[] cr = buf[from], ci = buf[from + 1], hr = buf[to], hi = buf[to + 1], wa = plan.twiddles(k);
            switch (ip) {
                case 4 -> pass4(ido, l1, cr, ci, hr, hi, wa, forward);
                case 8 -> pass8(ido, l1, cr, ci, hr, hi, wa, forward);
                case 2 -> pass2(ido, l1, cr, ci, hr, hi, wa, forward);
                case 3 -> pass3(ido, l1, cr, ci, hr, hi, wa, forward);
                case 5 -> pass5(ido, l1, cr, ci, hr, hi, wa, forward);
                default -> throw new IllegalStateException("no vector butterfly of radix " + ip);
            }
            from = to;
            l1 *= ip;
        }
        return from;
    }

    private static void pass2(
            int ido, int l1, double[] cr, double[] ci, double[] hr, double[] hi, double[] wa, boolean forward) {
        double s = forward ? -1 : 1;
        int step = ido * LANES, out = ido * l1 * LANES;
        for (int k = 0; k < l1; k++) {
            for (int i = 0; i < ido; i++) {
                int x0 = (i + 2 * ido * k) * LANES, y0 = (i + ido * k) * LANES;
                double wr = i == 0 ? 1 : wa[2 * (i - 1)], wi = i == 0 ? 0 : s * wa[2 * (i - 1) + 1];
                for (int v = 0; v < LANES; v += VL) {
                    DoubleVector ar = DoubleVector.fromArray(S, cr, x0 + v), ai = DoubleVector.fromArray(S, ci, x0 + v);
                    DoubleVector br = DoubleVector.fromArray(S, cr, x0 + step + v);
                    DoubleVector bi = DoubleVector.fromArray(S, ci, x0 + step + v);
                    ar.add(br).intoArray(hr, y0 + v);
                    ai.add(bi).intoArray(hi, y0 + v);
                    DoubleVector tr = ar.sub(br), ti = ai.sub(bi);
                    if (i == 0) {
                        tr.intoArray(hr, y0 + out + v);
                        ti.intoArray(hi, y0 + out + v);
                    } else {
                        tr.mul(wr).sub(ti.mul(wi)).intoArray(hr, y0 + out + v);
                        tr.mul(wi).add(ti.mul(wr)).intoArray(hi, y0 + out + v);
                    }
                }
            }
        }
    }

    private static void pass3(
            int ido, int l1, double[] cr, double[] ci, double[] hr, double[] hi, double[] wa, boolean forward) {
        double s = forward ? -1 : 1;
        final double tw1r = -0.5, tw1i = s * 0.86602540378443864676;
        int step = ido * LANES, out = ido * l1 * LANES, wstride = 2 * (ido - 1);
        for (int k = 0; k < l1; k++) {
            for (int i = 0; i < ido; i++) {
                int x0 = (i + 3 * ido * k) * LANES, y0 = (i + ido * k) * LANES, w = 2 * (i - 1);
                double w1r = i == 0 ? 1 : wa[w], w1i = i == 0 ? 0 : s * wa[w + 1];
                double w2r = i == 0 ? 1 : wa[w + wstride], w2i = i == 0 ? 0 : s * wa[w + wstride + 1];
                for (int v = 0; v < LANES; v += VL) {
                    int x = x0 + v, y = y0 + v;
                    DoubleVector t0r = DoubleVector.fromArray(S, cr, x), t0i = DoubleVector.fromArray(S, ci, x);
                    DoubleVector a1r = DoubleVector.fromArray(S, cr, x + step);
                    DoubleVector a1i = DoubleVector.fromArray(S, ci, x + step);
                    DoubleVector a2r = DoubleVector.fromArray(S, cr, x + 2 * step);
                    DoubleVector a2i = DoubleVector.fromArray(S, ci, x + 2 * step);
                    DoubleVector t1r = a1r.add(a2r), t1i = a1i.add(a2i), t2r = a1r.sub(a2r), t2i = a1i.sub(a2i);
                    t0r.add(t1r).intoArray(hr, y);
                    t0i.add(t1i).intoArray(hi, y);
                    DoubleVector car = t0r.add(t1r.mul(tw1r)), cai = t0i.add(t1i.mul(tw1r));
                    DoubleVector cbr = t2i.mul(-tw1i), cbi = t2r.mul(tw1i);
                    DoubleVector u1r = car.add(cbr), u1i = cai.add(cbi), u2r = car.sub(cbr), u2i = cai.sub(cbi);
                    if (i == 0) {
                        u1r.intoArray(hr, y + out);
                        u1i.intoArray(hi, y + out);
                        u2r.intoArray(hr, y + 2 * out);
                        u2i.intoArray(hi, y + 2 * out);
                    } else {
                        u1r.mul(w1r).sub(u1i.mul(w1i)).intoArray(hr, y + out);
                        u1r.mul(w1i).add(u1i.mul(w1r)).intoArray(hi, y + out);
                        u2r.mul(w2r).sub(u2i.mul(w2i)).intoArray(hr, y + 2 * out);
                        u2r.mul(w2i).add(u2i.mul(w2r)).intoArray(hi, y + 2 * out);
                    }
                }
            }
        }
    }

    private static void pass4(
            int ido, int l1, double[] cr, double[] ci, double[] hr, double[] hi, double[] wa, boolean forward) {
        double s = forward ? -1 : 1;
        int step = ido * LANES, out = ido * l1 * LANES, wstride = 2 * (ido - 1);
        for (int k = 0; k < l1; k++) {
            for (int i = 0; i < ido; i++) {
                int x0 = (i + 4 * ido * k) * LANES, y0 = (i + ido * k) * LANES, w = 2 * (i - 1);
                double w1r = i == 0 ? 1 : wa[w], w1i = i == 0 ? 0 : s * wa[w + 1];
                double w2r = i == 0 ? 1 : wa[w + wstride], w2i = i == 0 ? 0 : s * wa[w + wstride + 1];
                double w3r = i == 0 ? 1 : wa[w + 2 * wstride], w3i = i == 0 ? 0 : s * wa[w + 2 * wstride + 1];
                for (int v = 0; v < LANES; v += VL) {
                    int x = x0 + v, y = y0 + v;
                    DoubleVector a0r = DoubleVector.fromArray(S, cr, x), a0i = DoubleVector.fromArray(S, ci, x);
                    DoubleVector a1r = DoubleVector.fromArray(S, cr, x + step);
                    DoubleVector a1i = DoubleVector.fromArray(S, ci, x + step);
                    DoubleVector a2r = DoubleVector.fromArray(S, cr, x + 2 * step);
                    DoubleVector a2i = DoubleVector.fromArray(S, ci, x + 2 * step);
                    DoubleVector a3r = DoubleVector.fromArray(S, cr, x + 3 * step);
                    DoubleVector a3i = DoubleVector.fromArray(S, ci, x + 3 * step);
                    DoubleVector t2r = a0r.add(a2r), t2i = a0i.add(a2i), t1r = a0r.sub(a2r), t1i = a0i.sub(a2i);
                    DoubleVector t3r = a1r.add(a3r), t3i = a1i.add(a3i), dr = a1r.sub(a3r), di = a1i.sub(a3i);
                    // t4 = (s i) (x1 - x3): a quarter turn in the transform's direction
                    DoubleVector t4r = forward ? di : di.neg(), t4i = forward ? dr.neg() : dr;
                    t2r.add(t3r).intoArray(hr, y);
                    t2i.add(t3i).intoArray(hi, y);
                    DoubleVector u1r = t1r.add(t4r), u1i = t1i.add(t4i), u2r = t2r.sub(t3r), u2i = t2i.sub(t3i);
                    DoubleVector u3r = t1r.sub(t4r), u3i = t1i.sub(t4i);
                    if (i == 0) {
                        u1r.intoArray(hr, y + out);
                        u1i.intoArray(hi, y + out);
                        u2r.intoArray(hr, y + 2 * out);
                        u2i.intoArray(hi, y + 2 * out);
                        u3r.intoArray(hr, y + 3 * out);
                        u3i.intoArray(hi, y + 3 * out);
                    } else {
                        u1r.mul(w1r).sub(u1i.mul(w1i)).intoArray(hr, y + out);
                        u1r.mul(w1i).add(u1i.mul(w1r)).intoArray(hi, y + out);
                        u2r.mul(w2r).sub(u2i.mul(w2i)).intoArray(hr, y + 2 * out);
                        u2r.mul(w2i).add(u2i.mul(w2r)).intoArray(hi, y + 2 * out);
                        u3r.mul(w3r).sub(u3i.mul(w3i)).intoArray(hr, y + 3 * out);
                        u3r.mul(w3i).add(u3i.mul(w3r)).intoArray(hi, y + 3 * out);
                    }
                }
            }
        }
    }

    /** {@link MixedRadixFft}'s radix-8 butterfly, lane-wise. */
    private static void pass8(
            int ido, int l1, double[] cr, double[] ci, double[] hr, double[] hi, double[] wa, boolean forward) {
        double s = forward ? -1 : 1;
        final double h = 0.70710678118654752440;
        int step = ido * LANES, out = ido * l1 * LANES, wstride = 2 * (ido - 1);
        double[] wr = new double[8], wi = new double[8];
        for (int k = 0; k < l1; k++) {
            for (int i = 0; i < ido; i++) {
                int x0 = (i + 8 * ido * k) * LANES, y0 = (i + ido * k) * LANES;
                for (int u = 1; u < 8; u++) {
                    int w = 2 * (i - 1) + (u - 1) * wstride;
                    wr[u] = i == 0 ? 1 : wa[w];
                    wi[u] = i == 0 ? 0 : s * wa[w + 1];
                }
                for (int v = 0; v < LANES; v += VL) {
                    int x = x0 + v, y = y0 + v;
                    DoubleVector a0r = DoubleVector.fromArray(S, cr, x), a0i = DoubleVector.fromArray(S, ci, x);
                    DoubleVector a4r = DoubleVector.fromArray(S, cr, x + 4 * step);
                    DoubleVector a4i = DoubleVector.fromArray(S, ci, x + 4 * step);
                    DoubleVector d0r = a0r.sub(a4r), d0i = a0i.sub(a4i);
                    DoubleVector b0r = a0r.add(a4r), b0i = a0i.add(a4i);
                    DoubleVector a1r = DoubleVector.fromArray(S, cr, x + step);
                    DoubleVector a1i = DoubleVector.fromArray(S, ci, x + step);
                    DoubleVector a5r = DoubleVector.fromArray(S, cr, x + 5 * step);
                    DoubleVector a5i = DoubleVector.fromArray(S, ci, x + 5 * step);
                    DoubleVector b1r = a1r.add(a5r), b1i = a1i.add(a5i), c1r = a1r.sub(a5r), c1i = a1i.sub(a5i);
                    DoubleVector a2r = DoubleVector.fromArray(S, cr, x + 2 * step);
                    DoubleVector a2i = DoubleVector.fromArray(S, ci, x + 2 * step);
                    DoubleVector a6r = DoubleVector.fromArray(S, cr, x + 6 * step);
                    DoubleVector a6i = DoubleVector.fromArray(S, ci, x + 6 * step);
                    DoubleVector b2r = a2r.add(a6r), b2i = a2i.add(a6i), c2r = a2r.sub(a6r), c2i = a2i.sub(a6i);
                    DoubleVector a3r = DoubleVector.fromArray(S, cr, x + 3 * step);
                    DoubleVector a3i = DoubleVector.fromArray(S, ci, x + 3 * step);
                    DoubleVector a7r = DoubleVector.fromArray(S, cr, x + 7 * step);
                    DoubleVector a7i = DoubleVector.fromArray(S, ci, x + 7 * step);
                    DoubleVector b3r = a3r.add(a7r), b3i = a3i.add(a7i), c3r = a3r.sub(a7r), c3i = a3i.sub(a7i);
                    DoubleVector d1r = c1r.sub(c1i.mul(s)).mul(h),
                            d1i = c1i.add(c1r.mul(s)).mul(h);
                    DoubleVector d2r = c2i.mul(-s), d2i = c2r.mul(s);
                    DoubleVector d3r = c3r.neg().sub(c3i.mul(s)).mul(h),
                            d3i = c3r.mul(s).sub(c3i).mul(h);
                    // outputs 0, 2, 4, 6
                    DoubleVector t0r = b0r.add(b2r), t0i = b0i.add(b2i), t1r = b0r.sub(b2r), t1i = b0i.sub(b2i);
                    DoubleVector t2r = b1r.add(b3r), t2i = b1i.add(b3i);
                    DoubleVector t3r = b1i.sub(b3i).mul(-s), t3i = b1r.sub(b3r).mul(s);
                    t0r.add(t2r).intoArray(hr, y);
                    t0i.add(t2i).intoArray(hi, y);
                    DoubleVector p2r = t1r.add(t3r), p2i = t1i.add(t3i);
                    DoubleVector p4r = t0r.sub(t2r), p4i = t0i.sub(t2i);
                    DoubleVector p6r = t1r.sub(t3r), p6i = t1i.sub(t3i);
                    // outputs 1, 3, 5, 7
                    t0r = d0r.add(d2r);
                    t0i = d0i.add(d2i);
                    t1r = d0r.sub(d2r);
                    t1i = d0i.sub(d2i);
                    t2r = d1r.add(d3r);
                    t2i = d1i.add(d3i);
                    t3r = d1i.sub(d3i).mul(-s);
                    t3i = d1r.sub(d3r).mul(s);
                    DoubleVector p1r = t0r.add(t2r), p1i = t0i.add(t2i);
                    DoubleVector p3r = t1r.add(t3r), p3i = t1i.add(t3i);
                    DoubleVector p5r = t0r.sub(t2r), p5i = t0i.sub(t2i);
                    DoubleVector p7r = t1r.sub(t3r), p7i = t1i.sub(t3i);
                    if (i == 0) {
                        p1r.intoArray(hr, y + out);
                        p1i.intoArray(hi, y + out);
                        p2r.intoArray(hr, y + 2 * out);
                        p2i.intoArray(hi, y + 2 * out);
                        p3r.intoArray(hr, y + 3 * out);
                        p3i.intoArray(hi, y + 3 * out);
                        p4r.intoArray(hr, y + 4 * out);
                        p4i.intoArray(hi, y + 4 * out);
                        p5r.intoArray(hr, y + 5 * out);
                        p5i.intoArray(hi, y + 5 * out);
                        p6r.intoArray(hr, y + 6 * out);
                        p6i.intoArray(hi, y + 6 * out);
                        p7r.intoArray(hr, y + 7 * out);
                        p7i.intoArray(hi, y + 7 * out);
                    } else {
                        p1r.mul(wr[1]).sub(p1i.mul(wi[1])).intoArray(hr, y + out);
                        p1r.mul(wi[1]).add(p1i.mul(wr[1])).intoArray(hi, y + out);
                        p2r.mul(wr[2]).sub(p2i.mul(wi[2])).intoArray(hr, y + 2 * out);
                        p2r.mul(wi[2]).add(p2i.mul(wr[2])).intoArray(hi, y + 2 * out);
                        p3r.mul(wr[3]).sub(p3i.mul(wi[3])).intoArray(hr, y + 3 * out);
                        p3r.mul(wi[3]).add(p3i.mul(wr[3])).intoArray(hi, y + 3 * out);
                        p4r.mul(wr[4]).sub(p4i.mul(wi[4])).intoArray(hr, y + 4 * out);
                        p4r.mul(wi[4]).add(p4i.mul(wr[4])).intoArray(hi, y + 4 * out);
                        p5r.mul(wr[5]).sub(p5i.mul(wi[5])).intoArray(hr, y + 5 * out);
                        p5r.mul(wi[5]).add(p5i.mul(wr[5])).intoArray(hi, y + 5 * out);
                        p6r.mul(wr[6]).sub(p6i.mul(wi[6])).intoArray(hr, y + 6 * out);
                        p6r.mul(wi[6]).add(p6i.mul(wr[6])).intoArray(hi, y + 6 * out);
                        p7r.mul(wr[7]).sub(p7i.mul(wi[7])).intoArray(hr, y + 7 * out);
                        p7r.mul(wi[7]).add(p7i.mul(wr[7])).intoArray(hi, y + 7 * out);
                    }
                }
            }
        }
    }

    private static void pass5(
            int ido, int l1, double[] cr, double[] ci, double[] hr, double[] hi, double[] wa, boolean forward) {
        double s = forward ? -1 : 1;
        final double tw1r = 0.3090169943749474241, tw1i = s * 0.95105651629515357212;
        final double tw2r = -0.8090169943749474241, tw2i = s * 0.58778525229247312917;
        int step = ido * LANES, out = ido * l1 * LANES, wstride = 2 * (ido - 1);
        double[] wr = new double[5], wi = new double[5];
        for (int k = 0; k < l1; k++) {
            for (int i = 0; i < ido; i++) {
                int x0 = (i + 5 * ido * k) * LANES, y0 = (i + ido * k) * LANES;
                for (int u = 1; u < 5; u++) {
                    int w = 2 * (i - 1) + (u - 1) * wstride;
                    wr[u] = i == 0 ? 1 : wa[w];
                    wi[u] = i == 0 ? 0 : s * wa[w + 1];
                }
                for (int v = 0; v < LANES; v += VL) {
                    int x = x0 + v, y = y0 + v;
                    DoubleVector t0r = DoubleVector.fromArray(S, cr, x), t0i = DoubleVector.fromArray(S, ci, x);
                    DoubleVector a1r = DoubleVector.fromArray(S, cr, x + step);
                    DoubleVector a1i = DoubleVector.fromArray(S, ci, x + step);
                    DoubleVector a2r = DoubleVector.fromArray(S, cr, x + 2 * step);
                    DoubleVector a2i = DoubleVector.fromArray(S, ci, x + 2 * step);
                    DoubleVector a3r = DoubleVector.fromArray(S, cr, x + 3 * step);
                    DoubleVector a3i = DoubleVector.fromArray(S, ci, x + 3 * step);
                    DoubleVector a4r = DoubleVector.fromArray(S, cr, x + 4 * step);
                    DoubleVector a4i = DoubleVector.fromArray(S, ci, x + 4 * step);
                    DoubleVector t1r = a1r.add(a4r), t1i = a1i.add(a4i), t4r = a1r.sub(a4r), t4i = a1i.sub(a4i);
                    DoubleVector t2r = a2r.add(a3r), t2i = a2i.add(a3i), t3r = a2r.sub(a3r), t3i = a2i.sub(a3i);
                    t0r.add(t1r).add(t2r).intoArray(hr, y);
                    t0i.add(t1i).add(t2i).intoArray(hi, y);
                    // outputs 1 and 4
                    DoubleVector car = t0r.add(t1r.mul(tw1r)).add(t2r.mul(tw2r));
                    DoubleVector cai = t0i.add(t1i.mul(tw1r)).add(t2i.mul(tw2r));
                    DoubleVector cbi = t4r.mul(tw1i).add(t3r.mul(tw2i));
                    DoubleVector cbr = t4i.mul(tw1i).add(t3i.mul(tw2i)).neg();
                    DoubleVector p1r = car.add(cbr), p1i = cai.add(cbi), p4r = car.sub(cbr), p4i = cai.sub(cbi);
                    // outputs 2 and 3
                    car = t0r.add(t1r.mul(tw2r)).add(t2r.mul(tw1r));
                    cai = t0i.add(t1i.mul(tw2r)).add(t2i.mul(tw1r));
                    cbi = t4r.mul(tw2i).sub(t3r.mul(tw1i));
                    cbr = t4i.mul(tw2i).sub(t3i.mul(tw1i)).neg();
                    DoubleVector p2r = car.add(cbr), p2i = cai.add(cbi), p3r = car.sub(cbr), p3i = cai.sub(cbi);
                    if (i == 0) {
                        p1r.intoArray(hr, y + out);
                        p1i.intoArray(hi, y + out);
                        p2r.intoArray(hr, y + 2 * out);
                        p2i.intoArray(hi, y + 2 * out);
                        p3r.intoArray(hr, y + 3 * out);
                        p3i.intoArray(hi, y + 3 * out);
                        p4r.intoArray(hr, y + 4 * out);
                        p4i.intoArray(hi, y + 4 * out);
                    } else {
                        p1r.mul(wr[1]).sub(p1i.mul(wi[1])).intoArray(hr, y + out);
                        p1r.mul(wi[1]).add(p1i.mul(wr[1])).intoArray(hi, y + out);
                        p2r.mul(wr[2]).sub(p2i.mul(wi[2])).intoArray(hr, y + 2 * out);
                        p2r.mul(wi[2]).add(p2i.mul(wr[2])).intoArray(hi, y + 2 * out);
                        p3r.mul(wr[3]).sub(p3i.mul(wi[3])).intoArray(hr, y + 3 * out);
                        p3r.mul(wi[3]).add(p3i.mul(wr[3])).intoArray(hi, y + 3 * out);
                        p4r.mul(wr[4]).sub(p4i.mul(wi[4])).intoArray(hr, y + 4 * out);
                        p4r.mul(wi[4]).add(p4i.mul(wr[4])).intoArray(hi, y + 4 * out);
                    }
                }
            }
        }
    }
}
