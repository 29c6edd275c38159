/**
 * {@code torch.utils.data}: datasets, samplers and the {@link org.jtorch.utils.data.DataLoader}, whose workers are
 * threads. Library layer: uses the {@code Torch} facade and the tensor API, nothing of {@code nn} or {@code optim}.
 */
package org.jtorch.utils.data;
