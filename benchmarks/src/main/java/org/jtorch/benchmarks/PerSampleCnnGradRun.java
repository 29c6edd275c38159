package org.jtorch.benchmarks;

/**
 * {@link PerSampleCnnGradBench} as a whole program, for a quick reading without JMH's forks: for each model (max
 * pooling, stride-2 convolutions), 15 warm-up rounds of both recipes, then the fastest of 10 alternating timed rounds
 * of {@code vmap(grad)} and of the loop of 64 single-sample backward passes, and their ratio (the bar is 4×).
 *
 * <pre>
 * ./mvnw -B -q -pl jtorch,examples,benchmarks -am -DskipTests package
 * java --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector \
 *     -cp benchmarks/target/classes:$(cat examples/target/launcher.classpath) org.jtorch.benchmarks.PerSampleCnnGradRun
 * </pre>
 */
public final class PerSampleCnnGradRun {
    private PerSampleCnnGradRun() {}

    public static void main(String[] args) {
        for (String model : new String[] {"maxPool", "stridedConv"}) {
            PerSampleCnnGradBench b = new PerSampleCnnGradBench();
            b.downsample = model;
            b.setup();
            for (int i = 0; i < 15; i++) {
                b.vmapGrad();
                b.loop();
            }
            long vmap = Long.MAX_VALUE, loop = Long.MAX_VALUE;
            for (int round = 0; round < 10; round++) {
                long t0 = System.nanoTime();
                b.vmapGrad();
                long t1 = System.nanoTime();
                b.loop();
                long t2 = System.nanoTime();
                vmap = Math.min(vmap, t1 - t0);
                loop = Math.min(loop, t2 - t1);
            }
            System.out.printf(
                    "bench=perSampleCnnGrad model=%s vmapGrad=%.2f ms loop=%.2f ms ratio=%.2fx%n",
                    model, vmap / 1e6, loop / 1e6, (double) loop / vmap);
        }
    }
}
