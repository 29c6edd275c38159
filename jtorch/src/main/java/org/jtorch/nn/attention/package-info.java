/**
 * {@code torch.nn.attention}: attention over packed variable-length sequences ({@link org.jtorch.nn.attention.Varlen}).
 */
package org.jtorch.nn.attention;
