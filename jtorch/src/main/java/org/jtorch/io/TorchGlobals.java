package org.jtorch.io;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.TorchException;

/**
 * What the globals of a {@code torch.save} pickle mean in Java: the weights-only allowlist of PyTorch 2.15
 * ({@code torch._weights_only_unpickler._get_allowed_globals}) and a Java rebuild for each entry.
 *
 * <p>A GLOBAL is checked when it is read: a name that is neither built in nor allowed by the user fails there with
 * PyTorch's "Weights only load failed" message. Allowed names become values (a {@link DType}, a {@link StorageType}) or
 * inert {@link PyGlobal}s; calling one (REDUCE/NEWOBJ) runs the Java rebuild for it. Nothing is looked up reflectively.
 */
final class TorchGlobals implements PickleReader.Host {
    /** Python 2 module names that protocol-2 pickles use ({@code _compat_pickle.IMPORT_MAPPING}). */
    private static final Map<String, String> IMPORT_MAPPING = Map.of("__builtin__", "builtins", "copy_reg", "copyreg");
    /** Never allowed, even when a user allowlists a name in them. */
    private static final Set<String> BLOCKED_MODULES = Set.of("sys", "os", "posix", "nt");

    private static final Map<String, Object> BUILTIN = new HashMap<>();

    static {
        for (String n : new String[] {
            "collections.OrderedDict",
            "collections.Counter",
            "torch.nn.parameter.Parameter",
            "torch.serialization._get_layout",
            "torch.Size",
            "torch.Tensor",
            "torch.device",
            "_codecs.encode",
            "builtins.bytearray",
            "builtins.set",
            "builtins.complex",
            "torch._tensor._rebuild_from_type_v2"
        }) {
            BUILTIN.put(n, global(n));
        }
        for (String f : new String[] {
            "_rebuild_parameter",
            "_rebuild_parameter_with_state",
            "_rebuild_qtensor",
            "_rebuild_tensor",
            "_rebuild_tensor_v2",
            "_rebuild_tensor_v3",
            "_rebuild_sparse_tensor",
            "_rebuild_meta_tensor_no_storage",
            "_rebuild_wrapper_subclass",
            "_rebuild_device_tensor_from_numpy",
            "_rebuild_device_tensor_from_cpu_tensor"
        }) {
            BUILTIN.put("torch._utils." + f, new PyGlobal("torch._utils", f));
        }
        for (DType d : DType.values()) BUILTIN.put("torch." + d.pyName(), d);
        // dtypes PyTorch allows that JTorch has no DType for: kept as names, refused if a tensor uses them
        for (int bits = 1; bits < 8; bits++) {
            BUILTIN.put("torch.uint" + bits, new PyGlobal("torch", "uint" + bits));
            BUILTIN.put("torch.int" + bits, new PyGlobal("torch", "int" + bits));
        }
        for (String n : new String[] {
            "bits8",
            "bits16",
            "bits1x8",
            "bits2x4",
            "bits4x2",
            "float4_e2m1fn_x2",
            "qint8",
            "quint8",
            "qint32",
            "quint4x2",
            "quint2x4",
            "per_tensor_affine",
            "per_tensor_symmetric",
            "per_channel_affine",
            "per_channel_symmetric",
            "per_channel_affine_float_qparams"
        }) {
            BUILTIN.put("torch." + n, new PyGlobal("torch", n));
        }
        for (String t :
                new String[] {"Double", "Float", "Half", "BFloat16", "Long", "Int", "Short", "Char", "Byte", "Bool"}) {
            for (String prefix : new String[] {"torch.", "torch.cuda.", "torch.sparse.", "torch.cuda.sparse."}) {
                BUILTIN.put(prefix + t + "Tensor", global(prefix + t + "Tensor"));
            }
        }
        BUILTIN.put("torch.storage.TypedStorage", global("torch.storage.TypedStorage"));
    }

    private final boolean weightsOnly;
    private final Map<String, SafeGlobal> user;
    private final TensorRebuild rebuild;
    private final String what;
    private final Set<String> unsafeSeen;
    private final Budget budget;

