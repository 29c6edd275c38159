package org.jtorch.optim;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.autograd.GradMode;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.ops.PointwiseOps;

/**
 * {@code torch.optim.LBFGS}: limited-memory BFGS (after minFunc), with an optional strong-Wolfe line search. It has
 * exactly one parameter group and keeps all its state under the first parameter ({@code func_evals}, {@code n_iter},
 * {@code d}, {@code t}, {@code old_dirs}, {@code old_stps}, {@code ro}, {@code H_diag}, {@code prev_flat_grad},
 * {@code prev_loss}, {@code al}).
 *
 * <p>The parameters are handled as one flat vector (complex ones as their real views). {@link #step} needs a closure
 * that clears the gradients, recomputes the loss, calls {@code backward()} and returns the loss; it may call it up to
 * {@code max_eval} times.
 */
public final class LBFGS extends Optimizer {

    /** {@code line_search_fn}: none (fixed step {@code lr}) or {@code "strong_wolfe"}. */
    public enum LineSearch {
        /** {@code line_search_fn=None}: a fixed step of {@code lr}. */
        NONE(null),
        /** {@code line_search_fn="strong_wolfe"}: a line search satisfying the strong Wolfe conditions. */
        STRONG_WOLFE("strong_wolfe");

        private final String pyName;

        LineSearch(String pyName) {
            this.pyName = pyName;
        }

        /** PyTorch's value: {@code None} (null) or {@code "strong_wolfe"}. */
        public String pyName() {
            return pyName;
        }
    }

    /** LBFGS's keyword arguments. */
    public static final class Options extends OptimizerOptions<Options> {
        private Options(Map<String, Object> values) {
            super(values);
        }

        @Override
        protected Options create(Map<String, Object> values) {
            return new Options(values);
        }

        /**
         * PyTorch's defaults: lr 1, max_iter 20, max_eval None (→ max_iter * 5 // 4), tolerances 1e-7 / 1e-9, history
         * 100.
         */
        public static Options defaults() {
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("lr", 1.0);
            v.put("max_iter", 20);
            v.put("max_eval", null);
            v.put("tolerance_grad", 1e-7);
            v.put("tolerance_change", 1e-9);
            v.put("history_size", 100);
            v.put("line_search_fn", null);
            v.put("maximize", false);
            return new Options(v);
        }

        /** Nothing set, for {@link ParamGroup#of(Iterable, OptimizerOptions)}. */
        public static Options overrides() {
            return new Options(Map.of());
        }

        /** {@code lr}: the step length, or the first trial step of the line search (default 1). */
        public Options lr(double lr) {
            return with("lr", lr);
        }

        /** {@code max_iter}: iterations per {@code step()} (default 20). */
        public Options maxIter(int maxIter) {
            return with("max_iter", maxIter);
        }

        /** {@code max_eval}; null means {@code max_iter * 5 // 4}. */
        public Options maxEval(Integer maxEval) {
            return with("max_eval", maxEval);
        }

        /** {@code tolerance_grad}: stop when the largest gradient element is below it (default 1e-7). */
        public Options toleranceGrad(double toleranceGrad) {
            return with("tolerance_grad", toleranceGrad);
        }

        /** {@code tolerance_change}: stop when the loss or the step changes less than this (default 1e-9). */
        public Options toleranceChange(double toleranceChange) {
            return with("tolerance_change", toleranceChange);
        }

        /** {@code history_size}: how many curvature pairs the inverse-Hessian estimate keeps (default 100). */
        public Options historySize(int historySize) {
            return with("history_size", historySize);
        }

        /** {@code line_search_fn} as PyTorch's string (null or {@code "strong_wolfe"}; others fail at step time). */
        public Options lineSearchFn(String lineSearchFn) {
            return with("line_search_fn", lineSearchFn);
        }

        /** {@code line_search_fn} as a constant. */
        public Options lineSearchFn(LineSearch lineSearch) {
            return with("line_search_fn", lineSearch.pyName());
        }

