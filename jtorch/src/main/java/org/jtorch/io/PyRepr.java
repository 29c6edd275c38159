package org.jtorch.io;

import java.util.Map;

/** Python-style {@code repr} of loaded values, for messages and {@code toString}. */
final class PyRepr {
    private PyRepr() {}

    static String of(Object o) {
        if (o == null) return "None";
        if (o instanceof Boolean b) return b ? "True" : "False";
        if (o instanceof String s) {
            String shown = s.length() > 200 ? s.substring(0, 200) + "..." : s;
            return "'" + shown.replace("\\", "\\\\").replace("'", "\\'") + "'";
        }
        if (o instanceof java.math.BigInteger b && b.bitLength() > 256) return "<int of " + b.bitLength() + " bits>";
        if (o instanceof byte[] b) return "b<" + b.length + " bytes>";
        // containers are summarized: they may be huge, deeply nested or cyclic
        if (o instanceof PyTuple t) return t.treeSize() <= 64 ? t.toString() : "tuple of " + t.size() + " items";
        if (o instanceof Map<?, ?> m) return typeName(o) + " of " + m.size() + " items";
        if (o instanceof java.util.Collection<?> c) return typeName(o) + " of " + c.size() + " items";
        return String.valueOf(o);
    }

    /** Python's name for the type of a loaded value, as in {@code unhashable type: 'list'}. */
    static String typeName(Object o) {
        if (o == null) return "NoneType";
        if (o instanceof String) return "str";
        if (o instanceof Long || o instanceof java.math.BigInteger) return "int";
        if (o instanceof Double) return "float";
        if (o instanceof Boolean) return "bool";
        if (o instanceof byte[]) return "bytes";
        if (o instanceof PyTuple) return "tuple";
        if (o instanceof PyOrderedDict) return "collections.OrderedDict";
        if (o instanceof Map) return "dict";
        if (o instanceof java.util.List) return "list";
        if (o instanceof java.util.Set) return "set";
        if (o instanceof org.jtorch.Tensor) return "torch.Tensor";
        if (o instanceof PyObject p) return p.type().qualifiedName();
        if (o instanceof PyGlobal g) return g.qualifiedName();
        if (o instanceof StorageRef) return "torch.storage.TypedStorage";
        if (o instanceof StorageType) return "type";
        return o.getClass().getSimpleName();
    }
}
