package org.jtorch.ops;

import org.jtorch.dispatch.Operator;
import org.jtorch.dispatch.Operators;

/** The op registry as the layers below it look ops up (installed as a service). */
public final class RegisteredOperators implements Operators.Table {
    /** The service constructor. */
    public RegisteredOperators() {}

    @Override
    public Operator lookup(String qualifiedName) {
        return OpRegistry.lookup(qualifiedName);
    }
}
