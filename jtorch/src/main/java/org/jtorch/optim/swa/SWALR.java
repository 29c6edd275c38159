package org.jtorch.optim.swa;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jtorch.TorchException;
import org.jtorch.optim.Optimizer;
import org.jtorch.optim.ParamGroup;
import org.jtorch.optim.lr.LRScheduler;

/**
 * {@code torch.optim.swa_utils.SWALR}: anneals each group's learning rate from its current value to its {@code swa_lr}
 * over {@code anneal_epochs} steps, by a cosine ({@code "cos"}, the default) or a straight line ({@code "linear"}),
 * then keeps it there. The rate is recomputed from the group's current one each step (PyTorch undoes the previous
 * step's interpolation first), so a rate changed from outside carries over. Each group gains the key {@code swa_lr},
 * which the optimizer's state dict keeps.
 */
public final class SWALR extends LRScheduler {
    private String annealStrategy;
    private int annealEpochs;

    /** {@code SWALR(optimizer, swa_lr)}: cosine annealing over 10 epochs. */
    public SWALR(Optimizer optimizer, double swaLr) {
        this(optimizer, swaLr, 10, "cos");
    }

    /** {@code SWALR(optimizer, swa_lr, anneal_epochs, anneal_strategy)} with {@code "cos"} or {@code "linear"}. */
    public SWALR(Optimizer optimizer, double swaLr, int annealEpochs, String annealStrategy) {
        this(optimizer, same(swaLr, optimizer), annealEpochs, annealStrategy, -1);
    }

    /**
     * {@code SWALR(optimizer, swa_lr=[...], anneal_epochs, anneal_strategy, last_epoch)}: one {@code swa_lr} per param
     * group.
     */
    public SWALR(Optimizer optimizer, double[] swaLrs, int annealEpochs, String annealStrategy, int lastEpoch) {
        List<ParamGroup> groups = optimizer.paramGroups();
        if (swaLrs.length != groups.size()) {
            throw new TorchException("swa_lr must have the same length as optimizer.param_groups. swa_lr has "
                    + swaLrs.length + " values, param_groups has " + groups.size() + ".");
        }
        for (int i = 0; i < swaLrs.length; i++) groups.get(i).set("swa_lr", swaLrs[i]);
        if (!"cos".equals(annealStrategy) && !"linear".equals(annealStrategy)) {
            throw new TorchException("anneal_strategy must be one of 'cos' or 'linear', instead got " + annealStrategy);
        }
        if (annealEpochs < 0)
            throw new TorchException("anneal_epochs must be equal or greater than 0, got " + annealEpochs);
        this.annealStrategy = annealStrategy;
        this.annealEpochs = annealEpochs;
        super(optimizer, lastEpoch);
    }

    private static double[] same(double swaLr, Optimizer optimizer) {
        double[] out = new double[optimizer.paramGroups().size()];
        java.util.Arrays.fill(out, swaLr);
        return out;
    }

    /** {@code anneal_epochs}. */
    public int annealEpochs() {
        return annealEpochs;
    }

    /** {@code _anneal_strategy}: {@code "cos"} or {@code "linear"}. */
    public String annealStrategy() {
        return annealStrategy;
    }

    private double anneal(double t) {
        return annealStrategy.equals("cos") ? (1 - Math.cos(Math.PI * t)) / 2 : t;
    }

    @Override
    protected List<Double> computeLr() {
        int step = stepCount - 1;
        if (annealEpochs == 0) step = Math.max(1, step);
        double prevAlpha = anneal(Math.max(0, Math.min(1, (step - 1) / (double) Math.max(1, annealEpochs))));
        double alpha = anneal(Math.max(0, Math.min(1, step / (double) Math.max(1, annealEpochs))));
        List<Double> out = new ArrayList<>();
        for (ParamGroup g : optimizer.paramGroups()) {
            double swaLr = g.doubleValue("swa_lr");
            // _get_initial_lr: the rate before the previous step's interpolation.
            double prevLr = prevAlpha == 1 ? swaLr : (g.lr() - prevAlpha * swaLr) / (1 - prevAlpha);
            out.add(swaLr * alpha + prevLr * (1 - alpha));
        }
        return out;
    }

    @Override
    protected void writeOwnState(Map<String, Object> sd) {
        sd.put("_anneal_strategy", annealStrategy);
        sd.put("anneal_epochs", annealEpochs);
    }

    @Override
    protected void readOwnState(Map<String, Object> sd) {
        if (sd.containsKey("_anneal_strategy")) annealStrategy = (String) sd.get("_anneal_strategy");
        if (sd.containsKey("anneal_epochs")) annealEpochs = ((Number) sd.get("anneal_epochs")).intValue();
    }
}
