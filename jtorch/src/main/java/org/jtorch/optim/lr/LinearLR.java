package org.jtorch.optim.lr;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jtorch.optim.Optimizer;

/**
 * {@code LinearLR}: scales the rates by a factor that moves linearly from {@code start_factor} to {@code end_factor}
 * over {@code total_iters} epochs.
 */
public final class LinearLR extends LRScheduler {
    private double startFactor;
    private double endFactor;
    private int totalIters;

    /** {@code LinearLR(optimizer)}: from 1/3 to 1 over 5 epochs. */
    public LinearLR(Optimizer optimizer) {
        this(optimizer, 1.0 / 3, 1.0, 5);
    }

    /** {@code LinearLR(optimizer, start_factor, end_factor, total_iters)}. */
    public LinearLR(Optimizer optimizer, double startFactor, double endFactor, int totalIters) {
        this(optimizer, startFactor, endFactor, totalIters, -1);
    }

    /** {@code LinearLR(optimizer, start_factor, end_factor, total_iters, last_epoch)}. */
    public LinearLR(Optimizer optimizer, double startFactor, double endFactor, int totalIters, int lastEpoch) {
        if (startFactor > 1.0 || startFactor <= 0) {
            throw new IllegalArgumentException(
                    "Starting multiplicative factor expected to be greater than 0 and less or equal to 1.");
        }
        if (endFactor > 1.0 || endFactor < 0)
            throw new IllegalArgumentException("Ending multiplicative factor expected to be between 0 and 1.");
        this.startFactor = startFactor;
        this.endFactor = endFactor;
        this.totalIters = totalIters;
        super(optimizer, lastEpoch);
    }

    @Override
    protected List<Double> computeLr() {
        List<Double> lrs = groupLrs();
        if (lastEpoch == 0) {
            lrs.replaceAll(lr -> lr * startFactor);
        } else if (!isInitial && lastEpoch <= totalIters) {
            // The ratio of consecutive closed-form factors.
            double ratio = 1.0
                    + (endFactor - startFactor)
                            / (totalIters * startFactor + (lastEpoch - 1) * (endFactor - startFactor));
            lrs.replaceAll(lr -> lr * ratio);
        }
        return lrs;
    }

    @Override
    protected List<Double> closedFormLr() {
        List<Double> out = new ArrayList<>();
        for (double base : baseLrs) {
            out.add(base * (startFactor + (endFactor - startFactor) * Math.min(totalIters, lastEpoch) / totalIters));
        }
        return out;
    }

    @Override
    protected void writeOwnState(Map<String, Object> sd) {
        sd.put("start_factor", startFactor);
        sd.put("end_factor", endFactor);
        sd.put("total_iters", totalIters);
    }

    @Override
    protected void readOwnState(Map<String, Object> sd) {
        if (sd.containsKey("start_factor")) startFactor = ((Number) sd.get("start_factor")).doubleValue();
        if (sd.containsKey("end_factor")) endFactor = ((Number) sd.get("end_factor")).doubleValue();
        if (sd.containsKey("total_iters")) totalIters = ((Number) sd.get("total_iters")).intValue();
    }
}
