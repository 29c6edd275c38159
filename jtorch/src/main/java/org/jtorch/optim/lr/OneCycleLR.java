package org.jtorch.optim.lr;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtorch.optim.Optimizer;
import org.jtorch.optim.ParamGroup;

/**
 * {@code OneCycleLR}: the 1cycle policy. The rate rises from {@code max_lr / div_factor} to {@code max_lr} over the
 * first {@code pct_start} of {@code total_steps}, then anneals to {@code initial_lr / final_div_factor} (with
 * {@code three_phase}, back to the initial rate first); the momentum (or Adam's beta1) moves inversely between
 * {@code max_momentum} and {@code base_momentum}. Not chainable: the rates are computed from the values stored in each
 * group ({@code initial_lr}, {@code max_lr}, {@code min_lr}, {@code max_momentum}, {@code base_momentum}).
 */
public final class OneCycleLR extends LRScheduler {

    /** OneCycleLR's keyword arguments besides {@code max_lr}; immutable, every setter returns a copy. */
    public static final class Options {
        private Integer totalSteps, epochs, stepsPerEpoch;
        private double pctStart = 0.3;
        private String annealStrategy = "cos";
        private boolean cycleMomentum = true;
        private Object baseMomentum = 0.85, maxMomentum = 0.95;
        private double divFactor = 25.0, finalDivFactor = 1e4;
        private boolean threePhase;
        private int lastEpoch = -1;

        private Options() {}

        /** PyTorch's defaults (total_steps or epochs × steps_per_epoch must still be given). */
        public static Options defaults() {
            return new Options();
        }

        private Options copy() {
            Options o = new Options();
            o.totalSteps = totalSteps;
            o.epochs = epochs;
            o.stepsPerEpoch = stepsPerEpoch;
            o.pctStart = pctStart;
            o.annealStrategy = annealStrategy;
            o.cycleMomentum = cycleMomentum;
            o.baseMomentum = baseMomentum;
            o.maxMomentum = maxMomentum;
            o.divFactor = divFactor;
            o.finalDivFactor = finalDivFactor;
            o.threePhase = threePhase;
            o.lastEpoch = lastEpoch;
            return o;
        }

        /** {@code total_steps}: the cycle's length in steps; else {@code epochs * steps_per_epoch}. */
        public Options totalSteps(int v) {
            Options o = copy();
            o.totalSteps = v;
            return o;
        }

        /** {@code epochs}: with {@link #stepsPerEpoch(int)}, gives the cycle's length when total_steps is unset. */
        public Options epochs(int v) {
            Options o = copy();
            o.epochs = v;
            return o;
        }

        /** {@code steps_per_epoch}: with {@link #epochs(int)}, gives the cycle's length when total_steps is unset. */
        public Options stepsPerEpoch(int v) {
            Options o = copy();
            o.stepsPerEpoch = v;
            return o;
        }

        /** {@code pct_start}: the fraction of the cycle spent raising the learning rate (default 0.3). */
        public Options pctStart(double v) {
            Options o = copy();
            o.pctStart = v;
            return o;
        }

        /** {@code "cos"} or {@code "linear"}. */
        public Options annealStrategy(String v) {
            Options o = copy();
            o.annealStrategy = v;
            return o;
        }

        /** {@code cycle_momentum}: cycle the momentum (or Adam's beta1) inversely to the learning rate (default on). */
        public Options cycleMomentum(boolean v) {
            Options o = copy();
            o.cycleMomentum = v;
            return o;
        }

        /** {@code base_momentum}: the momentum at the learning-rate peak (default 0.85). */
        public Options baseMomentum(double v) {
            Options o = copy();
            o.baseMomentum = v;
            return o;
        }

        /** One value per param group. */
        public Options baseMomentum(List<Double> v) {
            Options o = copy();
            o.baseMomentum = List.copyOf(v);
            return o;
        }

        /** {@code max_momentum}: the momentum at the cycle's ends (default 0.95). */
        public Options maxMomentum(double v) {
            Options o = copy();
            o.maxMomentum = v;
            return o;
        }

        /** One value per param group. */
        public Options maxMomentum(List<Double> v) {
            Options o = copy();
            o.maxMomentum = List.copyOf(v);
            return o;
        }

        /** {@code div_factor}: the initial learning rate is {@code max_lr / div_factor} (default 25). */
        public Options divFactor(double v) {
            Options o = copy();
            o.divFactor = v;
            return o;
        }

        /** {@code final_div_factor}: the last learning rate is {@code initial_lr / final_div_factor} (default 1e4). */
        public Options finalDivFactor(double v) {
            Options o = copy();
            o.finalDivFactor = v;
            return o;
        }

