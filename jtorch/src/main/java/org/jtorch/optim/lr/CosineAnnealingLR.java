package org.jtorch.optim.lr;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jtorch.optim.Optimizer;
import org.jtorch.optim.ParamGroup;

/**
 * {@code CosineAnnealingLR}: {@code eta_min + (base - eta_min)(1 + cos(pi t / T_max)) / 2}, computed recursively from
 * the current rates (so outside changes to the rates carry over); past {@code T_max} the cosine keeps going (the rate
 * rises again), as in PyTorch.
 */
public final class CosineAnnealingLR extends LRScheduler {
    private int tMax;
    private double etaMin;

    /** {@code CosineAnnealingLR(optimizer, T_max)} with eta_min 0. */
    public CosineAnnealingLR(Optimizer optimizer, int tMax) {
        this(optimizer, tMax, 0.0);
    }

    /** {@code CosineAnnealingLR(optimizer, T_max, eta_min)}. */
    public CosineAnnealingLR(Optimizer optimizer, int tMax, double etaMin) {
        this(optimizer, tMax, etaMin, -1);
    }

    /** {@code CosineAnnealingLR(optimizer, T_max, eta_min, last_epoch)}. */
    public CosineAnnealingLR(Optimizer optimizer, int tMax, double etaMin, int lastEpoch) {
        this.tMax = tMax;
        this.etaMin = etaMin;
        super(optimizer, lastEpoch);
    }

    @Override
    protected List<Double> computeLr() {
        if (isInitial) return groupLrs();
        List<ParamGroup> groups = optimizer.paramGroups();
        List<Double> out = new ArrayList<>();
        for (int i = 0; i < groups.size(); i++) {
            double lr = groups.get(i).lr(), base = baseLrs.get(i);
            if (stepCount == 1 && lastEpoch > 0) {
                out.add(etaMin + (base - etaMin) * (1 + Math.cos(lastEpoch * Math.PI / tMax)) / 2);
            } else if (Math.floorMod(lastEpoch - 1 - tMax, 2 * tMax) == 0) {
                // At a trough the recursion would divide by zero: step up by the first increment instead.
                out.add(lr + (base - etaMin) * (1 - Math.cos(Math.PI / tMax)) / 2);
            } else {
                out.add((1 + Math.cos(Math.PI * lastEpoch / tMax))
                                / (1 + Math.cos(Math.PI * (lastEpoch - 1) / tMax))
                                * (lr - etaMin)
                        + etaMin);
            }
        }
        return out;
    }

    @Override
    protected List<Double> closedFormLr() {
        List<Double> out = new ArrayList<>();
        for (double base : baseLrs) out.add(etaMin + (base - etaMin) * (1 + Math.cos(Math.PI * lastEpoch / tMax)) / 2);
        return out;
    }

    @Override
    protected void writeOwnState(Map<String, Object> sd) {
        sd.put("T_max", tMax);
        sd.put("eta_min", etaMin);
    }

    @Override
    protected void readOwnState(Map<String, Object> sd) {
        if (sd.containsKey("T_max")) tMax = ((Number) sd.get("T_max")).intValue();
        if (sd.containsKey("eta_min")) etaMin = ((Number) sd.get("eta_min")).doubleValue();
    }
}
