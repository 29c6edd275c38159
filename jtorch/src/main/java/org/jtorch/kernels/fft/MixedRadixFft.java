package org.jtorch.kernels.fft;

import java.util.ArrayList;
import java.util.List;

/**
 * The complex DFT by FFTPACK's self-sorting mixed-radix passes (as pocketfft, NumPy's and PyTorch's CPU FFT, runs
 * them): the length is split into factors 8, 4 and 2 ({@link #factorize}), then odd primes; each pass does butterflies
 * of its radix over the whole array and multiplies by precomputed twiddles, reading one buffer and writing the other
 * (Stockham order, so no bit reversal). Radices 2, 3, 4, 5 and 8 have dedicated butterflies; any other prime factor p
 * runs a generic one of {@code (p-1)^2 / 2} complex multiply-adds per p points, which is why lengths with a large prime
 * factor go to {@link BluesteinFft} instead.
 *
 * <p>Layout (FFTPACK's): a pass of radix {@code ip} with {@code l1} transforms done before it and {@code ido = n / (l1
 * ip)} reads input element {@code (i, m, k)} at {@code i + ido (m + ip k)} and writes output {@code (i, k, j)} at
 * {@code i + ido (k + l1 j)}, for {@code i < ido, m, j < ip, k < l1}.
 */
final class MixedRadixFft implements ComplexFft {
    private final int n;
    private final int[] factors;
    /** Per pass: {@code (ip - 1)(ido - 1)} twiddles exp(2 pi i j l1 i / n), as (cos, sin) pairs. */
    private final double[][] twiddles;
    /** Per pass of a generic radix p: cos and sin of 2 pi q / p for q < p; null for the dedicated radices. */
    private final double[][] roots;

    MixedRadixFft(int n) {
        this.n = n;
        this.factors = factorize(n);
        this.twiddles = new double[factors.length][];
        this.roots = new double[factors.length][];
        int l1 = 1;
        for (int k = 0; k < factors.length; k++) {
            int ip = factors[k], ido = n / (l1 * ip);
            double[] tw = new double[2 * (ip - 1) * (ido - 1)];
            for (int j = 1; j < ip; j++) {
                for (int i = 1; i < ido; i++) {
                    int at = 2 * ((j - 1) * (ido - 1) + i - 1);
                    double angle = 2 * Math.PI * ((double) ((long) j * l1 * i) / n);
                    tw[at] = Math.cos(angle);
                    tw[at + 1] = Math.sin(angle);
                }
            }
            twiddles[k] = tw;
            if (ip > 5 && ip != 8) roots[k] = unitRoots(ip);
            l1 *= ip;
        }
    }

    /**
     * Factors 8 first, then at most one 4, then a single 2 (moved to the front), then odd primes ascending, as
     * pocketfft's C++ complex plans split a length, except that a 2 left beside an 8 is merged with it into 4 x 4: a
     * radix-8 pass does the work of three radix-2 passes in one sweep over the data, and a radix-2 pass sweeps it for
     * little arithmetic.
     */
    static int[] factorize(int n) {
        List<Integer> f = new ArrayList<>();
        int len = n;
        while (len % 8 == 0) {
            f.add(8);
            len /= 8;
        }
        if (len % 4 == 0) {
            f.add(4);
            len /= 4;
        }
        if (len % 2 == 0 && !f.isEmpty() && f.getFirst() == 8) {
            len /= 2;
            f.removeFirst();
            f.add(4);
            f.add(4);
        } else if (len % 2 == 0) {
            len /= 2;
            f.addFirst(2);
        }
        for (int d = 3; (long) d * d <= len; d += 2) {
            while (len % d == 0) {
                f.add(d);
                len /= d;
            }
        }
        if (len > 1) f.add(len);
        return f.stream().mapToInt(Integer::intValue).toArray();
    }

    private static double[] unitRoots(int p) {
        double[] r = new double[2 * p];
        for (int q = 0; q < p; q++) {
            double angle = 2 * Math.PI * q / p;
            r[2 * q] = Math.cos(angle);
            r[2 * q + 1] = Math.sin(angle);
        }
        return r;
    }

    @Override
    public int length() {
        return n;
    }

    /** The radix of each pass, in order (shared, not to be modified). */
    int[] factors() {
        return factors;
    }

