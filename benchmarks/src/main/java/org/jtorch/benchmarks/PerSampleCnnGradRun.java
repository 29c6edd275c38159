package org.jtorch.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.function.LongSupplier;
import org.jtorch.Torch;

/**
 * {@link PerSampleCnnGradBench} as a whole program, for a quick reading without JMH's forks: for each model (max
 * pooling, stride-2 convolutions), 15 warm-up rounds of both recipes, then the fastest of {@code rounds} (default 10)
 * alternating timed rounds of {@code vmap(grad)} and of the loop of 64 single-sample backward passes, and their ratio
 * (the bar is 4×).
 *
 * <p>With {@code cpu} as the second argument the program runs on one thread ({@code Torch.setNumThreads(1)}) and reads
 * the thread's CPU time instead of the wall clock: the work each recipe does, which other processes sharing the cores
 * change far less than the elapsed time (on a loaded machine a wall-clock round waits for the scheduler).
 *
 * <pre>
 * ./mvnw -B -q -pl jtorch,examples,benchmarks -am -DskipTests package
 * java --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector \
 *     -cp benchmarks/target/classes:$(cat examples/target/launcher.classpath) \
 *     org.jtorch.benchmarks.PerSampleCnnGradRun [rounds [cpu]]
 * </pre>
 */
public final class PerSampleCnnGradRun {
    private PerSampleCnnGradRun() {}

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        boolean cpu = args.length > 1 && args[1].equals("cpu");
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        LongSupplier clock = cpu ? threads::getCurrentThreadCpuTime : System::nanoTime;
        if (cpu) Torch.setNumThreads(1);
        for (String model : new String[] {"maxPool", "stridedConv"}) {
            PerSampleCnnGradBench b = new PerSampleCnnGradBench();
            b.downsample = model;
            b.setup();
            for (int i = 0; i < 15; i++) {
                b.vmapGrad();
                b.loop();
            }
            long vmap = Long.MAX_VALUE, loop = Long.MAX_VALUE;
            for (int round = 0; round < rounds; round++) {
                long t0 = clock.getAsLong();
                b.vmapGrad();
                long t1 = clock.getAsLong();
                b.loop();
                long t2 = clock.getAsLong();
                vmap = Math.min(vmap, t1 - t0);
                loop = Math.min(loop, t2 - t1);
            }
            System.out.printf(
                    "bench=perSampleCnnGrad model=%s clock=%s vmapGrad=%.2f ms loop=%.2f ms ratio=%.2fx%n",
                    model, cpu ? "cpu-1-thread" : "wall", vmap / 1e6, loop / 1e6, (double) loop / vmap);
        }
    }
}
