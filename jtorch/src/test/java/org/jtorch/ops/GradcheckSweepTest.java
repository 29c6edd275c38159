package org.jtorch.ops;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.autograd.GradCheck;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.testing.OpDb;
import org.jtorch.testing.OpInfo;
import org.jtorch.testing.SampleInputs;
import org.jtorch.testing.Sweeps;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * gradcheck and gradgradcheck over the op table, as the meta, forward-AD and vmap sweeps go over it: every sample of
 * every op autograd differentiates (with a VJP or as a composite), in float64, compares the VJPs' Jacobian with central
 * finite differences, then does the same for the VJPs themselves (second derivatives through {@code createGraph}). The
 * pointwise ops take inputs inside every one's domain. Samples the op refuses, and outputs that are not finite, are
 * skipped: the other sweeps check refusals.
 */
class GradcheckSweepTest {
    /**
     * Ops that read a Hermitian matrix from one triangle (pinv and matrix_rank when told it is Hermitian): checked at
     * {@code A + A^H}, as PyTorch's {@code gradcheck_wrapper_hermitian_input} does, since a finite difference in the
     * triangle they do not read changes nothing while the gradient is the symmetric one.
     */
    private static final Set<String> HERMITIAN_INPUT =
            Set.of("linalg_eigh", "linalg_eigvalsh", "linalg_cholesky", "linalg_cholesky_ex", "linalg_matrix_sqrth");

    /**
     * Samples where central differences and the op's derivative rule disagree for a reason outside the rule, by
     * "op/sample": why. Each must keep disagreeing (a sample that passes fails the sweep until it is removed here).
     */
    private static final String CTC_GRADIENT = "ATen's CTC gradient is the one with respect to the logits of a "
            + "log_softmax: it adds exp(log_probs), which log_softmax's backward cancels (PyTorch's OpInfo marks "
            + "test_fn_grad of ctc_loss an expected failure; CtcLossGradTest checks it through log_softmax)";

    private static final Map<String, String> DIFFERENCES_DISAGREE = Map.of(
            "scatter.src/dim1-smaller",
            "duplicate indices: one source element is kept per place, the gradient goes to "
                    + "every source that went there (PyTorch: the gradient is defined for unique indices only)",
            "scatter.src/transposed",
            "duplicate indices (as dim1-smaller)",
            "linalg_pinv.atol_rtol_float/atol",
            "atol drops a singular value (0.35 < 0.5): PyTorch's pinv_backward, "
                    + "which JTorch follows, is the derivative at constant rank, not of the truncation",
            "cdist/p3-batch-broadcast",
            "two points 0.002 apart: second derivatives of order 1/d^2 defeat central "
                    + "differences (the same inputs moved apart pass)",
            "_cdist_forward/p3-batch-broadcast",
            "two points 0.002 apart (as cdist/p3-batch-broadcast)",
            "_ctc_loss/padded",
            CTC_GRADIENT,
            "_ctc_loss/concatenated",
            CTC_GRADIENT,
            "_ctc_loss/blank-last-strided",
            CTC_GRADIENT,
            "_ctc_loss/empty-target",
            CTC_GRADIENT,
            "_euclidean_dist/batch-broadcast",
            "two points 0.002 apart, whose distance the matrix-product form "
                    + "|x|^2 + |y|^2 - 2 x.y computes with cancellation (cdist's exact form passes "
                    + "on these inputs)");

    /** The complex128 samples of {@link #opDbComplexGradcheck} that disagree, as {@link #DIFFERENCES_DISAGREE}. */
    private static final Map<String, String> COMPLEX_DIFFERENCES_DISAGREE = Map.of(
            "scatter.src/dim1-smaller/complex128", "duplicate indices (as the float64 sample)",
            "scatter.src/transposed/complex128", "duplicate indices (as the float64 sample)");

    private static boolean swept(OpDef op) {
        return op.isDifferentiable() && !op.has(OpDef.Flag.RANDOM) && (op.compositeFn() != null || op.vjp() != null);
    }

    /**
     * Whether the op has forward AD (a JVP rule, or a composite of ops that have): its forward Jacobian and batched
     * JVPs are checked too. Ops without a JVP are listed, with the reason, by {@code JvpCoverageTest}.
     */
    private static boolean hasForwardAd(OpDef op) {
        return op.compositeFn() != null || op.jvp() != null;
    }

    @TestFactory
    Stream<DynamicTest> opDbGradcheck() {
        List<DynamicTest> tests = new ArrayList<>();
        for (OpDb.Entry e : OpDb.ALL) {
            if (!swept(e.op()) || !e.dtypes().contains(DType.FLOAT64)) continue;
            for (OpDb.Sample s : e.samples()) {
                String name = e.name() + "/" + s.label();
                Function<Object[], List<Tensor>> call =
                        a -> differentiablePart(e.op(), a, Dispatcher.call(e.op(), wrapInput(e.name(), a)));
                Runnable run = () -> check(
                        call, s.args().build(SampleInputs.on(DType.FLOAT64, Device.CPU)), false, hasForwardAd(e.op()));
                String reason = DIFFERENCES_DISAGREE.get(name);
                Runnable listed = reason == null ? run : () -> expectMismatch(reason, run);
                tests.add(DynamicTest.dynamicTest(name, () -> Sweeps.named(name, listed)));
            }
        }
        return tests.stream();
    }