    /** The twiddles of pass {@code k}, laid out as {@link #twiddles} describes (shared, not to be modified). */
    double[] twiddles(int k) {
        return twiddles[k];
    }

    @Override
    public double[][] newScratch() {
        return new double[][] {new double[2 * n]};
    }

    @Override
    public void transform(double[] data, double[][] scratch, boolean forward) {
        int s = forward ? -1 : 1;
        double[] p1 = data, p2 = scratch[0];
        int l1 = 1;
        for (int k = 0; k < factors.length; k++) {
            int ip = factors[k], ido = n / (l1 * ip);
            double[] wa = twiddles[k];
            switch (ip) {
                case 4 -> pass4(ido, l1, p1, p2, wa, s);
                case 8 -> pass8(ido, l1, p1, p2, wa, s);
                case 2 -> pass2(ido, l1, p1, p2, wa, s);
                case 3 -> pass3(ido, l1, p1, p2, wa, s);
                case 5 -> pass5(ido, l1, p1, p2, wa, s);
                default -> passGeneric(ido, l1, ip, p1, p2, wa, roots[k], s);
            }
            double[] t = p1;
            p1 = p2;
            p2 = t;
            l1 *= ip;
        }
        if (p1 != data) System.arraycopy(p1, 0, data, 0, 2 * n);
    }

    private static void pass2(int ido, int l1, double[] cc, double[] ch, double[] wa, int s) {
        int outStride = 2 * ido * l1;
        for (int k = 0; k < l1; k++) {
            int c0 = 2 * ido * 2 * k, c1 = c0 + 2 * ido, h0 = 2 * ido * k, h1 = h0 + outStride;
            for (int i = 0; i < ido; i++) {
                int a = 2 * i;
                double ar = cc[c0 + a], ai = cc[c0 + a + 1], br = cc[c1 + a], bi = cc[c1 + a + 1];
                ch[h0 + a] = ar + br;
                ch[h0 + a + 1] = ai + bi;
                double tr = ar - br, ti = ai - bi;
                if (i == 0) {
                    ch[h1] = tr;
                    ch[h1 + 1] = ti;
                } else {
                    int w = 2 * (i - 1);
                    double wr = wa[w], wi = s * wa[w + 1];
                    ch[h1 + a] = tr * wr - ti * wi;
                    ch[h1 + a + 1] = tr * wi + ti * wr;
                }
            }
        }
    }

    private static void pass3(int ido, int l1, double[] cc, double[] ch, double[] wa, int s) {
        final double tw1r = -0.5, tw1i = s * 0.86602540378443864676;
        int outStride = 2 * ido * l1, wstride = 2 * (ido - 1);
        for (int k = 0; k < l1; k++) {
            int c0 = 2 * ido * 3 * k, h0 = 2 * ido * k;
            for (int i = 0; i < ido; i++) {
                int a = 2 * i;
                int x0 = c0 + a, x1 = x0 + 2 * ido, x2 = x1 + 2 * ido;
                double t0r = cc[x0], t0i = cc[x0 + 1];
                double t1r = cc[x1] + cc[x2], t1i = cc[x1 + 1] + cc[x2 + 1];
                double t2r = cc[x1] - cc[x2], t2i = cc[x1 + 1] - cc[x2 + 1];
                ch[h0 + a] = t0r + t1r;
                ch[h0 + a + 1] = t0i + t1i;
                double car = t0r + tw1r * t1r, cai = t0i + tw1r * t1i;
                double cbr = -tw1i * t2i, cbi = tw1i * t2r;
                int y1 = h0 + a + outStride, y2 = y1 + outStride;
                if (i == 0) {
                    ch[y1] = car + cbr;
                    ch[y1 + 1] = cai + cbi;
                    ch[y2] = car - cbr;
                    ch[y2 + 1] = cai - cbi;
                } else {
                    int w = 2 * (i - 1);
                    mulStore(ch, y1, car + cbr, cai + cbi, wa[w], s * wa[w + 1]);
                    mulStore(ch, y2, car - cbr, cai - cbi, wa[w + wstride], s * wa[w + wstride + 1]);
                }
            }
        }
    }

