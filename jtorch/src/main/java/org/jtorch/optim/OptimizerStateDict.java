package org.jtorch.optim;

import java.util.List;
import java.util.Map;

/**
 * {@code Optimizer.state_dict()}: per-parameter state keyed by parameter index (consecutive over the
 * groups, in group then parameter order) and one map per group holding every hyper-parameter plus
 * {@code "params"}, the list of the group's indices. Maps keep PyTorch's insertion order.
 */
public record OptimizerStateDict(Map<Integer, Map<String, Object>> state, List<Map<String, Object>> paramGroups) {}
