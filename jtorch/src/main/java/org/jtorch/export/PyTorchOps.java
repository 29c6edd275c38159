package org.jtorch.export;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.nn.functional.F;
import org.jtorch.ops.OpDef;
import org.jtorch.ops.OpRegistry;

/**
 * The ops a {@code .pt2} program names ({@code torch.ops.aten.linear.default}) as JTorch's op definitions. A name is
 * looked up in the op registry first. PyTorch's {@code export} keeps its CompositeImplicitAutograd ops (linear, conv2d,
 * batch_norm, layer_norm, scaled_dot_product_attention...) in the graph it saves; JTorch implements those in its Java
 * API ({@link F}) rather than as registered ops, so this class defines them as composites over that API, with PyTorch's
 * schemas (their argument names are how the archive passes arguments). An in-place overload the registry lacks
 * ({@code aten.add_.Tensor}) runs as the in-place form of its functional op, and a scalar overload it lacks
 * ({@code aten.eq.Scalar}) as the tensor overload with a wrapped number. Any other name is refused.
 */
final class PyTorchOps {
    private PyTorchOps() {}

    /** An op of the program: its definition, and whether the node writes its first argument. */
    record Resolved(OpDef op, boolean inPlace) {}

    private static final Pattern TARGET = Pattern.compile(
            "torch\\.ops\\.([A-Za-z_][A-Za-z0-9_]*)\\." + "([A-Za-z_][A-Za-z0-9_]*)\\.([A-Za-z_][A-Za-z0-9_]*)");

    private static final Map<String, OpDef> COMPOSITES = composites();

    /** The op {@code target} names; {@code what} names the program in errors. */
    static Resolved resolve(String target, String what) {
        var m = TARGET.matcher(target);
        if (!m.matches()) throw new TorchException(what + ": '" + target + "' is not an operator JTorch can run");
        String ns = m.group(1), name = m.group(2), overload = m.group(3);
        String suffix = overload.equals("default") ? "" : "." + overload;
        OpDef op = lookup(ns + "::" + name + suffix);
        if (op != null) return new Resolved(op, false);
        String tensorOverload = TENSOR_OVERLOADS.get(overload);
        if (tensorOverload != null) {
            // foo.Scalar(Tensor self, Scalar other): JTorch's foo.Tensor takes the number as a wrapped number
            op = OpRegistry.lookup(ns + "::" + name + "." + tensorOverload);
            if (op != null) return new Resolved(op, false);
        }
        if (name.endsWith("_") && name.length() > 1) {
            OpDef functional = OpRegistry.lookup(ns + "::" + name.substring(0, name.length() - 1) + suffix);
            if (functional != null && functional.compositeFn() == null) return new Resolved(functional, true);
        }
        throw new TorchException(
                what + ": the program calls " + ns + "." + name + "." + overload + ", which JTorch does not implement");
    }

    private static OpDef lookup(String qualified) {
        OpDef op = OpRegistry.lookup(qualified);
        return op != null ? op : COMPOSITES.get(qualified);
    }

    /** PyTorch's overloads taking a scalar where the named one takes a tensor, by name: {@code eq.Scalar}. */
    private static final Map<String, String> TENSOR_OVERLOADS =
            Map.of("Scalar", "Tensor", "Scalar_mode", "Tensor_mode", "Tensor_Scalar", "Tensor_Tensor");

    /**
     * The PyTorch overload for a JTorch call: {@code aten.eq.Tensor(x, -inf)} passes a wrapped number, which JTorch's
     * graphs keep where PyTorch's schema wants a tensor; PyTorch's graph calls the scalar overload instead
     * ({@code aten.eq.Scalar}), whose arguments have the same names.
     */
    static String pyTorchTarget(String target, boolean wrappedNumber) {
        if (!wrappedNumber) return target;
        int dot = target.lastIndexOf('.');
        String overload = target.substring(dot + 1);
        for (var e : TENSOR_OVERLOADS.entrySet()) {
            if (e.getValue().equals(overload)) return target.substring(0, dot + 1) + e.getKey();
        }
        return target;
    }

