package org.jtorch.examples.serve;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jtorch.DType;
import org.jtorch.export.ExportGraphSignature.InputKind;
import org.jtorch.export.ExportGraphSignature.InputSpec;
import org.jtorch.export.ExportGraphSignature.OutputKind;
import org.jtorch.export.ExportedProgram;
import org.jtorch.export.ValueRange;
import org.jtorch.fx.Node;
import org.jtorch.fx.SymInt;
import org.jtorch.fx.SymIntArray;

/**
 * An {@link ExportedProgram} as a service, whatever made it ({@code torch.export.save} in PyTorch, or JTorch's
 * {@code Export.save}), read from its signature alone: the program's one user input is a batch whose first dimension is
 * the batch (static or a dynamic dimension), and each request is one example of the rest of that shape, in the input's
 * dtype. A request's shape is checked against the program's static sizes and the ranges of its dynamic ones before it
 * joins a batch, so a request the program would refuse never fails the others of its batch.
 */
public final class ProgramService {
    private ProgramService() {}

    /**
     * The service of {@code program}, batching at most {@code maxBatch} examples per forward (fewer when the program's
     * batch dimension allows fewer).
     *
     * @throws IllegalArgumentException when the program is not one a batching service can run: not exactly one tensor
     *     input and one output, an input without a batch dimension, or sizes that are expressions of several dimensions
     */
    public static ServedModel of(String name, ExportedProgram program, int maxBatch) {
        Node input = userInput(program);
        long[] shape = input.meta().shape();
        if (shape.length == 0) throw new IllegalArgumentException("the program's input is a scalar: no batch to fill");
        SymIntArray symbolic = input.symbolicShape();
        SymInt batch = symbolic == null ? null : symbolic.elements().get(0);
        long minBatch, maxProgramBatch;
        int batchSymbol = -1;
        if (batch == null || batch.isConstant()) {
            minBatch = maxProgramBatch = shape[0];
        } else {
            batchSymbol = plainSymbol(batch, 0);
            ValueRange r = range(program, batchSymbol);
            minBatch = r.min();
            maxProgramBatch = r.max();
        }
        String described = name + " (" + describe(input, shape, symbolic) + ")";
        return ServedModel.ofProgram(
                described,
                program,
                minBatch,
                Math.min(maxProgramBatch, Math.max(minBatch, maxBatch)),
                input.meta().dtype(),
                exampleCheck(program, shape, symbolic, batchSymbol));
    }

    /** The placeholder of the program's only user input, after checking it has one input and one output. */
    private static Node userInput(ExportedProgram program) {
        List<InputSpec> specs = program.graphSignature().inputSpecs();
        long users =
                specs.stream().filter(s -> s.kind() == InputKind.USER_INPUT).count();
        long outputs = program.graphSignature().outputSpecs().stream()
                .filter(s -> s.kind() == OutputKind.USER_OUTPUT)
                .count();
        if (users != 1 || outputs != 1) {
            throw new IllegalArgumentException("the server runs programs of one tensor input and one tensor output; "
                    + "this one has " + users + " inputs and " + outputs + " outputs");
        }
        List<Node> placeholders = program.graphModule().graph().nodes().stream()
                .filter(n -> n.op().equals("placeholder"))
                .toList();
        for (int i = 0; i < specs.size(); i++) {
            if (specs.get(i).kind() == InputKind.USER_INPUT) return placeholders.get(i);
        }
        throw new IllegalStateException("unreachable: one user input was counted");
    }

    /** Checks an example ({@code shape} without its batch dimension) as the program's guards would. */
    private static ServedModel.Check exampleCheck(
            ExportedProgram program, long[] shape, SymIntArray symbolic, int batchSymbol) {
        int rank = shape.length - 1;
        int[] symbolOf = new int[rank];
        for (int d = 0; d < rank; d++) {
            SymInt s = symbolic == null ? null : symbolic.elements().get(d + 1);
            symbolOf[d] = s == null || s.isConstant() ? -1 : plainSymbol(s, d + 1);
            if (symbolOf[d] >= 0 && symbolOf[d] == batchSymbol) {
                throw new IllegalArgumentException("the program's dimension " + (d + 1)
                        + " is its batch dimension's symbol: its examples cannot be batched independently");
            }
        }
        long[] want = Arrays.copyOfRange(shape, 1, shape.length);
        return example -> {
            if (example.dim() != rank) {
                throw new BadRequest(
                        422,
                        "input must have " + rank + " dimensions (shape " + shapeText(want, symbolOf) + "), got shape "
                                + Arrays.toString(example.shape()));
            }
            Map<Integer, Long> seen = new HashMap<>();
            for (int d = 0; d < rank; d++) {
                long got = example.size(d);
                if (symbolOf[d] < 0) {
                    if (got != want[d]) {
                        throw new BadRequest(
                                422,
                                "input dimension " + d + " must be " + want[d] + " (shape "
                                        + shapeText(want, symbolOf) + "), got shape "
                                        + Arrays.toString(example.shape()));
                    }
                    continue;
                }
                ValueRange r = range(program, symbolOf[d]);
                if (!r.contains(got)) {
                    throw new BadRequest(
                            422,
                            "input dimension " + d + " must lie in [" + r.min() + ", "
                                    + (r.max() == Long.MAX_VALUE ? "inf" : String.valueOf(r.max())) + "], got " + got);
                }
                Long earlier = seen.putIfAbsent(symbolOf[d], got);
                if (earlier != null && earlier != got) {
                    throw new BadRequest(
                            422,
                            "input dimensions of s" + symbolOf[d] + " must be equal, got shape "
                                    + Arrays.toString(example.shape()));
                }
            }
        };
    }

    /** The index {@code k} of a size that is the symbol {@code sk} alone; refuses an expression. */
    private static int plainSymbol(SymInt s, int dim) {
        long mask = s.symbols();
        if (Long.bitCount(mask) == 1 && s.equals(SymInt.symbol(Long.numberOfTrailingZeros(mask)))) {
            return Long.numberOfTrailingZeros(mask);
        }
        throw new IllegalArgumentException("the program's input dimension " + dim + " has the size " + s
                + ", an expression the server does not check requests against");
    }

    private static ValueRange range(ExportedProgram program, int symbol) {
        ValueRange r = program.rangeConstraints().get("s" + symbol);
        return r != null ? r : new ValueRange(0, Long.MAX_VALUE);
    }

    private static String shapeText(long[] sizes, int[] symbolOf) {
        StringBuilder sb = new StringBuilder("[");
        for (int d = 0; d < sizes.length; d++) {
            if (d > 0) sb.append(", ");
            sb.append(symbolOf[d] < 0 ? String.valueOf(sizes[d]) : "s" + symbolOf[d]);
        }
        return sb.append("]").toString();
    }

    private static String describe(Node input, long[] shape, SymIntArray symbolic) {
        StringBuilder sb = new StringBuilder("input ");
        DType dtype = input.meta().dtype();
        sb.append(dtype).append(" [");
        for (int d = 0; d < shape.length; d++) {
            if (d > 0) sb.append(", ");
            SymInt s = symbolic == null ? null : symbolic.elements().get(d);
            sb.append(s == null || s.isConstant() ? String.valueOf(shape[d]) : s.toString());
        }
        return sb.append("]").toString();
    }
}
