package org.jtorch.optim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.ops.ComplexOps;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The worked examples of spec §3.2–3.5 (closed forms, every implementation), the 2.x options (checked against the
 * identities that define them; PyTorch 2.13's trajectories for them are in {@code golden/optim.json}), complex
 * parameters and AMP's grad_scale/found_inf.
 */
class OptimizerExamplesTest {
    /** Scalar p = 1 under the given constant-per-step gradients; returns p after each step. */
    static double[] run(String name, Map<String, Object> kwargs, StepSupport.Impl impl, double... grads) {
        Tensor p = Torch.tensor(new double[] {1.0}).requiresGrad(true);
        Optimizer opt = OptimTrajectoryTest.make(name, kwargs, List.of(p), impl);
        double[] out = new double[grads.length];
        for (int i = 0; i < grads.length; i++) {
            p.setGrad(Torch.tensor(new double[] {grads[i]}));
            opt.step();
            out[i] = p.item();
        }
        return out;
    }

    static boolean hasFused(String name) {
        return OptimTrajectoryTest.FUSED.contains(name);
    }

    static void expect(
            String name, Map<String, Object> kwargs, StepSupport.Impl impl, double[] grads, double... expected) {
        if (impl == StepSupport.Impl.FUSED && !hasFused(name)) return;
        assertArrayEquals(expected, run(name, kwargs, impl, grads), 1e-9, name + " " + kwargs + " " + impl);
    }

    @ParameterizedTest
    @EnumSource(StepSupport.Impl.class)
    void sgd(StepSupport.Impl impl) {
        double[] g = {0.5, 0.5, 0.5};
        expect("SGD", Map.of("lr", 0.1), impl, new double[] {0.5, 0.5}, 0.95, 0.90);
        expect("SGD", Map.of("lr", 0.1, "momentum", 0.9), impl, g, 0.95, 0.855, 0.7195);
        expect(
                "SGD",
                Map.of("lr", 0.1, "momentum", 0.9, "nesterov", true),
                impl,
                new double[] {0.5, 0.5},
                0.905,
                0.7695);
        expect(
                "SGD",
                Map.of("lr", 0.1, "momentum", 0.9, "weight_decay", 0.01),
                impl,
                new double[] {0.5, 0.5},
                0.949,
                0.852151);
        expect("SGD", Map.of("lr", 0.1, "momentum", 0.9, "dampening", 0.1), impl, new double[] {0.5, 0.5}, 0.95, 0.86);
    }

    @ParameterizedTest
    @EnumSource(StepSupport.Impl.class)
    void adagrad(StepSupport.Impl impl) {
        expect("Adagrad", Map.of("lr", 0.1), impl, new double[] {0.5, 0.25}, 0.90000000002, 0.8552786405);
        expect(
                "Adagrad",
                Map.of("lr", 0.1, "lr_decay", 0.5, "weight_decay", 0.1, "initial_accumulator_value", 0.1),
                impl,
                new double[] {0.5, 0.25},
                0.9115348263,
                0.8815775758);
    }

    @ParameterizedTest
    @EnumSource(StepSupport.Impl.class)
    void adam(StepSupport.Impl impl) {
        expect("Adam", Map.of("lr", 0.1), impl, new double[] {0.5, -0.25}, 0.900000002, 0.8733662987);
        expect("Adam", Map.of("lr", 0.1, "amsgrad", true), impl, new double[] {0.5, 0.1}, 0.900000002, 0.8196959064);
        expect(
                "Adam",
                Map.of("lr", 0.1, "weight_decay", 0.1),
                impl,
                new double[] {0.5, -0.25},
                0.9000000017,
                0.8544413675);
        expect(
                "AdamW",
                Map.of("lr", 0.1, "weight_decay", 0.1),
                impl,
                new double[] {0.5, -0.25},
                0.890000002,
                0.8544662987);
        expect("AdamW", Map.of("lr", 0.1), impl, new double[] {0.5, -0.25}, 0.899000002, 0.8714672987);
        expect(
                "Adam",
                Map.of("lr", 0.1, "weight_decay", 0.1, "decoupled_weight_decay", true),
                impl,
                new double[] {0.5, -0.25},
                0.890000002,
                0.8544662987);
    }

    /** The 2.x options against the identities that define them; every implementation agrees. */
    @ParameterizedTest
    @EnumSource(
            value = StepSupport.Impl.class,
            names = {"FOR_LOOP", "FOREACH"})
    void newerOptions(StepSupport.Impl impl) {
        double[] g = {0.5, -0.2, 0.3, 0.1, -0.4, 0.25, 0.6, -0.1};
        double[] minusG = new double[g.length];
        for (int i = 0; i < g.length; i++) minusG[i] = -g[i];
        for (String name : List.of("NAdam", "RAdam")) {
            // maximize on g is minimisation on -g
            assertArrayEquals(
                    run(name, Map.of("lr", 0.05), impl, minusG),
                    run(name, Map.of("lr", 0.05, "maximize", true), impl, g),
                    1e-15,
                    name + " maximize");
            // decoupled decay: p *= 1 - lr * wd before an undecayed step
            double lr = 0.05, wd = 0.2;
            Tensor p = Torch.tensor(new double[] {1.0}).requiresGrad(true);
            Optimizer plain = OptimTrajectoryTest.make(name, Map.of("lr", lr), List.of(p), impl);
            double[] expected = new double[g.length];
            for (int i = 0; i < g.length; i++) {
                try (var _ = Torch.noGrad()) {
                    StepSupport.mul_(p, 1 - lr * wd);
                }
                p.setGrad(Torch.tensor(new double[] {g[i]}));
                plain.step();
                expected[i] = p.item();
            }
            assertArrayEquals(
                    expected,
                    run(name, Map.of("lr", lr, "weight_decay", wd, "decoupled_weight_decay", true), impl, g),
                    1e-15,
                    name + " decoupled_weight_decay");
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = StepSupport.Impl.class,
            names = {"FOR_LOOP", "FOREACH"})
    void complexParametersAreUpdatedAsTheirRealViews(StepSupport.Impl impl) {
        for (String name : List.of("SGD", "Adam", "AdamW", "Adagrad", "RMSprop", "Adamax", "NAdam", "RAdam")) {
            Tensor re = Torch.tensor(new double[] {1.0, -0.5}), im = Torch.tensor(new double[] {0.25, 2.0});
            Tensor pc = ComplexOps.complex(re, im).requiresGrad(true);
            Tensor pr = Torch.tensor(new double[][] {{1.0, 0.25}, {-0.5, 2.0}}).requiresGrad(true);
            Map<String, Object> kwargs = name.equals("SGD") ? Map.of("lr", 0.1, "momentum", 0.9) : Map.of("lr", 0.1);
            Optimizer oc = OptimTrajectoryTest.make(name, kwargs, List.of(pc), impl);
            Optimizer or = OptimTrajectoryTest.make(name, kwargs, List.of(pr), impl);
            for (int s = 0; s < 4; s++) {
                Tensor gr = Torch.tensor(new double[][] {{0.3 - 0.1 * s, -0.2}, {0.05 * s, 0.4}});
                pc.setGrad(ComplexOps.complex(
                        gr.select(1, 0).contiguous(), gr.select(1, 1).contiguous()));
                pr.setGrad(gr);
                oc.step();
                or.step();
            }
            assertArrayEquals(
                    pr.toDoubleArray(), ComplexOps.viewAsReal(pc).contiguous().toDoubleArray(), 1e-12, name);
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = DType.class,
            names = {"FLOAT32", "FLOAT16"})
    void ampFoundInfSkipsTheStepAndGradScaleUnscales(DType dtype) {
        Tensor p = Torch.tensor(new double[] {1.0, 2.0}).to(dtype).requiresGrad(true);
        Adam opt = new Adam(List.of(p), Adam.Options.defaults().lr(0.1).fused(true));
        p.setGrad(Torch.tensor(new double[] {1.0, -1.0}).to(dtype));
        opt.ampScaling(Torch.scalarTensor(2.0, DType.FLOAT32), Torch.scalarTensor(1.0, DType.FLOAT32));
        opt.step();
        assertArrayEquals(new double[] {1.0, 2.0}, p.toDoubleArray(), "found_inf: parameters unchanged");
        assertEquals(0.0, ((Tensor) opt.state(p).get("step")).item(), "found_inf: step not advanced");
        assertArrayEquals(new double[] {0, 0}, ((Tensor) opt.state(p).get("exp_avg")).toDoubleArray());

        opt.ampScaling(Torch.scalarTensor(2.0, DType.FLOAT32), Torch.scalarTensor(0.0, DType.FLOAT32));
        opt.step();
        assertArrayEquals(new double[] {0.5, -0.5}, p.grad().toDoubleArray(), "gradients keep the unscaled values");
        Tensor q = Torch.tensor(new double[] {1.0, 2.0}).to(dtype).requiresGrad(true);
        q.setGrad(Torch.tensor(new double[] {0.5, -0.5}).to(dtype));
        new Adam(List.of(q), Adam.Options.defaults().lr(0.1).fused(true)).step();
        assertArrayEquals(q.toDoubleArray(), p.toDoubleArray(), 0.0);
        assertEquals(1.0, ((Tensor) opt.state(p).get("step")).item());
    }

    @ParameterizedTest
    @EnumSource(value = StepSupport.Impl.class)
    void mixedDtypeGroupsAgreeAcrossImplementations(StepSupport.Impl impl) {
        // One group mixing float32 and float64 tensors of several sizes: results per dtype equal the
        // for-loop's (tight for float64; to float rounding for float32, where fused uses one rounding).
        for (String name : List.of("SGD", "Adam", "AdamW", "Adagrad")) {
            List<Tensor> a = new ArrayList<>(), b = new ArrayList<>();
            for (int k = 0; k < 6; k++) {
                DType d = k % 2 == 0 ? DType.FLOAT32 : DType.FLOAT64;
                int n = k == 0 ? 150_000 : 1 + 37 * k; // the first is split between threads inside one tensor
                double[] v = new double[n], g = new double[n];
                for (int i = 0; i < n; i++) {
                    v[i] = Math.sin(i + k);
                    g[i] = 0.1 * Math.cos(3 * i - k);
                }
                Tensor x = Torch.tensor(v).to(d).requiresGrad(true),
                        y = Torch.tensor(v).to(d).requiresGrad(true);
                x.setGrad(Torch.tensor(g).to(d));
                y.setGrad(Torch.tensor(g).to(d));
                a.add(x);
                b.add(y);
            }
            Map<String, Object> kwargs = name.equals("SGD")
                    ? Map.of("lr", 0.1, "momentum", 0.9, "nesterov", true, "weight_decay", 0.01)
                    : Map.of("lr", 0.05, "weight_decay", 0.01);
            Optimizer ref = OptimTrajectoryTest.make(name, kwargs, a, StepSupport.Impl.FOR_LOOP);
            Optimizer opt = OptimTrajectoryTest.make(name, kwargs, b, impl);
            for (int s = 0; s < 5; s++) {
                ref.step();
                opt.step();
            }
            for (int k = 0; k < a.size(); k++) {
                double tol = a.get(k).dtype() == DType.FLOAT64 ? 1e-13 : 2e-6;
                assertArrayEquals(
                        a.get(k).toDoubleArray(), b.get(k).toDoubleArray(), tol, name + " " + impl + " tensor " + k);
            }
        }
    }
}
