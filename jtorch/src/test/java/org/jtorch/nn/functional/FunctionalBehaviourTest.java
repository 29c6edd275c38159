package org.jtorch.nn.functional;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Generator;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.Warnings;
import org.jtorch.autograd.Autograd;
import org.jtorch.nn.Reduction;
import org.jtorch.ops.ComplexOps;
import org.junit.jupiter.api.Test;

/** The spec's worked examples (nn-optim.md §1, §6.1, §6.3), dropout, meta tensors, empty inputs and errors. */
class FunctionalBehaviourTest {
    private static final double TOL = 1e-6;

    private static final Tensor LOGITS = Torch.tensor(new double[][] {{1, 2, 3}, {0.5, -1, -0.5}, {0, 1, 1}});
    private static final Tensor Y = Torch.tensor(new long[] {2, 0, 1});
    private static final Tensor W = Torch.tensor(new double[] {1, 2, 0.5});
    private static final Tensor PROBS = Torch.tensor(new double[][] {{0, 0, 1}, {0.5, 0.5, 0}, {0.2, 0.3, 0.5}});

    private static CrossEntropyOptions opts(Reduction r) {
        return CrossEntropyOptions.defaults().reduction(r);
    }

    private static void close(double[] want, Tensor got) {
        assertArrayEquals(want, got.toDoubleArray(), TOL);
    }

    private static void close(double want, Tensor got) {
        assertEquals(want, got.item(), TOL);
    }

    @Test
    void crossEntropySpecExamples() {
        close(new double[] {0.407606, 0.464369, 0.861995}, F.crossEntropy(LOGITS, Y, Reduction.NONE));
        close(0.5779899, F.crossEntropy(LOGITS, Y));
        close(1.7339696, F.crossEntropy(LOGITS, Y, Reduction.SUM));
        close(
                new double[] {0.407606, 0, 0.861995},
                F.crossEntropy(LOGITS, Y, opts(Reduction.NONE).ignoreIndex(0)));
        close(0.6348004, F.crossEntropy(LOGITS, Y, opts(Reduction.MEAN).ignoreIndex(0)));
        close(1.2696008, F.crossEntropy(LOGITS, Y, opts(Reduction.SUM).ignoreIndex(0)));
        close(
                new double[] {0.203803, 0.464369, 1.723990},
                F.crossEntropy(LOGITS, Y, opts(Reduction.NONE).weight(W)));
        close(2.3921614, F.crossEntropy(LOGITS, Y, opts(Reduction.SUM).weight(W)));
        close(0.6834747, F.crossEntropy(LOGITS, Y, opts(Reduction.MEAN).weight(W)));
        close(
                new double[] {0.507606, 0.547702, 0.895328},
                F.crossEntropy(LOGITS, Y, opts(Reduction.NONE).labelSmoothing(0.1)));
        close(0.6502121, F.crossEntropy(LOGITS, Y, opts(Reduction.MEAN).labelSmoothing(0.1)));
        close(
                0.7538786,
                F.crossEntropy(
                        LOGITS, Y, opts(Reduction.MEAN).labelSmoothing(0.1).weight(W)));
        close(new double[] {0.407606, 1.214369, 1.061995}, F.crossEntropy(LOGITS, PROBS, Reduction.NONE));
        close(0.8946565, F.crossEntropy(LOGITS, PROBS));
        close(2.6839696, F.crossEntropy(LOGITS, PROBS, Reduction.SUM));
        close(
                new double[] {0.203803, 2.196553, 1.105095},
                F.crossEntropy(LOGITS, PROBS, opts(Reduction.NONE).weight(W)));
        close(1.1684836, F.crossEntropy(LOGITS, PROBS, opts(Reduction.MEAN).weight(W)));
        close(0.9352121, F.crossEntropy(LOGITS, PROBS, opts(Reduction.MEAN).labelSmoothing(0.1)));
    }

    @Test
    void crossEntropySpecGradient() {
        Tensor x = LOGITS.clone().requiresGrad(true);
        F.crossEntropy(x, Y).backward();
        close(
                new double[] {
                    0.030010, 0.081576, -0.111586, -0.123823, 0.046748, 0.077075, 0.051787, -0.192560, 0.140773
                },
                x.grad());
    }

