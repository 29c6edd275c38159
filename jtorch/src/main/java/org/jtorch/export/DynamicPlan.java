package org.jtorch.export;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.fx.TensorMeta;
import org.jtorch.internal.Shapes;

/**
 * The symbols of an export: one per distinct {@link Dim} of the options, numbered in the order the dimensions were
 * given, each with its example size (the trace's base value) and its range. Checks the example against the dims as
 * PyTorch does before tracing: the size lies in the range, a dimension marked dynamic has an example size of at least 2
 * (sizes 0 and 1 are specialized, as PyTorch's shape environment specializes them), and two dimensions of one
 * {@code Dim} have equal sizes.
 */
final class DynamicPlan {
    private final List<Dim> dims = new ArrayList<>();
    private final List<Long> base = new ArrayList<>();
    /** Per user input, per dimension: its symbol, or -1. */
    private final int[][] symbolOf;

    private DynamicPlan(List<Tensor> inputs) {
        symbolOf = new int[inputs.size()][];
        for (int i = 0; i < symbolOf.length; i++) {
            symbolOf[i] = new int[inputs.get(i).dim()];
            Arrays.fill(symbolOf[i], -1);
        }
    }

    static DynamicPlan of(ExportOptions options, List<Tensor> inputs) {
        DynamicPlan plan = new DynamicPlan(inputs);
        for (var e : options.dynamicDims().entrySet()) {
            ExportOptions.DynamicDim where = e.getKey();
            Dim d = e.getValue();
            String at = "args[" + where.input() + "].shape[" + where.dim() + "]";
            if (where.input() >= inputs.size()) {
                throw new TorchException("export: dynamic dimension " + d.name() + " is given for " + at
                        + ", but the forward takes " + inputs.size() + (inputs.size() == 1 ? " input" : " inputs"));
            }
            Tensor input = inputs.get(where.input());
            if (where.dim() >= input.dim()) {
                throw new TorchException("export: dynamic dimension " + d.name() + " is given for " + at
                        + ", but the input has " + input.dim() + " dimensions");
            }
            long size = input.size(where.dim());
            if (!new ValueRange(d.min(), d.max()).contains(size)) {
                throw new TorchException("export: Constraints violated (" + d.name() + ")! The example's " + at + " is "
                        + size + ", outside " + d.name() + "'s range " + new ValueRange(d.min(), d.max()));
            }
            if (size < 2) {
                throw new TorchException("export: Constraints violated (" + d.name() + ")! The example's " + at
                        + " is " + size + ", which export specializes (sizes 0 and 1 are); give an example size of at"
                        + " least 2");
            }
            int symbol = plan.dims.indexOf(d);
            if (symbol < 0) {
                if (plan.base.contains(size)) {
                    throw new TorchException("export: the example gives " + d.name() + " the size " + size
                            + " another dynamic dimension has; give distinct dimensions distinct example sizes, or "
                            + "one Dim to dimensions that are equal");
                }
                plan.dims.add(d);
                plan.base.add(size);
                symbol = plan.dims.size() - 1;
            } else if (plan.base.get(symbol) != size) {
                throw new TorchException("export: Constraints violated (" + d.name() + ")! Dimensions given " + d.name()
                        + " have different sizes in the example (" + plan.base.get(symbol) + " and " + size + ")");
            }
            plan.symbolOf[where.input()][where.dim()] = symbol;
        }
        return plan;
    }

    int symbols() {
        return dims.size();
    }

    long[] base() {
        return base.stream().mapToLong(Long::longValue).toArray();
    }

    List<String> names() {
        return dims.stream().map(Dim::name).toList();
    }

    /** The metadata of user input {@code i} with each dynamic dimension at its symbol's value. */
    TensorMeta inputAt(int i, Tensor input, long[] values) {
        long[] shape = input.shape();
        boolean moved = false;
        for (int d = 0; d < shape.length; d++) {
            if (symbolOf[i][d] >= 0 && shape[d] != values[symbolOf[i][d]]) {
                shape[d] = values[symbolOf[i][d]];
                moved = true;
            }
        }
        long[] stride = moved ? Shapes.contiguousStrides(shape) : input.stride();
        return new TensorMeta(shape, stride, input.dtype(), input.device(), input.requiresGrad());
    }

    /** The inputs' static sizes, which the other traces must not give a symbol. */
    List<Long> staticSizes(List<Tensor> inputs) {
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < inputs.size(); i++) {
            for (int d = 0; d < inputs.get(i).dim(); d++)
                if (symbolOf[i][d] < 0) out.add(inputs.get(i).size(d));
        }
        return out;
    }

    /** {@code s<i>} → the range of the i-th Dim. */
    Map<String, ValueRange> rangeConstraints() {
        Map<String, ValueRange> out = new LinkedHashMap<>();
        for (int i = 0; i < dims.size(); i++)
            out.put("s" + i, new ValueRange(dims.get(i).min(), dims.get(i).max()));
        return out;
    }
}
