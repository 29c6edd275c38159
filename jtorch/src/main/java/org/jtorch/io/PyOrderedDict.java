package org.jtorch.io;

import java.io.Serial;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A {@code collections.OrderedDict}, the type of {@code state_dict()}. Besides its items it keeps the instance
 * attributes that PyTorch stores on it (a state dict's {@code _metadata}), so that a loaded state dict saves back
 * unchanged.
 */
public final class PyOrderedDict extends LinkedHashMap<Object, Object> {
    @Serial
    private static final long serialVersionUID = 1L;

    /** A {@code LinkedHashMap} (not just a {@code Map}) so that the dict stays serializable with them. */
    private final LinkedHashMap<String, Object> attributes = new LinkedHashMap<>();

    /** An empty dictionary, as {@code collections.OrderedDict()}. */
    public PyOrderedDict() {}

    /** An ordered dict holding the entries of {@code m}, in its iteration order. */
    public PyOrderedDict(Map<?, ?> m) {
        super(m);
    }

    /** Instance attributes ({@code od.__dict__}), e.g. {@code _metadata}; mutable. */
    public Map<String, Object> attributes() {
        return attributes;
    }

    @Override
    public boolean equals(Object o) {
        return super.equals(o) && (!(o instanceof PyOrderedDict d) || d.attributes.equals(attributes));
    }

    @Override
    public int hashCode() {
        return super.hashCode();
    }

    @Override
    public String toString() {
        return "OrderedDict(" + super.toString() + ")";
    }
}
