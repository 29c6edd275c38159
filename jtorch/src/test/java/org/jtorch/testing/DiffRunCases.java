package org.jtorch.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.ops.OpDef;
import org.jtorch.testing.DiffRunValues.Variant;

/**
 * The cases of the differential run against PyTorch, drawn from a seed: for every op of the op table ({@link OpDb} and
 * the pointwise ops {@link PointwiseTable} adds) and every sample of it, the sample in float64 and in two more dtypes
 * the op is swept over, chosen at random, with the sample's values; then seeded random values in float64 and in
 * float32, and, for pointwise ops, values mixed with edge values. float64 cases carry first derivatives, and those with
 * the sample's values second derivatives too. Every differentiable op that accepts complex128 also gets the sample in
 * complex128 with first and second derivatives (the conjugate Wirtinger gradients PyTorch's backward gives, and those
 * of their weighted real part). The same seed gives the same cases.
 */
public final class DiffRunCases {
    private DiffRunCases() {}

    /**
     * One case.
     *
     * @param op the op
     * @param sample the sample's label
     * @param args builds the sample's arguments
     * @param dtype the dtype the sample is built in
     * @param variant how the values are chosen
     * @param seed the seed of the values ({@link DiffRunValues#fill})
     * @param gradients 0 (values only), 1 (first derivatives) or 2 (first and second)
     */
    public record Case(
            OpDef op, String sample, OpDb.Args args, DType dtype, Variant variant, long seed, int gradients) {
        /** The arguments, with this case's values. */
        public Object[] build() {
            Object[] a = args.build(SampleInputs.on(dtype, Device.CPU));
            DiffRunValues.fill(a, variant, seed);
            return a;
        }
    }

    /** Every case drawn from {@code seed}. */
    public static List<Case> all(long seed) {
        List<Case> cases = new ArrayList<>();
        for (OpDb.Entry e : OpDb.ALL) {
            for (OpDb.Sample s : e.samples()) add(cases, e.op(), s.label(), s.args(), e.dtypes(), seed);
        }
        for (OpDef op : PointwiseTable.ops()) {
            for (OpDb.Sample s : pointwiseSamples(op)) add(cases, op, s.label(), s.args(), OpDb.DTYPES, seed);
        }
        return cases;
    }

    private static void add(List<Case> cases, OpDef op, String sample, OpDb.Args args, List<DType> dtypes, long seed) {
        String name = OpDb.key(op) + "/" + sample;
        SplittableRandom rng = new SplittableRandom(seed ^ name.hashCode() * 0x9E3779B97F4A7C15L);
        List<DType> others = new ArrayList<>(dtypes);
        others.remove(DType.FLOAT64);
        List<DType> picked = new ArrayList<>();
        if (dtypes.contains(DType.FLOAT64)) picked.add(DType.FLOAT64);
        for (int k = 0; k < 2 && !others.isEmpty(); k++) picked.add(others.remove(rng.nextInt(others.size())));
        boolean differentiable = op.isDifferentiable()
                && !op.has(OpDef.Flag.RANDOM)
                && !op.schema().isMutable();
        boolean complexGradients = differentiable && dtypes.contains(DType.COMPLEX128);
        for (DType d : picked) {
            int grads = d == DType.FLOAT64 && differentiable || d == DType.COMPLEX128 && complexGradients ? 2 : 0;
            cases.add(new Case(op, sample, args, d, Variant.SAMPLE, rng.nextLong(), grads));
        }
        for (DType d : List.of(DType.FLOAT64, DType.FLOAT32)) {
            if (!dtypes.contains(d)) continue;
            int grads = d == DType.FLOAT64 && differentiable ? 1 : 0;
            cases.add(new Case(op, sample, args, d, Variant.RANDOM, rng.nextLong(), grads));
            if (op.has(OpDef.Flag.POINTWISE)) cases.add(new Case(op, sample, args, d, Variant.EDGE, rng.nextLong(), 0));
        }
        // drawn last, so that the cases above keep the seeds they had before complex gradients were compared
        if (complexGradients && !picked.contains(DType.COMPLEX128)) {
            cases.add(new Case(op, sample, args, DType.COMPLEX128, Variant.SAMPLE, rng.nextLong(), 2));
        }
    }

    /** The pointwise ops' samples: the sweep's shapes, and transposed and expanded operands. */
    private static List<OpDb.Sample> pointwiseSamples(OpDef op) {
        int arity = PointwiseTable.tensorArgs(op);
        List<OpDb.Sample> samples = new ArrayList<>();
        for (OpInfo.Sample s : OpInfo.pointwiseSamples(arity)) {
            samples.add(new OpDb.Sample(
                    s.label(),
                    in -> {
                        Object[] ts = new Object[s.shapes().length];
                        for (int i = 0; i < ts.length; i++) ts[i] = in.t(s.shapes()[i]);
                        return PointwiseTable.args(op, ts);
                    },
                    true));
        }
        samples.add(new OpDb.Sample("transposed", in -> PointwiseTable.args(op, operands(arity, in, true)), true));
        samples.add(new OpDb.Sample("expanded", in -> PointwiseTable.args(op, operands(arity, in, false)), true));
        return samples;
    }

    /** {@code arity} 3x4 operands, the first transposed or expanded, the others contiguous. */
    private static Object[] operands(int arity, SampleInputs in, boolean transposed) {
        Object[] ts = new Object[arity];
        ts[0] = transposed ? in.nc(3, 4) : in.ex(3, 4);
        for (int i = 1; i < arity; i++) ts[i] = in.t(3, 4);
        return ts;
    }
}
