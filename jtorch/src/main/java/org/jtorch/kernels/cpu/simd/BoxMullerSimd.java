package org.jtorch.kernels.cpu.simd;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The vector twin of {@code org.jtorch.kernels.cpu.BoxMuller#fill16(float[], int, float, float)}: ATen's AVX2
 * {@code normal_fill_16_AVX2} on 8 float lanes, the same IEEE operations (Vector API lanewise ops and FMAs are exactly
 * rounded) in the same order, so every lane is bit-identical to the scalar twin, which documents the constants and
 * serves as the test oracle.
 *
 * <p>Assumptions: heap {@code float[]}; blocks of 16 contiguous floats, lanes 0-7 the first uniforms of each Box–Muller
 * pair, lanes 8-15 the second. The species is fixed at 256 bits because the algorithm is 8-wide; {@link #ENABLED} is
 * false where the platform's preferred vectors are narrower (the scalar twin is used then) or when
 * {@code -Djtorch.simd.bits=128} pins narrow vectors.
 */
public final class BoxMullerSimd {
    private BoxMullerSimd() {}

    private static final VectorSpecies<Float> F = FloatVector.SPECIES_256;

    /** Whether 256-bit float vectors are native here (and not disabled by {@code jtorch.simd.bits=128}). */
    public static final boolean ENABLED = FloatVector.SPECIES_PREFERRED.vectorBitSize() >= 256
            && !"128".equals(System.getProperty("jtorch.simd.bits"));

    private static final float MIN_NORM_POS = Float.intBitsToFloat(0x00800000);
    private static final float SQRTHF = (float) 0.707106781186547524;
    private static final float[] LOG_P = {
        (float) 7.0376836292E-2,
        (float) -1.1514610310E-1,
        (float) 1.1676998740E-1,
        (float) -1.2420140846E-1,
        (float) 1.4249322787E-1,
        (float) -1.6668057665E-1,
        (float) 2.0000714765E-1,
        (float) -2.4999993993E-1,
        (float) 3.3333331174E-1
    };
    private static final float LOG_Q1 = (float) -2.12194440e-4;
    private static final float LOG_Q2 = (float) 0.693359375;
    private static final float FOPI = (float) 1.27323954473516;
    private static final float MINUS_DP1 = (float) -0.78515625;
    private static final float MINUS_DP2 = (float) -2.4187564849853515625e-4;
    private static final float MINUS_DP3 = (float) -3.77489497744594108e-8;
    private static final float SIN_P0 = (float) -1.9515295891E-4;
    private static final float SIN_P1 = (float) 8.3321608736E-3;
    private static final float SIN_P2 = (float) -1.6666654611E-1;
    private static final float COS_P0 = (float) 2.443315711809948E-005;
    private static final float COS_P1 = (float) -1.388731625493765E-003;
    private static final float COS_P2 = (float) 4.166664568298827E-002;
    private static final float TWO_PI_F = (float) (2.0 * Math.PI);

    /** Transforms the 16-float blocks {@code d[off + 16 b, off + 16 b + 16)} for {@code b} in {@code [from, to)}. */
    public static void fillBlocks(float[] d, int off, long from, long to, float mean, float std) {
        FloatVector zero = FloatVector.zero(F), one = FloatVector.broadcast(F, 1f);
        for (long b = from; b < to; b++) {
            int at = off + (int) (16 * b);
            FloatVector u1 = one.sub(FloatVector.fromArray(F, d, at));
            FloatVector theta = FloatVector.fromArray(F, d, at + 8).mul(TWO_PI_F);
            FloatVector radius = log(u1, zero, one).mul(-2f).sqrt();
            // sincos256_ps
            IntVector thetaBits = theta.reinterpretAsInts();
            IntVector signSin = thetaBits.and(0x80000000);
            FloatVector x = theta.abs();
            IntVector j = ((IntVector) x.mul(FOPI).convert(VectorOperators.F2I, 0))
                    .add(1)
                    .and(~1);
            FloatVector y = (FloatVector) j.convert(VectorOperators.I2F, 0);
            IntVector swapSin = j.and(4).lanewise(VectorOperators.LSHL, 29);
            VectorMask<Integer> direct = j.and(2).compare(VectorOperators.EQ, 0);
            IntVector signCos = j.sub(2).not().and(4).lanewise(VectorOperators.LSHL, 29);
            signSin = signSin.lanewise(VectorOperators.XOR, swapSin);
            x = y.fma(FloatVector.broadcast(F, MINUS_DP1), x);
            x = y.fma(FloatVector.broadcast(F, MINUS_DP2), x);
            x = y.fma(FloatVector.broadcast(F, MINUS_DP3), x);
            FloatVector z = x.mul(x);
            FloatVector c = FloatVector.broadcast(F, COS_P0)
                    .fma(z, FloatVector.broadcast(F, COS_P1))
                    .fma(z, FloatVector.broadcast(F, COS_P2));
            c = c.mul(z);
            c = c.fma(z, z.mul(0.5f).neg());
            c = c.add(1f);
            FloatVector s = FloatVector.broadcast(F, SIN_P0)
                    .fma(z, FloatVector.broadcast(F, SIN_P1))
                    .fma(z, FloatVector.broadcast(F, SIN_P2));
            s = s.mul(z);
            s = s.fma(x, x);
            VectorMask<Float> directF = direct.cast(F);
            FloatVector sinPart = zero.blend(s, directF), cosPart = c.blend(zero, directF);
            s = s.sub(sinPart);
            c = c.sub(cosPart);
            FloatVector sin = sinPart.add(cosPart)
                    .reinterpretAsInts()
                    .lanewise(VectorOperators.XOR, signSin)
                    .reinterpretAsFloats();
            FloatVector cos = s.add(c)
                    .reinterpretAsInts()
                    .lanewise(VectorOperators.XOR, signCos)
                    .reinterpretAsFloats();
            radius.mul(cos).fma(std, mean).intoArray(d, at);
            radius.mul(sin).fma(std, mean).intoArray(d, at + 8);
        }
    }

    /** log256_ps; lanes with {@code x <= 0} give NaN. */
    private static FloatVector log(FloatVector x, FloatVector zero, FloatVector one) {
        VectorMask<Float> invalid = x.compare(VectorOperators.LE, 0f);
        x = x.max(MIN_NORM_POS);
        IntVector bits = x.reinterpretAsInts();
        FloatVector e = ((FloatVector)
                        bits.lanewise(VectorOperators.LSHR, 23).sub(0x7f).convert(VectorOperators.I2F, 0))
                .add(1f);
        x = bits.and(~0x7f800000).or(Float.floatToRawIntBits(0.5f)).reinterpretAsFloats();
        VectorMask<Float> small = x.compare(VectorOperators.LT, SQRTHF);
        FloatVector tmp = zero.blend(x, small);
        x = x.sub(1f);
        e = e.sub(zero.blend(one, small));
        x = x.add(tmp);
        FloatVector z = x.mul(x);
        FloatVector y = FloatVector.broadcast(F, LOG_P[0]);
        for (int k = 1; k < LOG_P.length; k++) y = y.fma(x, FloatVector.broadcast(F, LOG_P[k]));
        y = y.mul(x);
        y = y.fma(z, e.mul(LOG_Q1));
        y = z.neg().fma(FloatVector.broadcast(F, 0.5f), y);
        x = x.add(y);
        x = e.fma(FloatVector.broadcast(F, LOG_Q2), x);
        return x.blend(Float.NaN, invalid);
    }
}
