package org.jtorch.nn.attention;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.autograd.Autograd;
import org.jtorch.autograd.GradCheck;
import org.jtorch.nn.functional.F;
import org.jtorch.ops.JoinOps;
import org.junit.jupiter.api.Test;

/** {@code varlen_attn}: the spec's example, equality with SDPA run on each sequence alone, gradients and errors. */
class VarlenTest {
    private static Tensor cu(long... offsets) {
        return Torch.tensor(offsets).to(DType.INT32);
    }

    @Test
    void specExample() {
        Tensor x = Torch.tensor(new double[][] {{1, 0}, {0, 1}, {1, 1}}).reshape(3, 1, 2);
        Tensor v = Torch.tensor(new double[][] {{1, 2}, {3, 4}, {5, 6}}).reshape(3, 1, 2);
        Tensor c = cu(0, 1, 3);
        VarlenResult r =
                Varlen.varlenAttn(x, x, v, c, c, 2, 2, VarlenOptions.defaults().returnLse(true));
        assertArrayEquals(
                new double[] {1, 2, 4, 5, 4.3395231, 5.3395231}, r.out().toDoubleArray(), 1e-6);
        assertArrayEquals(new long[] {3, 1, 2}, r.out().shape());
        assertArrayEquals(new long[] {1, 3}, r.lse().orElseThrow().shape());
        assertArrayEquals(
                new double[] {0.7071068, 1.4002540, 1.8150471},
                r.lse().orElseThrow().toDoubleArray(),
                1e-6);
        assertArrayEquals(
                new double[] {1, 2, 3, 4, 4.3395231, 5.3395231},
                Varlen.varlenAttn(x, x, v, c, c, 2, 2, true).toDoubleArray(),
                1e-6);
        assertTrue(Varlen.varlenAttn(x, x, v, c, c, 2, 2, VarlenOptions.defaults())
                .lse()
                .isEmpty());
    }

    private static Tensor randn(long seed, DType dt, long... shape) {
        Torch.manualSeed(seed);
        return Torch.randn(shape).to(dt);
    }

    /** Per-sequence SDPA on (H, L, D) slices, concatenated: the reference (with padding-free loops of its own). */
    private static Tensor perSequence(Tensor q, Tensor k, Tensor v, long[] cq, long[] ck, boolean causal) {
        List<Tensor> outs = new java.util.ArrayList<>();
        for (int i = 0; i + 1 < cq.length; i++) {
            long l = cq[i + 1] - cq[i], s = ck[i + 1] - ck[i];
            if (l == 0) continue;
            Tensor qi = q.narrow(0, cq[i], l).transpose(0, 1),
                    ki = k.narrow(0, ck[i], s).transpose(0, 1);
            Tensor vi = v.narrow(0, ck[i], s).transpose(0, 1);
            outs.add(F.scaledDotProductAttention(qi, ki, vi, null, 0.0, causal, null, false)
                    .transpose(0, 1));
        }
        return JoinOps.cat(outs, 0);
    }

    @Test
    void matchesSdpaPerSequenceWithGradients() {
        long[] offsets = {0, 3, 3, 8, 9, 15}; // includes an empty sequence and a single token
        for (DType dt : new DType[] {DType.FLOAT32, DType.FLOAT64}) {
            for (boolean causal : new boolean[] {false, true}) {
                Tensor q = randn(1, dt, 15, 2, 4).requiresGrad(true),
                        k = randn(2, dt, 15, 2, 4).requiresGrad(true);
                Tensor v = randn(3, dt, 15, 2, 3).requiresGrad(true);
                Tensor got = Varlen.varlenAttn(q, k, v, cu(offsets), cu(offsets), 6, 6, causal);
                Tensor ref = perSequence(q, k, v, offsets, offsets, causal);
                double tol = dt == DType.FLOAT32 ? 1e-5 : 1e-12;
                assertArrayEquals(ref.toDoubleArray(), got.toDoubleArray(), tol);
                Tensor seed = randn(4, dt, 15, 2, 3);
                var o = Autograd.GradOptions.defaults().gradOutputs(List.of(seed));
                List<Tensor> gg = Autograd.grad(List.of(got), List.of(q, k, v), o),
                        gr = Autograd.grad(List.of(ref), List.of(q, k, v), o);
                for (int i = 0; i < 3; i++)
                    assertArrayEquals(gr.get(i).toDoubleArray(), gg.get(i).toDoubleArray(), tol);
            }
        }
    }

    @Test
    void gradcheckFloat64() {
        Tensor q = randn(5, DType.FLOAT64, 5, 2, 3).requiresGrad(true),
                k = randn(6, DType.FLOAT64, 6, 2, 3).requiresGrad(true);
        Tensor v = randn(7, DType.FLOAT64, 6, 2, 2).requiresGrad(true);
        Tensor cq = cu(0, 2, 5), ck = cu(0, 3, 6);
        for (boolean causal : new boolean[] {false, true}) {
            assertTrue(GradCheck.check(
                    in -> Varlen.varlenAttn(
                                    in.get(0),
                                    in.get(1),
                                    in.get(2),
                                    cq,
                                    ck,
                                    3,
                                    3,
                                    VarlenOptions.defaults().isCausal(causal).returnLse(true))
                            .out(),
                    List.of(q, k, v),
                    GradCheck.Options.defaults()));
            assertTrue(GradCheck.check(
                    in -> Varlen.varlenAttn(
                                    in.get(0),
                                    in.get(1),
                                    in.get(2),
                                    cq,
                                    ck,
                                    3,
                                    3,
                                    VarlenOptions.defaults().isCausal(causal).returnLse(true))
                            .lse()
                            .orElseThrow(),
                    List.of(q, k, v),
                    GradCheck.Options.defaults()));
        }
    }