        /** {@code maximize} (2.14): minimise the negated objective. */
        public Options maximize(boolean maximize) {
            return with("maximize", maximize);
        }
    }

    private final List<Tensor> params;

    /** {@code LBFGS(params, **options)}. */
    public LBFGS(Iterable<Tensor> params, Options options) {
        super(params, withMaxEval(options), LBFGS::validate);
        this.params = requireOneGroup();
    }

    /**
     * {@code LBFGS(params, lr)}: one group of {@code params} with learning rate {@code lr}, other options at defaults.
     */
    public LBFGS(Iterable<Tensor> params, double lr) {
        this(params, Options.defaults().lr(lr));
    }

    /** {@code LBFGS([group], **options)}: the group list must hold exactly one group (it may be empty). */
    public LBFGS(List<ParamGroup> groups, Options options) {
        super(groups, withMaxEval(options), LBFGS::validate);
        this.params = requireOneGroup();
    }

    private static Options withMaxEval(Options options) {
        if (options.get("max_eval") != null) return options;
        int maxIter = ((Number) options.get("max_iter")).intValue();
        return options.maxEval(Math.floorDiv(maxIter * 5, 4));
    }

    private List<Tensor> requireOneGroup() {
        if (paramGroups().size() != 1) {
            throw new IllegalArgumentException("LBFGS doesn't support per-parameter options (parameter groups)");
        }
        return paramGroups().get(0).params();
    }

    private static void validate(Map<String, Object> hp) {
        if (hp.get("lr") instanceof Tensor t && t.numel() != 1)
            throw new IllegalArgumentException("Tensor lr must be 1-element");
        requireNonNegative("learning rate", number(hp, "lr"));
    }

    /**
     * {@code step(closure)}: up to {@code max_iter} L-BFGS iterations; returns the closure's first loss (not negated
     * under {@code maximize}). With no parameters it only evaluates the closure (2.14).
     */
    @Override
    public Tensor step(Supplier<Tensor> closure) {
        Objects.requireNonNull(closure, "step() missing 1 required positional argument: 'closure'");
        runStepPreHooks();
        Tensor loss;
        if (params.isEmpty()) {
            loss = evaluate(closure);
        } else {
            try (var _ = GradMode.set(false)) {
                loss = run(closure, paramGroups().get(0));
            }
        }
        runStepPostHooks();
        return loss;
    }

