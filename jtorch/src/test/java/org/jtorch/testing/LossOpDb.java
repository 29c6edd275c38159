package org.jtorch.testing;

import java.util.List;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.ops.CtcLossOps;
import org.jtorch.ops.OpDef;

/**
 * The {@link OpDb} entries of the loss primitives ({@link CtcLossOps}): padded and concatenated targets, repeated
 * labels, unequal lengths, an empty target, an impossible alignment, strided log-probabilities, and the arguments
 * {@code _ctc_loss} refuses. Values are checked against PyTorch in {@code LossNormGoldenTest}.
 */
final class LossOpDb {
    private LossOpDb() {}

    private static OpDb.Sample s(String label, OpDb.Args args) {
        return new OpDb.Sample(label, args, true);
    }

    private static Object[] a(Object... args) {
        return args;
    }

    private static long[] ls(long... v) {
        return v;
    }

    /** Class-index targets holding {@code values}; zeros on meta, where no value is read. */
    private static Tensor labels(SampleInputs in, long[] values, long... shape) {
        if (in.device() == Device.META) return Torch.zeros(shape, DType.INT64, Device.META);
        return Torch.tensor(values).view(shape);
    }

    static List<OpDb.Entry> entries() {
        OpDef ctc = CtcLossOps.CTC_LOSS;
        return List.of(
                new OpDb.Entry(
                        ctc,
                        OpDb.DTYPES,
                        List.of(
                                s(
                                        "padded",
                                        in -> a(
                                                in.t(6, 2, 5),
                                                labels(in, ls(1, 2, 2, 3, 4, 0), 2, 3),
                                                ls(6, 5),
                                                ls(3, 2),
                                                0L,
                                                false)),
                                s(
                                        "concatenated",
                                        in -> a(
                                                in.t(5, 2, 4),
                                                labels(in, ls(3, 1, 2, 2), 4),
                                                ls(5, 5),
                                                ls(1, 3),
                                                0L,
                                                false)),
                                s(
                                        "blank-last-strided",
                                        in -> a(
                                                in.nc(5, 2, 4),
                                                labels(in, ls(0, 1, 2, 0), 2, 2),
                                                ls(5, 3),
                                                ls(2, 1),
                                                3L,
                                                false)),
                                s(
                                        "empty-target",
                                        in -> a(
                                                in.t(4, 2, 3),
                                                labels(in, ls(1, 0), 2, 1),
                                                ls(4, 2),
                                                ls(1, 0),
                                                0L,
                                                false)),
                                s(
                                        "impossible-zero-infinity",
                                        in -> a(in.t(2, 1, 3), labels(in, ls(1, 1), 1, 2), ls(2), ls(2), 0L, true)),
                                s(
                                        "blank-out-of-range",
                                        in -> a(in.t(3, 1, 3), labels(in, ls(1), 1, 1), ls(3), ls(1), 3L, false)),
                                s(
                                        "input-too-long",
                                        in -> a(in.t(3, 1, 3), labels(in, ls(1), 1, 1), ls(4), ls(1), 0L, false)),
                                s("rank-2", in -> a(in.t(3, 3), labels(in, ls(1), 1, 1), ls(3), ls(1), 0L, false)))),
                new OpDb.Entry(
                        CtcLossOps.CTC_LOSS_BACKWARD,
                        OpDb.DTYPES,
                        List.of(
                                s(
                                        "padded",
                                        in -> backwardArgs(
                                                in,
                                                in.t(6, 2, 5),
                                                labels(in, ls(1, 2, 2, 3, 4, 0), 2, 3),
                                                ls(6, 5),
                                                ls(3, 2),
                                                0L,
                                                false)),
                                s(
                                        "strided-zero-infinity",
                                        in -> backwardArgs(
                                                in,
                                                in.nc(3, 2, 4),
                                                labels(in, ls(1, 1, 2, 0), 2, 2),
                                                ls(3, 2),
                                                ls(2, 1),
                                                0L,
                                                true)))));
    }

    /**
     * {@code _ctc_loss_backward}'s arguments: an output gradient and the forward's saved outputs, computed in float64
     * on the CPU (zeros on meta, where only shapes matter, and for the dtypes the op refuses) and given the swept
     * dtype.
     */
    private static Object[] backwardArgs(
            SampleInputs in, Tensor lp, Tensor targets, long[] il, long[] tl, long blank, boolean zeroInfinity) {
        long n = lp.size(1), width = 2 * java.util.Arrays.stream(tl).max().orElse(0) + 1;
        Tensor grad = in.t(n);
        if (in.device() == Device.META || !lp.isFloatingPoint()) {
            // the op refuses non-floating dtypes before reading these
            Tensor nll = Torch.zeros(new long[] {n}, lp.dtype(), in.device());
            Tensor alpha = Torch.zeros(new long[] {n, lp.size(0), width}, lp.dtype(), in.device());
            return a(grad, lp, targets, il, tl, nll, alpha, blank, zeroInfinity);
        }
        Tensor[] fwd = CtcLossOps.ctcLoss(lp.to(DType.FLOAT64), targets, il, tl, blank, zeroInfinity);
        return a(grad, lp, targets, il, tl, fwd[0].to(lp.dtype()), fwd[1].to(lp.dtype()), blank, zeroInfinity);
    }
}