    @Test
    void causalWithMoreKeysThanQueriesIsAlignedBottomRight() {
        // one sequence, L = 2 queries, S = 3 keys: query 0 sees keys 0..1, query 1 sees keys 0..2
        Tensor q = randn(8, DType.FLOAT64, 2, 1, 2),
                k = randn(9, DType.FLOAT64, 3, 1, 2),
                v = randn(10, DType.FLOAT64, 3, 1, 2);
        Tensor got = Varlen.varlenAttn(q, k, v, cu(0, 2), cu(0, 3), 2, 3, true);
        Tensor mask = Torch.tensor(new boolean[] {true, true, false, true, true, true})
                .reshape(2, 3);
        Tensor ref = F.scaledDotProductAttention(
                        q.transpose(0, 1), k.transpose(0, 1), v.transpose(0, 1), mask, 0.0, false, null, false)
                .transpose(0, 1);
        assertArrayEquals(ref.toDoubleArray(), got.toDoubleArray(), 1e-12);
        // more queries than keys: the first query sees no key and gets zeros, not NaN
        Tensor wide = Varlen.varlenAttn(k, q, q, cu(0, 3), cu(0, 2), 3, 2, true);
        assertArrayEquals(new double[] {0, 0}, wide.narrow(0, 0, 1).toDoubleArray());
    }

    @Test
    void halfTypesKeepTheirDtype() {
        long[] offsets = {0, 4, 7};
        Tensor q = randn(11, DType.FLOAT32, 7, 2, 8),
                k = randn(12, DType.FLOAT32, 7, 2, 8),
                v = randn(13, DType.FLOAT32, 7, 2, 8);
        Tensor ref = Varlen.varlenAttn(q, k, v, cu(offsets), cu(offsets), 4, 4, true);
        for (DType dt : new DType[] {DType.FLOAT16, DType.BFLOAT16}) {
            Tensor qh = q.to(dt).requiresGrad(true);
            Tensor got = Varlen.varlenAttn(qh, k.to(dt), v.to(dt), cu(offsets), cu(offsets), 4, 4, true);
            assertEquals(dt, got.dtype());
            assertArrayEquals(
                    ref.toDoubleArray(), got.to(DType.FLOAT32).toDoubleArray(), dt == DType.FLOAT16 ? 1e-2 : 5e-2);
            got.sum().backward();
            assertEquals(dt, qh.grad().dtype());
        }
    }

    @Test
    void errors() {
        Tensor q = Torch.zeros(4, 1, 2), v = Torch.zeros(4, 1, 2);
        TorchException e =
                assertThrows(TorchException.class, () -> Varlen.varlenAttn(q, q, v, cu(1, 4), cu(0, 4), 4, 4, false));
        assertTrue(e.getMessage().contains("cu_seq_q must start at 0"), e.getMessage());
        e = assertThrows(TorchException.class, () -> Varlen.varlenAttn(q, q, v, cu(0, 3), cu(0, 4), 4, 4, false));
        assertTrue(e.getMessage().contains("end at the packed length 4"), e.getMessage());
        e = assertThrows(
                TorchException.class, () -> Varlen.varlenAttn(q, q, v, cu(0, 3, 2, 4), cu(0, 1, 2, 4), 4, 4, false));
        assertTrue(e.getMessage().contains("non-decreasing"), e.getMessage());
        e = assertThrows(TorchException.class, () -> Varlen.varlenAttn(q, q, v, cu(0, 1, 4), cu(0, 2, 4), 2, 4, false));
        assertTrue(
                e.getMessage().contains("max_q (=2) is smaller than the longest sequence in cu_seq_q (3)"),
                e.getMessage());
        e = assertThrows(TorchException.class, () -> Varlen.varlenAttn(q, q, v, cu(0, 4), cu(0, 2, 4), 4, 4, false));
        assertTrue(e.getMessage().contains("same number of sequences"), e.getMessage());
        e = assertThrows(
                TorchException.class,
                () -> Varlen.varlenAttn(q, Torch.zeros(4, 2, 2), v, cu(0, 4), cu(0, 4), 4, 4, false));
        assertTrue(e.getMessage().contains("[4, 2, 2]"), e.getMessage());
        assertThrows(
                TorchException.class, () -> Varlen.varlenAttn(q.reshape(4, 2), q, v, cu(0, 4), cu(0, 4), 4, 4, false));
        assertThrows(TorchException.class, () -> Varlen.varlenAttn(q, q, v, Torch.zeros(2), cu(0, 4), 4, 4, false));
        assertThrows(
                TorchException.class,
                () -> Varlen.varlenAttn(
                        q.to(DType.INT64), q.to(DType.INT64), v.to(DType.INT64), cu(0, 4), cu(0, 4), 4, 4, false));
    }
}
