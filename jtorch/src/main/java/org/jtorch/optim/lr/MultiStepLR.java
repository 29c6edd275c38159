package org.jtorch.optim.lr;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtorch.optim.Optimizer;

/**
 * {@code MultiStepLR}: multiplies the rates by {@code gamma} at each milestone epoch (by {@code gamma^k} for a
 * milestone listed k times).
 */
public final class MultiStepLR extends LRScheduler {
    /** PyTorch's {@code Counter(milestones)}: epoch → multiplicity, in first-occurrence order. */
    private Map<Integer, Integer> milestones;

    private double gamma;

    /** {@code MultiStepLR(optimizer, milestones)} with gamma 0.1. */
    public MultiStepLR(Optimizer optimizer, List<Integer> milestones) {
        this(optimizer, milestones, 0.1);
    }

    /** {@code MultiStepLR(optimizer, milestones, gamma)}. */
    public MultiStepLR(Optimizer optimizer, List<Integer> milestones, double gamma) {
        this(optimizer, milestones, gamma, -1);
    }

    /** {@code MultiStepLR(optimizer, milestones, gamma, last_epoch)}. */
    public MultiStepLR(Optimizer optimizer, List<Integer> milestones, double gamma, int lastEpoch) {
        this.milestones = counter(milestones);
        this.gamma = gamma;
        super(optimizer, lastEpoch);
    }

    private static Map<Integer, Integer> counter(List<Integer> epochs) {
        Map<Integer, Integer> c = new LinkedHashMap<>();
        for (int e : epochs) c.merge(e, 1, Integer::sum);
        return c;
    }

    @Override
    protected List<Double> computeLr() {
        List<Double> lrs = groupLrs();
        Integer count = milestones.get(lastEpoch);
        if (count == null) return lrs;
        lrs.replaceAll(lr -> lr * Math.pow(gamma, count));
        return lrs;
    }

    @Override
    protected List<Double> closedFormLr() {
        List<Integer> sorted = new ArrayList<>();
        milestones.forEach((e, n) -> sorted.addAll(Collections.nCopies(n, e)));
        Collections.sort(sorted);
        int passed = 0;
        while (passed < sorted.size() && sorted.get(passed) <= lastEpoch) passed++;
        List<Double> out = new ArrayList<>();
        for (double base : baseLrs) out.add(base * Math.pow(gamma, passed));
        return out;
    }

    @Override
    protected void writeOwnState(Map<String, Object> sd) {
        sd.put("milestones", new LinkedHashMap<>(milestones));
        sd.put("gamma", gamma);
    }

    @Override
    protected void readOwnState(Map<String, Object> sd) {
        if (sd.get("milestones") instanceof Map<?, ?> m) {
            Map<Integer, Integer> c = new LinkedHashMap<>();
            m.forEach((k, v) -> c.put(((Number) k).intValue(), ((Number) v).intValue()));
            milestones = c;
        }
        if (sd.containsKey("gamma")) gamma = ((Number) sd.get("gamma")).doubleValue();
    }
}