    private Tensor run(Supplier<Tensor> closure, ParamGroup group) {
        double lr = group.lr();
        int maxIter = ((Number) group.get("max_iter")).intValue();
        int maxEval = ((Number) group.get("max_eval")).intValue();
        double toleranceGrad = group.doubleValue("tolerance_grad");
        double toleranceChange = group.doubleValue("tolerance_change");
        int historySize = ((Number) group.get("history_size")).intValue();
        Object lineSearchFn = group.get("line_search_fn");
        boolean maximize = group.flag("maximize");
        double sign = maximize ? -1 : 1;

        Map<String, Object> state = stateFor(params.get(0));
        state.putIfAbsent("func_evals", 0);
        state.putIfAbsent("n_iter", 0);

        Tensor origLoss = evaluate(closure);
        double loss = sign * origLoss.item();
        int currentEvals = 1;
        increment(state, "func_evals", 1);

        Tensor flatGrad = gatherFlatGrad(maximize);
        if (maxAbs(flatGrad) <= toleranceGrad) return origLoss;

        Tensor d = (Tensor) state.get("d");
        double t =
                switch (state.get("t")) {
                    case Number n -> n.doubleValue();
                    case Tensor tensor -> tensor.item(); // PyTorch's first-iteration t is a 0-d tensor
                    case null, default -> 0;
                };
        List<Tensor> oldDirs = tensorList(state.get("old_dirs"));
        List<Tensor> oldStps = tensorList(state.get("old_stps"));
        List<Tensor> ro = tensorList(state.get("ro"));
        Object hDiag = state.get("H_diag");
        Tensor prevFlatGrad = (Tensor) state.get("prev_flat_grad");
        Object prevLoss = state.get("prev_loss");
        boolean optCond = false;

        int nIter = 0;
        while (nIter < maxIter) {
            nIter++;
            int globalIter = increment(state, "n_iter", 1);

            // Search direction: steepest descent first, then the two-loop recursion over the history.
            if (globalIter == 1) {
                d = flatGrad.neg();
                oldDirs = new ArrayList<>();
                oldStps = new ArrayList<>();
                ro = new ArrayList<>();
                hDiag = 1;
            } else {
                Tensor y = flatGrad.sub(prevFlatGrad);
                Tensor s = d.mul(t);
                Tensor ys = y.dot(s);
                if (ys.item() > 1e-10) {
                    if (oldDirs.size() == historySize) {
                        oldDirs.remove(0);
                        oldStps.remove(0);
                        ro.remove(0);
                    }
                    oldDirs.add(y);
                    oldStps.add(s);
                    ro.add(ys.reciprocal());
                    hDiag = ys.div(y.dot(y));
                }
                int numOld = oldDirs.size();
                List<Tensor> al = alBuffer(state, historySize);
                Tensor q = flatGrad.neg();
                for (int i = numOld - 1; i >= 0; i--) {
                    al.set(i, oldStps.get(i).dot(q).mul(ro.get(i)));
                    addScaled(q, oldDirs.get(i), -al.get(i).item());
                }
                Tensor r = hDiag instanceof Tensor h ? q.mul(h) : q.mul(((Number) hDiag).doubleValue());
                for (int i = 0; i < numOld; i++) {
                    Tensor be = oldDirs.get(i).dot(r).mul(ro.get(i));
                    addScaled(r, oldStps.get(i), al.get(i).sub(be).item());
                }
                d = r;
            }
            if (prevFlatGrad == null) prevFlatGrad = flatGrad.clone();
            else prevFlatGrad.copy_(flatGrad);
            prevLoss = loss;

            // Step length: a scaled first step (|g|_1 can be large), lr afterwards.
            t = globalIter == 1 ? firstStep(flatGrad, lr) : lr;
            double gtd = flatGrad.dot(d).item();
            if (gtd > -toleranceChange) break;

            int lsEvals = 0;
            if (lineSearchFn != null) {
                if (!"strong_wolfe".equals(lineSearchFn)) throw new TorchException("only 'strong_wolfe' is supported");
                List<Tensor> xInit = cloneParams();
                Tensor direction = d;
                StrongWolfe.Result res = StrongWolfe.search(
                        step -> directionalEvaluate(closure, xInit, step, direction, maximize),
                        t,
                        d,
                        loss,
                        flatGrad,
                        gtd,
                        toleranceChange);
                loss = res.loss();
                flatGrad = res.flatGrad();
                t = res.t();
                lsEvals = res.evals();
                addGrad(t, d);
                optCond = maxAbs(flatGrad) <= toleranceGrad;
            } else {
                addGrad(t, d);
                if (nIter != maxIter) {
                    // Re-evaluate only when another iteration follows (useless in a stochastic setting otherwise).
                    loss = sign * evaluate(closure).item();
                    flatGrad = gatherFlatGrad(maximize);
                    optCond = maxAbs(flatGrad) <= toleranceGrad;
                    lsEvals = 1;
                }
            }
            currentEvals += lsEvals;
            increment(state, "func_evals", lsEvals);

            if (nIter == maxIter) break;
            if (currentEvals >= maxEval) break;
            if (optCond) break;
            if (maxAbs(d.mul(t)) <= toleranceChange) break;
            if (Math.abs(loss - ((Number) prevLoss).doubleValue()) < toleranceChange) break;
        }

        state.put("d", d);
        state.put("t", t);
        state.put("old_dirs", oldDirs);
        state.put("old_stps", oldStps);
        state.put("ro", ro);
        state.put("H_diag", hDiag);
        state.put("prev_flat_grad", prevFlatGrad);
        state.put("prev_loss", prevLoss);
        return origLoss;
    }

