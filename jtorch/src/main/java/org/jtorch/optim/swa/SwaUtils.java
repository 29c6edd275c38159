package org.jtorch.optim.swa;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.foreach.Foreach;
import org.jtorch.nn.BatchNormNd;
import org.jtorch.nn.Module;

/**
 * {@code torch.optim.swa_utils}' functions: the averaging rules {@link AveragedModel} takes ({@code get_ema_avg_fn},
 * {@code get_swa_avg_fn} and their multi-tensor forms) and {@code update_bn}, which recomputes batch-norm statistics
 * for averaged weights.
 */
public final class SwaUtils {
    private SwaUtils() {}

    /**
     * {@code get_ema_multi_avg_fn(decay)}: {@code ema = decay * ema + (1 - decay) * p}, for floating-point and complex
     * tensors as one {@code foreach lerp_} with weight {@code 1 - decay}; other dtypes are rounded back into the
     * average.
     */
    public static AveragedModel.MultiAvgFn getEmaMultiAvgFn(double decay) {
        checkDecay(decay);
        return (averaged, current, n) -> {
            try (var _ = Torch.noGrad()) {
                if (averaged.getFirst().isFloatingPoint() || averaged.getFirst().isComplex()) {
                    Foreach.lerp_(averaged, current, 1 - decay);
                } else {
                    for (int i = 0; i < averaged.size(); i++) {
                        Tensor ema = averaged.get(i);
                        ema.copy_(ema.mul(decay).add(current.get(i).mul(1 - decay)));
                    }
                }
            }
        };
    }

    /** {@code get_ema_multi_avg_fn()}: decay 0.999. */
    public static AveragedModel.MultiAvgFn getEmaMultiAvgFn() {
        return getEmaMultiAvgFn(0.999);
    }

    /**
     * {@code get_swa_multi_avg_fn()}: the equal-weight average as one {@code foreach lerp_} with weight {@code 1 /
     * (n_averaged + 1)}, computed as PyTorch does in float32 (the int64 count's true division). Integer tensors take
     * {@code addcdiv_}, which PyTorch refuses for them, as here.
     */
    public static AveragedModel.MultiAvgFn getSwaMultiAvgFn() {
        return (averaged, current, n) -> {
            try (var _ = Torch.noGrad()) {
                if (averaged.getFirst().isFloatingPoint() || averaged.getFirst().isComplex()) {
                    double weight = 1.0f / (float) (n.item() + 1);
                    Foreach.lerp_(averaged, current, weight);
                } else {
                    Tensor count = n.add(1L);
                    for (int i = 0; i < averaged.size(); i++) {
                        Tensor avg = averaged.get(i);
                        avg.addcdiv_(current.get(i).sub(avg), count, 1.0);
                    }
                }
            }
        };
    }

    /** {@code get_ema_avg_fn(decay)}: {@code decay * ema + (1 - decay) * p}, one tensor at a time. */
    public static AveragedModel.AvgFn getEmaAvgFn(double decay) {
        checkDecay(decay);
        return (ema, current, n) -> {
            try (var _ = Torch.noGrad()) {
                return ema.mul(decay).add(current.mul(1 - decay));
            }
        };
    }

    /** {@code get_ema_avg_fn()}: decay 0.999. */
    public static AveragedModel.AvgFn getEmaAvgFn() {
        return getEmaAvgFn(0.999);
    }

    /** {@code get_swa_avg_fn()}: {@code avg + (p - avg) / (n_averaged + 1)}, one tensor at a time. */
    public static AveragedModel.AvgFn getSwaAvgFn() {
        return (averaged, current, n) -> {
            try (var _ = Torch.noGrad()) {
                return averaged.add(current.sub(averaged).div(n.add(1L)));
            }
        };
    }

    private static void checkDecay(double decay) {
        if (!(decay >= 0.0 && decay <= 1.0)) {
            throw new TorchException(
                    "Invalid decay value " + decay + " provided. Please provide a value in [0,1] range.");
        }
    }

    /** {@code update_bn(loader, model)}: batches are used where they are. */
    public static void updateBn(Iterable<?> loader, Module model) {
        updateBn(loader, model, null);
    }

    /**
     * {@code update_bn(loader, model, device)}: one pass over {@code loader} in training mode, with grad off,
     * recomputes every batch-norm layer's running statistics as a cumulative average (momentum None for the pass,
     * restored after), then restores the model's training flag. A batch is a tensor, or a list (or array) whose first
     * element is the input tensor; {@code device}, when not null, is where inputs are moved. A model with no batch norm
     * is untouched.
     */
    public static void updateBn(Iterable<?> loader, Module model, Device device) {
        Map<BatchNormNd, Double> momenta = new IdentityHashMap<>();
        List<BatchNormNd> layers = new ArrayList<>();
        for (Module m : model.modules()) {
            if (m instanceof BatchNormNd bn) {
                bn.resetRunningStats();
                momenta.put(bn, bn.momentum());
                layers.add(bn);
            }
        }
        if (layers.isEmpty()) return;
        boolean wasTraining = model.isTraining();
        model.train();
        for (BatchNormNd bn : layers) bn.momentum(null);
        try (var _ = Torch.noGrad()) {
            for (Object batch : loader) {
                Tensor input = input(batch);
                model.call(device == null ? input : input.to(device));
            }
        } finally {
            for (BatchNormNd bn : layers) bn.momentum(momenta.get(bn));
            model.train(wasTraining);
        }
    }

    private static Tensor input(Object batch) {
        Object first =
                switch (batch) {
                    case List<?> list when !list.isEmpty() -> list.getFirst();
                    case Object[] array when array.length > 0 -> array[0];
                    default -> batch;
                };
        if (first instanceof Tensor t) return t;
        throw new TorchException("update_bn: each batch must be a tensor or a list whose first element is the input"
                + " tensor, got " + (batch == null ? "null" : batch.getClass().getName()));
    }
}
