package org.jtorch.fx;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Generator;
import org.jtorch.Tensor;
import org.jtorch.Warnings;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.dispatch.Schema;
import org.jtorch.ops.OpDef;
import org.jtorch.ops.OpRegistry;
import org.jtorch.testing.PointwiseTable;
import org.jtorch.testing.SampleInputs;
import org.jtorch.testing.Sweeps;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Functionalization of the in-place and {@code out=} forms of every pointwise op, in three dtypes, written into a whole
 * input, into views of it ({@code select}, a strided {@code slice}, {@code t}, {@code diagonal}) and into a separate
 * {@code out=} input: each is checked by {@link FunctionalizationChecks} (only epilogue copies mutate; eager's outputs
 * and eager's input values, bitwise). A form eager refuses (a float result written into an integer tensor, an op with
 * required arguments the generic table does not give) is reported as skipped.
 */
class FunctionalizationSweepTest {
    private static final List<DType> DTYPES = List.of(DType.FLOAT32, DType.INT64, DType.BOOL);

    private record Target(String name, long[] shape, UnaryOperator<Tensor> view) {}

    private static final List<Target> TARGETS = List.of(
            new Target("self", new long[] {3, 3}, x -> x),
            new Target("select", new long[] {3}, x -> x.select(0, 1)),
            new Target("strided-slice", new long[] {3, 2}, x -> x.slice(1, 0L, null, 2)),
            new Target("transposed", new long[] {3, 3}, Tensor::t),
            new Target("diagonal", new long[] {3}, Tensor::diagonal));

    @TestFactory
    Stream<DynamicTest> inPlaceAndOutFormsOfPointwiseOps() {
        List<DynamicTest> tests = new ArrayList<>();
        for (OpDef op : OpRegistry.all()) {
            if (!op.has(OpDef.Flag.POINTWISE) || PointwiseTable.tensorArgs(op) == 0) continue;
            for (DType dtype : DTYPES) {
                for (Target target : TARGETS) {
                    String name = opDbKey(op) + "/" + dtype.pyName() + "/" + target.name();
                    tests.add(DynamicTest.dynamicTest(
                            name, () -> Sweeps.named(name, () -> check(op, dtype, target, false))));
                }
                String name = opDbKey(op) + "/" + dtype.pyName() + "/out=";
                tests.add(DynamicTest.dynamicTest(
                        name, () -> Sweeps.named(name, () -> check(op, dtype, TARGETS.getFirst(), true))));
            }
        }
        return tests.stream();
    }

    private static String opDbKey(OpDef op) {
        return org.jtorch.testing.OpDb.key(op);
    }

    /**
     * Input 0 is the 3x3 tensor written (through {@code target}'s view), the next ones the op's other tensor arguments
     * (of the view's shape); with {@code out}, a last input receives the result instead.
     */
    private static void check(OpDef op, DType dtype, Target target, boolean out) {
        int tensors = PointwiseTable.tensorArgs(op);
        Supplier<Tensor[]> inputs = () -> {
            SampleInputs in = SampleInputs.on(dtype, Device.CPU);
            Tensor[] t = new Tensor[tensors + (out ? 1 : 0)];
            t[0] = in.t(3, 3);
            for (int i = 1; i < tensors; i++) t[i] = in.t(target.shape());
            if (out) t[tensors] = in.t(3, 3);
            return t;
        };
        Function<Tensor[], Tensor[]> fn = in -> {
            Tensor written = target.view().apply(in[0]);
            Object[] operands = new Object[tensors];
            operands[0] = written;
            System.arraycopy(in, 1, operands, 1, tensors - 1);
            Object[] args = withNoneForOptionals(op, PointwiseTable.args(op, operands));
            Tensor dest = out ? in[tensors] : written;
            Dispatcher.callOut(op, new Tensor[] {dest}, args);
            return new Tensor[] {dest, in[0]};
        };
        try (var _ = Warnings.catchWarnings()) {
            byte[] generator = Generator.defaultGenerator().getStateBytes();
            try {
                fn.apply(inputs.get());
            } catch (RuntimeException refused) {
                Assumptions.abort("eager refuses it: " + refused.getMessage());
            }
            Generator.defaultGenerator().setState(generator);
            FunctionalizationChecks.check(fn, inputs);
        }
    }

    /** The arguments with None for trailing optional arguments that have no default, as a graph's lint wants. */
    private static Object[] withNoneForOptionals(OpDef op, Object[] args) {
        List<Schema.Argument> params = op.schema().arguments();
        int n = args.length;
        while (n < params.size()
                && params.get(n).type().isOptional()
                && !params.get(n).hasDefault()) n++;
        return Arrays.copyOf(args, n);
    }
}
