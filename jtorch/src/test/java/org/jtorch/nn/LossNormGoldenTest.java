package org.jtorch.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.autograd.Autograd;
import org.jtorch.nn.functional.F;
import org.jtorch.testing.Golden;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The loss functions and modules, {@code F.ctc_loss}, instance and local response normalisation and
 * {@code ParameterDict} against PyTorch 2.13 (jtorch/src/test/python/make_golden_nn_modules.py): outputs, gradients of
 * every float64 input and parameter, running statistics after the forward, printed trees, state-dict keys, and errors
 * in PyTorch's words.
 */
class LossNormGoldenTest {
    private static final String FIXTURE = "nn_modules.json";

    /** The module of a case, built with the generator's arguments, in float64 as the generator's {@code .double()}. */
    static Module build(String name) {
        Module m =
                switch (name) {
                    case "L1Loss" -> new L1Loss();
                    case "MSELoss-sum" -> new MSELoss(Reduction.SUM);
                    case "CrossEntropyLoss" ->
                        new CrossEntropyLoss(Torch.tensor(new float[] {1, 2, 0.5f}), 1, Reduction.MEAN, 0.1);
                    case "NLLLoss" -> new NLLLoss(null, -100, Reduction.SUM);
                    case "BCELoss" -> new BCELoss(Torch.tensor(new float[] {1, 0.5f, 2}), Reduction.MEAN);
                    case "BCEWithLogitsLoss" ->
                        new BCEWithLogitsLoss(null, Reduction.MEAN, Torch.tensor(new float[] {1, 3, 0.5f}));
                    case "HuberLoss" -> new HuberLoss(Reduction.MEAN, 0.5);
                    case "SmoothL1Loss" -> new SmoothL1Loss(Reduction.NONE, 0.5);
                    case "KLDivLoss" -> new KLDivLoss("batchmean", true);
                    case "CTCLoss" -> new CTCLoss(0, Reduction.SUM, false);
                    case "TripletMarginLoss" -> new TripletMarginLoss(0.5, 2.0, 1e-6, true, Reduction.MEAN);
                    case "CosineEmbeddingLoss" -> new CosineEmbeddingLoss(0.2, Reduction.MEAN);
                    case "MarginRankingLoss" -> new MarginRankingLoss(0.1, Reduction.MEAN);
                    case "MultiLabelSoftMarginLoss" -> new MultiLabelSoftMarginLoss();
                    case "PoissonNLLLoss" -> new PoissonNLLLoss(false, true, 1e-8, Reduction.MEAN);
                    case "GaussianNLLLoss" -> new GaussianNLLLoss(true, 1e-6, Reduction.MEAN);
                    case "SoftMarginLoss" -> new SoftMarginLoss();
                    case "HingeEmbeddingLoss" -> new HingeEmbeddingLoss(2.0, Reduction.MEAN);
                    case "InstanceNorm1d" -> new InstanceNorm1d(3);
                    case "InstanceNorm1d-affine" -> new InstanceNorm1d(3, 1e-5, 0.1, true, false);
                    case "InstanceNorm2d-track" -> new InstanceNorm2d(3, 1e-5, 0.1, true, true);
                    case "InstanceNorm2d-momentum-none" -> new InstanceNorm2d(2, 1e-5, null, false, true);
                    case "InstanceNorm3d" -> new InstanceNorm3d(2, 1e-3, 0.3, true, true);
                    case "InstanceNorm2d" -> new InstanceNorm2d(3);
                    case "LocalResponseNorm-3" -> new LocalResponseNorm(3);
                    case "LocalResponseNorm-2" -> new LocalResponseNorm(2, 0.5, 0.6, 2.0);
                    case "LocalResponseNorm-4" -> new LocalResponseNorm(4, 0.1, 0.75, 1.0);
                    default -> throw new IllegalArgumentException(name);
                };
        return m.toDouble();
    }

