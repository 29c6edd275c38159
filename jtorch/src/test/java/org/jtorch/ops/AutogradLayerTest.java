package org.jtorch.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.ServiceLoader;
import org.jtorch.autograd.RecordingLayer;
import org.junit.jupiter.api.Test;

/** The op layer reaches autograd only through the one {@link AutogradLayer} the library installs. */
class AutogradLayerTest {

    @Test
    void exactlyOneLayerIsInstalledAndItIsAutogradsRecorder() {
        List<Class<?>> providers = ServiceLoader.load(AutogradLayer.class).stream()
                .<Class<?>>map(ServiceLoader.Provider::type)
                .toList();
        assertEquals(List.of(RecordingLayer.class), providers);
    }
}
