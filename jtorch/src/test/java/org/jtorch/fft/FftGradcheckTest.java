package org.jtorch.fft;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.autograd.GradCheck;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * gradcheck, gradgradcheck and forward-mode gradcheck of every {@code torch.fft} transform in float64 against finite
 * differences. Complex inputs are built from two real leaves ({@code complex(re, im)}) and complex outputs compared as
 * their real views, since the checker differentiates real functions: together they cover the complex derivatives of
 * {@code _fft_c2c} and {@code _fft_c2r}, which the op table's real-input gradcheck sweep cannot reach.
 */
class FftGradcheckTest {
    private record Transform(String name, boolean complexInput, long[] shape, Function<Tensor, Tensor> fn) {}

    private static List<Transform> transforms() {
        return List.of(
                new Transform("fft/real", false, new long[] {2, 6}, x -> FFT.fft(x)),
                new Transform("fft/complex", true, new long[] {2, 7}, x -> FFT.fft(x, null, 1, FFT.Norm.ORTHO)),
                new Transform("ifft/complex", true, new long[] {5, 3}, x -> FFT.ifft(x, 4L, 0, null)),
                new Transform("rfft/even", false, new long[] {2, 8}, x -> FFT.rfft(x)),
                new Transform("rfft/odd-padded", false, new long[] {3, 5}, x -> FFT.rfft(x, 7)),
                new Transform("irfft/even", true, new long[] {2, 5}, x -> FFT.irfft(x)),
                new Transform("irfft/odd", true, new long[] {2, 4}, x -> FFT.irfft(x, 7)),
                new Transform("hfft", true, new long[] {2, 4}, x -> FFT.hfft(x, null, -1, FFT.Norm.FORWARD)),
                new Transform("ihfft", false, new long[] {2, 6}, x -> FFT.ihfft(x)),
                new Transform("fft2", true, new long[] {3, 4}, x -> FFT.fft2(x)),
                new Transform("ifftn/s", true, new long[] {2, 3, 4}, x -> FFT.ifftn(x, new long[] {4, 3}, null)),
                new Transform("rfft2", false, new long[] {3, 4}, x -> FFT.rfft2(x)),
                new Transform("rfftn/dims", false, new long[] {3, 2, 5}, x -> FFT.rfftn(x, null, new int[] {2, 0})),
                new Transform("irfft2", true, new long[] {3, 3}, x -> FFT.irfft2(x)),
                new Transform("irfftn/odd", true, new long[] {2, 3, 3}, x -> FFT.irfftn(x, new long[] {3, 5}, null)),
                new Transform("fft/bluestein", true, new long[] {53}, x -> FFT.fft(x, 97)),
                new Transform("fftshift", false, new long[] {3, 4}, x -> FFT.fftshift(x)));
    }

    @TestFactory
    Stream<DynamicTest> gradcheckInFloat64() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Transform t : transforms()) {
            tests.add(DynamicTest.dynamicTest(t.name(), () -> {
                Torch.manualSeed(7);
                List<Tensor> leaves = new ArrayList<>();
                leaves.add(Torch.randn(t.shape(), DType.FLOAT64).requiresGrad(true));
                if (t.complexInput())
                    leaves.add(Torch.randn(t.shape(), DType.FLOAT64).requiresGrad(true));
                Function<List<Tensor>, Tensor> f = xs -> {
                    Tensor x = t.complexInput() ? Torch.complex(xs.get(0), xs.get(1)) : xs.get(0);
                    Tensor y = t.fn().apply(x);
                    return y.isComplex() ? Torch.viewAsReal(y) : y;
                };
                GradCheck.Options o = GradCheck.Options.defaults();
                assertTrue(GradCheck.check(f, leaves, o.checkForwardAd(true)), t.name());
                assertTrue(GradCheck.checkSecondOrder(f, leaves, o), t.name() + " (second order)");
            }));
        }
        return tests.stream();
    }
}
