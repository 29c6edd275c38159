/**
 * JTorch: PyTorch's programming model on the JVM.
 *
 * <p>Only the packages a user programs against are exported. The op definitions ({@code ops}), the dispatcher and its
 * interpreter stack ({@code dispatch}), the kernels, storage and shared helpers ({@code internal}) are the library's
 * own layers: they are not exported, so that they can change without breaking anyone, and a program on the module path
 * cannot reach them.
 */
@SuppressWarnings("requires-automatic") // protobuf-java is an automatic module (its jar names itself in its manifest)
module org.jtorch {
    // The CPU kernels' inner loops use the Vector API (still incubating in JDK 25).
    requires jdk.incubator.vector;
    // the DiagnosticCommand MBean, through which the vector kernels' inlining directive is added (VectorInlining)
    requires java.management;
    requires jdk.management;

    // ONNX export writes its models with protobuf-java's generated message classes (org.jtorch.onnx.proto).
    requires com.google.protobuf;

    // OpenBLAS and oneDNN need no module here: their shared libraries are read as resources of the
    // org.bytedeco:openblas and org.bytedeco:dnnl jars and bound through FFM, not through JavaCPP's classes.

    exports org.jtorch;
    exports org.jtorch.accelerator;
    exports org.jtorch.amp;
    exports org.jtorch.accelerator.spi;
    exports org.jtorch.autograd;
    exports org.jtorch.autograd.graph;
    exports org.jtorch.compile;
    exports org.jtorch.compile.trace;
    exports org.jtorch.compile.trace.report;
    exports org.jtorch.debug;
    exports org.jtorch.distributed;
    exports org.jtorch.distributions;
    exports org.jtorch.export;
    exports org.jtorch.fft;
    exports org.jtorch.foreach;
    exports org.jtorch.func;
    exports org.jtorch.fx;
    exports org.jtorch.io;
    exports org.jtorch.library;
    exports org.jtorch.linalg;
    exports org.jtorch.nn;
    exports org.jtorch.nn.attention;
    exports org.jtorch.nn.functional;
    exports org.jtorch.nn.init;
    exports org.jtorch.nn.parallel;
    exports org.jtorch.nn.utils;
    exports org.jtorch.nn.utils.prune;
    exports org.jtorch.nn.utils.rnn;
    exports org.jtorch.onnx;
    exports org.jtorch.optim;
    exports org.jtorch.optim.lr;
    exports org.jtorch.optim.swa;
    exports org.jtorch.utils.hooks;
    exports org.jtorch.utils.data;
    exports org.jtorch.utils.deterministic;

    // The op layer defines the autograd layer it runs; the autograd package, above it, implements it.
    uses org.jtorch.ops.AutogradLayer;

    provides org.jtorch.ops.AutogradLayer with
            org.jtorch.autograd.RecordingLayer;

    // Tensor's methods, below the op layer, find their ops by name; the op registry answers.
    uses org.jtorch.dispatch.Operators.Table;

    provides org.jtorch.dispatch.Operators.Table with
            org.jtorch.ops.RegisteredOperators;

    // Tensor's indexing methods reach the op layer's indexing logic through hooks.
    uses org.jtorch.dispatch.IndexingHooks;

    provides org.jtorch.dispatch.IndexingHooks with
            org.jtorch.ops.TensorIndexing;

    // Tensor reaches autograd, above it, through the hooks the dispatch package declares (VariableHooks).
    uses org.jtorch.dispatch.VmapHooks;

    provides org.jtorch.dispatch.VmapHooks with
            org.jtorch.func.FuncVmapHooks;

    uses org.jtorch.dispatch.VariableHooks;

    provides org.jtorch.dispatch.VariableHooks with
            org.jtorch.autograd.TensorHooks;

    // Device strings name the loaded backends' types; the backend registry, above the value types, answers for them.
    uses org.jtorch.DeviceTypes.Registry;

    provides org.jtorch.DeviceTypes.Registry with
            org.jtorch.ops.BackendDeviceTypes;

    // Accelerator backends are other modules (or class-path jars) that provide this SPI.
    uses org.jtorch.accelerator.spi.DeviceBackend;
}