    /**
     * @param weightsOnly refuse globals that are neither built in nor in {@code user}
     * @param user the user's allowlist at the time of the load
     * @param storages turns persistent ids into storages
     * @param what names the file in messages
     * @param unsafeSeen if not null, collects the names that are not allowlisted (and are then tolerated)
     * @param budget the pickle's work budget, charged for every copy a rebuild makes
     */
    TorchGlobals(
            boolean weightsOnly,
            Map<String, SafeGlobal> user,
            TensorRebuild.Storages storages,
            String what,
            Set<String> unsafeSeen,
            Budget budget) {
        this.weightsOnly = weightsOnly && unsafeSeen == null;
        this.user = user;
        this.rebuild = new TensorRebuild(storages, what, budget);
        this.what = what;
        this.unsafeSeen = unsafeSeen;
        this.budget = budget;
    }

    private static PyGlobal global(String qualified) {
        int dot = qualified.lastIndexOf('.');
        return new PyGlobal(qualified.substring(0, dot), qualified.substring(dot + 1));
    }

    /** True if {@code qualifiedName} is allowed without any user allowlist. */
    static boolean isBuiltin(String qualifiedName) {
        return BUILTIN.containsKey(qualifiedName) || StorageTypes.byQualifiedName(qualifiedName) != null;
    }

    @Override
    public Object global(String module, String name) {
        module = IMPORT_MAPPING.getOrDefault(module, module);
        String full = module + "." + name;
        if (weightsOnly && BLOCKED_MODULES.contains(module)) {
            throw weightsOnlyFailure(
                    "Trying to load unsupported GLOBAL " + full + " whose module " + module + " is blocked.");
        }
        StorageType storage = StorageTypes.byQualifiedName(full);
        if (storage != null) return storage;
        Object builtin = BUILTIN.get(full);
        if (builtin != null) return builtin;
        if (user.containsKey(full)) return new PyGlobal(module, name);
        if (unsafeSeen != null) unsafeSeen.add(full);
        if (!weightsOnly) return new PyGlobal(module, name);
        throw weightsOnlyFailure(
                "Unsupported global: GLOBAL " + full + " was not an allowed global by default. Please use "
                        + "`Serialization.addSafeGlobals(\"" + full + "\")` or the `Serialization.safeGlobals(\"" + full
                        + "\")` try-with-resources scope to allowlist this global if you trust this class/function.");
    }

    private UnpicklingException weightsOnlyFailure(String detail) {
        return new UnpicklingException(
                "Weights only load failed. " + what + " references a global that the weights-only "
                        + "loader does not allow (JTorch never runs pickled code: an allowed global is "
                        + "rebuilt in Java, or kept as an "
                        + "inert PyObject; LoadOptions.weightsOnly(false) keeps every global that "
                        + "way).\n\tWeightsUnpickler error: "
                        + detail);
    }

    @Override
    public Object reduce(Object callable, PyTuple args) {
        if (!(callable instanceof PyGlobal g)) {
            throw new UnpicklingException(
                    what + ": Trying to call reduce for unrecognized function " + PyRepr.of(callable));
        }
        String full = g.qualifiedName();
        return switch (full) {
            case "collections.OrderedDict" -> orderedDict(args);
            case "collections.Counter" -> counter(args);
            case "builtins.set" -> set(args);
            case "builtins.bytearray" -> bytearray(args);
            case "builtins.complex" -> complex(args);
            case "_codecs.encode" -> encode(args);
            case "torch.Size" -> PyTuple.of(ints(arg(args, 0, 1, full), "torch.Size"));
            case "torch.device" -> device(args);
            case "torch.serialization._get_layout" -> string(arg(args, 0, 1, full), full);
            case "torch._utils._rebuild_tensor" -> rebuild.tensorV1(args);
            case "torch._utils._rebuild_tensor_v2" -> rebuild.tensorV2(args);
            case "torch._utils._rebuild_tensor_v3" -> rebuild.tensorV3(args);
            case "torch._utils._rebuild_parameter", "torch._utils._rebuild_parameter_with_state" ->
                rebuild.parameter(args, full);
            case "torch._utils._rebuild_meta_tensor_no_storage" -> rebuild.metaTensor(args);
            case "torch._tensor._rebuild_from_type_v2" -> fromType(args);
            case "torch._utils._rebuild_qtensor" -> throw unsupported(full, "quantized tensors");
            case "torch._utils._rebuild_sparse_tensor" -> throw unsupported(full, "sparse tensors");
            case "torch._utils._rebuild_wrapper_subclass" -> throw unsupported(full, "tensor subclasses");
            case "torch._utils._rebuild_device_tensor_from_numpy",
                    "torch._utils._rebuild_device_tensor_from_cpu_tensor" ->
                throw unsupported(full, "tensors of storage-less devices");
            default -> userCall(g, args, false);
        };
    }