    private static void pass4(int ido, int l1, double[] cc, double[] ch, double[] wa, int s) {
        int outStride = 2 * ido * l1, wstride = 2 * (ido - 1);
        for (int k = 0; k < l1; k++) {
            int c0 = 2 * ido * 4 * k, h0 = 2 * ido * k;
            for (int i = 0; i < ido; i++) {
                int a = 2 * i;
                int x0 = c0 + a, x1 = x0 + 2 * ido, x2 = x1 + 2 * ido, x3 = x2 + 2 * ido;
                double t2r = cc[x0] + cc[x2], t2i = cc[x0 + 1] + cc[x2 + 1];
                double t1r = cc[x0] - cc[x2], t1i = cc[x0 + 1] - cc[x2 + 1];
                double t3r = cc[x1] + cc[x3], t3i = cc[x1 + 1] + cc[x3 + 1];
                double dr = cc[x1] - cc[x3], di = cc[x1 + 1] - cc[x3 + 1];
                // t4 = (s i) (x1 - x3): a quarter turn in the transform's direction
                double t4r = -s * di, t4i = s * dr;
                int y0 = h0 + a, y1 = y0 + outStride, y2 = y1 + outStride, y3 = y2 + outStride;
                ch[y0] = t2r + t3r;
                ch[y0 + 1] = t2i + t3i;
                if (i == 0) {
                    ch[y1] = t1r + t4r;
                    ch[y1 + 1] = t1i + t4i;
                    ch[y2] = t2r - t3r;
                    ch[y2 + 1] = t2i - t3i;
                    ch[y3] = t1r - t4r;
                    ch[y3 + 1] = t1i - t4i;
                } else {
                    int w = 2 * (i - 1);
                    mulStore(ch, y1, t1r + t4r, t1i + t4i, wa[w], s * wa[w + 1]);
                    mulStore(ch, y2, t2r - t3r, t2i - t3i, wa[w + wstride], s * wa[w + wstride + 1]);
                    mulStore(ch, y3, t1r - t4r, t1i - t4i, wa[w + 2 * wstride], s * wa[w + 2 * wstride + 1]);
                }
            }
        }
    }

    /**
     * Radix 8 as a radix-2 step and two radix-4 butterflies: with {@code b_m = x_m + x_{m+4}} and {@code c_m = x_m -
     * x_{m+4}} (m < 4), the even outputs are the 4-point DFT of b and the odd ones that of {@code c_m w^m}, w = exp(s 2
     * pi i / 8) = (1 + s i) / sqrt(2).
     */
    private static void pass8(int ido, int l1, double[] cc, double[] ch, double[] wa, int s) {
        final double h = 0.70710678118654752440;
        int outStride = 2 * ido * l1, wstride = 2 * (ido - 1), step = 2 * ido;
        double[] yr = new double[8], yi = new double[8];
        for (int k = 0; k < l1; k++) {
            int c0 = 2 * ido * 8 * k, h0 = 2 * ido * k;
            for (int i = 0; i < ido; i++) {
                int x = c0 + 2 * i;
                double a0r = cc[x], a0i = cc[x + 1], a4r = cc[x + 4 * step], a4i = cc[x + 4 * step + 1];
                double a1r = cc[x + step], a1i = cc[x + step + 1], a5r = cc[x + 5 * step], a5i = cc[x + 5 * step + 1];
                double a2r = cc[x + 2 * step], a2i = cc[x + 2 * step + 1];
                double a6r = cc[x + 6 * step], a6i = cc[x + 6 * step + 1];
                double a3r = cc[x + 3 * step], a3i = cc[x + 3 * step + 1];
                double a7r = cc[x + 7 * step], a7i = cc[x + 7 * step + 1];
                double b0r = a0r + a4r, b0i = a0i + a4i, d0r = a0r - a4r, d0i = a0i - a4i;
                double b1r = a1r + a5r, b1i = a1i + a5i, c1r = a1r - a5r, c1i = a1i - a5i;
                double b2r = a2r + a6r, b2i = a2i + a6i, c2r = a2r - a6r, c2i = a2i - a6i;
                double b3r = a3r + a7r, b3i = a3i + a7i, c3r = a3r - a7r, c3i = a3i - a7i;
                // d_m = c_m w^m: w = h (1 + s i), w^2 = s i, w^3 = h (-1 + s i)
                double d1r = (c1r - s * c1i) * h, d1i = (c1i + s * c1r) * h;
                double d2r = -s * c2i, d2i = s * c2r;
                double d3r = (-c3r - s * c3i) * h, d3i = (s * c3r - c3i) * h;
                // 4-point DFTs, the quarter turn being s i: outputs 0, 2, 4, 6 from b and 1, 3, 5, 7 from d
                double t0r = b0r + b2r, t0i = b0i + b2i, t1r = b0r - b2r, t1i = b0i - b2i;
                double t2r = b1r + b3r, t2i = b1i + b3i, t3r = -s * (b1i - b3i), t3i = s * (b1r - b3r);
                yr[0] = t0r + t2r;
                yi[0] = t0i + t2i;
                yr[2] = t1r + t3r;
                yi[2] = t1i + t3i;
                yr[4] = t0r - t2r;
                yi[4] = t0i - t2i;
                yr[6] = t1r - t3r;
                yi[6] = t1i - t3i;
                t0r = d0r + d2r;
                t0i = d0i + d2i;
                t1r = d0r - d2r;
                t1i = d0i - d2i;
                t2r = d1r + d3r;
                t2i = d1i + d3i;
                t3r = -s * (d1i - d3i);
                t3i = s * (d1r - d3r);
                yr[1] = t0r + t2r;
                yi[1] = t0i + t2i;
                yr[3] = t1r + t3r;
                yi[3] = t1i + t3i;
                yr[5] = t0r - t2r;
                yi[5] = t0i - t2i;
                yr[7] = t1r - t3r;
                yi[7] = t1i - t3i;
                int y0 = h0 + 2 * i;
                ch[y0] = yr[0];
                ch[y0 + 1] = yi[0];
                for (int j = 1; j < 8; j++) {
                    int at = y0 + j * outStride;
                    if (i == 0) {
                        ch[at] = yr[j];
                        ch[at + 1] = yi[j];
                    } else {
                        int w = 2 * (i - 1) + (j - 1) * wstride;
                        mulStore(ch, at, yr[j], yi[j], wa[w], s * wa[w + 1]);
                    }
                }
            }
        }
    }