        /** {@code three_phase}: a third phase anneals below the initial learning rate (default off). */
        public Options threePhase(boolean v) {
            Options o = copy();
            o.threePhase = v;
            return o;
        }

        /** {@code last_epoch}: the step to resume from; -1 starts a new cycle. */
        public Options lastEpoch(int v) {
            Options o = copy();
            o.lastEpoch = v;
            return o;
        }
    }

    /** One phase of the schedule: it ends at {@code endStep}, moving between the named group values. */
    private record Phase(double endStep, String startLr, String endLr, String startMomentum, String endMomentum) {}

    private int totalSteps;
    private List<Phase> phases;
    private String annealStrategy;
    private boolean cycleMomentum;
    private boolean useBeta1;

    /** {@code OneCycleLR(optimizer, max_lr, total_steps)}. */
    public OneCycleLR(Optimizer optimizer, double maxLr, int totalSteps) {
        this(optimizer, maxLr, Options.defaults().totalSteps(totalSteps));
    }

    /** {@code OneCycleLR(optimizer, max_lr, **options)}. */
    public OneCycleLR(Optimizer optimizer, double maxLr, Options options) {
        this(optimizer, Collections.nCopies(optimizer.paramGroups().size(), maxLr), options);
    }

    /** {@code OneCycleLR(optimizer, [max_lr per group], **options)}. */
    public OneCycleLR(Optimizer optimizer, List<Double> maxLrs, Options options) {
        int total = totalSteps(options);
        this.totalSteps = total;
        this.phases = phases(options.threePhase, options.pctStart, total);
        if (options.pctStart < 0 || options.pctStart > 1) {
            throw new IllegalArgumentException("Expected float between 0 and 1 pct_start, but got " + options.pctStart);
        }
        if (!options.annealStrategy.equals("cos") && !options.annealStrategy.equals("linear")) {
            throw new IllegalArgumentException(
                    "anneal_strategy must be one of 'cos' or 'linear', instead got " + options.annealStrategy);
        }
        this.annealStrategy = options.annealStrategy;
        List<ParamGroup> groups = optimizer.paramGroups();
        List<Double> maxes = perGroup("max_lr", optimizer, maxLrs);
        if (options.lastEpoch == -1) {
            for (int i = 0; i < groups.size(); i++) {
                ParamGroup g = groups.get(i);
                double initial = maxes.get(i) / options.divFactor;
                g.set("initial_lr", initial);
                g.set("max_lr", maxes.get(i));
                g.set("min_lr", initial / options.finalDivFactor);
            }
        }
        this.cycleMomentum = options.cycleMomentum;
        if (options.cycleMomentum) {
            Map<String, Object> defaults = optimizer.defaults();
            if (!defaults.containsKey("momentum") && !defaults.containsKey("betas")) {
                throw new IllegalArgumentException(
                        "optimizer must support momentum or beta1 with `cycle_momentum` option enabled");
            }
            boolean beta1 = defaults.containsKey("betas");
            this.useBeta1 = beta1;
            List<Double> maxMomenta = perGroup("max_momentum", optimizer, options.maxMomentum);
            List<Double> baseMomenta = perGroup("base_momentum", optimizer, options.baseMomentum);
            if (options.lastEpoch == -1) {
                for (int i = 0; i < groups.size(); i++) {
                    ParamGroup g = groups.get(i);
                    setMomentum(g, beta1, maxMomenta.get(i));
                    g.set("max_momentum", maxMomenta.get(i));
                    g.set("base_momentum", baseMomenta.get(i));
                }
            }
        }
        super(optimizer, options.lastEpoch);
    }

    private static int totalSteps(Options o) {
        if (o.totalSteps != null) {
            if (o.totalSteps <= 0)
                throw new IllegalArgumentException("Expected positive integer total_steps, but got " + o.totalSteps);
            return o.totalSteps;
        }
        if (o.epochs != null && o.stepsPerEpoch != null) {
            if (o.epochs <= 0)
                throw new IllegalArgumentException("Expected positive integer epochs, but got " + o.epochs);
            if (o.stepsPerEpoch <= 0) {
                throw new IllegalArgumentException(
                        "Expected positive integer steps_per_epoch, but got " + o.stepsPerEpoch);
            }
            return o.epochs * o.stepsPerEpoch;
        }
        throw new IllegalArgumentException("You must define either total_steps OR (epochs AND steps_per_epoch)");
    }

    private static List<Phase> phases(boolean threePhase, double pctStart, int totalSteps) {
        if (threePhase) {
            return List.of(
                    new Phase(pctStart * totalSteps - 1, "initial_lr", "max_lr", "max_momentum", "base_momentum"),
                    new Phase(2 * pctStart * totalSteps - 2, "max_lr", "initial_lr", "base_momentum", "max_momentum"),
                    new Phase(totalSteps - 1, "initial_lr", "min_lr", "max_momentum", "max_momentum"));
        }
        return List.of(
                new Phase(pctStart * totalSteps - 1, "initial_lr", "max_lr", "max_momentum", "base_momentum"),
                new Phase(totalSteps - 1, "max_lr", "min_lr", "base_momentum", "max_momentum"));
    }

