package org.jtorch.ops;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jtorch.DType;
import org.jtorch.Generator;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.autograd.Autograd;
import org.jtorch.debug.DebugMode;
import org.jtorch.nn.functional.F;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The fused float32 attention kernel against attention written out in float64 ({@code softmax(q kᵀ·scale + mask) v}
 * with plain ops, an independent computation in twice the precision): outputs, log-sum-exp and the three gradients,
 * over shapes that leave tails in every tile dimension, cross several query and key tiles, and mask whole rows.
 */
class FlashAttentionTest {

    /** Shapes [lead..., L, S, E, Ev], causal, mask kind. */
    static List<Arguments> problems() {
        return List.of(
                Arguments.of(new long[] {2, 3}, 37, 45, 20, 20, false, "none"),
                Arguments.of(new long[] {2, 3}, 37, 45, 20, 20, true, "none"),
                Arguments.of(new long[] {16, 4}, 128, 128, 32, 32, true, "none"),
                Arguments.of(new long[] {2}, 130, 200, 32, 24, false, "float"),
                Arguments.of(new long[] {2}, 130, 200, 16, 40, true, "float"),
                Arguments.of(new long[] {2, 2}, 70, 33, 8, 8, false, "bool"),
                Arguments.of(new long[] {}, 5, 7, 3, 2, false, "bool"),
                Arguments.of(new long[] {3}, 1, 300, 64, 64, false, "float"),
                Arguments.of(new long[] {2}, 130, 200, 16, 16, false, "hidden keys"),
                Arguments.of(new long[] {2}, 130, 200, 16, 16, true, "hidden keys"));
    }

    @ParameterizedTest
    @MethodSource("problems")
    void matchesAttentionWrittenOutInFloat64(
            long[] lead, int l, int s, int e, int ev, boolean causal, String maskKind) {
        Generator g = new Generator().manualSeed(l * 1000L + s);
        Tensor q = Torch.randn(shape(lead, l, e), g).requiresGrad(true);
        Tensor k = Torch.randn(shape(lead, s, e), g).requiresGrad(true);
        Tensor v = Torch.randn(shape(lead, s, ev), g).requiresGrad(true);
        Tensor mask = mask(maskKind, lead, l, s, g);
        Tensor dOut = Torch.randn(shape(lead, l, ev), g);

        Tensor[] fused = AttentionOps.flashAttention(q, k, v, causal, mask, null);
        List<Tensor> grads =
                Autograd.grad(List.of(fused[0].mul(dOut).sum()), List.of(q, k, v), Autograd.GradOptions.defaults());

        Tensor q64 = q.detach().to(DType.FLOAT64).requiresGrad(true);
        Tensor k64 = k.detach().to(DType.FLOAT64).requiresGrad(true);
        Tensor v64 = v.detach().to(DType.FLOAT64).requiresGrad(true);
        Tensor scores = q64.matmul(k64.mT()).mul(1 / Math.sqrt(e)).add(additive(mask, causal, l, s));
        Tensor probs = safeSoftmax(scores);
        Tensor expected = probs.matmul(v64);
        List<Tensor> expectedGrads = Autograd.grad(
                List.of(expected.mul(dOut.to(DType.FLOAT64)).sum()),
                List.of(q64, k64, v64),
                Autograd.GradOptions.defaults());

        assertClose(expected, fused[0], 2e-5, "output");
        Tensor lse = scores.logsumexp(new long[] {-1}, false);
        Tensor masked = Torch.isneginf(lse);
        assertClose(lse.maskedFill(masked, 0.0), fused[1].maskedFill(masked, 0.0), 2e-5, "lse");
        assertEquals(0.0, masked.ne(Torch.isneginf(fused[1])).sum().item(), "the fully masked rows' lse is -inf");
        for (int i = 0; i < 3; i++) assertClose(expectedGrads.get(i), grads.get(i), 1e-4, "gradient " + i);
        // the backward as one op (what a compiled graph's backward runs), from the forward's output and lse
        Tensor[] op = AttentionOps.flashAttentionBackward(
                dOut, q.detach(), k.detach(), v.detach(), fused[0].detach(), fused[1].detach(), causal, mask, null);
        for (int i = 0; i < 3; i++) {
            assertClose(expectedGrads.get(i), op[i], 1e-4, "backward op, gradient " + i);
        }
    }

