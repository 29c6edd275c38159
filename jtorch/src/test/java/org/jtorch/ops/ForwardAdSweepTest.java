package org.jtorch.ops;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.autograd.Autograd;
import org.jtorch.autograd.DualLevel;
import org.jtorch.autograd.ForwardAD;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.testing.OpDb;
import org.jtorch.testing.OpInfo;
import org.jtorch.testing.SampleInputs;
import org.jtorch.testing.Sweeps;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Forward AD equals reverse mode on every differentiable op of the table (ARCHITECTURE.md, Tests): for random tangents
 * {@code v} of the floating inputs and random cotangents {@code u} of the floating outputs, {@code Re<u, J v>} from the
 * JVP rules equals {@code Re<Jᴴ u, v>} from the VJP rules (the adjoint identity, with PyTorch's conjugate-Wirtinger
 * convention for complex), in float64 and complex128. Samples the op (or its backward) refuses are skipped: the other
 * sweeps check refusals.
 */
class ForwardAdSweepTest {
    /**
     * Samples where the two modes differ for a reason outside the rules, by "op/sample" or "op/dtype/sample": the
     * reason. Each is pinned: a listed sample that starts to agree fails until it is removed.
     */
    private static final Map<String, String> KNOWN = Map.of(
            "scatter.src/dim1-smaller",
            "duplicate indices: the forward keeps one source element per place, PyTorch's backward "
                    + "(grad.gather) sends the gradient to every source that went there; PyTorch's own JVP "
                    + "and VJP differ alike",
            "scatter.src/transposed",
            "duplicate indices (as dim1-smaller)");

    /** Ops with both rules; those without a JVP are listed, with the reason, by {@code JvpCoverageTest}. */
    private static boolean swept(OpDef op) {
        return op.isDifferentiable()
                && !op.has(OpDef.Flag.RANDOM)
                && (op.compositeFn() != null || op.vjp() != null && op.jvp() != null);
    }

    @TestFactory
    Stream<DynamicTest> opDbForwardEqualsReverse() {
        List<DynamicTest> tests = new ArrayList<>();
        for (OpDb.Entry e : OpDb.ALL) {
            if (!swept(e.op())) continue;
            for (DType dtype : List.of(DType.FLOAT64, DType.COMPLEX128)) {
                if (!e.dtypes().contains(dtype)) continue;
                for (OpDb.Sample s : e.samples()) {
                    String name = e.name() + "/" + dtype.pyName() + "/" + s.label();
                    String known = KNOWN.getOrDefault(name, KNOWN.get(e.name() + "/" + s.label()));
                    Runnable run = () -> check(e.op(), s.args().build(SampleInputs.on(dtype, Device.CPU)));
                    tests.add(DynamicTest.dynamicTest(
                            name,
                            () -> Sweeps.named(name, known == null ? run : () -> expectDisagreement(known, run))));
                }
            }
        }
        return tests.stream();
    }

    @TestFactory
    Stream<DynamicTest> pointwiseForwardEqualsReverse() {
        List<DynamicTest> tests = new ArrayList<>();
        for (OpInfo info : PointwiseOpTableTest.table()) {
            if (!swept(info.op())) continue;
            for (DType dtype : List.of(DType.FLOAT64, DType.COMPLEX128)) {
                for (OpInfo.Sample s : OpInfo.pointwiseSamples(info.arity())) {
                    String name = info.name() + "/" + dtype.pyName() + "/" + s.label();
                    tests.add(DynamicTest.dynamicTest(
                            name,
                            () -> Sweeps.named(name, () -> {
                                Tensor[] ts = new Tensor[s.shapes().length];
                                for (int i = 0; i < ts.length; i++)
                                    ts[i] = Sweeps.inDomain(info.name(), s.shapes()[i], dtype, i);
                                Object[] probe = ts;
                                checkCall(args -> info.call().apply(toTensors(args)), probe);
                            })));
                }
            }
        }
        return tests.stream();
    }

    /**
     * A listed sample: an intentional difference, pinned — the modes must disagree (as PyTorch's do), and a sample that
     * starts to agree fails until it is removed from the list.
     */
    private static void expectDisagreement(String reason, Runnable check) {
        try {
            check.run();
        } catch (AssertionError disagrees) {
            return;
        }
        fail("forward and reverse now agree; remove the entry from KNOWN: " + reason);
    }

    private static Tensor[] toTensors(Object[] args) {
        Tensor[] ts = new Tensor[args.length];
        for (int i = 0; i < ts.length; i++) ts[i] = (Tensor) args[i];
        return ts;
    }