    @Test
    void crossEntropyAllIgnoredMeanIsNaNAndEmptyBatch() {
        assertTrue(Double.isNaN(F.crossEntropy(
                        LOGITS,
                        Torch.tensor(new long[] {7, 7, 7}),
                        opts(Reduction.MEAN).ignoreIndex(7))
                .item()));
        Tensor empty = Torch.zeros(new long[] {0, 3}, DType.FLOAT64);
        assertTrue(Double.isNaN(
                F.crossEntropy(empty, Torch.zeros(new long[] {0}, DType.INT64)).item()));
        assertEquals(
                0.0,
                F.crossEntropy(empty, Torch.zeros(new long[] {0}, DType.INT64), Reduction.SUM)
                        .item());
    }

    @Test
    void crossEntropyErrors() {
        var e = assertThrows(
                IndexOutOfBoundsException.class, () -> F.crossEntropy(LOGITS, Torch.tensor(new long[] {0, 3, 1})));
        assertTrue(e.getMessage().contains("Target 3 is out of bounds."));
        var s = assertThrows(
                IllegalArgumentException.class,
                () -> F.crossEntropy(LOGITS, Y, opts(Reduction.MEAN).labelSmoothing(-0.1)));
        assertTrue(s.getMessage().contains("label_smoothing must be between 0.0 and 1.0"));
        var r = assertThrows(IllegalArgumentException.class, () -> Reduction.of("avg"));
        assertTrue(r.getMessage().contains("avg is not a valid value for reduction"));
        var d = assertThrows(TorchException.class, () -> F.crossEntropy(LOGITS, LOGITS.to(DType.INT64)));
        assertTrue(d.getMessage().contains("Expected floating point type for target with class probabilities"));
    }

    @Test
    void classIndexTargetsAreInt64OrUint8AsATenReadsThem() {
        // ATen's CPU nll_loss (2.15's LossNLL.cpp, as 1.13) reads int64 targets, or uint8 ones for 1-D/2-D input;
        // anything else fails its int64 data access: "expected scalar type Long but found Int" (PyTorch 1.13 prints the
        // same)
        for (DType d : new DType[] {DType.INT32, DType.INT16, DType.INT8, DType.BOOL}) {
            var e = assertThrows(TorchException.class, () -> F.crossEntropy(LOGITS, Y.to(d)), d.toString());
            assertTrue(e.getMessage().contains("expected scalar type Long but found " + d.cppName()), e.getMessage());
            var n = assertThrows(TorchException.class, () -> F.nllLoss(LOGITS.logSoftmax(1), Y.to(d)), d.toString());
            assertTrue(n.getMessage().contains("expected scalar type Long but found " + d.cppName()), n.getMessage());
        }
        assertTrue(assertThrows(TorchException.class, () -> F.crossEntropy(LOGITS, Y.to(DType.INT32), Reduction.NONE))
                .getMessage()
                .contains("found Int"));
        // uint8 picks the same classes (spec §1 example values), with label smoothing and a class weight too
        close(new double[] {0.407606, 0.464369, 0.861995}, F.crossEntropy(LOGITS, Y.to(DType.UINT8), Reduction.NONE));
        close(
                0.6502121,
                F.crossEntropy(LOGITS, Y.to(DType.UINT8), opts(Reduction.MEAN).labelSmoothing(0.1)));
        close(
                0.6834747,
                F.crossEntropy(LOGITS, Y.to(DType.UINT8), opts(Reduction.MEAN).weight(W)));
        // ... but not for K-dimensional input (nll_loss2d reads int64 only): PyTorch 1.13 "expected scalar type Long
        // but found Byte"
        Tensor x3 = LOGITS.unsqueeze(2), y3 = Y.unsqueeze(1);
        close(
                new double[] {0.407606, 0.464369, 0.861995},
                F.crossEntropy(x3, y3, Reduction.NONE).reshape(3));
        var k = assertThrows(TorchException.class, () -> F.crossEntropy(x3, y3.to(DType.UINT8)));
        assertTrue(k.getMessage().contains("expected scalar type Long but found Byte"), k.getMessage());
        var p = assertThrows(TorchException.class, () -> F.crossEntropy(LOGITS, LOGITS.to(DType.INT64)));
        assertTrue(
                p.getMessage().contains("Expected floating point type for target with class probabilities, got Long"),
                p.getMessage());
    }

