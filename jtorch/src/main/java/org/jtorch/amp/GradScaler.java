package org.jtorch.amp;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.autograd.GradMode;
import org.jtorch.optim.Adagrad;
import org.jtorch.optim.Adam;
import org.jtorch.optim.AdamW;
import org.jtorch.optim.Optimizer;
import org.jtorch.optim.ParamGroup;
import org.jtorch.optim.SGD;

/**
 * {@code torch.amp.GradScaler}: multiplies the loss by a scale before backward so that small float16 gradients do not
 * flush to zero, divides the gradients by it before the optimizer steps, skips the step when a gradient is inf or NaN,
 * and adapts the scale: halved ({@code backoffFactor}) after a skipped step, doubled ({@code growthFactor}) after
 * {@code growthInterval} good steps in a row.
 *
 * <pre>{@code
 * scaler.scale(loss).backward();
 * scaler.unscale_(optimizer);          // optional: before clipping the gradients
 * scaler.step(optimizer);
 * scaler.update();
 * }</pre>
 *
 * <p>An optimizer built with {@code fused(true)} ({@link Adam}, {@link AdamW}, {@link SGD}, {@link Adagrad}) receives
 * the scale and the inf flag ({@code grad_scale}, {@code found_inf}) and unscales and skips in its kernel, as PyTorch's
 * fused optimizers do; other optimizers are unscaled here and not stepped after an inf.
 */
public final class GradScaler {
    /** {@code torch.amp.GradScaler(init_scale, growth_factor, backoff_factor, growth_interval, enabled)}. */
    public record Options(
            double initScale, double growthFactor, double backoffFactor, int growthInterval, boolean enabled) {
        /** PyTorch's defaults: {@code init_scale=2**16, growth_factor=2, backoff_factor=0.5, growth_interval=2000}. */
        public static Options defaults() {
            return new Options(65536.0, 2.0, 0.5, 2000, true);
        }

        /** {@code init_scale}. */
        public Options initScale(double v) {
            return new Options(v, growthFactor, backoffFactor, growthInterval, enabled);
        }

        /** {@code growth_factor}, greater than 1. */
        public Options growthFactor(double v) {
            return new Options(initScale, v, backoffFactor, growthInterval, enabled);
        }

        /** {@code backoff_factor}, less than 1. */
        public Options backoffFactor(double v) {
            return new Options(initScale, growthFactor, v, growthInterval, enabled);
        }

        /** {@code growth_interval}: good steps in a row before the scale grows. */
        public Options growthInterval(int v) {
            return new Options(initScale, growthFactor, backoffFactor, v, enabled);
        }

        /** {@code enabled}: false makes every method a no-op ({@link #scale} returns its argument). */
        public Options enabled(boolean v) {
            return new Options(initScale, growthFactor, backoffFactor, growthInterval, v);
        }
    }

    /** Where an optimizer is between two {@link #update()} calls (PyTorch's {@code OptState}). */
    private enum Stage {
        READY,
        UNSCALED,
        STEPPED
    }

    /** Per optimizer since the last update: its stage and its inf flag. */
    private static final class PerOptimizer {
        Stage stage = Stage.READY;
        Tensor foundInf;
    }

    private double growthFactor;
    private double backoffFactor;
    private int growthInterval;
    private final double initScale;
    private final boolean enabled;
    private Tensor scale;
    private Tensor growthTracker;
    private Map<Optimizer, PerOptimizer> perOptimizer = new IdentityHashMap<>();

    /** {@code torch.amp.GradScaler()} with PyTorch's defaults. */
    public GradScaler() {
        this(Options.defaults());
    }

    /** {@code torch.amp.GradScaler("cpu", init_scale=…, growth_factor=…, backoff_factor=…, growth_interval=…)}. */
    public GradScaler(Options options) {
        if (!(options.growthFactor() > 1.0)) throw new TorchException("The growth factor must be > 1.0.");
        if (!(options.backoffFactor() < 1.0)) throw new TorchException("The backoff factor must be < 1.0.");
        if (options.growthInterval() < 1) throw new TorchException("The growth interval must be >= 1.");
        this.initScale = options.initScale();
        this.growthFactor = options.growthFactor();
        this.backoffFactor = options.backoffFactor();
        this.growthInterval = options.growthInterval();
        this.enabled = options.enabled();
    }

