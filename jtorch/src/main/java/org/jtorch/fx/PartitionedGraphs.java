package org.jtorch.fx;

import java.util.ArrayList;
import java.util.List;

/**
 * A joint forward-backward graph split in two by {@link AotAutograd#partition}.
 *
 * <ul>
 *   <li>{@code forward}: placeholders {@code primals_1..n} (every input, in order); returns the function's outputs,
 *       then the saved values.
 *   <li>{@code backward}: placeholders the saved values (in the forward's order), then {@code tangents_1..m} (one per
 *       output that requires grad); returns one gradient per input, None for an input that needs none or that the
 *       outputs do not depend on.
 * </ul>
 *
 * @param forward the forward graph
 * @param backward the backward graph
 * @param outputCount how many of the forward graph's results are the function's outputs (the rest are saved values)
 * @param outputsWithTangent per output, whether it requires grad and so takes a tangent in the backward graph
 */
public record PartitionedGraphs(
        GraphModule forward, GraphModule backward, int outputCount, boolean[] outputsWithTangent) {
    /** Copies the flags, so the record stays immutable. */
    public PartitionedGraphs {
        outputsWithTangent = outputsWithTangent.clone();
    }

    /** Per output, whether it takes a tangent in the backward graph (a copy). */
    @Override
    public boolean[] outputsWithTangent() {
        return outputsWithTangent.clone();
    }

    /** The metadata of the values the forward saves for the backward, in order. */
    public List<TensorMeta> savedValues() {
        List<TensorMeta> saved = new ArrayList<>();
        int tangents = 0;
        for (boolean t : outputsWithTangent) if (t) tangents++;
        List<Node> placeholders = backward.graph().nodes().stream()
                .filter(n -> n.op().equals(Node.PLACEHOLDER))
                .toList();
        for (Node n : placeholders.subList(0, placeholders.size() - tangents)) saved.add(n.meta());
        return saved;
    }

    /** The total size in bytes of the saved values: what the forward keeps alive until the backward runs. */
    public long savedBytes() {
        long bytes = 0;
        for (TensorMeta m : savedValues()) bytes += m.numel() * m.dtype().itemSize();
        return bytes;
    }
}
