// The reference entities the API resolves names and ids against (reference
// §11): assets, runs, tags, users (and GetMe), channels, units. One module per
// resource; this merges their operations for ../operations.ts.
import { assetOperations } from './assets';
import { channelOperations } from './channels';
import { runOperations } from './runs';
import { tagOperations } from './tags';
import { unitOperations } from './units';
import { userOperations } from './users';

export const referenceOperations = {
  ...assetOperations,
  ...runOperations,
  ...tagOperations,
  ...userOperations,
  ...channelOperations,
  ...unitOperations,
} as const;