    private static void pass5(int ido, int l1, double[] cc, double[] ch, double[] wa, int s) {
        final double tw1r = 0.3090169943749474241, tw1i = s * 0.95105651629515357212;
        final double tw2r = -0.8090169943749474241, tw2i = s * 0.58778525229247312917;
        int outStride = 2 * ido * l1, wstride = 2 * (ido - 1);
        for (int k = 0; k < l1; k++) {
            int c0 = 2 * ido * 5 * k, h0 = 2 * ido * k;
            for (int i = 0; i < ido; i++) {
                int a = 2 * i, step = 2 * ido;
                int x0 = c0 + a, x1 = x0 + step, x2 = x1 + step, x3 = x2 + step, x4 = x3 + step;
                double t0r = cc[x0], t0i = cc[x0 + 1];
                double t1r = cc[x1] + cc[x4], t1i = cc[x1 + 1] + cc[x4 + 1];
                double t4r = cc[x1] - cc[x4], t4i = cc[x1 + 1] - cc[x4 + 1];
                double t2r = cc[x2] + cc[x3], t2i = cc[x2 + 1] + cc[x3 + 1];
                double t3r = cc[x2] - cc[x3], t3i = cc[x2 + 1] - cc[x3 + 1];
                int y0 = h0 + a;
                ch[y0] = t0r + t1r + t2r;
                ch[y0 + 1] = t0i + t1i + t2i;
                // outputs 1 and 4
                double car = t0r + tw1r * t1r + tw2r * t2r, cai = t0i + tw1r * t1i + tw2r * t2i;
                double cbi = tw1i * t4r + tw2i * t3r, cbr = -(tw1i * t4i + tw2i * t3i);
                store5(ch, y0, outStride, 1, 4, car, cai, cbr, cbi, i, wa, wstride, s);
                // outputs 2 and 3
                car = t0r + tw2r * t1r + tw1r * t2r;
                cai = t0i + tw2r * t1i + tw1r * t2i;
                cbi = tw2i * t4r - tw1i * t3r;
                cbr = -(tw2i * t4i - tw1i * t3i);
                store5(ch, y0, outStride, 2, 3, car, cai, cbr, cbi, i, wa, wstride, s);
            }
        }
    }

