package org.jtorch.ops;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.linalg.Linalg;
import org.jtorch.nn.Reduction;
import org.jtorch.nn.functional.F;
import org.jtorch.testing.Golden;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Divergences from PyTorch that a differential run found, against PyTorch 2.13 ({@code golden/fidelity.json}, written
 * by {@code src/test/python/make_golden_fidelity.py}): attention over fully masked rows (zeros, finite gradients),
 * binary_cross_entropy's clamped backward, {@code matrix_power(A, 0)} in the graph, float16/bfloat16 add/sub with an
 * inexact scalar or alpha (bit for bit), huber_loss's result dtype, the errors of ATen's CPU kernels, det/slogdet
 * gradients at singular matrices, eigenvalue-only gradients at repeated eigenvalues, the complex cholesky backward,
 * linspace and out-of-range float-to-integer casts (bit for bit).
 */
class FidelityGoldenTest {
    static Stream<Golden.Case> cases() {
        return Golden.cases("fidelity.json").stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void matchesPyTorch(Golden.Case c) {
        // add/sub are about the last bit of a float16/bfloat16 result, linspace about ATen's arithmetic, pow and casts
        // about integers: all compare exactly
        boolean exact =
                switch (c.op()) {
                    case "add", "sub", "pow", "linspace", "to" -> true;
                    default -> false;
                };
        Golden.check(c, List.of(), exact, () -> run(c));
    }

    private static Object run(Golden.Case c) {
        return switch (c.op()) {
            case "scaled_dot_product_attention" -> attention(c);
            case "binary_cross_entropy" -> binaryCrossEntropy(c);
            case "matrix_power" -> matrixPower(c);
            case "add", "sub" -> addOrSub(c);
            case "huber_loss" ->
                List.of(F.huberLoss(
                        c.tensorArg(0), c.tensorArg(1), Reduction.of((String) c.kwarg("reduction")), (Double)
                                c.kwarg("delta")));
            case "abs" -> c.tensorArg(0).abs();
            case "floor" -> c.tensorArg(0).floor();
            case "ceil" -> c.tensorArg(0).ceil();
            case "trunc" -> Torch.trunc(c.tensorArg(0));
            case "round" ->
                c.has("decimals")
                        ? Torch.round(c.tensorArg(0), (Long) c.kwarg("decimals"))
                        : c.tensorArg(0).round();
            case "leaky_relu" -> F.leakyRelu(c.tensorArg(0));
            case "elu" -> F.elu(c.tensorArg(0));
            case "hypot" -> Torch.hypot(c.tensorArg(0), c.tensorArg(1));
            case "pow" ->
                c.arg(1) instanceof Long e
                        ? Torch.pow(c.tensorArg(0), (long) e)
                        : Torch.pow(c.tensorArg(0), c.tensorArg(1));
            case "linalg_det", "linalg_slogdet", "linalg_eigh_values", "linalg_svd_values", "linalg_cholesky" ->
                weightedGradient(c);
            case "linspace" -> linspace(c);
            case "to" -> c.tensorArg(0).to((DType) c.kwarg("dtype"));
            default -> throw new IllegalArgumentException(c.op());
        };
    }

    /** Output and the gradients of {@code sum(W * out)} for q, k and v. */
    private static Object attention(Golden.Case c) {
        Tensor q = c.tensorArg(0).requiresGrad(true),
                k = c.tensorArg(1).requiresGrad(true),
                v = c.tensorArg(2).requiresGrad(true);
        Tensor out = F.scaledDotProductAttention(q, k, v, c.tensorArg(3), 0.0, false, null, false);
        c.tensorArg(4).mul(out).sum().backward();
        return List.of(out.detach(), q.grad(), k.grad(), v.grad());
    }

    private static Object binaryCrossEntropy(Golden.Case c) {
        boolean targetGrad = (Boolean) c.kwarg("target_grad");
        Tensor x = c.tensorArg(0).requiresGrad(true), t = c.tensorArg(1).requiresGrad(targetGrad);
        Tensor weight = c.argCount() > 3 ? c.tensorArg(3) : null;
        Tensor loss = F.binaryCrossEntropy(x, t, weight, Reduction.of((String) c.kwarg("reduction")));
        c.tensorArg(2).mul(loss).sum().backward();
        List<Tensor> out = new ArrayList<>(List.of(loss.detach(), x.grad()));
        if (targetGrad) out.add(t.grad());
        return out;
    }

    private static Object matrixPower(Golden.Case c) {
        Tensor a = c.tensorArg(0).requiresGrad(true);
        Tensor p = Linalg.matrixPower(a, (Long) c.kwarg("n"));
        assertTrue(p.requiresGrad(), c.id() + ": the power must stay in the graph, as in PyTorch");
        c.tensorArg(1).mul(p).sum().backward();
        return List.of(p.detach(), a.grad());
    }

    /** A linalg function's value and the gradient of {@code sum(W * value)} (its real part for complex values). */
    private static Object weightedGradient(Golden.Case c) {
        Tensor a = c.tensorArg(0).requiresGrad(true), w = c.tensorArg(1);
        Tensor value =
                switch (c.op()) {
                    case "linalg_det" -> Linalg.det(a);
                    case "linalg_slogdet" -> Linalg.slogdet(a).logabsdet();
                    case "linalg_eigh_values" -> Linalg.eigh(a).eigenvalues();
                    case "linalg_svd_values" -> Linalg.svd(a).s();
                    default -> Linalg.cholesky(a);
                };
        Tensor weighted = w.mul(value);
        (weighted.isComplex() ? Torch.real(weighted) : weighted).sum().backward();
        return List.of(value.detach(), a.grad());
    }

    /** {@code torch.linspace}, with the thread count the fixture was made with when it is longer than ATen's grain. */
    private static Tensor linspace(Golden.Case c) {
        double start = (Double) c.kwarg("start"), end = (Double) c.kwarg("end");
        long steps = (Long) c.kwarg("steps");
        DType dtype = (DType) c.kwarg("dtype");
        if (!c.has("threads")) return Torch.linspace(start, end, steps, dtype);
        int threads = Torch.getNumThreads();
        Torch.setNumThreads(((Long) c.kwarg("threads")).intValue());
        try {
            return Torch.linspace(start, end, steps, dtype);
        } finally {
            Torch.setNumThreads(threads);
        }
    }

    /** {@code torch.add/sub(self, other, alpha=)}, other a tensor or a Python float. */
    private static Object addOrSub(Golden.Case c) {
        OpDef op = c.op().equals("add") ? PointwiseOps.ADD : PointwiseOps.SUB;
        Object alpha = c.has("alpha") ? c.kwarg("alpha") : null;
        return alpha == null ? op.call1(c.arg(0), c.arg(1)) : op.call1(c.arg(0), c.arg(1), alpha);
    }
}