    private static void check(OpDef op, Object[] args) {
        checkCall(a -> Dispatcher.call(op, a), args);
    }

    @FunctionalInterface
    private interface Call {
        Object apply(Object[] args);
    }

    private static void checkCall(Call call, Object[] args) {
        Object plain;
        try {
            plain = call.apply(args);
        } catch (RuntimeException refused) {
            Assumptions.abort("the op refuses this sample: " + refused.getMessage());
            return;
        }
        List<Tensor> plainOuts = Sweeps.floatOutputs(plain);
        Assumptions.assumeFalse(plainOuts.isEmpty(), "no floating output");
        for (Tensor y : plainOuts) {
            // 0/0, the variance of one element: the derivative there is not a number in either mode
            Assumptions.assumeTrue(Torch.isfinite(y).all().item() != 0, "the output is not finite");
        }
        Random rnd = new Random(42);

        // reverse: fresh leaves for the floating inputs
        List<Tensor> leaves = new ArrayList<>();
        Object[] revArgs = Sweeps.replaceFloats(args, x -> {
            Tensor leaf = x.detach().requiresGrad(true);
            leaves.add(leaf);
            return leaf;
        });
        Assumptions.assumeFalse(leaves.isEmpty(), "no floating input");
        List<Tensor> outs;
        List<Tensor> us = new ArrayList<>();
        List<Tensor> grads;
        try {
            outs = Sweeps.floatOutputs(call.apply(revArgs));
            Tensor loss = null;
            for (Tensor y : outs) {
                Tensor u = random(y, rnd);
                us.add(u);
                if (!y.requiresGrad()) continue;
                Tensor term = realPart(u.conj().mul(y)).sum();
                loss = loss == null ? term : loss.add(term);
            }
            Assumptions.assumeTrue(loss != null, "no output depends on a floating input");
            grads = Autograd.grad(
                    List.of(loss), leaves, Autograd.GradOptions.defaults().allowUnused(true));
        } catch (RuntimeException backwardRefused) {
            Assumptions.abort("reverse mode refuses this sample: " + backwardRefused.getMessage());
            return;
        }

        // forward: the same inputs made dual with random tangents
        double fwd = 0, rev = 0;
        try (DualLevel _ = ForwardAD.dualLevel()) {
            List<Tensor> tangents = new ArrayList<>();
            Object[] dualArgs = Sweeps.replaceFloats(args, x -> {
                Tensor d = ForwardAD.makeDual(x, random(x, rnd));
                tangents.add(ForwardAD.unpackDual(d).tangent()); // in x's layout (expanded inputs share elements)
                return d;
            });
            List<Tensor> dualOuts = Sweeps.floatOutputs(call.apply(dualArgs));
            for (int j = 0; j < dualOuts.size(); j++) {
                Tensor jt = ForwardAD.unpackDual(dualOuts.get(j)).tangent();
                if (jt != null) fwd += dot(us.get(j), jt);
            }
            for (int i = 0; i < leaves.size(); i++) if (grads.get(i) != null) rev += dot(grads.get(i), tangents.get(i));
        }
        if (Double.isNaN(fwd) && Double.isNaN(rev)) return;
        if (fwd == rev) return; // the same infinity in both modes (a derivative that is infinite at the sample's 0)
        double tol = 1e-7 * (1 + Math.abs(fwd) + Math.abs(rev));
        if (!(Math.abs(fwd - rev) <= tol)) fail("forward AD <u, J v> = " + fwd + " but reverse <J^H u, v> = " + rev);
    }

    /** {@code Re Σ conj(a) · b}. */
    private static double dot(Tensor a, Tensor b) {
        Tensor p = a.conj().mul(b);
        return realPart(p).sum().item();
    }

    private static Tensor realPart(Tensor t) {
        return t.isComplex() ? Torch.real(t) : t;
    }

    private static Tensor random(Tensor like, Random rnd) {
        int n = (int) like.numel();
        double[] re = new double[n], im = new double[n];
        for (int i = 0; i < n; i++) {
            re[i] = rnd.nextDouble() * 2 - 1;
            im[i] = rnd.nextDouble() * 2 - 1;
        }
        Tensor r = Torch.tensor(re, DType.FLOAT64, n).reshape(like.shape());
        Tensor t = like.isComplex()
                ? Torch.complex(r, Torch.tensor(im, DType.FLOAT64, n).reshape(like.shape()))
                : r;
        return t.to(like.dtype());
    }

    @org.junit.jupiter.api.Test
    void theSweepSeesEveryOpWithAVjp() {
        assertTrue(OpDb.ALL.stream().filter(e -> swept(e.op())).count() > 50);
    }
}
