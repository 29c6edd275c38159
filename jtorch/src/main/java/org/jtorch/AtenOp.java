package org.jtorch;

import java.util.List;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.dispatch.Operator;
import org.jtorch.dispatch.Operators;

/**
 * An op named by its qualified name ({@code aten::add.Tensor}) and found in the op registry on first use, with the
 * typed calls {@link Tensor}'s methods need. The lookup happens once per op: later calls read a field.
 */
final class AtenOp {
    private final String qualifiedName;
    /** Resolved on first use; a race resolves the same operator twice, which is harmless. */
    private Operator operator;

    AtenOp(String qualifiedName) {
        this.qualifiedName = qualifiedName;
    }

    String qualifiedName() {
        return qualifiedName;
    }

    Operator operator() {
        Operator op = operator;
        if (op == null) operator = op = Operators.find(qualifiedName);
        return op;
    }

    /** The op's result: a tensor, an array of tensors, or what a composite returns. */
    Object call(Object... args) {
        return Dispatcher.call(operator(), args);
    }

    /** The call of an op with one tensor output. */
    Tensor call1(Object... args) {
        return (Tensor) Dispatcher.call(operator(), args);
    }

    /** The call of an op with several tensor outputs, keeping the first. */
    Tensor first(Object... args) {
        return ((Tensor[]) Dispatcher.call(operator(), args))[0];
    }

    /** The call of an op with several tensor outputs, as a list. */
    List<Tensor> list(Object... args) {
        return List.of((Tensor[]) Dispatcher.call(operator(), args));
    }

    /** The call of an op returning {@code (values, indices)}. */
    ValuesIndices pair(Object... args) {
        Tensor[] r = (Tensor[]) Dispatcher.call(operator(), args);
        return new ValuesIndices(r[0], r[1]);
    }

    /** The call of a {@code unique} op, whose optional outputs are kept only when asked for. */
    UniqueResult unique(boolean inverse, boolean counts, Object... args) {
        Tensor[] r = (Tensor[]) Dispatcher.call(operator(), args);
        return new UniqueResult(r[0], inverse ? r[1] : null, counts ? r[2] : null);
    }

    /** The in-place (or out=) call writing into {@code self}; returns it. */
    Tensor inPlace(Tensor self, Object... args) {
        Dispatcher.callOut(operator(), new Tensor[] {self}, args);
        return self;
    }
}
