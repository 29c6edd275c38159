package org.jtorch.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.stream.Stream;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.autograd.Autograd;
import org.jtorch.autograd.GradCheck;
import org.jtorch.nn.functional.F;
import org.jtorch.testing.Golden;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * {@code multi_margin_loss}, {@code multilabel_margin_loss} and {@code triplet_margin_with_distance_loss} and their
 * modules against PyTorch 2.13 ({@code make_golden_margin_losses.py}): outputs, input gradients, reprs and errors; and
 * gradcheck in float64 against finite differences (reverse, forward mode, second order).
 */
class MarginLossesGoldenTest {
    private static final String FIXTURE = "margin_losses.json";

    private static BiFunction<Tensor, Tensor, Tensor> distance(Object name) {
        if ("cosine".equals(name))
            return (x, y) -> F.cosineSimilarity(x, y).neg().add(1.0);
        if ("p1".equals(name)) return new PairwiseDistance(1.0, 1e-6, false);
        return null;
    }

    private static double num(Golden.Case c, String k, double otherwise) {
        return c.has(k) ? ((Number) c.kwarg(k)).doubleValue() : otherwise;
    }

    private static Tensor call(Golden.Case c, Tensor[] a) {
        Reduction red = Reduction.of(c.has("reduction") ? (String) c.kwarg("reduction") : "mean");
        return switch (c.op()) {
            case "module" ->
                switch (module((String) c.kwarg("module"))) {
                    case MultiMarginLoss m -> m.forward(a[0], a[1]);
                    case MultiLabelMarginLoss m -> m.forward(a[0], a[1]);
                    case TripletMarginWithDistanceLoss m -> m.forward(a[0], a[1], a[2]);
                    default -> throw new IllegalArgumentException(c.id());
                };
            case "multi_margin_loss" ->
                F.multiMarginLoss(a[0], a[1], num(c, "p", 1), num(c, "margin", 1), a.length > 2 ? a[2] : null, red);
            case "multilabel_margin_loss" -> F.multilabelMarginLoss(a[0], a[1], red);
            case "triplet_margin_with_distance_loss" ->
                F.tripletMarginWithDistanceLoss(
                        a[0],
                        a[1],
                        a[2],
                        distance(c.has("distance") ? c.kwarg("distance") : null),
                        num(c, "margin", 1),
                        c.has("swap") && (Boolean) c.kwarg("swap"),
                        red);
            default -> throw new IllegalArgumentException(c.op());
        };
    }

    private static Module module(String name) {
        return switch (name) {
            case "MultiMarginLoss" -> new MultiMarginLoss(2, 0.5, Torch.ones(4).to(DType.FLOAT64), Reduction.MEAN);
            case "MultiLabelMarginLoss" -> new MultiLabelMarginLoss(Reduction.SUM);
            case "TripletMarginWithDistanceLoss" -> new TripletMarginWithDistanceLoss(null, 0.5, true, Reduction.MEAN);
            case "TripletMarginWithDistanceLoss-p1" ->
                new TripletMarginWithDistanceLoss(distance("p1"), 1.0, false, Reduction.MEAN);
            case "MultiMarginLoss-p3" -> new MultiMarginLoss(3, 1.0, null, Reduction.MEAN);
            case "MultiMarginLoss-weight-2d" -> new MultiMarginLoss(1, 1.0, Torch.ones(2, 2), Reduction.MEAN);
            case "TripletMarginWithDistanceLoss-margin" ->
                new TripletMarginWithDistanceLoss(null, -1.0, false, Reduction.MEAN);
            default -> throw new IllegalArgumentException(name);
        };
    }

    @SuppressWarnings("unchecked")
    private static Tensor t(Object json) {
        return Golden.tensor((Map<String, Object>) json);
    }

