package org.jtorch.optim;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.SequencedCollection;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.TorchTypeException;
import org.jtorch.Warnings;
import org.jtorch.autograd.GradMode;
import org.jtorch.compile.CompileOptions;

/**
 * {@code torch.optim.Optimizer}: parameter groups with per-group hyper-parameters, per-parameter state,
 * {@code zero_grad}, {@code step} and {@code state_dict}/{@code load_state_dict} in PyTorch's layout.
 *
 * <p>Subclasses pass their {@code X.Options.defaults()} and a validator of hyper-parameters (which checks the defaults
 * before any group is built) and implement {@link #stepGroup}, which runs once per group inside {@link #step} with grad
 * mode off (on for {@code differentiable=True}). An optimizer that must evaluate the closure inside its update (LBFGS)
 * overrides {@link #step(Supplier)} instead.
 *
 * <p>State maps are keyed by PyTorch's names ({@code "step"}, {@code "exp_avg"}, ...) and kept in insertion order;
 * parameters without a gradient get no state.
 */
public abstract class Optimizer {
    private final Map<String, Object> defaults;
    private final Consumer<Map<String, Object>> validator;
    private final List<ParamGroup> paramGroups = new ArrayList<>();
    /**
     * Keyed by parameter (Tensor has identity equality); Integer keys hold loaded state of unknown indices, as PyTorch
     * keeps them.
     */
    private Map<Object, Map<String, Object>> state = new LinkedHashMap<>();

    /** {@link org.jtorch.autograd.Autograd#backwardPasses()} when this optimizer was built or last stepped. */
    private long backwardPassesSeen = org.jtorch.autograd.Autograd.backwardPasses();

    private boolean warnedNoGrad;

    /** The compiled step, after {@link #compileStep()}; null: every group steps eagerly. */
    private CompiledStep compiledStep;

    private final List<Consumer<Optimizer>> preHooks = new ArrayList<>();
    private final List<Consumer<Optimizer>> postHooks = new ArrayList<>();

    /**
     * {@code Optimizer(params, defaults)} with a flat list of parameters (one group). {@code validator} checks one set
     * of hyper-parameters (the defaults, then every group) and throws PyTorch's error ({@code ValueError} →
     * IllegalArgumentException, {@code RuntimeError} → TorchException). It is a function of the map alone, passed in
     * rather than overridden, because it runs while the subclass is still being constructed.
     */
    protected Optimizer(
            Iterable<Tensor> params, OptimizerOptions<?> defaults, Consumer<Map<String, Object>> validator) {
        this.defaults = Collections.unmodifiableMap(new LinkedHashMap<>(defaults.asMap()));
        this.validator = validator;
        validator.accept(this.defaults);
        if (params instanceof Set<?> && !(params instanceof SequencedCollection<?>)) {
            Warnings.warn(
                    Warnings.Category.FUTURE_WARNING,
                    "Passing a set as the params argument of an optimizer is "
                            + "deprecated: sets have no deterministic order, "
                            + "so the order of the parameters (and of the "
                            + "optimizer's state_dict) can change between runs. This will become an error in a future "
                            + "release. Please use a list instead.");
        }
        List<Tensor> list = new ArrayList<>();
        params.forEach(list::add);
        if (list.isEmpty()) throw new IllegalArgumentException("optimizer got an empty parameter list");
        addParamGroup(new ParamGroup(list, Map.of()));
    }

    /** {@code Optimizer([{"params": ..., **overrides}, ...], defaults)}; {@code validator} as above. */
    protected Optimizer(
            List<ParamGroup> groups, OptimizerOptions<?> defaults, Consumer<Map<String, Object>> validator) {
        this.defaults = Collections.unmodifiableMap(new LinkedHashMap<>(defaults.asMap()));
        this.validator = validator;
        validator.accept(this.defaults);
        if (groups.isEmpty()) throw new IllegalArgumentException("optimizer got an empty parameter list");
        for (ParamGroup g : groups) addParamGroup(g);
    }

