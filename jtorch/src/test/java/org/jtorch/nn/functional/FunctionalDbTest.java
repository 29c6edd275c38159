package org.jtorch.nn.functional;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.WarningRecorder;
import org.jtorch.Warnings;
import org.jtorch.autograd.GradCheck;
import org.jtorch.testing.FunctionalDb;
import org.jtorch.testing.FunctionalDb.Sample;
import org.jtorch.testing.Golden;
import org.jtorch.testing.SampleInputs;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Sweeps {@link FunctionalDb}: every functional sample gives PyTorch's values (make_golden_functional_db.py), passes
 * gradcheck in float64 over its floating arguments, and on the meta device gives the CPU result's shape and dtype.
 */
class FunctionalDbTest {
    private static final String FIXTURE = "functional_db.json";

    private static Map<String, Sample> byId() {
        Map<String, Sample> m = new LinkedHashMap<>();
        for (Sample s : FunctionalDb.ALL) assertEquals(null, m.put(s.id(), s), "duplicate sample id " + s.id());
        return m;
    }

    @Test
    void everySampleHasAFixtureAndEveryFixtureASample() {
        TreeSet<String> fixtures = new TreeSet<>();
        for (Golden.Case c : Golden.cases(FIXTURE)) fixtures.add(c.id());
        assertEquals(fixtures, new TreeSet<>(byId().keySet()));
        assertTrue(fixtures.size() >= 70, "fixture cases: " + fixtures.size());
    }

    @TestFactory
    @SuppressWarnings("unchecked")
    Stream<DynamicTest> valuesMatchPyTorch() {
        Map<String, Sample> samples = byId();
        List<DynamicTest> tests = new ArrayList<>();
        for (Golden.Case c : Golden.cases(FIXTURE)) {
            tests.add(DynamicTest.dynamicTest(c.id(), () -> {
                Sample s = samples.get(c.id());
                assertNotNull(s, "no FunctionalDb sample for fixture " + c.id());
                Tensor[] args = s.build(SampleInputs.on(DType.FLOAT64, Device.CPU));
                // the generator rebuilt SampleInputs' values; a drift between the two would compare different problems
                assertEquals(c.argCount(), args.length, c.id() + " argument count");
                for (int i = 0; i < args.length; i++) {
                    Tensor expected = c.tensorArg(i);
                    assertEquals(expected.dtype(), args[i].dtype(), c.id() + " dtype of argument " + i);
                    assertArrayEquals(expected.shape(), args[i].shape(), c.id() + " shape of argument " + i);
                    assertArrayEquals(
                            expected.to(DType.FLOAT64).toDoubleArray(),
                            args[i].to(DType.FLOAT64).toDoubleArray(),
                            0.0,
                            c.id() + " values of argument " + i);
                }
                // no warning either: the chunked linear_cross_entropy samples must stay on the chunked path
                try (WarningRecorder rec = Warnings.catchWarnings()) {
                    Golden.assertOutput(c, s.call().apply(args), false);
                    assertEquals(List.of(), rec.records(), c.id() + " warnings");
                }
            }));
        }
        return tests.stream();
    }

    /**
     * A small distinct shift per element and argument (in (0, 0.01)): SampleInputs' values sit on a grid of quarters,
     * where relu, hardtanh, the L1-type losses and max pooling (ties) have kinks that finite differences cannot cross.
     */
    private static Tensor jitter(Tensor x, int arg) {
        double[] v = x.toDoubleArray();
        for (int j = 0; j < v.length; j++) {
            double u = (j + 1) * 0.6180339887498949 + arg * 0.31;
            v[j] += 0.001 + 0.009 * (u - Math.floor(u));
        }
        return org.jtorch.Torch.tensor(v).reshape(x.shape());
    }

    @TestFactory
    Stream<DynamicTest> gradcheckInFloat64() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Sample s : FunctionalDb.ALL) {
            tests.add(DynamicTest.dynamicTest(s.id(), () -> {
                Assumptions.assumeTrue(s.gradSkip() == null, s.gradSkip());
                Tensor[] args = s.build(SampleInputs.on(DType.FLOAT64, Device.CPU));
                List<Integer> positions = new ArrayList<>();
                List<Tensor> inputs = new ArrayList<>();
                for (int i = 0; i < args.length; i++) {
                    if (args[i].isFloatingPoint() && s.differentiates(i)) {
                        positions.add(i);
                        inputs.add(jitter(args[i], i).requiresGrad(true));
                    }
                }
                Assumptions.assumeFalse(
                        inputs.isEmpty() || !s.call().apply(args).isFloatingPoint(),
                        s.id() + ": no floating argument or result to differentiate");
                try (WarningRecorder rec = Warnings.catchWarnings()) {
                    boolean ok = GradCheck.check(
                            in -> {
                                Tensor[] a = args.clone();
                                for (int k = 0; k < positions.size(); k++) a[positions.get(k)] = in.get(k);
                                return s.call().apply(a);
                            },
                            inputs,
                            GradCheck.Options.defaults());
                    assertTrue(ok, s.id());
                    assertEquals(List.of(), rec.records(), s.id() + " warnings");
                }
            }));
        }
        return tests.stream();
    }

    @TestFactory
    Stream<DynamicTest> metaGivesTheShapeAndDtype() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Sample s : FunctionalDb.ALL) {
            tests.add(DynamicTest.dynamicTest(s.id(), () -> {
                Assumptions.assumeTrue(s.metaSkip() == null, s.metaSkip());
                Tensor cpu = s.call().apply(s.build(SampleInputs.on(DType.FLOAT64, Device.CPU)));
                Tensor meta = s.call().apply(s.build(SampleInputs.on(DType.FLOAT64, Device.META)));
                assertEquals(Device.META, meta.device(), s.id());
                assertEquals(cpu.dtype(), meta.dtype(), s.id());
                assertArrayEquals(cpu.shape(), meta.shape(), s.id());
            }));
        }
        return tests.stream();
    }
}
