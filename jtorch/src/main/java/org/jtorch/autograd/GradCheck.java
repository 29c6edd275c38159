package org.jtorch.autograd;

import java.io.Serial;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.ops.Creation;
import org.jtorch.ops.JoinOps;
import org.jtorch.storage.Storage;

/**
 * {@code torch.autograd.gradcheck}/{@code gradgradcheck}: compares the analytical Jacobian with central finite
 * differences, entry by entry: {@code |analytic - numeric| <= atol + rtol * |numeric|}. The analytical Jacobian comes
 * from reverse mode (one VJP per output element, {@code checkBackwardAd}, on by default) and/or forward mode (one JVP
 * per input element, {@code checkForwardAd}, off by default as in PyTorch). Real inputs; use float64.
 */
public final class GradCheck {
    private GradCheck() {}

    /** PyTorch's defaults: eps 1e-6, atol 1e-5, rtol 1e-3, check_forward_ad=False, check_backward_ad=True. */
    public record Options(
            double eps,
            double atol,
            double rtol,
            boolean raiseException,
            boolean checkForwardAd,
            boolean checkBackwardAd) {
        /** The forward-AD and backward-AD checks at PyTorch's defaults (off and on) and the given tolerances. */
        public Options(double eps, double atol, double rtol, boolean raiseException) {
            this(eps, atol, rtol, raiseException, false, true);
        }

        /** {@code torch.autograd.gradcheck}'s defaults: eps 1e-6, atol 1e-5, rtol 1e-3, raising on a mismatch. */
        public static Options defaults() {
            return new Options(1e-6, 1e-5, 1e-3, true);
        }

        /** {@code eps}: the perturbation of the finite differences. */
        public Options eps(double v) {
            return new Options(v, atol, rtol, raiseException, checkForwardAd, checkBackwardAd);
        }

        /** {@code atol}: the absolute tolerance between numerical and analytical Jacobians. */
        public Options atol(double v) {
            return new Options(eps, v, rtol, raiseException, checkForwardAd, checkBackwardAd);
        }

        /** {@code rtol}: the relative tolerance between numerical and analytical Jacobians. */
        public Options rtol(double v) {
            return new Options(eps, atol, v, raiseException, checkForwardAd, checkBackwardAd);
        }

        /** {@code raise_exception}: throw {@link GradcheckError} on a mismatch rather than return false. */
        public Options raiseException(boolean v) {
            return new Options(eps, atol, rtol, v, checkForwardAd, checkBackwardAd);
        }

        /** {@code check_forward_ad}: also compare the Jacobian that forward-mode AD (JVPs) gives. */
        public Options checkForwardAd(boolean v) {
            return new Options(eps, atol, rtol, raiseException, v, checkBackwardAd);
        }

        /** {@code check_backward_ad}: compare the Jacobian that reverse mode (VJPs) gives. */
        public Options checkBackwardAd(boolean v) {
            return new Options(eps, atol, rtol, raiseException, checkForwardAd, v);
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
            if (in.isComplex()) throw new IllegalArgumentException("gradcheck: complex inputs are not supported yet");
        }
        Tensor out = fn.apply(inputs);
        int outN = Math.toIntExact(out.numel());
        List<double[][]> numeric = new ArrayList<>(); // per input: [outN][inN]
        for (int i = 0; i < inputs.size(); i++) {
            double[] x = inputs.get(i).detach().toDoubleArray();
            double[][] num = new double[outN][x.length];
            for (int k = 0; k < x.length; k++) {
                double[] plus = perturbed(fn, inputs, i, x, k, o.eps()),
                        minus = perturbed(fn, inputs, i, x, k, -o.eps());
                for (int j = 0; j < outN; j++) num[j][k] = (plus[j] - minus[j]) / (2 * o.eps());
            }
            numeric.add(num);
        }
        if (o.checkBackwardAd() && !compare(reverseJacobian(out, inputs), numeric, "", o)) return false;
        return !o.checkForwardAd() || compare(forwardJacobian(fn, inputs, outN), numeric, " (forward AD)", o);
    }

    /** A float64 vector holding a copy of {@code values} ({@code torch.tensor(values, dtype=torch.float64)}). */
    private static Tensor float64(double[] values) {
        return Creation.fromStorage(Storage.wrap(values.clone()), new long[] {values.length}, DType.FLOAT64);
    }

