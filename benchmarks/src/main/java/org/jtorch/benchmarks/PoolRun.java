package org.jtorch.benchmarks;

import java.util.Arrays;
import java.util.function.Function;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.nn.functional.F;

/**
 * Pooling timed as its peer ({@code benchmarks/peers/torch_pool.py}) times it, 5 warm-up calls then the median of 30
 * wall-clock calls, float32, forward under no_grad and forward + backward of {@code (out · g).sum()}: the ResNet stem's
 * {@code max_pool2d(3, stride 2, padding 1)} of [16, 64, 112, 112], {@code max_pool3d(2)} and {@code avg_pool3d(3,
 * stride 2, padding 1)} of [4, 32, 16, 32, 32], and {@code adaptive_max_pool2d(7)} of [16, 64, 56, 56].
 *
 * <pre>
 * ./mvnw -B -q -pl benchmarks -am -DskipTests package
 * java --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector \
 *     -cp jtorch/target/jtorch-0.1.0-SNAPSHOT.jar:benchmarks/target/classes org.jtorch.benchmarks.PoolRun
 * </pre>
 */
public final class PoolRun {
    private PoolRun() {}

    public static void main(String[] args) {
        Torch.manualSeed(0);
        Tensor image = Torch.randn(16, 64, 112, 112).requiresGrad(true);
        Tensor volume = Torch.randn(4, 32, 16, 32, 32).requiresGrad(true);
        Tensor features = Torch.randn(16, 64, 56, 56).requiresGrad(true);
        long[] one = {1};
        pair("maxPool2d", image, x -> F.maxPool2d(x, new long[] {3}, new long[] {2}, one, one, false));
        pair("maxPool3d", volume, x -> F.maxPool3d(x, 2));
        pair("avgPool3d", volume, x -> F.avgPool3d(x, new long[] {3}, new long[] {2}, one, false, true, null));
        pair("adaptiveMaxPool2d", features, x -> F.adaptiveMaxPool2d(x, 7));
    }

    /** The forward alone and forward + backward of one pool. */
    private static void pair(String name, Tensor input, Function<Tensor, Tensor> pool) {
        Tensor grad;
        try (var _ = Torch.noGrad()) {
            grad = Torch.randnLike(pool.apply(input));
        }
        measure(name + "Forward", () -> {
            try (var _ = Torch.noGrad()) {
                pool.apply(input);
            }
        });
        measure(name + "ForwardBackward", () -> {
            pool.apply(input).mul(grad).sum().backward();
            input.setGrad(null);
        });
    }

    private static void measure(String name, Runnable body) {
        for (int i = 0; i < 5; i++) body.run();
        double[] ms = new double[30];
        for (int i = 0; i < ms.length; i++) {
            long t0 = System.nanoTime();
            body.run();
            ms[i] = (System.nanoTime() - t0) / 1e6;
        }
        Arrays.sort(ms);
        System.out.printf(
                "bench=%s value=%.4g unit=ms min=%.4g max=%.4g jtorch threads=%d%n",
                name, (ms[14] + ms[15]) / 2, ms[0], ms[ms.length - 1], Torch.getNumThreads());
    }
}
