// The vendored public protos (proto/vendor), loaded once from the generated descriptor set: every message,
// enum and service the gRPC front door serves, and the extensions (google.api.http) that map them.
import { createFileRegistry, fromBinary, type DescService, type FileRegistry } from '@bufbuild/protobuf';
import { FileDescriptorSetSchema } from '@bufbuild/protobuf/wkt';
import { DESCRIPTOR_SET_BASE64 } from './descriptorSet.generated';

export const registry: FileRegistry = createFileRegistry(fromBinary(FileDescriptorSetSchema, Buffer.from(DESCRIPTOR_SET_BASE64, 'base64')));

/** Every service of the platform's packages (`sift.*`) in the set, in a stable order. */
export const siftServices: readonly DescService[] = [...registry]
  .filter((d): d is DescService => d.kind === 'service' && d.typeName.startsWith('sift.'))
  .sort((a, b) => a.typeName.localeCompare(b.typeName));
