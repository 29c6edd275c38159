package org.jtorch.optim;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtorch.DType;
import org.jtorch.Scalar;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.ops.ComplexOps;
import org.jtorch.ops.Creation;
import org.jtorch.ops.PointwiseOps;
import org.jtorch.ops.TernaryOps;

/**
 * What the optimizers' step functions share: choosing the implementation of a group, the state {@code step} counter,
 * grouping tensors by dtype and device for the multi-tensor paths, complex parameters as real views, and the in-place
 * ops the update formulas are written with.
 */
final class StepSupport {
    private StepSupport() {}

    /** The three implementations of one update rule; they compute the same values. */
    enum Impl {
        FOR_LOOP,
        FOREACH,
        FUSED
    }

    /**
     * {@code fused=True} → fused, {@code foreach=True} → foreach, {@code foreach=False} → for-loop. When neither is set
     * the multi-tensor path is used (unless {@code differentiable}): like PyTorch's CUDA default, because on JTorch's
     * CPU backend it is the faster one.
     */
    static Impl impl(ParamGroup g) {
        if (g.flag("fused")) return Impl.FUSED;
        Object foreach = g.get("foreach");
        if (foreach == null) return g.flag("differentiable") ? Impl.FOR_LOOP : Impl.FOREACH;
        return Boolean.TRUE.equals(foreach) ? Impl.FOREACH : Impl.FOR_LOOP;
    }

    /** PyTorch's checks of {@code fused}/{@code foreach}/{@code differentiable} that need only the hyper-parameters. */
    static void checkFlags(Map<String, Object> h) {
        if (Boolean.TRUE.equals(h.get("fused"))) {
            if (Boolean.TRUE.equals(h.get("differentiable")))
                throw new TorchException("`fused` does not support `differentiable`");
            if (Boolean.TRUE.equals(h.get("foreach")))
                throw new TorchException("`fused` and `foreach` cannot be `True` together.");
        }
    }

    /** Fused kernels exist for floating-point CPU tensors only. */
    static void checkFusedParams(Optimizer opt) {
        for (ParamGroup g : opt.paramGroups()) {
            if (!g.flag("fused")) continue;
            for (Tensor p : g.params()) {
                if (!p.isFloatingPoint() || p.device() != org.jtorch.Device.CPU) {
                    throw new TorchException("`fused=True` requires all the params to be floating point Tensors of "
                            + "supported devices: ['cpu'].");
                }
            }
        }
    }

    /** The parameters of a group that have a gradient, in order (the others are skipped and get no state). */
    static List<Tensor> withGrad(ParamGroup g) {
        List<Tensor> out = new ArrayList<>();
        for (Tensor p : g.params()) if (p.grad() != null) out.add(p);
        return out;
    }

    // ---- the step counter ---------------------------------------------------------------------------------

    /** A new {@code step} state: a 0-d tensor, float32 (float64 when that is the default dtype and not fused). */
    static Tensor newStep(boolean fused) {
        DType d = !fused && org.jtorch.Torch.getDefaultDtype() == DType.FLOAT64 ? DType.FLOAT64 : DType.FLOAT32;
        return Creation.scalarTensor(Scalar.of(0.0), d);
    }

    /**
     * The {@code step} tensor of a state; a plain number (older checkpoints) is turned into one, as PyTorch's
     * {@code __setstate__}.
     */
    static Tensor step(Map<String, Object> state) {
        Object s = state.get("step");
        if (s instanceof Tensor t) return t;
        Tensor t = Creation.scalarTensor(Scalar.of(((Number) s).doubleValue()), DType.FLOAT32);
        state.put("step", t);
        return t;
    }

    static List<Tensor> steps(List<Map<String, Object>> states) {
        List<Tensor> out = new ArrayList<>(states.size());
        for (Map<String, Object> s : states) out.add(step(s));
        return out;
    }

    // ---- lists ------------------------------------------------------------------------------------------

