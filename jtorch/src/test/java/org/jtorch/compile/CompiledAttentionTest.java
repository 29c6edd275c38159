package org.jtorch.compile;

import static org.jtorch.testing.Bits.bits;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.autograd.Autograd;
import org.jtorch.fx.AotAutograd;
import org.jtorch.fx.Fx;
import org.jtorch.fx.GraphModule;
import org.jtorch.nn.Linear;
import org.jtorch.nn.Module;
import org.jtorch.nn.functional.F;
import org.jtorch.ops.AttentionOps;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Scaled-dot-product attention under {@code torch.compile} keeps the fused kernel: the captured graph records
 * {@code _scaled_dot_product_flash_attention_for_cpu} and the backward graph its {@code _backward} op, as PyTorch's CPU
 * graphs do, instead of the math decomposition (score matrix, masked softmax, four more products). The compiled output
 * and gradients equal eager's bit for bit (the same kernels run); other traces keep the decomposition.
 */
class CompiledAttentionTest {
    @BeforeEach
    void reset() {
        Compile.reset();
    }

    /**
     * Multi-head self-attention, as TrainGpt's blocks compute it: causal through {@code is_causal} without a mask, or
     * through an explicit mask held as a module buffer.
     */
    private static final class Attention extends Module {
        private final Linear qkv = register("qkv", new Linear(16, 48, false));
        private final Tensor mask;

        Attention(Tensor mask) {
            this.mask = mask == null ? null : registerBuffer("mask", mask);
        }

        @Override
        public Tensor forward(Tensor x) {
            var parts = qkv.call(x).split(16, 2);
            Tensor q = heads(parts.get(0)), k = heads(parts.get(1)), v = heads(parts.get(2));
            Tensor y = F.scaledDotProductAttention(q, k, v, mask, 0.0, mask == null, null, false);
            return y.transpose(1, 2).contiguous().view(x.size(0), x.size(1), 16);
        }

        private static Tensor heads(Tensor t) {
            return t.view(t.size(0), t.size(1), 4, 4).transpose(1, 2);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"aot_eager", "inductor"})
    void compiledAttentionRunsTheFusedKernelsAndMatchesEagerBitwise(String backend) {
        compiledMatchesEagerBitwise(backend, null);
    }

    /**
     * A mask buffer is a constant of the captured graph; the fused backward reads it too, so the joint trace must name
     * the same constant there (it once saw only the fake tensor standing for it and broke the graph).
     */
    @ParameterizedTest
    @CsvSource({"aot_eager, bool", "inductor, bool", "aot_eager, additive", "inductor, additive"})
    void anExplicitMaskBufferCompilesWhole(String backend, String kind) {
        Tensor allowed = Torch.ones(6, 6).tril().eq(1.0);
        allowed.select(0, 4).select(0, 1).fill_(0L); // not merely causal
        Tensor mask = kind.equals("bool")
                ? allowed
                : Torch.zeros(6, 6).maskedFill(allowed.logicalNot(), Double.NEGATIVE_INFINITY);
        compiledMatchesEagerBitwise(backend, mask);
    }

    private static void compiledMatchesEagerBitwise(String backend, Tensor mask) {
        Torch.manualSeed(3);
        Attention model = new Attention(mask);
        Module compiled =
                Torch.compile(model, CompileOptions.defaults().backend(backend).fullGraph(true));
        Tensor x = Torch.randn(2, 6, 16).requiresGrad(true);
        Tensor dOut = Torch.randn(2, 6, 16);
        List<Tensor> wrt = List.of(x, model.parameters().getFirst());

        Tensor eager = model.call(x);
        List<Tensor> eagerGrads = Autograd.grad(
                List.of(eager), wrt, Autograd.GradOptions.defaults().gradOutputs(List.of(dOut)));

        Compile.reset();
        Tensor out = compiled.call(x);
        assertEquals(0, Compile.counters().graphBreaks(), "the attention compiles whole");
        assertEquals(1, Compile.counters().graphs(), "one graph captured");
        List<Tensor> grads =
                Autograd.grad(List.of(out), wrt, Autograd.GradOptions.defaults().gradOutputs(List.of(dOut)));
        assertArrayEquals(bits(eager), bits(out), "output");
        for (int i = 0; i < wrt.size(); i++) {
            assertArrayEquals(bits(eagerGrads.get(i)), bits(grads.get(i)), "gradient " + i);
        }
    }

    @Test
    void theCompileCapturesJointGraphHoldsTheFusedForwardAndBackward() {
        Tensor q = Torch.randn(1, 2, 5, 4).requiresGrad(true),
                k = Torch.randn(1, 2, 5, 4).requiresGrad(true);
        Tensor v = Torch.randn(1, 2, 5, 4).requiresGrad(true);
        GraphModule joint = AttentionOps.capturingFused(() -> AotAutograd.traceJoint(
                a -> new Tensor[] {F.scaledDotProductAttention(a[0], a[1], a[2], null, 0.0, true, null, false)},
                q,
                k,
                v));
        String code = joint.printReadable();
        assertTrue(code.contains("_scaled_dot_product_flash_attention_for_cpu_backward"), code);
        assertTrue(code.replace("_for_cpu_backward", "").contains("_scaled_dot_product_flash_attention_for_cpu"), code);
        assertFalse(code.contains("softmax"), code);
    }

    @Test
    void aTraceOutsideCompileKeepsTheMathDecomposition() {
        Tensor q = Torch.randn(1, 2, 5, 4), k = Torch.randn(1, 2, 5, 4), v = Torch.randn(1, 2, 5, 4);
        GraphModule gm = Fx.makeFx(a -> new Tensor[] {F.scaledDotProductAttention(a[0], a[1], a[2])}, q, k, v);
        String code = gm.printReadable();
        assertFalse(code.contains("flash_attention"), code);
        assertTrue(code.contains("softmax"), code);
    }
}