    /** The module's forward on the case's inputs. */
    static Tensor forward(Module m, Tensor[] in) {
        return switch (m) {
            case CrossEntropyLoss l -> l.forward(in[0], in[1]);
            case NLLLoss l -> l.forward(in[0], in[1]);
            case BCELoss l -> l.forward(in[0], in[1]);
            case BCEWithLogitsLoss l -> l.forward(in[0], in[1]);
            case KLDivLoss l -> l.forward(in[0], in[1]);
            case CTCLoss l -> l.forward(in[0], in[1], in[2], in[3]);
            case TripletMarginLoss l -> l.forward(in[0], in[1], in[2]);
            case CosineEmbeddingLoss l -> l.forward(in[0], in[1], in[2]);
            case MarginRankingLoss l -> l.forward(in[0], in[1], in[2]);
            case GaussianNLLLoss l -> l.forward(in[0], in[1], in[2]);
            case L1Loss l -> l.forward(in[0], in[1]);
            case MSELoss l -> l.forward(in[0], in[1]);
            case HuberLoss l -> l.forward(in[0], in[1]);
            case SmoothL1Loss l -> l.forward(in[0], in[1]);
            case MultiLabelSoftMarginLoss l -> l.forward(in[0], in[1]);
            case PoissonNLLLoss l -> l.forward(in[0], in[1]);
            case SoftMarginLoss l -> l.forward(in[0], in[1]);
            case HingeEmbeddingLoss l -> l.forward(in[0], in[1]);
            default -> m.call(in[0]);
        };
    }

    private static Reduction reduction(Golden.Case c) {
        return Reduction.of((String) c.kwarg("reduction"));
    }

    private static double num(Golden.Case c, String k) {
        return ((Number) c.kwarg(k)).doubleValue();
    }

    @SuppressWarnings("unchecked")
    private static long[] longs(Golden.Case c, String k) {
        return ((List<Object>) c.kwarg(k))
                .stream().mapToLong(v -> ((Number) v).longValue()).toArray();
    }

    /** The F call of a functional case. */
    static Tensor functional(Golden.Case c, Tensor[] a) {
        return switch (c.op()) {
            case "margin_ranking_loss" -> F.marginRankingLoss(a[0], a[1], a[2], num(c, "margin"), reduction(c));
            case "triplet_margin_loss" ->
                F.tripletMarginLoss(
                        a[0],
                        a[1],
                        a[2],
                        num(c, "margin"),
                        num(c, "p"),
                        num(c, "eps"),
                        (Boolean) c.kwarg("swap"),
                        reduction(c));
            case "multilabel_soft_margin_loss" ->
                F.multilabelSoftMarginLoss(a[0], a[1], a.length > 2 ? a[2] : null, reduction(c));
            case "poisson_nll_loss" ->
                F.poissonNllLoss(
                        a[0],
                        a[1],
                        (Boolean) c.kwarg("log_input"),
                        (Boolean) c.kwarg("full"),
                        num(c, "eps"),
                        reduction(c));
            case "gaussian_nll_loss" ->
                F.gaussianNllLoss(a[0], a[1], a[2], (Boolean) c.kwarg("full"), num(c, "eps"), reduction(c));
            case "soft_margin_loss" -> F.softMarginLoss(a[0], a[1], reduction(c));
            case "hinge_embedding_loss" -> F.hingeEmbeddingLoss(a[0], a[1], num(c, "margin"), reduction(c));
            case "ctc_loss" -> {
                Tensor lp = c.kwarg("via").equals("log_softmax") ? F.logSoftmax(a[0], -1) : a[0];
                yield F.ctcLoss(
                        lp,
                        a[1],
                        longs(c, "input_lengths"),
                        longs(c, "target_lengths"),
                        ((Number) c.kwarg("blank")).longValue(),
                        reduction(c),
                        (Boolean) c.kwarg("zero_infinity"));
            }
            case "instance_norm" -> forward(build((String) c.kwarg("module")), a);
            case "local_response_norm" -> F.localResponseNorm(a[0], ((Number) c.kwarg("size")).longValue());
            default -> throw new IllegalArgumentException(c.op());
        };
    }

