package org.jtorch.onnx;

import org.jtorch.fx.Node;

/** How one ATen op overload becomes ONNX nodes: appends them and defines the fx node's value. */
@FunctionalInterface
interface OpLowering {
    void lower(Node n, Lowering cx);
}
