package org.jtorch.benchmarks;

import java.util.Arrays;
import java.util.List;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.nn.functional.F;
import org.jtorch.optim.SGD;

/**
 * The peers' MLP 784-256-10 training step (batch 64, cross entropy, SGD, zero_grad(set_to_none)) as a whole program, as
 * the peers time it: wall clock around each step, reported per window of 1,000 steps (mean, median, p90, p99, max), so
 * the JIT's warm-up and any change of regime over a long run stay visible. JMH's {@code AutogradBench.mlpStep} measures
 * the same step inside JMH's harness.
 *
 * <p>It also prints the round trip of a cache line between two threads before and after the run: on this 2-vCPU machine
 * the host places the two vCPUs either close together (~70 ns) or apart (~330 ns), and the step, JTorch's as PyTorch's,
 * is about 1.6x slower in the second placement, so the figure says which one a run had.
 * {@code benchmarks/mlp-side-by-side} alternates this program with the PyTorch peer.
 *
 * <pre>./mvnw -B -q -pl benchmarks -am -DskipTests package exec:exec@mlp-step -Dmlp.args="16000"</pre>
 */
public final class MlpStepRun {
    private MlpStepRun() {}

    public static void main(String[] args) {
        int steps = args.length > 0 ? Integer.parseInt(args[0]) : 16_000;
        Torch.manualSeed(0);
        Tensor x = Torch.randn(64, 784), y = Torch.randint(0, 10, 64);
        Tensor w1 = Torch.randn(256, 784).mul(0.05).requiresGrad(true),
                b1 = Torch.zeros(256).requiresGrad(true);
        Tensor w2 = Torch.randn(10, 256).mul(0.05).requiresGrad(true),
                b2 = Torch.zeros(10).requiresGrad(true);
        SGD sgd = new SGD(List.of(w1, b1, w2, b2), SGD.Options.defaults().lr(0.01));
        System.out.printf("core-to-core round trip before: %.0f ns%n", roundTripNanos());
        double[] ms = new double[steps];
        for (int i = 0; i < steps; i++) {
            long start = System.nanoTime();
            sgd.zeroGrad(true);
            Tensor loss = F.crossEntropy(F.linear(F.relu(F.linear(x, w1, b1)), w2, b2), y);
            loss.backward();
            sgd.step();
            ms[i] = (System.nanoTime() - start) / 1e6;
        }
        for (int w = 0; w + 1000 <= steps; w += 1000) {
            double[] v = Arrays.copyOfRange(ms, w, w + 1000);
            double mean = Arrays.stream(v).average().orElse(Double.NaN);
            Arrays.sort(v);
            System.out.printf(
                    "steps %5d-%5d: mean %.3f median %.3f p90 %.3f p99 %.3f max %.2f ms%n",
                    w, w + 1000, mean, v[500], v[900], v[990], v[999]);
        }
        System.out.printf("core-to-core round trip after: %.0f ns%n", roundTripNanos());
    }

    private static volatile long ping, pong;

    /**
     * Mean time for one thread to see another's write and the other to see the answer: one cache line going back and
     * forth.
     */
    static double roundTripNanos() {
        int trips = 500_000;
        Thread echo = new Thread(() -> {
            for (long i = 1; i <= trips; i++) {
                while (ping != i) Thread.onSpinWait();
                pong = i;
            }
        });
        ping = pong = 0;
        echo.start();
        long start = System.nanoTime();
        for (long i = 1; i <= trips; i++) {
            ping = i;
            while (pong != i) Thread.onSpinWait();
        }
        double nanos = (System.nanoTime() - start) / (double) trips;
        try {
            echo.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return nanos;
    }
}
