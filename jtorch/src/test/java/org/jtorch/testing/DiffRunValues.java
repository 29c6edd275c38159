package org.jtorch.testing;

import java.lang.foreign.MemorySegment;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.SplittableRandom;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.kernels.cpu.ElementIO;

/**
 * The values of one differential-run case: the sample's own values ({@link Variant#SAMPLE}), or every floating and
 * complex tensor's storage refilled from the case's seed with normal values of a random scale ({@link Variant#RANDOM})
 * or with those mixed with zeros of both signs, infinities, NaN, subnormals and huge values ({@link Variant#EDGE}).
 * Integer and bool tensors keep the sample's values: they are indices, counts and masks the sample made valid. The
 * storage is refilled in place, so the sample's layout (transposed, expanded, at an offset) stays as it was.
 */
public final class DiffRunValues {
    private DiffRunValues() {}

    /** How a case's values are chosen. */
    public enum Variant {
        /** The op table sample's own values. */
        SAMPLE,
        /** Seeded normal values of a random scale. */
        RANDOM,
        /** Seeded values with many edge values among them. */
        EDGE
    }

    private static final double[] EDGES = {
        0.0,
        -0.0,
        Double.POSITIVE_INFINITY,
        Double.NEGATIVE_INFINITY,
        Double.NaN,
        4.9e-324,
        -2.2e-308,
        1e30,
        -1e30,
        0.5,
        -1.0,
        1.0,
        3.0
    };

    /** Refills the floating tensors among {@code args} (also inside tensor lists) as {@code variant} asks. */
    public static void fill(Object[] args, Variant variant, long seed) {
        if (variant == Variant.SAMPLE) return;
        SplittableRandom rng = new SplittableRandom(seed);
        Set<Object> storages = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Object a : args) {
            if (a instanceof Tensor t) fill(t, variant, rng, storages);
            else if (a instanceof Tensor[] ts) for (Tensor t : ts) if (t != null) fill(t, variant, rng, storages);
        }
    }

    private static void fill(Tensor t, Variant variant, SplittableRandom rng, Set<Object> storages) {
        DType d = t.dtype();
        if (!(d.isFloatingPoint() || d.isComplex()) || !storages.add(t.impl().storage())) return;
        MemorySegment seg = t.impl().storage().segment();
        ElementIO io = ElementIO.of(d);
        long n = seg.byteSize() / d.itemSize();
        double scale = new double[] {0.25, 1.0, 3.0}[rng.nextInt(3)];
        for (long i = 0; i < n; i++) {
            double re = value(variant, rng, scale);
            if (d.isComplex()) io.setComplex(seg, i, re, value(variant, rng, scale));
            else io.setDouble(seg, i, re);
        }
    }

    private static double value(Variant variant, SplittableRandom rng, double scale) {
        if (variant == Variant.EDGE && rng.nextInt(5) < 2) return EDGES[rng.nextInt(EDGES.length)];
        return rng.nextGaussian() * scale;
    }
}
