package org.jtorch.optim.lr;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import org.jtorch.Tensor;
import org.jtorch.Warnings;
import org.jtorch.optim.Optimizer;
import org.jtorch.optim.ParamGroup;

/**
 * {@code torch.optim.lr_scheduler.LRScheduler}: sets the {@code lr} of every param group of an optimizer once per
 * {@link #step()}. A new scheduler ({@code last_epoch = -1}) records each group's {@code lr} as {@code initial_lr} (its
 * base learning rate) and takes an initial step to epoch 0; one resumed with {@code last_epoch >= 0} requires
 * {@code initial_lr} in every group and only re-applies the current rates.
 *
 * <p>Subclasses give the chainable form ({@link #computeLr}: the next rates from the groups' current ones) and, where
 * PyTorch has one, the closed form ({@link #closedFormLr}: the rates at {@code lastEpoch} from the base rates), used by
 * the deprecated {@link #step(int)}. A subclass that needs its own fields during the initial step assigns them before
 * calling the super constructor.
 */
public abstract class LRScheduler {
    static final String EPOCH_DEPRECATION_WARNING =
            "The epoch parameter in `scheduler.step()` was not necessary and is being "
                    + "deprecated where possible. Please use `scheduler.step()` to step the scheduler. "
                    + "During the deprecation, "
                    + "if epoch is different from None, the closed form is used instead of the new "
                    + "chainable form, where "
                    + "available. Please open an issue if you are unable to replicate your use case: "
                    + "https://github.com/pytorch/pytorch/issues/new/choose.";

    /** The optimizer whose param groups' learning rates this schedules. */
    protected final Optimizer optimizer;
    /** {@code base_lrs}: each group's {@code initial_lr}, the base of the schedule. */
    protected List<Double> baseLrs = List.of();
    /** {@code last_epoch}: the number of the last step taken (-1 before the first). */
    protected int lastEpoch;
    /** {@code _step_count}: steps taken, the initial one included. */
    protected int stepCount;
    /** {@code _is_initial}: true during the initial step, so chainable forms keep the current rates. */
    protected boolean isInitial;

    private boolean getLrCalledWithinStep;
    private List<Double> lastLr = List.of();
    /** Whether the optimizer has stepped since this scheduler was attached (for the call-order warning). */
    private boolean optimizerStepped;

    /**
     * {@code LRScheduler(optimizer, last_epoch)}: records the base rates and takes the initial step.
     *
     * <p>{@code this} escapes by design: as PyTorch's {@code __init__}, the initial step runs the subclass's
     * {@link #step()} and {@link #computeLr()} before the subclass constructor returns. Subclasses assign the fields
     * those read before calling this constructor.
     */
    @SuppressWarnings("this-escape")
    protected LRScheduler(Optimizer optimizer, int lastEpoch) {
        this(optimizer);
        List<ParamGroup> groups = optimizer.paramGroups();
        if (lastEpoch == -1) {
            for (ParamGroup g : groups) {
                Object lr = g.get("lr");
                g.setDefault("initial_lr", lr instanceof Tensor t ? t.clone() : lr);
            }
        } else {
            for (int i = 0; i < groups.size(); i++) {
                if (!groups.get(i).has("initial_lr")) {
                    throw new NoSuchElementException("param 'initial_lr' is not specified in param_groups[" + i
                            + "] when resuming an optimizer");
                }
            }
        }
        List<Double> base = new ArrayList<>();
        for (ParamGroup g : groups) base.add(g.doubleValue("initial_lr"));
        this.baseLrs = base;
        this.lastEpoch = lastEpoch;
        initialStep();
    }

    /**
     * Attaches {@code optimizer} without recording base rates or stepping, for schedulers that do not run PyTorch's
     * {@code LRScheduler.__init__} ({@link SequentialLR}, {@link ReduceLROnPlateau}).
     */
    protected LRScheduler(Optimizer optimizer) {
        this.optimizer = Objects.requireNonNull(optimizer, "optimizer");
        optimizer.registerStepPreHook(o -> optimizerStepped = true);
    }

    /** {@code _initial_step()}: resets the step count and steps once in initial mode. */
    protected final void initialStep() {
        stepCount = 0;
        isInitial = true;
        try {
            step();
        } finally {
            isInitial = false;
        }
    }

    /** The rates of the next epoch from the groups' current ones ({@code get_lr}, chainable form). */
    protected abstract List<Double> computeLr();

    /**
     * The rates at {@link #lastEpoch} from the base rates ({@code _get_closed_form_lr}), or null when there is none.
     */
    protected List<Double> closedFormLr() {
        return null;
    }

    /** {@code optimizer}: the optimizer whose rates this scheduler sets. */
    public Optimizer optimizer() {
        return optimizer;
    }

    /** {@code last_epoch}: the index of the current epoch (0 after construction). */
    public int lastEpoch() {
        return lastEpoch;
    }

    /** {@code base_lrs}: the groups' {@code initial_lr}. */
    public List<Double> baseLrs() {
        return Collections.unmodifiableList(baseLrs);
    }

    /** {@code get_last_lr()}: the rates set by the last step, one per group. */
    public List<Double> getLastLr() {
        return lastLr;
    }

    /**
     * {@code get_lr()}: the chainable form at the current epoch. Outside {@link #step()} this warns, as PyTorch does:
     * the rates just set are {@link #getLastLr()}.
     */
    public List<Double> getLr() {
        if (!getLrCalledWithinStep)
            Warnings.warn("To get the last learning rate computed by the scheduler, please use `get_last_lr()`.");
        return computeLr();
    }

