package org.jtorch.optim.lr;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jtorch.optim.Optimizer;

/** {@code StepLR}: multiplies the rates by {@code gamma} every {@code step_size} epochs. */
public final class StepLR extends LRScheduler {
    private int stepSize;
    private double gamma;

    /** {@code StepLR(optimizer, step_size)} with gamma 0.1. */
    public StepLR(Optimizer optimizer, int stepSize) {
        this(optimizer, stepSize, 0.1);
    }

    /** {@code StepLR(optimizer, step_size, gamma)}. */
    public StepLR(Optimizer optimizer, int stepSize, double gamma) {
        this(optimizer, stepSize, gamma, -1);
    }

    /** {@code StepLR(optimizer, step_size, gamma, last_epoch)}. */
    public StepLR(Optimizer optimizer, int stepSize, double gamma, int lastEpoch) {
        this.stepSize = stepSize;
        this.gamma = gamma;
        super(optimizer, lastEpoch);
    }

    @Override
    protected List<Double> computeLr() {
        List<Double> lrs = groupLrs();
        if (lastEpoch == 0 || lastEpoch % stepSize != 0) return lrs;
        lrs.replaceAll(lr -> lr * gamma);
        return lrs;
    }

    @Override
    protected List<Double> closedFormLr() {
        List<Double> out = new ArrayList<>();
        for (double base : baseLrs) out.add(base * Math.pow(gamma, Math.floorDiv(lastEpoch, stepSize)));
        return out;
    }

    @Override
    protected void writeOwnState(Map<String, Object> sd) {
        sd.put("step_size", stepSize);
        sd.put("gamma", gamma);
    }

    @Override
    protected void readOwnState(Map<String, Object> sd) {
        if (sd.containsKey("step_size")) stepSize = ((Number) sd.get("step_size")).intValue();
        if (sd.containsKey("gamma")) gamma = ((Number) sd.get("gamma")).doubleValue();
    }
}
