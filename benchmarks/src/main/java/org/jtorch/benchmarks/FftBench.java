package org.jtorch.benchmarks;

import java.util.concurrent.TimeUnit;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.fft.FFT;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * {@code torch.fft.rfft} of one signal of 2^20 samples (mixed radix: nine radix-4 passes and one radix-2 pass of a
 * 2^19-point complex transform) and of the prime 999,983 (Bluestein's algorithm over 2,000,000 = 2^7 5^6 points), in
 * float64 and float32, and {@code torch.fft.fft} of a 2^20-point complex128 signal. Peers: NumPy's pocketfft and
 * PyTorch 2.13's {@code torch.fft}, benchmarks/peers/numpy_fft.py.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class FftBench {
    @Param({"1048576", "999983"})
    public long n;

    @Param({"float64", "float32"})
    public String dtype;

    Tensor real;
    Tensor complex;

    @Setup
    public void setup() {
        Torch.manualSeed(0);
        DType d = dtype.equals("float64") ? DType.FLOAT64 : DType.FLOAT32;
        real = Torch.randn(new long[] {n}, d);
        complex = Torch.complex(Torch.randn(new long[] {n}, d), Torch.randn(new long[] {n}, d));
    }

    @Benchmark
    public Tensor rfft() {
        return FFT.rfft(real);
    }

    @Benchmark
    public Tensor fft() {
        return FFT.fft(complex);
    }
}
