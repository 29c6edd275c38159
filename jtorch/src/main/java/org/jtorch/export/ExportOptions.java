package org.jtorch.export;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jtorch.TorchException;

/**
 * The keyword arguments of {@code torch.export.export}: {@code dynamic_shapes} (which input dimensions are a
 * {@link Dim}) and {@code strict}. Immutable; each method returns a changed copy.
 *
 * <p>{@code strict(true)} is Dynamo's soundness without Dynamo: JTorch traces by running the forward, so Java code in
 * it runs at export time and its results are baked in, where Dynamo would have guarded on them. A strict export traces
 * the forward a second time and refuses the program when the two traces differ, naming the first node that differs: the
 * forward then depends on Java state that changes between calls (a counter, a clock, a random draw in Java), which a
 * graph cannot hold. A non-strict export trusts the forward, as PyTorch's non-strict mode trusts Python.
 */
public final class ExportOptions {
    /** A dynamic dimension: dimension {@code dim} of user input {@code input}. */
    record DynamicDim(int input, int dim) {}

    private final Map<DynamicDim, Dim> dynamic;
    private final boolean strict;

    private ExportOptions(Map<DynamicDim, Dim> dynamic, boolean strict) {
        this.dynamic = Collections.unmodifiableMap(new LinkedHashMap<>(dynamic));
        this.strict = strict;
    }

    /** No dynamic dimensions, not strict: {@code export}'s defaults. */
    public static ExportOptions defaults() {
        return new ExportOptions(Map.of(), false);
    }

    /** These options with dimension {@code dim} of user input {@code input} dynamic, ranging over {@code d}. */
    public ExportOptions dynamicDim(int input, int dim, Dim d) {
        if (input < 0 || dim < 0) throw new TorchException("dynamicDim: negative input or dimension index");
        if (d == null) throw new TorchException("dynamicDim: the Dim is null");
        Map<DynamicDim, Dim> next = new LinkedHashMap<>(dynamic);
        next.put(new DynamicDim(input, dim), d);
        return new ExportOptions(next, strict);
    }

    /** These options with {@code strict} set. */
    public ExportOptions strict(boolean on) {
        return new ExportOptions(dynamic, on);
    }

    /** Whether the export is strict. */
    public boolean strict() {
        return strict;
    }

    /** The dynamic dimensions, each with its {@link Dim}. */
    Map<DynamicDim, Dim> dynamicDims() {
        return dynamic;
    }
}
