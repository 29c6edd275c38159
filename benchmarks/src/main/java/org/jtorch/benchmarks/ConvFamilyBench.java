package org.jtorch.benchmarks;

import java.util.concurrent.TimeUnit;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.nn.ConvOptions;
import org.jtorch.nn.ConvTranspose2d;
import org.jtorch.nn.functional.F;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The upsampling layers of a decoder (issue 21's benchmark), float32: {@code ConvTranspose2d(64, 32, 4, stride=2,
 * padding=1)} on [16, 64, 32, 32] → [16, 32, 64, 64], and bilinear {@code F.interpolate(scale_factor=2)} of [8, 32, 64,
 * 64] → [8, 32, 128, 128]; forward alone (no grad) and forward + backward of {@code (out · g).sum()} with the gradients
 * reset after each call. PyTorch peer: benchmarks/peers/torch_conv_family.py.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class ConvFamilyBench {
    ConvTranspose2d deconv;
    Tensor deconvIn, deconvGrad, image, imageGrad;

    @Setup
    public void setup() {
        Torch.manualSeed(0);
        deconv = new ConvTranspose2d(
                64, 32, new long[] {4}, ConvOptions.defaults().stride(2).padding(1));
        deconvIn = Torch.randn(16, 64, 32, 32).requiresGrad(true);
        deconvGrad = Torch.randn(16, 32, 64, 64);
        image = Torch.randn(8, 32, 64, 64).requiresGrad(true);
        imageGrad = Torch.randn(8, 32, 128, 128);
    }

    @Benchmark
    public Tensor convTransposeForward() {
        try (var _ = Torch.noGrad()) {
            return deconv.forward(deconvIn);
        }
    }

    @Benchmark
    public Tensor convTransposeForwardBackward() {
        Tensor y = deconv.forward(deconvIn);
        y.mul(deconvGrad).sum().backward();
        deconvIn.setGrad(null);
        deconv.zeroGrad();
        return y;
    }

    @Benchmark
    public Tensor bilinearForward() {
        try (var _ = Torch.noGrad()) {
            return bilinear();
        }
    }

    @Benchmark
    public Tensor bilinearForwardBackward() {
        Tensor y = bilinear();
        y.mul(imageGrad).sum().backward();
        image.setGrad(null);
        return y;
    }

    private Tensor bilinear() {
        return F.interpolate(image, new double[] {2}, "bilinear", false, null);
    }
}
