package org.jtorch.nn;

import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.nn.functional.F;

/** {@code torch.nn.LayerNorm}: normalises over the trailing {@code normalized_shape} dims, then scales and shifts. */
public final class LayerNorm extends Module {
    private final long[] normalizedShape;
    private final double eps;
    private final boolean elementwiseAffine;

    /** {@code LayerNorm(normalized_shape)}: eps 1e-5, affine weight and bias. */
    public LayerNorm(long... normalizedShape) {
        this(normalizedShape, 1e-5, true, true);
    }

    /** {@code LayerNorm(normalized_shape, eps, elementwise_affine, bias)}. */
    public LayerNorm(long[] normalizedShape, double eps, boolean elementwiseAffine, boolean bias) {
        this.normalizedShape = normalizedShape.clone();
        this.eps = eps;
        this.elementwiseAffine = elementwiseAffine;
        registerParameter(
                "weight", elementwiseAffine ? Torch.ones(normalizedShape, Torch.getDefaultDtype(), Device.CPU) : null);
        registerParameter(
                "bias",
                elementwiseAffine && bias ? Torch.zeros(normalizedShape, Torch.getDefaultDtype(), Device.CPU) : null);
    }

    /** {@code weight}, or null without affine parameters. */
    public Tensor weight() {
        return getParameter("weight");
    }

    /** {@code bias}, or null. */
    public Tensor bias() {
        return getParameter("bias");
    }

    @Override
    public Tensor forward(Tensor input) {
        return F.layerNorm(input, normalizedShape, weight(), bias(), eps);
    }

    @Override
    protected String extraRepr() {
        return PyRepr.tuple(normalizedShape) + ", eps=" + PyRepr.of(eps) + ", elementwise_affine="
                + PyRepr.of(elementwiseAffine) + ", bias=" + PyRepr.of(bias() != null);
    }
}
