package org.jtorch.autograd;

import java.io.Serial;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.ops.ComplexOps;
import org.jtorch.ops.Creation;
import org.jtorch.ops.JoinOps;
import org.jtorch.storage.Storage;

/**
 * {@code torch.autograd.gradcheck}/{@code gradgradcheck}: compares the analytical Jacobian with central finite
 * differences: {@code |analytic - numeric| <= atol + rtol * |numeric|}. The analytical Jacobian comes from reverse mode
 * (one VJP per output coordinate, {@code checkBackwardAd}, on by default) and/or forward mode (one JVP per input
 * coordinate, {@code checkForwardAd}, off by default as in PyTorch).
 *
 * <p><b>Complex numbers</b> are checked as PyTorch does, through Wirtinger calculus: every complex element is two real
 * coordinates (real and imaginary part, as {@link Tensor#toDoubleArray()} lays them out). For a real function L, the
 * gradient PyTorch's backward returns is {@code ∂L/∂re + i ∂L/∂im} (twice the conjugate Wirtinger derivative), so the
 * VJP seeded with 1 at an output element gives the row of its real part and the VJP seeded with {@code i} the row of
 * its imaginary part, each read as (re, im) pairs per complex input; a JVP with tangent 1 or {@code i} at an input
 * element gives the column of its real or imaginary direction. Finite differences move each coordinate separately.
 *
 * <p>{@code fastMode} checks one random projection per input, {@code uᵀ J v}, instead of the full Jacobian: a VJP (or
 * JVP) and two evaluations per input instead of one per coordinate. {@code nondetTol} bounds how much a second backward
 * pass with the same seeds may differ from the first (0: bit-identical, which JTorch's kernels are).
 * {@code checkBatchedGrad} runs the backward pass under {@code vmap} ({@link BatchedGradCheck}),
 * {@code checkBatchedForwardGrad} the forward-mode JVP ({@link BatchedForwardGradCheck}).
 */
public final class GradCheck {
    private GradCheck() {}