    /** One VJP per output element: row j of each input's Jacobian. */
    private static List<double[][]> reverseJacobian(Tensor out, List<Tensor> inputs) {
        int outN = Math.toIntExact(out.numel());
        List<double[][]> analytic = new ArrayList<>();
        for (Tensor in : inputs) analytic.add(new double[outN][Math.toIntExact(in.numel())]);
        if (!out.requiresGrad()) return analytic;
        for (int j = 0; j < outN; j++) {
            double[] seed = new double[outN];
            seed[j] = 1;
            Tensor g = float64(seed).to(out.dtype()).reshape(out.shape());
            List<Tensor> grads = Autograd.grad(
                    List.of(out),
                    inputs,
                    Autograd.GradOptions.defaults()
                            .gradOutputs(List.of(g))
                            .retainGraph(true)
                            .allowUnused(true));
            for (int i = 0; i < inputs.size(); i++) {
                if (grads.get(i) != null) analytic.get(i)[j] = grads.get(i).toDoubleArray();
            }
        }
        return analytic;
    }

    /** One JVP per input element (a unit tangent at a fresh dual level): column k of each input's Jacobian. */
    private static List<double[][]> forwardJacobian(Function<List<Tensor>, Tensor> fn, List<Tensor> inputs, int outN) {
        List<double[][]> analytic = new ArrayList<>();
        for (int i = 0; i < inputs.size(); i++) {
            Tensor in = inputs.get(i);
            int inN = Math.toIntExact(in.numel());
            double[][] jac = new double[outN][inN];
            for (int k = 0; k < inN; k++) {
                double[] unit = new double[inN];
                unit[k] = 1;
                try (DualLevel level = ForwardAD.dualLevel()) {
                    List<Tensor> args = new ArrayList<>(inputs.size());
                    for (int j = 0; j < inputs.size(); j++) {
                        Tensor x = inputs.get(j).detach().requiresGrad(true);
                        if (j == i)
                            x = ForwardAD.makeDual(
                                    x, float64(unit).to(in.dtype()).reshape(in.shape()), level);
                        args.add(x);
                    }
                    Tensor tangent = ForwardAD.unpackDual(fn.apply(args), level).tangent();
                    if (tangent == null) continue;
                    double[] col = tangent.toDoubleArray();
                    for (int j = 0; j < outN; j++) jac[j][k] = col[j];
                }
            }
            analytic.add(jac);
        }
        return analytic;
    }

    private static boolean compare(List<double[][]> analytic, List<double[][]> numeric, String mode, Options o) {
        for (int i = 0; i < numeric.size(); i++) {
            double[][] num = numeric.get(i), an = analytic.get(i);
            for (int j = 0; j < num.length; j++) {
                for (int k = 0; k < num[j].length; k++) {
                    double a = an[j][k], n = num[j][k];
                    if (!(Math.abs(a - n) <= o.atol() + o.rtol() * Math.abs(n))) {
                        String msg = "Jacobian mismatch for output 0 with respect to input " + i + mode
                                + ",\nnumerical:" + n + "\nanalytical:" + a + "\n(at output element " + j
                                + ", input element " + k + ")";
                        if (o.raiseException()) throw new GradcheckError(msg);
                        return false;
                    }
                }
            }
        }
        return true;
    }

    /**
     * {@code fn} at the inputs with element {@code k} of input {@code i} moved by {@code d}. The inputs are fresh
     * leaves that require grad, because {@code fn} may itself differentiate (gradgradcheck).
     */
    private static double[] perturbed(
            Function<List<Tensor>, Tensor> fn, List<Tensor> inputs, int i, double[] x, int k, double d) {
        double[] xs = x.clone();
        xs[k] += d;
        List<Tensor> args = new ArrayList<>(inputs.size());
        for (int j = 0; j < inputs.size(); j++) {
            Tensor in = inputs.get(j);
            Tensor v = j == i ? float64(xs).to(in.dtype()).reshape(in.shape()) : in.detach();
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
        long n = probe.numel();
        double[] v = new double[(int) n];
        for (int i = 0; i < n; i++) v[i] = 0.5 + Math.sin(1.7 * i + 0.3); // fixed, non-symmetric
        Tensor gv = float64(v).to(probe.dtype()).reshape(probe.shape());
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
            int n = Math.toIntExact(in.numel());
            double[] v = new double[n];
            for (int i = 0; i < n; i++) v[i] = 0.5 + Math.sin(1.3 * i + 0.7 * tangents.size() + 0.2);
            tangents.add(float64(v).to(in.dtype()).reshape(in.shape()));
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
