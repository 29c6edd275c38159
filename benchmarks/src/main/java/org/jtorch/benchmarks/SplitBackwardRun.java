package org.jtorch.benchmarks;

import java.util.List;
import java.util.Locale;
import org.jtorch.Tensor;
import org.jtorch.Torch;

/**
 * The backward of TrainGpt's attention input split ({@code qkv.split(128, 2)} of [16, 128, 384], each piece weighted
 * and summed), against the same graph on three separate leaves, whose difference is what the split's backward costs;
 * medians of 200 calls in each of five rounds after a warm-up round, 2 threads.
 *
 * <pre>
 * ./mvnw -B -q -pl jtorch,examples,benchmarks -am -DskipTests package
 * java --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector \
 *     -cp benchmarks/target/classes:$(cat examples/target/launcher.classpath) org.jtorch.benchmarks.SplitBackwardRun
 * </pre>
 */
public final class SplitBackwardRun {
    private SplitBackwardRun() {}

    public static void main(String[] args) {
        Torch.manualSeed(0);
        Tensor x = Torch.randn(16, 128, 384).requiresGrad(true);
        Tensor[] leaves = new Tensor[3], weights = new Tensor[3];
        for (int i = 0; i < 3; i++) {
            leaves[i] = Torch.randn(16, 128, 128).requiresGrad(true);
            weights[i] = Torch.randn(16, 128, 128);
        }
        for (int round = 0; round < 6; round++) {
            double[] split = new double[200], separate = new double[200];
            for (int i = 0; i < split.length; i++) {
                List<Tensor> p = x.split(128, 2);
                split[i] = backwardMillis(weighted(p.get(0), p.get(1), p.get(2), weights));
                x.setGrad(null);
                separate[i] = backwardMillis(weighted(leaves[0], leaves[1], leaves[2], weights));
                for (Tensor l : leaves) l.setGrad(null);
            }
            if (round > 0) {
                System.out.printf(
                        Locale.ROOT,
                        "bench=split_backward split_ms=%.3f three_leaves_ms=%.3f%n",
                        median(split),
                        median(separate));
            }
        }
    }

    private static Tensor weighted(Tensor a, Tensor b, Tensor c, Tensor[] w) {
        return a.mul(w[0]).add(b.mul(w[1])).add(c.mul(w[2])).sum();
    }

    private static double backwardMillis(Tensor loss) {
        long t0 = System.nanoTime();
        loss.backward();
        return (System.nanoTime() - t0) / 1e6;
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        java.util.Arrays.sort(s);
        return s[s.length / 2];
    }
}
