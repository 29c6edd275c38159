package org.jtorch.optim.swa;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.nn.Module;

/**
 * {@code torch.optim.swa_utils.AveragedModel}: a copy of a model whose parameters (and, with {@code use_buffers},
 * buffers) are a running average of the model's, for Stochastic Weight Averaging (SWA) or an Exponential Moving Average
 * (EMA).
 *
 * <p>PyTorch starts from {@code copy.deepcopy(model)}. Java cannot deep-copy an arbitrary module (a subclass may keep
 * submodules in fields), so the caller passes a freshly built module of the same architecture, {@code replica}; the
 * model's state (parameters, persistent and non-persistent buffers) is copied into it, so it starts equal to the model
 * as the deep copy would. Its state dict holds {@code n_averaged} and the replica's state under {@code module.}, as
 * PyTorch's.
 *
 * <p>Averaging: the first {@link #updateParameters} copies the model; later ones apply {@code avg_fn} (one tensor at a
 * time), {@code multi_avg_fn} (lists of tensors of one dtype), or by default the equal-weight average {@code avg + (p -
 * avg) / (n_averaged + 1)}. Without {@code use_buffers} the buffers are copied from the model each time (batch-norm
 * statistics then follow the model; {@link SwaUtils#updateBn} recomputes them for the average).
 */
public class AveragedModel extends Module {
    /** {@code avg_fn(averaged_param, current_param, num_averaged)}: the new averaged value of one tensor. */
    @FunctionalInterface
    public interface AvgFn {
        /** Returns the new average; {@code numAveraged} is the int64 count of models averaged so far. */
        Tensor apply(Tensor averaged, Tensor current, Tensor numAveraged);
    }

    /** {@code multi_avg_fn(averaged_param_list, current_param_list, num_averaged)}: updates the averages in place. */
    @FunctionalInterface
    public interface MultiAvgFn {
        /** Updates every tensor of {@code averaged} in place; the lists hold tensors of one dtype and device. */
        void apply(List<Tensor> averaged, List<Tensor> current, Tensor numAveraged);
    }

    /**
     * {@code AveragedModel}'s keyword arguments: {@code avg_fn}, {@code multi_avg_fn} (at most one of them) and
     * {@code use_buffers}.
     */
    public record Options(AvgFn avgFn, MultiAvgFn multiAvgFn, boolean useBuffers) {
        /** PyTorch's defaults: equal-weight averaging of the parameters only. */
        public static Options defaults() {
            return new Options(null, null, false);
        }

        /** {@code avg_fn=fn}. */
        public Options avgFn(AvgFn fn) {
            return new Options(fn, multiAvgFn, useBuffers);
        }

        /** {@code multi_avg_fn=fn}, e.g. {@link SwaUtils#getEmaMultiAvgFn(double)}. */
        public Options multiAvgFn(MultiAvgFn fn) {
            return new Options(avgFn, fn, useBuffers);
        }

        /** {@code use_buffers=flag}: average the buffers too, instead of copying them from the model. */
        public Options useBuffers(boolean flag) {
            return new Options(avgFn, multiAvgFn, flag);
        }
    }

    private final Module module;
    private final Options options;

    /** {@code AveragedModel(model)}: equal-weight (SWA) averaging into {@code replica}. */
    public AveragedModel(Module model, Module replica) {
        this(model, replica, Options.defaults());
    }

    /**
     * {@code AveragedModel(model, avg_fn=, multi_avg_fn=, use_buffers=)}, averaging into {@code replica}: a module of
     * the same architecture as {@code model}, built for the purpose, which takes the model's current state.
     */
    @SuppressWarnings("this-escape")
    public AveragedModel(Module model, Module replica, Options options) {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(replica, "replica");
        this.options = Objects.requireNonNull(options, "options");
        if (options.avgFn() != null && options.multiAvgFn() != null)
            throw new TorchException("Only one of avg_fn and multi_avg_fn should be provided");
        if (replica == model) {
            throw new TorchException("AveragedModel needs a separate module to hold the average: pass a newly built"
                    + " module of the model's architecture, not the model itself");
        }
        copyState(model, replica);
        this.module = register("module", replica);
        registerBuffer("n_averaged", Torch.zeros(new long[0], DType.INT64, Device.CPU));
    }