    /**
     * PyTorch's defaults: eps 1e-6, atol 1e-5, rtol 1e-3, check_forward_ad=False, check_backward_ad=True,
     * fast_mode=False, nondet_tol=0.0, check_batched_grad=False, check_batched_forward_grad=False.
     */
    public record Options(
            double eps,
            double atol,
            double rtol,
            boolean raiseException,
            boolean checkForwardAd,
            boolean checkBackwardAd,
            boolean fastMode,
            double nondetTol,
            boolean checkBatchedGrad,
            boolean checkBatchedForwardGrad) {
        /** The other options at PyTorch's defaults, with the given tolerances. */
        public Options(double eps, double atol, double rtol, boolean raiseException) {
            this(eps, atol, rtol, raiseException, false, true, false, 0.0);
        }

        /** These options without the batched-gradient check (PyTorch's default {@code check_batched_grad=False}). */
        public Options(
                double eps,
                double atol,
                double rtol,
                boolean raiseException,
                boolean checkForwardAd,
                boolean checkBackwardAd,
                boolean fastMode,
                double nondetTol) {
            this(eps, atol, rtol, raiseException, checkForwardAd, checkBackwardAd, fastMode, nondetTol, false);
        }

        /**
         * These options without the batched forward-gradient check (PyTorch's default
         * {@code check_batched_forward_grad=False}).
         */
        public Options(
                double eps,
                double atol,
                double rtol,
                boolean raiseException,
                boolean checkForwardAd,
                boolean checkBackwardAd,
                boolean fastMode,
                double nondetTol,
                boolean checkBatchedGrad) {
            this(
                    eps,
                    atol,
                    rtol,
                    raiseException,
                    checkForwardAd,
                    checkBackwardAd,
                    fastMode,
                    nondetTol,
                    checkBatchedGrad,
                    false);
        }

        /** {@code torch.autograd.gradcheck}'s defaults: eps 1e-6, atol 1e-5, rtol 1e-3, raising on a mismatch. */
        public static Options defaults() {
            return new Options(1e-6, 1e-5, 1e-3, true);
        }

        /** {@code eps}: the perturbation of the finite differences. */
        public Options eps(double v) {
            return new Options(
                    v,
                    atol,
                    rtol,
                    raiseException,
                    checkForwardAd,
                    checkBackwardAd,
                    fastMode,
                    nondetTol,
                    checkBatchedGrad,
                    checkBatchedForwardGrad);
        }

        /** {@code atol}: the absolute tolerance between numerical and analytical Jacobians. */
        public Options atol(double v) {
            return new Options(
                    eps,
                    v,
                    rtol,
                    raiseException,
                    checkForwardAd,
                    checkBackwardAd,
                    fastMode,
                    nondetTol,
                    checkBatchedGrad,
                    checkBatchedForwardGrad);
        }

        /** {@code rtol}: the relative tolerance between numerical and analytical Jacobians. */
        public Options rtol(double v) {
            return new Options(
                    eps,
                    atol,
                    v,
                    raiseException,
                    checkForwardAd,
                    checkBackwardAd,
                    fastMode,
                    nondetTol,
                    checkBatchedGrad,
                    checkBatchedForwardGrad);
        }

        /** {@code raise_exception}: throw {@link GradcheckError} on a mismatch rather than return false. */
        public Options raiseException(boolean v) {
            return new Options(
                    eps,
                    atol,
                    rtol,
                    v,
                    checkForwardAd,
                    checkBackwardAd,
                    fastMode,
                    nondetTol,
                    checkBatchedGrad,
                    checkBatchedForwardGrad);
        }

        /** {@code check_forward_ad}: also compare the Jacobian that forward-mode AD (JVPs) gives. */
        public Options checkForwardAd(boolean v) {
            return new Options(
                    eps,
                    atol,
                    rtol,
                    raiseException,
                    v,
                    checkBackwardAd,
                    fastMode,
                    nondetTol,
                    checkBatchedGrad,
                    checkBatchedForwardGrad);
        }

        /** {@code check_backward_ad}: compare the Jacobian that reverse mode (VJPs) gives. */
        public Options checkBackwardAd(boolean v) {
            return new Options(
                    eps,
                    atol,
                    rtol,
                    raiseException,
                    checkForwardAd,
                    v,
                    fastMode,
                    nondetTol,
                    checkBatchedGrad,
                    checkBatchedForwardGrad);
        }

        /** {@code fast_mode}: compare one random projection {@code uᵀ J v} per input instead of the whole Jacobian. */
        public Options fastMode(boolean v) {
            return new Options(
                    eps,
                    atol,
                    rtol,
                    raiseException,
                    checkForwardAd,
                    checkBackwardAd,
                    v,
                    nondetTol,
                    checkBatchedGrad,
                    checkBatchedForwardGrad);
        }

        /**
         * {@code nondet_tol}: how far two backward passes with the same seeds may differ (PyTorch's reentrancy check).
         */
        public Options nondetTol(double v) {
            return new Options(
                    eps,
                    atol,
                    rtol,
                    raiseException,
                    checkForwardAd,
                    checkBackwardAd,
                    fastMode,
                    v,
                    checkBatchedGrad,
                    checkBatchedForwardGrad);
        }

        /**
         * {@code check_batched_grad}: also compute the gradients for two random output gradients at once, with
         * {@code vmap} over the backward pass, and compare them with two separate backward passes.
         */
        public Options checkBatchedGrad(boolean v) {
            return new Options(
                    eps,
                    atol,
                    rtol,
                    raiseException,
                    checkForwardAd,
                    checkBackwardAd,
                    fastMode,
                    nondetTol,
                    v,
                    checkBatchedForwardGrad);
        }

        /**
         * {@code check_batched_forward_grad}: also compute the forward-mode JVPs of two random tangents of each input
         * at once, with {@code vmap} over the tangents, and compare them with two separate JVPs. Needs
         * {@code checkForwardAd}.
         */
        public Options checkBatchedForwardGrad(boolean v) {
            return new Options(
                    eps,
                    atol,
                    rtol,
                    raiseException,
                    checkForwardAd,
                    checkBackwardAd,
                    fastMode,
                    nondetTol,
                    checkBatchedGrad,
                    v);
        }
    }

