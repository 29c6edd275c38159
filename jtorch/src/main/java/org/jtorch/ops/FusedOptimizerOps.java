package org.jtorch.ops;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.dispatch.Spec;
import org.jtorch.kernels.cpu.ForeachLoops;
import org.jtorch.storage.TensorImpl;

/**
 * The fused optimizer ops ({@code _fused_sgd_}, {@code _fused_adam_}, {@code _fused_adamw_}, {@code _fused_adagrad_}):
 * one multi-tensor kernel updates parameters and state in place. They run through the dispatcher as out= calls whose
 * outputs are every tensor they write (parameters, then each state list), so modes see them and version counters move.
 *
 * <p>AMP: with {@code found_inf} non-zero nothing is written; with {@code grad_scale} the gradients are first divided
 * by it (and keep the unscaled values), as PyTorch's kernels do.
 */
public final class FusedOptimizerOps {
    private FusedOptimizerOps() {}

    /** Tensor lists of one call must be aligned: same length, and position by position same shape, dtype and device. */
    private static Spec meta(String name, Tensor[] params, Tensor[] grads, Tensor[]... states) {
        if (params.length == 0) throw new TorchException("Tensor list must have at least one tensor.");
        List<Tensor> outs = new ArrayList<>(Arrays.asList(params));
        checkAligned(name, params, grads);
        for (Tensor[] s : states) {
            if (s.length == 0) continue;
            checkAligned(name, params, s);
            outs.addAll(Arrays.asList(s));
        }
        DType dtype = params[0].dtype();
        Device device = params[0].device();
        for (Tensor p : params) {
            if (!p.dtype().isFloatingPoint()) {
                throw new TorchException(name + ": expected floating point params, got "
                        + p.dtype().cppName());
            }
            if (p.dtype() != dtype || !p.device().equals(device)) {
                throw new TorchException(name + ": all params of one call must share a dtype and a device");
            }
        }
        long[][] shapes = new long[outs.size()][];
        DType[] dtypes = new DType[outs.size()];
        for (int i = 0; i < shapes.length; i++) {
            shapes[i] = outs.get(i).impl().shapeRef();
            dtypes[i] = outs.get(i).dtype();
        }
        return new Spec(shapes, dtypes, device, null);
    }

    private static void checkAligned(String name, Tensor[] params, Tensor[] other) {
        if (other.length != params.length) {
            throw new TorchException(
                    "Tensor lists must have the same number of tensors, got " + params.length + " and " + other.length);
        }
        for (int i = 0; i < params.length; i++) {
            if (!Arrays.equals(other[i].impl().shapeRef(), params[i].impl().shapeRef())
                    || other[i].dtype() != params[i].dtype()) {
                throw new TorchException(
                        name + ": every tensor must have its param's shape and dtype; position " + i + " has "
                                + other[i].dtype().cppName()
                                + Arrays.toString(other[i].impl().shapeRef()) + " for a param of "
                                + params[i].dtype().cppName()
                                + Arrays.toString(params[i].impl().shapeRef()));
            }
        }
    }

    /** Handles AMP's arguments; false when {@code found_inf} says the step must be skipped. */
    private static boolean unscale(Tensor[] grads, Tensor gradScale, Tensor foundInf) {
        if (foundInf != null && foundInf.item() != 0) return false;
        if (gradScale != null) Dispatcher.callOut(ForeachOps.DIV_TENSOR.op(), grads, grads, gradScale);
        return true;
    }

    private static double d(Object o) {
        return ((Number) o).doubleValue();
    }

    private static boolean b(Object o) {
        return (Boolean) o;
    }

    private static Tensor[] orNull(Tensor[] ts) {
        return ts.length == 0 ? null : ts;
    }

    /** What the kernels see of a tensor list; null stays null. */
    private static TensorImpl[] impls(Tensor[] ts) {
        if (ts == null) return null;
        TensorImpl[] out = new TensorImpl[ts.length];
        for (int i = 0; i < ts.length; i++) out[i] = ts[i].impl();
        return out;
    }

    /** Why vmap runs a fused step per example. */
    private static final String STEP = "an optimizer step over lists of parameters, updated in place, per example";

    /**
     * Args: (params, grads, momentum_buffer_list (empty when momentum is 0), weight_decay, momentum, lr, dampening,
     * nesterov, maximize, is_first_step, grad_scale, found_inf).
     */
    public static final OpDef SGD = OpDef.structured(
                    "_fused_sgd_(Tensor(a!)[] self, Tensor(b!)[] grads, Tensor(c!)[] momentum_buffer_list, *, "
                            + "float weight_decay, float momentum, float lr, float dampening, "
                            + "bool nesterov, bool maximize, bool is_first_step, "
                            + "Tensor? grad_scale=None, Tensor? found_inf=None) -> ()",
                    a -> meta("_fused_sgd_", (Tensor[]) a[0], (Tensor[]) a[1], (Tensor[]) a[2]),
                    (a, outs, spec) -> {
                        Tensor[] params = (Tensor[]) a[0], grads = (Tensor[]) a[1], bufs = (Tensor[]) a[2];
                        if (!unscale(grads, (Tensor) a[10], (Tensor) a[11])) return;
                        ForeachLoops.fusedSgd(
                                impls(params),
                                impls(grads),
                                impls(orNull(bufs)),
                                new ForeachLoops.SgdArgs(
                                        d(a[5]), d(a[3]), d(a[4]), d(a[6]), b(a[7]), b(a[8]), b(a[9])));
                    },
                    OpDef.Flag.NOT_DIFFERENTIABLE)
            .vmapFallsBack(STEP);