    @SuppressWarnings("unchecked")
    private static Tensor t(Object json) {
        return json == null ? null : Golden.tensor((Map<String, Object>) json);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Tensor> tensors(Object json) {
        Map<String, Tensor> r = new LinkedHashMap<>();
        ((Map<String, Object>) json).forEach((k, v) -> r.put(k, t(v)));
        return r;
    }

    @TestFactory
    @SuppressWarnings("unchecked")
    Stream<DynamicTest> matchesPyTorch() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Golden.Case c : Golden.cases(FIXTURE)) {
            tests.add(DynamicTest.dynamicTest(c.id(), () -> {
                Map<String, Object> out = (Map<String, Object>) c.out();
                if (c.op().equals("repr")) {
                    checkParameterDict(out);
                    return;
                }
                List<Object> grads = c.expectsError() ? List.of() : (List<Object>) out.get("grads");
                Tensor[] in = new Tensor[c.argCount()];
                for (int i = 0; i < in.length; i++) {
                    in[i] = c.tensorArg(i);
                    if (i < grads.size() && grads.get(i) != null) in[i].requiresGrad(true);
                }
                if (c.expectsError()) {
                    try {
                        Tensor y = functional(c, in);
                        throw new AssertionError(c.id() + ": PyTorch raised \"" + c.error() + "\" but got " + y);
                    } catch (RuntimeException e) {
                        Golden.assertError(c, e, false);
                    }
                    return;
                }
                Module m = null;
                Tensor y;
                if (c.op().equals("module")) {
                    m = build((String) c.kwarg("module"));
                    if (c.id().endsWith("-eval")) m.eval();
                    assertEquals(out.get("repr"), m.toString(), c.id() + " repr");
                    assertEquals(
                            out.get("state_keys"), new ArrayList<>(m.stateDict().keySet()), c.id() + " keys");
                    m.loadStateDict(tensors(out.get("state")));
                    y = forward(m, in);
                } else {
                    y = functional(c, in);
                }
                Modules2GoldenTest.close(t(out.get("output")), y, 1e-10, c.id() + " output");
                List<Tensor> wrt = new ArrayList<>();
                for (int i = 0; i < in.length; i++) if (grads.get(i) != null) wrt.add(in[i]);
                Map<String, Tensor> paramGrads = m == null ? Map.of() : tensors(out.get("param_grads"));
                for (String n : paramGrads.keySet()) wrt.add(m.getParameter(n));
                if (!wrt.isEmpty()) {
                    List<Tensor> g = Autograd.grad(
                            List.of(y),
                            wrt,
                            Autograd.GradOptions.defaults()
                                    .gradOutputs(List.of(t(out.get("grad_output"))))
                                    .allowUnused(true));
                    int k = 0;
                    for (int i = 0; i < in.length; i++) {
                        if (grads.get(i) != null)
                            Modules2GoldenTest.close(t(grads.get(i)), g.get(k++), 1e-9, c.id() + " grad " + i);
                    }
                    for (var e : paramGrads.entrySet()) {
                        Tensor got = g.get(k++);
                        if (e.getValue() == null) assertNull(got, c.id() + " grad of " + e.getKey());
                        else Modules2GoldenTest.close(e.getValue(), got, 1e-9, c.id() + " grad of " + e.getKey());
                    }
                }
                if (m != null) {
                    for (var e : tensors(out.get("state_after")).entrySet()) {
                        Modules2GoldenTest.close(
                                e.getValue(), m.stateDict().get(e.getKey()), 1e-12, c.id() + " " + e.getKey());
                    }
                }
            }));
        }
        assertTrue(tests.size() >= 80, "cases: " + tests.size());
        return tests.stream();
    }

    @SuppressWarnings("unchecked")
    private static void checkParameterDict(Map<String, Object> out) {
        // a plain dict is taken in sorted key order, as PyTorch's update() does
        ParameterDict pd = new ParameterDict(
                Map.of("w", Torch.ones(2, 3), "b", Torch.zeros(new long[] {3}, DType.FLOAT64, org.jtorch.Device.CPU)));
        assertEquals(out.get("repr"), pd.toString());
        assertEquals(out.get("state_keys"), new ArrayList<>(pd.stateDict().keySet()));
    }
}