    /** Raised when the Jacobians disagree ({@code GradcheckError}). */
    public static final class GradcheckError extends TorchException {
        @Serial
        private static final long serialVersionUID = 1L;

        /** A mismatch described by {@code message}. */
        public GradcheckError(String message) {
            super(message);
        }
    }

    /** Checks first derivatives of {@code fn} at {@code inputs} (each must require grad). */
    public static boolean check(Function<List<Tensor>, Tensor> fn, List<Tensor> inputs, Options o) {
        for (Tensor in : inputs) {
            if (!in.requiresGrad()) throw new IllegalArgumentException("gradcheck: every input must require grad");
        }
        if (!o.checkForwardAd() && !o.checkBackwardAd()) {
            throw new IllegalArgumentException(
                    "gradcheck: Expected at least one of check_forward_ad or check_backward_ad to be True");
        }
        if (o.checkBatchedGrad() && !o.checkBackwardAd()) {
            throw new IllegalArgumentException(
                    "gradcheck: Setting check_batched_grad=True requires check_backward_ad to be True");
        }
        if (o.checkBatchedForwardGrad() && !o.checkForwardAd()) {
            throw new IllegalArgumentException(
                    "gradcheck: Setting check_batched_forward_grad=True requires check_forward_ad to be True");
        }
        Tensor out = fn.apply(inputs);
        try {
            if (o.checkBatchedGrad() && out.requiresGrad()) BatchedGradCheck.check(out, inputs);
            boolean agree = o.fastMode() ? checkFast(fn, inputs, out, o) : checkSlow(fn, inputs, out, o);
            // after the Jacobians, as PyTorch: a wrong JVP rule is reported as such before its batching is checked
            if (agree && o.checkBatchedForwardGrad()) BatchedForwardGradCheck.check(fn, inputs);
            return agree;
        } catch (GradcheckError e) {
            if (o.raiseException()) throw e;
            return false;
        }
    }

    /** The full Jacobians of the modes asked for against central differences. */
    private static boolean checkSlow(Function<List<Tensor>, Tensor> fn, List<Tensor> inputs, Tensor out, Options o) {
        List<double[][]> numeric = new ArrayList<>(); // per input: [output coordinate][input coordinate]
        for (int i = 0; i < inputs.size(); i++) numeric.add(numericJacobian(fn, inputs, i, out, o.eps()));
        if (o.checkBackwardAd()) {
            List<double[][]> analytic = reverseJacobian(out, inputs);
            if (!compare(analytic, numeric, "", o)) return false;
            checkReentrant(analytic, reverseJacobian(fn.apply(inputs), inputs), o.nondetTol());
        }
        return !o.checkForwardAd() || compare(forwardJacobian(fn, inputs, out), numeric, " (forward AD)", o);
    }

    // ---- coordinates: a tensor as real numbers, complex elements as (re, im) pairs ---------------------------

    private static int coordinates(Tensor t) {
        return Math.toIntExact(t.numel() * (t.isComplex() ? 2 : 1));
    }

    /** The tensor shaped and typed as {@code like} holding {@code coords} (pairs for a complex {@code like}). */
    private static Tensor fromCoordinates(double[] coords, Tensor like) {
        Tensor flat = Creation.fromStorage(Storage.wrap(coords.clone()), new long[] {coords.length}, DType.FLOAT64);
        if (like.isComplex()) flat = ComplexOps.viewAsComplex(flat.reshape(coords.length / 2, 2));
        return flat.to(like.dtype()).reshape(like.shape());
    }

    private static double[] unit(int n, int k) {
        double[] u = new double[n];
        u[k] = 1;
        return u;
    }

    // ---- the full Jacobians ---------------------------------------------------------------------------------

    /** Central differences, one input coordinate at a time: column k of input i's Jacobian. */
    private static double[][] numericJacobian(
            Function<List<Tensor>, Tensor> fn, List<Tensor> inputs, int i, Tensor out, double eps) {
        double[] x = inputs.get(i).detach().toDoubleArray();
        double[][] num = new double[coordinates(out)][x.length];
        for (int k = 0; k < x.length; k++) {
            double[] d = unit(x.length, k);
            double[] plus = perturbed(fn, inputs, i, x, d, eps), minus = perturbed(fn, inputs, i, x, d, -eps);
            for (int j = 0; j < num.length; j++) num[j][k] = (plus[j] - minus[j]) / (2 * eps);
        }
        return num;
    }

