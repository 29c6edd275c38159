package org.jtorch.optim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.testing.Golden;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Parameter trajectories on a fixed quadratic loss (gradients from JTorch autograd) against real PyTorch 2.13
 * ({@code golden/optim.json}, written by {@code make_golden_optim.py}), for every optimizer, option combination and
 * implementation (for-loop, foreach, fused where PyTorch has it), and the final state (keys in PyTorch's order and
 * values).
 */
class OptimTrajectoryTest {
    static final List<String> FUSED = List.of("SGD", "Adam", "AdamW", "Adagrad");

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (Golden.Case c : Golden.cases("optim.json")) {
            out.add(Arguments.of(c, StepSupport.Impl.FOR_LOOP));
            out.add(Arguments.of(c, StepSupport.Impl.FOREACH));
            if (FUSED.contains(c.op())) out.add(Arguments.of(c, StepSupport.Impl.FUSED));
        }
        return out.stream();
    }

    /** A case's optimizer on {@code params}, with the implementation forced. */
    static Optimizer make(String name, Map<String, Object> kwargs, List<Tensor> params, StepSupport.Impl impl) {
        Optimizer opt =
                switch (name) {
                    case "SGD" -> new SGD(params, configure(SGD.Options.defaults(), kwargs, impl));
                    case "Adam" -> new Adam(params, configure(Adam.Options.defaults(), kwargs, impl));
                    case "AdamW" -> new AdamW(params, configure(AdamW.Options.defaults(), kwargs, impl));
                    case "Adagrad" -> new Adagrad(params, configure(Adagrad.Options.defaults(), kwargs, impl));
                    case "RMSprop" -> new RMSprop(params, configure(RMSprop.Options.defaults(), kwargs, impl));
                    case "Adamax" -> new Adamax(params, configure(Adamax.Options.defaults(), kwargs, impl));
                    case "NAdam" -> new NAdam(params, configure(NAdam.Options.defaults(), kwargs, impl));
                    case "RAdam" -> new RAdam(params, configure(RAdam.Options.defaults(), kwargs, impl));
                    default -> throw new IllegalArgumentException(name);
                };
        return opt;
    }

    private static <O extends OptimizerOptions<O>> O configure(
            O options, Map<String, Object> kwargs, StepSupport.Impl impl) {
        for (var e : kwargs.entrySet()) options = options.with(e.getKey(), e.getValue());
        options = options.with("foreach", impl == StepSupport.Impl.FOREACH);
        if (impl == StepSupport.Impl.FUSED)
            options = options.with("foreach", null).with("fused", true);
        return options;
    }

    /** loss = sum((A1 p1 - b1)^2) + sum((p2 B - C)^2) */
    static Tensor loss(List<Tensor> p, List<Tensor> data) {
        Tensor r1 = data.get(0).matmul(p.get(0)).sub(data.get(1));
        Tensor r2 = p.get(1).matmul(data.get(2)).sub(data.get(3));
        return r1.square().sum().add(r2.square().sum());
    }

    static List<List<double[]>> trajectory(Golden.Case c, StepSupport.Impl impl, Optimizer[] last) {
        List<Tensor> params =
                List.of(c.tensorArg(0).requiresGrad(true), c.tensorArg(1).requiresGrad(true));
        List<Tensor> data = List.of(c.tensorArg(2), c.tensorArg(3), c.tensorArg(4), c.tensorArg(5));
        Optimizer opt = make(c.op(), c.kwargs(), params, impl);
        List<List<double[]>> out = new ArrayList<>();
        @SuppressWarnings("unchecked")
        int steps = ((List<Object>) ((Map<String, Object>) c.out()).get("trajectory")).size();
        for (int s = 0; s < steps; s++) {
            opt.zeroGrad();
            loss(params, data).backward();
            opt.step();
            out.add(List.of(params.get(0).toDoubleArray(), params.get(1).toDoubleArray()));
        }
        if (last != null) last[0] = opt;
        return out;
    }

    static double tolerance(Golden.Case c) {
        return c.tensorArg(0).dtype() == DType.FLOAT64 ? 1e-9 : 3e-5;
    }

    static void assertClose(double[] expected, double[] actual, double tol, String what) {
        assertEquals(expected.length, actual.length, what);
        for (int i = 0; i < expected.length; i++) {
            double err = Math.abs(expected[i] - actual[i]);
            assertTrue(
                    err <= tol * Math.max(1, Math.abs(expected[i])),
                    what + "[" + i + "]: expected " + expected[i] + " got " + actual[i]);
        }
    }

    @SuppressWarnings("unchecked")
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void matchesPyTorch(Golden.Case c, StepSupport.Impl impl) {
        Optimizer[] opt = new Optimizer[1];
        List<List<double[]>> got = trajectory(c, impl, opt);
        Map<String, Object> out = (Map<String, Object>) c.out();
        List<Object> expected = (List<Object>) out.get("trajectory");
        double tol = tolerance(c);
        for (int s = 0; s < expected.size(); s++) {
            List<Object> step = (List<Object>) expected.get(s);
            for (int k = 0; k < 2; k++) {
                Tensor e = (Tensor) Golden.decode(step.get(k));
                assertClose(e.toDoubleArray(), got.get(s).get(k), tol, c.id() + " step " + (s + 1) + " p" + (k + 1));
            }
        }
        OptimizerStateDict sd = opt[0].stateDict();
        List<Object> state = (List<Object>) out.get("state");
        assertEquals(state.size(), sd.state().size(), "state entries");
        for (Object o : state) {
            Map<String, Object> entry = (Map<String, Object>) o;
            int index = ((Number) entry.get("index")).intValue();
            Map<String, Object> mine = sd.state().get(index);
            assertEquals(entry.get("keys"), new ArrayList<>(mine.keySet()), c.id() + " state keys of " + index);
            Map<String, Object> values = (Map<String, Object>) entry.get("values");
            for (var kv : values.entrySet()) {
                Tensor e = (Tensor) Golden.decode(kv.getValue());
                Tensor a = (Tensor) mine.get(kv.getKey());
                assertArrayEquals(e.shape(), a.shape(), kv.getKey());
                assertClose(
                        e.toDoubleArray(),
                        a.toDoubleArray(),
                        kv.getKey().equals("step") ? 0 : tol * 10,
                        c.id() + " " + kv.getKey());
            }
        }
    }
}