    @Override
    public Object newobj(Object cls, PyTuple args) {
        if (cls instanceof PyGlobal g) {
            if (g.qualifiedName().equals("torch.nn.parameter.Parameter")) {
                if (args.size() < 1 || args.size() > 2 || !(args.get(0) instanceof Tensor data)) {
                    throw new UnpicklingException(
                            what + ": Parameter(data, requires_grad) expects a tensor, got " + args);
                }
                return data.requiresGrad(args.size() < 2 || bool(args.get(1), "Parameter requires_grad"));
            }
            if (!isBuiltin(g.qualifiedName())) return userCall(g, args, true);
        }
        throw new UnpicklingException(what + ": Can only create new object for nn.Parameter or classes allowlisted via "
                + "`Serialization.addSafeGlobals` but got " + PyRepr.of(cls));
    }

    private Object userCall(PyGlobal g, PyTuple args, boolean newobj) {
        SafeGlobal sg = user.get(g.qualifiedName());
        if (sg != null && sg.factory() != null) return sg.factory().apply(args.items());
        if (sg != null || !weightsOnly) return new PyObject(g, newobj, args.items(), null);
        throw new UnpicklingException(what + ": Trying to call reduce for unrecognized function " + g.qualifiedName());
    }

    @Override
    public void build(Object instance, Object state) {
        if (instance instanceof PyOrderedDict d) {
            if (!(state instanceof Map<?, ?> m))
                throw new UnpicklingException(what + ": OrderedDict state must be a dict");
            for (var e : m.entrySet()) {
                if (!(e.getKey() instanceof String k))
                    throw new UnpicklingException(what + ": attribute names must be str");
                d.attributes().put(k, e.getValue());
            }
        } else if (instance instanceof PyObject o) {
            o.setState(state);
        } else {
            throw new UnpicklingException(
                    what + ": Can only build Tensor, Parameter, OrderedDict or types allowlisted via "
                            + "`Serialization.addSafeGlobals`, but got " + PyRepr.typeName(instance));
        }
    }

    @Override
    public Object persistentLoad(Object pid) {
        if (!(pid instanceof PyTuple t) || t.size() == 0) {
            throw new UnpicklingException(
                    what + ": persistent_load id must be a tuple, but got " + PyRepr.typeName(pid));
        }
        Object tag = t.get(0) instanceof byte[] b ? new String(b, StandardCharsets.US_ASCII) : t.get(0);
        if (!"storage".equals(tag)) {
            throw new UnpicklingException(
                    what + ": Only persistent_load of storage is allowed, but got " + PyRepr.of(tag));
        }
        if (t.size() != 5 && t.size() != 6)
            throw new UnpicklingException(what + ": storage id must have 5 or 6 items: " + t);
        if (!(t.get(1) instanceof StorageType type)) {
            throw new UnpicklingException(what + ": storage id names " + PyRepr.of(t.get(1)) + ", not a storage class");
        }
        String key = string(t.get(2), "storage key");
        String location = t.get(3) instanceof byte[] b
                ? new String(b, StandardCharsets.US_ASCII)
                : string(t.get(3), "storage location");
        long numel = nonNegative(t.get(4), "storage numel");
        if (t.size() == 6 && t.get(5) != null) {
            if (!(t.get(5) instanceof PyTuple view) || view.size() != 3) {
                throw new UnpicklingException(
                        what + ": storage view must be (key, offset, size), got " + PyRepr.of(t.get(5)));
            }
            return new StorageRef(
                    type,
                    key,
                    location,
                    numel,
                    string(view.get(0), "view key"),
                    nonNegative(view.get(1), "view offset"),
                    nonNegative(view.get(2), "view size"));
        }
        return new StorageRef(type, key, location, numel, null, 0, 0);
    }