    @Test
    void metaTensorsGiveShapesWithoutData() {
        Tensor x = Torch.zeros(new long[] {4, 5, 2}, DType.FLOAT32, Device.META);
        Tensor y = Torch.zeros(new long[] {4, 2}, DType.INT64, Device.META);
        Tensor none = F.crossEntropy(x, y, Reduction.NONE);
        assertArrayEquals(new long[] {4, 2}, none.shape());
        assertEquals(Device.META, none.device());
        assertArrayEquals(new long[] {}, F.crossEntropy(x, y).shape());
        Tensor w = Torch.zeros(new long[] {3, 2}, DType.FLOAT32, Device.META);
        assertArrayEquals(new long[] {4, 5, 3}, F.linear(x, w).shape());
        assertArrayEquals(new long[] {4, 5, 2}, F.layerNorm(x, new long[] {2}).shape());
        Tensor q = Torch.zeros(new long[] {2, 3, 4}, DType.FLOAT32, Device.META);
        assertArrayEquals(
                new long[] {2, 3, 4}, F.scaledDotProductAttention(q, q, q).shape());
        assertEquals(DType.FLOAT32, F.binaryCrossEntropy(q, q).dtype());
    }

    @Test
    void attentionSpecExamples() {
        Tensor q = Torch.tensor(new double[][] {{1, 0}, {0, 1}});
        Tensor k = Torch.tensor(new double[][] {{1, 0}, {0, 1}, {1, 1}});
        Tensor v = Torch.tensor(new double[][] {{1, 2}, {3, 4}, {5, 6}});
        close(new double[] {3, 4, 3.4066726, 4.4066726}, F.scaledDotProductAttention(q, k, v));
        close(
                new double[] {1, 2, 2.3395231, 3.3395231, 3.5104695, 4.5104695},
                F.scaledDotProductAttention(k, k, v, null, 0.0, true, null, false));
        Tensor mask = Torch.tensor(new boolean[] {true, true, true}).reshape(1, 3);
        var e = assertThrows(
                TorchException.class, () -> F.scaledDotProductAttention(k, k, v, mask, 0.0, true, null, false));
        assertTrue(e.getMessage().contains("Explicit attnMask should not be set when isCausal = true"));
    }

    @Test
    void dropoutIdentityZerosAndScaling() {
        Tensor x = Torch.ones(new long[] {1000}, DType.FLOAT64);
        assertSame(x, F.dropout(x, 0.5, false));
        assertSame(x, F.dropout(x, 0.0, true));
        assertEquals(0.0, F.dropout(x, 1.0, true).abs().sum().item());
        Torch.manualSeed(3);
        double[] out = F.dropout(x, 0.25, true).toDoubleArray();
        int kept = 0;
        for (double o : out) {
            assertTrue(o == 0 || Math.abs(o - 1 / 0.75) < 1e-12, "either dropped or scaled by 1/(1-p): " + o);
            if (o != 0) kept++;
        }
        assertTrue(kept > 680 && kept < 820, "about 75% kept: " + kept);
        var e = assertThrows(IllegalArgumentException.class, () -> F.dropout(x, 1.5, true));
        assertTrue(e.getMessage().contains("dropout probability has to be between 0 and 1, but got 1.5"));
    }

    @Test
    void dropoutComplexSharesTheMaskBetweenRealAndImaginaryParts() {
        Tensor re = Torch.tensor(new double[] {1, 2, 3, 4, 5, 6, 7, 8}),
                im = Torch.tensor(new double[] {-1, 3, 2, 5, 1, 1, 4, 2});
        Tensor z = ComplexOps.complex(re, im).repeatInterleave(500L);
        Torch.manualSeed(11);
        Tensor out = F.dropout(z, 0.4, true);
        assertEquals(DType.COMPLEX128, out.dtype());
        double[] r = ComplexOps.real(out).toDoubleArray(),
                i = ComplexOps.imag(out).toDoubleArray();
        double[] r0 = ComplexOps.real(z).toDoubleArray(),
                i0 = ComplexOps.imag(z).toDoubleArray();
        double ratio = 0;
        for (int j = 0; j < r.length; j++) {
            assertEquals(r[j] == 0, i[j] == 0, "real and imaginary parts dropped together at " + j);
            if (r[j] != 0) assertEquals(i0[j] / 0.6, i[j], 1e-12);
            ratio += (r[j] * r[j] + i[j] * i[j]) / (r0[j] * r0[j] + i0[j] * i0[j]);
        }
        assertEquals(1 / 0.6, ratio / r.length, 0.1);
    }