    private static Map<String, OpDef> composites() {
        Map<String, OpDef> t = new LinkedHashMap<>();
        add(
                t,
                "linear(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor",
                a -> a[2] == null
                        ? F.linear(tensor(a[0]), tensor(a[1]))
                        : F.linear(tensor(a[0]), tensor(a[1]), tensor(a[2])));
        add(
                t,
                "conv1d(Tensor input, Tensor weight, Tensor? bias=None, SymInt[1] stride=1, SymInt[1] padding=0, "
                        + "SymInt[1] dilation=1, SymInt groups=1) -> Tensor",
                a -> F.conv1d(
                        tensor(a[0]),
                        tensor(a[1]),
                        tensor(a[2]),
                        longs(a[3])[0],
                        longs(a[4])[0],
                        longs(a[5])[0],
                        integer(a[6])));
        add(
                t,
                "conv2d(Tensor input, Tensor weight, Tensor? bias=None, SymInt[2] stride=1, SymInt[2] padding=0, "
                        + "SymInt[2] dilation=1, SymInt groups=1) -> Tensor",
                a -> F.conv2d(
                        tensor(a[0]),
                        tensor(a[1]),
                        tensor(a[2]),
                        longs(a[3]),
                        longs(a[4]),
                        longs(a[5]),
                        integer(a[6])));
        add(
                t,
                "conv2d.padding(Tensor input, Tensor weight, Tensor? bias=None, SymInt[2] stride=1, "
                        + "str padding=\"valid\", SymInt[2] dilation=1, SymInt groups=1) -> Tensor",
                a -> F.conv2d(
                        tensor(a[0]),
                        tensor(a[1]),
                        tensor(a[2]),
                        longs(a[3]),
                        (String) a[4],
                        longs(a[5]),
                        integer(a[6])));
        add(
                t,
                "batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? running_var, "
                        + "bool training, float momentum, float eps, bool cudnn_enabled) -> Tensor",
                a -> F.batchNorm(
                        tensor(a[0]),
                        tensor(a[3]),
                        tensor(a[4]),
                        tensor(a[1]),
                        tensor(a[2]),
                        (Boolean) a[5],
                        real(a[6]),
                        real(a[7])));
        add(
                t,
                "max_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, int[2] dilation=1, "
                        + "bool ceil_mode=False) -> Tensor",
                a -> F.maxPool2d(
                        tensor(a[0]), longs(a[1]), emptyIsNull(longs(a[2])), longs(a[3]), longs(a[4]), (Boolean) a[5]));
        add(
                t,
                "adaptive_avg_pool2d(Tensor self, SymInt[2] output_size) -> Tensor",
                a -> F.adaptiveAvgPool2d(tensor(a[0]), longs(a[1])));
        add(
                t,
                "layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight=None, Tensor? bias=None, "
                        + "float eps=1e-05, bool cudnn_enable=True) -> Tensor",
                a -> F.layerNorm(tensor(a[0]), longs(a[1]), tensor(a[2]), tensor(a[3]), real(a[4])));
        add(
                t,
                "group_norm(Tensor input, int num_groups, Tensor? weight=None, Tensor? bias=None, float eps=1e-05, "
                        + "bool cudnn_enabled=True) -> Tensor",
                a -> F.groupNorm(tensor(a[0]), integer(a[1]), tensor(a[2]), tensor(a[3]), real(a[4])));
        add(
                t,
                "rms_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight=None, float? eps=None) -> Tensor",
                a -> F.rmsNorm(tensor(a[0]), longs(a[1]), tensor(a[2]), a[3] == null ? null : real(a[3])));
        add(
                t,
                "scaled_dot_product_attention(Tensor query, Tensor key, Tensor value, Tensor? attn_mask=None, "
                        + "float dropout_p=0.0, bool is_causal=False, *, float? scale=None, "
                        + "bool enable_gqa=False) -> Tensor",
                a -> flashLayout(F.scaledDotProductAttention(
                        tensor(a[0]),
                        tensor(a[1]),
                        tensor(a[2]),
                        tensor(a[3]),
                        real(a[4]),
                        (Boolean) a[5],
                        a[6] == null ? null : real(a[6]),
                        (Boolean) a[7])));
        add(
                t,
                "dropout(Tensor input, float p, bool train) -> Tensor",
                a -> F.dropout(tensor(a[0]), real(a[1]), (Boolean) a[2]));
        add(
                t,
                "embedding(Tensor weight, Tensor indices, SymInt padding_idx=-1, bool scale_grad_by_freq=False, "
                        + "bool sparse=False) -> Tensor",
                a -> F.embedding(tensor(a[1]), tensor(a[0])));
        add(t, "contiguous(Tensor(a) self, *, MemoryFormat memory_format=contiguous_format) -> Tensor(a)", a -> tensor(
                        a[0])
                .contiguous());
        add(t, "squeeze.dim(Tensor(a) self, int dim) -> Tensor(a)", a -> tensor(a[0])
                .squeeze(Math.toIntExact(integer(a[1]))));
        add(
                t,
                "to.dtype(Tensor(a) self, ScalarType dtype, bool non_blocking=False, bool copy=False, "
                        + "MemoryFormat? memory_format=None) -> Tensor(a)",
                a -> {
                    Tensor x = tensor(a[0]).to((DType) a[1]);
                    return Boolean.TRUE.equals(a[3]) && x == a[0] ? x.clone() : x;
                });
        add(t, "type_as(Tensor self, Tensor other) -> Tensor", a -> tensor(a[0])
                .to(tensor(a[1]).dtype()));
        add(t, "view_as(Tensor(a) self, Tensor other) -> Tensor(a)", a -> tensor(a[0])
                .view(tensor(a[1]).shape()));
        add(t, "expand_as(Tensor(a) self, Tensor other) -> Tensor(a)", a -> tensor(a[0])
                .expand(tensor(a[1]).shape()));
        add(
                t,
                "arange(Scalar end, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
                        + "bool? pin_memory=None) -> Tensor",
                a -> Torch.arange(0L, (Number) a[0], 1L, (DType) a[1], (Device) a[3]));
        add(
                t,
                "arange.start(Scalar start, Scalar end, *, ScalarType? dtype=None, Layout? layout=None, "
                        + "Device? device=None, bool? pin_memory=None) -> Tensor",
                a -> Torch.arange((Number) a[0], (Number) a[1], 1L, (DType) a[2], (Device) a[4]));
        return Map.copyOf(t);
    }

    /**
     * The attention output laid out as PyTorch's CPU kernel ({@code _scaled_dot_product_flash_attention_cpu}) lays it
     * out: {@code [B, H, T, D]} over a {@code [B, T, H, D]} buffer. Programs depend on it: nanoGPT's
     * {@code y.transpose(1, 2).contiguous().view(B, T, C)} exports without the {@code contiguous}, a no-op on that
     * layout, so the {@code view} that follows needs it.
     */
    private static Tensor flashLayout(Tensor out) {
        return out.dim() == 4 ? out.transpose(1, 2).contiguous().transpose(1, 2) : out;
    }

    private static void add(Map<String, OpDef> table, String schema, OpDef.Composite fn) {
        OpDef op = OpDef.Unregistered.composite(schema, fn);
        table.put(op.qualifiedName(), op);
    }

    private static Tensor tensor(Object a) {
        return (Tensor) a;
    }

    private static long[] longs(Object a) {
        return a instanceof Long l ? new long[] {l} : (long[]) a;
    }

    private static long[] emptyIsNull(long[] a) {
        return a.length == 0 ? null : a;
    }

    private static long integer(Object a) {
        return ((Number) a).longValue();
    }

    private static double real(Object a) {
        return ((Number) a).doubleValue();
    }
}
