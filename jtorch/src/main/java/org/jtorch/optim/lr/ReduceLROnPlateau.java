package org.jtorch.optim.lr;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.TorchTypeException;
import org.jtorch.optim.Optimizer;
import org.jtorch.optim.ParamGroup;

/**
 * {@code ReduceLROnPlateau}: multiplies the rates by {@code factor} once a metric has not improved for more than
 * {@code patience} steps (then waits {@code cooldown} steps), never below {@code min_lr} and ignoring reductions
 * smaller than {@code eps}. It steps with the metric: {@link #step(double)}.
 */
public final class ReduceLROnPlateau extends LRScheduler {

    /** ReduceLROnPlateau's keyword arguments; immutable, every setter returns a copy. */
    public static final class Options {
        private String mode = "min";
        private double factor = 0.1;
        private int patience = 10;
        private double threshold = 1e-4;
        private String thresholdMode = "rel";
        private int cooldown;
        private Object minLr = 0.0;
        private double eps = 1e-8;

        private Options() {}

        /**
         * PyTorch's defaults: min mode, factor 0.1, patience 10, threshold 1e-4 (rel), no cooldown, min_lr 0, eps 1e-8.
         */
        public static Options defaults() {
            return new Options();
        }

        private Options copy() {
            Options o = new Options();
            o.mode = mode;
            o.factor = factor;
            o.patience = patience;
            o.threshold = threshold;
            o.thresholdMode = thresholdMode;
            o.cooldown = cooldown;
            o.minLr = minLr;
            o.eps = eps;
            return o;
        }

        /** {@code "min"} (the metric should decrease) or {@code "max"}. */
        public Options mode(String v) {
            Options o = copy();
            o.mode = v;
            return o;
        }

        /** {@code factor}: the learning rate is multiplied by it on a plateau (default 0.1; must be below 1). */
        public Options factor(double v) {
            Options o = copy();
            o.factor = v;
            return o;
        }

        /** {@code patience}: epochs without improvement tolerated before reducing (default 10). */
        public Options patience(int v) {
            Options o = copy();
            o.patience = v;
            return o;
        }

        /** {@code threshold}: the least change that counts as an improvement (default 1e-4). */
        public Options threshold(double v) {
            Options o = copy();
            o.threshold = v;
            return o;
        }

        /** {@code "rel"} or {@code "abs"}. */
        public Options thresholdMode(String v) {
            Options o = copy();
            o.thresholdMode = v;
            return o;
        }

        /** {@code cooldown}: epochs to wait after a reduction before counting bad epochs again (default 0). */
        public Options cooldown(int v) {
            Options o = copy();
            o.cooldown = v;
            return o;
        }

        /** {@code min_lr}: the lower bound of every group's learning rate (default 0). */
        public Options minLr(double v) {
            Options o = copy();
            o.minLr = v;
            return o;
        }

        /** One lower bound per param group. */
        public Options minLr(List<Double> v) {
            Options o = copy();
            o.minLr = List.copyOf(v);
            return o;
        }

        /** {@code eps}: a reduction smaller than this is skipped (default 1e-8). */
        public Options eps(double v) {
            Options o = copy();
            o.eps = v;
            return o;
        }
    }

    private double factor;
    /** The scalar {@code min_lr}, or null when a list was given (then a change in the group count is an error). */
    private Double defaultMinLr;

    private List<Double> minLrs;
    private int patience;
    private int cooldown;
    private double eps;
    private double modeWorse;
    private String mode;
    private double threshold;
    private String thresholdMode;
    private double best;
    private int cooldownCounter;
    private int numBadEpochs;

    /** {@code ReduceLROnPlateau(optimizer)} with the defaults. */
    public ReduceLROnPlateau(Optimizer optimizer) {
        this(optimizer, Options.defaults());
    }

    /** {@code ReduceLROnPlateau(optimizer, **options)}. */
    public ReduceLROnPlateau(Optimizer optimizer, Options options) {
        super(optimizer);
        if (options.factor >= 1.0) throw new IllegalArgumentException("Factor should be < 1.0.");
        this.factor = options.factor;
        int groups = optimizer.paramGroups().size();
        if (options.minLr instanceof List<?> l) {
            if (l.size() != groups)
                throw new IllegalArgumentException("expected " + groups + " min_lrs, got " + l.size());
            this.defaultMinLr = null;
            this.minLrs = doubles(l);
        } else {
            this.defaultMinLr = ((Number) options.minLr).doubleValue();
            this.minLrs = new ArrayList<>(Collections.nCopies(groups, defaultMinLr));
        }
        this.patience = options.patience;
        this.cooldown = options.cooldown;
        this.eps = options.eps;
        this.lastEpoch = 0;
        recordLastLr();
        initIsBetter(options.mode, options.threshold, options.thresholdMode);
        reset();
    }

    private void initIsBetter(String mode, double threshold, String thresholdMode) {
        if (!mode.equals("min") && !mode.equals("max"))
            throw new IllegalArgumentException("mode " + mode + " is unknown!");
        if (!thresholdMode.equals("rel") && !thresholdMode.equals("abs")) {
            throw new IllegalArgumentException("threshold mode " + thresholdMode + " is unknown!");
        }
        this.modeWorse = mode.equals("min") ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY;
        this.mode = mode;
        this.threshold = threshold;
        this.thresholdMode = thresholdMode;
    }

    /** Forgets the best value and the bad-epoch and cooldown counters. */
    private void reset() {
        best = modeWorse;
        cooldownCounter = 0;
        numBadEpochs = 0;
    }

