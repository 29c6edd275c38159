package org.jtorch.optim.lr;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jtorch.optim.Optimizer;

/** {@code ConstantLR}: scales the rates by {@code factor} until epoch {@code total_iters}, then restores them. */
public final class ConstantLR extends LRScheduler {
    private double factor;
    private int totalIters;

    /** {@code ConstantLR(optimizer)}: factor 1/3 for 5 epochs. */
    public ConstantLR(Optimizer optimizer) {
        this(optimizer, 1.0 / 3, 5);
    }

    /** {@code ConstantLR(optimizer, factor, total_iters)}. */
    public ConstantLR(Optimizer optimizer, double factor, int totalIters) {
        this(optimizer, factor, totalIters, -1);
    }

    /** {@code ConstantLR(optimizer, factor, total_iters, last_epoch)}; factor must lie in [0, 1]. */
    public ConstantLR(Optimizer optimizer, double factor, int totalIters, int lastEpoch) {
        if (factor > 1.0 || factor < 0)
            throw new IllegalArgumentException("Constant multiplicative factor expected to be between 0 and 1.");
        this.factor = factor;
        this.totalIters = totalIters;
        super(optimizer, lastEpoch);
    }

    @Override
    protected List<Double> computeLr() {
        List<Double> lrs = groupLrs();
        if (lastEpoch == 0) lrs.replaceAll(lr -> lr * factor);
        else if (lastEpoch == totalIters) lrs.replaceAll(lr -> lr * (1.0 / factor));
        return lrs;
    }

    @Override
    protected List<Double> closedFormLr() {
        List<Double> out = new ArrayList<>();
        for (double base : baseLrs) out.add(base * (factor + (lastEpoch >= totalIters ? 1 : 0) * (1 - factor)));
        return out;
    }

    @Override
    protected void writeOwnState(Map<String, Object> sd) {
        sd.put("factor", factor);
        sd.put("total_iters", totalIters);
    }

    @Override
    protected void readOwnState(Map<String, Object> sd) {
        if (sd.containsKey("factor")) factor = ((Number) sd.get("factor")).doubleValue();
        if (sd.containsKey("total_iters")) totalIters = ((Number) sd.get("total_iters")).intValue();
    }
}
