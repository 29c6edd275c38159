package org.jtorch.io;

import java.util.List;

/**
 * An instance of an allowlisted Python class or the result of an allowlisted function for which no Java factory was
 * given: the call is recorded, never made. {@code args} are the constructor (NEWOBJ) or call (REDUCE) arguments;
 * {@code state} is what the pickle's BUILD would pass to {@code __setstate__} (or null). Saving it writes the same
 * opcodes back.
 */
public final class PyObject {
    private final PyGlobal type;
    private final boolean newobj;
    private final List<Object> args;
    private Object state;

    /** An object of {@code type} built from {@code args}, with {@code state} from BUILD (null if none). */
    public PyObject(PyGlobal type, boolean newobj, List<Object> args, Object state) {
        this.type = type;
        this.newobj = newobj;
        this.args = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(args));
        this.state = state;
    }

    /** The class (NEWOBJ) or function (REDUCE). */
    public PyGlobal type() {
        return type;
    }

    /** True if made by {@code cls.__new__(cls, *args)} (NEWOBJ), false if by calling {@code type(*args)} (REDUCE). */
    public boolean isNewobj() {
        return newobj;
    }

    /** The arguments of the NEWOBJ or REDUCE call, read-only. */
    public List<Object> args() {
        return args;
    }

    /** The BUILD state, or null. */
    public Object state() {
        return state;
    }

    void setState(Object state) {
        this.state = state;
    }

    @Override
    public String toString() {
        return type.qualifiedName() + PyTuple.of(args) + (state == null ? "" : " state=" + PyRepr.of(state));
    }
}