    /** Positions of {@code params} grouped by (device, dtype), groups in order of first appearance. */
    static List<int[]> byDeviceAndDtype(List<Tensor> params) {
        Map<String, List<Integer>> groups = new LinkedHashMap<>();
        for (int i = 0; i < params.size(); i++) {
            Tensor p = params.get(i);
            groups.computeIfAbsent(p.device() + "/" + p.dtype(), k -> new ArrayList<>())
                    .add(i);
        }
        List<int[]> out = new ArrayList<>();
        for (List<Integer> idx : groups.values())
            out.add(idx.stream().mapToInt(Integer::intValue).toArray());
        return out;
    }

    static <T> List<T> pick(List<T> xs, int[] idx) {
        List<T> out = new ArrayList<>(idx.length);
        for (int i : idx) out.add(xs.get(i));
        return out;
    }

    static List<Tensor> grads(List<Tensor> params) {
        List<Tensor> out = new ArrayList<>(params.size());
        for (Tensor p : params) out.add(p.grad());
        return out;
    }

    static List<Tensor> state(List<Map<String, Object>> states, String key) {
        List<Tensor> out = new ArrayList<>(states.size());
        for (Map<String, Object> s : states) out.add((Tensor) s.get(key));
        return out;
    }

    /**
     * Complex tensors as their real views ({@code view_as_real}); the update rules are then elementwise on real
     * numbers.
     */
    static Tensor real(Tensor t) {
        return t.dtype().isComplex() ? ComplexOps.viewAsReal(t) : t;
    }

    static List<Tensor> real(List<Tensor> ts) {
        List<Tensor> out = new ArrayList<>(ts.size());
        for (Tensor t : ts) out.add(real(t));
        return out;
    }

    static double[] times(double[] xs, double f) {
        double[] out = new double[xs.length];
        for (int i = 0; i < xs.length; i++) out[i] = xs[i] * f;
        return out;
    }

    // ---- in-place ops of the for-loop paths ---------------------------------------------------------------

    /** {@code self.add_(other, alpha=alpha)}. */
    static Tensor add_(Tensor self, Tensor other, double alpha) {
        Dispatcher.callOut(PointwiseOps.ADD, new Tensor[] {self}, self, other, alpha);
        return self;
    }

    /** {@code self.mul_(s)}. */
    static Tensor mul_(Tensor self, double s) {
        Dispatcher.callOut(PointwiseOps.MUL, new Tensor[] {self}, self, s);
        return self;
    }

    /** {@code self.add_(s)}. */
    static Tensor add_(Tensor self, double s) {
        Dispatcher.callOut(PointwiseOps.ADD, new Tensor[] {self}, self, s);
        return self;
    }

    /** {@code self.sqrt_()}. */
    static Tensor sqrt_(Tensor self) {
        Dispatcher.callOut(PointwiseOps.SQRT, new Tensor[] {self}, self);
        return self;
    }

    /** {@code self.abs_()}. */
    static Tensor abs_(Tensor self) {
        Dispatcher.callOut(PointwiseOps.ABS, new Tensor[] {self}, self);
        return self;
    }

    /** {@code torch.maximum(a, b, out=out)}. */
    static Tensor maximumOut(Tensor out, Tensor a, Tensor b) {
        Dispatcher.callOut(PointwiseOps.MAXIMUM, new Tensor[] {out}, a, b);
        return out;
    }

    static Tensor addcmul_(Tensor self, Tensor t1, Tensor t2, double value) {
        return TernaryOps.addcmul_(self, t1, t2, value);
    }

    static Tensor addcdiv_(Tensor self, Tensor t1, Tensor t2, double value) {
        return TernaryOps.addcdiv_(self, t1, t2, value);
    }

    static Tensor lerp_(Tensor self, Tensor end, double weight) {
        return TernaryOps.lerp_(self, end, weight);
    }
}
