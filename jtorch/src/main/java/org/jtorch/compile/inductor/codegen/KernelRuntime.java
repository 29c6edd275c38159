package org.jtorch.compile.inductor.codegen;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;
import org.jtorch.kernels.cpu.simd.VectorInlining;

/**
 * The functions generated kernels call (the kernels' classes are defined in this package, so they reach these
 * package-private methods): erf (Abramowitz and Stegun 7.1.26 refined by erfc's exponential form, about 1e-7 absolute,
 * ample for float) and its vector form, ReLU propagating NaN, bfloat16 rounding to nearest even (as c10 does), Python's
 * remainder, C's trunc, integer powers, and index wrapping with a bounds check.
 */
final class KernelRuntime {
    private KernelRuntime() {}

    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;

    static {
        // the vector forms below must be compiled into the generated loops, never on their own: see VectorInlining
        VectorInlining.alsoInline(KernelRuntime.class);
    }

    static double erf(double x) {
        // NaN passes through as it came: through the arithmetic below its sign bit depended on whether Math.exp ran
        // interpreted or compiled, so a kernel's NaN could change bits as it warmed up
        if (x != x) return x;
        double z = Math.abs(x);
        double t = 1.0 / (1.0 + 0.5 * z);
        // Numerical Recipes' erfc polynomial, innermost term first: each step c + t·p rounds as the nested form
        double p = 0.17087277;
        p = -0.82215223 + t * p;
        p = 1.48851587 + t * p;
        p = -1.13520398 + t * p;
        p = 0.27886807 + t * p;
        p = -0.18628806 + t * p;
        p = 0.09678418 + t * p;
        p = 0.37409196 + t * p;
        p = 1.00002368 + t * p;
        double r = t * Math.exp(-z * z - 1.26551223 + t * p);
        return x >= 0 ? 1.0 - r : r - 1.0;
    }

    static FloatVector erf(FloatVector x) {
        FloatVector z = x.abs();
        FloatVector t = FloatVector.broadcast(S, 1f).div(z.mul(0.5f).add(1f));
        FloatVector p = t.mul(0.17087277f).add(-0.82215223f);
        p = p.mul(t).add(1.48851587f);
        p = p.mul(t).add(-1.13520398f);
        p = p.mul(t).add(0.27886807f);
        p = p.mul(t).add(-0.18628806f);
        p = p.mul(t).add(0.09678418f);
        p = p.mul(t).add(0.37409196f);
        p = p.mul(t).add(1.00002368f);
        p = p.mul(t).add(-1.26551223f);
        FloatVector r = t.mul(p.sub(z.mul(z)).lanewise(VectorOperators.EXP));
        FloatVector one = FloatVector.broadcast(S, 1f);
        return one.sub(r).blend(r.sub(one), x.compare(VectorOperators.LT, 0f));
    }

    static FloatVector relu(FloatVector x) {
        return x.blend(0f, x.compare(VectorOperators.LT, 0f));
    }

    static short toBFloat16(float f) {
        if (f != f) return (short) 0x7FC0;
        int bits = Float.floatToRawIntBits(f);
        return (short) ((bits + 0x7FFF + ((bits >>> 16) & 1)) >>> 16);
    }

    static float remainder(float a, float b) {
        float r = a % b;
        return r != 0 && (r < 0) != (b < 0) ? r + b : r;
    }

    static double remainder(double a, double b) {
        double r = a % b;
        return r != 0 && (r < 0) != (b < 0) ? r + b : r;
    }

    static double trunc(double x) {
        return x < 0 ? Math.ceil(x) : Math.floor(x);
    }

    static long ipow(long a, long b) {
        if (b < 0) return a == 1 ? 1 : a == -1 ? ((b & 1) == 0 ? 1 : -1) : 0;
        long r = 1;
        for (long i = 0; i < b; i++) r *= a;
        return r;
    }

    static long index(long i, long size) {
        long w = i < 0 ? i + size : i;
        if (w < 0 || w >= size) {
            throw new IndexOutOfBoundsException("index " + i + " is out of bounds for dimension with size " + size);
        }
        return w;
    }
}