    @Test
    void scaledDotProductAttentionTakesTheFusedKernelForFloat32() {
        Tensor q = Torch.randn(2, 4, 16, 8), k = Torch.randn(2, 4, 16, 8), v = Torch.randn(2, 4, 16, 8);
        try (DebugMode debug = DebugMode.open(false)) {
            F.scaledDotProductAttention(q, k, v, null, 0.0, true, null, false);
            assertTrue(debug.log().contains("_scaled_dot_product_flash_attention_for_cpu"), debug.log());
            assertFalse(debug.log().contains("softmax"), debug.log());
        }
    }

    @Test
    void aFullyMaskedRowAttendsToNothingAndGetsNoGradient() {
        Tensor q = Torch.randn(1, 3, 4).requiresGrad(true),
                k = Torch.randn(1, 5, 4).requiresGrad(true);
        Tensor v = Torch.randn(1, 5, 2).requiresGrad(true);
        Tensor keep = Torch.ones(new long[] {3, 5}, DType.BOOL, q.device());
        keep.select(0, 1).fill_(0L);
        Tensor out = F.scaledDotProductAttention(q, k, v, keep, 0.0, false, null, false);
        assertEquals(0.0, out.select(1, 1).abs().sum().item());
        out.sum().backward();
        assertEquals(0.0, q.grad().select(1, 1).abs().sum().item());
        assertEquals(0.0, k.grad().isnan().any().item());
    }

    @Test
    void secondOrderGradientsFollowTheDifferentiableRule() {
        Generator g = new Generator().manualSeed(7);
        Tensor q = Torch.randn(new long[] {2, 6, 4}, g).requiresGrad(true);
        Tensor k = Torch.randn(new long[] {2, 6, 4}, g), v = Torch.randn(new long[] {2, 6, 4}, g);
        Tensor out = AttentionOps.flashAttention(q, k, v, true, null, 0.7)[0];
        Tensor dq = Autograd.grad(out.square().sum(), q, true);
        Tensor ggq = Autograd.grad(dq.sum(), q, false);

        Tensor q64 = q.detach().to(DType.FLOAT64).requiresGrad(true);
        Tensor scores = q64.matmul(k.to(DType.FLOAT64).mT()).mul(0.7).add(additive(null, true, 6, 6));
        Tensor expected = scores.softmax(-1).matmul(v.to(DType.FLOAT64));
        Tensor dq64 = Autograd.grad(expected.square().sum(), q64, true);
        assertClose(Autograd.grad(dq64.sum(), q64, false), ggq, 1e-3, "second-order gradient");
    }

    @Test
    void refusesWhatItDoesNotCompute() {
        Tensor d = Torch.randn(new long[] {2, 3, 4}, DType.FLOAT64);
        TorchException dtype =
                assertThrows(TorchException.class, () -> AttentionOps.flashAttention(d, d, d, false, null, null));
        assertTrue(dtype.getMessage().startsWith("_scaled_dot_product_flash_attention_for_cpu: query, key and value"));
        Tensor q = Torch.randn(2, 3, 4), k = Torch.randn(2, 5, 4);
        TorchException mask = assertThrows(
                TorchException.class, () -> AttentionOps.flashAttention(q, k, k, false, Torch.zeros(3, 4), null));
        assertTrue(mask.getMessage().contains("attn_mask of shape [3, 4] does not broadcast"), mask.getMessage());
        TorchException shapes = assertThrows(
                TorchException.class, () -> AttentionOps.flashAttention(q, Torch.randn(3, 5, 4), k, false, null, null));
        assertTrue(shapes.getMessage().contains("share their leading dims"), shapes.getMessage());
    }

    private static long[] shape(long[] lead, long rows, long cols) {
        long[] s = java.util.Arrays.copyOf(lead, lead.length + 2);
        s[lead.length] = rows;
        s[lead.length + 1] = cols;
        return s;
    }

