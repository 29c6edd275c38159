package org.jtorch.testing;

import java.util.List;
import java.util.function.Function;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.ops.OpDef;

/**
 * One row of the op table: the op, how to call it on sample tensors, and the dtypes it claims.
 *
 * @param op the definition under test
 * @param arity number of tensor inputs a sample supplies
 * @param call runs the op on the sample tensors (extra arguments are fixed here)
 * @param dtypes dtypes the op must accept; others must be refused with an exception
 */
public record OpInfo(OpDef op, int arity, Function<Tensor[], Tensor> call, List<DType> dtypes) {

    public String name() {
        return op.name();
    }

    /** A sample: input shapes for a call; inputs are broadcastable. */
    public record Sample(String label, long[][] shapes) {}

    /** Shapes every pointwise op is swept over: same shape, broadcasting, 0-d, empty. */
    public static List<Sample> pointwiseSamples(int arity) {
        return switch (arity) {
            case 1 ->
                List.of(
                        new Sample("2x3", new long[][] {{2, 3}}),
                        new Sample("0-d", new long[][] {{}}),
                        new Sample("empty", new long[][] {{0, 3}}),
                        new Sample("3x1x4", new long[][] {{3, 1, 4}}));
            case 2 ->
                List.of(
                        new Sample("same", new long[][] {{2, 3}, {2, 3}}),
                        new Sample("broadcast", new long[][] {{2, 1, 3}, {4, 3}}),
                        new Sample("0-d", new long[][] {{2, 3}, {}}),
                        new Sample("empty", new long[][] {{0, 3}, {1, 3}}));
            default ->
                List.of(
                        new Sample("same", new long[][] {{2, 3}, {2, 3}, {2, 3}}),
                        new Sample("broadcast", new long[][] {{3, 1}, {1, 4}, {4}}),
                        new Sample("empty", new long[][] {{0, 2}, {1, 2}, {2}}));
        };
    }
}
