package org.jtorch.autograd;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;

/**
 * {@code torch.autograd.gradcheck}/{@code gradgradcheck}: compares the analytical Jacobian (one VJP
 * per output element) with central finite differences, entry by entry:
 * {@code |analytic - numeric| <= atol + rtol * |numeric|}. Real inputs; use float64.
 */
public final class GradCheck {
    private GradCheck() {}

    /** PyTorch's defaults: eps 1e-6, atol 1e-5, rtol 1e-3. */
    public record Options(double eps, double atol, double rtol, boolean raiseException) {
        public static Options defaults() { return new Options(1e-6, 1e-5, 1e-3, true); }

        public Options eps(double v) { return new Options(v, atol, rtol, raiseException); }

        public Options atol(double v) { return new Options(eps, v, rtol, raiseException); }

        public Options rtol(double v) { return new Options(eps, atol, v, raiseException); }

        public Options raiseException(boolean v) { return new Options(eps, atol, rtol, v); }
    }

    /** Raised when the Jacobians disagree ({@code GradcheckError}). */
    public static final class GradcheckError extends TorchException {
        public GradcheckError(String message) { super(message); }
    }

    /** Checks first derivatives of {@code fn} at {@code inputs} (each must require grad). */
    public static boolean check(Function<List<Tensor>, Tensor> fn, List<Tensor> inputs, Options o) {
        for (Tensor in : inputs) {
            if (!in.requiresGrad()) throw new IllegalArgumentException("gradcheck: every input must require grad");
            if (in.isComplex()) throw new IllegalArgumentException("gradcheck: complex inputs are not supported yet");
        }
        Tensor out = fn.apply(inputs);
        int outN = Math.toIntExact(out.numel());
        List<double[][]> analytic = new ArrayList<>(); // per input: [outN][inN]
        for (Tensor in : inputs) analytic.add(new double[outN][Math.toIntExact(in.numel())]);
        if (out.requiresGrad()) {
            for (int j = 0; j < outN; j++) {
                double[] seed = new double[outN];
                seed[j] = 1;
                Tensor g = Torch.tensor(seed, DType.FLOAT64, outN).to(out.dtype()).reshape(out.shape());
                List<Tensor> grads = Autograd.grad(List.of(out), inputs,
                        Autograd.GradOptions.defaults().gradOutputs(List.of(g)).retainGraph(true).allowUnused(true));
                for (int i = 0; i < inputs.size(); i++) {
                    if (grads.get(i) != null) analytic.get(i)[j] = grads.get(i).toDoubleArray();
                }
            }
        }
        for (int i = 0; i < inputs.size(); i++) {
            Tensor in = inputs.get(i);
            double[] x = in.detach().toDoubleArray();
            int inN = x.length;
            for (int k = 0; k < inN; k++) {
                double[] plus = perturbed(fn, inputs, i, x, k, o.eps()), minus = perturbed(fn, inputs, i, x, k, -o.eps());
                for (int j = 0; j < outN; j++) {
                    double numeric = (plus[j] - minus[j]) / (2 * o.eps());
                    double a = analytic.get(i)[j][k];
                    if (!(Math.abs(a - numeric) <= o.atol() + o.rtol() * Math.abs(numeric))) {
                        String msg = "Jacobian mismatch for output 0 with respect to input " + i + ",\nnumerical:" + numeric
                                + "\nanalytical:" + a + "\n(at output element " + j + ", input element " + k + ")";
                        if (o.raiseException()) throw new GradcheckError(msg);
                        return false;
                    }
                }
            }
        }
        return true;
    }

    /**
     * {@code fn} at the inputs with element {@code k} of input {@code i} moved by {@code d}. The inputs
     * are fresh leaves that require grad, because {@code fn} may itself differentiate (gradgradcheck).
     */
    private static double[] perturbed(Function<List<Tensor>, Tensor> fn, List<Tensor> inputs, int i, double[] x, int k, double d) {
        double[] xs = x.clone();
        xs[k] += d;
        List<Tensor> args = new ArrayList<>(inputs.size());
        for (int j = 0; j < inputs.size(); j++) {
            Tensor in = inputs.get(j);
            Tensor v = j == i ? Torch.tensor(xs, DType.FLOAT64, xs.length).to(in.dtype()).reshape(in.shape()) : in.detach();
            args.add(v.requiresGrad(true));
        }
        return fn.apply(args).detach().toDoubleArray();
    }

    /**
     * {@code gradgradcheck}: checks the derivatives of {@code x ↦ vjp(fn, x, v)} for a fixed random-looking
     * {@code v}, i.e. second derivatives, through createGraph.
     */
    public static boolean checkSecondOrder(Function<List<Tensor>, Tensor> fn, List<Tensor> inputs, Options o) {
        Tensor probe = fn.apply(inputs);
        long n = probe.numel();
        double[] v = new double[(int) n];
        for (int i = 0; i < n; i++) v[i] = 0.5 + Math.sin(1.7 * i + 0.3); // fixed, non-symmetric
        Tensor gv = Torch.tensor(v, DType.FLOAT64, v.length).to(probe.dtype()).reshape(probe.shape());
        Function<List<Tensor>, Tensor> vjp = xs -> {
            Tensor out = fn.apply(xs);
            List<Tensor> g = Autograd.grad(List.of(out), xs,
                    Autograd.GradOptions.defaults().gradOutputs(List.of(gv)).createGraph(true).materializeGrads(true));
            List<Tensor> flat = new ArrayList<>();
            for (Tensor t : g) flat.add(t.reshape(-1));
            return flat.size() == 1 ? flat.get(0) : Torch.cat(flat);
        };
        return check(vjp, inputs, o);
    }
}