    /** {@code scale(outputs)}: {@code outputs} multiplied by the current scale (unchanged when disabled). */
    public Tensor scale(Tensor outputs) {
        if (!enabled) return outputs;
        if (scale == null) {
            scale = Torch.full(new long[0], initScale, DType.FLOAT32, outputs.device());
            growthTracker = Torch.full(new long[0], 0L, DType.INT32, outputs.device());
        }
        return outputs.mul(scale);
    }

    /** {@code scale(outputs)} for several outputs, each multiplied by the scale. */
    public List<Tensor> scale(List<Tensor> outputs) {
        List<Tensor> out = new ArrayList<>(outputs.size());
        for (Tensor t : outputs) out.add(scale(t));
        return out;
    }

    /**
     * {@code unscale_(optimizer)}: divides the optimizer's gradients by the scale in place and records whether any is
     * inf or NaN; call it before clipping. Once per optimizer between two {@link #update()} calls, and before
     * {@link #step}.
     */
    public void unscale_(Optimizer optimizer) {
        if (!enabled) return;
        requireScale("unscale_");
        PerOptimizer s = perOptimizer.computeIfAbsent(optimizer, o -> new PerOptimizer());
        if (s.stage == Stage.UNSCALED) {
            throw new TorchException("unscale_() has already been called on this optimizer since the last update().");
        }
        if (s.stage == Stage.STEPPED) throw new TorchException("unscale_() is being called after step().");
        Tensor invScale = scale.to(DType.FLOAT64).reciprocal().to(DType.FLOAT32);
        s.foundInf = unscaleGrads(optimizer, invScale, false);
        s.stage = Stage.UNSCALED;
    }

    /**
     * {@code step(optimizer)}: steps the optimizer unless its gradients hold an inf or NaN; unscales them first if
     * {@link #unscale_} was not called. A fused optimizer gets the scale and the flag and does both itself.
     */
    public void step(Optimizer optimizer) {
        if (!enabled) {
            optimizer.step();
            return;
        }
        requireScale("step");
        PerOptimizer s = perOptimizer.computeIfAbsent(optimizer, o -> new PerOptimizer());
        if (s.stage == Stage.STEPPED) {
            throw new TorchException("step() has already been called since the last update().");
        }
        if (Boolean.TRUE.equals(optimizer.defaults().get("fused"))) {
            // The kernel unscales: only the flag is needed (PyTorch's _check_inf_per_device, unscaling by 1).
            Tensor gradScale = s.stage == Stage.UNSCALED ? null : scale;
            if (s.stage == Stage.READY) s.foundInf = unscaleGrads(optimizer, Torch.scalarTensor(1.0), true);
            setAmpScaling(optimizer, gradScale, s.foundInf);
            try {
                optimizer.step();
            } finally {
                setAmpScaling(optimizer, null, null);
            }
            s.stage = Stage.STEPPED;
            return;
        }
        if (s.stage == Stage.READY) unscale_(optimizer);
        if (s.foundInf.item() == 0) optimizer.step();
        s.stage = Stage.STEPPED;
    }

    /**
     * {@code update()}: halves the scale if any optimizer stepped over an inf or NaN since the last update, else counts
     * a good step and grows it after {@code growthInterval} of them (PyTorch's {@code _amp_update_scale_}).
     */
    public void update() {
        if (!enabled) return;
        requireScale("update");
        List<Tensor> found = new ArrayList<>();
        for (PerOptimizer s : perOptimizer.values()) if (s.foundInf != null) found.add(s.foundInf);
        if (found.isEmpty()) throw new TorchException("No inf checks were recorded prior to update.");
        double inf = 0;
        for (Tensor f : found) inf += f.item();
        double current = scale.item();
        if (inf != 0) {
            scale.fill_(current * backoffFactor);
            growthTracker.fill_(0L);
        } else {
            long successful = (long) growthTracker.item() + 1;
            if (successful == growthInterval) {
                double grown = current * growthFactor;
                if (Double.isFinite((float) grown)) scale.fill_(grown);
                growthTracker.fill_(0L);
            } else {
                growthTracker.fill_(successful);
            }
        }
        perOptimizer = new IdentityHashMap<>();
    }