    /** {@code step()}: advances one epoch and sets the new rates. */
    public void step() {
        warnIfBeforeOptimizerStep();
        stepCount++;
        updateLr(null);
    }

    /**
     * {@code step(epoch)} (deprecated): jumps to {@code epoch} and sets the closed-form rates there (the chainable ones
     * when the scheduler has no closed form).
     */
    public void step(int epoch) {
        warnIfBeforeOptimizerStep();
        stepCount++;
        Warnings.warn(EPOCH_DEPRECATION_WARNING);
        updateLr(epoch);
    }

    void warnIfBeforeOptimizerStep() {
        if (stepCount == 1 && !optimizerStepped) {
            Warnings.warn(
                    "Detected call of `lr_scheduler.step()` before `optimizer.step()`. In PyTorch 1.1.0 and later, "
                            + "you should call them in the opposite order: `optimizer.step()` before "
                            + "`lr_scheduler.step()`.  "
                            + "Failure to do this will result in PyTorch skipping the first value of the learning rate "
                            + "schedule. See more details at "
                            + "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate");
        }
    }

    /** {@code _update_lr(epoch)}: computes the rates (next epoch, or {@code epoch} when given) and applies them. */
    void updateLr(Integer epoch) {
        List<Double> values;
        getLrCalledWithinStep = true;
        try {
            if (epoch == null) {
                lastEpoch++;
                values = getLr();
            } else {
                lastEpoch = epoch;
                List<Double> closed = closedFormLr();
                values = closed != null ? closed : getLr();
            }
        } finally {
            getLrCalledWithinStep = false;
        }
        setLrs(values);
    }

    /** Writes one rate per group (into a tensor {@code lr} in place) and records them as the last rates. */
    protected final void setLrs(List<Double> values) {
        List<ParamGroup> groups = optimizer.paramGroups();
        for (int i = 0; i < Math.min(groups.size(), values.size()); i++) {
            ParamGroup g = groups.get(i);
            if (g.get("lr") instanceof Tensor t) t.fill_(values.get(i));
            else g.set("lr", values.get(i));
        }
        recordLastLr();
    }

    /** {@code _last_lr = [group["lr"] for group in optimizer.param_groups]}. */
    protected final void recordLastLr() {
        List<Double> lrs = new ArrayList<>();
        for (ParamGroup g : optimizer.paramGroups()) lrs.add(g.lr());
        lastLr = Collections.unmodifiableList(lrs);
    }

    /** Replaces the last rates (schedulers that report another scheduler's). */
    protected final void lastLr(List<Double> lrs) {
        lastLr = lrs;
    }

    /** The groups' current rates: what chainable forms return when the rate does not change. */
    protected final List<Double> groupLrs() {
        List<Double> lrs = new ArrayList<>();
        for (ParamGroup g : optimizer.paramGroups()) lrs.add(g.lr());
        return lrs;
    }

    // ---- state dict -----------------------------------------------------------------------------------

    /**
     * {@code state_dict()}: every field but the optimizer, by PyTorch's attribute names and in the order of the
     * scheduler's {@code __dict__} (the subclass's own fields first).
     */
    public Map<String, Object> stateDict() {
        Map<String, Object> sd = new LinkedHashMap<>();
        writeOwnState(sd);
        writeBaseState(sd);
        writeTrailingState(sd);
        return sd;
    }

    /** {@code load_state_dict(sd)}: takes every field present in {@code sd} ({@code __dict__.update}). */
    public void loadStateDict(Map<String, Object> sd) {
        readBaseState(sd);
        readOwnState(sd);
    }

    /** The base fields, in the order {@code LRScheduler.__init__} creates them. */
    void writeBaseState(Map<String, Object> sd) {
        sd.put("base_lrs", new ArrayList<>(baseLrs));
        sd.put("last_epoch", lastEpoch);
        sd.put("_step_count", stepCount);
        sd.put("_is_initial", isInitial);
        sd.put("_get_lr_called_within_step", getLrCalledWithinStep);
        sd.put("_last_lr", new ArrayList<>(lastLr));
    }

    void readBaseState(Map<String, Object> sd) {
        if (sd.containsKey("base_lrs")) baseLrs = doubles(sd.get("base_lrs"));
        if (sd.containsKey("last_epoch")) lastEpoch = ((Number) sd.get("last_epoch")).intValue();
        if (sd.containsKey("_step_count")) stepCount = ((Number) sd.get("_step_count")).intValue();
        if (sd.containsKey("_is_initial")) isInitial = (Boolean) sd.get("_is_initial");
        if (sd.containsKey("_get_lr_called_within_step"))
            getLrCalledWithinStep = (Boolean) sd.get("_get_lr_called_within_step");
        if (sd.containsKey("_last_lr")) lastLr = Collections.unmodifiableList(doubles(sd.get("_last_lr")));
    }

    /** The subclass's fields that precede the base ones in {@code __dict__} (set before {@code super().__init__}). */
    protected void writeOwnState(Map<String, Object> sd) {}

    /** Fields that PyTorch's {@code state_dict} appends after the others ({@code lr_lambdas}, {@code _schedulers}). */
    protected void writeTrailingState(Map<String, Object> sd) {}

    /** Reads the subclass's fields written by {@link #writeOwnState} and {@link #writeTrailingState}. */
    protected void readOwnState(Map<String, Object> sd) {}

    /** A list of numbers (or one-element tensors) as doubles. */
    static List<Double> doubles(Object v) {
        List<Double> out = new ArrayList<>();
        for (Object x : (List<?>) v) out.add(x instanceof Tensor t ? t.item() : ((Number) x).doubleValue());
        return out;
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "(last_epoch=" + lastEpoch + ", last_lr=" + lastLr + ")";
    }
}
