package org.jtorch;

import java.util.ServiceLoader;
import org.jtorch.dispatch.IndexingHooks;

/**
 * The op layer's logic that {@link Tensor}'s methods reach through hooks rather than through one op call by name (see
 * {@link IndexingHooks}); installed as a service, loaded on first use.
 */
final class OpHooks {
    private OpHooks() {}

    private static final class Installed {
        static final IndexingHooks<Tensor, Index> INDEXING = load();

        // the service type is generic in the tensor type only to stay below Tensor: its one provider is for Tensor
        @SuppressWarnings("unchecked")
        private static IndexingHooks<Tensor, Index> load() {
            return ServiceLoader.load(IndexingHooks.class, IndexingHooks.class.getClassLoader())
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException("no implementation of "
                            + IndexingHooks.class.getName()
                            + " is installed (its META-INF/services entry is missing from the class path)"));
        }
    }

    static IndexingHooks<Tensor, Index> indexing() {
        return Installed.INDEXING;
    }
}
