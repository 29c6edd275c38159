package org.jtorch.kernels.cpu;

import java.lang.foreign.MemorySegment;
import org.jtorch.DType;
import org.jtorch.kernels.cpu.simd.BoxMullerSimd;
import org.jtorch.storage.LowPrecision;
import org.jtorch.storage.TensorImpl;

/**
 * The sampling loops of PyTorch's CPU random ops ({@code native/cpu/DistributionTemplates.h} and
 * {@code core/DistributionsHelper.h}), drawing from an {@link Mt19937} exactly as ATen does, so that the same seed
 * gives the same numbers.
 *
 * <p>Every loop draws in ATen's serial order ({@link SerialOrder}) and writes through the output's strides; callers
 * hold the generator's lock for the whole call. Conversions to the output dtype are C casts of the double (or float)
 * sample, as ATen's {@code static_cast<scalar_t>}. Where GCC contracts a multiply-add of the shipped x86 binaries into
 * an FMA, the loop uses {@link Math#fma} (uniform, normal, cauchy), because the results differ in the last bit
 * otherwise (checked against the fixtures).
 *
 * <p>Continuous samples need the uniform rules of {@code uniform_real_distribution}: a float draws one word and keeps
 * 24 bits, a double draws two words and keeps 53 bits ({@link Mt19937#nextFloat()}, {@link Mt19937#nextDouble()}).
 */
public final class RandomFill {
    private RandomFill() {}

    /** A per-element sample as a double (exact for float samples), drawn from the engine. */
    @FunctionalInterface
    private interface Sampler {
        double next(Mt19937 g);
    }

    /** Writes one sample per element of {@code out} in serial order, each converted to out's dtype. */
    private static void fill(Mt19937 g, TensorImpl out, Sampler s) {
        if (out.isContiguous()) {
            int off = (int) out.storageOffset(), n = (int) out.numel();
            Object array = out.storage().array();
            if (out.dtype() == DType.FLOAT32 && array instanceof float[] f) {
                for (int i = 0; i < n; i++) f[off + i] = (float) s.next(g);
                return;
            }
            if (out.dtype() == DType.FLOAT64 && array instanceof double[] d) {
                for (int i = 0; i < n; i++) d[off + i] = s.next(g);
                return;
            }
        }
        ElementIO io = ElementIO.of(out.dtype());
        MemorySegment seg = out.storage().segment();
        SerialOrder.forEach(out, (o, unused) -> io.setDouble(seg, o, s.next(g)));
    }

    // ---- uniform ----------------------------------------------------------------------------------------

    /**
     * {@code uniform_(from, to)}: float32 samples in float, float64 in double, float16/bfloat16 in float rounded once
     * (2.15's opmath rule); a value that rounds to {@code to} becomes {@code from}, so the range stays [from, to).
     */
    public static void uniform(Mt19937 g, TensorImpl out, double from, double to) {
        DType dt = out.dtype();
        if (dt == DType.FLOAT64) {
            double range = to - from;
            fill(g, out, e -> {
                double v = Math.fma(e.nextDouble(), range, from);
                return v == to ? from : v;
            });
            return;
        }
        float f = (float) from, t = (float) to, range = t - f;
        if (dt == DType.FLOAT32) {
            fill(g, out, e -> {
                float v = Math.fma(e.nextFloat(), range, f);
                return v == t ? f : v;
            });
            return;
        }
        float top = round16(dt, t), bottom = round16(dt, f);
        fill(g, out, e -> {
            float v = round16(dt, Math.fma(e.nextFloat(), range, f));
            return v == top ? bottom : v;
        });
    }

    /** {@code v} rounded to a 16-bit float dtype (float16 or bfloat16), as a float. */
    public static float round16(DType dt, float v) {
        return dt == DType.FLOAT16
                ? LowPrecision.halfToFloat(LowPrecision.floatToHalf(v))
                : LowPrecision.bfloat16ToFloat(LowPrecision.floatToBFloat16(v));
    }

    // ---- normal -------------------------------------------------------------------------------------------

    /**
     * {@code normal_(mean, std)} on a real floating tensor. A contiguous tensor of 16 elements or more takes ATen's
     * vectorised path (uniforms first, then {@link BoxMuller} in blocks of 16, the last partial block recomputed from
     * 16 fresh uniforms over the last 16 positions); anything else takes the per-element double Box–Muller with the
     * generator's cached second sample.
     */
    public static void normal(Mt19937 g, TensorImpl out, double mean, double std) {
        int n = (int) out.numel();
        if (n >= 16 && out.isContiguous()) {
            Object array = out.storage().array();
            int off = (int) out.storageOffset();
            switch (out.dtype()) {
                case FLOAT32 -> {
                    // Native or mapped storage is filled through a heap buffer; heap storage in place.
                    float[] d = array instanceof float[] f ? f : new float[n];
                    int at = d == array ? off : 0;
                    normalFloat(g, d, at, n, (float) mean, (float) std);
                    if (d != array) MemorySegment.copy(d, 0, out.storage().segment(), ElementIO.F32, off * 4L, n);
                }
                case FLOAT64 -> {
                    double[] d = array instanceof double[] a ? a : new double[n];
                    int at = d == array ? off : 0;
                    normalDouble(g, d, at, n, mean, std);
                    if (d != array) MemorySegment.copy(d, 0, out.storage().segment(), ElementIO.F64, off * 8L, n);
                }
                default -> normalReduced(g, out, (float) mean, (float) std);
            }
            return;
        }
        fill(g, out, e -> Math.fma(standardNormal(e), std, mean));
    }

