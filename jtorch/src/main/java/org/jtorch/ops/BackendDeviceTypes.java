package org.jtorch.ops;

import java.util.List;
import org.jtorch.DeviceTypes;

/** The backend registry's answer to which device types a device string may name (installed as a service). */
public final class BackendDeviceTypes implements DeviceTypes.Registry {
    /** The service constructor. */
    public BackendDeviceTypes() {}

    @Override
    public boolean accepts(String type) {
        return Backends.find(type).isPresent();
    }

    @Override
    public List<String> knownTypes() {
        return Backends.knownTypes();
    }

    @Override
    public int currentIndex(String type) {
        return Backends.currentIndex(type);
    }
}