    /**
     * The same sweep in complex128 for every op the table runs on complex inputs: complex leaves are checked through
     * their real and imaginary parts, as PyTorch's gradcheck does under the Wirtinger convention, so a rule right only
     * for real inputs (a missing conjugate) is caught.
     */
    @TestFactory
    Stream<DynamicTest> opDbComplexGradcheck() {
        List<DynamicTest> tests = new ArrayList<>();
        for (OpDb.Entry e : OpDb.ALL) {
            if (!swept(e.op()) || !e.dtypes().contains(DType.COMPLEX128)) continue;
            for (OpDb.Sample s : e.samples()) {
                String name = e.name() + "/" + s.label() + "/complex128";
                Function<Object[], List<Tensor>> call =
                        a -> differentiablePart(e.op(), a, Dispatcher.call(e.op(), wrapInput(e.name(), a)));
                Runnable run = () -> check(
                        call,
                        s.args().build(SampleInputs.on(DType.COMPLEX128, Device.CPU)),
                        true,
                        hasForwardAd(e.op()));
                String reason = COMPLEX_DIFFERENCES_DISAGREE.get(name);
                Runnable listed = reason == null ? run : () -> expectMismatch(reason, run);
                tests.add(DynamicTest.dynamicTest(name, () -> Sweeps.named(name, listed)));
            }
        }
        return tests.stream();
    }

    @TestFactory
    Stream<DynamicTest> pointwiseGradcheck() {
        List<DynamicTest> tests = new ArrayList<>();
        for (OpInfo info : PointwiseOpTableTest.table()) {
            if (!swept(info.op())) continue;
            for (OpInfo.Sample s : OpInfo.pointwiseSamples(info.arity())) {
                String name = info.name() + "/" + s.label();
                tests.add(DynamicTest.dynamicTest(
                        name,
                        () -> Sweeps.named(name, () -> {
                            Object[] args = new Object[s.shapes().length];
                            for (int i = 0; i < args.length; i++) {
                                args[i] = Sweeps.inDomain(info.name(), s.shapes()[i], DType.FLOAT64, i);
                            }
                            check(
                                    a -> Sweeps.floatOutputs(
                                            info.call().apply(Arrays.copyOf(a, a.length, Tensor[].class))),
                                    args,
                                    false,
                                    hasForwardAd(info.op()));
                        })));
            }
        }
        return tests.stream();
    }

    /** A listed sample, pinned: the check must fail for the listed reason, and passing fails until it is removed. */
    private static void expectMismatch(String reason, Runnable check) {
        try {
            check.run();
        } catch (GradCheck.GradcheckError expected) {
            return;
        }
        fail("gradcheck now passes; remove the sample from DIFFERENCES_DISAGREE: " + reason);
    }

    /** The call's arguments with a Hermitian-input op's matrix made Hermitian (see {@link #HERMITIAN_INPUT}). */
    private static Object[] wrapInput(String op, Object[] args) {
        boolean toldHermitian = op.startsWith("linalg_pinv") || op.startsWith("linalg_matrix_rank");
        boolean hermitian = HERMITIAN_INPUT.contains(op) || toldHermitian && Boolean.TRUE.equals(args[3]);
        if (!hermitian || !(args[0] instanceof Tensor a) || a.dim() < 2) return args;
        Object[] w = args.clone();
        w[0] = a.add(a.mH());
        return w;
    }

    /**
     * The outputs that are differentiable functions of the inputs (PyTorch's {@code output_process_fn_grad}): the
     * floating outputs, less cholesky_ex's partial factor of a matrix that is not positive-definite, lstsq's rank and
     * singular values (not differentiable, as PyTorch declares), the rows of the raw lstsq solution below the solution
     * proper (LAPACK's residual data, differentiated through {@code linalg_lstsq}'s residuals), and the columns of a
     * full SVD beyond the rank (any orthonormal completion).
     */
    private static List<Tensor> differentiablePart(OpDef op, Object[] args, Object result) {
        switch (OpDb.key(op)) {
            case "linalg_cholesky_ex" -> {
                Tensor[] li = (Tensor[]) result;
                Assumptions.assumeTrue(li[1].eq(0L).all().item() != 0, "not positive-definite: L is not the factor");
                return List.of(li[0]);
            }
            case "linalg_lstsq" -> {
                Tensor[] r = (Tensor[]) result;
                return List.of(r[0], r[1]);
            }
            case "_linalg_lstsq_solve" -> {
                Tensor raw = ((Tensor[]) result)[0];
                return List.of(raw.narrow(-2, 0, ((Tensor) args[0]).size(-1)));
            }
            case "linalg_svd" -> {
                Tensor[] usv = (Tensor[]) result;
                long k = usv[1].size(-1);
                return List.of(usv[0].narrow(-1, 0, k), usv[1], usv[2].narrow(-2, 0, k));
            }
            default -> {
                if (!(result instanceof Tensor[] outs)) return Sweeps.floatOutputs(result);
                Tensor[] withGrad = new Tensor[outs.length]; // outputs declared without gradient are not checked
                for (int i = 0; i < outs.length; i++) if (op.outputHasGrad(i)) withGrad[i] = outs[i];
                return Sweeps.floatOutputs(withGrad);
            }
        }
    }

