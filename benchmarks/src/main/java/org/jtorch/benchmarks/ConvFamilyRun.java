package org.jtorch.benchmarks;

import java.util.Arrays;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.nn.ConvOptions;
import org.jtorch.nn.ConvTranspose2d;
import org.jtorch.nn.functional.F;

/**
 * {@link ConvFamilyBench}'s four measurements as a whole program timed as the peer times them (5 warm-up calls, then
 * the median of 30 wall-clock calls), printing the peer's line format, so that the two can alternate in one sitting on
 * a loaded machine: {@code ConvTranspose2d(64, 32, 4, stride=2, padding=1)} on [16, 64, 32, 32] and bilinear
 * {@code F.interpolate(scale_factor=2)} of [8, 32, 64, 64], float32, forward alone and forward + backward, and the
 * interpolation's backward alone (its recorded graph run again, {@code upsample_bilinear2d_backward}). Each line also
 * gives the mean process CPU time per call ({@code cpu=}, every thread's).
 *
 * <pre>
 * ./mvnw -B -q -pl benchmarks -am -DskipTests package dependency:build-classpath \
 *     -Dmdep.outputFile=$PWD/benchmarks/target/run-all.classpath
 * java --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector \
 *     -cp benchmarks/target/classes:$(cat benchmarks/target/run-all.classpath) org.jtorch.benchmarks.ConvFamilyRun
 * </pre>
 *
 * The class path must carry the OpenBLAS jar ({@code org.bytedeco:openblas}, a dependency of jtorch): without it the
 * convolutions' GEMMs fall back to Java loops, about three times slower.
 */
public final class ConvFamilyRun {
    private ConvFamilyRun() {}

    public static void main(String[] args) {
        Torch.manualSeed(0);
        ConvTranspose2d deconv = new ConvTranspose2d(
                64, 32, new long[] {4}, ConvOptions.defaults().stride(2).padding(1));
        Tensor deconvIn = Torch.randn(16, 64, 32, 32).requiresGrad(true), deconvGrad = Torch.randn(16, 32, 64, 64);
        Tensor image = Torch.randn(8, 32, 64, 64).requiresGrad(true), imageGrad = Torch.randn(8, 32, 128, 128);
        measure("convTransposeForward", () -> {
            try (var _ = Torch.noGrad()) {
                deconv.forward(deconvIn);
            }
        });
        measure("convTransposeForwardBackward", () -> {
            deconv.forward(deconvIn).mul(deconvGrad).sum().backward();
            deconvIn.setGrad(null);
            deconv.zeroGrad();
        });
        measure("bilinearForward", () -> {
            try (var _ = Torch.noGrad()) {
                F.interpolate(image, new double[] {2}, "bilinear", false, null);
            }
        });
        measure("bilinearForwardBackward", () -> {
            F.interpolate(image, new double[] {2}, "bilinear", false, null)
                    .mul(imageGrad)
                    .sum()
                    .backward();
            image.setGrad(null);
        });
        Tensor upsampled = F.interpolate(image, new double[] {2}, "bilinear", false, null);
        measure("bilinearBackward", () -> {
            upsampled.backward(imageGrad, true, false);
            image.setGrad(null);
        });
    }

    private static void measure(String name, Runnable body) {
        for (int i = 0; i < 5; i++) body.run();
        double[] ms = new double[30];
        long c0 = cpuNanos();
        for (int i = 0; i < ms.length; i++) {
            long t0 = System.nanoTime();
            body.run();
            ms[i] = (System.nanoTime() - t0) / 1e6;
        }
        double cpu = (cpuNanos() - c0) / 1e6 / ms.length;
        Arrays.sort(ms);
        System.out.printf(
                "bench=%s value=%.4g unit=ms min=%.4g max=%.4g cpu=%.4g jtorch threads=%d%n",
                name, (ms[14] + ms[15]) / 2, ms[0], ms[ms.length - 1], cpu, Torch.getNumThreads());
    }

    /**
     * The process's CPU time (all threads; the system counts it in clock ticks, so it is averaged over the timed calls
     * and printed as {@code cpu=} in ms per call): it moves less with other processes' load than the wall-clock time,
     * so it compares two builds measured on a busy machine.
     */
    private static long cpuNanos() {
        return ProcessHandle.current().info().totalCpuDuration().orElseThrow().toNanos();
    }
}
