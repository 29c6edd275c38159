package org.jtorch.testing;

import java.util.List;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.ops.CloseOps;

/**
 * The {@link OpDb} entry of {@link CloseOps#ISCLOSE}: default and loose tolerances, zero tolerances, {@code equal_nan},
 * a tensor against itself (so the differential run's edge values put equal infinities and NaNs side by side),
 * broadcasting, 0-d, empty and non-contiguous operands, and what it refuses: mixed dtypes, negative tolerances and
 * shapes that do not broadcast. Values are checked against PyTorch in {@code CloseGoldenTest}.
 */
final class CloseOpDb {
    private CloseOpDb() {}

    private static OpDb.Sample s(String label, OpDb.Args args) {
        return new OpDb.Sample(label, args, true);
    }

    private static Object[] a(Object... args) {
        return args;
    }

    /** {@code isclose(x, x, ...)}: one tensor on both sides. */
    private static Object[] self(Tensor x, double rtol, double atol, boolean equalNan) {
        return a(x, x, rtol, atol, equalNan);
    }

    static List<OpDb.Entry> entries() {
        return List.of(new OpDb.Entry(
                CloseOps.ISCLOSE,
                OpDb.DTYPES,
                List.of(
                        s("defaults", in -> a(in.t(3, 4), in.t(3, 4), 1e-5, 1e-8, false)),
                        s("loose", in -> a(in.t(3, 4), in.t(3, 4), 0.5, 0.5, false)),
                        s("atol-only", in -> a(in.t(5), in.t(5), 0.0, 1.0, false)),
                        s("zero-tolerance", in -> a(in.t(2, 3), in.t(2, 3), 0.0, 0.0, false)),
                        s("itself", in -> self(in.t(3, 4), 1e-5, 1e-8, false)),
                        s("itself-equal-nan", in -> self(in.t(3, 4), 1e-5, 1e-8, true)),
                        s("itself-zero-tolerance", in -> self(in.nc(3, 4), 0.0, 0.0, true)),
                        s("broadcast", in -> a(in.t(2, 1, 4), in.t(3, 4), 0.5, 0.25, false)),
                        s("0-d", in -> a(in.t(), in.t(3), 0.5, 0.5, true)),
                        s("empty", in -> a(in.t(0, 3), in.t(3), 1e-5, 1e-8, false)),
                        s("transposed", in -> a(in.nc(3, 4), in.t(3, 4), 0.5, 0.5, false)),
                        s("expanded", in -> a(in.ex(3, 4), in.off(3, 4), 0.5, 0.5, true)),
                        s("mixed-dtypes", in -> a(in.t(DType.FLOAT32, 3), in.t(DType.FLOAT64, 3), 1e-5, 1e-8, false)),
                        s("negative-rtol", in -> a(in.t(3), in.t(3), -1e-5, 1e-8, false)),
                        s("negative-atol", in -> a(in.t(3), in.t(3), 1e-5, -1.0, false)),
                        s("not-broadcastable", in -> a(in.t(2, 3), in.t(4, 3), 1e-5, 1e-8, false)))));
    }
}