    @TestFactory
    @SuppressWarnings("unchecked")
    Stream<DynamicTest> matchesPyTorch() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Golden.Case c : Golden.cases(FIXTURE)) {
            tests.add(DynamicTest.dynamicTest(c.id(), () -> {
                Map<String, Object> out = (Map<String, Object>) c.out();
                String name = c.has("module") ? (String) c.kwarg("module") : null;
                if (c.op().equals("repr")) {

                    Module m = module(name);
                    assertEquals(out.get("repr"), m.toString(), c.id());
                    assertEquals(
                            out.get("state_keys"), new ArrayList<>(m.stateDict().keySet()), c.id());
                    return;
                }
                if (c.op().equals("init")) {
                    var e = assertThrows(IllegalArgumentException.class, () -> module(name));
                    Golden.assertError(c, e, false);
                    return;
                }
                List<Object> grads = c.expectsError() ? List.of() : (List<Object>) out.get("grads");
                Tensor[] in = new Tensor[c.argCount()];
                for (int i = 0; i < in.length; i++) {
                    in[i] = c.tensorArg(i);
                    boolean wantsGrad = c.expectsError() ? in[i].isFloatingPoint() && i != 2 : grads.get(i) != null;
                    if (wantsGrad || c.id().endsWith("weight-requires-grad") && i == 2) in[i].requiresGrad(true);
                }
                if (c.expectsError()) {
                    RuntimeException e = assertThrows(RuntimeException.class, () -> call(c, in), c.id());
                    Golden.assertError(c, e, false);
                    String type = (String) out.get("type");
                    if (type.equals("ValueError")) assertTrue(e instanceof IllegalArgumentException, c.id());
                    return;
                }
                Tensor y = call(c, in);
                Modules2GoldenTest.close(t(out.get("output")), y, 1e-12, c.id() + " output");
                List<Tensor> wrt = new ArrayList<>();
                for (int i = 0; i < in.length; i++) if (grads.get(i) != null) wrt.add(in[i]);
                if (wrt.isEmpty()) return;
                List<Tensor> g = Autograd.grad(
                        List.of(y),
                        wrt,
                        Autograd.GradOptions.defaults().gradOutputs(List.of(t(out.get("grad_output")))));
                int k = 0;
                for (int i = 0; i < in.length; i++) {
                    if (grads.get(i) != null)
                        Modules2GoldenTest.close(t(grads.get(i)), g.get(k++), 1e-12, c.id() + " grad " + i);
                }
            }));
        }
        assertTrue(tests.size() >= 50, "cases: " + tests.size());
        return tests.stream();
    }

    private static final GradCheck.Options BOTH = GradCheck.Options.defaults().checkForwardAd(true);

    /** Inputs kept away from the hinge's kink, where finite differences straddle it. */
    private static Tensor awayFromKinks(long... shape) {
        Torch.manualSeed(11);
        return Torch.randn(shape).to(DType.FLOAT64).mul(3.0);
    }

    @Test
    void gradcheckInFloat64() {
        Tensor y = Torch.tensor(new long[] {0, 2, 1, 3});
        Tensor w = Torch.tensor(new double[] {0.5, 1.0, 1.5, 2.0});
        Tensor labels = Torch.tensor(new long[] {0, 3, -1, 1, 2, -1, 0, 0, 1, 2, 3, 0, 3, -1, 1, 1})
                .view(4, 4);
        Tensor p = awayFromKinks(4, 5).add(0.3), n = awayFromKinks(4, 5).sub(0.2);
        List<BiFunction<Tensor, Tensor, Tensor>> fns = List.of(
                (x, unused) -> F.multiMarginLoss(x, y, 1, 1.0, null, Reduction.NONE),
                (x, unused) -> F.multiMarginLoss(x, y, 2, 0.5, w, Reduction.MEAN),
                (x, unused) -> F.multilabelMarginLoss(x, labels, Reduction.NONE),
                (x, unused) -> F.multilabelMarginLoss(x, labels, Reduction.SUM));
        for (BiFunction<Tensor, Tensor, Tensor> fn : fns) {
            Tensor x = awayFromKinks(4, 4).requiresGrad(true);
            assertTrue(GradCheck.check(xs -> fn.apply(xs.get(0), null), List.of(x), BOTH));
            assertTrue(GradCheck.checkSecondOrder(xs -> fn.apply(xs.get(0), null), List.of(x), BOTH));
        }
        Tensor a = awayFromKinks(4, 5).requiresGrad(true);
        assertTrue(GradCheck.check(
                xs -> F.tripletMarginWithDistanceLoss(xs.get(0), p, n, distance("cosine"), 0.5, true, Reduction.NONE),
                List.of(a),
                BOTH));
    }
}
