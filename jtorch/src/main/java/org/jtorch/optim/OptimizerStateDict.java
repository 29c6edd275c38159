package org.jtorch.optim;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtorch.TorchException;
import org.jtorch.io.PyState;

/**
 * {@code Optimizer.state_dict()}: per-parameter state keyed by parameter index (consecutive over the groups, in group
 * then parameter order) and one map per group holding every hyper-parameter plus {@code "params"}, the list of the
 * group's indices. Maps keep PyTorch's insertion order.
 */
public record OptimizerStateDict(Map<Integer, Map<String, Object>> state, List<Map<String, Object>> paramGroups)
        implements PyState {

    /** The plain nested structure PyTorch saves: {@code {"state": {0: {...}}, "param_groups": [...]}}. */
    @Override
    public Map<String, Object> toPyTorch() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("state", state);
        m.put("param_groups", paramGroups);
        return m;
    }

    /**
     * Reads the structure {@link #toPyTorch()} writes (or a file saved by PyTorch), as loaded by
     * {@code org.jtorch.io.Serialization.load}: integer keys and indices may come back as {@code Long}.
     */
    @SuppressWarnings("unchecked")
    public static OptimizerStateDict fromPyTorch(Map<?, ?> m) {
        if (!(m.get("state") instanceof Map<?, ?> st) || !(m.get("param_groups") instanceof List<?> groups)) {
            throw new TorchException(
                    "optimizer state dict must be a map with 'state' (a map) and 'param_groups' (a list)");
        }
        Map<Integer, Map<String, Object>> state = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : st.entrySet()) {
            if (!(e.getKey() instanceof Number k) || !(e.getValue() instanceof Map<?, ?> v)) {
                throw new TorchException("optimizer state dict: state keys must be parameter indices mapping to maps");
            }
            state.put(k.intValue(), new LinkedHashMap<>((Map<String, Object>) v));
        }
        List<Map<String, Object>> out = new ArrayList<>();
        for (Object g : groups) {
            if (!(g instanceof Map<?, ?> group))
                throw new TorchException("optimizer state dict: every param group must be a map");
            Map<String, Object> copy = new LinkedHashMap<>((Map<String, Object>) group);
            if (copy.get("params") instanceof List<?> params) {
                List<Integer> ints = new ArrayList<>(params.size());
                for (Object p : params) ints.add(((Number) p).intValue());
                copy.put("params", ints);
            }
            out.add(copy);
        }
        return new OptimizerStateDict(state, out);
    }
}
