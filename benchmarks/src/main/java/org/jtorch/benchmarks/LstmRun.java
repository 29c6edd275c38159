package org.jtorch.benchmarks;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.nn.LSTM;

/**
 * {@code nn.LSTM} float32, input and hidden 256, batch 32, timed as its peer ({@code benchmarks/peers/torch_lstm.py})
 * times it: 5 warm-up calls, then the median of 30 wall-clock calls, one layer over 64 steps ("1x64") and two layers
 * over 128 steps ("2x128", issue 21's benchmark); forward under no_grad and forward + backward of {@code (output ·
 * g).sum()} with the gradients reset after each call. A whole program rather than JMH so that it runs the way a
 * training loop does (one JVM, the collector's pauses included) and can be profiled as one.
 *
 * <pre>
 * ./mvnw -B -q -pl benchmarks -am -DskipTests package
 * java --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector \
 *     -cp jtorch/target/jtorch-0.1.0-SNAPSHOT.jar:benchmarks/target/classes:$DEPS org.jtorch.benchmarks.LstmRun [SHAPE]
 * </pre>
 *
 * {@code SHAPE} ("1x64" or "2x128") runs one shape only; {@code DEPS} is the jtorch module's runtime class path.
 */
public final class LstmRun {
    private LstmRun() {}

    private static final OperatingSystemMXBean OS =
            (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    public static void main(String[] args) {
        for (String shape : new String[] {"1x64", "2x128"}) {
            if (args.length == 0 || args[0].equals(shape)) run(shape);
        }
    }

    private static void run(String shape) {
        int layers = Integer.parseInt(shape.substring(0, shape.indexOf('x')));
        long steps = Long.parseLong(shape.substring(shape.indexOf('x') + 1));
        Torch.manualSeed(0);
        LSTM lstm = new LSTM(256, 256, LSTM.Options.defaults().numLayers(layers));
        Tensor x = Torch.randn(steps, 32, 256).requiresGrad(true);
        Tensor g = Torch.randn(steps, 32, 256);
        String name = "lstm_" + shape;
        measure(name + "_forward", () -> {
            try (var _ = Torch.noGrad()) {
                lstm.forward(x);
            }
        });
        measure(name + "_forward_backward", () -> {
            lstm.forward(x).mul(g).sum().backward();
            x.setGrad(null);
            lstm.zeroGrad();
        });
    }

    /**
     * Prints the wall-clock median, minimum and maximum, and the median of the process's CPU time per call (all its
     * threads, the collector's included): on a shared machine the wall clock includes the time other processes held the
     * cores, the CPU time only the work done.
     */
    private static void measure(String name, Runnable body) {
        for (int i = 0; i < 5; i++) body.run();
        double[] ms = new double[30], cpu = new double[30];
        for (int i = 0; i < ms.length; i++) {
            long c0 = OS.getProcessCpuTime(), t0 = System.nanoTime();
            body.run();
            ms[i] = (System.nanoTime() - t0) / 1e6;
            cpu[i] = (OS.getProcessCpuTime() - c0) / 1e6;
        }
        Arrays.sort(ms);
        Arrays.sort(cpu);
        System.out.printf(
                "bench=%s value=%.4g unit=ms min=%.4g max=%.4g cpu=%.4g jtorch threads=%d%n",
                name, (ms[14] + ms[15]) / 2, ms[0], ms[ms.length - 1], (cpu[14] + cpu[15]) / 2, Torch.getNumThreads());
    }
}
