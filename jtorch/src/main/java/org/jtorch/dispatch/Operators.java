package org.jtorch.dispatch;

import java.util.ServiceLoader;
import org.jtorch.TorchException;

/**
 * Finds an op by its qualified name ({@code aten::add.Tensor}) for code below the op layer, which cannot name the op
 * definitions: {@code Tensor}'s methods call their ops this way, as ATen's generated {@code Tensor} methods reach the
 * dispatcher through schema names. The op registry answers, installed as a service ({@link Table}).
 */
public final class Operators {
    private Operators() {}

    /** What the op registry provides. */
    public interface Table {
        /** The op registered as {@code qualifiedName}, or null. */
        Operator lookup(String qualifiedName);
    }

    private static final class Installed {
        static final Table TABLE = ServiceLoader.load(Table.class, Table.class.getClassLoader())
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no implementation of " + Table.class.getName()
                        + " is installed (its META-INF/services entry is missing from the class path)"));
    }

    /** The op registered as {@code qualifiedName}; throws if there is none. */
    public static Operator find(String qualifiedName) {
        Operator op = Installed.TABLE.lookup(qualifiedName);
        if (op == null) throw new TorchException("no op is registered as '" + qualifiedName + "'");
        return op;
    }
}
