package org.jtorch.nn.utils;

import java.util.ArrayList;
import java.util.List;
import org.jtorch.Tensor;
import org.jtorch.Torch;

/** {@code torch.nn.utils.parameters_to_vector} / {@code vector_to_parameters}. */
public final class ConvertParameters {
    private ConvertParameters() {}

    /** {@code parameters_to_vector(parameters)}: every parameter flattened and concatenated (differentiable). */
    public static Tensor parametersToVector(Iterable<Tensor> parameters) {
        List<Tensor> flat = new ArrayList<>();
        for (Tensor p : parameters) flat.add(p.reshape(-1));
        return Torch.cat(flat);
    }

    /**
     * {@code vector_to_parameters(vec, parameters)}: copies consecutive slices of {@code vec} into the parameters.
     * PyTorch rebinds each {@code param.data}; a Java tensor keeps its storage, so values are copied in place (same
     * observable values, parameter identity kept).
     */
    public static void vectorToParameters(Tensor vec, Iterable<Tensor> parameters) {
        if (vec.dim() != 1) {
            throw new IllegalArgumentException("expected a 1-D vector, but got a " + vec.dim() + "-D tensor");
        }
        long needed = 0;
        for (Tensor p : parameters) needed += p.numel();
        // PyTorch ignores trailing elements and fails part-way on a short vector; checking first keeps the parameters
        // intact.
        if (needed > vec.numel()) {
            throw new IllegalArgumentException(
                    "vector has " + vec.numel() + " elements but the parameters hold " + needed);
        }
        long pointer = 0;
        try (var _ = Torch.noGrad()) {
            for (Tensor p : parameters) {
                long n = p.numel();
                p.copy_(vec.slice(0, pointer, pointer + n).view(p.shape()));
                pointer += n;
            }
        }
    }
}