    private static OpDef adam(String name, boolean adamw) {
        return OpDef.structured(
                        name + "(Tensor(a!)[] self, Tensor(b!)[] grads, Tensor(c!)[] exp_avgs, "
                                + "Tensor(d!)[] exp_avg_sqs, "
                                + "Tensor(e!)[] max_exp_avg_sqs, Tensor[] state_steps, *, float lr, "
                                + "float beta1, float beta2, float weight_decay, "
                                + "float eps, bool amsgrad, bool maximize, Tensor? grad_scale=None, "
                                + "Tensor? found_inf=None) -> ()",
                        a -> meta(name, (Tensor[]) a[0], (Tensor[]) a[1], (Tensor[]) a[2], (Tensor[]) a[3], (Tensor[])
                                a[4]),
                        (a, outs, spec) -> {
                            Tensor[] params = (Tensor[]) a[0], grads = (Tensor[]) a[1], steps = (Tensor[]) a[5];
                            if (!unscale(grads, (Tensor) a[13], (Tensor) a[14])) return;
                            double lr = d(a[6]), beta1 = d(a[7]), beta2 = d(a[8]);
                            double[] stepSize = new double[params.length], bc2Sqrt = new double[params.length];
                            for (int i = 0; i < params.length; i++) {
                                double step = steps[i].item();
                                stepSize[i] = lr / (1 - Math.pow(beta1, step));
                                bc2Sqrt[i] = Math.sqrt(1 - Math.pow(beta2, step));
                            }
                            ForeachLoops.fusedAdam(
                                    impls(params),
                                    impls(grads),
                                    impls((Tensor[]) a[2]),
                                    impls((Tensor[]) a[3]),
                                    b(a[11]) ? impls((Tensor[]) a[4]) : null,
                                    new ForeachLoops.AdamArgs(
                                            lr, beta1, beta2, d(a[9]), d(a[10]), adamw, b(a[12]), stepSize, bc2Sqrt));
                        },
                        OpDef.Flag.NOT_DIFFERENTIABLE)
                .vmapFallsBack(STEP);
    }

    /**
     * Args: (params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs (empty unless amsgrad), state_steps, lr, beta1,
     * beta2, weight_decay, eps, amsgrad, maximize, grad_scale, found_inf).
     */
    public static final OpDef ADAM = adam("_fused_adam_", false);
    /** As {@link #ADAM}, with decoupled weight decay. */
    public static final OpDef ADAMW = adam("_fused_adamw_", true);

    /**
     * Args: (params, grads, state_sums, state_steps, lr, lr_decay, weight_decay, eps, maximize, grad_scale, found_inf).
     */
    public static final OpDef ADAGRAD = OpDef.structured(
                    "_fused_adagrad_(Tensor(a!)[] self, Tensor(b!)[] grads, Tensor(c!)[] state_sums, "
                            + "Tensor(d!)[] state_steps, *, float lr, float lr_decay, float weight_decay, "
                            + "float eps, bool maximize, "
                            + "Tensor? grad_scale=None, Tensor? found_inf=None) -> ()",
                    a -> meta("_fused_adagrad_", (Tensor[]) a[0], (Tensor[]) a[1], (Tensor[]) a[2]),
                    (a, outs, spec) -> {
                        Tensor[] params = (Tensor[]) a[0], grads = (Tensor[]) a[1], steps = (Tensor[]) a[3];
                        if (!unscale(grads, (Tensor) a[9], (Tensor) a[10])) return;
                        double lr = d(a[4]), lrDecay = d(a[5]);
                        double[] clr = new double[params.length];
                        for (int i = 0; i < params.length; i++) clr[i] = lr / (1 + (steps[i].item() - 1) * lrDecay);
                        ForeachLoops.fusedAdagrad(
                                impls(params),
                                impls(grads),
                                impls((Tensor[]) a[2]),
                                new ForeachLoops.AdagradArgs(d(a[6]), d(a[7]), b(a[8]), clr));
                    },
                    OpDef.Flag.NOT_DIFFERENTIABLE)
            .vmapFallsBack(STEP);

    /** Runs a fused op; its outputs are {@code params} followed by each non-empty state list. */
    public static void run(OpDef op, Tensor[] params, Tensor[][] states, Object... args) {
        List<Tensor> outs = new ArrayList<>(Arrays.asList(params));
        for (Tensor[] s : states) outs.addAll(Arrays.asList(s));
        Dispatcher.callOut(op, outs.toArray(Tensor[]::new), args);
    }
}
