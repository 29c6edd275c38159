package org.jtorch.kernels.cpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.function.BinaryOperator;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.junit.jupiter.api.Test;

/**
 * float32 binary ops whose operands are broadcast or strided (layer norm's {@code x - mean[..., 1]}, a bias add, a
 * transposed operand) take the per-run vector path; every element must equal IEEE float arithmetic on the two inputs,
 * as a naive loop in this test computes it.
 */
class BroadcastFloatBinaryTest {
    private static float[] naive(Tensor a, Tensor b, long[] shape, BinaryOperator<Float> op) {
        Tensor ea = a.expand(shape), eb = b.expand(shape);
        int n = 1;
        for (long s : shape) n *= (int) s;
        float[] out = new float[n];
        long[] idx = new long[shape.length];
        for (int i = 0; i < n; i++) {
            long rem = i;
            for (int d = shape.length - 1; d >= 0; d--) {
                idx[d] = rem % shape[d];
                rem /= shape[d];
            }
            Tensor x = ea, y = eb;
            for (int d = 0; d < shape.length; d++) {
                x = x.select(0, idx[d]);
                y = y.select(0, idx[d]);
            }
            out[i] = op.apply((float) x.item(), (float) y.item());
        }
        return out;
    }

    private static void check(Tensor a, Tensor b) {
        long[] shape = Torch.add(a, b).shape();
        assertArrayEquals(naive(a, b, shape, Float::sum), Torch.add(a, b).toFloatArray());
        assertArrayEquals(naive(a, b, shape, (x, y) -> x - y), Torch.sub(a, b).toFloatArray());
        assertArrayEquals(naive(a, b, shape, (x, y) -> x * y), Torch.mul(a, b).toFloatArray());
        assertArrayEquals(naive(a, b, shape, (x, y) -> x / y), Torch.div(a, b).toFloatArray());
    }

    @Test
    void lastDimBroadcastOnTheRight() {
        Torch.manualSeed(1);
        check(Torch.randn(3, 5, 37), Torch.randn(3, 5, 1)); // x - mean(x, -1, keepdim)
    }

    @Test
    void biasBroadcastAndLeftBroadcast() {
        Torch.manualSeed(2);
        check(Torch.randn(4, 6, 19), Torch.randn(19)); // x + bias
        check(Torch.randn(4, 1, 1), Torch.randn(4, 6, 19)); // scalar per row on the left
    }

    @Test
    void transposedAndSlicedOperands() {
        Torch.manualSeed(3);
        Tensor t = Torch.randn(23, 17).t(); // inner stride 17
        check(t, Torch.randn(17, 23));
        Tensor sliced = Torch.randn(6, 40).narrow(1, 3, 20); // offset, contiguous rows
        check(sliced, Torch.randn(6, 1));
        Tensor stepped = Torch.randn(5, 33).transpose(0, 1).narrow(0, 2, 30);
        check(stepped, Torch.randn(1, 5));
    }

    @Test
    void largeBroadcastSplitsAcrossThreadsWithTheSameBits() {
        Torch.manualSeed(4);
        Tensor a = Torch.randn(64, 128, 130), b = Torch.randn(64, 128, 1);
        float[] out = Torch.sub(a, b).toFloatArray();
        float[] x = a.toFloatArray(), y = b.toFloatArray();
        for (int i = 0; i < out.length; i++) assertEquals(x[i] - y[i / 130], out[i], 0f, "element " + i);
    }

    @Test
    void inPlaceBroadcastUpdatesTheDestination() {
        Torch.manualSeed(5);
        Tensor a = Torch.randn(7, 9), b = Torch.randn(9);
        float[] expected = naive(a, b, new long[] {7, 9}, Float::sum);
        a.add_(b);
        assertArrayEquals(expected, a.toFloatArray());
    }
}
