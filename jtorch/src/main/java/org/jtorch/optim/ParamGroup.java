package org.jtorch.optim;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SequencedCollection;
import java.util.Set;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.TorchTypeException;

/**
 * One entry of {@code optimizer.param_groups}: parameters plus the hyper-parameters that apply to them.
 *
 * <p>Users build groups with {@link #of(Iterable, OptimizerOptions)} from {@code X.Options.overrides()}; once added to
 * an optimizer the group holds every hyper-parameter (its overrides first, then the optimizer's defaults, the key order
 * of PyTorch's group dict). Hyper-parameters stay mutable through {@link #set}, which is how learning-rate schedulers
 * work; the parameter list is fixed.
 */
public final class ParamGroup {
    private final List<Tensor> params;
    private final LinkedHashMap<String, Object> options;

    ParamGroup(List<Tensor> params, Map<String, Object> options) {
        this.params = Collections.unmodifiableList(new ArrayList<>(params));
        this.options = new LinkedHashMap<>(options);
    }

    /** A group of {@code params} that uses the optimizer's defaults. */
    public static ParamGroup of(Iterable<Tensor> params) {
        return new ParamGroup(ordered(params), Map.of());
    }

    /**
     * A group of {@code params} overriding the values set on {@code overrides} ({@code {"params": ..., "lr": ...}}).
     */
    public static ParamGroup of(Iterable<Tensor> params, OptimizerOptions<?> overrides) {
        return new ParamGroup(ordered(params), overrides.asMap());
    }

    /** A group of one parameter ({@code {"params": tensor}}). */
    public static ParamGroup of(Tensor param) {
        return new ParamGroup(List.of(param), Map.of());
    }

    private static List<Tensor> ordered(Iterable<Tensor> params) {
        if (params instanceof Set<?> && !(params instanceof SequencedCollection<?>)) {
            throw new TorchTypeException("optimizer parameters need to be organized in ordered collections, but the "
                    + "ordering of tensors in sets will change between runs. Please use a list instead.");
        }
        List<Tensor> list = new ArrayList<>();
        params.forEach(list::add);
        return list;
    }

    /** {@code group["params"]}: the parameters, unmodifiable. */
    public List<Tensor> params() {
        return params;
    }

    /** The hyper-parameters in key order, unmodifiable view. */
    public Map<String, Object> options() {
        return Collections.unmodifiableMap(options);
    }

    /** Whether {@code key} is set in this group. */
    public boolean has(String key) {
        return options.containsKey(key);
    }

    /** {@code group[key]}; null when not set. */
    public Object get(String key) {
        return options.get(key);
    }

    /** {@code group[key] = value} (schedulers change {@code lr} this way). */
    public void set(String key, Object value) {
        options.put(key, value);
    }

    /** {@code group.setdefault(key, value)}. */
    public Object setDefault(String key, Object value) {
        return options.putIfAbsent(key, value) == null ? value : options.get(key);
    }

    /** {@code group["lr"]} as a double (a one-element tensor learning rate is read). */
    public double lr() {
        return doubleValue("lr");
    }

    /** Sets {@code group["lr"]}. */
    public void lr(double lr) {
        options.put("lr", lr);
    }

    /** A numeric hyper-parameter: a Java number or a one-element tensor. */
    public double doubleValue(String key) {
        return toDouble(key, options.get(key));
    }

    /** A boolean hyper-parameter; an unset or None value reads as false. */
    public boolean flag(String key) {
        return Boolean.TRUE.equals(options.get(key));
    }

    /** Element {@code i} of a tuple-valued hyper-parameter such as {@code betas}. */
    public double tupleValue(String key, int i) {
        Object v = options.get(key);
        if (v instanceof List<?> l) return toDouble(key, l.get(i));
        if (v instanceof double[] a) return a[i];
        throw new TorchTypeException(key + " must be a tuple of numbers, got " + v);
    }

    static double toDouble(String key, Object v) {
        if (v instanceof Number n) return n.doubleValue();
        if (v instanceof Tensor t) {
            if (t.numel() != 1) throw new TorchException("Tensor " + key + " must be 1-element");
            return t.item();
        }
        throw new TorchTypeException(key + " must be a number or a 1-element tensor, got " + v);
    }

    @Override
    public String toString() {
        return "ParamGroup(" + params.size() + " params, " + options + ")";
    }
}