    /**
     * gradcheck (with its batched-gradient check: vmap over every backward formula; for an op with forward AD also the
     * forward Jacobian and the batched forward-gradient check: vmap over every JVP rule) and gradgradcheck of
     * {@code call} at {@code args}; complex inputs become leaves when asked.
     */
    private static void check(
            Function<Object[], List<Tensor>> call, Object[] args, boolean complexLeaves, boolean forwardAd) {
        List<Tensor> plainOuts;
        try {
            plainOuts = call.apply(args);
        } catch (RuntimeException refused) {
            Assumptions.abort("the op refuses this sample: " + refused.getMessage());
            return;
        }
        Assumptions.assumeFalse(plainOuts.isEmpty(), "no floating output");
        for (Tensor y : plainOuts) {
            Assumptions.assumeTrue(Torch.isfinite(y).all().item() != 0, "the output is not finite");
        }

        List<Tensor> leaves = new ArrayList<>();
        Object[] leafArgs = Sweeps.replaceFloats(args, x -> {
            if (x.isComplex() && !complexLeaves) return x; // the real sweeps check real inputs only
            Tensor leaf = jittered(x, leaves.size()).requiresGrad(true);
            leaves.add(leaf);
            return leaf;
        });
        Assumptions.assumeFalse(leaves.isEmpty(), "no floating input");
        Function<List<Tensor>, Tensor> fn = xs -> flat(call.apply(substitute(leafArgs, leaves, xs)));
        Tensor probe;
        try {
            probe = fn.apply(leaves);
        } catch (RuntimeException refused) {
            Assumptions.abort("autograd refuses this sample: " + refused.getMessage());
            return;
        }
        try {
            GradCheck.Options batched = GradCheck.Options.defaults().checkBatchedGrad(true);
            if (forwardAd) batched = batched.checkForwardAd(true).checkBatchedForwardGrad(true);
            GradCheck.check(fn, leaves, batched);
            if (probe.requiresGrad()) GradCheck.checkSecondOrder(fn, leaves, GradCheck.Options.defaults());
        } catch (GradCheck.GradcheckError mismatch) {
            throw mismatch;
        } catch (TorchException refused) {
            Assumptions.abort("autograd refuses to differentiate this sample: " + refused.getMessage());
        }
    }

    /**
     * A contiguous copy of a sample input moved by a few thousandths, distinct per element and per input: the samples
     * repeat values (ties of max and sort) and hit kinks (clamp's bounds, 0 for abs), where a finite difference is no
     * derivative. The move is far larger than gradcheck's step and far smaller than the values.
     */
    private static Tensor jittered(Tensor x, int input) {
        Tensor real = x.isComplex() ? Torch.viewAsReal(x.contiguous()) : x.contiguous();
        double[] v = real.toDoubleArray();
        for (int i = 0; i < v.length; i++) v[i] += 1e-2 * Math.sin(1.3 + 0.917 * i + 2.1 * input);
        Tensor moved = Torch.tensor(v, DType.FLOAT64, v.length).reshape(real.shape());
        return x.isComplex() ? Torch.viewAsComplex(moved).to(x.dtype()) : moved;
    }

    /** The floating outputs as one real vector (complex ones as their real and imaginary parts). */
    private static Tensor flat(List<Tensor> outs) {
        List<Tensor> parts = new ArrayList<>();
        for (Tensor y : outs) parts.add((y.isComplex() ? Torch.viewAsReal(y) : y).reshape(-1));
        return parts.size() == 1 ? parts.get(0) : Torch.cat(parts);
    }

    /** The arguments with each leaf replaced by the input gradcheck passes in its place. */
    private static Object[] substitute(Object[] leafArgs, List<Tensor> leaves, List<Tensor> xs) {
        Map<Tensor, Tensor> byLeaf = new IdentityHashMap<>();
        for (int i = 0; i < leaves.size(); i++) byLeaf.put(leaves.get(i), xs.get(i));
        Object[] a = leafArgs.clone();
        for (int i = 0; i < a.length; i++) {
            if (a[i] instanceof Tensor t) a[i] = byLeaf.getOrDefault(t, t);
            else if (a[i] instanceof Tensor[] ts) {
                Tensor[] c = ts.clone();
                for (int k = 0; k < c.length; k++) if (c[k] != null) c[k] = byLeaf.getOrDefault(c[k], c[k]);
                a[i] = c;
            }
        }
        return a;
    }

    @Test
    void theSweepSeesEveryOpWithAVjp() {
        assertTrue(OpDb.ALL.stream().filter(e -> swept(e.op())).count() > 50);
    }
}
