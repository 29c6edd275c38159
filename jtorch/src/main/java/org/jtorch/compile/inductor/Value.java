package org.jtorch.compile.inductor;

import org.jtorch.compile.inductor.ir.Elem;
import org.jtorch.compile.inductor.ir.Expr;
import org.jtorch.fx.Node;

/** What lowering knows of a graph value: a tensor that exists at run time, or an expression not yet computed. */
sealed interface Value {
    /** The tensor of {@code node} at run time (an input, an extern call's result, a kernel's output). */
    record Realized(Node node) implements Value {}

    /**
     * The value of each point of {@code shape} as {@code body}, over the shape's dimensions: computed by whichever
     * kernel reads it (inlined), or stored once when a consumer needs a tensor.
     */
    record Virtual(long[] shape, Elem elem, Expr body) implements Value {}

    /** The outputs of a multi-output op that lowering computes itself, read by {@code getitem} nodes. */
    record Tuple(Value[] items) implements Value {}
}
