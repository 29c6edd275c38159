package org.jtorch.compile;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.dispatch.DeterministicAlgorithms;
import org.jtorch.dispatch.DispatchState;

/**
 * What a compiled graph assumed about its call, checked before each reuse (Dynamo's guards): per input its dtype,
 * device, requires-grad, rank, each size (equal to the traced one, or for a dynamic dimension at least 2 and equal to
 * the other dimensions that share its symbol), and its layout (contiguous, or the traced strides); grad mode; the
 * deterministic-algorithms flag; and for a module, the state its forward reads (training flags, which tensors are its
 * parameters and buffers).
 *
 * <p>The check reads each input once and allocates nothing on success but the symbols' values: it is on the path of
 * every call.
 */
final class Guards {
    /** One input's guard; {@code sizes[d] < 0} means symbol {@code -sizes[d] - 1}. */
    record Input(DType dtype, Device device, boolean requiresGrad, long[] sizes, long[] strides) {}

    private final Input[] inputs;
    private final int symbols;
    private final boolean gradEnabled;
    private final boolean deterministic;
    private final Supplier<List<Object>> state;
    private final List<Object> stateSeen;

    Guards(Input[] inputs, int symbols, Supplier<List<Object>> state) {
        this.inputs = inputs;
        this.symbols = symbols;
        this.gradEnabled = DispatchState.current().isGradEnabled();
        this.deterministic = DeterministicAlgorithms.enabled();
        this.state = state;
        this.stateSeen = state == null ? null : state.get();
    }

    /**
     * The guard of {@code t} with the dimensions in {@code symbolOf} ({@code symbolOf[d] >= 0}) symbolic: those must be
     * contiguous inputs, so the strides follow from the sizes and are not kept.
     */
    static Input input(Tensor t, int[] symbolOf) {
        long[] sizes = t.shape();
        boolean symbolic = false;
        for (int d = 0; d < sizes.length; d++) {
            if (symbolOf[d] >= 0) {
                sizes[d] = -symbolOf[d] - 1L;
                symbolic = true;
            }
        }
        long[] strides = t.isContiguous() ? null : t.stride();
        if (symbolic && strides != null) throw new IllegalArgumentException("a dynamic input must be contiguous");
        return new Input(t.dtype(), t.device(), t.requiresGrad(), sizes, strides);
    }

    /** Whether a call with {@code actual} may reuse the graph. */
    boolean check(Tensor[] actual) {
        return failure(actual) == null;
    }

    /** Why a call with {@code actual} may not reuse the graph (Dynamo's recompile reason), or null when it may. */
    String failure(Tensor[] actual) {
        if (actual.length != inputs.length) return "expected " + inputs.length + " inputs, got " + actual.length;
        DispatchState ds = DispatchState.current();
        if (ds.isGradEnabled() != gradEnabled) return "grad mode changed to " + ds.isGradEnabled();
        if (DeterministicAlgorithms.enabled() != deterministic) {
            return "deterministic algorithms turned " + (deterministic ? "off" : "on");
        }
        long[] bound = symbols == 0 ? null : new long[symbols];
        for (int i = 0; i < inputs.length; i++) {
            String f = failure(i, inputs[i], actual[i], bound);
            if (f != null) return f;
        }
        if (state != null) {
            List<Object> now = state.get();
            if (!sameState(stateSeen, now)) return "the module's parameters, buffers or training flags changed";
        }
        return null;
    }

    private static String failure(int i, Input g, Tensor t, long[] bound) {
        String name = "inputs[" + i + "]";
        if (t == null) return name + " is null";
        if (t.dtype() != g.dtype) return name + " dtype changed from " + g.dtype + " to " + t.dtype();
        if (!t.device().equals(g.device)) return name + " device changed from " + g.device + " to " + t.device();
        if (t.requiresGrad() != g.requiresGrad) return name + " requires_grad changed to " + t.requiresGrad();
        long[] sizes = g.sizes;
        if (t.dim() != sizes.length) return name + " rank changed from " + sizes.length + " to " + t.dim();
        for (int d = 0; d < sizes.length; d++) {
            long size = t.size(d);
            if (sizes[d] >= 0) {
                if (size != sizes[d]) return name + ".size()[" + d + "] == " + size + ", expected " + sizes[d];
                continue;
            }
            int s = (int) (-sizes[d] - 1);
            if (size < 2) return name + ".size()[" + d + "] == " + size + ", but s" + s + " >= 2 was assumed";
            if (bound[s] == 0) bound[s] = size;
            else if (bound[s] != size) {
                return name + ".size()[" + d + "] == " + size + ", but s" + s + " == " + bound[s] + " elsewhere";
            }
        }
        if (g.strides == null) {
            if (!t.isContiguous()) return name + " is no longer contiguous";
        } else if (!Arrays.equals(t.stride(), g.strides)) {
            return name + " strides changed to " + Arrays.toString(t.stride());
        }
        return null;
    }

    /** Parameters and buffers compare by identity (the graph holds those very tensors), the rest by value. */
    private static boolean sameState(List<Object> seen, List<Object> now) {
        if (seen.size() != now.size()) return false;
        for (int i = 0; i < seen.size(); i++) {
            Object a = seen.get(i), b = now.get(i);
            if (a instanceof Tensor || b instanceof Tensor ? a != b : !java.util.Objects.equals(a, b)) return false;
        }
        return true;
    }

    /** The guards as Dynamo prints them, one per line (for the structured trace). */
    List<String> describe() {
        List<String> lines = new ArrayList<>();
        lines.add("grad_mode == " + gradEnabled);
        lines.add("deterministic_algorithms == " + deterministic);
        for (int i = 0; i < inputs.length; i++) {
            Input g = inputs[i];
            StringBuilder size = new StringBuilder("[");
            for (int d = 0; d < g.sizes.length; d++) {
                if (d > 0) size.append(", ");
                size.append(g.sizes[d] >= 0 ? Long.toString(g.sizes[d]) : "s" + (-g.sizes[d] - 1));
            }
            size.append(']');
            lines.add("inputs[" + i + "]: " + g.dtype.pyName() + " " + g.device + " size=" + size
                    + (g.strides == null ? " contiguous" : " stride=" + Arrays.toString(g.strides))
                    + " requires_grad=" + g.requiresGrad);
        }
        for (int s = 0; s < symbols; s++) lines.add("s" + s + " >= 2");
        if (state != null) lines.add("module state is the traced one (" + stateSeen.size() + " entries)");
        return lines;
    }
}