    // ---- builtins ---------------------------------------------------------------------------------

    private PyOrderedDict orderedDict(PyTuple args) {
        PyOrderedDict d = new PyOrderedDict();
        if (args.size() == 1) {
            for (Object item : iterable(args.get(0), "OrderedDict")) {
                if (!(item instanceof PyTuple p) || p.size() != 2)
                    throw new UnpicklingException(what + ": OrderedDict items must be pairs");
                d.put(PickleReader.hashable(p.get(0), what, budget), p.get(1));
            }
        } else if (args.size() > 1) {
            throw new UnpicklingException(what + ": OrderedDict expected at most 1 argument, got " + args.size());
        }
        return d;
    }

    private Map<Object, Object> counter(PyTuple args) {
        Map<Object, Object> m = new LinkedHashMap<>();
        if (args.size() == 1 && args.get(0) instanceof Map<?, ?> src) {
            budget.charge(src.size());
            for (var e : src.entrySet()) m.put(e.getKey(), e.getValue());
        } else if (args.size() != 0) {
            throw new UnpicklingException(what + ": Counter expects () or (dict,), got " + args);
        }
        return m;
    }

    private Set<Object> set(PyTuple args) {
        Set<Object> s = new LinkedHashSet<>();
        if (args.size() == 1) {
            for (Object o : iterable(args.get(0), "set")) s.add(PickleReader.hashable(o, what, budget));
        } else if (args.size() != 0) {
            throw new UnpicklingException(what + ": set expected at most 1 argument, got " + args.size());
        }
        return s;
    }

    private byte[] bytearray(PyTuple args) {
        if (args.size() == 0) return new byte[0];
        if (args.size() == 1 && args.get(0) instanceof byte[] b) {
            budget.charge(b.length);
            return b.clone();
        }
        if (args.size() == 2) return encode(args);
        throw new UnpicklingException(what + ": bytearray expects (), (bytes,) or (str, encoding), got " + args);
    }

    /** {@code _codecs.encode(str, encoding)}: how protocol 2 pickles {@code bytes}. */
    private byte[] encode(PyTuple args) {
        if (args.size() != 2 || !(args.get(0) instanceof String s) || !(args.get(1) instanceof String enc)) {
            throw new UnpicklingException(what + ": _codecs.encode expects (str, encoding), got " + args);
        }
        budget.charge(s.length());
        return switch (enc.toLowerCase(java.util.Locale.ROOT).replace('_', '-')) {
            case "latin1", "latin-1", "iso-8859-1" -> {
                for (int i = 0; i < s.length(); i++) {
                    if (s.charAt(i) > 0xff)
                        throw new UnpicklingException(what + ": _codecs.encode: character out of latin-1 range");
                }
                yield s.getBytes(StandardCharsets.ISO_8859_1);
            }
            case "utf-8", "utf8" -> s.getBytes(StandardCharsets.UTF_8);
            case "ascii" -> {
                for (int i = 0; i < s.length(); i++) {
                    if (s.charAt(i) > 0x7f)
                        throw new UnpicklingException(what + ": _codecs.encode: character out of ascii range");
                }
                yield s.getBytes(StandardCharsets.US_ASCII);
            }
            default -> throw new UnpicklingException(what + ": _codecs.encode: unsupported encoding " + PyRepr.of(enc));
        };
    }

    private PyComplex complex(PyTuple args) {
        if (args.size() > 2) throw new UnpicklingException(what + ": complex expects at most 2 arguments, got " + args);
        return new PyComplex(args.size() > 0 ? real(args.get(0)) : 0, args.size() > 1 ? real(args.get(1)) : 0);
    }

    private double real(Object o) {
        if (o instanceof Double d) return d;
        if (o instanceof Long l) return l;
        if (o instanceof Boolean b) return b ? 1 : 0;
        throw new UnpicklingException(
                what + ": complex() argument must be a real number, not '" + PyRepr.typeName(o) + "'");
    }

