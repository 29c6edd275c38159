package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.TorchException;

/**
 * {@code torch.nn.Parameter}: a leaf tensor that modules register as a parameter. {@link Tensor} is final, so a
 * parameter is a plain tensor that this class marks: {@link #of} makes one (sharing the data's storage, as
 * {@code nn.Parameter(data)} does), {@link #isParameter} tells it apart ({@code isinstance(t, nn.Parameter)}), and
 * {@link Module#setAttribute} registers it, as {@code Module.__setattr__} registers a {@code Parameter}. A parameter
 * made with {@code requiresGrad = false} stays frozen when registered; every tensor {@link Module#registerParameter}
 * registers becomes a parameter.
 */
public final class Parameter {
    private Parameter() {}

    /** {@code nn.Parameter(data)}: requires grad. */
    public static Tensor of(Tensor data) {
        return of(data, true);
    }

    /**
     * {@code nn.Parameter(data, requires_grad)}: a new leaf over {@code data}'s storage (detached from any graph). Only
     * floating-point and complex data can require grad.
     */
    public static Tensor of(Tensor data, boolean requiresGrad) {
        if (data == null) throw new IllegalArgumentException("nn.Parameter: data must be a tensor, got None");
        Tensor p = data.detach();
        if (requiresGrad && !(p.isFloatingPoint() || p.isComplex())) {
            throw new TorchException("Only Tensors of floating point and complex dtype can require gradients");
        }
        p.requiresGrad(requiresGrad);
        mark(p);
        return p;
    }

    /** {@code isinstance(t, nn.Parameter)}. */
    public static boolean isParameter(Tensor t) {
        return Module.isMarkedParameter(t);
    }

    static void mark(Tensor t) {
        Module.markParameter(t);
    }

    /**
     * The summary line containers print for an entry: {@code Parameter containing: [torch.FloatTensor of size 2x3]}
     * ({@code Tensor containing: ...} for a tensor that is not a parameter).
     */
    static String summary(Tensor t) {
        java.util.List<String> sizes = new java.util.ArrayList<>();
        for (long s : t.shape()) sizes.add(Long.toString(s));
        return (isParameter(t) ? "Parameter" : "Tensor") + " containing: [torch."
                + t.dtype().cppName() + "Tensor of size " + String.join("x", sizes) + "]";
    }
}