    /** {@code update(new_scale)}: sets the scale to {@code newScale} instead of adapting it. */
    public void update(double newScale) {
        if (!enabled) return;
        requireScale("update");
        scale.fill_(newScale);
        perOptimizer = new IdentityHashMap<>();
    }

    /** {@code get_scale()}: the current scale, {@code init_scale} before the first {@link #scale}, 1 when disabled. */
    public double getScale() {
        if (!enabled) return 1.0;
        return scale == null ? initScale : scale.item();
    }

    /** {@code is_enabled()}. */
    public boolean isEnabled() {
        return enabled;
    }

    /**
     * {@code state_dict()}: {@code scale}, {@code growth_factor}, {@code backoff_factor}, {@code growth_interval} and
     * {@code _growth_tracker}, in PyTorch's keys; empty when disabled.
     */
    public Map<String, Object> stateDict() {
        Map<String, Object> sd = new LinkedHashMap<>();
        if (!enabled) return sd;
        sd.put("scale", getScale());
        sd.put("growth_factor", growthFactor);
        sd.put("backoff_factor", backoffFactor);
        sd.put("growth_interval", growthInterval);
        sd.put("_growth_tracker", growthTracker == null ? 0 : (int) growthTracker.item());
        return sd;
    }

    /** {@code load_state_dict(state_dict)}: restores what {@link #stateDict()} returned. */
    public void loadStateDict(Map<String, ?> stateDict) {
        if (!enabled) return;
        if (stateDict.isEmpty()) {
            throw new TorchException("The source state dict is empty, possibly because it was saved from a disabled "
                    + "instance of GradScaler.");
        }
        double s = ((Number) stateDict.get("scale")).doubleValue();
        growthFactor = ((Number) stateDict.get("growth_factor")).doubleValue();
        backoffFactor = ((Number) stateDict.get("backoff_factor")).doubleValue();
        growthInterval = ((Number) stateDict.get("growth_interval")).intValue();
        long tracker = ((Number) stateDict.get("_growth_tracker")).longValue();
        if (scale == null) {
            scale = Torch.full(new long[0], s, DType.FLOAT32, org.jtorch.Device.CPU);
            growthTracker = Torch.full(new long[0], tracker, DType.INT32, org.jtorch.Device.CPU);
        } else {
            scale.fill_(s);
            growthTracker.fill_(tracker);
        }
    }

    private void requireScale(String fn) {
        if (scale == null) {
            throw new TorchException("Attempted " + fn + " but _scale is None.  This may indicate your script did not "
                    + "use scaler.scale(loss or outputs) earlier in the iteration.");
        }
    }

    /**
     * PyTorch's {@code _unscale_grads_}: multiplies every gradient by {@code invScale} and returns a float32 flag, 1 if
     * any gradient held an inf or NaN ({@code _amp_foreach_non_finite_check_and_unscale_}).
     */
    private static Tensor unscaleGrads(Optimizer optimizer, Tensor invScale, boolean allowFp16) {
        boolean found = false;
        try (var _ = GradMode.set(false)) {
            for (ParamGroup g : optimizer.paramGroups()) {
                for (Tensor p : g.params()) {
                    Tensor grad = p.grad();
                    if (grad == null) continue;
                    if (!allowFp16 && grad.dtype() == DType.FLOAT16) {
                        throw new IllegalArgumentException("Attempting to unscale FP16 gradients.");
                    }
                    if (!found && Torch.isfinite(grad).all().item() == 0) found = true;
                    if (invScale.item() != 1.0) grad.mul_(invScale);
                }
            }
        }
        return Torch.full(new long[0], found ? 1.0 : 0.0, DType.FLOAT32, org.jtorch.Device.CPU);
    }

    /** Sets a fused optimizer's {@code grad_scale}/{@code found_inf}; null clears them. */
    private static void setAmpScaling(Optimizer optimizer, Tensor gradScale, Tensor foundInf) {
        switch (optimizer) {
            case Adam a -> a.ampScaling(gradScale, foundInf);
            case AdamW a -> a.ampScaling(gradScale, foundInf);
            case SGD s -> s.ampScaling(gradScale, foundInf);
            case Adagrad a -> a.ampScaling(gradScale, foundInf);
            default ->
                throw new TorchException(optimizer.getClass().getSimpleName()
                        + " has no fused step that takes grad_scale and found_inf");
        }
    }
}