    /** {@code torch.device}: {@link Device} for the devices JTorch has, else the device string ({@code "cuda:0"}). */
    private Object device(PyTuple args) {
        if (args.size() < 1 || args.size() > 2)
            throw new UnpicklingException(what + ": torch.device expects (type[, index])");
        String type = string(args.get(0), "torch.device");
        if (args.size() == 2 && args.get(1) != null) type = type + ":" + nonNegative(args.get(1), "device index");
        if (type.equals(Device.CPU.type())) return Device.CPU;
        if (type.equals(Device.META.type())) return Device.META;
        return type;
    }

    /** {@code _rebuild_from_type_v2(func, new_type, args, state)}: a plain-tensor rebuild wrapped with Python state. */
    private Object fromType(PyTuple args) {
        if (args.size() != 4 || !(args.get(0) instanceof PyGlobal func) || !(args.get(2) instanceof PyTuple inner)) {
            throw new UnpicklingException(
                    what + ": _rebuild_from_type_v2 expects (func, new_type, args, state), got " + args);
        }
        Object type = args.get(1);
        boolean tensorType = type instanceof PyGlobal t
                && (t.qualifiedName().equals("torch.Tensor")
                        || t.qualifiedName().equals("torch.nn.parameter.Parameter"));
        if (!tensorType) {
            if (type instanceof PyGlobal t && user.containsKey(t.qualifiedName())) {
                throw unsupported(t.qualifiedName(), "tensor subclasses");
            }
            throw new UnpicklingException(what + ": _rebuild_from_type_v2 of " + PyRepr.of(type)
                    + ": only torch.Tensor and " + "nn.Parameter are supported");
        }
        // only the plain rebuilds: a nested _rebuild_from_type_v2 would let a file drive this method's recursion
        if (!func.module().equals("torch._utils")
                || !func.name().startsWith("_rebuild_")
                || func.name().contains("from_type")) {
            throw new UnpicklingException(
                    what + ": _rebuild_from_type_v2 of " + func + ": expected a torch._utils tensor rebuild");
        }
        Object result = reduce(func, inner);
        if (!(result instanceof Tensor))
            throw new UnpicklingException(what + ": _rebuild_from_type_v2 did not rebuild a tensor");
        return result;
    }

    private TorchException unsupported(String name, String feature) {
        return new TorchException(
                "torch.load: " + what + " contains " + feature + " (" + name + "), which JTorch does not support");
    }

    // ---- argument checks --------------------------------------------------------------------------

    private Object arg(PyTuple args, int i, int count, String fn) {
        if (args.size() != count) {
            throw new UnpicklingException(what + ": " + fn + " expects " + count + " argument(s), got " + args.size());
        }
        return args.get(i);
    }

    private Collection<?> iterable(Object o, String fn) {
        Collection<?> c;
        if (o instanceof List<?> l) c = l;
        else if (o instanceof PyTuple t) c = t.items();
        else if (o instanceof Set<?> s) c = s;
        else c = null;
        if (c != null) {
            budget.charge(c.size());
            return c;
        }
        throw new UnpicklingException(what + ": " + fn + " expects a list or tuple, got " + PyRepr.typeName(o));
    }

    private List<Object> ints(Object o, String fn) {
        List<Object> out = new ArrayList<>();
        for (Object v : iterable(o, fn)) out.add(nonNegative(v, fn));
        return out;
    }

    String string(Object o, String name) {
        if (o instanceof String s) return s;
        throw new UnpicklingException(what + ": " + name + " must be a str, got " + PyRepr.typeName(o));
    }

    boolean bool(Object o, String name) {
        if (o instanceof Boolean b) return b;
        throw new UnpicklingException(what + ": " + name + " must be a bool, got " + PyRepr.typeName(o));
    }

    long nonNegative(Object o, String name) {
        if (o instanceof Long l && l >= 0) return l;
        if (o instanceof Long || o instanceof BigInteger) {
            throw new UnpicklingException(
                    what + ": " + name + " must be a non-negative int below 2^63, got " + PyRepr.of(o));
        }
        throw new UnpicklingException(what + ": " + name + " must be an int, got " + PyRepr.typeName(o));
    }
}
