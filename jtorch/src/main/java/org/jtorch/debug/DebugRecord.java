package org.jtorch.debug;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.jtorch.DType;
import org.jtorch.Device;

/**
 * One op call recorded by a {@link DebugMode} (PyTorch's {@code _OpCall}).
 *
 * @param index position in the log: calls are numbered in the order they started
 * @param depth nesting: 1 for an op called by user code, one more for each enclosing op
 * @param op the op as {@code aten::name.overload} ({@code .default} omitted)
 * @param args the argument list as printed between the parentheses
 * @param output the printed result, or {@code null} (outputs not recorded, or the op threw)
 * @param annotation the {@code {'hash': ..., 'input_hash': ...}} comment, or {@code null} when nothing was hashed
 * @param inputs every tensor argument, in argument order ({@code Tensor[]} arguments expanded)
 * @param outputs every tensor the op returned, in order; empty if it threw
 * @param returnOrder how many recorded calls returned before this one did ({@code -1}: it threw), so that a nested
 *     call's result comes before its caller's
 */
public record DebugRecord(
        int index,
        int depth,
        String op,
        String args,
        String output,
        String annotation,
        List<TensorInfo> inputs,
        List<TensorInfo> outputs,
        int returnOrder) {
    /** Requires the op and its arguments; keeps immutable copies of the tensor lists. */
    public DebugRecord {
        Objects.requireNonNull(op, "op");
        Objects.requireNonNull(args, "args");
        inputs = List.copyOf(inputs);
        outputs = List.copyOf(outputs);
    }

    /** What the log keeps of a tensor: its geometry and device, and its hash when hashing was on. */
    public record TensorInfo(DType dtype, long[] shape, Device device, TensorHash hash) {
        /** Requires dtype and device; keeps a copy of the shape. */
        public TensorInfo {
            Objects.requireNonNull(dtype, "dtype");
            Objects.requireNonNull(device, "device");
            shape = shape.clone();
        }

        /** Sizes; a copy. */
        @Override
        public long[] shape() {
            return shape.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof TensorInfo t
                    && dtype == t.dtype
                    && device == t.device
                    && Arrays.equals(shape, t.shape)
                    && Objects.equals(hash, t.hash);
        }

        @Override
        public int hashCode() {
            return Objects.hash(dtype, device, Arrays.hashCode(shape), hash);
        }

        /** As the log prints a tensor: {@code t: f32[2, 3]}. */
        @Override
        public String toString() {
            return "t: " + dtype.abbreviation() + CallFormat.repr(shape, null);
        }
    }

    /** Whether the op returned (rather than threw). */
    public boolean returned() {
        return returnOrder >= 0;
    }

    /** The log line without its indentation: {@code op(args) -> output # annotation}. */
    public String line() {
        StringBuilder sb = new StringBuilder(op).append('(').append(args).append(')');
        if (output != null) sb.append("  ->  ").append(output);
        if (annotation != null) sb.append("  # ").append(annotation);
        return sb.toString();
    }

    @Override
    public String toString() {
        return line();
    }
}
