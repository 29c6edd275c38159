package org.jtorch.nn;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SequencedMap;
import java.util.Set;
import java.util.TreeMap;
import org.jtorch.Tensor;

/**
 * {@code torch.nn.ParameterDict}: parameters registered under string keys, in insertion order. A tensor stored that is
 * not yet a {@link Parameter} is wrapped in one ({@code Parameter(value)}: a leaf over its storage that requires grad),
 * as PyTorch's {@code __setitem__} does; storing under an existing key replaces the value in place.
 */
public final class ParameterDict extends Module {
    /** {@code ParameterDict()}. */
    public ParameterDict() {}

    /** {@code ParameterDict(parameters)}: as {@link #update(Map)}. */
    public ParameterDict(Map<String, Tensor> parameters) {
        update(parameters);
    }

    /** {@code dict[key] = value}; returns the stored parameter. */
    public Tensor put(String key, Tensor value) {
        Tensor p = value == null || Parameter.isParameter(value) ? value : Parameter.of(value);
        registerParameter(key, p);
        return p;
    }

    /**
     * {@code update(parameters)}: puts every entry. An ordered map (a {@link SequencedMap}, PyTorch's
     * {@code OrderedDict}) or another ParameterDict keeps its order; any other map is taken in sorted key order, as
     * PyTorch sorts a plain {@code dict}'s items.
     */
    public void update(Map<String, Tensor> parameters) {
        if (parameters instanceof SequencedMap<String, Tensor>) parameters.forEach(this::put);
        else new TreeMap<>(parameters).forEach(this::put);
    }

    /** {@code update(other)} from another ParameterDict, in its order. */
    public void update(ParameterDict other) {
        other.registeredParameters().forEach(this::put);
    }

    /** {@code dict[key]}: a KeyError (here IllegalArgumentException) for a missing key. */
    public Tensor get(String key) {
        if (!containsKey(key)) throw new IllegalArgumentException("KeyError: '" + key + "'");
        return registeredParameters().get(key);
    }

    /** {@code key in dict}. */
    public boolean containsKey(String key) {
        return registeredParameters().containsKey(key);
    }

    /** {@code pop(key)}: removes the entry and returns its value. */
    public Tensor pop(String key) {
        Tensor v = get(key);
        deleteAttribute(key);
        return v;
    }

    /** {@code clear()}. */
    public void clear() {
        for (String k : keys()) deleteAttribute(k);
    }

    /** {@code len(dict)}. */
    public int size() {
        return registeredParameters().size();
    }

    /** {@code keys()}, in order (a copy). */
    public List<String> keys() {
        return List.copyOf(registeredParameters().keySet());
    }

    /** {@code values()}, in order (a copy; null for an entry stored as None). */
    public List<Tensor> values() {
        return new ArrayList<>(registeredParameters().values());
    }

    /** {@code items()}, in order (a copy). */
    public Set<Map.Entry<String, Tensor>> items() {
        return new LinkedHashMap<>(registeredParameters()).entrySet();
    }

    /** PyTorch's summary line per entry: {@code (a): Parameter containing: [torch.FloatTensor of size 2]}. */
    @Override
    protected String extraRepr() {
        List<String> lines = new ArrayList<>();
        registeredParameters()
                .forEach((k, p) ->
                        lines.add("  (" + k + "): " + (p == null ? "Object of type: NoneType" : Parameter.summary(p))));
        return String.join("\n", lines);
    }
}
