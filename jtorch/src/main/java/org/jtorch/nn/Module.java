package org.jtorch.nn;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.TorchTypeException;
import org.jtorch.autograd.GradMode;
import org.jtorch.compile.Compile;
import org.jtorch.compile.CompileOptions;
import org.jtorch.io.Serialization;
import org.jtorch.storage.ArrayPool;

/**
 * {@code torch.nn.Module}: a tree of modules owning parameters and buffers.
 *
 * <p>Subclasses register their state from the constructor, in declaration order, with {@link #registerParameter},
 * {@link #registerBuffer} and {@link #register}; that order is the order of {@link #namedParameters()},
 * {@link #stateDict()} and the printed tree, as attribute assignment order is in PyTorch. Layers read their state back
 * through {@link #getParameter}/{@link #getBuffer} rather than fields, so that {@link #to(DType)} (which replaces
 * buffers, while parameters keep their identity) is seen by forward.
 *
 * <p>Single-input modules override {@link #forward(Tensor)} and are invoked with {@link #call(Tensor)}, which runs the
 * forward hooks around it. Modules taking several inputs declare their own typed {@code forward(...)} overloads (and
 * may leave {@code forward(Tensor)} unimplemented); hooks apply to the single-input form only.
 */
public abstract class Module implements Cloneable {
    /**
     * The tensors made or registered as {@code nn.Parameter}s ({@link Parameter} reads and writes it here, so that
     * Module, which the facade names, depends on no module class). Identity-keyed (Tensor keeps Object's equals),
     * weakly held so marking never keeps a tensor alive.
     */
    private static final Set<Tensor> PARAMETERS =
            Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));

    static void markParameter(Tensor t) {
        PARAMETERS.add(t);
    }

    static boolean isMarkedParameter(Tensor t) {
        return t != null && PARAMETERS.contains(t);
    }

    /** {@code forward_pre_hook(module, input)}: returns a replacement input, or null to keep it. */
    @FunctionalInterface
    public interface ForwardPreHook {
        /** Runs before {@code forward} with its input; returns a replacement input, or null to keep it. */
        Tensor apply(Module module, Tensor input);
    }

    /** {@code forward_hook(module, input, output)}: returns a replacement output, or null to keep it. */
    @FunctionalInterface
    public interface ForwardHook {
        /** Runs after {@code forward} with its input and output; returns a replacement output, or null to keep it. */
        Tensor apply(Module module, Tensor input, Tensor output);
    }

    /** {@code load_state_dict}'s result: {@code missing_keys} and {@code unexpected_keys}. */
    public record IncompatibleKeys(List<String> missingKeys, List<String> unexpectedKeys) {
        /**
         * As PyTorch prints {@code _IncompatibleKeys}: {@code <All keys matched successfully>} when both lists are
         * empty, else {@code _IncompatibleKeys(missing_keys=['a'], unexpected_keys=[])}.
         */
        @Override
        public String toString() {
            if (missingKeys.isEmpty() && unexpectedKeys.isEmpty()) return "<All keys matched successfully>";
            return "_IncompatibleKeys(missing_keys=" + pyList(missingKeys) + ", unexpected_keys="
                    + pyList(unexpectedKeys) + ")";
        }

        /** Python's {@code repr} of a list of plain keys: {@code ['a', 'b.c']}. */
        private static String pyList(List<String> keys) {
            return keys.stream()
                    .map(k -> k.contains("'") ? '"' + k + '"' : "'" + k + "'")
                    .collect(java.util.stream.Collectors.joining(", ", "[", "]"));
        }
    }

    // Null values are kept (PyTorch's `register_parameter("bias", None)`): the name is taken but holds no state.
    private final LinkedHashMap<String, Tensor> parameters = new LinkedHashMap<>();
    private final LinkedHashMap<String, Tensor> buffers = new LinkedHashMap<>();
    private final Set<String> nonPersistentBuffers = new HashSet<>();
    private final LinkedHashMap<String, Module> modules = new LinkedHashMap<>();
    // Tensors computed on each read: the properties nn.utils.parametrize puts on a parametrized module's class.
    private final LinkedHashMap<String, Supplier<Tensor>> computed = new LinkedHashMap<>();
    private final List<ForwardPreHook> forwardPreHooks = new ArrayList<>();
    private final List<ForwardHook> forwardHooks = new ArrayList<>();
    private boolean training = true;
    // What call(input) runs when the module is compiled (compile(), or a copy made by compiledCopy); null when eager.
    private Function<Tensor, Tensor> compiledCall;

    /** A module with no parameters, buffers or submodules yet, in training mode ({@code nn.Module.__init__}). */
    protected Module() {}

    // ---- registration ------------------------------------------------------------------------------

    /** {@code register_parameter(name, param)}: marks a non-null tensor as requiring grad (an {@code nn.Parameter}). */
    public final Tensor registerParameter(String name, Tensor param) {
        checkName(name, "parameter", parameters);
        if (param != null && param.gradFn() != null) {
            throw new IllegalArgumentException(
                    "Cannot assign non-leaf Tensor to parameter '" + name + "'. Model parameters "
                            + "must be created explicitly. To express '" + name
                            + "' as a function of another Tensor, compute the "
                            + "value in the forward() method.");
        }
        // A Parameter keeps the requires_grad it was made with (a frozen one stays frozen); a plain tensor becomes one.
        if (param != null && !isMarkedParameter(param)) {
            if (!param.requiresGrad() && (param.isFloatingPoint() || param.isComplex())) param.requiresGrad(true);
            markParameter(param);
        }
        if (param != null) ArrayPool.keepInOpenScopes(param.impl().storage()); // module state outlives any call
        parameters.put(name, param);
        return param;
    }

    /**
     * {@code setattr(module, name, value)} as {@code Module.__setattr__} treats registered state: a {@link Parameter}
     * is registered as a parameter (leaving any buffer or submodule of that name), a {@code Module} as a submodule
     * (leaving any parameter or buffer); a name already registered takes only its own kind or null (PyTorch's TypeError
     * otherwise), a buffer any tensor. Java modules keep other attributes in fields, so a value that is none of these
     * for an unregistered name is refused.
     */
    public final void setAttribute(String name, Object value) {
        if (value instanceof Tensor t && isMarkedParameter(t)) {
            removeState(name, false);
            registerParameter(name, t);
        } else if (parameters.containsKey(name)) {
            if (value != null) {
                throw new TorchTypeException("cannot assign '" + typeName(value) + "' as parameter '" + name
                        + "' (torch.nn.Parameter or None expected)");
            }
            parameters.put(name, null);
        } else if (value instanceof Module m) {
            removeState(name, true);
            register(name, m);
        } else if (modules.containsKey(name)) {
            if (value != null) {
                throw new TorchTypeException("cannot assign '" + typeName(value) + "' as child module '" + name
                        + "' (torch.nn.Module or None expected)");
            }
            modules.put(name, null);
        } else if (buffers.containsKey(name)) {
            if (value != null && !(value instanceof Tensor)) {
                throw new TorchTypeException("cannot assign '" + typeName(value) + "' as buffer '" + name
                        + "' (torch.Tensor or None expected)");
            }
            buffers.put(name, (Tensor) value);
        } else {
            throw new IllegalArgumentException("cannot assign '" + typeName(value) + "' to '" + name() + "." + name
                    + "': only a Parameter, a Module, or a value for a registered buffer is registered");
        }
    }

    /** Drops {@code name} from the buffers and from the submodules or (for a module) the parameters. */
    private void removeState(String name, boolean forModule) {
        buffers.remove(name);
        nonPersistentBuffers.remove(name);
        if (forModule) parameters.remove(name);
        else modules.remove(name);
    }

    /** {@code torch.typename(value)}: {@code torch.FloatTensor} for a tensor, else the class's simple name. */
    private static String typeName(Object value) {
        if (value == null) return "NoneType";
        if (value instanceof Tensor t) return "torch." + t.dtype().cppName() + "Tensor";
        return value.getClass().getSimpleName();
    }

    /** {@code register_buffer(name, tensor)}: a persistent buffer. */
    public final Tensor registerBuffer(String name, Tensor buffer) {
        return registerBuffer(name, buffer, true);
    }

    /** {@code register_buffer(name, tensor, persistent)}: non-persistent buffers stay out of the state dict. */
    public final Tensor registerBuffer(String name, Tensor buffer, boolean persistent) {
        checkName(name, "buffer", buffers);
        if (buffer != null) ArrayPool.keepInOpenScopes(buffer.impl().storage()); // module state outlives any call
        buffers.put(name, buffer);
        if (!persistent) nonPersistentBuffers.add(name);
        return buffer;
    }

    /** {@code register_module(name, module)} (attribute assignment of a submodule); returns the module. */
    public final <T extends Module> T register(String name, T module) {
        checkName(name, "module", modules);
        modules.put(name, module);
        return module;
    }

    private void checkName(String name, String kind, Map<String, ?> own) {
        if (name == null) throw new TorchTypeException(kind + " name should be a string. Got None");
        if (name.contains(".")) throw new IllegalArgumentException(kind + " name can't contain \".\"");
        if (name.isEmpty()) throw new IllegalArgumentException(kind + " name can't be empty string \"\"");
        boolean taken = (own != parameters && parameters.containsKey(name))
                || (own != buffers && buffers.containsKey(name))
                || (own != modules && modules.containsKey(name))
                || computed.containsKey(name);
        // Re-registering under the same kind replaces in place, as PyTorch does; clashing across kinds is an error.
        if (taken) throw new IllegalArgumentException("attribute '" + name + "' already exists");
    }

    /**
     * {@code delattr(module, name)}: removes the parameter, buffer or submodule registered under {@code name}, so that
     * the name can be registered again (at the end of its table, as in PyTorch's ordered dicts).
     */
    public final void deleteAttribute(String name) {
        if (parameters.containsKey(name)) parameters.remove(name);
        else if (buffers.containsKey(name)) {
            buffers.remove(name);
            nonPersistentBuffers.remove(name);
        } else if (modules.containsKey(name)) modules.remove(name);
        else throw new IllegalArgumentException("'" + name() + "' object has no attribute '" + name + "'");
    }

    /**
     * Installs (or, with a null getter, removes) a tensor attribute computed on every read: the property
     * {@code torch.nn.utils.parametrize} injects into a parametrized module's class ({@code _inject_property}), or the
     * plain attribute {@code torch.nn.utils.prune}'s hook assigns. {@link #getParameter} reads it, so layers see the
     * computed tensor where they read their weight; it is neither a parameter nor a buffer, so it is in no state dict.
     */
    public final void computedAttribute(String name, Supplier<Tensor> getter) {
        if (getter == null) {
            computed.remove(name);
            return;
        }
        if (parameters.containsKey(name) || buffers.containsKey(name) || modules.containsKey(name))
            throw new IllegalArgumentException("attribute '" + name + "' already exists");
        computed.put(name, getter);
    }

    /** Whether {@code name} is an attribute installed by {@link #computedAttribute}. */
    public final boolean hasComputedAttribute(String name) {
        return computed.containsKey(name);
    }

    // ---- access --------------------------------------------------------------------------------------

    /** {@code _modules}: this module's own submodules as registered (duplicates kept); a read-only view. */
    public final Map<String, Module> registeredModules() {
        return Collections.unmodifiableMap(modules);
    }

    /** {@code _parameters}: this module's own parameters as registered (None entries kept); a read-only view. */
    public final Map<String, Tensor> registeredParameters() {
        return Collections.unmodifiableMap(parameters);
    }

    /** {@code _buffers}: this module's own buffers as registered (None entries kept); a read-only view. */
    public final Map<String, Tensor> registeredBuffers() {
        return Collections.unmodifiableMap(buffers);
    }

    /**
     * {@code get_parameter(target)}: a parameter by dotted path ({@code "0.weight"}); null when registered as None. A
     * parametrized or pruned tensor (see {@link #computedAttribute}) is computed and returned, as reading
     * {@code module.weight} does in PyTorch, since layers read their weights through this method.
     */
    public Tensor getParameter(String target) {
        int dot = target.lastIndexOf('.');
        Module owner = dot < 0 ? this : getSubmodule(target.substring(0, dot));
        String name = target.substring(dot + 1);
        Supplier<Tensor> getter = owner.computed.get(name);
        if (getter != null) return getter.get();
        if (!owner.parameters.containsKey(name)) {
            throw new IllegalArgumentException(owner.name() + " has no parameter `" + name + "`");
        }
        return owner.parameters.get(name);
    }

    /** {@code get_buffer(target)}: a buffer by dotted path. */
    public Tensor getBuffer(String target) {
        int dot = target.lastIndexOf('.');
        Module owner = dot < 0 ? this : getSubmodule(target.substring(0, dot));
        String name = target.substring(dot + 1);
        if (!owner.buffers.containsKey(name))
            throw new IllegalArgumentException(owner.name() + " has no buffer `" + name + "`");
        return owner.buffers.get(name);
    }

    /** {@code get_submodule(target)}: a descendant by dotted path; {@code ""} is this module. */
    public Module getSubmodule(String target) {
        if (target.isEmpty()) return this;
        Module m = this;
        for (String item : target.split("\\.", -1)) {
            Module next = m.modules.get(item);
            if (next == null) throw new IllegalArgumentException(m.name() + " has no attribute `" + item + "`");
            m = next;
        }
        return m;
    }

    /**
     * Puts {@code tensors} (by dotted name) in place of parameters and buffers until the returned scope closes, which
     * restores the originals ({@code torch.func.functional_call}'s reparametrization). The tensors are used as they
     * are: unlike {@link #registerParameter}, nothing is marked as requiring grad.
     */
    public AutoCloseable substituteTensors(Map<String, Tensor> tensors) {
        List<String> unexpected = new ArrayList<>();
        for (String key : tensors.keySet()) {
            int dot = key.lastIndexOf('.');
            Module owner;
            try {
                owner = dot < 0 ? this : getSubmodule(key.substring(0, dot));
            } catch (IllegalArgumentException e) {
                unexpected.add(key);
                continue;
            }
            String name = key.substring(dot + 1);
            if (!owner.parameters.containsKey(name) && !owner.buffers.containsKey(name)) unexpected.add(key);
        }
        if (!unexpected.isEmpty()) {
            throw new IllegalArgumentException("Unexpected key(s): "
                    + String.join(
                            ", ", unexpected.stream().map(k -> "'" + k + "'").toList()) + ".");
        }
        List<Runnable> restore = new ArrayList<>();
        for (Map.Entry<String, Tensor> e : tensors.entrySet()) {
            String key = e.getKey();
            int dot = key.lastIndexOf('.');
            Module owner = dot < 0 ? this : getSubmodule(key.substring(0, dot));
            String name = key.substring(dot + 1);
            Map<String, Tensor> slot = owner.parameters.containsKey(name) ? owner.parameters : owner.buffers;
            Tensor old = slot.put(name, e.getValue());
            restore.add(() -> slot.put(name, old));
        }
        return () -> {
            for (int i = restore.size() - 1; i >= 0; i--) restore.get(i).run();
        };
    }

    /** {@code named_parameters()}: recursive, dotted names, each tensor once (tied weights keep their first name). */
    public LinkedHashMap<String, Tensor> namedParameters() {
        return namedTensors(true, true);
    }

    /** {@code parameters()}: the values of {@link #namedParameters()}, ready for an optimizer. */
    public List<Tensor> parameters() {
        return new ArrayList<>(namedParameters().values());
    }

    /** {@code named_buffers()}: recursive, persistent and non-persistent. */
    public LinkedHashMap<String, Tensor> namedBuffers() {
        return namedTensors(false, true);
    }

    /** {@code buffers()}. */
    public List<Tensor> buffers() {
        return new ArrayList<>(namedBuffers().values());
    }

    /** {@code named_children()}: the direct submodules. */
    public LinkedHashMap<String, Module> namedChildren() {
        LinkedHashMap<String, Module> out = new LinkedHashMap<>();
        Set<Module> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        modules.forEach((k, m) -> {
            if (m != null && seen.add(m)) out.put(k, m);
        });
        return out;
    }

    /** {@code children()}. */
    public List<Module> children() {
        return new ArrayList<>(namedChildren().values());
    }

    /** {@code named_modules()}: this module (name {@code ""}) and every descendant, pre-order, each once. */
    public LinkedHashMap<String, Module> namedModules() {
        LinkedHashMap<String, Module> out = new LinkedHashMap<>();
        collectModules("", Collections.newSetFromMap(new IdentityHashMap<>()), out);
        return out;
    }

    /** {@code modules()}. */
    public List<Module> modules() {
        return new ArrayList<>(namedModules().values());
    }

    private void collectModules(String prefix, Set<Module> seen, LinkedHashMap<String, Module> out) {
        if (!seen.add(this)) return;
        out.put(prefix, this);
        modules.forEach((k, m) -> {
            if (m != null) m.collectModules(prefix.isEmpty() ? k : prefix + "." + k, seen, out);
        });
    }

    private LinkedHashMap<String, Tensor> namedTensors(boolean params, boolean dedupe) {
        LinkedHashMap<String, Tensor> out = new LinkedHashMap<>();
        Set<Tensor> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        namedModules().forEach((prefix, m) -> (params ? m.parameters : m.buffers).forEach((k, t) -> {
            if (t != null && (!dedupe || seen.add(t))) out.put(prefix.isEmpty() ? k : prefix + "." + k, t);
        }));
        return out;
    }

    // ---- state dict ----------------------------------------------------------------------------------

    /** {@code state_dict()}: parameters then persistent buffers of each module, pre-order, detached, dotted keys. */
    public LinkedHashMap<String, Tensor> stateDict() {
        LinkedHashMap<String, Tensor> out = new LinkedHashMap<>();
        collectState("", out);
        return out;
    }

    private void collectState(String prefix, LinkedHashMap<String, Tensor> out) {
        parameters.forEach((k, t) -> {
            if (t != null) out.put(prefix + k, t.detach());
        });
        buffers.forEach((k, t) -> {
            if (t != null && !nonPersistentBuffers.contains(k)) out.put(prefix + k, t.detach());
        });
        modules.forEach((k, m) -> {
            if (m != null) m.collectState(prefix + k + ".", out);
        });
    }

    /** {@code load_state_dict(state_dict)} with {@code strict=True}. */
    public IncompatibleKeys loadStateDict(Map<String, Tensor> stateDict) {
        return loadStateDict(stateDict, true);
    }

    /**
     * {@code load_state_dict(state_dict, strict)}: copies values into the existing tensors (their identity and dtype
     * are kept). Every check runs before any copy, so a failed load leaves the module unchanged. Shape mismatches
     * always fail; missing and unexpected keys fail only when strict.
     */
    public IncompatibleKeys loadStateDict(Map<String, Tensor> stateDict, boolean strict) {
        LinkedHashMap<String, Tensor> own = new LinkedHashMap<>();
        collectStateTensors("", own);
        List<String> missing = new ArrayList<>();
        List<String> mismatches = new ArrayList<>();
        own.forEach((key, target) -> {
            Tensor source = stateDict.get(key);
            if (source == null) {
                missing.add(key);
            } else if (!Arrays.equals(source.impl().shapeRef(), target.impl().shapeRef())) {
                mismatches.add("size mismatch for " + key + ": copying a param with shape " + torchSize(source)
                        + " from checkpoint, the shape in current model is " + torchSize(target) + ".");
            }
        });
        List<String> unexpected = new ArrayList<>();
        for (String key : stateDict.keySet()) if (!own.containsKey(key)) unexpected.add(key);
        List<String> errors = new ArrayList<>();
        if (strict && !missing.isEmpty()) errors.add("Missing key(s) in state_dict: " + quoted(missing) + ". ");
        if (strict && !unexpected.isEmpty())
            errors.add("Unexpected key(s) in state_dict: " + quoted(unexpected) + ". ");
        errors.addAll(mismatches);
        if (!errors.isEmpty()) {
            throw new TorchException(
                    "Error(s) in loading state_dict for " + name() + ":\n\t" + String.join("\n\t", errors));
        }
        try (var _ = GradMode.set(false)) {
            own.forEach((key, target) -> {
                Tensor source = stateDict.get(key);
                if (source != null) target.copy_(source);
            });
        }
        return new IncompatibleKeys(List.copyOf(missing), List.copyOf(unexpected));
    }

    /**
     * {@code load_state_dict(torch.load(path, weights_only=True))}, strict: the idiom of loading saved weights, with
     * the file read by {@link Serialization#loadStateDict}.
     */
    public IncompatibleKeys loadStateDict(java.nio.file.Path path) {
        return loadStateDict(Serialization.loadStateDict(path));
    }

    /** The live tensors behind {@link #stateDict()} keys (not detached: they are the copy targets). */
    private void collectStateTensors(String prefix, LinkedHashMap<String, Tensor> out) {
        parameters.forEach((k, t) -> {
            if (t != null) out.put(prefix + k, t);
        });
        buffers.forEach((k, t) -> {
            if (t != null && !nonPersistentBuffers.contains(k)) out.put(prefix + k, t);
        });
        modules.forEach((k, m) -> {
            if (m != null) m.collectStateTensors(prefix + k + ".", out);
        });
    }

    private static String torchSize(Tensor t) {
        StringBuilder sb = new StringBuilder("torch.Size([");
        long[] s = t.impl().shapeRef();
        for (int i = 0; i < s.length; i++) sb.append(i > 0 ? ", " : "").append(s[i]);
        return sb.append("])").toString();
    }

    private static String quoted(List<String> keys) {
        List<String> q = new ArrayList<>();
        for (String k : keys) q.add("\"" + k + "\"");
        return String.join(", ", q);
    }

    // ---- modes and bulk operations -------------------------------------------------------------------

    /** {@code train(mode)}: sets training mode on this module and every descendant; returns this. */
    public Module train(boolean mode) {
        for (Module m : modules()) m.training = mode;
        return this;
    }

    /** {@code train()}. */
    public Module train() {
        return train(true);
    }

    /** {@code eval()}: {@code train(false)}. */
    public Module eval() {
        return train(false);
    }

    /** {@code training}. */
    public boolean isTraining() {
        return training;
    }

    /** {@code apply(fn)}: children first (recursively), then this module, as PyTorch orders it; returns this. */
    public Module apply(Consumer<Module> fn) {
        for (Module child : children()) child.apply(fn);
        fn.accept(this);
        return this;
    }

    /** {@code zero_grad()}: sets every parameter's gradient to None (PyTorch's default {@code set_to_none=True}). */
    public void zeroGrad() {
        for (Tensor p : parameters()) p.setGrad(null);
    }

    /** {@code requires_grad_(requires_grad)}: on every parameter; returns this. */
    public Module requiresGrad_(boolean requiresGrad) {
        for (Tensor p : parameters()) p.requiresGrad(requiresGrad);
        return this;
    }

    /**
     * {@code to(dtype)}: casts floating-point and complex parameters and buffers. Each parameter keeps its identity and
     * takes the cast data ({@link Tensor#setData}), as PyTorch's {@code param.data = fn(param)}, so that an optimizer
     * built before keeps training the model; buffers are replaced. Tensors already of the dtype are kept as they are.
     */
    public Module to(DType dtype) {
        if (!(dtype.isFloatingPoint() || dtype.isComplex())) {
            throw new TorchTypeException(
                    "nn.Module.to only accepts floating point or complex dtypes, but got desired dtype=" + dtype);
        }
        return applyToTensors(t -> t.isFloatingPoint() || t.isComplex() ? t.to(dtype) : t);
    }

    /** {@code to(device)}: moves parameters (keeping their identity) and buffers to {@code device}. */
    public Module to(Device device) {
        return applyToTensors(t -> t.to(device));
    }

    /** {@code cpu()}: {@code to(Device.CPU)}. */
    public Module cpu() {
        return to(Device.CPU);
    }

    /** {@code half()}: floating-point parameters and buffers to float16 (complex ones are left alone). */
    public Module half() {
        return applyToTensors(t -> t.isFloatingPoint() ? t.to(DType.FLOAT16) : t);
    }

    /** {@code bfloat16()}: floating-point parameters and buffers to bfloat16. */
    public Module bfloat16() {
        return applyToTensors(t -> t.isFloatingPoint() ? t.to(DType.BFLOAT16) : t);
    }

    /** {@code float()} (a Java keyword, hence the name): floating-point parameters and buffers to float32. */
    public Module toFloat() {
        return applyToTensors(t -> t.isFloatingPoint() ? t.to(DType.FLOAT32) : t);
    }

    /** {@code double()} (a Java keyword, hence the name): floating-point parameters and buffers to float64. */
    public Module toDouble() {
        return applyToTensors(t -> t.isFloatingPoint() ? t.to(DType.FLOAT64) : t);
    }

    /**
     * {@code _apply(fn)}: applies {@code fn} (with grad mode off) to every parameter, its gradient and every buffer of
     * this module and its descendants. A parameter whose result is another tensor takes that tensor's data and keeps
     * its identity, as does its gradient (PyTorch's default,
     * {@code torch.__future__.get_overwrite_module_params_on_conversion() == False}); a buffer is replaced by the
     * result. Returns this.
     */
    public Module applyToTensors(UnaryOperator<Tensor> fn) {
        for (Module m : modules()) {
            for (Tensor p : m.parameters.values()) {
                if (p == null) continue;
                convertInPlace(p, fn);
                if (p.grad() != null) convertInPlace(p.grad(), fn);
            }
            m.buffers.replaceAll((k, b) -> {
                if (b == null) return null;
                try (var _ = GradMode.set(false)) {
                    return fn.apply(b);
                }
            });
        }
        return this;
    }

    private static void convertInPlace(Tensor t, UnaryOperator<Tensor> fn) {
        Tensor applied;
        try (var _ = GradMode.set(false)) {
            applied = fn.apply(t);
        }
        if (applied != t) t.setData(applied);
    }

    // ---- forward and hooks ---------------------------------------------------------------------------

    /** {@code forward(input)}: the computation of a single-input module; call it through {@link #call(Tensor)}. */
    public Tensor forward(Tensor input) {
        throw new UnsupportedOperationException("Module [" + name() + "] is missing the required \"forward\" function");
    }

    /**
     * {@code module(input)} ({@code __call__}): forward pre-hooks, {@link #forward(Tensor)}, then forward hooks;
     * through the compiled graph when the module is {@linkplain #compile() compiled}.
     */
    public final Tensor call(Tensor input) {
        Function<Tensor, Tensor> compiled = compiledCall;
        return compiled == null ? callEagerly(input) : compiled.apply(input);
    }

    private Tensor callEagerly(Tensor input) {
        for (ForwardPreHook hook : List.copyOf(forwardPreHooks)) {
            Tensor replaced = hook.apply(this, input);
            if (replaced != null) input = replaced;
        }
        Tensor output = forward(input);
        for (ForwardHook hook : List.copyOf(forwardHooks)) {
            Tensor replaced = hook.apply(this, input, output);
            if (replaced != null) output = replaced;
        }
        return output;
    }

    // ---- compile ---------------------------------------------------------------------------------------

    /**
     * {@code nn.Module.compile()}: compiles this module's calls in place, with the default options (see
     * {@link Compile}: the forward and its hooks are captured on the first call, and their Java side effects run at
     * capture time).
     */
    public void compile() {
        compile(CompileOptions.defaults());
    }

    /** {@code nn.Module.compile(**kwargs)}: {@link #compile()} with these options. */
    public void compile(CompileOptions options) {
        compiledCall = compiledCallOf(this, options);
    }

    /**
     * What {@code torch.compile(module)} returns: a shallow copy of this module, of the same class, sharing its
     * parameters, buffers, submodules and hooks, whose calls run compiled; this module stays eager. (PyTorch wraps the
     * module in an {@code OptimizedModule} whose state-dict keys gain an {@code _orig_mod.} prefix; the copy keeps the
     * module's own keys.)
     */
    public Module compiledCopy(CompileOptions options) {
        Module copy;
        try {
            copy = (Module) super.clone();
        } catch (CloneNotSupportedException e) {
            throw new AssertionError("Module is Cloneable", e);
        }
        copy.compiledCall = compiledCallOf(copy, options);
        return copy;
    }

    private static Function<Tensor, Tensor> compiledCallOf(Module module, CompileOptions options) {
        return Compile.compileModuleCall(
                module::callEagerly,
                options,
                module::compileGuardState,
                module::namedParametersAndBuffers,
                module.name() + ".forward");
    }

    /** What a compiled call assumed: every module's training flag and hooks, and the tensors it holds (by identity). */
    private List<Object> compileGuardState() {
        List<Object> state = new ArrayList<>();
        for (Module m : modules()) {
            state.add(m.training);
            state.addAll(m.forwardPreHooks);
            state.addAll(m.forwardHooks);
        }
        state.addAll(namedParametersAndBuffers().values());
        return state;
    }

    private Map<String, Tensor> namedParametersAndBuffers() {
        Map<String, Tensor> all = new LinkedHashMap<>(namedParameters());
        all.putAll(namedBuffers());
        return all;
    }

    /** {@code register_forward_pre_hook(hook)}: closing the handle removes the hook. */
    public AutoCloseable registerForwardPreHook(ForwardPreHook hook) {
        forwardPreHooks.add(hook);
        return () -> forwardPreHooks.remove(hook);
    }

    /** {@code _forward_pre_hooks}: the registered forward pre-hooks in order; a read-only view. */
    public final List<ForwardPreHook> forwardPreHooks() {
        return Collections.unmodifiableList(forwardPreHooks);
    }

    /** {@code register_forward_hook(hook)}: closing the handle removes the hook. */
    public AutoCloseable registerForwardHook(ForwardHook hook) {
        forwardHooks.add(hook);
        return () -> forwardHooks.remove(hook);
    }

    // ---- printing ------------------------------------------------------------------------------------

    /** {@code _get_name()}: the name shown in the printed tree and in error messages. */
    protected String name() {
        return getClass().getSimpleName();
    }

    /** {@code extra_repr()}: the module's own settings, shown inside its parentheses; empty by default. */
    protected String extraRepr() {
        return "";
    }

    /** {@code repr(module)}: the module tree in PyTorch's layout. */
    @Override
    public String toString() {
        List<String> extraLines =
                extraRepr().isEmpty() ? List.of() : List.of(extraRepr().split("\n", -1));
        List<String> childLines = new ArrayList<>();
        modules.forEach((k, m) -> childLines.add("(" + k + "): " + indent(m == null ? "None" : m.toString())));
        List<String> lines = new ArrayList<>(extraLines);
        lines.addAll(childLines);
        StringBuilder sb = new StringBuilder(name()).append('(');
        if (!lines.isEmpty()) {
            if (extraLines.size() == 1 && childLines.isEmpty()) sb.append(extraLines.get(0));
            else sb.append("\n  ").append(String.join("\n  ", lines)).append('\n');
        }
        return sb.append(')').toString();
    }

    /** {@code _addindent(s, 2)}: indents every line but the first. */
    private static String indent(String s) {
        String[] lines = s.split("\n", -1);
        if (lines.length == 1) return s;
        StringBuilder sb = new StringBuilder(lines[0]);
        for (int i = 1; i < lines.length; i++) sb.append("\n  ").append(lines[i]);
        return sb.toString();
    }
}