    private static void normalFloat(Mt19937 g, float[] d, int off, int n, float mean, float std) {
        g.fillFloats(d, off, off + n);
        // Blocks are independent: any number of threads gives the same result.
        Parallel.forRange(n / 16, Parallel.GRAIN / 16, (s, e) -> {
            if (BoxMullerSimd.ENABLED) BoxMullerSimd.fillBlocks(d, off, s, e, mean, std);
            else for (long b = s; b < e; b++) BoxMuller.fill16(d, off + 16 * (int) b, mean, std);
        });
        if (n % 16 != 0) {
            g.fillFloats(d, off + n - 16, off + n);
            BoxMuller.fill16(d, off + n - 16, mean, std);
        }
    }

    private static void normalDouble(Mt19937 g, double[] d, int off, int n, double mean, double std) {
        g.fillDoubles(d, off, off + n);
        Parallel.forRange(n / 16, Parallel.GRAIN / 16, (s, e) -> {
            for (long b = s; b < e; b++) BoxMuller.fill16(d, off + 16 * (int) b, mean, std);
        });
        if (n % 16 != 0) {
            g.fillDoubles(d, off + n - 16, off + n);
            BoxMuller.fill16(d, off + n - 16, mean, std);
        }
    }

    /**
     * float16/bfloat16 (2.15): each block of 16 draws its float uniforms into a float buffer, transforms there and
     * rounds once; the partial last block is recomputed from 16 fresh uniforms. So it draws {@code 16 * (n / 16) + 16}
     * words where float32, which draws a uniform for every element first, draws {@code n + 16}.
     */
    private static void normalReduced(Mt19937 g, TensorImpl out, float mean, float std) {
        int n = (int) out.numel();
        ElementIO io = ElementIO.of(out.dtype());
        MemorySegment seg = out.storage().segment();
        long off = out.storageOffset();
        float[] buf = new float[16];
        for (int i = 0; i + 16 <= n; i += 16) {
            g.fillFloats(buf, 0, 16);
            BoxMuller.fill16(buf, 0, mean, std);
            for (int j = 0; j < 16; j++) io.setDouble(seg, off + i + j, buf[j]);
        }
        if (n % 16 != 0) {
            g.fillFloats(buf, 0, 16);
            BoxMuller.fill16(buf, 0, mean, std);
            for (int j = 0; j < 16; j++) io.setDouble(seg, off + n - 16 + j, buf[j]);
        }
    }

    /**
     * One standard normal from ATen's {@code normal_distribution<double>}: a cached sample if there is one, else two
     * uniforms {@code u1, u2}, {@code r = sqrt(-2 log1p(-u2))}, {@code theta = 2 pi u1}, returning {@code r cos(theta)}
     * and caching {@code r sin(theta)} for the next call.
     */
    public static double standardNormal(Mt19937 g) {
        if (g.hasNormalDouble()) return g.takeNormalDouble();
        double u1 = g.nextDouble(), u2 = g.nextDouble();
        double r = Math.sqrt(-2.0 * Libm.LOG1P.applyAsDouble(-u2)), theta = 2.0 * Math.PI * u1;
        g.cacheNormalDouble(r * Libm.SIN.applyAsDouble(theta));
        return r * Libm.COS.applyAsDouble(theta);
    }

    // ---- other continuous distributions --------------------------------------------------------------------

    /** {@code exponential_(lambd)}: {@code -1/lambd * log1p(-u)}, u a double uniform. */
    public static void exponential(Mt19937 g, TensorImpl out, double lambda) {
        double scale = -1.0 / lambda;
        fill(g, out, e -> scale * Libm.LOG1P.applyAsDouble(-e.nextDouble()));
    }

    /** {@code cauchy_(median, sigma)}: {@code median + sigma * tan(pi (u - 1/2))}. */
    public static void cauchy(Mt19937 g, TensorImpl out, double median, double sigma) {
        fill(g, out, e -> Math.fma(sigma, Libm.TAN.applyAsDouble(Math.PI * (e.nextDouble() - 0.5)), median));
    }

    /** {@code log_normal_(mean, std)}: {@code exp} of a double normal (which uses the generator's cache). */
    public static void logNormal(Mt19937 g, TensorImpl out, double mean, double std) {
        fill(g, out, e -> Libm.EXP.applyAsDouble(Math.fma(standardNormal(e), std, mean)));
    }

    /** {@code geometric_(p)}: {@code ceil(log(u) / log1p(-p))}, the number of trials up to the first success. */
    public static void geometric(Mt19937 g, TensorImpl out, double p) {
        double denominator = Libm.LOG1P.applyAsDouble(-p);
        fill(g, out, e -> Math.ceil(Libm.LOG.applyAsDouble(e.nextDouble()) / denominator));
    }

    /** {@code bernoulli_(p)} with a scalar p: {@code u < p} for a double uniform u, as 1 or 0. */
    public static void bernoulli(Mt19937 g, TensorImpl out, double p) {
        fill(g, out, e -> e.nextDouble() < p ? 1 : 0);
    }

    /**
     * {@code bernoulli_(p)} with a probability tensor broadcast to out's shape: a float64 p compares with a double
     * uniform, any other floating p with a float uniform, in the serial order of the pair.
     */
    public static void bernoulli(Mt19937 g, TensorImpl out, TensorImpl p) {
        ElementIO po = ElementIO.of(p.dtype()), oo = ElementIO.of(out.dtype());
        MemorySegment ps = p.storage().segment(), os = out.storage().segment();
        boolean asDouble = p.dtype() == DType.FLOAT64;
        SerialOrder.forEach(out, p, (o, i) -> {
            double prob = po.getDouble(ps, i);
            boolean one = asDouble ? g.nextDouble() < prob : g.nextFloat() < (float) prob;
            oo.setDouble(os, o, one ? 1 : 0);
        });
    }
}
