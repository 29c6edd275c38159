package org.jtorch.autograd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Function;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.Warning;
import org.jtorch.WarningRecorder;
import org.jtorch.Warnings;
import org.jtorch.nn.functional.F;
import org.junit.jupiter.api.Test;

/**
 * In-place writes PyTorch 2.13 refuses, and outputs it does not connect to the graph (each checked with it): outputs of
 * ops returning several views ("Output 1 of Unbind is a view and is being modified inplace..."), views made in no-grad
 * mode written with grad mode on ("A view was created in no_grad mode..."), layer norm's saved mean and rstd
 * (requires_grad False), and the warning a complex-to-real cast gives.
 */
class ViewWriteRulesTest {
    private static Tensor nonLeaf() {
        return Torch.randn(4, 3).requiresGrad(true).mul(2);
    }

    private static void refused(String words, Runnable write) {
        TorchException e = assertThrows(TorchException.class, write::run);
        assertTrue(e.getMessage().contains(words), e.getMessage());
    }

    @Test
    void outputsOfMultiViewOpsCannotBeWrittenWithGradOn() {
        refused("Output 1 of Unbind is a view", () -> nonLeaf().unbind(0).get(1).mul_(2));
        refused(
                "Output 1 of Split is a view",
                () -> nonLeaf().split(2, 0).get(1).mul_(2));
        refused(
                "Output 0 of Split is a view",
                () -> nonLeaf().chunk(2, 0).get(0).mul_(2));
        refused(
                "of a function that returns multiple views",
                () -> nonLeaf().unbind(0).get(1).select(0, 0).mul_(2));
    }

    @Test
    void multiViewOutputsStayWritableWhereNothingIsRecorded() {
        Tensor y = nonLeaf();
        List<Tensor> parts;
        try (var _ = Torch.noGrad()) {
            parts = y.unbind(0);
            parts.get(0).mul_(2); // PyTorch: fine inside no_grad
        }
        Tensor plain = Torch.zeros(4, 3);
        plain.unbind(0).get(0).add_(1); // nothing requires grad
        assertEquals(3.0, plain.sum().item(), 0);
    }

    @Test
    void noGradViewsOfTensorsThatRequireGradCannotBeWrittenWithGradOn() {
        Tensor y = nonLeaf();
        Tensor leaf = Torch.randn(4, 3).requiresGrad(true);
        Tensor ofY, ofLeaf;
        try (var _ = Torch.noGrad()) {
            ofY = y.select(0, 0);
            ofLeaf = leaf.view(12);
            ofY.mul_(2); // inside no_grad both may be written
        }
        refused("A view was created in no_grad mode", () -> ofY.mul_(2));
        refused("A view was created in no_grad mode", () -> ofLeaf.add_(1));
        Tensor plain = Torch.zeros(3);
        Tensor ofPlain;
        try (var _ = Torch.noGrad()) {
            ofPlain = plain.narrow(0, 0, 2);
        }
        ofPlain.add_(1); // the base does not require grad
        assertArrayEquals(new double[] {1, 1, 0}, plain.toDoubleArray(), 0);
    }

    @Test
    void layerNormStatisticsAreNotDifferentiableOutputs() {
        Tensor x = Torch.randn(2, 3).requiresGrad(true);
        Tensor[] r = Torch.nativeLayerNorm(x, new long[] {3}, null, null, 1e-5);
        assertTrue(r[0].requiresGrad());
        assertFalse(r[1].requiresGrad());
        assertFalse(r[2].requiresGrad());
        Function<Tensor, Tensor> ln = t -> F.layerNorm(t, new long[] {3});
        ln.apply(x).pow(2).sum().backward(); // the differentiable output still carries the gradient
        assertTrue(x.grad() != null);
    }

    @Test
    void castingComplexToRealWarns() {
        Tensor z = Torch.tensor(new double[] {1, 2}).to(DType.COMPLEX64);
        try (WarningRecorder w = Warnings.catchWarnings()) {
            Tensor r = z.to(DType.FLOAT32);
            assertArrayEquals(new double[] {1, 2}, r.toDoubleArray(), 0);
            List<Warning> records = w.records();
            assertEquals(1, records.size());
            assertEquals(
                    "Casting complex values to real discards the imaginary part",
                    records.get(0).message());
        }
    }
}
