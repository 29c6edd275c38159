package org.jtorch.benchmarks;

import java.util.function.Supplier;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.ops.ConvOps;
import org.jtorch.ops.PointwiseOps;
import org.jtorch.ops.PoolOps;

/**
 * The batched kernels of {@link PerSampleCnnGradBench}'s {@code vmap(grad)}, one by one at the shapes its batch rules
 * give them (64 samples: convolutions over [64, C, H, W], per-sample weight gradients as convolutions of 64 groups,
 * pools and ReLUs over [64, C, H, W]), so that a change to one kernel can be measured without the rest. Each line is
 * the fastest of 7 rounds of 100 calls after 200 warm-up calls, in µs a call, on the thread count given (default 1).
 *
 * <pre>
 * java --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector \
 *     -cp benchmarks/target/classes:$(cat examples/target/launcher.classpath) \
 *     org.jtorch.benchmarks.PerSampleCnnOpsRun [threads]
 * </pre>
 */
public final class PerSampleCnnOpsRun {
    private PerSampleCnnOpsRun() {}

    private static void time(String name, Supplier<Object> call) {
        for (int i = 0; i < 200; i++) call.get();
        double best = Double.MAX_VALUE;
        for (int round = 0; round < 7; round++) {
            long t0 = System.nanoTime();
            for (int i = 0; i < 100; i++) call.get();
            best = Math.min(best, (System.nanoTime() - t0) / 1e3 / 100);
        }
        System.out.printf("bench=perSampleCnnOp op=%s value=%.1f unit=us%n", name, best);
    }

    public static void main(String[] args) {
        Torch.setNumThreads(args.length > 0 ? Integer.parseInt(args[0]) : 1);
        Torch.manualSeed(0);
        long[] one = {1, 1}, two = {2, 2}, none = {0, 0}, noPadding = {0};
        Tensor x = Torch.randn(64, 1, 28, 28), w1 = Torch.randn(8, 1, 3, 3), b1 = Torch.randn(8);
        Tensor w2 = Torch.randn(16, 8, 3, 3), b2 = Torch.randn(16);
        // the max-pool model: conv 28 -> 26, pool -> 13, conv -> 11, pool -> 5
        Tensor h1 = Torch.randn(64, 8, 13, 13), y1 = Torch.randn(64, 8, 26, 26), y2 = Torch.randn(64, 16, 11, 11);
        time("conv1.forward", () -> ConvOps.convolution(x, w1, b1, one, none, one, false, noPadding, 1));
        time("conv2.forward", () -> ConvOps.convolution(h1, w2, b2, one, none, one, false, noPadding, 1));
        time("conv2.inputGrad", () -> ConvOps.convolutionBackwardInput(y2, w2, h1.shape(), one, none, one, 1));
        Tensor g2 = y2.reshape(1, 1024, 11, 11), i2 = h1.reshape(1, 512, 13, 13);
        Tensor g1 = y1.reshape(1, 512, 26, 26), i1 = x.reshape(1, 64, 28, 28);
        long[] wg2 = {1024, 8, 3, 3}, wg1 = {512, 1, 3, 3};
        time("conv2.perSampleWeightGrad", () -> ConvOps.convolutionBackwardWeight(g2, i2, wg2, one, none, one, 64));
        time("conv1.perSampleWeightGrad", () -> ConvOps.convolutionBackwardWeight(g1, i1, wg1, one, none, one, 64));
        long[] k = {2}, pad = {0}, dil = {1};
        Tensor[] p1 = PoolOps.maxPool2dWithIndices(y1, k, k, pad, dil, false);
        Tensor[] p2 = PoolOps.maxPool2dWithIndices(y2, k, k, pad, dil, false);
        time("pool1.forward", () -> PoolOps.maxPool2dWithIndices(y1, k, k, pad, dil, false));
        time("pool2.forward", () -> PoolOps.maxPool2dWithIndices(y2, k, k, pad, dil, false));
        time("pool1.backward", () -> PoolOps.maxPool2dWithIndicesBackward(p1[0], y1, k, k, pad, dil, false, p1[1]));
        time("pool2.backward", () -> PoolOps.maxPool2dWithIndicesBackward(p2[0], y2, k, k, pad, dil, false, p2[1]));
        time("relu1.forward", y1::relu);
        time("relu1.backward", () -> PointwiseOps.thresholdBackward(y1, y1, 0L));
        // the strided model: conv 28 -> 13, conv -> 6, both stride 2
        Tensor s1 = Torch.randn(64, 8, 13, 13), s2 = Torch.randn(64, 16, 6, 6);
        time("stridedConv1.forward", () -> ConvOps.convolution(x, w1, b1, two, none, one, false, noPadding, 1));
        time("stridedConv2.forward", () -> ConvOps.convolution(s1, w2, b2, two, none, one, false, noPadding, 1));
        time("stridedConv2.inputGrad", () -> ConvOps.convolutionBackwardInput(s2, w2, s1.shape(), two, none, one, 1));
        Tensor sg2 = s2.reshape(1, 1024, 6, 6), si2 = s1.reshape(1, 512, 13, 13), sg1 = s1.reshape(1, 512, 13, 13);
        time(
                "stridedConv2.perSampleWeightGrad",
                () -> ConvOps.convolutionBackwardWeight(sg2, si2, wg2, two, none, one, 64));
        time(
                "stridedConv1.perSampleWeightGrad",
                () -> ConvOps.convolutionBackwardWeight(sg1, i1, wg1, two, none, one, 64));
    }
}
