package org.jtorch.optim.lr;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jtorch.TorchTypeException;
import org.jtorch.optim.Optimizer;
import org.jtorch.optim.ParamGroup;

/**
 * {@code SequentialLR}: runs {@code schedulers[0]} until the first milestone, then {@code schedulers[1]} (restarted at
 * its epoch 0, closed form) until the next one, and so on. The sub-schedulers' own initial steps are undone at
 * construction.
 */
public final class SequentialLR extends LRScheduler {
    private final List<LRScheduler> schedulers;
    private List<Integer> milestones;

    /** {@code SequentialLR(optimizer, schedulers, milestones)}. */
    public SequentialLR(Optimizer optimizer, List<LRScheduler> schedulers, List<Integer> milestones) {
        this(optimizer, schedulers, milestones, -1);
    }

    /** {@code SequentialLR(optimizer, schedulers, milestones, last_epoch)}; one more scheduler than milestones. */
    public SequentialLR(Optimizer optimizer, List<LRScheduler> schedulers, List<Integer> milestones, int lastEpoch) {
        super(optimizer);
        String name = "SequentialLR";
        if (schedulers.isEmpty())
            throw new IllegalArgumentException(name + " expects at least one scheduler, but got no scheduler.");
        for (int i = 0; i < schedulers.size(); i++) {
            LRScheduler s = schedulers.get(i);
            if (s instanceof ReduceLROnPlateau) {
                throw new IllegalArgumentException(
                        name + " does not support `ReduceLROnPlateau` scheduler as it requires additional "
                                + "kwargs to be specified when calling `step`, but got one at index " + i
                                + " in the given schedulers sequence.");
            }
            if (s.optimizer() != optimizer) {
                throw new IllegalArgumentException(
                        name + " expects all schedulers to belong to the same optimizer, but got scheduler "
                                + s.getClass().getSimpleName() + " at index " + i + " has " + s.optimizer()
                                + ", which is different from "
                                + optimizer.getClass().getSimpleName() + ".");
            }
        }
        if (milestones.size() != schedulers.size() - 1) {
            throw new IllegalArgumentException(
                    "Sequential Schedulers expects number of schedulers provided to be one more than the "
                            + "number of milestone points, but got number of schedulers " + schedulers.size()
                            + " and the number of milestones to be equal to " + milestones.size());
        }
        this.schedulers = List.copyOf(schedulers);
        this.milestones = List.copyOf(milestones);
        this.lastEpoch = lastEpoch + 1;
        for (ParamGroup g : optimizer.paramGroups()) g.set("lr", g.get("initial_lr"));
        undo(this);
        schedulers.get(0).initialStep();
        lastLr(schedulers.get(0).getLastLr());
    }

    /** {@code recursive_undo}: takes back the initial step of every (nested) sub-scheduler. */
    private static void undo(LRScheduler s) {
        if (s instanceof SequentialLR seq) {
            for (LRScheduler sub : seq.schedulers) undo(sub);
        } else {
            s.lastEpoch -= 1;
        }
    }

    /** The wrapped schedulers, in order. */
    public List<LRScheduler> schedulers() {
        return schedulers;
    }

    /**
     * There is no chainable form of its own (PyTorch's {@code get_lr} raises): the current scheduler sets the rates.
     */
    @Override
    protected List<Double> computeLr() {
        throw new UnsupportedOperationException("SequentialLR has no get_lr(); its schedulers compute the rates");
    }

    private int index() {
        int idx = 0;
        while (idx < milestones.size() && milestones.get(idx) <= lastEpoch) idx++;
        return idx;
    }

    /** {@code step()}: steps the scheduler of the current phase; at a milestone, the next one starts at its epoch 0. */
    @Override
    public void step() {
        lastEpoch++;
        int idx = index();
        LRScheduler scheduler = schedulers.get(idx);
        if (idx > 0 && milestones.get(idx - 1) == lastEpoch) scheduler.updateLr(0);
        else scheduler.step();
        lastLr(scheduler.getLastLr());
    }

    /** The epoch form is not available: PyTorch's {@code SequentialLR.step()} takes no epoch. */
    @Override
    public void step(int epoch) {
        throw new TorchTypeException("SequentialLR.step() takes 1 positional argument but 2 were given");
    }

    @Override
    protected void writeOwnState(Map<String, Object> sd) {
        sd.put("_milestones", new ArrayList<>(milestones));
    }

    /** Only the fields {@code SequentialLR.__init__} sets, then the sub-schedulers' states. */
    @Override
    void writeBaseState(Map<String, Object> sd) {
        sd.put("last_epoch", lastEpoch);
        sd.put("_last_lr", new ArrayList<>(getLastLr()));
    }

    @Override
    protected void writeTrailingState(Map<String, Object> sd) {
        List<Map<String, Object>> states = new ArrayList<>();
        for (LRScheduler s : schedulers) states.add(s.stateDict());
        sd.put("_schedulers", states);
    }

    @Override
    @SuppressWarnings("unchecked")
    protected void readOwnState(Map<String, Object> sd) {
        if (sd.get("_milestones") instanceof List<?> l) {
            List<Integer> m = new ArrayList<>();
            for (Object o : l) m.add(((Number) o).intValue());
            milestones = List.copyOf(m);
        }
        if (sd.get("_schedulers") instanceof List<?> states) {
            for (int i = 0; i < states.size(); i++)
                schedulers.get(i).loadStateDict((Map<String, Object>) states.get(i));
        }
    }
}
