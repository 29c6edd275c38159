package org.jtorch.testing;

import java.util.List;
import org.jtorch.DType;
import org.jtorch.Generator;
import org.jtorch.ops.DistributionOps;

/**
 * The {@link OpDb} entries of the distribution samplers ({@link DistributionOps}): positive parameters in the common
 * shapes and layouts (the samplers read values, so negative ones are left to the CPU checks), broadcasting and the
 * dtypes ATen refuses. Their values are checked against PyTorch in {@code DistributionsGoldenTest} and as distributions
 * in {@code DistributionSamplingTest}; the implicit gradients are pointwise and swept with that family.
 */
final class DistributionOpDb {
    private DistributionOpDb() {}

    private static final Generator GEN = new Generator();

    private static OpDb.Sample s(String label, OpDb.Args args) {
        return new OpDb.Sample(label, args, true);
    }

    private static Object[] a(Object... args) {
        return args;
    }

    /** One positive parameter tensor in the usual shapes and layouts, then the generator. */
    private static List<OpDb.Sample> positive() {
        return List.of(
                s("2x3", in -> a(in.positive(2, 3), GEN)),
                s("0-d", in -> a(in.positive(), null)),
                s("empty", in -> a(in.positive(0, 3), GEN)),
                s("transposed", in -> a(in.positiveNc(3, 4), null)));
    }

    static List<OpDb.Entry> entries() {
        return List.of(
                new OpDb.Entry(DistributionOps.STANDARD_GAMMA, OpDb.DTYPES, positive()),
                new OpDb.Entry(DistributionOps.SAMPLE_DIRICHLET, OpDb.DTYPES, positive()),
                new OpDb.Entry(DistributionOps.POISSON, OpDb.DTYPES, positive()),
                new OpDb.Entry(
                        DistributionOps.BINOMIAL,
                        OpDb.DTYPES,
                        List.of(
                                s("2x3", in -> a(in.positive(2, 3), in.unit(2, 3), GEN)),
                                s("broadcast-prob", in -> a(in.positive(2, 3), in.unit(3), null)),
                                s("0-d", in -> a(in.positive(), in.unit(), null)),
                                s("empty", in -> a(in.positive(0, 3), in.unit(0, 3), null)),
                                s("prob-wider", in -> a(in.positive(3), in.unit(2, 3), null)),
                                s("prob-dtype", in -> a(in.positive(2, 3), in.unit(DType.FLOAT64, 2, 3), null)))));
    }
}