    /** Updates the parameters of one group; called by {@link #step(Supplier)} under the right grad mode. */
    protected void stepGroup(ParamGroup group) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " overrides step() instead");
    }

    // ---- groups -------------------------------------------------------------------------------------

    /** {@code optimizer.defaults}: the constructor's hyper-parameters, unmodifiable. */
    public Map<String, Object> defaults() {
        return defaults;
    }

    /** {@code optimizer.param_groups}: the live groups (hyper-parameters mutable, list unmodifiable). */
    public List<ParamGroup> paramGroups() {
        return Collections.unmodifiableList(paramGroups);
    }

    /**
     * {@code add_param_group(group)}: fills the defaults the group does not override, checks the parameters (leaf
     * tensors, none already in another group) and appends a new group.
     */
    public final void addParamGroup(ParamGroup group) {
        LinkedHashMap<String, Object> options = new LinkedHashMap<>(group.options());
        boolean differentiable = Boolean.TRUE.equals(defaults.get("differentiable"));
        for (Tensor p : group.params()) {
            if (p == null)
                throw new TorchTypeException("optimizer can only optimize Tensors, but one of the params is NoneType");
            if (!differentiable && !(p.isLeaf() || p.retainsGrad())) {
                throw new IllegalArgumentException("can't optimize a non-leaf Tensor");
            }
        }
        defaults.forEach(options::putIfAbsent);
        validator.accept(options);
        Set<Tensor> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        boolean duplicates = false;
        for (Tensor p : group.params()) duplicates |= !seen.add(p);
        if (duplicates) {
            Warnings.warn("optimizer contains a parameter group with duplicate parameters; in future, this will cause "
                    + "an error; see github.com/pytorch/pytorch/issues/40967 for more information");
        }
        for (ParamGroup existing : paramGroups) {
            for (Tensor p : existing.params()) {
                if (seen.contains(p))
                    throw new IllegalArgumentException("some parameters appear in more than one parameter group");
            }
        }
        paramGroups.add(new ParamGroup(group.params(), options));
    }

    // ---- state --------------------------------------------------------------------------------------

    /** {@code optimizer.state[p]}: the parameter's state, or an empty map when it has none yet. */
    public Map<String, Object> state(Tensor p) {
        Map<String, Object> s = state.get(p);
        return s == null ? Map.of() : Collections.unmodifiableMap(s);
    }

    /** The mutable state of {@code p}, created empty on first use (PyTorch's {@code defaultdict}). */
    protected Map<String, Object> stateFor(Tensor p) {
        return state.computeIfAbsent(p, k -> new LinkedHashMap<>());
    }

    /**
     * {@code state_dict()}: state by parameter index and one map per group (hyper-parameters then {@code "params"}).
     * Tensors are shared with the optimizer, not copied, as in PyTorch.
     */
    public OptimizerStateDict stateDict() {
        Map<Tensor, Integer> index = new IdentityHashMap<>();
        List<Map<String, Object>> groups = new ArrayList<>();
        int start = 0;
        for (ParamGroup g : paramGroups) {
            Map<String, Object> packed = new LinkedHashMap<>(g.options());
            List<Integer> ids = new ArrayList<>();
            int i = start;
            for (Tensor p : g.params()) index.putIfAbsent(p, i++);
            for (Tensor p : g.params()) ids.add(index.get(p));
            packed.put("params", Collections.unmodifiableList(ids));
            start += ids.size();
            groups.add(packed);
        }
        Map<Integer, Map<String, Object>> packedState = new LinkedHashMap<>();
        state.forEach(
                (k, v) -> packedState.put(k instanceof Tensor t ? index.get(t) : (Integer) k, new LinkedHashMap<>(v)));
        return new OptimizerStateDict(packedState, groups);
    }

    /**
     * {@code load_state_dict(sd)}: takes the hyper-parameters and state of {@code sd}; state tensors are cast to their
     * parameter's dtype except {@code step} (kept, or float32 for fused/capturable groups). Everything is checked and
     * built before anything is replaced, so a failed load leaves this optimizer unchanged.
     */
    public void loadStateDict(OptimizerStateDict sd) {
        if (sd == null || sd.state() == null || sd.paramGroups() == null) {
            throw new NoSuchElementException(sd == null || sd.state() == null ? "'state'" : "'param_groups'");
        }
        List<Map<String, Object>> saved = sd.paramGroups();
        if (saved.size() != paramGroups.size()) {
            throw new IllegalArgumentException("loaded state dict has a different number of parameter groups");
        }
        List<List<?>> savedIds = new ArrayList<>();
        for (Map<String, Object> g : saved) {
            if (!(g.get("params") instanceof List<?> ids)) throw new NoSuchElementException("'params'");
            savedIds.add(ids);
        }
        for (int i = 0; i < saved.size(); i++) {
            if (savedIds.get(i).size() != paramGroups.get(i).params().size()) {
                throw new IllegalArgumentException("loaded state dict contains a parameter group that doesn't match "
                        + "the size of optimizer's group");
            }
        }
        // Indices may arrive as any integral type (a deserialised list holds Longs); keys are compared as ints.
        Map<Integer, Tensor> idMap = new LinkedHashMap<>();
        for (int i = 0; i < saved.size(); i++) {
            List<?> ids = savedIds.get(i);
            for (int j = 0; j < ids.size(); j++)
                idMap.put(index(ids.get(j)), paramGroups.get(i).params().get(j));
        }
        Map<Object, Map<String, Object>> newState = new LinkedHashMap<>();
        for (var e : sd.state().entrySet()) {
            Tensor p = idMap.get(index(e.getKey()));
            if (p == null) {
                newState.put(e.getKey(), new LinkedHashMap<>(e.getValue()));
                continue;
            }
            Map<String, Object> s = newState.computeIfAbsent(p, k -> new LinkedHashMap<>());
            boolean floatStep = stepIsFloat32(saved, e.getKey());
            for (var kv : e.getValue().entrySet()) s.put(kv.getKey(), cast(p, kv.getValue(), kv.getKey(), floatStep));
        }
        List<ParamGroup> newGroups = new ArrayList<>();
        for (int i = 0; i < saved.size(); i++) {
            Map<String, Object> options = new LinkedHashMap<>();
            saved.get(i).forEach((k, v) -> {
                if (!k.equals("params")) options.put(k, deepCopy(v));
            });
            newGroups.add(new ParamGroup(paramGroups.get(i).params(), options));
        }
        paramGroups.clear();
        paramGroups.addAll(newGroups);
        state = newState;
    }

    /**
     * {@code load_state_dict(sd)} from the plain structure {@code torch.load} returns for a saved optimizer state dict
     * ({@code {"state": ..., "param_groups": ...}}, written by JTorch or by PyTorch).
     */
    public void loadStateDict(Map<?, ?> sd) {
        loadStateDict(OptimizerStateDict.fromPyTorch(sd));
    }

    private static Integer index(Object id) {
        if (id instanceof Number n) return n.intValue();
        throw new TorchTypeException("optimizer state dict: parameter indices must be integers, got " + id);
    }

    /** PyTorch keeps {@code step} as saved unless the owning group is fused or capturable (then float32). */
    private static boolean stepIsFloat32(List<Map<String, Object>> saved, Object id) {
        for (Map<String, Object> g : saved) {
            if (((List<?>) g.get("params")).stream().anyMatch(x -> index(x).equals(index(id)))) {
                return Boolean.TRUE.equals(g.get("fused")) || Boolean.TRUE.equals(g.get("capturable"));
            }
        }
        return false;
    }

    private static Object cast(Tensor p, Object value, String key, boolean floatStep) {
        if (value instanceof Tensor t) {
            if ("step".equals(key)) return floatStep && t.dtype() != DType.FLOAT32 ? t.to(DType.FLOAT32) : t;
            return p.isFloatingPoint() && t.dtype() != p.dtype() ? t.to(p.dtype()) : t;
        }
        if (value instanceof Map<?, ?> m) {
            Map<Object, Object> out = new LinkedHashMap<>();
            m.forEach((k, v) -> out.put(k, cast(p, v, String.valueOf(k), floatStep)));
            return out;
        }
        if (value instanceof List<?> l) {
            List<Object> out = new ArrayList<>(l.size());
            for (Object v : l) out.add(cast(p, v, key, floatStep));
            return out;
        }
        return value;
    }

    private static Object deepCopy(Object v) {
        if (v instanceof List<?> l) {
            List<Object> out = new ArrayList<>(l.size());
            for (Object x : l) out.add(deepCopy(x));
            return Collections.unmodifiableList(out);
        }
        if (v instanceof Tensor t) return t.clone();
        return v;
    }

    // ---- stepping -----------------------------------------------------------------------------------

    /** {@code zero_grad()}: sets every gradient to null. */
    public void zeroGrad() {
        zeroGrad(true);
    }

    /** {@code zero_grad(set_to_none)}: null the gradients, or detach them from any graph and zero them. */
    public void zeroGrad(boolean setToNone) {
        List<Tensor> toZero = new ArrayList<>();
        for (ParamGroup g : paramGroups) {
            for (Tensor p : g.params()) {
                Tensor grad = p.grad();
                if (grad == null) continue;
                if (setToNone) {
                    p.setGrad(null);
                    continue;
                }
                if (grad.gradFn() != null) grad.detach_();
                else grad.requiresGrad(false);
                toZero.add(grad);
            }
        }
        if (!toZero.isEmpty()) org.jtorch.foreach.Foreach.zero_(toZero);
    }

    /** {@code step()}: one update, no closure; returns null. */
    public final Tensor step() {
        return step(null);
    }

    /**
     * {@code step(closure)}: evaluates {@code closure} (may be null) with grad mode on, then updates every group;
     * returns the closure's loss or null.
     */
    public Tensor step(Supplier<Tensor> closure) {
        runStepPreHooks();
        Tensor loss = null;
        if (closure != null) {
            try (var _ = GradMode.set(true)) {
                loss = closure.get();
            }
        }
        warnIfNoGradient();
        try (var _ = GradMode.set(Boolean.TRUE.equals(defaults.get("differentiable")))) {
            for (int i = 0; i < paramGroups.size(); i++) {
                ParamGroup group = paramGroups.get(i);
                if (compiledStep == null || !compiledStep.step(i, stepGraph(group))) stepGroup(group);
            }
        }
        runStepPostHooks();
        return loss;
    }

    /**
     * {@code torch.compile(opt.step)}: from now on {@link #step()} runs each group's whole multi-tensor update as one
     * compiled graph, its independent per-parameter kernels grouped into combo kernels
     * ({@code CompileOptions.defaults().option("combo_kernels", true)}), the new parameters and state stored in place.
     * See {@link #compileStep(CompileOptions)}.
     */
    public final void compileStep() {
        compileStep(CompileOptions.defaults().option("combo_kernels", true));
    }

    /**
     * {@link #compileStep()} with the given compile options ({@code options.disable()} returns to eager steps).
     *
     * <p>The update is captured on its first step and compiled by the options' backend; later steps reuse it while its
     * guards hold and recompile when the set of parameters with gradients, a shape or dtype, or a hyper-parameter other
     * than the learning rate changes. The learning rate and the bias corrections enter the graph as a tensor, so a
     * scheduler changing the rate every step does not recompile. The compiled step computes the eager foreach step's
     * arithmetic op for op, so with the {@code "inductor"} backend its results are bitwise the eager foreach step's.
     * Groups of float32 or float64 CPU parameters are compiled; other groups, {@code fused=True} and
     * {@code differentiable=True} groups, and SGD's first step with momentum (which creates the buffers) run eagerly.
     * Available for {@link Adam}, {@link AdamW} and {@link SGD}; other optimizers throw {@link TorchException}.
     */
    public final void compileStep(CompileOptions options) {
        if (!hasStepGraph()) {
            throw new TorchException(getClass().getSimpleName() + ".compileStep(): no compiled step for this optimizer "
                    + "(available for Adam, AdamW and SGD)");
        }
        compiledStep =
                options.disable() ? null : new CompiledStep(options, getClass().getSimpleName() + ".step");
    }

    /** Whether {@link #compileStep()} was called (and not disabled since). */
    public final boolean isStepCompiled() {
        return compiledStep != null;
    }

    /** Whether {@link #stepGraph} gives this optimizer's update (it then supports {@link #compileStep()}). */
    boolean hasStepGraph() {
        return false;
    }

    /** The update of {@code group} as a step graph for {@link #compileStep()}; null: the group steps eagerly. */
    StepGraph stepGraph(ParamGroup group) {
        return null;
    }

    /**
     * Warns once per optimizer when a backward pass ran since it was built (or last stepped) and yet none of its
     * parameters has a gradient: the silent trap of an optimizer holding tensors that are no longer the model's (the
     * step would change nothing and the loss would stay flat). JTorch's own check; PyTorch's {@code step()} skips
     * parameters without gradients silently.
     */
    protected final void warnIfNoGradient() {
        long passes = org.jtorch.autograd.Autograd.backwardPasses();
        boolean backwardRan = passes != backwardPassesSeen;
        backwardPassesSeen = passes;
        if (warnedNoGrad || !backwardRan) return;
        for (ParamGroup g : paramGroups) for (Tensor p : g.params()) if (p.grad() != null) return;
        warnedNoGrad = true;
        Warnings.warn(getClass().getSimpleName() + ".step(): a backward pass ran, but none of this optimizer's "
                + "parameters has a gradient, so this step changes nothing. Are they still the model's parameters "
                + "(was the model rebuilt, or were its tensors replaced, after the optimizer was made)?");
    }

    /** Runs the step pre-hooks; an optimizer that overrides {@link #step(Supplier)} calls it first. */
    protected final void runStepPreHooks() {
        for (Consumer<Optimizer> h : List.copyOf(preHooks)) h.accept(this);
    }

    /** Runs the step post-hooks; an optimizer that overrides {@link #step(Supplier)} calls it last. */
    protected final void runStepPostHooks() {
        for (Consumer<Optimizer> h : List.copyOf(postHooks)) h.accept(this);
    }

    /** {@code register_step_pre_hook(hook)}: runs before every step; closing the handle removes it. */
    public AutoCloseable registerStepPreHook(Consumer<Optimizer> hook) {
        preHooks.add(hook);
        return () -> preHooks.remove(hook);
    }

    /** {@code register_step_post_hook(hook)}: runs after every step; closing the handle removes it. */
    public AutoCloseable registerStepPostHook(Consumer<Optimizer> hook) {
        postHooks.add(hook);
        return () -> postHooks.remove(hook);
    }

    // ---- helpers for subclasses -----------------------------------------------------------------------

    /** ValueError {@code "Invalid <what>: <value>"} unless {@code value >= 0}, PyTorch's hyper-parameter check. */
    protected static void requireNonNegative(String what, double value) {
        if (!(value >= 0)) throw new IllegalArgumentException("Invalid " + what + ": " + PyRepr.of(value));
    }

    /** A numeric hyper-parameter of a not-yet-built group map. */
    protected static double number(Map<String, Object> hyperParameters, String key) {
        return ParamGroup.toDouble(key, hyperParameters.get(key));
    }

    /** Python's repr of a hyper-parameter value, for error messages. */
    protected static String repr(Object value) {
        return PyRepr.of(value);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(getClass().getSimpleName()).append(" (");
        for (int i = 0; i < paramGroups.size(); i++) {
            sb.append("\nParameter Group ").append(i);
            for (var e : paramGroups.get(i).options().entrySet()) {
                sb.append("\n    ").append(e.getKey()).append(": ").append(PyRepr.of(e.getValue()));
            }
        }
        return sb.append("\n)").toString();
    }
}
