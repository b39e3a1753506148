// Every replicated resource, in the order a sync run pulls them, after the
// reference data (the others refer to it). Adding a resource = its folder with
// a descriptor.ts, and one line here.
import { ResourceCatalog } from '../catalog';
import type { ReplicatedResource } from '../resource';
import { annotationLogs } from './annotationLogs/descriptor';
import { annotations } from './annotations/descriptor';
import { artifacts } from './artifacts/descriptor';
import { policies } from './policies/descriptor';
import { referencePullers } from './reference/pullers';
import { remoteFiles } from './remoteFiles/descriptor';
import { rules } from './rules/descriptor';
import { savedSearches } from './savedSearches/descriptor';
import { testReports } from './testReports/descriptor';

export const replicatedResources: readonly ReplicatedResource[] = [
  annotations,
  annotationLogs,
  savedSearches,
  policies,
  rules,
  testReports,
  artifacts,
  remoteFiles,
];

export const resourceCatalog = new ResourceCatalog(replicatedResources, referencePullers);