    /** {@code step(metrics)}: records the metric of this epoch and reduces the rates after too long a plateau. */
    public void step(double metrics) {
        lastEpoch = lastEpoch + 1;
        if (isBetter(metrics, best)) {
            best = metrics;
            numBadEpochs = 0;
        } else {
            numBadEpochs++;
        }
        if (cooldownCounter > 0) {
            cooldownCounter--;
            numBadEpochs = 0; // bad epochs during the cooldown do not count
        }
        if (numBadEpochs > patience) {
            reduceLr();
            cooldownCounter = cooldown;
            numBadEpochs = 0;
        }
        recordLastLr();
    }

    /** {@code step(metrics)} with a one-element tensor metric. */
    public void step(Tensor metrics) {
        step(metrics.item());
    }

    /** {@code step()} without the metric is an error, as in PyTorch. */
    @Override
    public void step() {
        throw new TorchTypeException("ReduceLROnPlateau.step() missing 1 required positional argument: 'metrics'");
    }

    /** {@code step(epoch)} without the metric is an error, as in PyTorch. */
    @Override
    public void step(int epoch) {
        step();
    }

    private void reduceLr() {
        List<ParamGroup> groups = optimizer.paramGroups();
        if (groups.size() != minLrs.size()) {
            if (defaultMinLr == null) {
                throw new TorchException(
                        "The number of param groups in the `optimizer` (" + groups.size() + ") differs from when "
                                + "`ReduceLROnPlateau` was initialized (" + minLrs.size()
                                + "), usually due to a new param group being "
                                + "added to the optimizer. Please modify the `min_lrs` field to match the "
                                + "length of the `optimizer` param groups.");
            }
            minLrs = new ArrayList<>(Collections.nCopies(groups.size(), defaultMinLr));
        }
        for (int i = 0; i < groups.size(); i++) {
            ParamGroup g = groups.get(i);
            double oldLr = g.lr();
            double newLr = Math.max(oldLr * factor, minLrs.get(i));
            if (oldLr - newLr > eps) g.set("lr", newLr);
        }
    }

    /** {@code in_cooldown}. */
    public boolean inCooldown() {
        return cooldownCounter > 0;
    }

    /** {@code best}: the best metric so far. */
    public double best() {
        return best;
    }

    /** {@code num_bad_epochs}. */
    public int numBadEpochs() {
        return numBadEpochs;
    }

    private boolean isBetter(double a, double best) {
        if (mode.equals("min"))
            return thresholdMode.equals("rel") ? a < best * (1.0 - threshold) : a < best - threshold;
        return thresholdMode.equals("rel") ? a > best * (threshold + 1.0) : a > best + threshold;
    }

    /** There is no chainable form: the rates depend on the metrics. */
    @Override
    protected List<Double> computeLr() {
        throw new UnsupportedOperationException("ReduceLROnPlateau has no get_lr(); step it with the metric");
    }

    @Override
    protected void writeOwnState(Map<String, Object> sd) {
        sd.put("factor", factor);
        sd.put("default_min_lr", defaultMinLr);
        sd.put("min_lrs", new ArrayList<>(minLrs));
        sd.put("patience", patience);
        sd.put("cooldown", cooldown);
        sd.put("eps", eps);
    }

    /** The fields in the order {@code ReduceLROnPlateau.__init__} creates them. */
    @Override
    void writeBaseState(Map<String, Object> sd) {
        sd.put("last_epoch", lastEpoch);
        sd.put("_last_lr", new ArrayList<>(getLastLr()));
    }

    @Override
    protected void writeTrailingState(Map<String, Object> sd) {
        sd.put("mode_worse", modeWorse);
        sd.put("mode", mode);
        sd.put("threshold", threshold);
        sd.put("threshold_mode", thresholdMode);
        sd.put("best", best);
        sd.put("cooldown_counter", cooldownCounter);
        sd.put("num_bad_epochs", numBadEpochs);
    }

    @Override
    protected void readOwnState(Map<String, Object> sd) {
        if (sd.containsKey("factor")) factor = ((Number) sd.get("factor")).doubleValue();
        if (sd.containsKey("default_min_lr"))
            defaultMinLr = sd.get("default_min_lr") == null ? null : ((Number) sd.get("default_min_lr")).doubleValue();
        if (sd.containsKey("min_lrs")) minLrs = doubles(sd.get("min_lrs"));
        if (sd.containsKey("patience")) patience = ((Number) sd.get("patience")).intValue();
        if (sd.containsKey("cooldown")) cooldown = ((Number) sd.get("cooldown")).intValue();
        if (sd.containsKey("eps")) eps = ((Number) sd.get("eps")).doubleValue();
        if (sd.containsKey("best")) best = ((Number) sd.get("best")).doubleValue();
        if (sd.containsKey("cooldown_counter")) cooldownCounter = ((Number) sd.get("cooldown_counter")).intValue();
        if (sd.containsKey("num_bad_epochs")) numBadEpochs = ((Number) sd.get("num_bad_epochs")).intValue();
        String newMode = sd.containsKey("mode") ? (String) sd.get("mode") : mode;
        double newThreshold = sd.containsKey("threshold") ? ((Number) sd.get("threshold")).doubleValue() : threshold;
        String newThresholdMode = sd.containsKey("threshold_mode") ? (String) sd.get("threshold_mode") : thresholdMode;
        initIsBetter(newMode, newThreshold, newThresholdMode);
    }
}
