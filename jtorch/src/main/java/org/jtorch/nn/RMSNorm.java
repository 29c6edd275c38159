package org.jtorch.nn;

import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.nn.functional.F;

/** {@code torch.nn.RMSNorm}: {@code x / sqrt(mean(x²) + eps) * weight} over the trailing dims. */
public final class RMSNorm extends Module {
    private final long[] normalizedShape;
    private final Double eps;
    private final boolean elementwiseAffine;

    /** {@code RMSNorm(normalized_shape)}: eps = the input dtype's machine epsilon, affine weight. */
    public RMSNorm(long... normalizedShape) {
        this(normalizedShape, null, true);
    }

    /** {@code RMSNorm(normalized_shape, eps, elementwise_affine)}; a null eps means the dtype's epsilon. */
    public RMSNorm(long[] normalizedShape, Double eps, boolean elementwiseAffine) {
        this.normalizedShape = normalizedShape.clone();
        this.eps = eps;
        this.elementwiseAffine = elementwiseAffine;
        registerParameter(
                "weight", elementwiseAffine ? Torch.ones(normalizedShape, Torch.getDefaultDtype(), Device.CPU) : null);
    }

    /** {@code weight}, or null. */
    public Tensor weight() {
        return getParameter("weight");
    }

    @Override
    public Tensor forward(Tensor input) {
        return F.rmsNorm(input, normalizedShape, weight(), eps);
    }

    @Override
    protected String extraRepr() {
        return PyRepr.tuple(normalizedShape) + ", eps=" + (eps == null ? "None" : PyRepr.of(eps))
                + ", elementwise_affine=" + PyRepr.of(elementwiseAffine);
    }
}
