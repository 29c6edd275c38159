package org.jtorch.nn.utils;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.nn.Module;
import org.jtorch.nn.ModuleDict;

/**
 * {@code torch.nn.utils.parametrize}: a module's parameter or buffer becomes the output of a parametrization (a module)
 * applied to an unconstrained tensor, which is what the optimizer trains. As in PyTorch the module gains a child
 * {@code parametrizations} ({@code ModuleDict}) with one {@link ParametrizationList} per tensor, the tensor's name
 * leaves the module's own parameters, and reading it ({@link Module#getParameter}, which layers use) computes the
 * chain. A parametrization is any module whose {@code forward(Tensor)} maps the original to the constrained tensor; it
 * may also implement {@link RightInverse} (used at registration and on assignment), or {@link MultiInput} to be
 * computed from several tensors ({@code original0}, {@code original1}, ...).
 */
public final class Parametrize {
    private Parametrize() {}

    /** A parametrization's {@code right_inverse(value)} returning one tensor. */
    @FunctionalInterface
    public interface RightInverse {
        /** A tensor whose parametrization gives {@code value} (or a reasonable preimage). */
        Tensor rightInverse(Tensor value);
    }

    /**
     * A first parametrization computed from several tensors: {@code forward(*originals)} and a {@code right_inverse}
     * returning the sequence that becomes {@code original0}, {@code original1}, ....
     */
    public interface MultiInput {
        /** {@code forward(original0, original1, ...)}. */
        Tensor forward(List<Tensor> originals);

        /** {@code right_inverse(value)}: the originals whose forward gives {@code value}. */
        List<Tensor> rightInverse(Tensor value);
    }

    /** The scope {@link #cached()} returns: closing it (try-with-resources) throws no checked exception. */
    @FunctionalInterface
    public interface CacheScope extends AutoCloseable {
        /** Leaves the scope; the outermost one drops the cached values. */
        @Override
        void close();
    }

    // The cache of cached(): depth of nesting and values by (module, name), for the calling thread.
    private static final ThreadLocal<int[]> CACHE_DEPTH = ThreadLocal.withInitial(() -> new int[1]);
    private static final ThreadLocal<Map<Module, Map<String, Tensor>>> CACHE =
            ThreadLocal.withInitial(IdentityHashMap::new);

    /** {@code register_parametrization(module, tensor_name, parametrization)} with {@code unsafe=False}. */
    public static Module registerParametrization(Module module, String tensorName, Module parametrization) {
        return registerParametrization(module, tensorName, parametrization, false);
    }

    /**
     * {@code register_parametrization(module, tensor_name, parametrization, unsafe=)}: the first registration on a
     * tensor moves it to {@code parametrizations.<name>.original} (through the right inverse, when the parametrization
     * has one; a parameter stays a parameter, a buffer a buffer); later ones append to the chain. Unless
     * {@code unsafe}, a parametrization may change neither dtype nor shape. The parametrization takes the module's
     * training mode. Returns the module.
     */
    public static Module registerParametrization(
            Module module, String tensorName, Module parametrization, boolean unsafe) {
        parametrization.train(module.isTraining());
        if (isParametrized(module, tensorName)) {
            ParametrizationList list = parametrizations(module, tensorName);
            if (!unsafe) {
                Tensor y = list.value();
                new ParametrizationList.DTypeShape(y)
                        .check(
                                parametrization.call(y),
                                "Registering a parametrization may not change the %s of the tensor, unless the "
                                        + "`unsafe` flag is enabled.\nmodule." + tensorName + ".%s: %s\n"
                                        + "parametrization(module." + tensorName + ").%s: %s");
            }
            list.append(parametrization, unsafe);
            return module;
        }
        Map<String, Tensor> params = module.registeredParameters(), buffers = module.registeredBuffers();
        Tensor original = params.containsKey(tensorName) ? params.get(tensorName) : buffers.get(tensorName);
        if (original == null) {
            throw new TorchException("Module '" + module + "' does not have a parameter, a buffer, or a parametrized "
                    + "element with name '" + tensorName + "'");
        }
        ParametrizationList list =
                new ParametrizationList(parametrization, original, params.containsKey(tensorName), unsafe);
        module.deleteAttribute(tensorName);
        ModuleDict dict = isParametrized(module)
                ? (ModuleDict) module.getSubmodule("parametrizations")
                : module.register("parametrizations", new ModuleDict());
        dict.put(tensorName, list);
        module.computedAttribute(tensorName, () -> get(module, tensorName, list));
        return module;
    }