    /** One VJP per output coordinate (seed 1, or i for an imaginary part): row j of each input's Jacobian. */
    private static List<double[][]> reverseJacobian(Tensor out, List<Tensor> inputs) {
        int rows = coordinates(out);
        List<double[][]> analytic = new ArrayList<>();
        for (Tensor in : inputs) analytic.add(new double[rows][coordinates(in)]);
        if (!out.requiresGrad()) return analytic;
        for (int j = 0; j < rows; j++) {
            List<Tensor> grads = vjp(out, inputs, fromCoordinates(unit(rows, j), out));
            for (int i = 0; i < inputs.size(); i++) {
                if (grads.get(i) != null) analytic.get(i)[j] = gradientCoordinates(grads.get(i), inputs.get(i));
            }
        }
        return analytic;
    }

    /** The input gradients of {@code out} for {@code seed}, zeros for an input it does not reach. */
    static List<Tensor> vjp(Tensor out, List<Tensor> inputs, Tensor seed) {
        return Autograd.grad(
                List.of(out),
                inputs,
                Autograd.GradOptions.defaults()
                        .gradOutputs(List.of(seed))
                        .retainGraph(true)
                        .allowUnused(true)
                        .materializeGrads(true));
    }

    /**
     * A gradient's coordinates in its input's layout (a real input's gradient is real: PyTorch keeps the real part).
     */
    private static double[] gradientCoordinates(Tensor grad, Tensor input) {
        if (grad.isComplex() && !input.isComplex()) grad = ComplexOps.real(grad);
        return grad.toDoubleArray();
    }

    /** One JVP per input coordinate (tangent 1, or i for an imaginary part): column k of each input's Jacobian. */
    private static List<double[][]> forwardJacobian(
            Function<List<Tensor>, Tensor> fn, List<Tensor> inputs, Tensor out) {
        List<double[][]> analytic = new ArrayList<>();
        int rows = coordinates(out);
        for (int i = 0; i < inputs.size(); i++) {
            int cols = coordinates(inputs.get(i));
            double[][] jac = new double[rows][cols];
            for (int k = 0; k < cols; k++) {
                double[] col = jvp(fn, inputs, i, unit(cols, k), out);
                for (int j = 0; j < rows; j++) jac[j][k] = col[j];
            }
            analytic.add(jac);
        }
        return analytic;
    }

    /** The JVP of {@code fn} along {@code direction} (coordinates of input i), as output coordinates. */
    private static double[] jvp(
            Function<List<Tensor>, Tensor> fn, List<Tensor> inputs, int i, double[] direction, Tensor out) {
        try (DualLevel level = ForwardAD.dualLevel()) {
            List<Tensor> args = new ArrayList<>(inputs.size());
            for (int j = 0; j < inputs.size(); j++) {
                Tensor x = inputs.get(j).detach().requiresGrad(true);
                if (j == i) x = ForwardAD.makeDual(x, fromCoordinates(direction, x), level);
                args.add(x);
            }
            Tensor tangent = ForwardAD.unpackDual(fn.apply(args), level).tangent();
            if (tangent == null) return new double[coordinates(out)];
            if (tangent.isComplex() && !out.isComplex()) tangent = ComplexOps.real(tangent);
            return tangent.toDoubleArray();
        }
    }

    private static boolean compare(List<double[][]> analytic, List<double[][]> numeric, String mode, Options o) {
        for (int i = 0; i < numeric.size(); i++) {
            double[][] num = numeric.get(i), an = analytic.get(i);
            for (int j = 0; j < num.length; j++) {
                for (int k = 0; k < num[j].length; k++) {
                    double a = an[j][k], n = num[j][k];
                    if (!close(a, n, o)) {
                        throw new GradcheckError("Jacobian mismatch for output 0 with respect to input " + i + mode
                                + ",\nnumerical:" + n + "\nanalytical:" + a + "\n(at output coordinate " + j
                                + ", input coordinate " + k + ")");
                    }
                }
            }
        }
        return true;
    }