    @Test
    void dropoutIsDifferentiableThroughTheMask() {
        Tensor x = Torch.ones(new long[] {50}, DType.FLOAT64).requiresGrad(true);
        Generator g = Generator.defaultGenerator();
        g.manualSeed(5);
        Tensor out = F.dropout(x, 0.5, true);
        Tensor grad = Autograd.grad(out.sum(), x, false);
        assertArrayEquals(out.toDoubleArray(), grad.toDoubleArray(), 0.0);
    }

    @Test
    void embeddingLayerNormAndRmsNormErrors() {
        Tensor w = Torch.zeros(new long[] {3, 2}, DType.FLOAT32);
        var p = assertThrows(IllegalArgumentException.class, () -> F.embedding(Torch.tensor(new long[] {0}), w, 3L));
        assertTrue(p.getMessage().contains("Padding_idx must be within num_embeddings"));
        var s = assertThrows(TorchException.class, () -> F.rmsNorm(w, new long[] {3}));
        assertTrue(s.getMessage()
                .contains("Given normalized_shape=[3], expected input with shape [*, 3], but got input of size[3, 2]"));
        Tensor x = Torch.tensor(new double[] {3, 4});
        close(new double[] {3 / Math.sqrt(12.5), 4 / Math.sqrt(12.5)}, F.rmsNorm(x, new long[] {2}));
    }

    @Test
    void broadcastingRegressionLossesAndKlDivMeanWarnAsPyTorchDoes() {
        Tensor a = Torch.tensor(new double[] {1, 2, 3}), b = Torch.tensor(new double[][] {{1}, {2}, {4}});
        try (var w = Warnings.catchWarnings()) {
            assertArrayEquals(new long[] {3, 3}, F.mseLoss(a, b, Reduction.NONE).shape());
            F.klDiv(a.log(), a.div(6L));
            assertEquals(2, w.records().size());
            assertTrue(w.records()
                    .get(0)
                    .message()
                    .contains("Using a target size (torch.Size([3, "
                            + "1])) that is different to the input size (torch.Size([3]))"));
            assertTrue(w.records()
                    .get(1)
                    .message()
                    .contains("reduction: 'mean' divides the total loss by both the batch size"));
        }
    }

    @Test
    void emptyInputsReduceLikePyTorch() {
        Tensor e = Torch.zeros(new long[] {0, 4}, DType.FLOAT32);
        assertTrue(Double.isNaN(F.mseLoss(e, e).item()));
        assertEquals(0.0, F.l1Loss(e, e, Reduction.SUM).item());
        assertArrayEquals(
                new long[] {0, 4}, F.huberLoss(e, e, Reduction.NONE, 1.0).shape());
        assertArrayEquals(new long[] {0, 4}, F.layerNorm(e, new long[] {4}).shape());
        assertArrayEquals(new long[] {0, 4}, F.dropout(e, 0.5, true).shape());
    }

    @Test
    void nonContiguousInputsMatchContiguousOnes() {
        Tensor xt = Torch.tensor(new double[][] {{0.3, -1.2, 0.8}, {2.1, -0.4, 1.7}})
                .t();
        Tensor xc = xt.contiguous();
        Tensor y = Torch.tensor(new long[] {1, 0, 1});
        assertArrayEquals(
                F.crossEntropy(xc, y, Reduction.NONE).toDoubleArray(),
                F.crossEntropy(xt, y, Reduction.NONE).toDoubleArray(),
                1e-15);
        assertArrayEquals(
                F.layerNorm(xc, new long[] {2}).toDoubleArray(),
                F.layerNorm(xt, new long[] {2}).toDoubleArray(),
                1e-15);
        Tensor big = Torch.tensor(new double[] {-800, 800});
        // stable for large logits: no overflow to inf or NaN
        close(
                new double[] {800, 800},
                F.binaryCrossEntropyWithLogits(big, Torch.tensor(new double[] {1, 0}), null, null, Reduction.NONE));
    }
}