    /** The deep copy's state: every parameter and buffer (non-persistent ones too), by name. */
    private static void copyState(Module model, Module replica) {
        Map<String, Tensor> from = new LinkedHashMap<>(model.namedParameters());
        Map<String, Tensor> to = new LinkedHashMap<>(replica.namedParameters());
        from.putAll(model.namedBuffers());
        to.putAll(replica.namedBuffers());
        if (!from.keySet().equals(to.keySet())) {
            throw new TorchException("the replica does not have the model's architecture: the model holds "
                    + from.keySet() + ", the replica " + to.keySet());
        }
        try (var _ = Torch.noGrad()) {
            for (Map.Entry<String, Tensor> e : from.entrySet()) {
                Tensor target = to.get(e.getKey()), source = e.getValue();
                if (!java.util.Arrays.equals(target.shape(), source.shape())) {
                    throw new TorchException("the replica's " + e.getKey() + " has shape " + target.size()
                            + " where the model's has " + source.size());
                }
                if (target.dtype() != source.dtype())
                    target.setData(source.detach().clone());
                else target.copy_(source);
            }
        }
    }

    /** {@code module}: the module holding the average. */
    public Module module() {
        return module;
    }

    /** {@code n_averaged}: the int64 count of models averaged so far. */
    public Tensor nAveraged() {
        return getBuffer("n_averaged");
    }

    /** {@code use_buffers}. */
    public boolean useBuffers() {
        return options.useBuffers();
    }

    @Override
    public Tensor forward(Tensor input) {
        return module.call(input);
    }

    /**
     * {@code update_parameters(model)}: folds {@code model}'s current parameters (and buffers, with
     * {@code use_buffers}) into the average, pairing tensors in registration order, then counts one more model.
     */
    public void updateParameters(Module model) {
        List<Tensor> mine = options.useBuffers() ? concat(module.parameters(), module.buffers()) : parameters();
        List<Tensor> theirs = options.useBuffers() ? concat(model.parameters(), model.buffers()) : model.parameters();
        if (mine.size() != theirs.size()) {
            throw new TorchException("update_parameters: the model has " + theirs.size() + " tensors to average but"
                    + " the averaged model has " + mine.size() + "; pass a model of the averaged architecture");
        }
        Tensor n = nAveraged();
        try (var _ = Torch.noGrad()) {
            List<Tensor> averaged = new ArrayList<>(), current = new ArrayList<>();
            boolean first = n.item() == 0;
            for (int i = 0; i < mine.size(); i++) {
                Tensor avg = mine.get(i).detach(), cur = theirs.get(i).detach();
                averaged.add(avg);
                current.add(cur);
                if (first) avg.copy_(cur);
            }
            if (!first) average(averaged, current, n);
            if (!options.useBuffers()) {
                List<Tensor> own = module.buffers(), source = model.buffers();
                for (int i = 0; i < Math.min(own.size(), source.size()); i++)
                    own.get(i).detach().copy_(source.get(i).detach());
            }
            n.add_(Torch.ones(new long[0], DType.INT64, Device.CPU));
        }
    }

    private void average(List<Tensor> averaged, List<Tensor> current, Tensor n) {
        if (options.avgFn() != null) {
            for (int i = 0; i < averaged.size(); i++)
                averaged.get(i).copy_(options.avgFn().apply(averaged.get(i), current.get(i), n));
            return;
        }
        // Grouped by dtype (one device here), in the order of first appearance, as _group_tensors_by_device_and_dtype.
        Map<DType, List<Integer>> groups = new LinkedHashMap<>();
        for (int i = 0; i < averaged.size(); i++)
            groups.computeIfAbsent(averaged.get(i).dtype(), _ -> new ArrayList<>())
                    .add(i);
        for (List<Integer> group : groups.values()) {
            List<Tensor> avgs = new ArrayList<>(), curs = new ArrayList<>();
            for (int i : group) {
                avgs.add(averaged.get(i));
                curs.add(current.get(i));
            }
            if (options.multiAvgFn() != null) {
                options.multiAvgFn().apply(avgs, curs, n);
            } else {
                // CPU has no foreach kernels in PyTorch's sense, so it averages one tensor at a time.
                AvgFn swa = SwaUtils.getSwaAvgFn();
                for (int i = 0; i < avgs.size(); i++) avgs.get(i).copy_(swa.apply(avgs.get(i), curs.get(i), n));
            }
        }
    }

    private static List<Tensor> concat(List<Tensor> a, List<Tensor> b) {
        List<Tensor> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }
}