    private static boolean close(double analytic, double numeric, Options o) {
        return Math.abs(analytic - numeric) <= o.atol() + o.rtol() * Math.abs(numeric);
    }

    /**
     * PyTorch's reentrancy check: a second backward with the same inputs and seeds agrees within {@code nondetTol}. The
     * second pass runs on a fresh forward, so that an op whose backward may run only once (a chunked loss that frees
     * its buffers) can still be checked, and the forward's determinism is checked with it.
     */
    private static void checkReentrant(List<double[][]> first, List<double[][]> second, double nondetTol) {
        for (int i = 0; i < first.size(); i++) {
            for (int j = 0; j < first.get(i).length; j++) {
                for (int k = 0; k < first.get(i)[j].length; k++) {
                    if (!(Math.abs(first.get(i)[j][k] - second.get(i)[j][k]) <= nondetTol)) {
                        throw new GradcheckError(
                                "Backward is not reentrant, i.e., running backward with same input and "
                                        + "grad_output multiple times gives different values, although analytical "
                                        + "gradient matches numerical gradient.The tolerance for nondeterminism was "
                                        + nondetTol
                                        + ".");
                    }
                }
            }
        }
    }

    // ---- fast mode ------------------------------------------------------------------------------------------

    /**
     * PyTorch's fast mode: per input i, a random unit vector v over its coordinates and u over the output's; the
     * numerical {@code uᵀ (J v)} from two evaluations along v against the analytical {@code (uᵀ J) v} of one VJP seeded
     * with u, or {@code uᵀ (J v)} of one JVP along v. The vectors are seeded, so a failure reproduces.
     */
    private static boolean checkFast(Function<List<Tensor>, Tensor> fn, List<Tensor> inputs, Tensor out, Options o) {
        SplittableRandom random = new SplittableRandom(0);
        double[] u = randomUnit(coordinates(out), random);
        List<Tensor> first = null, second = null;
        if (o.checkBackwardAd() && out.requiresGrad()) {
            first = vjp(out, inputs, fromCoordinates(u, out));
            Tensor again = fn.apply(inputs);
            second = vjp(again, inputs, fromCoordinates(u, again));
        }
        for (int i = 0; i < inputs.size(); i++) {
            Tensor in = inputs.get(i);
            double[] x = in.detach().toDoubleArray(), v = randomUnit(x.length, random);
            double[] plus = perturbed(fn, inputs, i, x, v, o.eps()), minus = perturbed(fn, inputs, i, x, v, -o.eps());
            double numeric = 0;
            for (int j = 0; j < u.length; j++) numeric += u[j] * (plus[j] - minus[j]) / (2 * o.eps());
            if (o.checkBackwardAd()) {
                double[] g = first == null || first.get(i) == null
                        ? new double[x.length]
                        : gradientCoordinates(first.get(i), in);
                double[] g2 = second == null || second.get(i) == null ? g : gradientCoordinates(second.get(i), in);
                double analytic = dot(g, v);
                if (!close(analytic, numeric, o)) throw fastMismatch(i, "", numeric, analytic);
                checkReentrant(
                        List.<double[][]>of(new double[][] {g}),
                        List.<double[][]>of(new double[][] {g2}),
                        o.nondetTol());
            }
            if (o.checkForwardAd()) {
                double analytic = dot(u, jvp(fn, inputs, i, v, out));
                if (!close(analytic, numeric, o)) throw fastMismatch(i, " (forward AD)", numeric, analytic);
            }
        }
        return true;
    }

    private static GradcheckError fastMismatch(int input, String mode, double numeric, double analytic) {
        return new GradcheckError("Jacobian mismatch for output 0 with respect to input " + input + mode
                + ",\nnumerical:" + numeric + "\nanalytical:" + analytic
                + "\n\nThe above quantities relating the numerical and analytical jacobians are computed \nin fast "
                + "mode: uᵀ J v for random unit vectors u and v.");
    }