    private static Tensor get(Module module, String name, ParametrizationList list) {
        if (CACHE_DEPTH.get()[0] == 0) return list.value();
        return CACHE.get().computeIfAbsent(module, _ -> new HashMap<>()).computeIfAbsent(name, _ -> list.value());
    }

    /** {@code is_parametrized(module)}: whether any tensor of the module is parametrized. */
    public static boolean isParametrized(Module module) {
        return module.registeredModules().get("parametrizations") instanceof ModuleDict d && d.size() > 0;
    }

    /** {@code is_parametrized(module, tensor_name)}. */
    public static boolean isParametrized(Module module, String tensorName) {
        return module.registeredModules().get("parametrizations") instanceof ModuleDict d && d.containsKey(tensorName);
    }

    /** {@code module.parametrizations[tensor_name]}. */
    public static ParametrizationList parametrizations(Module module, String tensorName) {
        if (!isParametrized(module, tensorName))
            throw new TorchException("Module " + module.getClass().getSimpleName() + " does not have a"
                    + " parametrization on " + tensorName);
        return (ParametrizationList) ((ModuleDict) module.getSubmodule("parametrizations")).get(tensorName);
    }

    /**
     * {@code module.tensor_name = value} on a parametrized tensor: the originals take the right inverses' result (every
     * parametrization of the chain must have one).
     */
    public static void assign(Module module, String tensorName, Tensor value) {
        parametrizations(module, tensorName).rightInverse(value);
    }

    /** {@code remove_parametrizations(module, tensor_name)}: leaves the tensor parametrized (its current value). */
    public static Module removeParametrizations(Module module, String tensorName) {
        return removeParametrizations(module, tensorName, true);
    }

    /**
     * {@code remove_parametrizations(module, tensor_name, leave_parametrized)}: the tensor becomes a plain parameter
     * (or buffer) again, registered anew (last in the module's table, as PyTorch re-registers it), holding its current
     * parametrized value or, with {@code leaveParametrized=false}, the original. A one-tensor original keeps its
     * identity (PyTorch's {@code set_}), so an optimizer built on it keeps working; the {@code parametrizations} child
     * goes away with the last parametrization.
     */
    public static Module removeParametrizations(Module module, String tensorName, boolean leaveParametrized) {
        ParametrizationList list = parametrizations(module, tensorName);
        Tensor original;
        boolean parameter;
        if (list.isTensor()) {
            original = list.originals().getFirst();
            parameter = list.registeredParameters().containsKey("original");
            if (leaveParametrized) {
                try (var _ = Torch.noGrad()) {
                    original.setData(list.value().detach());
                }
            }
        } else if (leaveParametrized) {
            Tensor t = list.value();
            parameter = t.requiresGrad();
            original = t.detach();
        } else {
            throw new TorchException("Cannot leave unparametrized (`leave_parametrized=False`) a tensor that is "
                    + "parametrized in terms of a sequence of tensors.");
        }
        module.computedAttribute(tensorName, null);
        ModuleDict dict = (ModuleDict) module.getSubmodule("parametrizations");
        dict.pop(tensorName);
        if (parameter) module.registerParameter(tensorName, original);
        else module.registerBuffer(tensorName, original);
        if (dict.size() == 0) module.deleteAttribute("parametrizations");
        return module;
    }

    /**
     * {@code cached()}: within the scope, each parametrized tensor is computed once and reused (for a tensor read
     * several times in one forward, such as tied weights); closing the outermost scope drops the values. Per thread.
     */
    public static CacheScope cached() {
        CACHE_DEPTH.get()[0]++;
        return () -> {
            if (--CACHE_DEPTH.get()[0] == 0) CACHE.get().clear();
        };
    }
}
