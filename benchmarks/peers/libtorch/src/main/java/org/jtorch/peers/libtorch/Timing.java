package org.jtorch.peers.libtorch;

import java.util.Arrays;
import java.util.Locale;

/**
 * The timing of benchmarks/peers/peer_timing.py, in Java: warm-up calls, then the median of timed calls, printed as
 * one line {@code bench=NAME value=MEDIAN unit=UNIT min=.. max=.. torch=VERSION threads=N} that side_by_side.py
 * reads. {@code PEER_RUNS=N} in the environment caps the timed calls at N and the warm-up at 1 (run-all's quick mode).
 */
final class Timing {
    private Timing() {}

    static final String VERSION = "2.10.0";
    private static final int CAP = Integer.parseInt(System.getenv().getOrDefault("PEER_RUNS", "0"));

    /** Times {@code body}, printing its median in {@code unit}: seconds times {@code scale}, divided by {@code per}. */
    static void measure(String name, Runnable body, int warmup, int runs, String unit, double scale, int per) {
        if (CAP > 0) {
            warmup = Math.min(warmup, 1);
            runs = Math.min(runs, CAP);
        }
        for (int i = 0; i < warmup; i++) body.run();
        double[] t = new double[runs];
        for (int i = 0; i < runs; i++) {
            long t0 = System.nanoTime();
            body.run();
            t[i] = (System.nanoTime() - t0) * 1e-9 * scale / per;
        }
        Arrays.sort(t);
        double median = runs % 2 == 1 ? t[runs / 2] : 0.5 * (t[runs / 2 - 1] + t[runs / 2]);
        System.out.println(String.format(
                Locale.ROOT,
                "bench=%s value=%.4g unit=%s min=%.4g max=%.4g torch=%s threads=%d",
                name, median, unit, t[0], t[runs - 1], VERSION, org.bytedeco.pytorch.global.torch.get_num_threads()));
        System.out.flush();
    }

    /** Milliseconds per call. */
    static void measure(String name, Runnable body, int warmup, int runs) {
        measure(name, body, warmup, runs, "ms", 1e3, 1);
    }
}