    private static double[] randomUnit(int n, SplittableRandom random) {
        double[] v = new double[n];
        double norm = 0;
        for (int k = 0; k < n; k++) {
            v[k] = random.nextDouble();
            norm += v[k] * v[k];
        }
        norm = Math.sqrt(norm);
        for (int k = 0; k < n && norm > 0; k++) v[k] /= norm;
        return v;
    }

    private static double dot(double[] a, double[] b) {
        double s = 0;
        for (int k = 0; k < a.length; k++) s += a[k] * b[k];
        return s;
    }

    /**
     * {@code fn} at the inputs with input {@code i} moved by {@code d · direction} (its coordinates). The inputs are
     * fresh leaves that require grad, because {@code fn} may itself differentiate (gradgradcheck).
     */
    private static double[] perturbed(
            Function<List<Tensor>, Tensor> fn, List<Tensor> inputs, int i, double[] x, double[] direction, double d) {
        double[] xs = x.clone();
        for (int k = 0; k < xs.length; k++) xs[k] += d * direction[k];
        List<Tensor> args = new ArrayList<>(inputs.size());
        for (int j = 0; j < inputs.size(); j++) {
            Tensor in = inputs.get(j);
            Tensor v = j == i ? fromCoordinates(xs, in) : in.detach();
            args.add(v.requiresGrad(true));
        }
        return fn.apply(args).detach().toDoubleArray();
    }

    /**
     * {@code gradgradcheck}: checks the derivatives of {@code x ↦ vjp(fn, x, v)} for a fixed random-looking {@code v},
     * i.e. second derivatives, through createGraph.
     */
    public static boolean checkSecondOrder(Function<List<Tensor>, Tensor> fn, List<Tensor> inputs, Options o) {
        Tensor probe = fn.apply(inputs);
        double[] v = new double[coordinates(probe)];
        for (int i = 0; i < v.length; i++) v[i] = 0.5 + Math.sin(1.7 * i + 0.3); // fixed, non-symmetric
        Tensor gv = fromCoordinates(v, probe);
        Function<List<Tensor>, Tensor> vjp = xs -> {
            Tensor out = fn.apply(xs);
            List<Tensor> g = Autograd.grad(
                    List.of(out),
                    xs,
                    Autograd.GradOptions.defaults()
                            .gradOutputs(List.of(gv))
                            .createGraph(true)
                            .materializeGrads(true));
            List<Tensor> flat = new ArrayList<>();
            for (Tensor t : g) flat.add(t.reshape(-1));
            return flat.size() == 1 ? flat.get(0) : JoinOps.cat(flat);
        };
        return check(vjp, inputs, o);
    }

    /**
     * Forward-over-forward: checks the derivatives of {@code x ↦ J(x)·v} (a JVP, itself computed with forward AD, for a
     * fixed random-looking tangent {@code v}) with forward AD against finite differences, i.e. second derivatives
     * through nested dual levels ({@code jvp(jvp(f))}), which gradgradcheck's reverse-over-reverse does not exercise.
     */
    public static boolean checkSecondOrderForward(Function<List<Tensor>, Tensor> fn, List<Tensor> inputs, Options o) {
        List<Tensor> tangents = new ArrayList<>();
        for (Tensor in : inputs) {
            double[] v = new double[coordinates(in)];
            for (int i = 0; i < v.length; i++) v[i] = 0.5 + Math.sin(1.3 * i + 0.7 * tangents.size() + 0.2);
            tangents.add(fromCoordinates(v, in));
        }
        Function<List<Tensor>, Tensor> jvp = xs -> {
            try (DualLevel level = ForwardAD.dualLevel()) {
                List<Tensor> duals = new ArrayList<>();
                for (int i = 0; i < xs.size(); i++) duals.add(ForwardAD.makeDual(xs.get(i), tangents.get(i), level));
                Tensor t = ForwardAD.unpackDual(fn.apply(duals), level).tangent();
                if (t == null)
                    throw new GradcheckError("checkSecondOrderForward: the output does not depend on the inputs");
                return t;
            }
        };
        return check(jvp, inputs, o.checkForwardAd(true));
    }
}