    /** Outputs {@code u1 = ca + cb} and {@code u2 = ca - cb} of a radix-5 butterfly, with their twiddles. */
    private static void store5(
            double[] ch,
            int y0,
            int outStride,
            int u1,
            int u2,
            double car,
            double cai,
            double cbr,
            double cbi,
            int i,
            double[] wa,
            int wstride,
            int s) {
        int p1 = y0 + u1 * outStride, p2 = y0 + u2 * outStride;
        if (i == 0) {
            ch[p1] = car + cbr;
            ch[p1 + 1] = cai + cbi;
            ch[p2] = car - cbr;
            ch[p2 + 1] = cai - cbi;
        } else {
            int w1 = 2 * (i - 1) + (u1 - 1) * wstride, w2 = 2 * (i - 1) + (u2 - 1) * wstride;
            mulStore(ch, p1, car + cbr, cai + cbi, wa[w1], s * wa[w1 + 1]);
            mulStore(ch, p2, car - cbr, cai - cbi, wa[w2], s * wa[w2 + 1]);
        }
    }

    /**
     * A radix-p butterfly for an odd prime p: with sums and differences of mirrored inputs, outputs j and p - j share
     * their products, {@code y_j = x0 + sum_m cos(2 pi j m / p) (x_m + x_{p-m}) + i s sin(..) (x_m - x_{p-m})}.
     */
    private static void passGeneric(
            int ido, int l1, int ip, double[] cc, double[] ch, double[] wa, double[] roots, int s) {
        int half = (ip - 1) / 2, outStride = 2 * ido * l1, wstride = 2 * (ido - 1), step = 2 * ido;
        double[] sums = new double[2 * half], difs = new double[2 * half];
        for (int k = 0; k < l1; k++) {
            int c0 = 2 * ido * ip * k, h0 = 2 * ido * k;
            for (int i = 0; i < ido; i++) {
                int x0 = c0 + 2 * i;
                double x0r = cc[x0], x0i = cc[x0 + 1], y0r = x0r, y0i = x0i;
                for (int m = 1; m <= half; m++) {
                    int xm = x0 + m * step, xp = x0 + (ip - m) * step;
                    double sr = cc[xm] + cc[xp], si = cc[xm + 1] + cc[xp + 1];
                    sums[2 * (m - 1)] = sr;
                    sums[2 * (m - 1) + 1] = si;
                    difs[2 * (m - 1)] = cc[xm] - cc[xp];
                    difs[2 * (m - 1) + 1] = cc[xm + 1] - cc[xp + 1];
                    y0r += sr;
                    y0i += si;
                }
                int y0 = h0 + 2 * i;
                ch[y0] = y0r;
                ch[y0 + 1] = y0i;
                for (int j = 1; j <= half; j++) {
                    double ar = x0r, ai = x0i, br = 0, bi = 0;
                    int q = 0;
                    for (int m = 1; m <= half; m++) {
                        q += j;
                        if (q >= ip) q -= ip;
                        double c = roots[2 * q], sn = roots[2 * q + 1];
                        ar += c * sums[2 * (m - 1)];
                        ai += c * sums[2 * (m - 1) + 1];
                        br += sn * difs[2 * (m - 1)];
                        bi += sn * difs[2 * (m - 1) + 1];
                    }
                    // (s i)(br + i bi) = (-s bi, s br)
                    double yjr = ar - s * bi, yji = ai + s * br, ykr = ar + s * bi, yki = ai - s * br;
                    int pj = y0 + j * outStride, pk = y0 + (ip - j) * outStride;
                    if (i == 0) {
                        ch[pj] = yjr;
                        ch[pj + 1] = yji;
                        ch[pk] = ykr;
                        ch[pk + 1] = yki;
                    } else {
                        int wj = 2 * (i - 1) + (j - 1) * wstride, wk = 2 * (i - 1) + (ip - j - 1) * wstride;
                        mulStore(ch, pj, yjr, yji, wa[wj], s * wa[wj + 1]);
                        mulStore(ch, pk, ykr, yki, wa[wk], s * wa[wk + 1]);
                    }
                }
            }
        }
    }

    private static void mulStore(double[] ch, int at, double r, double i, double wr, double wi) {
        ch[at] = r * wr - i * wi;
        ch[at + 1] = r * wi + i * wr;
    }
}
