package org.jtorch.benchmarks;

import java.util.Arrays;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.fft.FFT;

/**
 * {@code torch.fft.rfft} of 2^20 samples and of the prime 999,983, float64 and float32, as a whole program: one untimed
 * round over all four, then for each 15 warm-up calls and the median, minimum and maximum of 25 timed calls, printed in
 * the peer's format ({@code bench=NAME value=MEDIAN unit=ms ...}) so that it reads side by side with
 * benchmarks/peers/numpy_fft.py. It gives the JIT the warm-up a loaded machine needs, which {@link FftBench}'s
 * second-long iterations do not. The intra-op thread count is the first argument, 1 by default (NumPy's pocketfft runs
 * on one thread).
 */
public final class FftRun {
    private FftRun() {}

    public static void main(String[] args) {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 1;
        Torch.setNumThreads(threads);
        for (int round = 0; round < 2; round++) { // the first round warms the JIT up for every case, untimed
            run(threads, round == 1);
        }
    }

    private static void run(int threads, boolean print) {
        for (long n : new long[] {1 << 20, 999_983}) {
            for (DType d : new DType[] {DType.FLOAT64, DType.FLOAT32}) {
                Torch.manualSeed(0);
                Tensor x = Torch.randn(new long[] {n}, d);
                for (int i = 0; i < 15; i++) FFT.rfft(x);
                double[] ms = new double[25];
                for (int i = 0; i < ms.length; i++) {
                    long t0 = System.nanoTime();
                    FFT.rfft(x);
                    ms[i] = (System.nanoTime() - t0) / 1e6;
                }
                Arrays.sort(ms);
                if (!print) continue;
                System.out.printf(
                        "bench=jtorch_rfft_%d_%s value=%.4g unit=ms min=%.4g max=%.4g threads=%d%n",
                        n, d.pyName(), ms[ms.length / 2], ms[0], ms[ms.length - 1], threads);
            }
        }
    }
}