    /**
     * {@code min(1, 1 / |g|_1) * lr}, with PyTorch's arithmetic: the reciprocal is a tensor in the gradient's dtype.
     */
    private static double firstStep(Tensor flatGrad, double lr) {
        Tensor inv = flatGrad.abs().sum().reciprocal();
        return inv.item() < 1.0 ? inv.mul(lr).item() : lr;
    }

    /** The closure under grad mode, as LBFGS always calls it. */
    private static Tensor evaluate(Supplier<Tensor> closure) {
        try (var _ = GradMode.set(true)) {
            return closure.get();
        }
    }

    private static int increment(Map<String, Object> state, String key, int by) {
        int v = ((Number) state.get(key)).intValue() + by;
        state.put(key, v);
        return v;
    }

    @SuppressWarnings("unchecked")
    private static List<Tensor> tensorList(Object v) {
        return v == null ? null : new ArrayList<>((List<Tensor>) v);
    }

    /** {@code state["al"]}, the two-loop coefficients, created as {@code [None] * history_size}. */
    @SuppressWarnings("unchecked")
    private static List<Tensor> alBuffer(Map<String, Object> state, int historySize) {
        Object al = state.get("al");
        if (al instanceof ArrayList<?> list) return (List<Tensor>) list;
        List<Tensor> created = al == null
                ? new ArrayList<>(Collections.nCopies(historySize, null))
                : new ArrayList<>((List<Tensor>) al);
        state.put("al", created);
        return created;
    }

    private static double maxAbs(Tensor t) {
        return t.abs().max().item();
    }

    /** {@code x.add_(v, alpha=alpha)}. */
    private static void addScaled(Tensor x, Tensor v, double alpha) {
        Dispatcher.callOut(PointwiseOps.ADD, new Tensor[] {x}, x, v, alpha);
    }

    /** Each parameter as real numbers: complex parameters through their real view. */
    private static Tensor realView(Tensor p) {
        return p.isComplex() ? Torch.viewAsReal(p) : p;
    }

    /** The gradients concatenated into one flat vector (missing ones as zeros), negated under maximize. */
    private Tensor gatherFlatGrad(boolean maximize) {
        List<Tensor> views = new ArrayList<>(params.size());
        for (Tensor p : params) {
            Tensor g = p.grad() == null
                    ? Torch.zeros(new long[] {p.numel()}, p.dtype())
                    : p.grad().reshape(-1);
            views.add(realView(g).reshape(-1));
        }
        Tensor flat = Torch.cat(views, 0);
        return maximize ? flat.neg() : flat;
    }

    /** {@code p += step * update[slice of p]} for every parameter. */
    private void addGrad(double step, Tensor update) {
        long offset = 0;
        for (Tensor p : params) {
            Tensor real = realView(p);
            long n = real.numel();
            addScaled(real, update.slice(0, offset, offset + n).view(real.shape()), step);
            offset += n;
        }
    }

    private List<Tensor> cloneParams() {
        List<Tensor> out = new ArrayList<>(params.size());
        for (Tensor p : params) out.add(p.clone());
        return out;
    }

    private void setParams(List<Tensor> values) {
        for (int i = 0; i < params.size(); i++) params.get(i).copy_(values.get(i));
    }

    /** Loss and flat gradient at {@code x + t·d}; the parameters are reset to {@code x} afterwards. */
    private StrongWolfe.Evaluation directionalEvaluate(
            Supplier<Tensor> closure, List<Tensor> x, double t, Tensor d, boolean maximize) {
        addGrad(t, d);
        double loss = (maximize ? -1 : 1) * evaluate(closure).item();
        Tensor flatGrad = gatherFlatGrad(maximize);
        setParams(x);
        return new StrongWolfe.Evaluation(loss, flatGrad);
    }
}
