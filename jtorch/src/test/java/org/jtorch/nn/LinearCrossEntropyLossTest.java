package org.jtorch.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.WarningRecorder;
import org.jtorch.Warnings;
import org.jtorch.nn.functional.CrossEntropyOptions;
import org.jtorch.nn.functional.F;
import org.jtorch.nn.functional.LinearCrossEntropyArgs;
import org.junit.jupiter.api.Test;

/**
 * {@code nn.LinearCrossEntropyLoss}: state layout, and loss/gradients equal to {@code cross_entropy} of its own linear
 * layer.
 */
class LinearCrossEntropyLossTest {

    @Test
    void stateAndPlainLoss() {
        Torch.manualSeed(0);
        var m = new LinearCrossEntropyLoss(4, 6);
        assertEquals(List.of("linear.weight"), List.copyOf(m.stateDict().keySet()));
        assertArrayEquals(new long[] {6, 4}, m.linear().weight().shape());
        Tensor x = Torch.randn(5, 4), y = Torch.tensor(new long[] {0, 5, 2, 2, 1});
        Tensor loss = m.forward(x, y);
        loss.backward();
        Tensor w = m.linear().weight().detach().requiresGrad(true);
        Tensor ref = F.crossEntropy(x.matmul(w.t()), y);
        ref.backward();
        assertEquals(ref.item(), loss.item(), 1e-6);
        assertArrayEquals(w.grad().toDoubleArray(), m.linear().weight().grad().toDoubleArray(), 1e-6);
        assertTrue(m.toString().contains("in_features=4, num_classes=6"), m.toString());
    }

    @Test
    void outFeaturesBiasWeightAndChunkedOptions() {
        Torch.manualSeed(1);
        Tensor cw = Torch.tensor(new double[] {1, 2, 0.5});
        var args = LinearCrossEntropyArgs.defaults()
                .weight(cw)
                .reduction(Reduction.SUM)
                .ignoreIndex(1);
        var m = new LinearCrossEntropyLoss(4, 3, new long[] {2}, true, DType.FLOAT64, args);
        // as in PyTorch: own buffers before submodules
        assertEquals(
                List.of("weight", "linear.weight", "linear.bias"),
                List.copyOf(m.stateDict().keySet()));
        assertArrayEquals(new long[] {6, 4}, m.linear().weight().shape());
        Tensor x = Torch.randn(5, 4).to(DType.FLOAT64);
        Tensor y = Torch.tensor(new long[] {0, 2, 1, 1, 2, 0, 0, 1, 2, 2}).reshape(5, 2);
        Tensor loss = m.forward(x, y);
        // reference: logits (N, C·2) → (N, C, 2), class dim 1
        Tensor logits = F.linear(
                        x, m.linear().weight().detach(), m.linear().bias().detach())
                .reshape(5, 3, 2);
        Tensor ref = F.crossEntropy(
                logits,
                y,
                CrossEntropyOptions.defaults()
                        .weight(cw)
                        .reduction(Reduction.SUM)
                        .ignoreIndex(1));
        assertEquals(ref.item(), loss.item(), 1e-12);

        var chunked = new LinearCrossEntropyLoss(
                4, 3, new long[] {2}, true, DType.FLOAT64, args.options(LinearCrossEntropyOptions.defaults()));
        chunked.loadStateDict(m.stateDict());
        try (WarningRecorder rec = Warnings.catchWarnings()) {
            assertEquals(ref.item(), chunked.forward(x, y).item(), 1e-12);
            assertEquals(1, rec.records().size(), "out_features with options falls back with a warning");
        }
        var flat = new LinearCrossEntropyLoss(
                4, 3, new long[0], true, DType.FLOAT64, args.options(LinearCrossEntropyOptions.defaults()));
        Tensor y1 = Torch.tensor(new long[] {0, 2, 1, 1, 2});
        Tensor flatRef = F.crossEntropy(
                F.linear(
                        x, flat.linear().weight().detach(), flat.linear().bias().detach()),
                y1,
                CrossEntropyOptions.defaults()
                        .weight(cw)
                        .reduction(Reduction.SUM)
                        .ignoreIndex(1));
        try (WarningRecorder rec = Warnings.catchWarnings()) {
            assertEquals(flatRef.item(), flat.forward(x, y1).item(), 1e-12);
            assertEquals(List.of(), rec.records());
        }
    }

    @Test
    void badArguments() {
        assertThrows(
                IllegalArgumentException.class,
                () -> new LinearCrossEntropyLoss(
                        4,
                        3,
                        new long[0],
                        false,
                        DType.FLOAT32,
                        LinearCrossEntropyArgs.defaults().weight(Torch.ones(4))));
        assertThrows(
                IllegalArgumentException.class,
                () -> new LinearCrossEntropyLoss(
                        4,
                        3,
                        new long[0],
                        false,
                        DType.FLOAT32,
                        LinearCrossEntropyArgs.defaults().linearBias(Torch.ones(3))));
        var m = new LinearCrossEntropyLoss(4, 3);
        TorchException e =
                assertThrows(TorchException.class, () -> m.forward(Torch.zeros(2, 5), Torch.tensor(new long[] {0, 1})));
        assertTrue(e.getMessage().contains("in_features = 4") && e.getMessage().contains("[2, 5]"), e.getMessage());
    }
}
