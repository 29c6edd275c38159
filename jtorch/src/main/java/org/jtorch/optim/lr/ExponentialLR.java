package org.jtorch.optim.lr;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jtorch.optim.Optimizer;

/** {@code ExponentialLR}: multiplies the rates by {@code gamma} every epoch. */
public final class ExponentialLR extends LRScheduler {
    private double gamma;

    /** {@code ExponentialLR(optimizer, gamma)}. */
    public ExponentialLR(Optimizer optimizer, double gamma) {
        this(optimizer, gamma, -1);
    }

    /** {@code ExponentialLR(optimizer, gamma, last_epoch)}. */
    public ExponentialLR(Optimizer optimizer, double gamma, int lastEpoch) {
        this.gamma = gamma;
        super(optimizer, lastEpoch);
    }

    @Override
    protected List<Double> computeLr() {
        List<Double> lrs = groupLrs();
        // A resumed scheduler's initial step must not move the rates one epoch ahead.
        if (!isInitial) lrs.replaceAll(lr -> lr * gamma);
        return lrs;
    }

    @Override
    protected List<Double> closedFormLr() {
        List<Double> out = new ArrayList<>();
        for (double base : baseLrs) out.add(base * Math.pow(gamma, lastEpoch));
        return out;
    }

    @Override
    protected void writeOwnState(Map<String, Object> sd) {
        sd.put("gamma", gamma);
    }

    @Override
    protected void readOwnState(Map<String, Object> sd) {
        if (sd.containsKey("gamma")) gamma = ((Number) sd.get("gamma")).doubleValue();
    }
}