    private static Tensor mask(String kind, long[] lead, int l, int s, Generator g) {
        return switch (kind) {
            case "float" -> Torch.randn(new long[] {l, s}, g); // broadcast over every leading dim
            case "bool" -> {
                long[] shape = shape(lead, l, s);
                if (lead.length > 0) shape[lead.length - 1] = 1; // broadcast over the last leading dim
                Tensor keep = Torch.rand(shape, g).gt(0.3);
                keep.select(-2, 1).fill_(0L); // query 1 attends to no key
                yield keep;
            }
            case "hidden keys" -> { // keys 64..159 hidden from every query: whole tiles the kernel skips
                Tensor m = Torch.randn(new long[] {l, s}, g);
                m.narrow(1, 64, 96).fill_(Double.NEGATIVE_INFINITY);
                yield m;
            }
            default -> null;
        };
    }

    @Test
    void anAdditiveCausalMaskGivesTheBitsOfIsCausal() {
        Generator g = new Generator().manualSeed(11);
        long[] lead = {2, 3};
        int t = 150; // three tiles of queries and keys, the last one partial
        Tensor q = Torch.randn(shape(lead, t, 32), g).requiresGrad(true);
        Tensor k = Torch.randn(shape(lead, t, 32), g).requiresGrad(true);
        Tensor v = Torch.randn(shape(lead, t, 32), g).requiresGrad(true);
        Tensor dOut = Torch.randn(shape(lead, t, 32), g);
        Tensor above = Torch.ones(new long[] {t, t}, DType.BOOL, q.device()).triu(1L);
        Tensor causalMask = Torch.zeros(t, t).maskedFill(above, Double.NEGATIVE_INFINITY);

        Tensor[] viaFlag = AttentionOps.flashAttention(q, k, v, true, null, null);
        Tensor[] viaMask = AttentionOps.flashAttention(q, k, v, false, causalMask, null);
        assertArrayEquals(viaFlag[0].toFloatArray(), viaMask[0].toFloatArray(), "output");
        assertArrayEquals(viaFlag[1].toFloatArray(), viaMask[1].toFloatArray(), "log-sum-exp");
        List<Tensor> flagGrads =
                Autograd.grad(List.of(viaFlag[0].mul(dOut).sum()), List.of(q, k, v), Autograd.GradOptions.defaults());
        List<Tensor> maskGrads =
                Autograd.grad(List.of(viaMask[0].mul(dOut).sum()), List.of(q, k, v), Autograd.GradOptions.defaults());
        for (int i = 0; i < 3; i++) {
            assertArrayEquals(flagGrads.get(i).toFloatArray(), maskGrads.get(i).toFloatArray(), "gradient " + i);
        }
    }

    /** The mask and causal structure as float64 additive terms. */
    private static Tensor additive(Tensor mask, boolean causal, int l, int s) {
        Tensor add = Torch.zeros(new long[] {l, s}, DType.FLOAT64);
        if (causal) {
            add = add.maskedFill(
                    Torch.ones(new long[] {l, s}, DType.BOOL, add.device()).triu(1L), Double.NEGATIVE_INFINITY);
        }
        if (mask == null) return add;
        if (mask.dtype() == DType.BOOL) return add.maskedFill(mask.logicalNot(), Double.NEGATIVE_INFINITY);
        return add.add(mask.to(DType.FLOAT64));
    }

    private static Tensor safeSoftmax(Tensor scores) {
        Tensor masked = scores.eq(Double.NEGATIVE_INFINITY).all(new long[] {-1}, true);
        return scores.maskedFill(masked, 0.0).softmax(-1).maskedFill(masked, 0.0);
    }

    private static void assertClose(Tensor expected, Tensor actual, double tol, String what) {
        assertEquals(java.util.Arrays.toString(expected.shape()), java.util.Arrays.toString(actual.shape()), what);
        double err = expected.sub(actual.to(DType.FLOAT64)).abs().max().item();
        double scale = Math.max(1, expected.abs().max().item());
        assertTrue(err <= tol * scale, what + ": max error " + err + " > " + tol * scale);
    }
}