    /** PyTorch's {@code _format_param}: one value per group, from a scalar or a list of the right length. */
    @SuppressWarnings("unchecked")
    static List<Double> perGroup(String name, Optimizer optimizer, Object value) {
        int groups = optimizer.paramGroups().size();
        if (value instanceof List<?> l) {
            if (l.size() != groups) {
                throw new IllegalArgumentException(name + " must have the same length as optimizer.param_groups. "
                        + name + " has " + l.size() + " values, param_groups has " + groups + ".");
            }
            return new ArrayList<>((List<Double>) l);
        }
        return new ArrayList<>(Collections.nCopies(groups, ((Number) value).doubleValue()));
    }

    /** Sets the cycled momentum: {@code momentum}, or the first of Adam-style {@code betas}. */
    private static void setMomentum(ParamGroup g, boolean useBeta1, double m) {
        if (!useBeta1) {
            g.set("momentum", m);
            return;
        }
        Object betas = g.get("betas");
        if (betas instanceof double[] a) {
            double[] copy = a.clone();
            copy[0] = m;
            g.set("betas", copy);
        } else {
            List<Object> copy = new ArrayList<>((List<?>) betas);
            copy.set(0, m);
            g.set("betas", Collections.unmodifiableList(copy));
        }
    }

    private double anneal(double start, double end, double pct) {
        if (annealStrategy.equals("cos")) {
            double cosOut = Math.cos(Math.PI * pct) + 1;
            return end + (start - end) / 2.0 * cosOut;
        }
        return (end - start) * pct + start;
    }

    @Override
    protected List<Double> computeLr() {
        int stepNum = lastEpoch;
        if (stepNum > totalSteps) {
            throw new IllegalArgumentException(
                    "Tried to step " + stepNum + " times. The specified number of total steps is " + totalSteps);
        }
        List<Double> lrs = new ArrayList<>();
        for (ParamGroup g : optimizer.paramGroups()) {
            double startStep = 0;
            for (int i = 0; i < phases.size(); i++) {
                Phase phase = phases.get(i);
                if (stepNum <= phase.endStep() || i == phases.size() - 1) {
                    double pct = (stepNum - startStep) / (phase.endStep() - startStep);
                    lrs.add(anneal(g.doubleValue(phase.startLr()), g.doubleValue(phase.endLr()), pct));
                    if (cycleMomentum) {
                        setMomentum(
                                g,
                                useBeta1,
                                anneal(g.doubleValue(phase.startMomentum()), g.doubleValue(phase.endMomentum()), pct));
                    }
                    break;
                }
                startStep = phase.endStep();
            }
        }
        return lrs;
    }

    @Override
    protected void writeOwnState(Map<String, Object> sd) {
        sd.put("total_steps", totalSteps);
        List<Map<String, Object>> packed = new ArrayList<>();
        for (Phase p : phases) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("end_step", p.endStep());
            m.put("start_lr", p.startLr());
            m.put("end_lr", p.endLr());
            m.put("start_momentum", p.startMomentum());
            m.put("end_momentum", p.endMomentum());
            packed.add(m);
        }
        sd.put("_schedule_phases", packed);
        sd.put("_anneal_func_type", annealStrategy);
        sd.put("cycle_momentum", cycleMomentum);
        if (cycleMomentum) sd.put("use_beta1", useBeta1);
    }

    @Override
    protected void readOwnState(Map<String, Object> sd) {
        if (sd.containsKey("total_steps")) totalSteps = ((Number) sd.get("total_steps")).intValue();
        if (sd.get("_schedule_phases") instanceof List<?> l) {
            List<Phase> read = new ArrayList<>();
            for (Object o : l) {
                Map<?, ?> m = (Map<?, ?>) o;
                read.add(new Phase(
                        ((Number) m.get("end_step")).doubleValue(),
                        (String) m.get("start_lr"),
                        (String) m.get("end_lr"),
                        (String) m.get("start_momentum"),
                        (String) m.get("end_momentum")));
            }
            phases = read;
        }
        if (sd.containsKey("_anneal_func_type")) annealStrategy = (String) sd.get("_anneal_func_type");
        if (sd.containsKey("cycle_momentum")) cycleMomentum = (Boolean) sd.get("cycle_momentum");
        if (sd.containsKey("use_beta1")) useBeta1 = (Boolean) sd.get("use_beta1");
    }
}
