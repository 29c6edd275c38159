package org.jtorch.nn.utils.prune;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.nn.Module;
import org.jtorch.nn.utils.ConvertParameters;

/**
 * {@code torch.nn.utils.prune}'s functions: prune a module's tensor in place (see {@link BasePruningMethod} for the
 * {@code weight_orig}/{@code weight_mask} layout and the forward pre-hook), prune several tensors against one global
 * threshold, and make pruning permanent.
 */
public final class Prune {
    private Prune() {}

    /** One tensor of one module: an element of {@code global_unstructured}'s {@code parameters}. */
    public record Target(Module module, String name) {}

    /** {@code l1_unstructured(module, name, amount)}: a count ({@code Long}) or a fraction. Returns the module. */
    public static Module l1Unstructured(Module module, String name, Number amount) {
        return l1Unstructured(module, name, amount, null);
    }

    /** {@code l1_unstructured(module, name, amount, importance_scores)}: scores of the tensor's shape, or null. */
    public static Module l1Unstructured(Module module, String name, Number amount, Tensor importanceScores) {
        BasePruningMethod.apply(module, name, new L1Unstructured(amount), importanceScores);
        return module;
    }

    /** {@code random_unstructured(module, name, amount)}: on the default generator, as PyTorch's. */
    public static Module randomUnstructured(Module module, String name, Number amount) {
        BasePruningMethod.apply(module, name, new RandomUnstructured(amount), null);
        return module;
    }

    /** {@code ln_structured(module, name, amount, n, dim)}. */
    public static Module lnStructured(Module module, String name, Number amount, double n, int dim) {
        return lnStructured(module, name, amount, n, dim, null);
    }

    /** {@code ln_structured(module, name, amount, n, dim, importance_scores)}. */
    public static Module lnStructured(
            Module module, String name, Number amount, double n, int dim, Tensor importanceScores) {
        BasePruningMethod.apply(module, name, new LnStructured(amount, n, dim), importanceScores);
        return module;
    }

    /** {@code custom_from_mask(module, name, mask)}. */
    public static Module customFromMask(Module module, String name, Tensor mask) {
        BasePruningMethod.apply(module, name, new CustomFromMask(mask), null);
        return module;
    }

    /** {@code global_unstructured(parameters, pruning_method, amount=...)} with the tensors as their own scores. */
    public static void globalUnstructured(List<Target> parameters, Supplier<BasePruningMethod> pruningMethod) {
        globalUnstructured(parameters, pruningMethod, Map.of());
    }

    /**
     * {@code global_unstructured(parameters, pruning_method, importance_scores)}: the tensors (or their scores) are
     * flattened into one vector, masked by the method as one tensor (already pruned elements stay pruned), and each
     * tensor takes its slice of the mask. {@code pruningMethod} makes an unstructured method, e.g. {@code () -> new
     * L1Unstructured(0.2)}.
     */
    public static void globalUnstructured(
            List<Target> parameters, Supplier<BasePruningMethod> pruningMethod, Map<Target, Tensor> importanceScores) {
        List<Tensor> scores = new ArrayList<>(), masks = new ArrayList<>();
        for (Target p : parameters) {
            Tensor t = p.module().getParameter(p.name());
            scores.add(importanceScores.getOrDefault(p, t).detach());
            masks.add(
                    p.module().registeredBuffers().containsKey(p.name() + "_mask")
                            ? p.module().getBuffer(p.name() + "_mask")
                            : Torch.onesLike(t));
        }
        BasePruningMethod method = pruningMethod.get();
        if (method.pruningType() != BasePruningMethod.PruningType.UNSTRUCTURED) {
            throw new TorchException("Only \"unstructured\" PRUNING_TYPE supported for the `pruning_method`. Found "
                    + "method " + method.getClass().getSimpleName() + " of type "
                    + method.pruningType().name().toLowerCase(java.util.Locale.ROOT));
        }
        PruningContainer container = new PruningContainer("temp");
        method.tensorName = "temp";
        container.addPruningMethod(method);
        Tensor finalMask;
        try (var _ = Torch.noGrad()) {
            finalMask = container.computeMask(
                    ConvertParameters.parametersToVector(scores), ConvertParameters.parametersToVector(masks));
        }
        long pointer = 0;
        for (Target p : parameters) {
            Tensor param = p.module().getParameter(p.name());
            long n = param.numel();
            customFromMask(
                    p.module(),
                    p.name(),
                    finalMask.slice(0, pointer, pointer + n).view(param.shape()));
            pointer += n;
        }
    }

    /** {@code remove(module, name)}: makes the pruning of {@code name} permanent (see {@link BasePruningMethod}). */
    public static Module remove(Module module, String name) {
        for (Module.ForwardPreHook hook : module.forwardPreHooks()) {
            if (hook instanceof BasePruningMethod m && name.equals(m.tensorName)) {
                m.remove(module);
                return module;
            }
        }
        throw new TorchException(
                "Parameter '" + name + "' of module " + module + " has to be pruned before pruning can be removed");
    }

    /** {@code is_pruned(module)}: whether any tensor of the module or its descendants is pruned. */
    public static boolean isPruned(Module module) {
        for (Module m : module.modules())
            for (Module.ForwardPreHook hook : m.forwardPreHooks()) if (hook instanceof BasePruningMethod) return true;
        return false;
    }
}
